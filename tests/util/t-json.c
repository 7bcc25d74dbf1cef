/*
 * src/json.c: strings come out as valid UTF-8 whatever bytes they hold,
 * numbers only when they are JSON numbers, and a stored args object is
 * copied member by member, its strings repaired, or not at all when it is
 * not a JSON object or nests too deep: never half.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"
#include "tap.h"

/* What FN writes as one value inside an object, as text. */
static char *
run(void (*fn)(struct json *, const char *), const char *arg)
{
	struct json	*j;
	char		*buf = NULL;
	size_t		 len = 0;
	FILE		*f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	j = json_open(f);
	json_next(j);
	json_map_open(j);
	json_str(j, "k");
	json_int(j, 1);
	fn(j, arg);
	json_map_close(j);
	json_free(j);
	fclose(f);
	return buf;
}

/* FN's output for ARG against WANT. */
static void
expect(void (*fn)(struct json *, const char *), const char *arg,
    const char *want, const char *what)
{
	char	*out = run(fn, arg);

	is_str(out, want, "%s", what);
	free(out);
}

static bool	 members_ok;

static void
members(struct json *j, const char *text)
{
	members_ok = json_members(j, text);
}

static void
string(struct json *j, const char *s)
{
	json_str(j, "s");
	json_str(j, s);
}

static void
number(struct json *j, const char *s)
{
	json_str(j, "n");
	if (!json_number(j, s))
		json_str(j, s);
}

int
main(void)
{
	char	 deep[300];
	int	 i;

	expect(string, "\262\342_\033[2J\377\xed\xa0\x80\xc0\x80ok",
	    "{\"k\":1,\"s\":\"\xef\xbf\xbd\xef\xbf\xbd_\\u001B[2J"
	    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
	    "\xef\xbf\xbd\xef\xbf\xbdok\"}",
	    "bad bytes, surrogates and overlongs become U+FFFD; ESC escaped");
	expect(string, "caf\xc3\xa9 \xf0\x9f\x98\x80",
	    "{\"k\":1,\"s\":\"caf\xc3\xa9 \xf0\x9f\x98\x80\"}",
	    "valid UTF-8 is left alone");

	expect(number, "7.840",
	    "{\"k\":1,\"n\":7.840}", "a number as it is shown");
	expect(number, "1e-05",
	    "{\"k\":1,\"n\":1e-05}", "exponent form");
	ok(!json_is_number("007", 3) && !json_is_number(".5", 2) &&
	    !json_is_number("1.", 2) && !json_is_number("+1", 2) &&
	    !json_is_number("inf", 3) && !json_is_number("", 0) &&
	    json_is_number("-0", 2) && json_is_number("0.5E+3", 6),
	    "the JSON number grammar");
	expect(number, "N/A",
	    "{\"k\":1,\"n\":\"N/A\"}", "no number: a string");

	expect(members, "{\"a\": [1, 2.50, \"x\\u00e9\"], "
	    "\"b\": {\"c\": null}}",
	    "{\"k\":1,\"a\":[1,2.50,\"x\xc3\xa9\"],\"b\":{\"c\":null}}",
	    "member by member, numbers as written");
	ok(members_ok, "an args object is copied");
	expect(members, "{\"a\": \"\\udc00\"}",
	    "{\"k\":1,\"a\":\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"}",
	    "a lone surrogate escape becomes U+FFFD");
	expect(members, "[1, 2]",
	    "{\"k\":1}", "nothing of an array is written");
	ok(!members_ok, "an array is not an args object");
	expect(members, "{\"a\": [1, ",
	    "{\"k\":1}", "nothing of a cut object is written");
	ok(!members_ok, "nor is a cut one");
	strcpy(deep, "{\"a\":");
	for (i = 0; i < 120; i++)
		strcat(deep, "[");
	for (i = 0; i < 120; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	expect(members, deep,
	    "{\"k\":1}", "nothing of a too deep one: the file stays valid");
	ok(!members_ok, "args nested 120 deep are refused");
	return done_testing();
}
