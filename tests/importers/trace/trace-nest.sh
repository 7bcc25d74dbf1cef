#!/bin/sh
# Span nesting on a generated trace whose nesting is known: Python and CANN
# spans of one thread in different pseudo-processes nest together, another
# thread nests apart, a span that only overlaps its neighbour is not inside
# it, ties on start go to the longer span and then to the earlier event,
# device spans nest within their own lane, and a span that ends exactly
# where its parent ends is still inside; the same whether the spans come
# in time order (nested as they load) or out of it (nested at the commit,
# from the spans kept in memory or, past NPUPROF_NEST_KEEP, the index).
. "$top_srcdir/tests/lib.sh"

# Times in us from 1700000000000000; events deliberately out of order.
cat >"$T/n.json" <<'JSON'
[
{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "Python"}},
{"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "CANN"}},
{"ph": "M", "name": "process_name", "pid": 2048, "tid": 0, "args": {"name": "HCCL"}},
{"name": "AscendCL@aclnnMul", "pid": 2, "tid": 5, "ts": "1700000000000030", "dur": 10, "ph": "X"},
{"name": "aten::linear", "pid": 1, "tid": 5, "ts": "1700000000000000", "dur": 100, "ph": "X", "cat": "cpu_op"},
{"name": "aten::addmm", "pid": 1, "tid": 5, "ts": "1700000000000010", "dur": 50, "ph": "X", "cat": "cpu_op"},
{"name": "AscendCL@aclnnAddmm", "pid": 2, "tid": 5, "ts": "1700000000000012", "dur": 8, "ph": "X"},
{"name": "Node@launch", "pid": 2, "tid": 5, "ts": "1700000000000013", "dur": 7, "ph": "X"},
{"name": "aten::t", "pid": 1, "tid": 5, "ts": "1700000000000090", "dur": 20, "ph": "X", "cat": "cpu_op"},
{"name": "aten::view", "pid": 1, "tid": 6, "ts": "1700000000000012", "dur": 3, "ph": "X", "cat": "cpu_op"},
{"name": "aten::short", "pid": 1, "tid": 6, "ts": "1700000000000040", "dur": 5, "ph": "X", "cat": "cpu_op"},
{"name": "aten::long", "pid": 1, "tid": 6, "ts": "1700000000000040", "dur": 9, "ph": "X", "cat": "cpu_op"},
{"name": "aten::twin1", "pid": 1, "tid": 6, "ts": "1700000000000060", "dur": 4, "ph": "X", "cat": "cpu_op"},
{"name": "aten::twin2", "pid": 1, "tid": 6, "ts": "1700000000000060", "dur": 4, "ph": "X", "cat": "cpu_op"},
{"name": "hcom_allReduce", "pid": 2048, "tid": 0, "ts": "1700000000000020", "dur": 50, "ph": "X"},
{"name": "Notify_Wait", "pid": 2048, "tid": 1, "ts": "1700000000000025", "dur": 5, "ph": "X"},
{"name": "Memcpy", "pid": 2048, "tid": 1, "ts": "1700000000000026", "dur": 2, "ph": "X"}
]
JSON

"$NPUPROF" import -q --db "$T/n.db" "$T/n.json" 2>"$T/err"
ok $? "a trace with nested spans imports"
is "$(q "$T/n.db" "SELECT s.tid, s.name, s.depth, coalesce(p.name, '-')
    FROM api_spans s LEFT JOIN api_spans p ON p.id = s.parent
    ORDER BY s.device, s.tid, s.start_ns, s.end_ns DESC, s.id")" \
"0|hcom_allReduce|0|-
1|Notify_Wait|0|-
1|Memcpy|1|Notify_Wait
5|aten::linear|0|-
5|aten::addmm|1|aten::linear
5|aclnnAddmm|2|aten::addmm
5|launch|3|aclnnAddmm
5|aclnnMul|2|aten::addmm
5|aten::t|0|-
6|aten::view|0|-
6|aten::long|0|-
6|aten::short|1|aten::long
6|aten::twin1|0|-
6|aten::twin2|1|aten::twin1" \
    "each span's depth and parent, by time within its thread"
is "$(q "$T/n.db" "SELECT count(*) FROM api WHERE depth IS NULL")" 0 \
    "every span has a depth"
is "$(q "$T/n.db" "SELECT count(*) FROM api c JOIN api p ON p.id = c.parent
    WHERE c.depth <> p.depth + 1 OR c.start_ns < p.start_ns
    OR c.end_ns > p.end_ns")" 0 \
    "a child is one deeper than its parent and within it"

# The same spans by start time, as msprof's JSON gives them: each thread's
# spans nest as they load (store-nest-live.c) and must come out as the
# walk at the commit gives them.
nest_list() {
	q "$1" "SELECT s.tid, s.name, s.depth, coalesce(p.name, '-')
	    FROM api_spans s LEFT JOIN api_spans p ON p.id = s.parent
	    ORDER BY s.device, s.tid, s.start_ns, s.end_ns DESC, s.id"
}
nest_list "$T/n.db" >"$T/walked"
{ sed -n '1,4p' "$T/n.json"; sed -n '5,$p' "$T/n.json" | sed '$d' |
    sed 's/,$//' | sort -t'"' -k14,14 -s | sed 's/$/,/' | sed '$s/,$//'
    echo ']'; } >"$T/s.json"
