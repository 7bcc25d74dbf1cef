/*
 * Sorted runs of API spans on disk, so that a large collection's spans are
 * never all in memory at once (doc/formats.md section 3.7). The host reader
 * hands over every NPUPROF_SPAN_RUN spans (1,048,576 by default, 40 MB);
 * their two halves are sorted and written, one on a thread of its own, as
 * two runs of an unlinked temporary file in TMPDIR; the spans are then
 * stored in one merge of the runs, which yields them in the order an
 * in-memory sort of them all would. If the file cannot be written the
 * spans stay in memory, with a warning, and the merge reads them there; if
 * a run cannot be read back, the collection's import fails rather than
 * lose spans. The merge reads each run through a buffer of a sixteenth of
 * it (16 to 4096 spans), so runs far smaller than the default cost more
 * memory at the merge, not less.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof-int.h"

#define PROF_RUNS_DEFAULT	((size_t)1 << 20)
#define PROF_RUNS_READ		4096		/* most spans read at once */
#define PROF_RUNS_READ_MIN	16
#define PROF_RUNS_THREADED	8192		/* fewer spans: one thread */

/* One half of a run: sorted, then written at OFF of FD if FD is not -1. */
struct prof_runs_half {
	struct prof_span	*v;
	size_t			 n;
	int			 fd;
	int64_t			 off;
	int			 err;		/* errno of a failed write */
};

/*
 * The spans sorted in memory before they go to a run: NPUPROF_SPAN_RUN if
 * it is a number of at least 2, else the default.
 */
size_t
prof_runs_size(void)
{
	return (size_t)util_env_count("NPUPROF_SPAN_RUN", PROF_RUNS_DEFAULT,
	    2);
}

/* The spans read from a run at once, for runs of RUN spans. */
static size_t
prof_runs_read_size(size_t run)
{
	size_t	 n = run / 16;

	if (n < PROF_RUNS_READ_MIN)
		return PROF_RUNS_READ_MIN;
	return n > PROF_RUNS_READ ? PROF_RUNS_READ : n;
}

static bool
prof_runs_open(struct store *s, const char *data, struct prof_runs *r)
{
	const char	*dir = getenv("TMPDIR");
	char		*path;
	int		 fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	xasprintf(&path, "%s/npuprof-spans-XXXXXX", dir);
	if ((fd = mkostemp(path, O_CLOEXEC)) == -1) {
		store_load_warning(s, data, -1, "cannot create '%s' for the "
		    "sorted API spans: %s; they are held in memory", path,
		    strerror(errno));
		free(path);
		return false;
	}
	/* Unlinked at once: the file goes when the import does. */
	unlink(path);
	free(path);
	r->fd = fd;
	r->open = true;
	return true;
}

/* Write LEN bytes of BUF at byte OFF of FD; false with errno set if not. */
static bool
prof_runs_write(int fd, const void *buf, size_t len, int64_t off)
{
	const char	*p = buf;
	ssize_t		 w;

	while (len > 0) {
		w = pwrite(fd, p, len > INT_MAX ? INT_MAX : len, (off_t)off);
		if (w == -1 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return false;
		}
		p += w;
		len -= (size_t)w;
		off += w;
	}
	return true;
}

static void *
prof_runs_half_main(void *arg)
{
	struct prof_runs_half	*hf = arg;

	prof_sort_spans(hf->v, hf->n);
	if (hf->fd != -1 && !prof_runs_write(hf->fd, hf->v, hf->n *
	    sizeof *hf->v, hf->off))
		hf->err = errno != 0 ? errno : EIO;
	return NULL;
}

/*
 * Do the two halves HF[0] and HF[1] of a run (the first N spans at V): the
 * second on a thread of its own, so that both cores sort and write; on
 * this one if the run is small or no thread can be had.
 */
static void
prof_runs_halves(struct prof_runs_half hf[2], struct prof_span *v, size_t n,
    int fd, int64_t off)
{
	pthread_t	 t;
	bool		 threaded;

	hf[0].v = v;
	hf[0].n = n / 2;
	hf[1].v = n > 0 ? v + n / 2 : v;	/* V is NULL when N is 0 */
	hf[1].n = n - n / 2;
	hf[0].fd = hf[1].fd = fd;
	hf[0].off = off;
	hf[1].off = off + (int64_t)(hf[0].n * sizeof *v);
	hf[0].err = hf[1].err = 0;
	threaded = n >= PROF_RUNS_THREADED && pthread_create(&t, NULL,
	    prof_runs_half_main, &hf[1]) == 0;
	prof_runs_half_main(&hf[0]);
	if (threaded)
		pthread_join(t, NULL);
	else
		prof_runs_half_main(&hf[1]);
}

/*
 * Sort the spans of H and write them as two new runs, then free them. If
 * they cannot be written they stay, and H keeps every later span.
 */
