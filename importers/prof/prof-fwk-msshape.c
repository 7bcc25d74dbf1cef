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

/*
 * Fields F[0] (name) and F[1] (input shapes) of the record P of LEN
 * bytes, read as MindSpore's decoder reads them: the last field of each
 * type wins, one that is not UTF-8 is N/A (counted in *BAD), one missing
 * is empty; fields stop at one that runs past the record (true then).
 */
static bool
prof_fwk_msshape_fields(const unsigned char *p, size_t len, char **f,
    size_t *bad)
{
	size_t		 i = 0;
	uint32_t	 n;
	int		 t;

	f[0] = f[1] = NULL;
	while (i < len) {
		if (len - i < 6 || (n = importer_le32(p + i + 2)) >
		    len - i - 6)
			return true;
		t = importer_le16(p + i);
		if (t == MSS_F_NAME || t == MSS_F_SHAPES) {
			free(f[t]);
			f[t] = xstrndup((const char *)p + i + 6, n);
			if (!prof_fwk_rec_utf8(f[t])) {
				free(f[t]);
				f[t] = xstrdup("N/A");
				(*bad)++;
			}
		}
		i += 6 + n;
	}
	return false;
}

/* Read FRAMEWORK/mindspore.record_shapes at PATH of FW's profile. */
void
prof_fwk_msshape_load(struct prof_fwk *fw, const char *path)
{
	static const char *const cols[] = { "Name", "Input Shapes" };
	unsigned char	*buf = NULL;
	char		*f[MSS_NCOLS], *cause = NULL;
	size_t		 size = 0, bad = 0, k;
	ssize_t		 len;
	int64_t		 off = 0;
	bool		 begun = false;
	FILE		*fp;

	if ((fp = prof_fwk_rec_open(fw, path)) == NULL)
		return;
	for (;;) {
		fw->at = off;
		if ((len = prof_fwk_rec_next(fw, fp, path, -1, &buf, &size,
		    &off)) <= 0)
			break;
		if (prof_fwk_msshape_fields(buf, (size_t)len, f, &bad) &&
		    fw->cut_at < 0)
			fw->cut_at = fw->at;
		for (k = 0; k < MSS_NCOLS; k++)
			if (f[k] == NULL)
				f[k] = xstrdup("");
		if (!begun && store_load_generic_begin(fw->s,
		    "operator_details", fw->device, fw->rank, (char **)cols,
		    MSS_NCOLS, &cause) != 0) {
			store_load_warning(fw->s, path, -1, "%s", cause);
			free(cause);
			free(f[0]);
			free(f[1]);
			break;
		}
		begun = true;
		store_load_generic_row(fw->s, f, MSS_NCOLS);
		free(f[0]);
		free(f[1]);
	}
	fclose(fp);
	free(buf);
	prof_fwk_rec_report(fw, path);
	if (bad > 0)
		store_load_warning(fw->s, path, -1, "%zu name or shape "
		    "field%s not UTF-8: read as N/A, as MindSpore reads them",
		    bad, bad == 1 ? "" : "s");
}
