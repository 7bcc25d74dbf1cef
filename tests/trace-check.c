/*
 * trace-check: validate chrome trace-event JSON files as the timeline
 * export writes them, for the export tests.
 *
 *	trace-check FILE...
 *
 * Each file must be a JSON array of objects with a "ph". Every "X" event
 * needs "ts" (a string of microseconds with 3 decimals), a numeric "dur",
 * and integer "pid" and "tid"; every "C" counter and "i" instant event
 * "ts", "pid" and "tid" (and a counter an "args" object of numbers); every
 * "s"/"f" flow event an "id" string and "ts", and within each file the
 * flow ids must pair up: as many "s" as "f" for every id. Prints the
 * totals over all files, "M m X x s s f f C c i i", and exits 1 (naming
 * the problem) if any check fails.
 */
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "npuprof.h"

struct flow_id {
	char	*id;
	int64_t	 s;
	int64_t	 f;
};

struct check {
	int64_t		 counts[6];	/* M X s f C i */
	struct flow_id	*ids;
	size_t		 nids;
	int		 bad;
};

static yajl_val
check_get(yajl_val obj, const char *key)
{
	const char	*path[] = { key, NULL };

	return yajl_tree_get(obj, path, yajl_t_any);
}

static void
check_fail(struct check *c, const char *file, size_t i, const char *what)
{
	if (c->bad++ < 10)
		fprintf(stderr, "%s: event %zu: %s\n", file, i, what);
}

static void
check_flow(struct check *c, const char *id, bool start)
{
	size_t	 i;

	for (i = 0; i < c->nids; i++) {
		if (strcmp(c->ids[i].id, id) == 0)
			break;
	}
	if (i == c->nids) {
		c->ids = xreallocarray(c->ids, c->nids + 1, sizeof *c->ids);
		c->ids[c->nids].id = xstrdup(id);
		c->ids[c->nids].s = c->ids[c->nids].f = 0;
		c->nids++;
	}
	if (start)
		c->ids[i].s++;
	else
		c->ids[i].f++;
}

/* A "ts" as the vendor writes it: digits, a dot, exactly 3 digits. */
static bool
check_ts(yajl_val v)
{
	const char	*s, *dot;

	if (!YAJL_IS_STRING(v))
		return false;
	s = YAJL_GET_STRING(v);
	dot = strchr(s, '.');
	return dot != NULL && strlen(dot + 1) == 3 &&
	    strspn(s, "0123456789.-") == strlen(s);
}

/* A counter's args: an object of one or more numbers. */
static bool
check_numbers(yajl_val v)
{
	size_t	 i;

	if (v == NULL || !YAJL_IS_OBJECT(v) || v->u.object.len == 0)
		return false;
	for (i = 0; i < v->u.object.len; i++) {
		if (!YAJL_IS_NUMBER(v->u.object.values[i]))
			return false;
	}
	return true;
}

static void
check_event(struct check *c, const char *file, size_t i, yajl_val e)
{
	yajl_val	 ph = check_get(e, "ph"), id;
	const char	*p;

	if (!YAJL_IS_OBJECT(e) || ph == NULL || !YAJL_IS_STRING(ph)) {
		check_fail(c, file, i, "not an event with a ph");
		return;
	}
	p = YAJL_GET_STRING(ph);
	if (strcmp(p, "M") == 0)
		c->counts[0]++;
	else if (strcmp(p, "X") == 0) {
		c->counts[1]++;
		if (!check_ts(check_get(e, "ts")) ||
		    check_get(e, "dur") == NULL ||
		    !YAJL_IS_NUMBER(check_get(e, "dur")) ||
		    check_get(e, "pid") == NULL ||
		    !YAJL_IS_INTEGER(check_get(e, "pid")) ||
		    check_get(e, "tid") == NULL ||
		    !YAJL_IS_INTEGER(check_get(e, "tid")))
			check_fail(c, file, i, "X without ts, dur, pid or tid");
	} else if (strcmp(p, "s") == 0 || strcmp(p, "f") == 0) {
		c->counts[p[0] == 's' ? 2 : 3]++;
		id = check_get(e, "id");
		if (id == NULL || !YAJL_IS_STRING(id) ||
		    !check_ts(check_get(e, "ts"))) {
			check_fail(c, file, i, "flow without id or ts");
			return;
		}
		check_flow(c, YAJL_GET_STRING(id), p[0] == 's');
	} else if (strcmp(p, "C") == 0 || strcmp(p, "i") == 0) {
		c->counts[p[0] == 'C' ? 4 : 5]++;
		if (!check_ts(check_get(e, "ts")) ||
		    check_get(e, "pid") == NULL ||
		    !YAJL_IS_INTEGER(check_get(e, "pid")) ||
		    check_get(e, "tid") == NULL ||
		    !YAJL_IS_INTEGER(check_get(e, "tid")))
			check_fail(c, file, i, "C or i without ts, pid or tid");
		else if (p[0] == 'C' && !check_numbers(check_get(e, "args")))
			check_fail(c, file, i, "C without numeric args");
	}
}

static void
check_file(struct check *c, const char *file)
{
	yajl_val	 root;
	char		*data, *cause = NULL, err[256];
	size_t		 i;

	if (util_read_file(file, &data, NULL, (size_t)1 << 31, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		c->bad++;
		return;
	}
	if ((root = yajl_tree_parse(data, err, sizeof err)) == NULL ||
	    !YAJL_IS_ARRAY(root)) {
		fprintf(stderr, "%s: not a JSON array: %s\n", file, err);
		c->bad++;
		free(data);
		return;
	}
	for (i = 0; i < root->u.array.len; i++)
		check_event(c, file, i, root->u.array.values[i]);
	for (i = 0; i < c->nids; i++) {
		if (c->ids[i].s != c->ids[i].f && c->bad++ < 10)
			fprintf(stderr, "%s: flow %s: %lld s, %lld f\n", file,
			    c->ids[i].id, (long long)c->ids[i].s,
			    (long long)c->ids[i].f);
		free(c->ids[i].id);
	}
	free(c->ids);
	c->ids = NULL;
	c->nids = 0;
	yajl_tree_free(root);
	free(data);
}

int
main(int argc, char **argv)
{
	struct check	 c;
	int		 i;

	memset(&c, 0, sizeof c);
	for (i = 1; i < argc; i++)
		check_file(&c, argv[i]);
	printf("M %lld X %lld s %lld f %lld C %lld i %lld\n",
	    (long long)c.counts[0], (long long)c.counts[1],
	    (long long)c.counts[2], (long long)c.counts[3],
	    (long long)c.counts[4], (long long)c.counts[5]);
	return c.bad == 0 && argc > 1 ? 0 : 1;
}
