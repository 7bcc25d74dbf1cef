/*
 * JSON output, all of it through yajl's generator: strings escaped by
 * yajl, bytes that are not UTF-8 replaced by U+FFFD (one per byte, so the
 * rest of a string survives), numbers written as the text they are shown
 * as when that text is a JSON number, and JSON kept in the store (a
 * trace's args) parsed and written again rather than pasted. A writer
 * makes one value at a time (a row, an event); the caller puts the
 * separators between values, so each can sit on a line of its own. Also
 * the one way files are parsed into a yajl tree (json_tree_parse()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>

#include "npuprof.h"

struct json {
	yajl_gen	 g;
	FILE		*f;
	struct strbuf	 fix;		/* a string made valid UTF-8 */
	bool		 started;
};

static void
json_print(void *arg, const char *s, size_t len)
{
	struct json	*j = arg;

	fwrite(s, 1, len, j->f);
}

/* A writer of JSON values to F. */
struct json *
json_open(FILE *f)
{
	struct json	*j;

	j = xcalloc(1, sizeof *j);
	j->f = f;
	if ((j->g = yajl_gen_alloc(NULL)) == NULL)
		fatalx("%s: out of memory", __func__);
	yajl_gen_config(j->g, yajl_gen_print_callback, json_print, j);
	yajl_gen_config(j->g, yajl_gen_validate_utf8, 1);
	strbuf_init(&j->fix);
	return j;
}

void
json_free(struct json *j)
{
	if (j == NULL)
		return;
	yajl_gen_free(j->g);
	strbuf_release(&j->fix);
	free(j);
}

/* Start the next value; the one before is complete. */
void
json_next(struct json *j)
{
	if (j->started)
		yajl_gen_reset(j->g, NULL);
	j->started = true;
}

/*
 * S as valid UTF-8: S itself when it is, otherwise a copy in FIX with
 * each byte that starts no valid sequence replaced by U+FFFD.
 */
static const char *
json_utf8(struct strbuf *fix, const char *s, size_t *len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i, n;

	for (i = 0; i < *len; i += n) {
		if ((n = util_utf8_len(p + i, *len - i)) == 0)
			break;
	}
	if (i == *len)
		return s;
	strbuf_reset(fix);
	for (i = 0; i < *len; i += n) {
		if ((n = util_utf8_len(p + i, *len - i)) == 0) {
			strbuf_adds(fix, "\xef\xbf\xbd");
			n = 1;
		} else
			strbuf_add(fix, s + i, n);
	}
	*len = fix->len;
	return fix->s;
}

void
json_strn(struct json *j, const char *s, size_t len)
{
	s = json_utf8(&j->fix, s, &len);
	yajl_gen_string(j->g, (const unsigned char *)s, len);
}

void
json_str(struct json *j, const char *s)
{
	json_strn(j, s, strlen(s));
}

void
json_int(struct json *j, int64_t v)
{
	yajl_gen_integer(j->g, (long long)v);
}

void
json_null(struct json *j)
{
	yajl_gen_null(j->g);
}

void
json_map_open(struct json *j)
{
	yajl_gen_map_open(j->g);
}

void
json_map_close(struct json *j)
{
	yajl_gen_map_close(j->g);
}

void
json_array_open(struct json *j)
{
	yajl_gen_array_open(j->g);
}

void
json_array_close(struct json *j)
{
	yajl_gen_array_close(j->g);
}

