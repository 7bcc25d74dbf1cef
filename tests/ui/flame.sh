#!/bin/sh
# The flame view on a generated raw collection (the CANN call path, device
# time): the icicle, moving between frames, zooming in and out, the
# top-down and bottom-up trees, the sandwich of a frame, the search with
# the share it covers, host weight, the sources in turn (c) and a step.
. "$top_srcdir/tests/ui/lib.sh"

P="$T/p"
"$GEN" prof "$P" -s 3 -n 120 >/dev/null || skip_all "cannot generate data"
"$NPUPROF" import -q --db "$T/p.db" "$P" >/dev/null ||
    skip_all "cannot import data"

start_app 100 24 -- --db "$T/p.db" "$P"
wait_for 'Top op types'
send_keys 8
wait_for 'Flame  cann device' && expect_screen flame \
    "8 shows the icicle of the CANN call path"
# Its help names the keys as a person presses them.
send_keys '?'
wait_for 'Flame view' && capture | grep -q '^   u Backspace C-h  *zoom-out' &&
    ! capture | grep -q '0x7f'
ok $? "help: zoom out on u, Backspace or C-h, no raw code"
send_keys q
wait_for 'Flame  cann device'
send_keys j
wait_for 'count' && expect_screen flame-down "j selects the heaviest callee"
send_keys l Enter
wait_for 'zoomed into' && expect_screen flame-zoom \
    "Enter zooms into the selected frame"
send_keys j Enter u
wait_for 'zoomed into' && ok 0 "u zooms back one level"
send_keys BSpace
wait_for 'device time  [icicle]' && ok 0 "Backspace zooms back to all"
send_keys v
wait_for '[top-down]' && expect_screen flame-top-down "v: the top-down tree"
send_keys v
wait_for '[bottom-up]' && expect_screen flame-bottom-up \
    "v: the bottom-up tree"
send_keys j Enter
wait_for 'Callers (outward)' && expect_screen flame-sandwich \
    "Enter in the bottom-up tree: the sandwich of that frame"
send_keys G Enter
wait_for 'Callers (outward)' && ok 0 "Enter on a callee: its own sandwich"
send_keys u /
wait_for 'highlight frames matching:'
type_text '^MatMul'
send_keys Enter
wait_for 'matches' && expect_screen flame-search \
    "/ gives the share of the time the matching frames cover"
expect_attrs flame-search "the matching frames are highlighted"
# A regex PCRE2 gives up on gives no share (it may be wrong): the last
# search stays.
send_keys /
wait_for 'highlight frames matching:' && send_keys C-u &&
    type_text '(.*.*.*.*)*(?=#)' && send_keys Enter
wait_for 'gave up on' && ok 0 "a search PCRE2 gives up on says so"
send_keys n
wait_for 'MatMulV2-op' && ok 0 "n selects a matching frame"
send_keys g
settle
capture | sed -n 3p >"$T/sel0"
grep -q '^ all  total' "$T/sel0"
ok $? "g selects the root"
send_keys G
settle
capture | sed -n 3p | grep -q '^ FlashAttentionScore-op[0-9]*  total .* self'
ok $? "G goes down the hot path to a leaf, the heaviest kernel"
send_keys g
settle
capture | sed -n 3p | cmp -s - "$T/sel0"
ok $? "g back to the root"
send_keys n
# c: the next source; the one auto chose (cann, which the label names
# already) and one without stacks here (python, on raw data) are passed
# over to the next that has some.
capture | tail -n 1 | grep -q 'Flame  cann device'
ok $? "auto names the source it chose: the CANN call path"
send_keys c
wait_for 'Flame  ops device' &&
    wait_for 'no Python call stacks in this profile' &&
    ok 0 "c: cann, which auto showed, and Python stacks passed over"
send_keys c
wait_for 'no nn.Module spans in this profile' &&
    wait_for 'Flame  cann device' &&
    ok 0 "c past the last source with stacks: auto again, the CANN path"
send_keys w
wait_for 'Flame  cann host' && expect_screen flame-host \
    "w weighs by host time"
send_keys s
wait_for 'step (empty for all):'
type_text 99
send_keys Enter
wait_for 'no step 99' && capture | grep -q '^ all  total' &&
    ok 0 "a step the profile lacks: a message, the tree stays"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

# The tree is built in the background: a profile with nothing to build it
# from says so in the view, which stays open; other views work.
printf '[{"ph": "C", "name": "APP/HBM", "pid": 1, "tid": 0, "ts": "1000.0", "args": {"KB": 5}}]\n' \
    >"$T/c.json"
"$NPUPROF" import -q --db "$T/c.db" "$T/c.json" || exit 1
start_app 100 12 -- --db "$T/c.db" "$T/c.json"
wait_for 'Summary' && send_keys 8
wait_for 'no stacks: no API spans, Python call stacks or kernel rows' &&
    ok 0 "no stacks: the reason in the view"
send_keys 1
wait_for 'Summary  ' && ok 0 "and the other views work"
send_keys Q
wait_exit
done_testing
