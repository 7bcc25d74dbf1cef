/*
 * mstx markers of a generated raw collection (doc/formats.md section 6.1):
 * 256-byte msproftx records in the host's aging.additional.msproftx
 * slices, and the expected msprof_tx table. The markers cycle through a
 * mark (start equals end), a push/pop range, a start/end range and a
 * MarkEx marker whose message is longer than one record holds: its
 * segments are written last first, and every other one has a domain
 * missing from hash_dic (printed "invalid").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-prof-int.h"

#define GEN_PROF_MSTX_MSG	156

static const char *const gen_prof_mstx_events[] = { "marker", "push/pop",
	"start/end", "marker_ex" };

/* Write one msproftx record. */
static void
gen_prof_mstx_rec(struct gen_buf *b, const struct gen_prof_clock *c,
    const struct gen_prof_marker *m, uint16_t info, uint16_t seg,
    const char *msg)
{
	char	 text[GEN_PROF_MSTX_MSG];

	gen_prof_bin_head(b, 20500, 0, m->tid, 232, gen_prof_core_host_raw(c,
	    m->start));
	gen_prof_bin_buf_u16(b, info);
	gen_prof_bin_buf_u16(b, seg);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u16(b, 0x5A5A);
	gen_prof_bin_buf_u16(b, 120);
	gen_prof_bin_buf_u32(b, m->pid);
	gen_prof_bin_buf_u32(b, m->tid);
	gen_prof_bin_buf_u32(b, m->category);
	gen_prof_bin_buf_u32(b, (uint32_t)m->event);
	gen_prof_bin_buf_u32(b, (uint32_t)m->payload_type);
	gen_prof_bin_buf_u64(b, m->payload);
	gen_prof_bin_buf_u64(b, gen_prof_core_host_raw(c, m->start));
	gen_prof_bin_buf_u64(b, gen_prof_core_host_raw(c, m->end));
	gen_prof_bin_buf_u64(b, m->mark);
	gen_prof_bin_buf_u64(b, m->domain);
	gen_prof_bin_buf_u32(b, (uint32_t)m->msg_type);
	memset(text, 0, sizeof text);
	memcpy(text, msg, strlen(msg));
	gen_prof_bin_buf_add(b, text, sizeof text);
}

/* A MarkEx message of several segments of up to 155 bytes. */
static char *
gen_prof_mstx_long(struct gen_prof *g, int i)
{
	struct strbuf	 b;
	int		 n = 1 + (int)gen_prof_core_range(g, 1, 4), k;

	strbuf_init(&b);
	strbuf_addf(&b, "markex-%d", i);
	for (k = 0; k < n * 20; k++)
		strbuf_addf(&b, " w%03d-%d", k, i % 7);
	return strbuf_detach(&b);
}

/* Write the segments of MarkEx marker M, last first. */
static void
gen_prof_mstx_ex(struct gen_buf *b, const struct gen_prof_clock *c,
    const struct gen_prof_marker *m)
{
	char	 piece[GEN_PROF_MSTX_MSG];
	size_t	 len = strlen(m->msg), n, k;

	n = (len + GEN_PROF_MSTX_MSG - 2) / (GEN_PROF_MSTX_MSG - 1);
	for (k = n; k-- > 0;) {
		memset(piece, 0, sizeof piece);
		memcpy(piece, m->msg + k * (GEN_PROF_MSTX_MSG - 1),
		    k + 1 < n ? GEN_PROF_MSTX_MSG - 1 : len - k *
		    (GEN_PROF_MSTX_MSG - 1));
		gen_prof_mstx_rec(b, c, m, 1, (uint16_t)k, piece);
	}
}

/*
 * Make O->markers markers on the host threads TIDS between C->begin and
 * C->end and write their records into B.
 */
