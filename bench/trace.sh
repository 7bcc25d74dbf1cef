#!/bin/sh
# Import speed and memory of a big chrome trace. Builds a trace_view.json of
# about SIZE_MB (default 1024) in TMPDIR by repeating the events of a real
# sample (the oamtools torch_npu 2.7.1 trace_view.json: Python, CANN,
# device tasks, flows, counters) with timestamps shifted per copy, imports
# it and reports MB/s and peak RSS; deletes its files. The sample gives
# torch_npu's order, PyTorch ops by their end; a second file holds the
# same events by start time (longer first on a tie), as msprof's own
# timeline JSON and most trace writers give them, where spans nest as
# they load (src/store/store-nest-live.c).
# usage: bench/trace.sh NPUPROF [SIZE_MB]
set -eu
npuprof=${1:?usage: bench/trace.sh NPUPROF [SIZE_MB]}
. "$(dirname "$0")/lib.sh" "$npuprof"
size_mb=${2:-1024}
src=${SAMPLE:-$here/../../shared/samples/oamtools-torchnpu271-cann910-ascend_pt/hdspace-32g-outer-17_59186_20260601142437309_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json}
[ -f "$src" ] || { echo "bench/trace.sh: no sample trace at $src"; exit 0; }
command -v python3 >/dev/null || { echo "bench/trace.sh: needs python3"; exit 0; }
d=$(mktemp -d "${TMPDIR:-/tmp}/npt-bench.XXXXXX")
trap 'rm -rf "$d"' EXIT
python3 - "$src" "$d/trace_view.json" "$size_mb" "$d/by_start.json" <<'PY'
import json, sys
src, out, out2 = sys.argv[1], sys.argv[2], sys.argv[4]
size_mb = int(sys.argv[3])
ev = json.load(open(src))
meta = [e for e in ev if e.get("ph") == "M"]
body = [e for e in ev if e.get("ph") != "M"]
ts = [float(e["ts"]) for e in body if "ts" in e]
span = max(ts) - min(ts) + 1000.0
def start_key(e):
    return (float(e["ts"]) if "ts" in e else 0.0, -float(e.get("dur", 0)))
by_start = sorted(body, key=start_key)
def shifted(k, body):
    # One copy of the body, later by k spans; ids and connection ids
    # made unique per copy so links stay one to one.
    parts = []
    for e in body:
        e = dict(e)
        if "ts" in e:
            e["ts"] = "%.3f" % (float(e["ts"]) + k * span)
        if "id" in e:
            e["id"] = str(e["id"]) + "%06d" % k if isinstance(e["id"], str) else e["id"] * 1000 + k
        a = e.get("args")
        if isinstance(a, dict) and "connection_id" in a:
            a = dict(a); a["connection_id"] = a["connection_id"] * 100000 + k; e["args"] = a
        parts.append(json.dumps(e))
    return ",\n".join(parts)
for path, b in ((out, body), (out2, by_start)):
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e) for e in meta))
        k, n = 0, f.tell()
        while n < size_mb * 1024 * 1024:
            s = shifted(k, b)
            f.write(",\n" + s)
            n += len(s) + 2
            k += 1
        f.write("\n]\n")
PY
for order in trace_view by_start; do
	bytes=$(wc -c <"$d/$order.json")
	rm -f "$d/store.db"
	# On a shared machine the wall clock includes waiting for a core, so the
	# rate is also given per CPU second (user + system) of the import.
	/usr/bin/time -f '%e %U %S %M' -o "$d/time" "$npuprof" import -q \
	    --db "$d/store.db" "$d/$order.json"
	read -r secs user sys rss_kb <"$d/time"
	awk -v b="$bytes" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss_kb" \
	    -v f="$order.json" \
	    'BEGIN { c = u + y; if (c <= 0) c = 0.01; if (s <= 0) s = 0.01
		printf "trace import of %s: %.0f MB in %.2f s wall" \
		    " (%.1f MB/s), %.2f s CPU (%.1f MB/s per core)," \
		    " peak RSS %.1f MB\n",
		    f, b / 1048576, s, b / 1048576 / s, c,
		    b / 1048576 / c, r / 1024 }'
	# yajl's own parse of the same file (json_verify, Debian's yajl-tools):
	# the import's rate against it, which #24 wants at 0.25 or more.
	if command -v json_verify >/dev/null; then
		/usr/bin/time -f '%e' -o "$d/time2" json_verify -q \
		    <"$d/$order.json" >/dev/null || true
		read -r vsecs <"$d/time2"
		awk -v b="$bytes" -v s="$secs" -v v="$vsecs" 'BEGIN {
			if (v <= 0) v = 0.01
			printf "json_verify of the same file: %.2f s" \
			    " (%.0f MB/s); import rate / json_verify rate:" \
			    " %.3f (target 0.25)\n",
			    v, b / 1048576 / v, v / s }'
		echo "(reproduce: json_verify -q <FILE; $npuprof import -q" \
		    "--db S.db FILE)"
	else
		vsecs=0
		echo "json_verify (yajl-tools) not found: no ratio to" \
		    "yajl's rate"
	fi
	# The UI on the same file with no store yet: its first screen, once
	# the spans are loaded and nested (the other indexes come after it).
	first=$(first_screen "$d/u.db" "$d/$order.json")
	rm -f "$d/u.db"*
	awk -v f="${first:-0}" -v v="$vsecs" 'BEGIN {
		if (f <= 0) { print "UI first screen: not measured"; exit }
		printf "UI first screen with no store: %.2f s", f / 1000
		if (v > 0)
			printf "; json_verify / it: %.3f", v / (f / 1000)
		printf "\n" }'
	rm -f "$d/$order.json"
done
echo "(reproduce: echo '#' >KEYS; TERM=xterm LINES=50 COLUMNS=160" \
    "$npuprof --replay KEYS --db NEW.db FILE, first-screen-ms)"
