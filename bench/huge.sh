#!/bin/sh
# Peak memory of an import whose input holds one huge line or record:
# a 64 MiB and a 200 MiB line in kernel_details.csv (one unquoted cell,
# one of commas), a 64 MiB JSON string and a 64 MiB event in a chrome
# trace. Each is read past with a warning; the figure to watch is peak
# RSS against the 256 MB bound. usage: bench/huge.sh NPUPROF
. "$(dirname "$0")/lib.sh" "$@"
T=$(mktemp -d "${TMPDIR:-/tmp}/npbench.XXXXXX")
trap 'rm -rf "$T"' EXIT
hdr='Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)'

csv() {	# csv MIB BYTE: a kernel_details.csv with a line of MIB MiB of BYTE
	rm -rf "$T/k" "$T/k.db"
	mkdir "$T/k"
	{
		echo "$hdr"
		echo '1,a,MatMul,AI_CORE,100.000,10.500'
		head -c $(($1 * 1048576)) /dev/zero | tr '\0' "$2"
		echo
		echo '1,b,MatMul,AI_CORE,200.000,10.500'
	} >"$T/k/kernel_details.csv"
	set -- "$1" "$2" $("$here/measure" "$NPUPROF" import -q --db "$T/k.db" \
	    "$T/k")
	echo "kernel_details.csv, one line of $1 MiB of '$2': $3 s," \
	    "peak RSS $4 MB"
}
csv 64 x
csv 64 ,
csv 200 x

trace() {	# trace WHAT: a trace with one 64 MiB string or event
	{
		printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2},'
		if [ "$1" = string ]; then
			printf '{"ph":"X","name":"'
			head -c 67108864 /dev/zero | tr '\0' 'n'
			printf '","pid":1,"tid":1,"ts":5,"dur":2},'
		else
			printf '{"ph":"X","name":"x","args":{"v":['
			head -c 33554432 /dev/zero | tr '\0' '1' |
			    sed 's/1/1,/g'
			printf '1]},"pid":1,"tid":1,"ts":5,"dur":2},'
		fi
		printf '{"ph":"X","name":"b","pid":1,"tid":1,"ts":9,"dur":2}]\n'
	} >"$T/t.json"
	rm -f "$T/t.db"
	set -- "$1" $("$here/measure" "$NPUPROF" import -q --db "$T/t.db" \
	    "$T/t.json")
	echo "trace JSON, one 64 MiB $1: $2 s, peak RSS $3 MB"
}
trace string
trace event
echo "(reproduce: sh bench/huge.sh $NPUPROF)"