void
gen_prof_mstx(struct gen_prof *g, const struct gen_prof_clock *c,
    const uint32_t *tids, struct gen_buf *b)
{
	struct gen_prof_marker	*m;
	int64_t			 lo = c->begin + 1000000, hi = c->end - 1000000;
	int64_t			 step, tick = c->tick;
	int			 i;

	if (g->o->markers <= 0 || hi - lo < g->o->markers * 10000LL)
		return;
	step = (hi - lo) / g->o->markers;
	g->markers = xcalloc((size_t)g->o->markers, sizeof *g->markers);
	for (i = 0; i < g->o->markers; i++) {
		m = &g->markers[g->nmarkers++];
		m->event = i % 4;
		m->tid = tids[i % g->o->threads];
		m->pid = (uint32_t)(g->o->seed * 7 + 4242);
		m->start = lo + step * i + gen_prof_core_range(g, 0, step / 2);
		m->start -= m->start % tick;
		m->end = m->event == 0 ? m->start : m->start + tick *
		    gen_prof_core_range(g, 1, 5000);
		if (m->event == 3) {
			m->mark = 1000 + (uint64_t)i;
			m->domain = gen_prof_core_hash(i % 8 == 3
			    ? "domain-lost" :
			    "domain-net");
			m->msg = gen_prof_mstx_long(g, i);
			gen_prof_mstx_ex(b, c, m);
			continue;
		}
		m->category = (uint32_t)(i % 3);
		m->payload_type = i % 3;
		m->payload = gen_prof_core_rand(g);
		m->msg_type = i % 2;
		xasprintf(&m->msg, "%s %d", m->event == 0 ? "mark" :
		    "range", i);
		gen_prof_mstx_rec(b, c, m, 0, 0, m->msg);
	}
}

static int
gen_prof_mstx_cmp(const void *a, const void *b)
{
	const struct gen_prof_marker	*x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void
gen_prof_mstx_us(FILE *f, int64_t ns)
{
	char	 buf[64];

	util_fmt_us(buf, sizeof buf, ns, 3, false);
	fprintf(f, "%s,", buf);
}

/* Write DIR/msprof_tx.csv as show prints it. */
int
gen_prof_mstx_expect(struct gen_prof *g, const char *dir, char **cause)
{
	struct gen_prof_marker	*m;
	FILE			*f;
	size_t			 i;

	if (g->nmarkers == 0)
		return 0;
	if (g->nmarkers > 1)
		qsort(g->markers, g->nmarkers, sizeof *g->markers,
		    gen_prof_mstx_cmp);
	if ((f = util_file_create(dir, "msprof_tx.csv", cause)) == NULL)
		return -1;
	fprintf(f, "pid,tid,category,event_type,payload_type,"
	    "payload_value,Start_time(us),End_time(us),message_type,message,"
	    "domain,mark_id\n");
	for (i = 0; i < g->nmarkers; i++) {
		m = &g->markers[i];
		fprintf(f, "%u,%u,", m->pid, m->tid);
		if (m->event == 3)
			fprintf(f, "N/A,%s,N/A,N/A,",
			    gen_prof_mstx_events[m->event]);
		else
			fprintf(f, "%u,%s,%d,%llu,", m->category,
			    gen_prof_mstx_events[m->event], m->payload_type,
			    (unsigned long long)m->payload);
		gen_prof_mstx_us(f, m->start + g->local_off);
		gen_prof_mstx_us(f, m->end + g->local_off);
		if (m->event == 3)
			fprintf(f, "N/A,%s,%s,%llu\n", m->msg,
			    m->domain == gen_prof_core_hash("domain-net") ?
			    "domain-net" : "invalid",
			    (unsigned long long)m->mark);
		else
			fprintf(f, "%d,%s,N/A,N/A\n", m->msg_type, m->msg);
	}
	return util_file_close(f, dir, "msprof_tx.csv", cause);
}

void
gen_prof_mstx_free(struct gen_prof *g)
{
	size_t	 i;

	for (i = 0; i < g->nmarkers; i++)
		free(g->markers[i].msg);
	free(g->markers);
}
