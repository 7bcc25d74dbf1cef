#!/bin/sh
# Nothing from the data reaches the terminal raw: a name holding ESC [2J,
# an OSC title sequence, BEL, a C1 CSI or a byte that is not UTF-8 shows
# as ^[ [2J, ^G, \u009b, \xff in show's tables and in messages (a file
# name with an OSC sequence in a warning); CSV keeps the bytes exact.
. "$top_srcdir/tests/lib.sh"

d="$T/p/PROF_1/mindstudio_profiler_output"
mkdir -p "$d"
f="$d/op_summary_2026$(printf '\033]0;x\007').csv"
{
	printf 'Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,'
	printf 'Task Type,Task Start Time(us),Task Duration(us),'
	printf 'Task Wait Time(us),Block Dim\n'
	printf '0,1,5,3,\033[2J\033]0;pwned\007x\302\233y\377,MatMul,AI_CORE,'
	printf '1782291497409494.490,7.840,0,2\n'
	printf '0,1,6,3,Add\n'
} >"$f"

esc=$(printf '\033')
bel=$(printf '\007')
csi=$(printf '\302\233')
"$NPUPROF" show --db "$T/p.db" "$T/p" op_summary >"$T/out" 2>"$T/err"
ok $? "show op_summary"
grep -qF '^[[2J^[]0;pwned^Gx\u009by\xff' "$T/out"
ok $? "control bytes, a C1 CSI and a bad byte shown visibly"
! grep -q -e "$esc" -e "$bel" -e "$csi" "$T/out"
ok $? "no raw ESC, BEL or CSI in the table"
grep -qF 'op_summary_2026^[]0;x^G.csv' "$T/err"
ok $? "the warning names the file visibly"
! grep -q -e "$esc" -e "$bel" "$T/err"
ok $? "no raw ESC or BEL on stderr"

"$NPUPROF" show -q --db "$T/p.db" "$T/p" warnings >"$T/out"
! grep -q -e "$esc" -e "$bel" "$T/out"
ok $? "the warnings table shows the file name visibly too"

"$NPUPROF" show -q --db "$T/p.db" --format csv "$T/p" op_summary >"$T/csv"
grep -q "$esc\[2J" "$T/csv"
ok $? "CSV keeps the data exact"
done_testing
