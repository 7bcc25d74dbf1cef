#!/bin/sh
# Generated CANN 6.x legacy timeline/ folders (two devices, several
# iterations, several seeds) import into exactly the tables the generator
# computed from its own nanoseconds: task_time on the epoch clock of
# start_info (times written as Python float text, durations as float
# differences), one step_trace row per iteration although every
# step_trace_* file repeats them all, and each HCCL event once although
# msprof_* repeats hccl_*. Damage and a missing start_info are reported.
. "$top_srcdir/tests/lib.sh"
[ -x "$GEN" ] || skip_all "no generator at $GEN"

for seed in 1 4; do
	d=$T/s$seed
	"$GEN" legacy-timeline "$d/PROF_1" -s $seed -n 60 -S 3 -t 4 -r 2 \
	    -e "$d/expect"
	ok $? "seed $seed: generate"
	"$NPUPROF" import --db "$d.db" "$d/PROF_1" >/dev/null 2>"$d/err"
	ok $? "seed $seed: import"
	is "$(cat "$d/err")" "" "seed $seed: no warning"
	for t in task_time step_trace; do
		# Two ranks: the Rank column comes first.
		"$NPUPROF" show -q --db "$d.db" --format csv "$d/PROF_1" $t |
		    cut -d, -f2- >"$d/$t.got"
		same_file "$d/$t.got" "$d/expect/$t.csv" \
		    "seed $seed: $t as generated"
	done
	is "$(q "$d.db" "SELECT device, count(*) FROM api_spans
	    WHERE level = 'HCCL' GROUP BY device")" \
	    "$(cat "$d/expect/hccl.txt")" "seed $seed: each HCCL event once"
	is "$(q "$d.db" "SELECT device, count(*) FROM api_spans WHERE level =
	    'Step Trace' GROUP BY device")" "0|16
1|16" "seed $seed: four step trace spans per iteration, once"
	is "$(q "$d.db" "SELECT group_concat(DISTINCT device || ':' || rank)
	    FROM task")" "0:0,1:1" "seed $seed: ranks from info.json.N"
done

# How show prints a generated timeline (golden).
d=$T/s1
"$NPUPROF" show -q --db "$d.db" --limit 3 "$d/PROF_1" task_time step_trace \
    >"$T/show.table"
golden "$T/show.table" legacy-timeline-gen.table "seed 1: show prints the tables"

# One iteration's msprof_* cut short: what came before the cut stays, one
# warning names the file and offset, the other iterations are whole.
d=$T/s4/PROF_1/device_0/timeline
f=$d/msprof_0_2_3.json
size=$(wc -c <"$f")
head -c $((size / 2)) "$f" >"$f.cut" && mv "$f.cut" "$f"
"$NPUPROF" import --db "$T/cut.db" "$T/s4/PROF_1/device_0" >/dev/null \
    2>"$T/err"
ok $? "a cut msprof_* file still imports"
grep -q "msprof_0_2_3.json: offset $((size / 2)): .*cut short" "$T/err"
ok $? "the cut is reported with its file and offset"
is "$(q "$T/cut.db" "SELECT count(*) FROM step")" 4 \
    "the step trace of every iteration remains"
[ "$(q "$T/cut.db" "SELECT count(*) FROM task WHERE step = 3")" -lt 15 ] &&
    [ "$(q "$T/cut.db" "SELECT count(*) FROM task WHERE step = 2")" -eq 15 ]
ok $? "the cut iteration keeps its first tasks, the others all 15"

# Without start_info the times stay monotonic, with a warning.
rm "$T/s1/PROF_1/device_1/start_info.1"
"$NPUPROF" import --db "$T/mono.db" "$T/s1/PROF_1/device_1" >/dev/null \
    2>"$T/err"
ok $? "a device without start_info imports"
grep -q 'no start_info beside the timeline files' "$T/err"
ok $? "and warns that the times stay monotonic"
[ "$(q "$T/mono.db" "SELECT max(start_ns) FROM task")" -lt \
    1000000000000000000 ]
ok $? "its tasks keep monotonic times"
done_testing
