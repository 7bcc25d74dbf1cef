#!/bin/sh
# The command line: help, version, usage errors (exit 2), data errors
# (exit 1, naming the file), the store's life cycle.
. "$top_srcdir/tests/lib.sh"

"$NPUPROF" --help >"$T/out" 2>&1
ok $? "--help exits 0"
grep -q 'npuprof-tui show' "$T/out"
ok $? "--help shows the show command"
grep -q -- '--stats' "$T/out"
ok $? "--help lists --stats"
"$NPUPROF" --version | grep -q '^npuprof-tui [0-9]'
ok $? "--version"

"$NPUPROF" >/dev/null 2>&1
is $? 2 "no PATH is a usage error"
"$NPUPROF" --bogus x >/dev/null 2>&1
is $? 2 "an unknown option is a usage error"
"$NPUPROF" show --format xml x >"$T/err" 2>&1
is $? 2 "an unknown format is a usage error"
grep -q "unknown format 'xml'" "$T/err"
ok $? "the message names the format"

"$NPUPROF" show "$T/missing" >"$T/err" 2>&1
is $? 1 "a missing PATH is a data error"
grep -q "$T/missing" "$T/err"
ok $? "the message names the path"

mkdir "$T/empty"
"$NPUPROF" show --db "$T/e.db" "$T/empty" >"$T/err" 2>&1
is $? 1 "an empty directory is a data error"
grep -q 'looked for' "$T/err" && grep -q 'kernel_details' "$T/err"
ok $? "the message lists what was looked for"
[ ! -e "$T/e.db" ]
ok $? "a failed import leaves no store"

mkdir "$T/bad"
printf 'hello\n' >"$T/bad/kernel_details.csv"
mkdir "$T/bad/ASCEND_PROFILER_OUTPUT"
mv "$T/bad/kernel_details.csv" "$T/bad/ASCEND_PROFILER_OUTPUT/"
"$NPUPROF" show --db "$T/b.db" "$T/bad" >"$T/out" 2>"$T/err"
is $? 1 "a CSV without the needed columns is a data error"
grep -q 'kernel_details.csv' "$T/err"
ok $? "the message names the file"

"$GEN" demo "$T/d" -n 300 -r 2 --stats || exit 1
"$NPUPROF" import "$T/d" >"$T/out" 2>"$T/err"
ok $? "import"
[ -f "$T/d/npuprof-tui.db" ]
ok $? "the store is written beside the data"
mode=$(stat -c %a "$T/d/npuprof-tui.db")
case $mode in *[1-7]) r=1 ;; *) r=0 ;; esac
ok $r "the store is not readable by others (mode $mode)"
grep -q 'records in' "$T/out"
ok $? "import says how many records"
"$NPUPROF" import "$T/d" >"$T/out" 2>"$T/err"
! grep -q 're-importing' "$T/err"
ok $? "a current store is not rebuilt"
touch -d '2001-01-01' "$T/d/demo_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
"$NPUPROF" import "$T/d" >"$T/out" 2>"$T/err"
grep -q "re-importing.*kernel_details.csv' changed" "$T/err"
ok $? "a changed input rebuilds the store"
touch "$T/d/new.txt"
"$NPUPROF" import "$T/d" >"$T/out" 2>"$T/err"
grep -q "new.txt" "$T/err"
ok $? "a new file rebuilds the store"
"$NPUPROF" import --reimport "$T/d" >/dev/null 2>&1
ok $? "--reimport"

"$NPUPROF" show "$T/d" nosuch >/dev/null 2>"$T/err"
is $? 2 "an unknown table is a usage error"
"$NPUPROF" show --filter '([' "$T/d" >/dev/null 2>"$T/err"
is $? 2 "a bad regex is a usage error"
grep -q 'bad regular expression' "$T/err"
ok $? "the message says why"
# A regex PCRE2 gives up on (its match limit) fails the query: rows it
# gave up on may match, as Conv matches here.
for s in "" "--sort Duration(us)"; do
	"$NPUPROF" show -q --format csv $s --filter '(?:(.*)*(.*)*(.*)*z)|Conv' \
	    "$T/d" kernels >"$T/out" 2>"$T/err"
	is $? 2 "a regex PCRE2 gives up on fails${s:+ with $s}"
	grep -q "gave up on .* backtracks too much" "$T/err"
	ok $? "and says why"
