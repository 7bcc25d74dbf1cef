#!/bin/sh
# The timeline's search: / finds the first task whose name matches (in
# start order, from the cursor), n the next, N the previous, wrapping at
# the ends; a capital letter makes it exact; no match and a bad regex say
# so.
. "$top_srcdir/tests/ui/lib.sh"
make_data

# The names of the tasks matching REGEX (caseless), in start order.
names() {
	"$NPUPROF" show -q --db "$DB" --format csv --sort 'Task Start Time' \
	    --filter "Op Name:(?i)$1" "$DATA" op_summary |
	    awk -F, 'NR > 1 { print $7 }'
}
names softmax >"$T/all"
first=$(sed -n 1p "$T/all")
second=$(sed -n 2p "$T/all")
last=$(tail -n 1 "$T/all")

start_app 160 30 -- --db "$DB" "$DATA"
wait_for 'Top op types' && send_keys 9
wait_for 'Timeline  lane' && send_keys /
wait_for 'Search task names' && type_text softmax && send_keys Enter
wait_for "/softmax: $first" && capture | grep -q "Name: $first "
ok $? "/ goes to the first match in start order ($first)"
send_keys n
wait_for "/softmax: $second" && ok 0 "n: the next one ($second)"
send_keys N N
wait_for "/softmax: $last  (wrapped to the end)" &&
    ok 0 "N before the first wraps to the last ($last)"
send_keys /
wait_for 'Search task names' && send_keys C-u && type_text 'SOFTMAX' &&
    send_keys Enter
wait_for "no task name matches 'SOFTMAX'" &&
    ok 0 "a capital letter makes it exact: no match, said so"
send_keys /
wait_for 'Search task names' && send_keys C-u && type_text 'soft(' &&
    send_keys Enter
wait_for 'missing closing parenthesis' && ok 0 "a bad regex is reported"
# Not "no task name matches": the names PCRE2 gave up on may match.
send_keys /
wait_for 'Search task names' && send_keys C-u &&
    type_text '(.*.*.*.*)*(?=#)' && send_keys Enter
wait_for 'gave up on' && ok 0 "a regex PCRE2 gives up on is reported"
send_keys Q
wait_exit
done_testing
