/*
 * Slices (doc/formats.md sections 1.2-1.3): the data files of one kind in the
 * vendor's order (host: unaging before aging, then ascending slice number;
 * device: ascending slice number), bookkeeping files (.done, .complete,
 * .zip) left out, read as one stream of fixed-size records through a
 * bounded buffer, so a multi-gigabyte file is never held in memory. Device
 * streams are one byte stream whose head loses total % record size bytes;
 * host files hold whole records each, and a partial last record is a
 * warning. A device slice between the first and the last that is shorter
 * than the size its .done file gives (a copy cut short) lost its tail:
 * the stream is padded there to keep the records after it in line, and
 * the records the cut spoilt are skipped and counted.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_STREAM_BUF	(1 << 20)

struct prof_slice {
	char	*name;
	bool	 unaging;
	long	 num;
};

static int
prof_slices_cmp(const void *a, const void *b)
{
	const struct prof_slice	*x = a, *y = b;

	if (x->unaging != y->unaging)
		return x->unaging ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool
prof_slices_ignored(const char *name)
{
	return util_has_suffix(name, ".done") ||
	    util_has_suffix(name, ".complete") || util_has_suffix(name, ".zip");
}

/*
 * Match NAME against the data kind KIND. Host names are
 * {aging|unaging}.KIND.slice_N; device names KIND.<dev>.slice_N (KIND
 * "stars_soc.data"). Set *UNAGING and *NUM on a match.
 */
static bool
prof_slices_match(const char *name, const char *kind, bool host,
    bool *unaging, long *num)
{
	const char	*p = name, *sl;
	size_t		 len = strlen(kind);
	char		*end;

	*unaging = false;
	if (host) {
		if (util_has_prefix(p, "unaging.")) {
			*unaging = true;
			p += 8;
		} else if (util_has_prefix(p, "aging."))
			p += 6;
		else
			return false;
	}
	if (strncmp(p, kind, len) != 0 || p[len] != '.')
		return false;
	p += len + 1;
	if (!host) {
		/* The device id, then the slice. */
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p != '.')
			return false;
		p++;
	}
	sl = p;
	if (!util_has_prefix(sl, "slice_"))
		return false;
	*num = strtol(sl + 6, &end, 10);
	return *end == '\0' && end != sl + 6;
}

/*
 * The size the .done file beside PATH gives ("filesize:N"), or -1 if
 * there is none or it says something else.
 */
static int64_t
prof_slices_done_size(const char *path)
{
	char	*done, *data = NULL, *why = NULL;
	int64_t	 n = -1;
	size_t	 len;

	xasprintf(&done, "%s.done", path);
	if (util_read_file(done, &data, &len, 256, &why) != 0 ||
	    strncmp(data, "filesize:", 9) != 0 || util_parse_int(data + 9,
	    strcspn(data + 9, "\r\n"), &n) != 0)
		n = -1;
	free(why);
	free(data);
	free(done);
	return n;
}

/* List the files of kind KIND in DATA in reading order into F. */
void
prof_slices_list(const char *data, const char *kind, bool host,
    struct prof_files *f)
{
	struct prof_slice	*v = NULL;
	struct stat		 st;
	char			**names;
	int64_t			  done;
	size_t			  n, i, nv = 0;
	bool			  unaging;
	long			  num;

	memset(f, 0, sizeof *f);
	names = util_dir_list(data, &n);
	for (i = 0; i < n; i++) {
		if (prof_slices_ignored(names[i])
		    || !prof_slices_match(names[i],
		    kind, host, &unaging, &num))
			continue;
		v = xreallocarray(v, nv + 1, sizeof *v);
		v[nv].name = names[i];
		v[nv].unaging = unaging;
		v[nv++].num = num;
	}
	if (nv > 0)
		qsort(v, nv, sizeof *v, prof_slices_cmp);
	f->paths = xreallocarray(NULL, nv + 1, sizeof *f->paths);
	f->unaging = xreallocarray(NULL, nv + 1, sizeof *f->unaging);
	f->sizes = xreallocarray(NULL, nv + 1, sizeof *f->sizes);
	f->shorts = xreallocarray(NULL, nv + 1, sizeof *f->shorts);
	for (i = 0; i < nv; i++) {
		f->paths[i] = util_path_join(data, v[i].name);
		f->unaging[i] = v[i].unaging;
		f->sizes[i] = stat(f->paths[i], &st) == 0 ? st.st_size : 0;
		f->total += f->sizes[i];
		/*
		 * A middle slice short of its .done's size lost its tail.
		 * The first and the last are left to the head-skip rule and
		 * the probe of prof_slices_open_lined(), which tell a ring
		 * buffer's lost head from a cut tail.
		 */
		done = i > 0 && i + 1 < nv ?
		    prof_slices_done_size(f->paths[i]) : -1;
		f->shorts[i] = done > f->sizes[i] ? done - f->sizes[i] : 0;
	}
	f->n = nv;
	free(v);
	util_strv_free(names, n);
}

