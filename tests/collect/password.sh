#!/bin/sh
# collect with the vendor's BOARD.ini and a password: the login goes
# through our askpass helper, and the password must never appear in any
# argument vector, process environment or log while collect runs. It
# needs a local user with a password, so it runs only as root; the user
# is created with a random password and removed at the end.
. "$top_srcdir/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to create a user with a password"
command -v useradd >/dev/null 2>&1 && command -v chpasswd >/dev/null 2>&1 ||
    skip_all "no useradd or chpasswd"
. "$top_srcdir/tests/collect/sshd.lib"

U=npt$$
PW="pw-$(od -An -N9 -tx1 /dev/urandom | tr -d ' \n')"
W=$(mktemp -d /tmp/npt-pw.XXXXXX) || exit 1
chmod 755 "$W"
sshd_cleanups="userdel -r $U >/dev/null 2>&1; rm -rf '$W'"
useradd -m -d "$W/home" -s /bin/sh "$U" 2>/dev/null || skip_all "useradd failed"
printf '%s:%s\n' "$U" "$PW" | chpasswd || skip_all "chpasswd failed"
mkdir -m 777 "$W/shared"
printf '%s\n' "$PW" >"$T/pattern"

printf 'Host *\n\tPubkeyAuthentication no\n\tIdentityAgent none\n\tUserKnownHostsFile %s\n\tGlobalKnownHostsFile /dev/null\n\tLogLevel ERROR\n' \
    "$T/known_hosts" >"$T/ssh_config_pw"
board_ini() {	# board_ini FILE PASSWORD
	printf '; test board\n[other]\npwd = nope\n[ssh_config]\nip = 127.0.0.1\nusername = %s\nport = %s\npwd = %s\n' \
	    "$U" "$PORT" "$2" >"$1"
	chmod 600 "$1"
}
board_ini "$T/BOARD.ini" "$PW"
cd "$T" || exit 1
C="collect --ssh-config $T/ssh_config_pw"

"$NPUPROF" $C -m app/main --config BOARD.ini --output out \
    -- wait "$W/shared/mark" "$W/shared/go" >"$T/o1" 2>"$T/e1" &
pid=$!
poll 2400 test -s "$W/shared/mark"
ok $? "password login: the application runs as the board user"

# While it runs: no argv and no environment holds the password, and ssh
# got it through our helper.
ps -eo args >"$T/ps"
grep -F -q -f "$T/pattern" "$T/ps"
is $? 1 "the password is not in ps output"
leak=0 helper=0
for p in /proc/[0-9]*; do
	{ grep -a -F -q -f "$T/pattern" "$p/environ" "$p/cmdline" &&
	    leak=1; } 2>/dev/null
	{ tr '\0' '\n' <"$p/environ" |
	    grep -q '^NPUPROF_ASKPASS_SOCKET=/' &&
	    helper=$((helper + 1)); } 2>/dev/null
done
is $leak 0 "the password is in no process's argv or environment"
[ $helper -ge 1 ]
ok $? "ssh asks our helper through a socket named in its environment"
touch "$W/shared/go"
wait $pid
is $? 0 "collect with BOARD.ini succeeds"
ls out/JOB_wait/*_ascend_pt >/dev/null 2>&1
ok $? "the data is copied back"
grep -q "reminder: remove 'BOARD.ini' after use" "$T/e1"
ok $? "the user is reminded to remove BOARD.ini"
! grep -q 'readable by group or others' "$T/e1"
ok $? "no warning for a private BOARD.ini"
cat "$T/o1" "$T/e1" "$T/sshd/log" | grep -F -q -f "$T/pattern"
is $? 1 "the password is in no output or log"
! ls /tmp | grep -q '^npuprof-askpass\.'
ok $? "the helper's socket directory is removed"
grep -q "Accepted password for $U" "$T/sshd/log"
ok $? "sshd saw a password login"

chmod 644 BOARD.ini
"$NPUPROF" $C -m app/main --config BOARD.ini --output out2 -- JOB2 \
    >"$T/o2" 2>"$T/e2"
is $? 0 "a readable BOARD.ini still works"
grep -q "'BOARD.ini' is readable by group or others" "$T/e2"
ok $? "but is warned about"

board_ini "$T/WRONG.ini" "wrong-$PW"
printf 'wrong-%s\n' "$PW" >"$T/pattern2"
"$NPUPROF" $C -m app/main --config WRONG.ini --output out3 -- JOB3 \
    >"$T/o3" 2>"$T/e3"
is $? 1 "a wrong password is an error"
grep -q "cannot connect to '127.0.0.1'" "$T/e3"
ok $? "the message names the host"
cat "$T/o3" "$T/e3" | grep -F -q -f "$T/pattern2"
is $? 1 "the wrong password is not shown either"
[ ! -e out3 ]
ok $? "nothing is copied"

"$GEN" demo "$W/shared/PROF_pw" -n 100 || exit 1
chown -R "$U" "$W/shared/PROF_pw"
"$NPUPROF" $C --config BOARD.ini --pull "$W/shared/PROF_pw" --output out4 \
    >"$T/o4" 2>"$T/e4"
is $? 0 "--pull with BOARD.ini"
diff -r "$W/shared/PROF_pw" out4/PROF_pw >/dev/null
ok $? "copies the directory"
done_testing
