#!/bin/sh
# The vendor's SQLite exports on the real samples (msinsight-pt-db: PyTorch
# db export, Level0 and Level1, two ranks): each ascend_pt folder imports
# from its ascend_pytorch_profiler_N.db, a digest of what lands in the store
# is golden, and our op_statistic equals a direct SQL aggregate over TASK x
# COMPUTE_TASK_INFO x STRING_IDS computed from the .db itself (FORMATS.md
# section 8: rows of type N/A and communication, write-back and invalid
# core types left out; the ratio over the rows kept).
. "$top_srcdir/tests/lib.sh"
need_samples
[ -n "${PYTHON3:-}" ] || PYTHON3=$(command -v python3 || true)
[ -n "$PYTHON3" ] || skip_all "no python3 to compute the SQL reference"
find "$SAMPLES" -name 'ascend_pytorch_profiler*.db' -o -name 'msprof_*.db' |
    sort >"$T/dbs"
[ -s "$T/dbs" ] || skip_all "no vendor database among the samples"

q() {	# q DB SQL: rows as text, cells joined by |
	"$PYTHON3" - "$1" "$2" <<'PY'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if c is None else str(c) for c in row))
PY
}

# The tool's op_statistic rules as SQL over the vendor database, printed as
# our show prints it (us with 3 decimals, zeros stripped; ratio 3 decimals).
reference() {
	"$PYTHON3" - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?immutable=1", uri=True)
rows = db.execute("""
    SELECT t.deviceId, op.value, ty.value, count(*),
        sum(t.endNs - t.startNs), min(t.endNs - t.startNs),
        max(t.endNs - t.startNs)
    FROM TASK t JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId
    JOIN STRING_IDS op ON op.id = c.opType
    JOIN STRING_IDS ty ON ty.id = c.taskType
    WHERE op.value <> 'N/A' AND ty.value NOT IN ('N/A', 'HCCL',
        'COMMUNICATION', 'HCCL_AI_CPU', 'WRITE_BACK', 'INVALID')
    GROUP BY t.deviceId, op.value, ty.value""").fetchall()
def us(ns):
    s = "%.3f" % (ns / 1000.0)
    return s.rstrip("0").rstrip(".")
total = sum(r[4] for r in rows)
for d, op, ty, n, tot, mn, mx in rows:
    print(",".join([str(d), op, ty, str(n), us(tot), us(mn), us(tot // n),
        us(mx), us(round(tot * 100.0 / total * 1000))]))
PY
}

i=0
: >"$T/digest"
while read -r db; do
	i=$((i + 1))
	unit=$(dirname "$(dirname "$db")")
	rel=${db#"$SAMPLES"/}
	"$NPUPROF" import -q --db "$T/d$i.db" "$unit" 2>"$T/err"
	ok $? "$rel: its folder imports"
	{
		echo "== $rel"
		q "$T/d$i.db" "SELECT 'tasks', device, rank, count(*),
		    count(conn), count(api), sum(dur_ns), min(start_ns)
		    FROM task GROUP BY device, rank ORDER BY device, rank"
		q "$T/d$i.db" "SELECT 'spans', level, count(*), sum(dur_ns),
		    count(conn), count(args) FROM api_spans GROUP BY level
		    ORDER BY level"
		q "$T/d$i.db" "SELECT 'meta', key, value FROM meta
		    WHERE key LIKE 'db.SCHEMA_VERSION%' ORDER BY key"
		q "$T/d$i.db" "SELECT 'warnings', count(*) FROM warning"
	} >>"$T/digest"
	"$NPUPROF" show -q --db "$T/d$i.db" --format csv --stats computed \
	    "$unit" op_statistic | tail -n +2 | sort >"$T/ours"
	reference "$db" | sort >"$T/ref"
	if [ -s "$T/ref" ]; then
		same_file "$T/ours" "$T/ref" \
		    "$rel: op_statistic equals SQL over TASK x COMPUTE_TASK_INFO x STRING_IDS ($(wc -l <"$T/ref") rows)"
	else
		is "$(cat "$T/ours")" "" \
		    "$rel: no op_statistic rows, as in SQL (Level0 op types are N/A)"
	fi
done <"$T/dbs"
golden "$T/digest" db-samples.txt "what the sample databases put in the store"

# A PyTorch span keeps its call stack and input shapes as args.
db=$(head -n 1 "$T/dbs")
stack=$(q "$T/d1.db" "SELECT count(*) FROM api WHERE args LIKE '%\"Call stack\":\"%'")
[ "$stack" -gt 0 ]
ok $? "PyTorch spans carry their call stacks ($stack)"

# A vendor database given directly as PATH; our own store is not one.
"$NPUPROF" import -q --db "$T/direct.db" "$db" 2>/dev/null
ok $? "a vendor .db given as PATH imports"
"$NPUPROF" import -q --db "$T/again.db" "$T/direct.db" >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "one of our stores is not taken for a vendor database"
done_testing