void
prof_runs_spill(struct store *s, const char *data, struct prof_host *h)
{
	struct prof_runs	*r = &h->runs;
	struct prof_runs_half	 hf[2];
	size_t			 i;

	if (r->off || h->nspans == 0)
		return;
	if (!r->open && !prof_runs_open(s, data, r)) {
		r->off = true;
		return;
	}
	prof_runs_halves(hf, h->spans, h->nspans, r->fd, r->end);
	if (hf[0].err != 0 || hf[1].err != 0) {
		store_load_warning(s, data, -1, "cannot write the sorted API "
		    "spans to a temporary file: %s; they are held in memory",
		    strerror(hf[0].err != 0 ? hf[0].err : hf[1].err));
		r->off = true;
		return;
	}
	for (i = 0; i < 2; i++) {
		if (hf[i].n == 0)
			continue;
		r->v = util_grow(r->v, r->n, 1, sizeof *r->v);
		r->v[r->n].off = hf[i].off;
		r->v[r->n++].n = hf[i].n;
	}
	r->end += (int64_t)(h->nspans * sizeof *h->spans);
	free(h->spans);
	h->spans = NULL;
	h->nspans = 0;
}

/* The current span of source I. */
static const struct prof_span *
prof_runs_head(const struct prof_runs_merge *m, size_t i)
{
	return &m->src[i].buf[m->src[i].pos];
}

static bool
prof_runs_less(const struct prof_runs_merge *m, size_t a, size_t b)
{
	int	 c = prof_span_order(prof_runs_head(m, a), prof_runs_head(m, b));

	return c < 0 || (c == 0 && a < b);
}

static void
prof_runs_sift(struct prof_runs_merge *m, size_t i)
{
	size_t	 c, t;

	while ((c = 2 * i + 1) < m->nheap) {
		if (c + 1 < m->nheap && prof_runs_less(m, m->heap[c + 1],
		    m->heap[c]))
			c++;
		if (!prof_runs_less(m, m->heap[c], m->heap[i]))
			return;
		t = m->heap[c];
		m->heap[c] = m->heap[i];
		m->heap[i] = t;
		i = c;
	}
}

/* Refill source I from its run; false when it has no more spans. */
static bool
prof_runs_fill(struct prof_runs_merge *m, size_t i)
{
	struct prof_runs_src	*src = &m->src[i];
	size_t			 n, len;
	ssize_t			 got;

	if (src->pos < src->len)
		return true;
	if (src->left == 0 || m->failed)
		return false;
	n = src->left < src->cap ? src->left : src->cap;
	len = n * sizeof *src->buf;
	do
		got = pread(m->fd, src->buf, len, (off_t)src->off);
	while (got == -1 && errno == EINTR);
	if (got != (ssize_t)len) {
		xasprintf(&m->cause, "cannot read the sorted API spans back "
		    "from their temporary file at byte %lld: %s",
		    (long long)src->off, got == -1 ? strerror(errno) :
		    "short read");
		m->failed = true;
		return false;
	}
	src->off += (int64_t)len;
	src->left -= n;
	src->pos = 0;
	src->len = n;
	return true;
}

/* Start merging the runs of H and the spans it still holds (sorted here). */
void
prof_runs_merge_start(struct prof_host *h, struct prof_runs_merge *m)
{
	struct prof_runs	*r = &h->runs;
	struct prof_runs_half	 hf[2];
	size_t			 i, each;

	memset(m, 0, sizeof *m);
	m->fd = r->fd;
	/* Every run written holds half of a whole run's spans, or more. */
	each = prof_runs_read_size(r->n > 0 ? r->v[0].n : 0);
	m->src = xcalloc(r->n + 2, sizeof *m->src);
	m->heap = xcalloc(r->n + 2, sizeof *m->heap);
	for (i = 0; i < r->n; i++) {
		m->src[i].cap = r->v[i].n < each ? r->v[i].n : each;
		m->src[i].buf = xreallocarray(NULL, m->src[i].cap,
		    sizeof *m->src[i].buf);
		m->src[i].off = r->v[i].off;
		m->src[i].left = r->v[i].n;
	}
	m->nsrc = r->n;
	/* The spans held: two more sources, their halves sorted at once. */
	prof_runs_halves(hf, h->spans, h->nspans, -1, 0);
	for (i = 0; i < 2; i++) {
		if (hf[i].n == 0)
			continue;
		m->src[m->nsrc].buf = hf[i].v;
		m->src[m->nsrc].len = hf[i].n;
		m->src[m->nsrc++].mem = true;
	}
	for (i = 0; i < m->nsrc; i++) {
		if (prof_runs_fill(m, i))
			m->heap[m->nheap++] = i;
	}
	for (i = m->nheap / 2; i-- > 0;)
		prof_runs_sift(m, i);
}

/*
 * The next span of M in order into SP; false when all are out, or a run
 * could not be read (M's failed set, its cause said).
 */
bool
prof_runs_merge_next(struct prof_runs_merge *m, struct prof_span *sp)
{
	size_t	 i;

	if (m->nheap == 0 || m->failed)
		return false;
	i = m->heap[0];
	*sp = *prof_runs_head(m, i);
	m->src[i].pos++;
	if (!prof_runs_fill(m, i))
		m->heap[0] = m->heap[--m->nheap];
	prof_runs_sift(m, 0);
	return true;
}

void
prof_runs_merge_end(struct prof_runs_merge *m)
{
	size_t	 i;

	for (i = 0; i < m->nsrc; i++) {
		if (!m->src[i].mem)
			free(m->src[i].buf);
	}
	free(m->src);
	free(m->heap);
	free(m->cause);
}

void
prof_runs_release(struct prof_runs *r)
{
	if (r->open)
		close(r->fd);
	free(r->v);
	memset(r, 0, sizeof *r);
}
