/*
 * Events handed from the thread that parses a trace to the thread that
 * loads it. trace-read.c reads, scans and parses the file on a thread of
 * its own; each event that closes, each warning and each step of progress
 * is copied, in the order it came, into a batch, and the loading thread
 * replays the batches through the importer's callback and into the store,
 * which only it touches. yajl and our own scanning then run on one core
 * while the importer and SQLite run on the other.
 *
 * A batch is a run of records, each a kind byte and its fields. A string
 * is its length (a size_t) and its bytes with a NUL after them, so that
 * the replayed event's strbufs point into the batch as they are.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

#define PIPE_BATCH	(256 * 1024)	/* bytes a batch holds before it goes */
#define PIPE_DEPTH	4		/* batches in flight */

enum pipe_kind {
	PIPE_EVENT = 'E',
	PIPE_WARNING = 'W',
	PIPE_PROGRESS = 'P'
};

struct pipe_batch {
	struct strbuf	 data;
	bool		 full;		/* handed to the loading thread */
};

struct trace_pipe {
	pthread_t		 thread;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
	struct pipe_batch	 b[PIPE_DEPTH];
	size_t			 fill;		/* the batch being filled */
	size_t			 next;		/* the batch replayed next */
	bool			 done;		/* the parsing thread is over */
};

/* Where a replay stands in a batch. */
struct pipe_cursor {
	const char	*p;
	const char	*end;
};

static void
trace_pipe_add_size(struct strbuf *b, size_t n)
{
	strbuf_add(b, (const char *)&n, sizeof n);
}

static void
trace_pipe_add_str(struct strbuf *b, const char *s, size_t len)
{
	trace_pipe_add_size(b, len);
	strbuf_add(b, s != NULL ? s : "", len);
	strbuf_addc(b, '\0');
}

static void
trace_pipe_add_buf(struct strbuf *b, const struct strbuf *s)
{
	trace_pipe_add_str(b, s->s, s->len);
}

static size_t
trace_pipe_get_size(struct pipe_cursor *c)
{
	size_t	 n;

	if ((size_t)(c->end - c->p) < sizeof n)
		fatalx("%s: batch cut short", __func__);
	memcpy(&n, c->p, sizeof n);
	c->p += sizeof n;
	return n;
}

/* The next string of C as a strbuf B that borrows the batch's bytes. */
static void
trace_pipe_get_str(struct pipe_cursor *c, struct strbuf *b)
{
	size_t	 n = trace_pipe_get_size(c);

	if ((size_t)(c->end - c->p) < n + 1)
		fatalx("%s: batch cut short", __func__);
	b->s = (char *)(uintptr_t)c->p;
	b->len = n;
	b->size = n + 1;
	c->p += n + 1;
}

/* Free P, whose thread is gone or never was. */
static void
trace_pipe_free(struct trace_pipe *p)
{
	size_t	 i;

	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	for (i = 0; i < PIPE_DEPTH; i++)
		strbuf_release(&p->b[i].data);
	free(p);
}

/*
 * Start FN with ARG on a thread of its own, its records going to the new
 * pipe *PP, which is set before the thread starts. Return -1, with *PP
 * NULL, if no thread can be had: the caller then parses on its own thread.
 */
int
trace_pipe_start(struct trace_pipe **pp, void *(*fn)(void *), void *arg)
{
	struct trace_pipe	*p;
	size_t			 i;

	p = xcalloc(1, sizeof *p);
	for (i = 0; i < PIPE_DEPTH; i++)
		strbuf_init(&p->b[i].data);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	*pp = p;
	if (pthread_create(&p->thread, NULL, fn, arg) == 0)
		return 0;
	*pp = NULL;
	trace_pipe_free(p);
	return -1;
}

