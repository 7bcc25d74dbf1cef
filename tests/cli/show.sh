#!/bin/sh
# show on generated profiles: op_statistic computed from the task rows
# equals the generator's own (for several seeds and with the CSV quirks:
# BOM, CRLF, quoted shapes, N/A rows, no final newline), and the output
# of every format matches its golden file.
. "$top_srcdir/tests/lib.sh"

for seed in 1 2 3; do
	for q in "" --quirks; do
		d="$T/s$seed$q"
		"$GEN" demo "$d" -s $seed -n 3000 -S 4 -r 2 -e "$d.expect" $q ||
		    exit 1
		for r in 0 1; do
			"$NPUPROF" show -q --db "$d.db" --format csv --rank $r \
			    --stats computed "$d" op_statistic >"$T/got"
			same_file "$T/got" "$d.expect/rank$r/op_statistic.csv" \
			    "seed $seed$q rank $r: op_statistic from kernel_details"
		done
	done
done

"$GEN" demo "$T/g" -s 7 -n 40 -S 2 -r 1 --stats || exit 1
for f in table csv tsv json; do
	"$NPUPROF" show -q --db "$T/g.db" --format $f "$T/g" op_statistic \
	    api_statistic >"$T/out.$f"
	ok $? "show --format $f"
	golden "$T/out.$f" "show-g.$f" "show --format $f matches its golden file"
done
"$NPUPROF" show -q --db "$T/g.db" --format csv --sort -Duration --limit 5 \
    "$T/g" kernels >"$T/k.csv"
golden "$T/k.csv" "show-g-kernels.csv" "kernels sorted by duration, limit 5"
"$NPUPROF" show -q --db "$T/g.db" --format tsv --filter 'OP Type:^(Add|Cast)$' \
    "$T/g" op_statistic >"$T/f.tsv"
golden "$T/f.tsv" "show-g-filter.tsv" "filter on one column"
"$NPUPROF" show -q --db "$T/g.db" --format json "$T/g" op_statistic >"$T/one.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d, list) and d[0]["Count"] > 0' "$T/one.json" 2>/dev/null ||
    [ -z "$(command -v python3)" ]
ok $? "one table in JSON is an array of objects with numbers"
# A table too wide for the terminal cuts names, never a number: a cut
# number reads as another one.
if command -v script >/dev/null 2>&1; then
	script -qc "stty cols 40; '$NPUPROF' show -q --db '$T/g.db' --sort \
	    -Duration --limit 5 '$T/g' kernels" /dev/null >"$T/narrow"
else
	cp "$T/k.csv" "$T/narrow"	# no terminal to try: vacuous
fi
"$NPUPROF" show -q --db "$T/g.db" --format csv --sort -Duration --limit 5 \
    "$T/g" kernels >"$T/k5.csv"
bad=0 n=0
for v in $(awk -F, -v name="Task Start Time(us)" 'NR == 1 {
    for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
    c { print $c }' "$T/k5.csv"); do
	n=$((n + 1))
	grep -qF -- "$v" "$T/narrow" || bad=$((bad + 1))
done
is "$n:$bad" "5:0" "40 columns: every start time whole, as in the CSV"
COLUMNS=60 LC_ALL=C "$NPUPROF" show -q --db "$T/g.db" "$T/g" >"$T/ascii"
! grep -q "$(printf '\342')" "$T/ascii"
ok $? "C locale: ASCII rules only"
! grep -q "$(printf '\033')" "$T/ascii"
ok $? "not a terminal: no colour"
done_testing
