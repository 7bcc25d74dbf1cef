#!/bin/sh
# Terminal behaviour: resizing, a terminal too small, NO_COLOR, ASCII
# drawing without UTF-8, other terminal types, each theme and the config
# file (theme, default view, key bindings, errors naming the line), a
# dumb terminal (show's tables instead of the UI) and Ctrl-C (status 130).
. "$top_srcdir/tests/ui/lib.sh"
make_data

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types'
send_keys 2
wait_for 'Op statistic  row 1 of'
tmux_ resize-window -x 60 -y 15
wait_for 'Op statistic  row' && expect_screen resize-small \
    "the view redraws at the new size"
tmux_ resize-window -x 30 -y 6
wait_for 'terminal too small' && expect_screen tiny \
    "below the minimum size a clear message"
tmux_ resize-window -x 100 -y 30
wait_for 'Op statistic  row 1 of' && ok 0 "and back again"
send_keys Q
wait_exit
is "$rc" 0 "Q quits"

# The timeline after a tiny window and back: the lane names as wide as
# before, and no blank rows below the last lane with lanes hidden above.
start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 9
wait_for 'Timeline  lane ' && send_keys j j
settle
capture | sed -n 3,8p >"$T/tl-before"
tmux_ resize-window -x 40 -y 8
settle
tmux_ resize-window -x 100 -y 30
wait_for 'Timeline  lane ' && settle
capture | sed -n 3,8p | cmp -s - "$T/tl-before"
ok $? "the timeline after a 40x8 window: as it was, names as wide"
send_keys Q
wait_exit

start_app 30 6 -- --db "$DB" "$DATA"
wait_for 'terminal too small' && ok 0 "starting too small shows the message"
send_keys Q
wait_exit
is "$rc" 0 "Q quits even then"

for theme in dark light mono; do
	start_app 80 12 -- --theme "$theme" --db "$DB" "$DATA"
	wait_for 'Summary  '
	send_keys 2
	wait_for 'Op statistic  row 1 of' && expect_attrs "theme-$theme" \
	    "theme $theme"
	send_keys Q
	wait_exit
done
# Not installed, no NPUPROF_THEMES: the themes beside the binary (a
# build tree, where the sources are built in place).
if [ "$(cd "$top_srcdir" && pwd)" = "$(cd "$top_builddir" && pwd)" ] &&
    [ ! -e "${PKGDATADIR:-/nonexistent}/themes/light.yaml" ]; then
	start_app 80 12 NPUPROF_THEMES= -- --theme light --db "$DB" "$DATA"
	wait_for 'Summary  '
	send_keys 2
	wait_for 'Op statistic  row 1 of' && expect_attrs theme-light \
	    "the build tree's themes/ found without NPUPROF_THEMES"
	send_keys Q
	wait_exit
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP not an in-place build, or installed"
fi
start_app 80 12 NO_COLOR=1 -- --db "$DB" "$DATA"
wait_for 'Summary  '
send_keys 2
wait_for 'Op statistic  row 1 of' && expect_attrs no-color \
    "NO_COLOR: attributes only"
send_keys Q
wait_exit

start_app 80 12 TERM=vt100 LC_ALL=C -- --db "$DB" "$DATA"
wait_for 'Summary  ' && send_keys G
wait_for 'rank 1 step 5' && expect_screen ascii-summary \
    "without UTF-8 the bars are ASCII"
send_keys 4 '>' '>' '>' '>' '>' '>' '>' '>' '>' '>' '>' '>'
wait_for 'sort -Task Duration' && expect_screen ascii-sorted \
    "and the sort mark too, on a vt100"
send_keys Q
wait_exit
is "$rc" 0 "vt100 quits cleanly"

start_app 80 12 TERM=xterm -- --db "$DB" "$DATA"
wait_for 'Summary  ' && ok 0 "TERM=xterm works"
# tmux sends Home and End as ESC [ 1 ~ and ESC [ 4 ~, which xterm's
# description does not know: read whole, not as 1 and 4 (view keys).
send_keys 2
wait_for 'Op statistic  row'
send_keys End
wait_for 'Op statistic  row 22 of 22' &&
    ok 0 "an End xterm's terminfo lacks is End, not the 4 of Kernels"
send_keys Home
wait_for 'Op statistic  row 1 of 22' &&
    ok 0 "and Home is Home, not the 1 of Summary"
send_keys Q
wait_exit

printf 'normal: { fg: purplish }\n' >"$T/bad.yaml"
start_app 80 12 -- --theme "$T/bad.yaml" --db "$DB" "$DATA"
wait_exit
is "$rc" 1 "a bad theme is an error"
grep -q "bad.yaml:1: unknown colour 'purplish'" "$T/stderr"
ok $? "which names the line"