"$NPUPROF" import -q --db "$T/s.db" "$T/s.json" 2>>"$T/err"
ok $? "the same trace by start time imports"
nest_list "$T/s.db" >"$T/live"
is "$(cat "$T/live")" "$(cat "$T/walked")" \
    "by start time: the same depths and parents"

# Many random spans on four threads, each written three ways: by start
# (longer first), at random, and by start with one early span last, so
# that a thread nests as it loads for thousands of spans and then hands
# them all back to the walk. The three stores must agree span by span.
awk 'BEGIN {
	srand(7)
	for (t = 1; t <= 4; t++)
		for (i = 0; i < 3000; i++) {
			s = int(rand() * 200000)
			d = int(rand() * rand() * 3000)
			k = t " " s " " d
			if (k in seen) continue
			seen[k] = 1
			printf "%d %d %d r%d_%d\n", t, s, d, t, i
		}
}' >"$T/spans"
to_json() {
	awk 'BEGIN { print "[" } NR > 1 { print "," }
	{ printf "{\"name\": \"%s\", \"pid\": 1, \"tid\": %d, \"ts\":" \
	    " \"%.0f\", \"dur\": %d, \"ph\": \"X\"}", $4, $1, \
	    1700000000000000 + $2, $3 }
	END { print "\n]" }'
}
sort -k2,2n -k3,3nr "$T/spans" | to_json >"$T/r-start.json"
to_json <"$T/spans" >"$T/r-random.json"
sort -k2,2n -k3,3nr "$T/spans" | awk 'NR == 1 { first = $0; next }
    { print } END { print first }' | to_json >"$T/r-late.json"
for o in start random late; do
	"$NPUPROF" import -q --db "$T/r-$o.db" "$T/r-$o.json" 2>>"$T/err"
	ok $? "random spans, $o order, import"
	nest_list "$T/r-$o.db" | sort >"$T/r-$o.list"
done
is "$(wc -l <"$T/r-start.list")" "$(wc -l <"$T/spans")" \
    "every random span is in the store"
is "$(cmp "$T/r-random.list" "$T/r-start.list" && echo same)" same \
    "random spans: by start, the same nesting as at random"
is "$(cmp "$T/r-random.list" "$T/r-late.list" && echo same)" same \
    "random spans: one late span, the same nesting as at random"
is "$(q "$T/r-start.db" "SELECT max(depth) > 3, count(DISTINCT parent) > 1000
    FROM api")" "1|1" "the random spans nest deep and wide"

# Out of order, the spans are kept in memory as they load and nested from
# there at the commit, with no index; past NPUPROF_NEST_KEEP spans kept
# they are nested from the index api_start instead. Both give the same.
# (Spans to nest that were never kept, which also send the commit to the
# index, come from a raw MindSpore profile: prof-ms.sh.)
has_api_start() {
	q "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'api_start'"
}
is "$(has_api_start "$T/r-random.db")$(has_api_start "$T/r-late.db")" 00 \
    "out of order: nested from memory, without the index"
for o in random late; do
	NPUPROF_NEST_KEEP=1000 "$NPUPROF" import -q --db "$T/k-$o.db" \
	    "$T/r-$o.json" 2>>"$T/err"
	ok $? "$o order, 1000 spans kept at most, imports"
	is "$(has_api_start "$T/k-$o.db")" 1 "$o order: nested from the index"
	nest_list "$T/k-$o.db" | sort >"$T/k-$o.list"
	is "$(cmp "$T/k-$o.list" "$T/r-$o.list" && echo same)" same \
	    "$o order: the same nesting from the index as from memory"
	is "$(q "$T/k-$o.db" "SELECT id, depth, parent FROM api ORDER BY id" |
	    cksum)" "$(q "$T/r-$o.db" "SELECT id, depth, parent FROM api
	    ORDER BY id" | cksum)" "$o order: the same parents by row id"
done
# Three threads by start and one at random: a quarter of the rows kept,
# spread over all of them, nested from memory in batches sorted by row id.
awk '$1 != 4' "$T/spans" | sort -k2,2n -k3,3nr >"$T/in-order"
awk '$1 == 4' "$T/spans" >"$T/random4"
awk 'NR == FNR { r[++n] = $0; next } { print }
    FNR % 3 == 0 && j < n { print r[++j] } END { while (j < n) print r[++j] }' \
    "$T/random4" "$T/in-order" | to_json >"$T/r-mixed.json"
"$NPUPROF" import -q --db "$T/m.db" "$T/r-mixed.json" 2>>"$T/err"
NPUPROF_NEST_KEEP=0 "$NPUPROF" import -q --db "$T/m0.db" "$T/r-mixed.json" \
    2>>"$T/err"
is "$(has_api_start "$T/m.db")$(has_api_start "$T/m0.db")" 01 \
    "one thread out of order: from memory, or from the index with none kept"
is "$(q "$T/m.db" "SELECT id, depth, parent FROM api ORDER BY id" | cksum)" \
    "$(q "$T/m0.db" "SELECT id, depth, parent FROM api ORDER BY id" | cksum)" \
    "one thread out of order: the same parents by row id either way"
nest_list "$T/m.db" | sort >"$T/m.list"
is "$(cmp "$T/m.list" "$T/r-random.list" && echo same)" same \
    "one thread out of order: the same nesting as all at random"
done_testing