void
prof_slices_release(struct prof_files *f)
{
	size_t	 i;

	for (i = 0; i < f->n; i++)
		free(f->paths[i]);
	free(f->paths);
	free(f->unaging);
	free(f->sizes);
	free(f->shorts);
	memset(f, 0, sizeof *f);
}

/*
 * Start reading the files F as RECSIZE-byte records. PER_FILE: each file
 * holds whole records (host data); otherwise the files are one stream
 * with the head-skip rule (device data).
 */
void
prof_slices_open(struct prof_stream *st, struct store *s,
    struct prof_files *f, size_t recsize, bool per_file)
{
	memset(st, 0, sizeof *st);
	st->s = s;
	st->files = f;
	st->recsize = recsize;
	st->per_file = per_file;
	st->buf = xmalloc(PROF_STREAM_BUF + recsize);
	if (!per_file)
		st->skip = prof_slices_written(f, recsize) % (int64_t)recsize;
}

/*
 * The bytes of the device stream F of RECSIZE-byte records as read, with
 * the padding put in where a slice is short of its .done's size: what
 * the head-skip rule counts, as the device wrote them.
 */
int64_t
prof_slices_written(const struct prof_files *f, size_t recsize)
{
	int64_t	 n = f->total;
	size_t	 i;

	for (i = 0; i < f->n; i++)
		n += f->shorts[i] % (int64_t)recsize;
	return n;
}

#define PROF_SLICES_PROBE	64	/* records tried each way */

/*
 * How many of the first PROF_SLICES_PROBE records of ST pass OK, given
 * each with the record before it (NULL for the first) and ARG.
 */
static size_t
prof_slices_probe(struct prof_stream *st, bool (*ok)(const unsigned char *,
    const unsigned char *, void *), void *arg, size_t *probed)
{
	const unsigned char	*r;
	unsigned char		*prev = xmalloc(st->recsize);
	size_t			 i, n = 0;

	st->quiet = true;
	for (i = 0; i < PROF_SLICES_PROBE && (r = prof_slices_next(st)) !=
	    NULL; i++) {
		n += ok(r, i > 0 ? prev : NULL, arg);
		memcpy(prev, r, st->recsize);
	}
	free(prev);
	prof_slices_close(st);
	if (probed != NULL)
		*probed = i;
	return n;
}

/*
 * True if TAIL of the N records read from the first byte pass the
 * kind's test against HEAD read the vendor's way: a clear win, three in
 * four at least and a quarter of N more than the vendor's way, so that a
 * few sound records the test does not know, or a few misread ones that
 * happen to pass, cannot tip it.
 */
static bool
prof_slices_clear_win(size_t tail, size_t head, size_t n)
{
	return tail > head && tail * 4 >= n * 3 && (tail - head) * 4 >= n;
}

/*
 * True if record R follows PREV as the device writes records with a 4-bit
 * counter in the high half of their first byte (HWTS chips' task logs and
 * PMU records), for prof_slices_open_lined: it is one more than PREV's.
 */
bool
prof_slices_counted(const unsigned char *r, const unsigned char *prev,
    void *arg)
{
	(void)arg;
	return prev != NULL && r[0] >> 4 == (((prev[0] >> 4) + 1) & 0xF);
}

