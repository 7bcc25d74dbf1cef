#!/bin/sh
# JSON files read whole into a tree (profiler_info, a raw collection's
# info.json) whose arrays nest hundreds of thousands deep: yajl frees such
# a tree by recursion, which overflowed the stack. The file is refused
# with one warning naming it and the byte; the rest of the profile loads.
. "$top_srcdir/tests/lib.sh"

deep() {	# deep N: N nested arrays around 1
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "["
		printf "1"; for (i = 0; i < n; i++) printf "]" }'
}

"$GEN" demo "$T/d" -n 300 >/dev/null || exit 1
f=$(echo "$T"/d/*/profiler_info_0.json)
{ printf '{"config": '; deep 300000; printf '}\n'; } >"$f"
"$NPUPROF" import -q --db "$T/d.db" "$T/d"
is $? 0 "profiler_info nested 300000 deep: imported"
"$NPUPROF" show -q --db "$T/d.db" --format tsv "$T/d" warnings >"$T/w"
grep -q "profiler_info_0.json.*nested deeper than 512 at byte 522" "$T/w"
ok $? "one warning names the file and the byte"
is "$("$NPUPROF" show -q --db "$T/d.db" --format csv "$T/d" kernels |
    tail -n +2 | wc -l | tr -d ' ')" 300 "and every kernel is loaded"

"$GEN" prof "$T/p" -s 3 -n 100 >/dev/null || exit 1
f=$(echo "$T"/p/PROF_*/host/info.json)
{ printf '{"deep": '; deep 300000; printf ', '; tail -c +2 "$f"; } >"$f.new" &&
    mv "$f.new" "$f"
"$NPUPROF" import -q --db "$T/p.db" "$T/p"
is $? 0 "a raw collection's info.json nested 300000 deep: imported"
"$NPUPROF" show -q --db "$T/p.db" --format tsv "$T/p" warnings >"$T/w"
grep -q "host/info.json.*nested deeper than 512" "$T/w"
ok $? "one warning names it"
done_testing
