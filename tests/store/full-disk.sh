#!/bin/sh
# A store that fills its disk: the import stops with one line saying so
# and a non-zero exit, leaves no temporary file, and the store that was
# there before is untouched. Runs where a small tmpfs can be mounted (as
# root, or in a user namespace of its own), and is skipped elsewhere.
if [ -z "${NPT_IN_NS:-}" ] && [ "$(id -u)" != 0 ]; then
	if command -v unshare >/dev/null &&
	    unshare -rm true 2>/dev/null; then
		NPT_IN_NS=1 exec unshare -rm sh "$0" "$@"
	fi
fi
. "$top_srcdir/tests/lib.sh"

mkdir "$T/mnt"
mount -t tmpfs -o size=2m tmpfs "$T/mnt" 2>/dev/null ||
    skip_all "cannot mount a tmpfs here"
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT

"$GEN" demo "$T/small" -n 50 >/dev/null || exit 1
"$GEN" prof "$T/big" -s 3 -n 20000 >/dev/null || exit 1
"$NPUPROF" import -q --db "$T/mnt/s.db" "$T/small" >/dev/null
ok $? "a small store fits"
before=$(cksum <"$T/mnt/s.db")
"$NPUPROF" import -q --db "$T/mnt/s.db" "$T/big" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 2 ]
ok $? "a store that does not fit fails the import (exit $rc)"
is "$(wc -l <"$T/err" | tr -d ' ')" 1 "with one message"
grep -q 'full' "$T/err"
ok $? "that says the disk is full"
[ "$(tail -c 1 "$T/err" | od -An -c | tr -d ' ')" = '\n' ]
ok $? "and ends in a newline"
is "$(cksum <"$T/mnt/s.db")" "$before" "the previous store is untouched"
! ls "$T/mnt"/s.db.tmp-* >/dev/null 2>&1
ok $? "no temporary store is left"
"$NPUPROF" show -q --db "$T/mnt/s.db" --format csv "$T/small" \
    op_statistic >/dev/null
ok $? "the previous store still opens"
done_testing
