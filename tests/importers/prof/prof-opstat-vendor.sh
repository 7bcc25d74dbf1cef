#!/bin/sh
# communication_statistic of raw collections against the vendor's own
# code, where its sources are at hand (a development check: skipped on a
# clean machine). MSPROF_SRC names the analysis/ folder of a source tree
# of github.com/Ascend/msprof. opstat-vendor.py hands the HCCL tasks of a
# generated collection (npuprof-gen prof -L), given to their ops and
# named as prof-hccl.sh checks them, to the vendor's HcclCalculator,
# which groups them into ops and op types and works out the figures; the
# table must be its rows, cell for cell, as msprof's export rounds them.
. "$top_srcdir/tests/lib.sh"

need_msprof_src mscalculate/hccl

for c in "one:-s 71 -n 1200 -T 1" "two:-s 7 -n 3000 -T 2" \
    "wrap:-s 74 -n 3000 -T 1 -w -S 2 -2" "devices:-s 72 -n 2000 -T 2 -d 2"; do
	name=${c%%:*}
	d="$T/$name"
	# shellcheck disable=SC2086
	"$GEN" prof "$d/in" -e "$d/want" -L ${c#*:} >/dev/null 2>&1
	ok $? "$name: generate"
	"$PY" "$top_srcdir/tests/importers/prof/opstat-vendor.py" "$d/want" \
	    "$d/vendor.csv"
	ok $? "$name: the vendor's HcclCalculator ran"
	"$NPUPROF" show -q --db "$d/s.db" --format csv "$d/in" \
	    communication_statistic >"$d/ours.csv"
	same_file "$d/ours.csv" "$d/vendor.csv" \
	    "$name: communication_statistic as the vendor's"
done

done_testing
