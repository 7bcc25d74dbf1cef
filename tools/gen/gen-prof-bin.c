/*
 * The bytes of a generated raw collection: a growable buffer with
 * little-endian stores, the record layouts of doc/formats.md (40-byte API and
 * event records, the 24-byte compact/additional header, 64-byte stars_soc
 * and hwts logs, 40-byte ts_track flips) and the writing of a buffer as
 * slices with their .done files. Written from the specification alone.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define GEN_BIN_MAGIC		0x5A5A
#define GEN_BIN_STARS_MAGIC	0x6BD3

void
gen_prof_bin_buf_add(struct gen_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->len + n > b->size) {
		b->size = b->size == 0 ? 4096 : b->size;
		while (b->len + n > b->size)
			b->size *= 2;
		b->p = xreallocarray(b->p, b->size, 1);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
gen_prof_bin_buf_u16(struct gen_buf *b, uint16_t v)
{
	unsigned char	 c[2] = { v & 0xFF, v >> 8 };

	gen_prof_bin_buf_add(b, c, 2);
}

void
gen_prof_bin_buf_u32(struct gen_buf *b, uint32_t v)
{
	gen_prof_bin_buf_u16(b, v & 0xFFFF);
	gen_prof_bin_buf_u16(b, v >> 16);
}

void
gen_prof_bin_buf_u64(struct gen_buf *b, uint64_t v)
{
	gen_prof_bin_buf_u32(b, (uint32_t)v);
	gen_prof_bin_buf_u32(b, (uint32_t)(v >> 32));
}

/*
 * The FRAMEWORK/ folder of the profile TOP, made if missing; its path, the
 * caller's, or NULL with *cause set.
 */
