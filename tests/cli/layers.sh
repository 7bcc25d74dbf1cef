#!/bin/sh
# The dependency rules of STYLE.md: importers -> store <- ui, and each
# third-party header in its one home.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1

bad=$(grep -lE '#include[[:space:]]+["<](\.\./)?(ui/)?ui\.h|<n?curses' $(find importers -name '*.[ch]') 2>/dev/null)
is "$bad" "" "importers include neither ui.h nor curses"
bad=$(grep -lE '#include[[:space:]]+"(\.\./)?(importers/)?importer\.h"' ui/*.c ui/*.h 2>/dev/null)
is "$bad" "" "the UI does not include importer.h"
bad=$(grep -E '^#include "' src/store/store.h | grep -v '"npuprof.h"')
is "$bad" "" "store.h includes only npuprof.h"
bad=$(grep -lE '#include[[:space:]]+<sqlite3\.h>' $(git ls-files '*.c' '*.h' 2>/dev/null || find src ui importers -name '*.[ch]') | grep -vE '^src/store/[^/]*\.[ch]$')
is "$bad" "" "sqlite3.h only in src/store/"
bad=$(grep -lE '#include[[:space:]]+<pcre2\.h>' $(find src ui importers -name '*.[ch]') | grep -v '^src/matcher.c$')
is "$bad" "" "pcre2.h only in src/matcher.c"
bad=$(grep -lE '#include[[:space:]]+<n?curses' $(find src importers -name '*.[ch]'))
is "$bad" "" "curses only in ui/"
bad=$(grep -lE '#include[[:space:]]+"(gen|gen-prof-int)\.h"' $(find src ui importers -name '*.[ch]'))
is "$bad" "" "the product includes no generator header"
bad=$(nm "$NPUPROF" | awk '$3 ~ /^gen_/ { print $3 }' | head -3)
is "$bad" "" "no gen_* symbol is linked into npuprof-tui"
done_testing
