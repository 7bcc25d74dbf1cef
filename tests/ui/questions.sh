#!/bin/sh
# A tuner's three questions on the demo, with the keys each takes counted:
# which op type costs most (0 keys: the Summary's first bar), which step
# is slowest (5 D: 2 keys, then t shows it in the timeline: 3), and what
# ran around the slowest kernel (4 D t: 3 keys). Each answer is checked
# against show.
. "$top_srcdir/tests/ui/lib.sh"
make_data

csv() {	# csv TABLE SORT: the first row of TABLE sorted on SORT
	"$NPUPROF" show -q --db "$DB" --format csv --sort "$2" --limit 1 \
	    "$DATA" "$1" | sed -n 2p
}
# The demo has two ranks: each table starts with a Rank column.
top_op=$(csv op_statistic '-Total Time' | cut -d, -f3)
step=$(csv step_trace '-Iteration Time' | cut -d, -f3)
kernel=$(csv op_summary '-Task Duration' | cut -d, -f7)
kernel_start=$(csv op_summary '-Task Duration' | cut -d, -f11)

keys=0
press() {
	send_keys "$@"
	keys=$((keys + $#))
}

start_app 120 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && capture | grep -A1 'Top op types' | tail -n 1 |
    grep -q "^ *\[rank [0-9]*\] $top_op "
ok $? "1: the costliest op type ($top_op) is the Summary's first bar, 0 keys"

keys=0
press 5
wait_for 'Steps  row 1 of' && press D
wait_for 'sort -Iteration Time' && settle
capture | sed -n 3p | awk '{ print $3 }' | grep -qx "$step"
ok $? "2: 5 D puts the slowest step ($step) first"
press t
wait_for "Name: Step $step " && [ $keys -le 6 ]
ok $? "and t frames it in the timeline: $keys keys"
press q

keys=0
press 4
wait_for 'Kernels  row 1 of' && press D
wait_for 'sort -Task Duration' && press t
wait_for "Name: $kernel " &&
    capture | grep -Eq "Start\\(us\\): $kernel_start( |\$)" &&
    [ $keys -le 6 ]
ok $? "3: 4 D t centres the timeline on the slowest kernel: $keys keys"
send_keys Q
wait_exit
done_testing