char *
gen_prof_bin_fwk_dir(const char *top, char **cause)
{
	char	*dir;

	dir = util_path_join(top, "FRAMEWORK");
	if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
		xasprintf(cause, "cannot create '%s': %s", dir,
		    strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* A TLV field of the FRAMEWORK/ records: TYPE, length, the string S. */
void
gen_prof_bin_tlv_field(struct gen_buf *b, uint16_t type, const char *s)
{
	gen_prof_bin_buf_u16(b, type);
	gen_prof_bin_buf_u32(b, (uint32_t)strlen(s));
	gen_prof_bin_buf_add(b, s, strlen(s));
}

/* An outer TLV record of TYPE holding REC, which is emptied. */
void
gen_prof_bin_tlv_record(struct gen_buf *b, uint16_t type,
    struct gen_buf *rec)
{
	gen_prof_bin_buf_u16(b, type);
	gen_prof_bin_buf_u32(b, (uint32_t)rec->len);
	gen_prof_bin_buf_add(b, rec->p, rec->len);
	rec->len = 0;
}

/* Pad with zero bytes up to a length that is a multiple of N. */
void
gen_prof_bin_buf_pad(struct gen_buf *b, size_t n)
{
	static const unsigned char zero[256];

	while (b->len % n != 0)
		gen_prof_bin_buf_add(b, zero, n - b->len % n > sizeof zero ?
		    sizeof zero : n - b->len % n);
}

void
gen_prof_bin_buf_free(struct gen_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

static int
gen_prof_bin_file(const char *path, const void *p, size_t n, char **cause)
{
	FILE	*f;

	if ((f = fopen(path, "wb")) == NULL) {
		xasprintf(cause, "cannot create '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	if ((n > 0 && fwrite(p, 1, n, f) != n) | (fclose(f) != 0)) {
		xasprintf(cause, "cannot write '%s'", path);
		return -1;
	}
	return 0;
}

/* Write the msprof bookkeeping file PATH.done. */
static int
gen_prof_bin_done(const char *path, size_t n, char **cause)
{
	char	*done, text[64];
	int	 rc;

	xasprintf(&done, "%s.done", path);
	snprintf(text, sizeof text, "filesize:%zu\n", n);
	rc = gen_prof_bin_file(done, text, strlen(text), cause);
	free(done);
	return rc;
}

/*
 * Write B as DIR/BASE.slice_0, _1, ... of at most SLICE bytes (0: one
 * slice), cut on RECORD-byte boundaries when RECORD is not 0.
 */
int
gen_prof_bin_slices(const char *dir, const char *base, const struct gen_buf *b,
    int64_t slice, size_t record, char **cause)
{
	char	*path;
	size_t	 off = 0, step, n;
	int	 k = 0, rc = 0;

	step = slice > 0 ? (size_t)slice : b->len + 1;
	if (record > 0 && step > record)
		step -= step % record;
	do {
		n = b->len - off < step ? b->len - off : step;
		xasprintf(&path, "%s/%s.slice_%d", dir, base, k++);
		rc = gen_prof_bin_file(path, b->p + off, n, cause);
		if (rc == 0)
			rc = gen_prof_bin_done(path, n, cause);
		free(path);
		off += n;
	} while (rc == 0 && off < b->len);
	return rc;
}

/* Write TEXT as DIR/NAME with its .done file. */
int
gen_prof_bin_text(const char *dir, const char *name, const char *text,
    char **cause)
{
	char	*path;
	int	 rc;

	path = util_path_join(dir, name);
	rc = gen_prof_bin_file(path, text, strlen(text), cause);
	if (rc == 0)
		rc = gen_prof_bin_done(path, strlen(text), cause);
	free(path);
	return rc;
}

/*
 * A 40-byte MsprofApi record (section 3.2); END all-ones makes it an
 * MsprofEvent with BEGIN as its time stamp and RESERVE its request id.
 */
void
gen_prof_bin_api(struct gen_buf *b, uint16_t level, uint32_t type, uint32_t tid,
    uint32_t reserve, uint64_t begin, uint64_t end, uint64_t item)
{
	gen_prof_bin_buf_u16(b, GEN_BIN_MAGIC);
	gen_prof_bin_buf_u16(b, level);
	gen_prof_bin_buf_u32(b, type);
	gen_prof_bin_buf_u32(b, tid);
	gen_prof_bin_buf_u32(b, reserve);
	gen_prof_bin_buf_u64(b, begin);
	gen_prof_bin_buf_u64(b, end);
	gen_prof_bin_buf_u64(b, item);
}

/* The 24-byte header of compact and additional records (section 3.1). */
void
gen_prof_bin_head(struct gen_buf *b, uint16_t level, uint32_t type,
    uint32_t tid,
    uint32_t len, uint64_t ts)
{
	gen_prof_bin_buf_u16(b, GEN_BIN_MAGIC);
	gen_prof_bin_buf_u16(b, level);
	gen_prof_bin_buf_u32(b, type);
	gen_prof_bin_buf_u32(b, tid);
	gen_prof_bin_buf_u32(b, len);
	gen_prof_bin_buf_u64(b, ts);
}

/*
 * A 64-byte stars_soc log (section 4.1): FUNC 0/1 ACSQ start/end, 34/35
 * FFTS+ subtask start/end with SUB its subtask type and CTX its id.
 */
void
gen_prof_bin_stars(struct gen_buf *b, int func, int cnt, int sqe,
    uint16_t stream,
    uint16_t task, uint64_t syscnt, int sub, uint16_t ctx)
{
	size_t	 start = b->len;

	gen_prof_bin_buf_u16(b, (uint16_t)((func & 0x3F) | (cnt & 0xF) << 6 |
	    (sqe & 0x3F) << 10));
	gen_prof_bin_buf_u16(b, GEN_BIN_STARS_MAGIC);
	gen_prof_bin_buf_u16(b, stream);
	gen_prof_bin_buf_u16(b, task);
	gen_prof_bin_buf_u64(b, syscnt);
	if (func >= 34) {
		gen_prof_bin_buf_add(b, &(unsigned char){ (unsigned char)sub },
		    1);
		gen_prof_bin_buf_add(b, &(unsigned char){ 0 }, 1);
		gen_prof_bin_buf_u16(b, ctx);
		gen_prof_bin_buf_u16(b, 4 << 13);
		gen_prof_bin_buf_u16(b, 0);
	} else {
		gen_prof_bin_buf_u16(b, 0);
		gen_prof_bin_buf_u16(b, (uint16_t)((stream % 128) << 6));
	}
	while (b->len - start < 64)
		gen_prof_bin_buf_u16(b, 0);
}

/*
 * A 32-byte stars_soc task log of chip V6 (section 4.3): FUNC 0 start, 1
 * end, a 32-bit TASK id and no stream id.
 */
void
gen_prof_bin_stars_v6(struct gen_buf *b, int func, int cnt, int sqe,
    uint32_t task, uint64_t syscnt)
{
	size_t	 start = b->len;

	gen_prof_bin_buf_u16(b, (uint16_t)((func & 0x3F) | (cnt & 0xF) << 6 |
	    (sqe & 0x3F) << 10));
	gen_prof_bin_buf_u16(b, GEN_BIN_STARS_MAGIC);
	gen_prof_bin_buf_u32(b, task);
	gen_prof_bin_buf_u64(b, syscnt);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u16(b, 0);
	while (b->len - start < 32)
		gen_prof_bin_buf_u16(b, 0);
}

/*
 * The ids of a task_track record after its header (section 3.5): device,
 * stream, task id and runtime task type, in the V1 layout (u16 stream, a
 * u64 type) or with V2 the V2 one (2 reserved bytes, u32 stream, u32
 * type), 16 bytes either way.
 */
void
gen_prof_bin_track_ids(struct gen_buf *b, bool v2, int device, int stream,
    uint32_t id, uint32_t type)
{
	gen_prof_bin_buf_u16(b, (uint16_t)(device & 0xFFF));
	if (v2) {
		gen_prof_bin_buf_u16(b, 0);
		gen_prof_bin_buf_u32(b, (uint32_t)stream);
		gen_prof_bin_buf_u32(b, id);
		gen_prof_bin_buf_u32(b, type);
	} else {
		gen_prof_bin_buf_u16(b, (uint16_t)stream);
		gen_prof_bin_buf_u32(b, id);
		gen_prof_bin_buf_u64(b, type);
	}
}

/* A 64-byte hwts.data log (section 4.4): TYPE 0 start, 1 end. */
void
gen_prof_bin_hwts(struct gen_buf *b, int type, int cnt, int sqe,
    uint16_t stream,
    uint16_t task, uint64_t syscnt)
{
	size_t	 start = b->len;

	gen_prof_bin_buf_add(b, &(unsigned char){ (unsigned char)((type & 7) |
	    (cnt & 0xF) << 4) }, 1);
	gen_prof_bin_buf_add(b, &(unsigned char){ (unsigned char)sqe }, 1);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u16(b, task);
	gen_prof_bin_buf_u64(b, syscnt);
	gen_prof_bin_buf_u32(b, stream);
	while (b->len - start < 64)
		gen_prof_bin_buf_u16(b, 0);
}

/* A 40-byte ts_track task-flip record, tag 14 (section 4.5). */
void
gen_prof_bin_flip(struct gen_buf *b, uint64_t syscnt, uint16_t stream,
    uint16_t flip)
{
	gen_prof_bin_buf_u16(b, 14 << 8);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u32(b, 0);
	gen_prof_bin_buf_u64(b, syscnt);
	gen_prof_bin_buf_u16(b, stream);
	gen_prof_bin_buf_u16(b, flip);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u16(b, 0);
	gen_prof_bin_buf_u64(b, 0);
	gen_prof_bin_buf_u64(b, 0);
}

/*
 * A 128-byte task-based PMU record (section 5): ffts_profile.data
 * context level (STARS true; CTX the context id, or -1 for a plain task)
 * or aicore.data (HWTS chips).
 */
void
gen_prof_bin_pmu(struct gen_buf *b, bool stars, int cnt, uint16_t stream,
    uint16_t task, int ctx, uint16_t sub, uint64_t total,
    const uint64_t *pmu, uint64_t start, uint64_t end)
{
	size_t	 begin = b->len;
	int	 i;

	if (stars) {
		gen_prof_bin_buf_u16(b, (uint16_t)(40 | (cnt & 0xF) << 6));
		gen_prof_bin_buf_u16(b, 0);
		gen_prof_bin_buf_u16(b, stream);
		gen_prof_bin_buf_u16(b, task);
		gen_prof_bin_buf_u64(b, 0);
		gen_prof_bin_buf_u16(b, sub);
		gen_prof_bin_buf_u16(b, ctx >= 0 ? (uint16_t)ctx : 0);
		gen_prof_bin_buf_u16(b, ctx >= 0 ? 4 << 13 : 0);
		while (b->len - begin < 32)
			gen_prof_bin_buf_u16(b, 0);
		gen_prof_bin_buf_u64(b, total);
		gen_prof_bin_buf_u64(b, 0);
	} else {
		gen_prof_bin_buf_add(b, &(unsigned char){ (unsigned char)((
		    cnt & 0xF) <<
		    4) }, 1);
		gen_prof_bin_buf_add(b, &(unsigned char){ 0 }, 1);
		gen_prof_bin_buf_u16(b, 0);
		gen_prof_bin_buf_u16(b, 0);
		gen_prof_bin_buf_u16(b, task);
		gen_prof_bin_buf_u64(b, 0);
		gen_prof_bin_buf_u64(b, total);
		gen_prof_bin_buf_u64(b, 0);
	}
	for (i = 0; i < 8; i++)
		gen_prof_bin_buf_u64(b, pmu[i]);
	if (stars) {
		gen_prof_bin_buf_u64(b, start);
		gen_prof_bin_buf_u64(b, end);
	} else {
		gen_prof_bin_buf_u32(b, stream);
		while (b->len - begin < 128)
			gen_prof_bin_buf_u16(b, 0);
	}
}

/* Write LEN bytes of DATA to DIR/NAME. */
int
gen_prof_bin_write(const char *dir, const char *name, const char *data,
    size_t len,
    char **cause)
{
	char	*path;
	int	 rc;

	path = util_path_join(dir, name);
	rc = util_write_file_atomic(path, data, len, false, cause);
	free(path);
	return rc;
}

/* Write the BYTES low bytes of V little-endian at OFF of B. */
void
gen_prof_bin_put(struct strbuf *b, size_t off, uint64_t v, int bytes)
{
	int	 i;

	for (i = 0; i < bytes; i++)
		b->s[off + i] = (char)(v >> (8 * i) & 0xff);
}

/*
 * Append a zeroed record of SIZE bytes to B, starting with the u16 MAGIC
 * unless it is 0; return its offset.
 */
size_t
gen_prof_bin_record(struct strbuf *b, size_t size, uint16_t magic)
{
	size_t	 off = b->len, i;

	for (i = 0; i < size; i++)
		strbuf_addc(b, '\0');
	if (magic != 0)
		gen_prof_bin_put(b, off, magic, 2);
	return off;
}
