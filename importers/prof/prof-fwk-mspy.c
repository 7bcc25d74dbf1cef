/*
 * JSON values of MindSpore's dataset pipeline files (prof-msdata.h) seen
 * as Python sees them, since MindSpore's analysis of them is Python: a
 * dict member, truth ("not v"), numbers and bools as ints, dict keys'
 * hash and equality, and the text of repr() and str().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-msdata.h"

/* The object member KEY of V (NULL if none), the last if it is twice. */
yajl_val
prof_mspy_get(yajl_val v, const char *key)
{
	yajl_val	 r = NULL;
	size_t		 i;

	if (v == NULL || !YAJL_IS_OBJECT(v))
		return NULL;
	for (i = 0; i < YAJL_GET_OBJECT(v)->len; i++)
		if (strcmp(YAJL_GET_OBJECT(v)->keys[i], key) == 0)
			r = YAJL_GET_OBJECT(v)->values[i];
	return r;
}

/* True if V is None or falsy, as Python's "not v" says. */
bool
prof_mspy_falsy(yajl_val v)
{
	return v == NULL || YAJL_IS_NULL(v) || YAJL_IS_FALSE(v) ||
	    (YAJL_IS_OBJECT(v) && YAJL_GET_OBJECT(v)->len == 0) ||
	    (YAJL_IS_ARRAY(v) && YAJL_GET_ARRAY(v)->len == 0) ||
	    (YAJL_IS_STRING(v) && *YAJL_GET_STRING(v) == '\0') ||
	    (YAJL_IS_NUMBER(v) && YAJL_GET_DOUBLE(v) == 0);
}

/* True if V is a number, or a bool (Python's ints). */
bool
prof_mspy_numeric(yajl_val v, double *d)
{
	if (v == NULL)
		return false;
	if (YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v))
		*d = YAJL_IS_TRUE(v);
	else if (YAJL_IS_NUMBER(v))
		*d = YAJL_IS_INTEGER(v) ? (double)YAJL_GET_INTEGER(v) :
		    YAJL_GET_DOUBLE(v);
	else
		return false;
	/* -0.0 is 0, as for Python's hash and ==. */
	if (*d == 0)
		*d = 0;
	return true;
}

/* True if V is an integer (a bool too) that fits, into *I. */
bool
prof_mspy_int(yajl_val v, int64_t *i)
{
	if (YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v))
		*i = YAJL_IS_TRUE(v);
	else if (YAJL_IS_INTEGER(v))
		*i = YAJL_GET_INTEGER(v);
	else
		return false;
	return true;
}

/*
 * A dict key's hash and equality as Python's: numbers (and bools) by
 * value, strings by text, None by itself. Objects and lists are no keys.
 */
uint64_t
prof_mspy_hash(yajl_val v)
{
	double	 d;

	if (prof_mspy_numeric(v, &d))
		return util_hash64((const char *)&d, sizeof d) ^ 1;
	if (v != NULL && YAJL_IS_STRING(v))
		return util_hash64(v->u.string, strlen(v->u.string)) ^ 2;
	return 3;
}

bool
prof_mspy_eq(yajl_val a, yajl_val b)
{
	double	 x, y;
	int64_t	 i, j;

	if (prof_mspy_numeric(a, &x) && prof_mspy_numeric(b, &y)) {
		/* Python compares an int and a float exactly. */
		if (prof_mspy_int(a, &i) && prof_mspy_int(b, &j))
			return i == j;
		if (prof_mspy_int(a, &i) || prof_mspy_int(b, &i)) {
			x = prof_mspy_int(a, &j) ? y : x;
			return x == (double)i && x >= -0x1p63 && x < 0x1p63 &&
			    (int64_t)x == i;
		}
		return x == y;
	}
	if (YAJL_IS_STRING(a) && YAJL_IS_STRING(b))
		return strcmp(a->u.string, b->u.string) == 0;
	return YAJL_IS_NULL(a) && YAJL_IS_NULL(b);
}

bool
prof_mspy_hashable(yajl_val v)
{
	return !YAJL_IS_OBJECT(v) && !YAJL_IS_ARRAY(v);
}