mkdir -p "$XDG_CONFIG_HOME/npuprof-tui"
cat >"$XDG_CONFIG_HOME/npuprof-tui/config.yaml" <<'EOT'
# a config file
theme: mono
view: kernels
mouse: false
keys:
  quit: x
  sort-next: s
EOT
start_app 80 12 -- --db "$DB" "$DATA"
wait_for 'Kernels  row 1 of 600' && ok 0 "the config picks the first view"
send_keys s
wait_for 'sort -Rank' && ok 0 "a key bound in the config"
send_keys F1
wait_for 'npuprof-tui keys'
capture >"$T/help1"
grep -Eq '^ +s +step ' "$T/help1"
is $? 1 "s bound to sort-next: no longer listed as the Kernels view's step"
send_keys PgDn
wait_for 'Your bindings' && expect_screen help-config \
    "the help lists the config's bindings"
send_keys q x
wait_exit
is "$rc" 0 "a rebound quit key"
# Alt with a key, as M-x: terminals send it as Esc then the key.
printf 'view: kernels\nkeys:\n  sort-next: M-s\n' \
    >"$XDG_CONFIG_HOME/npuprof-tui/config.yaml"
start_app 80 12 -- --db "$DB" "$DATA"
wait_for 'Kernels  row 1 of 600' && send_keys M-s
wait_for 'sort -Rank' && ok 0 "a binding of M-s: Alt-s"
send_keys Q
wait_exit
# Alt with a cursor key: ESC [ 1 ; 3 A under TERM=screen, the
# description's kUP3 under xterm-256color.
printf 'view: kernels\nkeys:\n  sort-next: M-Up\n' \
    >"$XDG_CONFIG_HOME/npuprof-tui/config.yaml"
for term in screen xterm-256color; do
	start_app 80 12 TERM=$term -- --db "$DB" "$DATA"
	wait_for 'Kernels  row 1 of 600' && send_keys M-Up
	wait_for 'sort -Rank' && ok 0 "a binding of M-Up, TERM=$term"
	send_keys Q
	wait_exit
done
# The titles name the keys the bindings left: Enter sorts, o opens.
printf 'view: kernels\nkeys:\n  sort-next: Enter\n  open: o\n' \
    >"$XDG_CONFIG_HOME/npuprof-tui/config.yaml"
start_app 100 12 -- --db "$DB" "$DATA"
wait_for 'Kernels  row 1 of 600' && send_keys S
wait_for 'Sort on (o; q or Esc keeps the order)' &&
    ok 0 "a rebound Enter: the sort chooser's title names o"
send_keys q C
wait_for 'Columns shown (o or Space shows or hides one' &&
    ok 0 "and the column chooser's"
send_keys q o
wait_for 'row detail (o shows the task in the timeline)' &&
    ok 0 "and the row detail's"
send_keys Q
wait_exit

printf 'theme: dark\nkeys:\n  launch: x\n' \
    >"$XDG_CONFIG_HOME/npuprof-tui/config.yaml"
start_app 80 12 -- --db "$DB" "$DATA"
wait_exit
is "$rc" 1 "a config error stops the UI"
grep -q "config.yaml:3: unknown action 'launch'" "$T/stderr"
ok $? "and names the line"
printf 'keys:\n  quit: F1x\n' >"$XDG_CONFIG_HOME/npuprof-tui/config.yaml"
start_app 80 12 -- --db "$DB" "$DATA"
wait_exit
is "$rc" 1 "a key F1x (not F1) is a config error"
rm -f "$XDG_CONFIG_HOME/npuprof-tui/config.yaml"
start_app 100 20 TERM=dumb -- --limit 3 --db "$DB" "$DATA"
wait_exit
is "$rc" 0 "TERM=dumb: no UI, the tables are printed and it exits 0"
grep -q "^npuprof-tui: terminal 'dumb' cannot show the UI" "$T/stderr"
ok $? "with a note on stderr saying why"
capture | grep -q 'Op Statistic'
ok $? "the pane shows show's op_statistic"
start_app 100 20 TERM= -- --db "$DB" "$DATA"
wait_exit
is "$rc" 0 "no TERM at all: the same"

start_app 100 30 -- --db "$DB" "$DATA"
wait_for 'Top op types'
send_keys C-c
wait_exit
is "$rc" 130 "Ctrl-C ends the UI as SIGINT does (status 130)"
capture | grep -q 'Top op types'
[ $? -ne 0 ]
ok $? "and the terminal is given back (the UI is gone)"
done_testing
