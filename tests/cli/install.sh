#!/bin/sh
# make install into a DESTDIR: the program, its man page with this
# build's folders in FILES, the themes, and the licence and documents; make
# uninstall takes every file away again.
. "$top_srcdir/tests/lib.sh"

command -v "${MAKE:-make}" >/dev/null || skip_all "no make"
d="$T/inst"
unset MAKEFLAGS MFLAGS
"${MAKE:-make}" -s -C "$top_builddir" install DESTDIR="$d" >"$T/out" 2>&1
ok $? "make install DESTDIR"
prefix=$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")
docdir=$(find "$d" -type d -path '*/doc/npuprof-tui' | head -n 1)
for f in LICENSE README.md formats.md architecture.md; do
	[ -f "$docdir/$f" ]
	ok $? "installs $f with the documents"
done
grep -q 'MIT License' "$docdir/LICENSE"
ok $? "the licence is MIT"
man="$d$prefix/share/man/man1/npuprof-tui.1"
[ -f "$man" ]
ok $? "installs the man page"
grep -q "^\.It Pa $prefix/share/npuprof-tui/themes/" "$man"
ok $? "the man page names this build's theme folder"
! grep -q '@[a-z]*@' "$man"
ok $? "no placeholder is left in it"
grep -q "^\.Sh AUTHORS" "$man" && grep -q 'MIT licence' "$man"
ok $? "the man page carries the copyright and the licence"
"${MAKE:-make}" -s -C "$top_builddir" uninstall DESTDIR="$d" >"$T/out" 2>&1
ok $? "make uninstall DESTDIR"
is "$(find "$d" -type f | wc -l | tr -d ' ')" 0 "no file is left behind"
done_testing