/* A number's text as Python prints it: an integer whole, a float repr. */
static void
prof_mspy_number(struct strbuf *b, yajl_val v)
{
	const char	*r = v->u.number.r;
	char		 buf[40];
	size_t		 n = strlen(r);

	/* An integer's digits, however long (JSON has no leading zeros). */
	if (strcspn(r, ".eE") == n) {
		if (strcmp(r, "-0") == 0)
			r = "0";
		strbuf_adds(b, r);
		return;
	}
	util_fmt_pyfloat(buf, sizeof buf, strtod(r, NULL));
	strbuf_adds(b, buf);
}

/* The bytes of the character at S (of LEN), as Python's: a bad byte one. */
static size_t
prof_mspy_char(const char *s, size_t len)
{
	size_t	 k = util_utf8_len((const unsigned char *)s, len);

	return k > 0 ? k : 1;
}

/* True if the key at I of the object V is not one met before it. */
bool
prof_mspy_first(yajl_val v, size_t i)
{
	size_t	 j;

	for (j = 0; j < i; j++)
		if (strcmp(YAJL_GET_OBJECT(v)->keys[j],
		    YAJL_GET_OBJECT(v)->keys[i]) == 0)
			return false;
	return true;
}

/*
 * Python's len() of V into *N: a list's items, a string's characters, a
 * dict's keys; false if V is no iterable (a number, a bool, None).
 */
bool
prof_mspy_len(yajl_val v, size_t *n)
{
	const char	*s;
	size_t		 i, k, len;

	*n = 0;
	if (v != NULL && YAJL_IS_ARRAY(v))
		*n = YAJL_GET_ARRAY(v)->len;
	else if (v != NULL && YAJL_IS_OBJECT(v)) {
		for (i = 0; i < YAJL_GET_OBJECT(v)->len; i++)
			*n += prof_mspy_first(v, i);
	} else if (v != NULL && YAJL_IS_STRING(v)) {
		s = YAJL_GET_STRING(v);
		for (len = strlen(s); len > 0; s += k, len -= k, (*n)++)
			k = prof_mspy_char(s, len);
	} else
		return false;
	return true;
}

/* V as Python's repr() prints it inside a list, into B. */
void
prof_mspy_repr(struct strbuf *b, yajl_val v)
{
	struct yajl_val_s	 key;
	const char		*s, *q;
	size_t			 i, n;

	if (v == NULL || YAJL_IS_NULL(v))
		strbuf_adds(b, "None");
	else if (YAJL_IS_TRUE(v))
		strbuf_adds(b, "True");
	else if (YAJL_IS_FALSE(v))
		strbuf_adds(b, "False");
	else if (YAJL_IS_NUMBER(v))
		prof_mspy_number(b, v);
	else if (YAJL_IS_STRING(v)) {
		/* Single quotes unless it holds one and no double quote. */
		s = YAJL_GET_STRING(v);
		q = strchr(s, '\'') != NULL && strchr(s, '"') == NULL ?
		    "\"" : "'";
		strbuf_adds(b, q);
		for (; *s != '\0'; s++) {
			if (*s == '\\' || *s == *q)
				strbuf_addc(b, '\\');
			if (*s == '\n')
				strbuf_adds(b, "\\n");
			else if (*s == '\r')
				strbuf_adds(b, "\\r");
			else if (*s == '\t')
				strbuf_adds(b, "\\t");
			else if ((unsigned char)*s < 0x20 || *s == 0x7f)
				strbuf_addf(b, "\\x%02x", (unsigned char)*s);
			else
				strbuf_addc(b, *s);
		}
		strbuf_adds(b, q);
	} else if (YAJL_IS_ARRAY(v)) {
		strbuf_addc(b, '[');
		for (i = 0; i < YAJL_GET_ARRAY(v)->len; i++) {
			if (i > 0)
				strbuf_adds(b, ", ");
			prof_mspy_repr(b, YAJL_GET_ARRAY(v)->values[i]);
		}
		strbuf_addc(b, ']');
	} else {
		/* A key twice is one, at its first place, its last value. */
		memset(&key, 0, sizeof key);
		key.type = yajl_t_string;
		strbuf_addc(b, '{');
		for (i = 0, n = 0; i < YAJL_GET_OBJECT(v)->len; i++) {
			if (!prof_mspy_first(v, i))
				continue;
			key.u.string = (char *)YAJL_GET_OBJECT(v)->keys[i];
			strbuf_adds(b, n++ > 0 ? ", " : "");
			prof_mspy_repr(b, &key);
			strbuf_adds(b, ": ");
			prof_mspy_repr(b, prof_mspy_get(v,
			    YAJL_GET_OBJECT(v)->keys[i]));
		}
		strbuf_addc(b, '}');
	}
}

