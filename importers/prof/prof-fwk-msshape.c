/*
 * MindSpore's recorded input shapes (FRAMEWORK/mindspore.record_shapes,
 * doc/formats.md section 3.12) into table operator_details, as
 * MindSpore's analysis writes operator_details.csv: a row per record, in
 * file order, of its name and input shapes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define MSS_F_NAME	0
#define MSS_F_SHAPES	1
#define MSS_NCOLS	2

/* The reading of one file, and what it counts. */
struct mss {
	struct prof_fwk	*fw;
	const char	*path;
	struct prof_tally bad;		/* fields not UTF-8 */
	struct prof_tally nul;		/* fields cut at a NUL byte */
	struct prof_tally empty;	/* records of no bytes */
	bool		 begun;
};

/*
 * The text of field P of N bytes as MindSpore reads it: N/A if it is not
 * UTF-8; our cells end at a NUL byte, which MindSpore keeps (counted).
 */
static char *
prof_fwk_msshape_text(struct mss *m, const unsigned char *p, size_t n)
{
	if (!prof_fwk_rec_utf8((const char *)p, n)) {
		prof_tally_add(&m->bad, m->fw->at);
		return xstrdup("N/A");
	}
	if (memchr(p, '\0', n) != NULL)
		prof_tally_add(&m->nul, m->fw->at);
	return xstrndup((const char *)p, n);
}

/*
 * Fields F[0] (name) and F[1] (input shapes) of the record P of LEN
 * bytes, read as MindSpore's decoder reads them: the last field of each
 * type wins, a missing one is empty; fields stop at one that runs past
 * the record (true then).
 */
static bool
prof_fwk_msshape_fields(struct mss *m, const unsigned char *p, size_t len,
    char **f)
{
	const unsigned char	*v[MSS_NCOLS] = { NULL, NULL };
	size_t			 vn[MSS_NCOLS] = { 0, 0 }, i = 0, k;
	uint32_t		 n;
	int			 t;
	bool			 cut = false;

	while (i < len) {
		if (len - i < 6 || (n = importer_le32(p + i + 2)) >
		    len - i - 6) {
			cut = true;
			break;
		}
		t = importer_le16(p + i);
		if (t == MSS_F_NAME || t == MSS_F_SHAPES) {
			v[t] = p + i + 6;
			vn[t] = n;
		}
		i += 6 + n;
	}
	for (k = 0; k < MSS_NCOLS; k++)
		f[k] = v[k] != NULL ? prof_fwk_msshape_text(m, v[k], vn[k]) :
		    xstrdup("");
	return cut;
}

/* Write the row F; false if the table cannot be begun (warned). */
static bool
prof_fwk_msshape_row(struct mss *m, char **f)
{
	static const char *const cols[] = { "Name", "Input Shapes" };
	char	*cause = NULL;

	if (!m->begun && store_load_generic_begin(m->fw->s,
	    "operator_details", m->fw->device, m->fw->rank, (char **)cols,
	    MSS_NCOLS, &cause) != 0) {
		store_load_warning(m->fw->s, m->path, -1, "%s", cause);
		free(cause);
		return false;
	}
	m->begun = true;
	store_load_generic_row(m->fw->s, f, MSS_NCOLS);
	return true;
}

static void
prof_fwk_msshape_report(const struct mss *m)
{
	struct store	*s = m->fw->s;

	if (m->bad.n > 0)
		store_load_warning(s, m->path, m->bad.at, "%zu name or shape "
		    "field%s not UTF-8, the first here: read as N/A, as "
		    "MindSpore reads them", m->bad.n, m->bad.n == 1 ? "" : "s");
	if (m->nul.n > 0)
		store_load_warning(s, m->path, m->nul.at, "%zu name or shape "
		    "field%s holding a NUL byte, the first here: cut at it "
		    "(MindSpore keeps the rest)", m->nul.n, m->nul.n == 1 ?
		    "" : "s");
	if (m->empty.n > 0)
		store_load_warning(s, m->path, m->empty.at, "%zu record%s of "
		    "no bytes, the first here: an empty row each, as "
		    "MindSpore lists them", m->empty.n, m->empty.n == 1 ? "" :
		    "s");
}

/* Read FRAMEWORK/mindspore.record_shapes at PATH of FW's profile. */
void
prof_fwk_msshape_load(struct prof_fwk *fw, const char *path)
{
	struct mss	 m;
	unsigned char	*buf = NULL;
	char		*f[MSS_NCOLS];
	size_t		 size = 0;
	ssize_t		 len;
	int64_t		 off = 0;
	bool		 ok = true;
	FILE		*fp;

	if ((fp = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	memset(&m, 0, sizeof m);
	m.fw = fw;
	m.path = path;
	/* MindSpore lists a record of no bytes: its fixed part is none. */
	fw->empty_ok = true;
	while (ok) {
		fw->at = off;
		len = prof_fwk_rec_next(fw, fp, path, -1, &buf, &size, &off);
		if (len == FWK_REC_EMPTY) {
			prof_tally_add(&m.empty, fw->at);
			f[0] = xstrdup("");
			f[1] = xstrdup("");
		} else if (len <= 0)
			break;
		else if (prof_fwk_msshape_fields(&m, buf, (size_t)len, f) &&
		    fw->cut_at < 0)
			fw->cut_at = fw->at;
		ok = prof_fwk_msshape_row(&m, f);
		free(f[0]);
		free(f[1]);
	}
	fw->empty_ok = false;
	fclose(fp);
	free(buf);
	prof_fwk_rec_report(fw, path);
	prof_fwk_msshape_report(&m);
}
