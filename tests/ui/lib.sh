# Helpers for the screen tests: run the real program inside a private tmux
# server at a fixed size, send it keys, wait by polling what it drew, and
# compare screens with golden files in tests/ui/NAME.screen.
# Source it after setting nothing: . "$top_srcdir/tests/ui/lib.sh"

. "$top_srcdir/tests/lib.sh"

TMUX_BIN=${TMUX_BIN:-$(command -v tmux || true)}
[ -n "$TMUX_BIN" ] && [ -x "$TMUX_BIN" ] || skip_all "no tmux"
SOCK=npt$$
starts=0
SCREENS="$top_srcdir/tests/ui"
unset TMUX TMUX_PANE
# The servers' sockets in the test's own directory, which goes at the
# end: tmux leaves a killed server's socket file behind.
export TMUX_TMPDIR="$T"
trap 'tmux_ kill-server 2>/dev/null; rm -rf "$T"' EXIT

tmux_() {
	"$TMUX_BIN" -L "$SOCK" -f /dev/null "$@"
}

# make_data: a small deterministic profile (two ranks, API statistics)
# imported into $T/s.db with its timeline built, so that no screen races
# the UI's background build of it (tests/ui/timeline-build.sh tests that
# build); sets DATA and DB.
make_data() {
	DATA="$T/d"
	DB="$T/s.db"
	"$GEN" demo "$DATA" -n 300 -r 2 -a 40 --stats >/dev/null ||
	    skip_all "cannot generate data"
	"$NPUPROF" import -q --timeline --db "$DB" "$DATA" >/dev/null ||
	    skip_all "cannot import data"
}

# start_app COLS LINES [ENV=VALUE...] -- ARGS...: run npuprof-tui ARGS in a
# fresh pane; the exit status lands in $T/rc.
open_demo() {	# open_demo KEY TEXT: the demo store at 100x24, then tab KEY
	start_app 100 24 -- --db "$DB" "$DATA"
	wait_for 'Top op types'
	send_keys "$1"
	wait_for "$2"
}

start_app() {
	w=$1
	h=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs '$1'"
		shift
	done
	[ $# -gt 0 ] && shift
	args=""
	for a in "$@"; do
		args="$args '$a'"
	done
	rm -f "$T/rc"
	# A fresh server for each start: a dying one cannot get in the way.
	tmux_ kill-server 2>/dev/null
	starts=$((starts + 1))
	SOCK=npt$$-$starts
	# The shell outlives a Ctrl-C sent to the program, to record $?.
	tmux_ new-session -d -x "$w" -y "$h" "trap : INT; env -u NO_COLOR \
	    TERM=screen LC_ALL=C.UTF-8 TZ=UTC HOME='$HOME' \
	    XDG_CONFIG_HOME='$XDG_CONFIG_HOME' \
	    XDG_CACHE_HOME='$XDG_CACHE_HOME' \
	    NPUPROF_THEMES='$top_srcdir/themes' $envs \
	    '$NPUPROF' $args 2>'$T/stderr'; echo \$? >'$T/rc'; \
	    tail -f /dev/null" || skip_all "tmux cannot start"
	tmux_ set-option -g status off >/dev/null
	tmux_ resize-window -x "$w" -y "$h" 2>/dev/null
}

# capture [-e]: what the pane shows now.
capture() {
	tmux_ capture-pane -p "$@" 2>/dev/null
}

# screen_poll WANT TEXT: poll (10 s at most) until TEXT is on the screen
# (WANT 0) or off it (WANT 1); on a timeout show the screen, return 1.
screen_poll() {
	i=0
	while [ $i -lt 400 ]; do
		capture | grep -qF -- "$2"
		[ $? -eq "$1" ] && return 0
		i=$((i + 1))
		sleep 0.025
	done
	echo "# timed out waiting for '$2'$([ "$1" -eq 1 ] && echo " to go");" \
	    "the screen was:"
	capture | sed 's/^/#   /'
	return 1
}

# wait_for TEXT: poll until TEXT is on the screen (10 s at most).
wait_for() {
	screen_poll 0 "$1" && return 0
	# A screen that never came is a failure, even where the caller
	# would have skipped its own test point.
	ok 1 "the screen shows '$1'"
	return 1
}

# wait_gone TEXT: poll until TEXT has left the screen (10 s at most).
wait_gone() {
	screen_poll 1 "$1"
}

# settle: poll until the screen stays the same for 0.2 s.
settle() {
	prev=$(capture -e)
	same=0
	i=0
	while [ $same -lt 8 ] && [ $i -lt 400 ]; do
		sleep 0.025
		cur=$(capture -e)
		if [ "$cur" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$cur
		i=$((i + 1))
	done
}

send_keys() {
	tmux_ send-keys "$@"
}

# type_text TEXT: literal keys.
type_text() {
	tmux_ send-keys -l -- "$1"
}

# expect_screen NAME [DESCRIPTION]: the screen against NAME.screen.
expect_screen() {
	settle
	capture >"$T/$1.screen"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$T/$1.screen" "$SCREENS/$1.screen"
	fi
	same_file "$T/$1.screen" "$SCREENS/$1.screen" "${2:-screen $1}"
	cmp -s "$T/$1.screen" "$SCREENS/$1.screen" ||
	    echo "#   regenerate with: UPDATE_GOLDEN=1 make check"
}

# expect_attrs NAME [DESCRIPTION]: the screen with its colours and
# attributes (tmux's escape sequences) against NAME.ansi.
expect_attrs() {
	settle
	capture -e >"$T/$1.ansi"
	if [ -n "${UPDATE_GOLDEN:-}" ]; then
		cp "$T/$1.ansi" "$SCREENS/$1.ansi"
	fi
	same_file "$T/$1.ansi" "$SCREENS/$1.ansi" "${2:-attributes $1}"
}

# wait_exit: wait for the program to end; its status is in $rc.
wait_exit() {
	i=0
	while [ ! -s "$T/rc" ] && [ $i -lt 800 ]; do
		sleep 0.025
		i=$((i + 1))
	done
	rc=$(cat "$T/rc" 2>/dev/null || echo timeout)
}