/*
 * The index of the dict key K among KEYS[0..*N) (MAP: their hashes, as
 * Python's dict finds them); a new key is added last.
 */
uint64_t
prof_mspy_key(struct util_map *map, yajl_val **keys, size_t *n,
    yajl_val k)
{
	uint64_t	 h = prof_mspy_hash(k), x;

	for (; util_map_get(map, h, &x); h++)
		if (prof_mspy_eq((*keys)[x], k))
			return x;
	*keys = util_grow(*keys, *n, 1, sizeof **keys);
	(*keys)[*n] = k;
	util_map_set(map, h, *n);
	return (*n)++;
}

/* V as Python's str() prints it, into B: a string as it is. */
void
prof_mspy_str(struct strbuf *b, yajl_val v)
{
	if (v != NULL && YAJL_IS_STRING(v))
		strbuf_adds(b, YAJL_GET_STRING(v));
	else
		prof_mspy_repr(b, v);
}

/* V as a csv cell of Python's: None empty, a string as it is. */
char *
prof_mspy_cell(yajl_val v)
{
	struct strbuf	 b;

	strbuf_init(&b);
	if (v != NULL && !YAJL_IS_NULL(v))
		prof_mspy_str(&b, v);
	return strbuf_detach(&b);
}

/* A value as a number for Python's arithmetic; false where it fails. */
bool
prof_mspy_arith(yajl_val v, double *d)
{
	if (v == NULL || !prof_mspy_numeric(v, d))
		return false;
	if (YAJL_IS_NUMBER(v) && !YAJL_IS_INTEGER(v) &&
	    strcspn(v->u.number.r, ".eE") == strlen(v->u.number.r))
		return false;		/* an integer past 64 bits */
	return true;
}

/* A string id of the N bytes S, kept with M. */
static yajl_val
prof_mspy_made(struct msdata *m, const char *s, size_t n)
{
	yajl_val	 v;

	v = xcalloc(1, sizeof *v);
	v->type = yajl_t_string;
	v->u.string = xstrndup(s, n);
	m->made = util_grow(m->made, m->nmade, 1, sizeof *m->made);
	m->made[m->nmade++] = v;
	return v;
}

/*
 * The ids CHILDREN into *V, *N, as Python iterates them: a list's items,
 * a string's characters, a dict's keys; false (M->why set) for a number
 * or a bool, which Python cannot iterate.
 */
bool
prof_mspy_iter(struct msdata *m, yajl_val children, yajl_val **v,
    size_t *n)
{
	const char	*s;
	size_t		 i, k, len;

	if (YAJL_IS_ARRAY(children)) {
		*v = YAJL_GET_ARRAY(children)->values;
		*n = YAJL_GET_ARRAY(children)->len;
		return true;
	}
	if (!YAJL_IS_STRING(children) && !YAJL_IS_OBJECT(children)) {
		m->why = "children that are a number or a bool";
		return false;
	}
	*v = NULL;
	*n = 0;
	if (YAJL_IS_OBJECT(children)) {
		for (i = 0; i < YAJL_GET_OBJECT(children)->len; i++) {
			if (!prof_mspy_first(children, i))
				continue;
			s = YAJL_GET_OBJECT(children)->keys[i];
			*v = util_grow(*v, *n, 1, sizeof **v);
			(*v)[(*n)++] = prof_mspy_made(m, s, strlen(s));
		}
	} else {
		s = YAJL_GET_STRING(children);
		for (len = strlen(s); len > 0; s += k, len -= k) {
			k = prof_mspy_char(s, len);
			*v = util_grow(*v, *n, 1, sizeof **v);
			(*v)[(*n)++] = prof_mspy_made(m, s, k);
		}
	}
	m->lists = util_grow(m->lists, m->nlists, 1, sizeof *m->lists);
	m->lists[m->nlists++] = *v;
	return true;
}
