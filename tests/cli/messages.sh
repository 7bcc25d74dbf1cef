#!/bin/sh
# Messages and exit codes as a Unix tool gives them: every message is one
# line starting with "npuprof-tui: "; -q silences progress and warnings,
# never an error; a usage error is one line and a pointer to --help, exit
# 2; a data error says what went wrong with the data, exit 1.
. "$top_srcdir/tests/lib.sh"

"$GEN" demo "$T/d" -n 200 || exit 1

"$NPUPROF" show -q "$T/missing" >"$T/out" 2>"$T/err"
is $? 1 "show -q on a missing path exits 1"
is "$(cat "$T/err")" \
    "npuprof-tui: cannot open '$T/missing': No such file or directory" \
    "-q still prints the error, as an error"

"$NPUPROF" --bogus "$T/d" >"$T/out" 2>"$T/err"
is $? 2 "an unknown option exits 2"
is "$(cat "$T/err")" "npuprof-tui: unknown option '--bogus'
Try 'npuprof-tui --help' for more information." \
    "one line and a pointer to --help, not the whole usage"
"$NPUPROF" show -Z "$T/d" >/dev/null 2>"$T/err"
is "$(head -n 1 "$T/err")" "npuprof-tui: unknown option '-Z'" \
    "an unknown short option"
"$NPUPROF" --quiet=1 "$T/d" >/dev/null 2>"$T/err"
is "$(head -n 1 "$T/err")" "npuprof-tui: option '--quiet' takes no argument" \
    "a flag given an argument"
"$NPUPROF" show "$T/d" --db >/dev/null 2>"$T/err"
is "$(head -n 1 "$T/err")" "npuprof-tui: option '--db' needs an argument" \
    "an option without its argument"
"$NPUPROF" show --limit x "$T/d" >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:npuprof-tui: bad limit 'x'" "a bad number"
"$NPUPROF" show >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:npuprof-tui: show: no PATH" "no PATH"
"$NPUPROF" show -q "$T/d" nosuch >/dev/null 2>"$T/err"
is $? 2 "an unknown table exits 2, even with -q"
grep -q "^npuprof-tui: unknown table 'nosuch'" "$T/err"
ok $? "and says which"
for t in cluster_findings communication; do
	"$NPUPROF" show -q "$T/d" $t >/dev/null 2>"$T/err"
	is "$?:$(cat "$T/err")" "2:npuprof-tui: no table '$t' in this \
profile ('show PATH tables' lists those it has)" \
	    "$t, a table this profile lacks: says so, not 'unknown'"
done

"$NPUPROF" collect --bogus >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" "2:npuprof-tui: unknown option '--bogus'
Try 'npuprof-tui collect --help' for more information." \
    "collect: the same one line and a pointer to its own --help"
"$NPUPROF" collect --host h >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" "2:npuprof-tui: no -m MAIN" \
    "collect: what is missing"
# An option the command does not take is a usage error, not ignored.
for args in "show --output x" "show --theme dark" "export summary --sort x" \
    "import --format json" "import --filter x" "demo --rank 1"; do
	# shellcheck disable=SC2086
	"$NPUPROF" $args "$T/d" >/dev/null 2>"$T/err"
	rc=$?
	set -- $args
	is "$rc:$(head -n 1 "$T/err")" \
	    "2:npuprof-tui: $(echo " $args" | sed 's/.* \(--[a-z]*\).*/\1/') \
is not an option of $1" \
	    "$args: a usage error"
done

# One profile that cannot be read: its error once, not also as a warning.
mkdir -p "$T/nocsv/mindstudio_profiler_output"
printf 'a,b\n' >"$T/nocsv/mindstudio_profiler_output/op_summary_1.csv"
"$NPUPROF" show --db "$T/nocsv.db" "$T/nocsv" >/dev/null 2>"$T/err"
is "$?:$(grep -c 'has no CSV that could be read' "$T/err")" "1:1" \
    "a profile that fails: its error said once"

# A --replay file naming a key that is none: an error naming its line,
# before the UI starts (not a key left out of the measurement).
printf '# keys\n2\nbogus-key\nQ\n' >"$T/keys"
TERM=xterm "$NPUPROF" --replay "$T/keys" "$T/d" </dev/null >/dev/null \
    2>"$T/err"