/*
 * Open the device stream F of RECSIZE-byte records as prof_slices_open
 * does, with its records lined up as they were written. When its size is
 * not a whole number of records, the vendor's rule takes the odd bytes
 * for the head the stream lost (section 1.3); if its first
 * PROF_SLICES_PROBE records pass OK (prof_slices_probe) clearly more
 * often when read from the first byte (prof_slices_clear_win), it lost
 * its tail instead, and is read so, the cut record warned about if SAY
 * (the second reader of a stream says nothing). A ring buffer's lost
 * head is the usual case, and not warned about.
 */
void
prof_slices_open_lined(struct prof_stream *st, struct store *s,
    struct prof_files *f, size_t recsize, bool (*ok)(const unsigned char *,
    const unsigned char *, void *), void *arg, bool say)
{
	size_t	 head, tail, n, j;
	int64_t	 odd = prof_slices_written(f, recsize) % (int64_t)recsize;
	int64_t	 left;

	if (f->n == 0 || odd == 0) {
		prof_slices_open(st, s, f, recsize, false);
		return;
	}
	prof_slices_open(st, s, f, recsize, false);
	head = prof_slices_probe(st, ok, arg, NULL);
	prof_slices_open(st, s, f, recsize, false);
	st->skip = 0;
	tail = prof_slices_probe(st, ok, arg, &n);
	prof_slices_open(st, s, f, recsize, false);
	if (!prof_slices_clear_win(tail, head, n))
		return;
	st->skip = 0;
	/* The slice the cut record starts in: the last not empty. */
	for (j = f->n - 1, left = odd; j > 0 && f->sizes[j] < left; j--)
		left -= f->sizes[j];
	if (say)
		store_load_warning(s, f->paths[j], f->sizes[j] >= left ?
		    f->sizes[j] - left : -1, "the records line up from the "
		    "first byte: the last %lld bytes are a cut record, "
		    "dropped", (long long)odd);
}

/* Open the next readable file; false at the end. */
static bool
prof_slices_next_file(struct prof_stream *st)
{
	while (st->cur < st->files->n) {
		if (st->f != NULL) {
			fclose(st->f);
			st->f = NULL;
			if (++st->cur >= st->files->n)
				return false;
		}
		st->f = util_fopen_input(st->files->paths[st->cur]);
		/* Bytes carried over belong to the previous slice. */
		st->file_off = -(int64_t)(st->len - st->pos);
		st->file_read = 0;
		if (st->f != NULL) {
			if (!st->quiet)
				store_load_file(st->s,
				    st->files->paths[st->cur]);
			return true;
		}
		/* A file read again was warned about the first time. */
		if (!st->quiet && !st->files->uncounted)
			store_load_warning(st->s, st->files->paths[st->cur],
			    -1, "cannot open: %s", util_input_error(errno));
		st->cur++;
	}
	return false;
}

/*
 * The slice being read ends short of its .done's size: put in as many
 * zero bytes as the lost tail has past whole records, so the records
 * after it stay in line, and note the hole for prof_slices_next(). The
 * buffer has RECSIZE bytes of room past PROF_STREAM_BUF for them.
 */
static void
prof_slices_pad(struct prof_stream *st)
{
	struct prof_hole	*h;
	int64_t			 pad;

	pad = st->files->shorts[st->cur] % (int64_t)st->recsize;
	st->holes = xreallocarray(st->holes, st->nholes + 1,
	    sizeof *st->holes);
	h = &st->holes[st->nholes++];
	h->file = st->cur;
	h->at = st->soff + (int64_t)(st->len - st->pos);
	h->pad = pad;
	h->lost = st->files->shorts[st->cur] / (int64_t)st->recsize;
	memset(st->buf + st->len, 0, (size_t)pad);
	st->len += (size_t)pad;
}

/*
 * Whether the record at stream offset S is spoilt by a hole: it holds
 * some of the padding, or (no padding) runs across the cut. Counted.
 */
static bool
prof_slices_in_hole(struct prof_stream *st, int64_t s)
{
	struct prof_hole	*h;
	int64_t			 e = s + (int64_t)st->recsize;
	size_t			 i;

	for (i = 0; i < st->nholes; i++) {
		h = &st->holes[i];
		if (e > h->at && (h->pad > 0 ? s < h->at + h->pad :
		    s < h->at)) {
			h->lost++;
			return true;
		}
	}
	return false;
}

