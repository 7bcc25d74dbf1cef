/*
 * Fixed-size records of a legacy JOB read as one stream through a bounded
 * buffer: the files of one kind, in the order job-files.c sorted them
 * (slices of a stem back to back), so a record may straddle two slices,
 * and a multi-gigabyte HWTS log never sits in memory whole. The caller
 * may read the stream several times (job_stream_rewind()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job-int.h"

#define JOB_STREAM_BUF	(1 << 20)

/*
 * Open the records of size SIZE of J's files of KIND. Return the number of
 * such files; with none, R is closed already.
 */
int
job_stream_open(struct job_stream *r, struct job *j, enum job_kind kind,
    size_t size)
{
	size_t	 i;
	int	 n = 0;

	memset(r, 0, sizeof *r);
	r->j = j;
	r->kind = kind;
	r->size = size;
	for (i = 0; i < j->nfiles; i++) {
		if (j->files[i].kind == kind)
			n++;
	}
	if (n > 0)
		r->buf = xmalloc(JOB_STREAM_BUF);
	return n;
}

/* Open the next file of the kind; false when there is none. */
static bool
job_stream_file(struct job_stream *r)
{
	struct job	*j = r->j;

	for (; r->next < j->nfiles; r->next++) {
		if (j->files[r->next].kind != r->kind)
			continue;
		r->path = j->files[r->next].path;
		if (!r->rewound)
			store_load_file(j->s, r->path);
		if ((r->f = util_fopen_input(r->path)) != NULL) {
			r->file_read = 0;
			r->next++;
			return true;
		}
		if (!r->rewound)
			store_load_warning(j->s, r->path, -1, "cannot open: %s",
			    util_input_error(errno));
	}
	return false;
}

/* Refill the buffer so that a whole record is at POS, if there is one. */
static void
job_stream_fill(struct job_stream *r)
{
	size_t	 n;

	memmove(r->buf, r->buf + r->pos, r->have - r->pos);
	r->have -= r->pos;
	r->pos = 0;
	while (r->have < JOB_STREAM_BUF) {
		if (r->f == NULL && !job_stream_file(r))
			return;
		n = fread(r->buf + r->have, 1, JOB_STREAM_BUF - r->have, r->f);
		r->have += n;
		r->file_read += (int64_t)n;
		if (n == 0 || feof(r->f) || ferror(r->f)) {
			if (ferror(r->f) && !r->rewound)
				store_load_warning(r->j->s, r->path,
				    r->file_read, "read error: %s; the rest "
				    "of the file is skipped", strerror(errno));
			else if (r->file_read == 0 && !r->rewound)
				store_load_warning(r->j->s, r->path, -1,
				    "empty slice: no records");
			fclose(r->f);
			r->f = NULL;
		}
	}
}

/* The next whole record, or NULL at the end of the stream. */
const unsigned char *
job_stream_next(struct job_stream *r)
{
	const unsigned char	*p;

	if (r->buf == NULL)
		return NULL;
	if (r->have - r->pos < r->size)
		job_stream_fill(r);
	if (r->have - r->pos < r->size)
		return NULL;
	p = (const unsigned char *)r->buf + r->pos;
	r->pos += r->size;
	r->offset += (int64_t)r->size;
	return p;
}

/*
 * The bytes after the last whole record (a cut file) once the stream has
 * ended; *OFFSET is where they start in the stream.
 */
size_t
job_stream_trailing(const struct job_stream *r, int64_t *offset)
{
	*offset = r->offset;
	return r->have - r->pos;
}

/* Start over from the first file, without reporting the files again. */
void
job_stream_rewind(struct job_stream *r)
{
	if (r->f != NULL)
		fclose(r->f);
	r->f = NULL;
	r->next = 0;
	r->have = r->pos = 0;
	r->offset = 0;
	r->rewound = true;
}

void
job_stream_close(struct job_stream *r)
{
	if (r->f != NULL)
		fclose(r->f);
	free(r->buf);
	memset(r, 0, sizeof *r);
}
