/*
 * Regular expressions for filters and search, through PCRE2. This is the
 * only file that includes <pcre2.h>.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"

/* Ids the memo remembers results for: 0 to MATCHER_MEMO_MAX - 1. */
#define MATCHER_MEMO_MAX	(64 * 1024 * 1024)

struct matcher {
	pcre2_code		*code;
	pcre2_match_data	*md;
	bool			 jit;
	/* Results by a caller's id: 0 unknown, 1 no match, 2 a match. */
	unsigned char		*memo;
	size_t			 nmemo;
	void			*aux;
	void			(*aux_free)(void *);
	/* Code units every match holds (PCRE2's first and last), or -1. */
	int32_t			 need[2];
	/* The last set of characters asked about, and the answer. */
	const char		*asked;
	bool			 may;
	/* Matches PCRE2 gave up on (a limit hit), and why, first. */
	char			*pattern;
	uint64_t		 gaveup;
	int			 why;
};

/* Note the code units that every match must hold, if PCRE2 knows any. */
static void
matcher_needs(struct matcher *m)
{
	uint32_t	 type, unit;

	m->need[0] = m->need[1] = -1;
	if (pcre2_pattern_info(m->code, PCRE2_INFO_FIRSTCODETYPE, &type) ==
	    0 && type == 1 && pcre2_pattern_info(m->code,
	    PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0)
		m->need[0] = (int32_t)unit;
	if (pcre2_pattern_info(m->code, PCRE2_INFO_LASTCODETYPE, &type) ==
	    0 && type == 1 && pcre2_pattern_info(m->code,
	    PCRE2_INFO_LASTCODEUNIT, &unit) == 0)
		m->need[1] = (int32_t)unit;
}

/* Whether a code unit NEED of a match may be among the ASCII CHARS. */
static bool
matcher_may_hold(int32_t need, const char *chars)
{
	int	 c = (int)need;

	if (c < 0)
		return true;
	if (c >= 0x80 || c == 0)
		return false;
	return strchr(chars, c) != NULL || strchr(chars, c >= 'a' &&
	    c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c) != NULL;
}

/*
 * Whether M could match a text made of the ASCII characters in CHARS
 * only: false when a code unit every match holds is not among them in
 * either case. A filter looking for a name thus skips numbers. A filter
 * asks this for every row, always with the same CHARS: the answer is
 * kept for the last string asked about, known by its address (CHARS is a
 * constant).
 */
bool
matcher_may_match_chars(struct matcher *m, const char *chars)
{
	if (m->asked != chars) {
		m->may = matcher_may_hold(m->need[0], chars) &&
		    matcher_may_hold(m->need[1], chars);
		m->asked = chars;
	}
	return m->may;
}

/*
 * Compile PATTERN (UTF-8, caseless when CASELESS). On a bad pattern return
 * NULL and set *cause to a message naming the offset.
 */
struct matcher *
matcher_create(const char *pattern, bool caseless, char **cause)
{
	struct matcher	*m;
	PCRE2_UCHAR	 buf[256];
	PCRE2_SIZE	 off;
	int		 err;
	uint32_t	 opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (caseless)
		opts |= PCRE2_CASELESS;
	m = xcalloc(1, sizeof *m);
	m->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    opts, &err, &off, NULL);
	if (m->code == NULL) {
		pcre2_get_error_message(err, buf, sizeof buf);
		xasprintf(cause, "bad regular expression '%s': %s at offset "
		    "%zu", pattern, (char *)buf, (size_t)off);
		free(m);
		return NULL;
	}
	m->pattern = xstrdup(pattern);
	m->jit = pcre2_jit_compile(m->code, PCRE2_JIT_COMPLETE) == 0;
	matcher_needs(m);
	m->md = pcre2_match_data_create_from_pattern(m->code, NULL);
	return m;
}

void
matcher_free(struct matcher *m)
{
	if (m == NULL)
		return;
	if (m->aux_free != NULL)
		m->aux_free(m->aux);
	free(m->memo);
	pcre2_match_data_free(m->md);
	pcre2_code_free(m->code);
	free(m->pattern);
	free(m);
}

