/*
 * Regular expressions for filters and search, through PCRE2. This is the
 * only file that includes <pcre2.h>.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"

struct matcher {
	pcre2_code		*code;
	pcre2_match_data	*md;
};

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
	pcre2_jit_compile(m->code, PCRE2_JIT_COMPLETE);
	m->md = pcre2_match_data_create_from_pattern(m->code, NULL);
	return m;
}

void
matcher_free(struct matcher *m)
{
	if (m == NULL)
		return;
	pcre2_match_data_free(m->md);
	pcre2_code_free(m->code);
	free(m);
}

bool
matcher_match(struct matcher *m, const char *s, size_t len)
{
	return pcre2_match(m->code, (PCRE2_SPTR)s, len, 0, 0, m->md,
	    NULL) >= 0;
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

	if (pcre2_match(m->code, (PCRE2_SPTR)s, len, *start, 0, m->md,
	    NULL) < 0)
		return -1;
	ov = pcre2_get_ovector_pointer(m->md);
	*start = ov[0];
	*end = ov[1];
	return 0;
}
