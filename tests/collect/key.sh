#!/bin/sh
# collect with the user's own ssh (--host and an ssh config with a key)
# against a private sshd: the whole flow, its error cases, an interrupt,
# --pull and --all.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/collect/sshd.lib"

C="collect --ssh-config $T/ssh_config"
cd "$T" || exit 1

"$NPUPROF" $C -m app/main --host board --output out --interval 10 \
    --acl_api on --aacpu off --aac-metrics PipeUtilization -- JOB1 \
    >"$T/o1" 2>"$T/e1"
is $? 0 "key login: collect succeeds"
[ -d out/JOB1 ] && ls out/JOB1/*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv >/dev/null 2>&1
ok $? "the JOB directory is copied back"
grep -q '^board: hello from the board, output /' "$T/o1"
ok $? "the application's output is streamed with a prefix"
grep -q 'time: connect [0-9.]* s, upload [0-9.]* s, run [0-9.]* s, download' "$T/e1"
ok $? "the steps are timed"
! ls -a out | grep -q npuprof-collect
ok $? "no temporary directory is left"
mode=$(find out/JOB1 -perm /007 | wc -l)
is "$mode" 0 "the copied data is not accessible to others"
rdir=$(sed -n 's/^board: hello from the board, output \(.*\)\/out$/\1/p' "$T/o1")
[ -n "$rdir" ] && [ ! -e "$rdir" ]
ok $? "the remote working directory is removed ($rdir)"
! grep -q npuprof-askpass "$T/e1" && [ -z "$(ls /tmp | grep "^npuprof-collect\.$" )" ]
ok $? "no password helper without a password"

# The acl.json the application saw: our keys, the rest kept.
"$NPUPROF" $C -m app/main --host board --output out2 --remote-dir "$T/rd" \
    --switch on -- JOB2 >"$T/o2" 2>"$T/e2"
is $? 0 "--remote-dir"
acl="$T/rd/app/acl.json"
grep -q '"dump_list": \[' "$acl" && grep -q '2.50' "$acl" &&
    grep -q '"training_trace": "on"' "$acl" && grep -q '"switch": "on"' "$acl"
ok $? "acl.json keeps its other content"
grep -q '"output": "'"$T"'/rd/npuprof-out\.' "$acl"
ok $? "acl.json points the output at the remote directory"
[ -d out2/JOB2 ] && [ -d "$T/rd" ] && [ ! -e "$T/rd/npuprof.pid" ]
ok $? "--remote-dir is kept, without our pid file"
"$NPUPROF" $C -m app/main --host board --output out --interval 10 \
    --acl_api on --aacpu off --aac-metrics PipeUtilization -- JOB3 \
    >/dev/null 2>&1
if [ "${PYTHON3:-}" != "" ] && command -v "$PYTHON3" >/dev/null; then
	"$NPUPROF" $C -m app/main --host board --output out3 \
	    --remote-dir "$T/rd3" --interval 10 --acl-api off --aacpu on \
	    --aac_metrics ArithmeticUtilization -- JOB4 >/dev/null 2>&1
	"$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["profiler"]
assert d["dump"]["dump_list"] == [1, 2.5, True, None], d
assert p["switch"] == "on" and p["training_trace"] == "on", p
assert p["interval"] == "10" and p["acl_api"] == "off", p
assert p["aacpu"] == "on" and p["aac_metrics"] == "ArithmeticUtilization", p
assert p["output"].startswith(sys.argv[2]), p
' "$T/rd3/app/acl.json" "$T/rd3/npuprof-out."
	ok $? "acl.json is valid JSON with every profiler key"
else
	ok 0 "# SKIP no python3"
fi

# The user's ControlMaster works unchanged: one login serves every step.
logins=$(grep -c 'Accepted publickey' "$T/sshd/log")
"$NPUPROF" $C --ssh-option ControlMaster=auto \
    --ssh-option "ControlPath=$T/cm-%C" --ssh-option ControlPersist=60 \
    -m app/main --host board --output outcm -- JOBcm >"$T/o" 2>"$T/e"
is $? 0 "collect through a ControlMaster"
now=$(grep -c 'Accepted publickey' "$T/sshd/log")
is $((now - logins)) 1 "one login for all the steps"
ssh -F "$T/ssh_config" -o "ControlPath=$T/cm-%C" -O exit board 2>/dev/null
[ -d outcm/JOBcm ]
ok $? "and the data is copied back"

# Error cases.
"$NPUPROF" $C -m app/main --host board --output out -- fail >"$T/o" 2>"$T/e"
is $? 7 "the application's exit status is the exit status"
[ -d out/JOB_fail ]
ok $? "what a failed application wrote is still copied back"
grep -q "exited with status 7" "$T/e"
ok $? "the failure is reported"

mkdir -p noacl
cp app/main noacl/
"$NPUPROF" $C -m noacl/main --host board -- JOB9 >"$T/o" 2>"$T/e"
is $? 1 "a missing acl.json is an error"
grep -q "noacl/acl.json" "$T/e"
ok $? "the message names acl.json"

mkdir -p out/JOB1/keep
"$NPUPROF" $C -m app/main --host board --output out -- JOB1 >"$T/o" 2>"$T/e"
is $? 1 "an existing output is an error"
grep -q "out/JOB1' exists: not overwritten" "$T/e" && [ -d out/JOB1/keep ]
ok $? "the existing output is not overwritten"
left=$(sed -n "s/.*the data stays on 'board' in '\(.*\)': copy it with --pull/\1/p" "$T/e")
[ -n "$left" ] && [ -d "$left/JOB1" ]
ok $? "the data stays on the board and the message says where"
[ -z "$left" ] || rm -rf "$(dirname "$left")"

"$NPUPROF" $C -m app/main --host "$ME@127.0.0.1:1" -- JOB9 >"$T/o" 2>"$T/e"
is $? 1 "a refused port is an error"
grep -q "cannot connect to '127.0.0.1'" "$T/e"
ok $? "the message names the host"

sed 's/^\(Host \*\)$/\1\n\tUserKnownHostsFile '"$(echo "$T" | sed 's/\//\\\//g')"'\/known_hosts_new/' \
    "$T/ssh_config" | awk '!/known_hosts$/' >"$T/ssh_config_new"
: >"$T/known_hosts_new"
"$NPUPROF" collect --ssh-config "$T/ssh_config_new" -m app/main --host board \
    --output out4 -- JOB5 >"$T/o" 2>"$T/e"
is $? 1 "an unknown host key is refused"
grep -q "Host key verification failed" "$T/e" && [ ! -s "$T/known_hosts_new" ]
ok $? "ssh says why and learns nothing"
"$NPUPROF" collect --ssh-config "$T/ssh_config_new" -m app/main --host board \
    --accept-new-host-key --output out4 -- JOB5 >"$T/o" 2>"$T/e"
is $? 0 "--accept-new-host-key accepts it"
[ -s "$T/known_hosts_new" ] && [ -d out4/JOB5 ]
ok $? "and records it"

# --pull and --all.
"$GEN" demo "$T/board/PROF_000001_pull" -n 300 --stats || exit 1
"$NPUPROF" $C --pull "board:$T/board/PROF_000001_pull/" --output pulled \
    >"$T/o" 2>"$T/e"
is $? 0 "--pull"
diff -r "$T/board/PROF_000001_pull" pulled/PROF_000001_pull >/dev/null
ok $? "--pull copies the directory as it is"
"$NPUPROF" $C --pull "board:$T/board/nosuch" --output pulled >"$T/o" 2>"$T/e"
is $? 1 "--pull of a missing directory is an error"
! ls -a pulled | grep -q npuprof-collect
ok $? "and leaves no temporary directory"
"$NPUPROF" $C --pull "board:$T/board/PROF_000001_pull" --output pulled2 --all \
    >"$T/o" 2>"$T/e"
is $? 0 "--pull --all"
"$NPUPROF" show --db "$T/x.db" pulled2/PROF_000001_pull >"$T/want"
grep -v '^board: ' "$T/o" >"$T/got"
same_file "$T/got" "$T/want" "--all prints the op_statistic of the copy"
"$NPUPROF" $C -m app/main --host board --output out5 --all -- JOB6 \
    >"$T/o" 2>"$T/e"
is $? 0 "collect --all"
grep -q '^OP Type' "$T/o" || grep -q 'OP Type' "$T/o"
ok $? "collect --all prints a table"
[ -f out5/JOB6/npuprof-tui.db ]
ok $? "collect --all builds the store"

# Ctrl-C: the remote application is stopped and everything is removed.
"$NPUPROF" $C -m app/main --host board --output out6 -- hang "$T/mark" \
    >"$T/o" 2>"$T/e" &
pid=$!
poll 2400 test -s "$T/mark"
ok $? "the application started"
set -- $(cat "$T/mark" 2>/dev/null) 0 /nonexistent
apid=$1 adir=$2
kill -INT $pid
wait $pid
is $? 130 "an interrupt exits 130"
gone() { ! kill -0 "$apid" 2>/dev/null; }
poll 600 gone
ok $? "the remote application is stopped"
[ ! -e "$(dirname "$adir")" ]
ok $? "the remote working directory is removed"
[ ! -e out6 ] || [ -z "$(ls -A out6)" ]
ok $? "nothing is left in the output"
grep -q 'interrupted' "$T/e"
ok $? "the interrupt is reported"

# Interrupts that come at once, while ssh starts or the application does:
# a signal that lands just before collect blocks must not be lost (it was:
# the run then waited for the hung application for ever). Each is sent
# once collect catches SIGINT (before that, a background job ignores it,
# as the shell started it), after DELAY more. A watchdog turns a hang into
# a failure.
caught() {	# caught PID: SIGINT is in the process's caught set
	m=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$m" ] && [ $((0x$m & 2)) -ne 0 ]
}
for delay in 0 0.1 0.2 0.4; do
	rm -f "$T/mark2"
	"$NPUPROF" $C -m app/main --host board --output out7 -- hang \
	    "$T/mark2" >"$T/o" 2>"$T/e" &
	pid=$!
	( sleep 60; kill -9 $pid 2>/dev/null ) &
	dog=$!
	poll 2400 caught $pid
	sleep "$delay"
	kill -INT $pid
	wait $pid
	rc=$?
	kill $dog 2>/dev/null
	wait $dog 2>/dev/null
	is "$rc" 130 "an interrupt after $delay s exits 130, without hanging"
	# The board is this machine: its application is a process here.
	sleep 1
	poll 600 eval "! pgrep -f '$T/mark2' >/dev/null"
	ok $? "and no application is left running"
	pkill -f "$T/mark2" 2>/dev/null
done

# An interrupt while the command that creates the working directory runs,
# after it made the directory (slowboard answers it 3 s late): collect
# named the directory before, so it still removes it.
"$NPUPROF" $C -m app/main --host slowboard --output out8 -- JOB8 \
    >"$T/o" 2>"$T/e" &
pid=$!
made() { [ -n "$(ls -A "$T/rtmp")" ]; }
poll 2400 made
ok $? "slowboard: the working directory is made"
kill -INT $pid
wait $pid
is $? 130 "an interrupt while it is made exits 130"
[ -z "$(ls -A "$T/rtmp")" ]
ok $? "and the working directory is removed"
grep -q 'interrupted' "$T/e" && ! grep -q 'cannot' "$T/e"
ok $? "the interrupt is reported, not as a failure"
[ ! -e out8 ] || [ -z "$(ls -A out8)" ]
ok $? "nothing is left in the output"
"$NPUPROF" $C -m app/main --host slowboard --output out9 \
    --remote-dir "$T/rd9" -- JOB9 >"$T/o" 2>"$T/e" &
pid=$!
made() { ls -d "$T"/rd9/npuprof-out.* >/dev/null 2>&1; }
poll 2400 made
ok $? "slowboard --remote-dir: the output directory is made"
kill -INT $pid
wait $pid
is $? 130 "an interrupt while it is made exits 130"
[ -d "$T/rd9" ] && [ -z "$(ls -A "$T/rd9")" ]
ok $? "the new output directory is removed, --remote-dir kept"

# A Ctrl-C while ssh still connects (a board that never answers): exit
# 130 at once, without a second connection to clean up what was never made.
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
n = 0
while True:
    c, _ = s.accept()
    n += 1
    open(sys.argv[1], "w").write(str(n))
    globals().setdefault("keep", []).append(c)
' "$T/conns" >"$T/mute" &
	mute=$!
	sshd_cleanups="$sshd_cleanups; kill $mute 2>/dev/null"
	poll 600 test -s "$T/mute"
	"$NPUPROF" $C -m app/main --host "$ME@127.0.0.1:$(cat "$T/mute")" \
	    -- JOB10 >"$T/o" 2>"$T/e" &
	pid=$!
	( sleep 20; kill -9 $pid 2>/dev/null ) &
	dog=$!
	poll 600 test -s "$T/conns"
	kill -INT $pid
	t0=$(date +%s)
	wait $pid
	is $? 130 "an interrupt while ssh connects exits 130, without hanging"
	[ $(($(date +%s) - t0)) -le 3 ] && [ "$(cat "$T/conns")" = 1 ]
	ok $? "at once, with no second connection"
	kill $dog $mute 2>/dev/null
	wait $dog 2>/dev/null
else
	ok 0 "# skip no python3 for a board that never answers"
	ok 0 "# skip no python3"
fi

"$NPUPROF" collect -m app/main >/dev/null 2>&1
is $? 2 "collect without a board is a usage error"
"$NPUPROF" collect --host board --config x -m app/main >/dev/null 2>&1
is $? 2 "--host and --config together are a usage error"
"$NPUPROF" collect --host board -m app/main --aacpu maybe >/dev/null 2>&1
is $? 2 "a bad on/off value is a usage error"
"$NPUPROF" --help | grep -q 'npuprof-tui collect -m MAIN' &&
    "$NPUPROF" --help | grep -q -- '--accept-new-host-key' &&
    "$NPUPROF" collect --help | grep -q -- '--pull'
ok $? "--help documents collect"
done_testing
