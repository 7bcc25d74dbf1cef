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
    tail -f /dev/null" || skip_all "tmux cannot start"
tmux_ set-option -g status off >/dev/null
wait_for 'rec/s'
line=$(capture | grep 'rec/s')
echo "# $line"
echo "$line" | grep -Eq '^\[[#.]{20}\] +[0-9]+% [a-z]+ +file [0-9]+/[0-9]+ +[0-9]+ records +[0-9.]+ MB +[0-9]+ rec/s +ETA ([0-9]+s|\?)'
ok $? "the bar shows phase, files, records, MB, rate and ETA"
wait_for 'Top op types' && ok 0 "then the UI opens"
capture | grep -q 'rec/s'
ok $((! $?)) "and the bar is gone"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
