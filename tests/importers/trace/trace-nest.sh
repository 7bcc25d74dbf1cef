#!/bin/sh
# Span nesting on a generated trace whose nesting is known: Python and CANN
# spans of one thread in different pseudo-processes nest together, another
# thread nests apart, a span that only overlaps its neighbour is not inside
# it, ties on start go to the longer span and then to the earlier event,
# device spans nest within their own lane, and a span that ends exactly
# where its parent ends is still inside.
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
done_testing
