#!/bin/sh
# The Cluster tab (0) of a folder of ranks: the findings with their
# numbers, then per step a stacked bar per rank, the ranks a finding names
# marked with "!", a grid of each step's links where the slow one is
# light (in colour heat-1, red; m shows transit times instead); > < and I
# sort the rank lines; Enter on a line with a rank shows
# that rank in every view;
# without UTF-8 the bar's parts are #, = and . apart; a store of one rank
# has no Cluster tab.
. "$top_srcdir/tests/ui/lib.sh"

PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/cluster/gen-cluster.py" "$T/c" --ranks 4 \
    --seed 6 --slow-link >/dev/null || skip_all "cannot generate"
"$NPUPROF" import -q --db "$T/c.db" "$T/c" || skip_all "cannot import"

start_app 130 40 -- --db "$T/c.db" "$T/c"
wait_for ' 0 Cluster ' && send_keys 0
wait_for 'Findings (' && expect_screen cluster \
    "0: the findings, then a stacked bar per step and rank"
capture | grep -q '^   ! step 3 rank 3 '
ok $? "the slow rank is marked"
capture | grep -q '^   ! step 3 rank 0 ' &&
    capture | grep -q '^   ! step 3 rank 1 '
ok $? "and so are the two ends of the slow link 0-1"
send_keys '>'
wait_for 'sort -Computing' && capture | grep -A1 'sort -Computing)' |
    tail -1 | grep -q '^   ! step 3 rank 3 '
ok $? "> sorts each step's ranks on computing, the slowest first"
send_keys I
wait_for 'sort Computing' && capture | grep -A1 'sort Computing)' |
    tail -1 | grep -qv 'rank 3 '
ok $? "I inverts it"
send_keys '<'
wait_for 'sort Rank' && ok 0 "< goes back to the rank order"
send_keys G
wait_for 'Links of step 4' && capture | grep -A3 'Links of step 3' |
    grep -q '^      0  '"$(printf '\342\226\221')"
ok $? "the link grid: 0 to 1 is the light glyph of a slow link"
capture -e | grep -A3 'Links of step 3' | grep '      0  ' |
    grep -q "$(printf '\033\\[31m\342\226\221')"
ok $? "in colour it is heat-1, red"
capture -e | grep -A3 'Links of step 3' | grep '      1 ' |
    grep -q "$(printf '\033\\[32m\342\226\210')"
ok $? "a fast link is heat-4, green"
send_keys m
wait_for 'link grids: transit time' && capture | grep -A3 'Links of step 3' |
    grep -q '^      0  '"$(printf '\342\226\210')"
ok $? "m: transit times, the slow link now the darkest"
capture | grep -q 'darker takes longer'
ok $? "and the heading says so"
send_keys m
wait_for 'link grids: bandwidth' && ok 0 "m again: bandwidth"
# On a screen shorter than the text, m (or a sort) keeps the place: m at
# the grids shows the grids, not the findings at the top.
tmux_ resize-window -x 130 -y 16
settle
send_keys G
wait_for 'Links of step 4' && send_keys m
wait_for 'link grids: transit time' && capture | grep -q 'Links of step 4' &&
    ! capture | grep -q 'Findings ('
ok $? "m at the end stays at the end"
send_keys m '>'
wait_for 'sort -Computing' && capture | grep -q 'Links of step 4'
ok $? "and so does a sort"
send_keys '<'
wait_for 'sort Rank'
# A shorter screen keeps the cursor's line on it.
tmux_ resize-window -x 130 -y 40
send_keys g j j j j j j j j j j j j j j j j
settle
esc=$(printf '\033')
# (Not $cur: settle's.)
line=$(capture -e | sed '$d' | grep "$esc\[[0-9;]*44m" |
    sed "s/$esc\[[0-9;]*m//g" | grep 'rank' | head -n 1)
echo "# the cursor's line: $line"
tmux_ resize-window -x 130 -y 12
settle
[ -n "$line" ] && capture -e | sed '$d' | sed "s/$esc\[[0-9;]*m//g" |
    grep -qF -- "$line"
ok $? "a shorter screen keeps the cursor's line in view"
# A narrow one drops the figures that do not fit whole: a cut "2.008"
# would read as 2.
tmux_ resize-window -x 50 -y 40
send_keys g
settle
capture | grep -E '^ +!? +step [0-9]+ rank [0-9]+ ' >"$T/narrow"
[ -s "$T/narrow" ] && ! grep -Ev '[0-9]\.[0-9]{3}$' "$T/narrow"
ok $? "50 columns: no figure of a step line is cut"
awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) n++
    if (n < 2) bad = 1 } END { exit bad }' "$T/narrow"
ok $? "and the names take their width, not 28 columns: two figures fit"
tmux_ resize-window -x 130 -y 40
settle
send_keys g Enter
wait_for 'rank 3 in every view' && ok 0 "Enter on a finding: its rank"
send_keys 5
wait_for 'rank 3' && capture | sed -n 3,9p | awk 'NF > 0' | wc -l >"$T/n"
is "$(cat "$T/n")" 2 "the Steps tab now shows rank 3's two steps"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

start_app 100 30 TERM=vt100 LC_ALL=C NO_COLOR=1 -- --db "$T/c.db" "$T/c"
wait_for ' 0 Cluster ' && send_keys 0
wait_for 'Findings (' && capture | grep -q 'rank 3 *#*=*\.* '
ok $? "ASCII: computing #, communication =, free ."
send_keys G
wait_for 'Links of step 4' && capture | grep -A3 'Links of step 3' |
    grep -q '^      0  \.'
ok $? "ASCII: the slow link is ."
send_keys Q
wait_exit

"$NPUPROF" import -q --db "$T/one.db" "$T/c/node_0_17_ascend_pt" ||
    exit 1
start_app 100 30 -- --db "$T/one.db" "$T/c/node_0_17_ascend_pt"
wait_for ' 1 Summary' && send_keys 0
wait_for 'no Cluster data in this store' && ok 0 "one rank: no Cluster tab"
send_keys Q
wait_exit
done_testing