/* Top up the buffer; false when nothing more can be read. */
static bool
prof_slices_fill(struct prof_stream *st)
{
	size_t	 got;

	memmove(st->buf, st->buf + st->pos, st->len - st->pos);
	st->len -= st->pos;
	st->pos = 0;
	for (;;) {
		if (st->f == NULL && !prof_slices_next_file(st))
			return false;
		got = fread(st->buf + st->len, 1, PROF_STREAM_BUF - st->len,
		    st->f);
		st->len += got;
		st->file_read += (int64_t)got;
		if (!st->quiet && !st->files->uncounted && got > 0)
			store_load_read(st->s, (int64_t)got);
		if (got > 0)
			return true;
		if (!st->quiet && ferror(st->f))
			store_load_warning(st->s, st->files->paths[st->cur],
			    st->file_read, "read error: %s; the rest of the "
			    "file is skipped", strerror(errno));
		else if (!st->quiet && st->file_read == 0)
			store_load_warning(st->s, st->files->paths[st->cur],
			    -1, "empty slice: no records");
		if (st->per_file && st->len > 0 && !st->quiet) {
			store_load_warning(st->s, st->files->paths[st->cur],
			    st->file_off, "truncated last record (%zu of %zu "
			    "bytes), ignored", st->len, st->recsize);
			st->len = 0;
		}
		if (!st->per_file && st->files->shorts[st->cur] > 0) {
			/* The padding may finish the stream's last record. */
			prof_slices_pad(st);
			fclose(st->f);
			st->f = NULL;
			st->cur++;
			return true;
		}
		fclose(st->f);
		st->f = NULL;
		st->cur++;
		if (st->cur >= st->files->n)
			return false;
	}
}

/*
 * The next record, valid until the next call, or NULL at the end. The
 * record's file, offset and aging flag are in st->path, st->offset and
 * st->unaging.
 */
const unsigned char *
prof_slices_next(struct prof_stream *st)
{
	const unsigned char	*r;

	for (;;) {
		while (st->len - st->pos < st->recsize || st->skip > 0) {
			if (st->skip > 0 && st->len > st->pos) {
				size_t	 k = st->len - st->pos;

				if ((int64_t)k > st->skip)
					k = (size_t)st->skip;
				st->pos += k;
				st->file_off += (int64_t)k;
				st->soff += (int64_t)k;
				st->skip -= (int64_t)k;
				continue;
			}
			if (!prof_slices_fill(st))
				return NULL;
		}
		if (st->nholes == 0 || !prof_slices_in_hole(st, st->soff))
			break;
		st->pos += st->recsize;
		st->file_off += (int64_t)st->recsize;
		st->soff += (int64_t)st->recsize;
	}
	r = st->buf + st->pos;
	st->path = st->files->paths[st->cur < st->files->n ? st->cur :
	    st->files->n - 1];
	st->unaging = st->files->unaging[st->cur < st->files->n ? st->cur :
	    st->files->n - 1];
	st->offset = st->file_off;
	st->pos += st->recsize;
	st->file_off += (int64_t)st->recsize;
	st->soff += (int64_t)st->recsize;
	st->records++;
	return r;
}

void
prof_slices_close(struct prof_stream *st)
{
	struct prof_hole	*h;
	size_t			 i;

	for (i = 0; i < st->nholes && !st->quiet && !st->files->uncounted;
	    i++) {
		h = &st->holes[i];
		store_load_warning(st->s, st->files->paths[h->file],
		    st->files->sizes[h->file], "the slice is %lld bytes short "
		    "of the size its .done file gives: %lld record%s lost "
		    "there, the records after it read in line",
		    (long long)st->files->shorts[h->file], (long long)h->lost,
		    h->lost == 1 ? "" : "s");
	}
	free(st->holes);
	if (st->nomagic > 0 && !st->quiet)
		store_load_warning(st->s, st->nomagic_path, st->nomagic_off,
		    "%lld record%s without the 0x5A5A magic skipped (the first "
		    "here)", (long long)st->nomagic, st->nomagic == 1 ? "" :
		    "s");
	if (st->f != NULL)
		fclose(st->f);
	free(st->buf);
	memset(st, 0, sizeof *st);
}