is "$?:$(cat "$T/err")" "1:npuprof-tui: $T/keys:3: unknown key 'bogus-key'" \
    "--replay: an unknown key name is an error with its line"

# A port or an output directory that cannot work is said before ssh runs
# the application on the board (no board here: nothing may connect).
mkdir -p "$T/cl/app" && : >"$T/cl/app/main" &&
    echo '{"profiler": {"switch": "off"}}' >"$T/cl/app/acl.json"
printf '[ssh_config]\nip = 192.0.2.1\nport = abc\n' >"$T/cl/B.ini"
chmod 600 "$T/cl/B.ini"
(cd "$T/cl" && "$NPUPROF" collect -m app/main --config B.ini) \
    >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" "1:npuprof-tui: B.ini: port 'abc' is not a port \
number (1 to 65535)" "collect: BOARD.ini's port checked"
"$NPUPROF" collect -m "$T/cl/app/main" --host h:70000 >/dev/null 2>"$T/err"
is "$?:$(head -n 1 "$T/err")" \
    "2:npuprof-tui: bad --host 'h:70000' (want [USER@]HOST[:PORT])" \
    "collect: --host's port checked"
: >"$T/file"
"$NPUPROF" collect -m "$T/cl/app/main" --host 192.0.2.1 --output \
    "$T/file/out" >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" "1:npuprof-tui: cannot write to '$T/file/out': \
Not a directory" "collect: --output checked first"

# Every line of stderr of each failure above starts with our name.
for args in "show -q $T/missing" "--bogus x" "show --format xml x" \
    "export bogus $T/d" "demo a b" "collect -m" "collect --interval 0"; do
	# shellcheck disable=SC2086
	"$NPUPROF" $args >/dev/null 2>"$T/err"
	grep -v -e '^npuprof-tui: ' -e "^Try 'npuprof-tui " \
	    "$T/err" >"$T/other"
	[ ! -s "$T/other" ] && ! grep -q 'warning:' "$T/err"
	ok $? "'$args': every line is ours, none says warning"
done

"$NPUPROF" show -q --db "$T/nodir-$$/x.db" "$T/d" >/dev/null 2>"$T/err"
is $? 1 "--db in a missing folder is a data error"
[ ! -e "$T/nodir-$$" ]
ok $? "and the folder is not created"
grep -q "cannot create the store '$T/nodir-$$/x.db': No such file" "$T/err"
ok $? "the message names the store and the reason"

"$NPUPROF" show -q --limit 0 --format csv "$T/d" op_statistic >"$T/out"
is "$(wc -l <"$T/out" | tr -d ' ')" 1 "--limit 0 prints the header only"
"$NPUPROF" show -q --limit 2 --format csv "$T/d" op_statistic >"$T/out"
is "$(wc -l <"$T/out" | tr -d ' ')" 3 "--limit 2 prints two rows"

"$NPUPROF" export -q --folded --weight host --stacks ops "$T/d" \
    >/dev/null 2>"$T/err"
is $? 1 "host weight without host data is a data error (exit 1)"

# Root reads any folder: as root, run as nobody for this one.
as=""
if [ "$(id -u)" -eq 0 ]; then
	as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	command -v setpriv >/dev/null || as=skip
	# nobody must reach the binary (a clone in a private folder: skip).
	[ "$as" = skip ] || $as "$NPUPROF" --version >/dev/null 2>&1 || as=skip
	chmod 711 "$T"
fi
if [ "$as" != skip ]; then
	mkdir -m 755 "$T/pub"
	mkdir "$T/pub/locked"
	chmod 000 "$T/pub/locked"
	$as env HOME="$T/pub" XDG_CACHE_HOME="$T/pub" "$NPUPROF" show -q \
	    --db "$T/pub/x.db" "$T/pub/locked" >/dev/null 2>"$T/pub/err"
	is $? 1 "an unreadable folder exits 1"
	is "$(cat "$T/pub/err")" \
	    "npuprof-tui: cannot open '$T/pub/locked': Permission denied" \
	    "and says permission denied, not 'no profiling data'"
	chmod 700 "$T/pub/locked"
else
	echo "ok $((tap_n + 1)) # SKIP root without setpriv reads any folder"
	tap_n=$((tap_n + 1))
fi
done_testing
