# Sourced by the tests of show --compare after tests/lib.sh: python3, the
# generated pair of runs (gen-pair.py) in $B and $N.
PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || skip_all "no python3"
"$PY" "$top_srcdir/tests/compare/gen-pair.py" "$T" || exit 1
B="$T/base_ascend_pt"
N="$T/new_ascend_pt"