/*
 * Whether PCRE2's answer RC is a match; an error other than "no match" is
 * one it gave up on, counted in M with the first reason.
 */
static bool
matcher_matched(struct matcher *m, int rc)
{
	if (rc >= 0)
		return true;
	if (rc != PCRE2_ERROR_NOMATCH && m->gaveup++ == 0)
		m->why = rc;
	return false;
}

/*
 * Whether M matches S. A match PCRE2 gives up on (its match, depth or
 * heap limit hit by a pattern that backtracks without end) is no match,
 * and counted: the caller asks matcher_failed() and reports it rather
 * than show rows the pattern may have matched as not matching.
 */
bool
matcher_match(struct matcher *m, const char *s, size_t len)
{
	int	 rc;

	/* The JIT's own entry skips checks (invalid UTF-8 is allowed). */
	if (m->jit)
		rc = pcre2_jit_match(m->code, (PCRE2_SPTR)s, len, 0, 0, m->md,
		    NULL);
	else
		rc = pcre2_match(m->code, (PCRE2_SPTR)s, len, 0, 0, m->md,
		    NULL);
	return matcher_matched(m, rc);
}

/*
 * Whether M gave up on a string it was asked to match; if so set *cause,
 * unless CAUSE is NULL, to a message that says so, with the number of
 * strings.
 */
bool
matcher_failed(struct matcher *m, char **cause)
{
	PCRE2_UCHAR	 buf[256];

	if (m == NULL || m->gaveup == 0)
		return false;
	if (cause == NULL)
		return true;
	if (pcre2_get_error_message(m->why, buf, sizeof buf) < 0)
		snprintf((char *)buf, sizeof buf, "error %d", m->why);
	xasprintf(cause, "the regular expression '%s' gave up on %llu "
	    "string%s (%s): it backtracks too much to tell whether they "
	    "match; simplify it", m->pattern, (unsigned long long)m->gaveup,
	    m->gaveup == 1 ? "" : "s", (char *)buf);
	return true;
}

/*
 * The result remembered for the caller's id ID (a string matched again
 * and again, known by its id): 1 a match, 0 none, -1 not known yet.
 */
int
matcher_memo_get(struct matcher *m, int64_t id)
{
	if (id < 0 || (uint64_t)id >= m->nmemo || m->memo[id] == 0)
		return -1;
	return m->memo[id] == 2;
}

/* Remember for id ID whether it matched. */
void
matcher_memo_set(struct matcher *m, int64_t id, bool match)
{
	size_t	 n;

	if (id < 0 || id >= MATCHER_MEMO_MAX)
		return;
	if ((uint64_t)id >= m->nmemo) {
		n = m->nmemo == 0 ? 1024 : m->nmemo;
		while (n <= (uint64_t)id)
			n *= 2;
		m->memo = xreallocarray(m->memo, n, 1);
		memset(m->memo + m->nmemo, 0, n - m->nmemo);
		m->nmemo = n;
	}
	m->memo[id] = match ? 2 : 1;
}

/* Data of the caller's kept with M, freed by FREE when M is. */
void
matcher_set_aux(struct matcher *m, void *aux, void (*free_aux)(void *))
{
	if (m->aux_free != NULL)
		m->aux_free(m->aux);
	m->aux = aux;
	m->aux_free = free_aux;
}

void *
matcher_aux(struct matcher *m)
{
	return m->aux;
}

/*
 * Find the first match in S at or after *START; set *START and *END to it.
 * Return 0 on a match, -1 otherwise.
 */
int
matcher_find(struct matcher *m, const char *s, size_t len, size_t *start,
    size_t *end)
{
	PCRE2_SIZE	*ov;

	if (!matcher_matched(m, pcre2_match(m->code, (PCRE2_SPTR)s, len,
	    *start, 0, m->md, NULL)))
		return -1;
	ov = pcre2_get_ovector_pointer(m->md);
	*start = ov[0];
	*end = ov[1];
	return 0;
}