/*
 * Read one line of FP into B, without its line end. A line longer than
 * PROF_LINE_MAX is read past, not kept: *LONG is set and B is left empty.
 * *CUT is set when the file ended before a newline did. Return false at
 * the end of the file.
 */
static bool
prof_slices_line(FILE *fp, struct strbuf *b, bool *lng, bool *cut)
{
	char	 chunk[8192];
	size_t	 n;
	bool	 any = false;

	strbuf_reset(b);
	*lng = false;
	*cut = true;
	while (fgets(chunk, sizeof chunk, fp) != NULL) {
		any = true;
		n = strlen(chunk);
		if (!*lng && b->len + n > PROF_LINE_MAX) {
			*lng = true;
			strbuf_release(b);
		}
		if (!*lng)
			strbuf_add(b, chunk, n);
		if (n > 0 && chunk[n - 1] == '\n') {
			*cut = false;
			break;
		}
	}
	while (b->len > 0 && (b->s[b->len - 1] == '\n' ||
	    b->s[b->len - 1] == '\r'))
		b->s[--b->len] = '\0';
	return any;
}

/*
 * Read the text files F line by line (dictionaries), calling FN with each
 * line, NUL-terminated and without its newline. Lines over PROF_LINE_MAX
 * are skipped with one warning per file, and so is a last line that has
 * no newline: a file cut there (a name cut short). Return the line count.
 */
int
prof_slices_lines_read(struct store *s, struct prof_files *f,
    void (*fn)(void *, char *, size_t), void *arg)
{
	FILE		*fp;
	struct strbuf	 line;
	size_t		 i;
	int64_t		 offset, first, skipped;
	bool		 lng, cut;
	int		 n = 0;

	strbuf_init(&line);
	for (i = 0; i < f->n; i++) {
		if ((fp = util_fopen_input(f->paths[i])) == NULL) {
			store_load_warning(s, f->paths[i], -1,
			    "cannot open: %s", util_input_error(errno));
			continue;
		}
		store_load_file(s, f->paths[i]);
		skipped = first = offset = 0;
		while (prof_slices_line(fp, &line, &lng, &cut)) {
			if (lng) {
				if (skipped++ == 0)
					first = offset;
			} else if (cut && line.len > 0) {
				/* "...:Dro" of DropOutDoMask: not a name. */
				store_load_warning(s, f->paths[i], offset,
				    "the last line has no newline (the file "
				    "was cut): '%.64s' skipped", line.s);
			} else {
				fn(arg, line.s, line.len);
				n++;
			}
			offset = ftello(fp);
		}
		if (skipped > 0)
			store_load_warning(s, f->paths[i], first, "line over "
			    "the limit of %d MiB skipped (%lld line%s)",
			    PROF_LINE_MAX >> 20, (long long)skipped,
			    skipped == 1 ? "" : "s");
		fclose(fp);
	}
	strbuf_release(&line);
	return n;
}

/*
 * True if the host record R starts with the 0x5A5A magic; else count it,
 * for the one warning prof_slices_close() gives at the first.
 */
bool
prof_slices_magic(struct prof_stream *st, const unsigned char *r)
{
	if (importer_le16(r) == PROF_RECORD_MAGIC)
		return true;
	if (st->nomagic++ == 0) {
		st->nomagic_path = st->path;
		st->nomagic_off = st->offset;
	}
	return false;
}

/*
 * The bytes of the regular files in DIR/data, where the slices are, whose
 * names begin with PREFIX (NULL: all of them).
 */
int64_t
prof_slices_bytes(const char *dir, const char *prefix)
{
	struct stat	 st;
	char		**names, *data, *p;
	size_t		  n, i;
	int64_t		  total = 0;

	data = util_path_join(dir, "data");
	names = util_dir_list(data, &n);
	for (i = 0; i < n; i++) {
		if (prefix != NULL && !util_has_prefix(names[i], prefix))
			continue;
		p = util_path_join(data, names[i]);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			total += st.st_size;
		free(p);
	}
	util_strv_free(names, n);
	free(data);
	return total;
}
