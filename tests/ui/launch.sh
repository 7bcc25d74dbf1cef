#!/bin/sh
# Enter on a task in the kernels: its fields, then the API span that
# launched it (linked by connection id or by the span's row id) and the
# spans around that one; a task without a known launcher says so.
. "$top_srcdir/tests/ui/lib.sh"

mkdir "$T/root" && echo spans >"$T/root/README"
"$GEN" spans "$T/s.db" "$T/root" -n 6 >/dev/null ||
    skip_all "cannot generate the spans store"

start_app 100 40 -- --db "$T/s.db" "$T/root"
send_keys 4
wait_for 'Kernels  row 1 of 6'
send_keys Enter
wait_for 'Launched by' && expect_screen task-launch \
    "a task linked by connection id shows its launcher and the spans around"
send_keys q j Enter
wait_for 'Launched by' && wait_for 'aclnnAdd' &&
    ok 0 "a task linked by the span's row id shows it too"
capture | grep -q 'node .*launch' && ok 0 "the node span launched it" ||
    ok 1 "the node span launched it"
send_keys q j Enter
wait_for 'No API span is known to have launched this task' &&
    ok 0 "an unlinked task says so"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"
done_testing