done
# The empty name is no folder (it was the root).
(cd "$T" && "$NPUPROF" demo '' </dev/null >/dev/null 2>"$T/err")
is $? 2 "demo '' is a usage error"
grep -q 'demo: an empty DIR' "$T/err"
ok $? "that says why"
"$NPUPROF" export summary --output '' "$T/d" >/dev/null 2>"$T/err"
is $? 2 "export --output '' is a usage error"
"$NPUPROF" export timeline --split-mb 8796093022208 "$T/d" >/dev/null \
    2>"$T/err"
is $? 2 "a --split-mb past INT64_MAX bytes is a usage error (UBSan)"
"$NPUPROF" show --sort 'Nope' "$T/d" >/dev/null 2>"$T/err"
is $? 2 "a bad sort column is a usage error"
grep -q "unknown sort column 'Nope'" "$T/err"
ok $? "the message names the column"
"$NPUPROF" show --sort - "$T/d" op_statistic >/dev/null 2>"$T/err"
is $? 2 "an empty sort column is a usage error"
grep -q "empty sort column in '-'" "$T/err"
ok $? "said as empty, not ambiguous"
"$NPUPROF" show --sort -Self --format table "$T/d" stacks >/dev/null \
    2>"$T/err"
grep -q "ambiguous sort column 'Self' (columns: 'Stack', " "$T/err"
ok $? "an ambiguous stacks column lists the columns"
# A column:regex filter whose column is a prefix of several: it matched
# nothing, taken as a regex of the whole row.
"$NPUPROF" show --filter 'Task:AI_CORE' "$T/d" kernels >/dev/null \
    2>"$T/err"
is $? 2 "an ambiguous filter column is a usage error"
grep -q "ambiguous filter column 'Task' ('Task ID', " "$T/err"
ok $? "that lists the columns it could be"
is "$("$NPUPROF" show -q --format csv --filter 'Task Type:AI_CORE' \
    "$T/d" kernels | sed 1d | wc -l | tr -d ' ')" \
    "$("$NPUPROF" show -q --format csv "$T/d" kernels | grep -c ',AI_CORE,')" \
    "a whole name filters its column"
"$NPUPROF" show --device x "$T/d" >/dev/null 2>&1
is $? 2 "a bad device id is a usage error"

chmod 555 "$T/d"
if [ "$(id -u)" -ne 0 ]; then
	rm -f "$T/d/npuprof-tui.db"
	"$NPUPROF" import "$T/d" >/dev/null 2>&1
	ls "$XDG_CACHE_HOME"/npuprof-tui/d-*.db >/dev/null 2>&1
	ok $? "a read-only data directory puts the store in the cache"
else
	ok 0 "# SKIP running as root: directories are always writable"
fi
chmod 755 "$T/d"

# Interrupted import (Ctrl-C, or the ssh session closing: SIGHUP): the
# previous store survives.
"$GEN" demo "$T/big" -n 200000 || exit 1
"$NPUPROF" import -q "$T/big" || exit 1
cp "$T/big/npuprof-tui.db" "$T/before.db"
for sig in INT HUP; do
	touch "$T/big/x$sig.txt"
	"$NPUPROF" import -q "$T/big" &
	pid=$!
	i=0
	while [ $i -lt 200 ] &&
	    ! ls "$T/big"/npuprof-tui.db.tmp-* >/dev/null 2>&1; do
		i=$((i + 1)); sleep 0.01 2>/dev/null || sleep 1
	done
	kill -$sig $pid 2>/dev/null
	wait $pid
	st=$?
	cmp -s "$T/before.db" "$T/big/npuprof-tui.db"
	ok $? "SIG$sig: the previous store is as it was (exit $st)"
	! ls "$T/big"/npuprof-tui.db.tmp-* >/dev/null 2>&1
	ok $? "SIG$sig: and no temporary file"
done

# A --db that is not a regular file (a FIFO here; /dev/null for root was
# replaced by a store file) is refused before anything is built.
mkfifo "$T/fifo" || exit 1
"$NPUPROF" import -q --db "$T/fifo" "$T/d" 2>"$T/err"
is $? 1 "--db a FIFO: an error"
grep -q "cannot build the store '.*fifo': it is not a regular file" "$T/err"
ok $? "that says why"
[ -p "$T/fifo" ] && ! ls "$T"/fifo.tmp-* >/dev/null 2>&1
ok $? "and the FIFO is left as it was, with no temporary file"
done_testing