/* Hand the batch being filled over; wait until the next one is free. */
static void
trace_pipe_flush(struct trace_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->b[p->fill].full = true;
	p->fill = (p->fill + 1) % PIPE_DEPTH;
	pthread_cond_broadcast(&p->cond);
	while (p->b[p->fill].full)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

/* The batch to add a record to, handed over first if it is full. */
static struct strbuf *
trace_pipe_batch(struct trace_pipe *p)
{
	if (p->b[p->fill].data.len >= PIPE_BATCH)
		trace_pipe_flush(p);
	return &p->b[p->fill].data;
}

/* On the parsing thread: the event EV. */
void
trace_pipe_event(struct trace_pipe *p, const struct trace_event *ev)
{
	struct strbuf	*b = trace_pipe_batch(p);
	size_t		 i;

	strbuf_addc(b, PIPE_EVENT);
	trace_pipe_add_buf(b, &ev->ph);
	trace_pipe_add_buf(b, &ev->name);
	trace_pipe_add_buf(b, &ev->cat);
	trace_pipe_add_buf(b, &ev->id);
	trace_pipe_add_buf(b, &ev->pid);
	trace_pipe_add_buf(b, &ev->tid);
	trace_pipe_add_buf(b, &ev->ts);
	trace_pipe_add_buf(b, &ev->dur);
	trace_pipe_add_buf(b, &ev->bp);
	trace_pipe_add_buf(b, &ev->args);
	trace_pipe_add_size(b, (size_t)ev->offset);
	trace_pipe_add_size(b, ev->nargs);
	for (i = 0; i < ev->nargs; i++) {
		trace_pipe_add_buf(b, &ev->argv[i].key);
		trace_pipe_add_buf(b, &ev->argv[i].val);
		strbuf_addc(b, ev->argv[i].str ? 1 : 0);
	}
}

/* A warning MSG at byte OFFSET of the file (-1 for none). */
void
trace_pipe_warning(struct trace_pipe *p, int64_t offset, const char *msg)
{
	struct strbuf	*b = trace_pipe_batch(p);

	strbuf_addc(b, PIPE_WARNING);
	trace_pipe_add_size(b, (size_t)offset);
	trace_pipe_add_str(b, msg, strlen(msg));
}

/* DONE bytes of TOTAL read. */
void
trace_pipe_progress(struct trace_pipe *p, int64_t done, int64_t total)
{
	struct strbuf	*b = trace_pipe_batch(p);

	strbuf_addc(b, PIPE_PROGRESS);
	trace_pipe_add_size(b, (size_t)done);
	trace_pipe_add_size(b, (size_t)total);
}

/* The parsing thread is over: hand its last batch over. */
void
trace_pipe_close(struct trace_pipe *p)
{
	pthread_mutex_lock(&p->lock);
	p->b[p->fill].full = true;
	p->done = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* Replay the event at C to K. */
static void
trace_pipe_replay_event(struct pipe_cursor *c, const struct trace_pipe_sink *k)
{
	struct trace_event	 ev;
	size_t			 i;

	trace_pipe_get_str(c, &ev.ph);
	trace_pipe_get_str(c, &ev.name);
	trace_pipe_get_str(c, &ev.cat);
	trace_pipe_get_str(c, &ev.id);
	trace_pipe_get_str(c, &ev.pid);
	trace_pipe_get_str(c, &ev.tid);
	trace_pipe_get_str(c, &ev.ts);
	trace_pipe_get_str(c, &ev.dur);
	trace_pipe_get_str(c, &ev.bp);
	trace_pipe_get_str(c, &ev.args);
	ev.offset = (int64_t)trace_pipe_get_size(c);
	if ((ev.nargs = trace_pipe_get_size(c)) > TRACE_MAX_ARGS)
		fatalx("%s: %zu args", __func__, ev.nargs);
	for (i = 0; i < ev.nargs; i++) {
		trace_pipe_get_str(c, &ev.argv[i].key);
		trace_pipe_get_str(c, &ev.argv[i].val);
		if (c->p == c->end)
			fatalx("%s: batch cut short", __func__);
		ev.argv[i].str = *c->p++ != 0;
	}
	k->cb(k->arg, &ev);
}

/* Replay the records of batch B to K. */
static void
trace_pipe_replay(const struct strbuf *b, const struct trace_pipe_sink *k)
{
	struct pipe_cursor	 c;
	struct strbuf		 msg;
	int64_t			 offset, total;

	c.p = b->s;
	c.end = b->s + b->len;
	while (c.p < c.end) {
		switch (*c.p++) {
		case PIPE_EVENT:
			trace_pipe_replay_event(&c, k);
			break;
		case PIPE_WARNING:
			offset = (int64_t)trace_pipe_get_size(&c);
			trace_pipe_get_str(&c, &msg);
			store_load_warning(k->s, k->path, offset, "%s", msg.s);
			break;
		case PIPE_PROGRESS:
			offset = (int64_t)trace_pipe_get_size(&c);
			total = (int64_t)trace_pipe_get_size(&c);
			store_load_progress(k->s, "reading", k->path, offset,
			    total);
			break;
		default:
			fatalx("%s: bad record", __func__);
		}
	}
}

/*
 * On the loading thread: replay every batch to K until the parsing thread
 * is over, then wait for it and free P.
 */
void
trace_pipe_drain(struct trace_pipe *p, const struct trace_pipe_sink *k)
{
	struct pipe_batch	*b;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		b = &p->b[p->next];
		while (!b->full && !p->done)
			pthread_cond_wait(&p->cond, &p->lock);
		if (!b->full)
			break;
		pthread_mutex_unlock(&p->lock);
		trace_pipe_replay(&b->data, k);
		/* A batch a huge event grew is not kept at its size. */
		if (b->data.size > 2 * PIPE_BATCH)
			strbuf_release(&b->data);
		else
			strbuf_reset(&b->data);
		pthread_mutex_lock(&p->lock);
		b->full = false;
		p->next = (p->next + 1) % PIPE_DEPTH;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	trace_pipe_free(p);
}
