/*
 * AI Core frequency changes of a 910B device (doc/formats.md section 2.7):
 * lpmFreqConv.data slices of 888-byte records, each a count and up to 55
 * entries of (u64 syscnt, u32 MHz, u32 reserved) from offset 8. The PMU
 * times of a task use the frequency in effect at its PMU record's end,
 * the last change at or before it, and aic_frequency before the first;
 * a table with any zero frequency is ignored, as the vendor ignores it.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_FREQ_SIZE		888
#define PROF_FREQ_ENTRIES	55

static int
prof_freq_cmp(const void *a, const void *b)
{
	const struct prof_freq_change	*x = a, *y = b;

	if (x->syscnt != y->syscnt)
		return x->syscnt < y->syscnt ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Read the frequency changes of device data directory DATA into C. */
void
prof_freq_read(struct store *s, const char *data, struct prof_freqs *c)
{
	struct prof_files	 f;
	struct prof_stream	 st;
	const unsigned char	*r, *e;
	uint32_t		 n, i;
	const char		*zero_path = NULL;
	int64_t			 zero_off = -1;

	memset(c, 0, sizeof *c);
	prof_slices_list(data, "lpmFreqConv.data", false, &f);
	prof_slices_open(&st, s, &f, PROF_FREQ_SIZE, false);
	while ((r = prof_slices_next(&st)) != NULL) {
		n = importer_le32(r);
		if (n > PROF_FREQ_ENTRIES) {
			store_load_warning(s, st.path, st.offset, "%u "
			    "frequency entries in a record of at most %d, "
			    "the rest ignored", n, PROF_FREQ_ENTRIES);
			n = PROF_FREQ_ENTRIES;
		}
		for (i = 0; i < n; i++) {
			e = r + 8 + 16 * i;
			c->v = util_grow(c->v, c->n, 1, sizeof *c->v);
			c->v[c->n].syscnt = importer_le64(e);
			c->v[c->n].mhz = importer_le32(e + 8);
			c->v[c->n].seq = (uint32_t)c->n;
			if (c->v[c->n].mhz == 0 && zero_path == NULL) {
				zero_path = st.path;
				zero_off = st.offset;
			}
			c->n++;
		}
	}
	prof_slices_close(&st);
	if (zero_path != NULL) {
		store_load_warning(s, zero_path, zero_off, "an AI Core "
		    "frequency of 0: the frequency changes are ignored");
		c->n = 0;
	}
	if (c->n > 1)
		qsort(c->v, c->n, sizeof *c->v, prof_freq_cmp);
	prof_slices_release(&f);
}

void
prof_freq_release(struct prof_freqs *c)
{
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* The AI Core MHz in effect at SYSCNT: the last change, else DEF. */
double
prof_freq_at(const struct prof_freqs *c, uint64_t syscnt, double def)
{
	size_t	 lo = 0, hi = c->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (c->v[mid].syscnt <= syscnt)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? (double)c->v[lo - 1].mhz : def;
}
