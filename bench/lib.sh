# Shared start of the benchmark scripts: source it with the script's
# arguments, ". \"$(dirname \"$0\")/lib.sh\" \"$@\"". It sets NPUPROF (the
# binary, the first argument), here (bench/), top (the build directory)
# and GEN (the generators built beside the binary).
set -eu
NPUPROF=${1:?usage: bench/$(basename "$0") path/to/npuprof-tui}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$NPUPROF")
GEN="$top/tools/gen/npuprof-gen"
