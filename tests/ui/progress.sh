#!/bin/sh
# The import progress bar on a terminal: a bar, the percentage, the phase,
# files, records, megabytes, the rate and the time left, on one line that
# is wiped when the import ends; then the UI opens on the new store.
. "$top_srcdir/tests/ui/lib.sh"

"$GEN" demo "$T/d" -n 400000 >/dev/null || skip_all "cannot generate data"
tmux_ kill-server 2>/dev/null
tmux_ new-session -d -x 160 -y 24 "env -u NO_COLOR TERM=screen \
    LC_ALL=C.UTF-8 TZ=UTC HOME='$HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' \
    NPUPROF_THEMES='$top_srcdir/themes' \
    '$NPUPROF' --db '$T/s.db' '$T/d'; echo \$? >'$T/rc'; \
    stty -a >'$T/stty'; tail -f /dev/null" || skip_all "tmux cannot start"
tmux_ set-option -g status off >/dev/null
wait_for 'rec/s'
line=$(capture | grep 'rec/s')
echo "# $line"
echo "$line" | grep -Eq '^\[[#.]{20}\] +[0-9]+% [a-z]+ +file [0-9]+/[0-9]+ +[0-9]+ records +[0-9.]+ MB +[0-9]+ rec/s +ETA ([0-9]+s|\?)'
ok $? "the bar shows phase, files, records, MB, rate and ETA"
# Keys typed meanwhile are not echoed over the bar, and are dropped: Q
# would quit a screen not yet seen.
send_keys -l 'xyzQ'
sleep 0.2
! capture | grep -q 'xyz'
ok $? "keys typed during the import are not echoed"
wait_for 'Top op types' && ok 0 "then the UI opens"
capture | grep -q 'rec/s'
ok $((! $?)) "and the bar is gone"
settle
[ ! -f "$T/rc" ] && capture | grep -q 'Top op types'
ok $? "the keys typed during the import are dropped"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
i=0
while [ ! -s "$T/stty" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
grep -Eq '(^| )echo( |$)' "$T/stty"
ok $? "the terminal echoes again after it"
done_testing