/* Whether the LEN bytes at S are a number as JSON writes one. */
bool
json_is_number(const char *s, size_t len)
{
	size_t	 i = 0, d;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else if (i < len && s[i] >= '1' && s[i] <= '9') {
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	} else
		return false;
	if (i < len && s[i] == '.') {
		for (d = ++i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	return i == len;
}

/*
 * The number shown as TEXT, written as that text: "7.840" stays 7.840.
 * False, writing nothing, if TEXT is not a JSON number.
 */
bool
json_number(struct json *j, const char *text)
{
	size_t	 len = strlen(text);

	if (!json_is_number(text, len))
		return false;
	yajl_gen_number(j->g, text, len);
	return true;
}

/*
 * yajl's parser feeding a generator: JSON text copied value by value. With
 * OUTER false the braces of the top object are left out.
 */
struct json_copy {
	yajl_gen	 g;
	bool		 outer;
	int		 depth;
	struct strbuf	 fix;		/* strings made valid UTF-8 */
};

/*
 * How deep args may nest: well below yajl's own limit once the event and
 * args maps are around them, so a copy that passed its dry run can never
 * stop half-way.
 */
#define JSON_COPY_DEPTH	64

static int
json_copy_null(void *arg)
{
	return yajl_gen_null(((struct json_copy *)arg)->g) ==
	    yajl_gen_status_ok;
}

static int
json_copy_bool(void *arg, int v)
{
	return yajl_gen_bool(((struct json_copy *)arg)->g, v) ==
	    yajl_gen_status_ok;
}

static int
json_copy_number(void *arg, const char *s, size_t len)
{
	return yajl_gen_number(((struct json_copy *)arg)->g, s, len) ==
	    yajl_gen_status_ok;
}

/* A string or key: yajl checks the byte structure only; we check all. */
static int
json_copy_string(void *arg, const unsigned char *s, size_t len)
{
	struct json_copy	*c = arg;
	const char		*t;

	t = json_utf8(&c->fix, (const char *)s, &len);
	return yajl_gen_string(c->g, (const unsigned char *)t, len) ==
	    yajl_gen_status_ok;
}

static int
json_copy_map_open(void *arg)
{
	struct json_copy	*c = arg;

	if (c->depth++ == 0 && !c->outer)
		return 1;
	if (c->depth > JSON_COPY_DEPTH)
		return 0;
	return yajl_gen_map_open(c->g) == yajl_gen_status_ok;
}

static int
json_copy_map_close(void *arg)
{
	struct json_copy	*c = arg;

	if (--c->depth == 0 && !c->outer)
		return 1;
	return yajl_gen_map_close(c->g) == yajl_gen_status_ok;
}

static int
json_copy_array_open(void *arg)
{
	struct json_copy	*c = arg;

	if (++c->depth > JSON_COPY_DEPTH)
		return 0;
	return yajl_gen_array_open(c->g) == yajl_gen_status_ok;
}

static int
json_copy_array_close(void *arg)
{
	struct json_copy	*c = arg;

	c->depth--;
	return yajl_gen_array_close(c->g) == yajl_gen_status_ok;
}

static const yajl_callbacks json_copy_callbacks = {
	json_copy_null,
	json_copy_bool,
	NULL,
	NULL,
	json_copy_number,
	json_copy_string,
	json_copy_map_open,
	json_copy_string,
	json_copy_map_close,
	json_copy_array_open,
	json_copy_array_close
};

/* Parse TEXT into C's generator. */
static bool
json_copy(struct json_copy *c, const char *text)
{
	yajl_handle	 h;
	bool		 ok;

	if ((h = yajl_alloc(&json_copy_callbacks, NULL, c)) == NULL)
		fatalx("%s: out of memory", __func__);
	strbuf_init(&c->fix);
	ok = yajl_parse(h, (const unsigned char *)text, strlen(text)) ==
	    yajl_status_ok && yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	strbuf_release(&c->fix);
	return ok;
}

/*
 * Write the members of the JSON object TEXT into the map being written
 * (the object's own braces are not copied), bytes that are not UTF-8 as
 * U+FFFD. False, writing nothing, if TEXT is not one JSON object or nests
 * deeper than JSON_COPY_DEPTH.
 */
bool
json_members(struct json *j, const char *text)
{
	struct json_copy	 c;
	const unsigned char	*buf;
	size_t			 len;
	bool			 ok;

	/* A dry run first: nothing half-copied ever reaches J. */
	memset(&c, 0, sizeof c);
	c.outer = true;
	if ((c.g = yajl_gen_alloc(NULL)) == NULL)
		fatalx("%s: out of memory", __func__);
	yajl_gen_config(c.g, yajl_gen_validate_utf8, 1);
	ok = json_copy(&c, text) && yajl_gen_get_buf(c.g, &buf, &len) ==
	    yajl_gen_status_ok && len >= 2 && buf[0] == '{';
	yajl_gen_free(c.g);
	if (!ok)
		return false;
	memset(&c, 0, sizeof c);
	c.g = j->g;
	return json_copy(&c, text);
}

/* Arrays and objects json_tree_parse() takes inside one another. */
#define JSON_TREE_DEPTH	512

/*
 * yajl_tree_parse() of TEXT, unless its arrays and objects nest deeper
 * than JSON_TREE_DEPTH: yajl frees a tree by recursion, and a file of a
 * few MB can nest deep enough to overflow the stack. On failure return
 * NULL with why in ERR, as yajl_tree_parse() does.
 */
struct yajl_val_s *
json_tree_parse(const char *text, char *err, size_t errlen)
{
	const char	*p;
	int		 depth = 0;
	bool		 in_str = false;

	for (p = text; *p != '\0'; p++) {
		if (in_str) {
			if (*p == '\\' && p[1] != '\0')
				p++;
			else if (*p == '"')
				in_str = false;
		} else if (*p == '"')
			in_str = true;
		else if (*p == '[' || *p == '{') {
			if (++depth > JSON_TREE_DEPTH) {
				snprintf(err, errlen, "arrays and objects "
				    "nested deeper than %d at byte %zu",
				    JSON_TREE_DEPTH, (size_t)(p - text));
				return NULL;
			}
		} else if ((*p == ']' || *p == '}') && depth > 0)
			depth--;
	}
	return yajl_tree_parse(text, err, errlen);
}
