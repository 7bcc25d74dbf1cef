/*
 * The exported files of an SVP board run (SS928/SS927, "AA Core"):
 * op_summary_{device}.{model}.{model_id}.{batch}.{pics}.{count}.{icache}.
 * {freq}.csv holds one row per network layer with the AA Core metrics.
 * It becomes the generic table aa_core_metrics, completed the way the
 * vendor's show prints it: a Memory Bound column, max(Dstr, DLD, WLD) /
 * max(Mac Busy, Vec Ppen), when the file has none, and a "-" total row
 * when the file has none (times and DDR bytes summed, ratios averaged
 * weighted by layer time). The numbers in the file name go to the generic
 * table frequency. What was derived here is marked (store meta
 * derived.<table>, rows without the file's name), so export writes the
 * board's file as it was.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv-int.h"

/* The columns the derived values need, found by name prefix. */
enum svp_col {
	SVP_LAYER, SVP_TIME, SVP_DSTR, SVP_DLD, SVP_WLD, SVP_MAC_BUSY,
	SVP_VEC_PPEN, SVP_BOUND, SVP_NCOLS
};

static const char *const svp_prefixes[SVP_NCOLS] = {
	"Layer Id", "Time(us)", "Dstr", "DLD", "WLD", "Mac Busy", "Vec Ppen",
	"Memory Bound"
};

struct svp_file {
	char		**head;
	size_t		  nhead;
	int		  col[SVP_NCOLS];
	char		***rows;
	size_t		 *nrow;
	size_t		  n;
	bool		  has_total;
};

static int
import_svp_find(char **head, size_t n, const char *prefix)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (strncasecmp(head[i], prefix, strlen(prefix)) == 0)
			return (int)i;
	}
	return -1;
}

static double
import_svp_num(char **f, size_t n, int col)
{
	double	 v;

	if (col < 0 || (size_t)col >= n || util_parse_double(f[col],
	    strlen(f[col]), &v) != 0)
		return NAN;
	return v;
}

/* Memory Bound of one row; NAN when a needed cell is missing. */
static double
import_svp_bound(const struct svp_file *sf, char **f, size_t n)
{
	double	 mem, comp;

	mem = fmax(import_svp_num(f, n, sf->col[SVP_DSTR]),
	    fmax(import_svp_num(f, n, sf->col[SVP_DLD]),
	    import_svp_num(f, n, sf->col[SVP_WLD])));
	comp = fmax(import_svp_num(f, n, sf->col[SVP_MAC_BUSY]),
	    import_svp_num(f, n, sf->col[SVP_VEC_PPEN]));
	if (isnan(mem) || isnan(comp) || comp == 0)
		return NAN;
	return mem / comp;
}

/* A copy of the first WIDTH cells of F, padded with empty cells. */
static char **
import_svp_dup_row(char **f, size_t n, size_t width)
{
	char	**row;
	size_t	  i;

	row = xcalloc(width + 1, sizeof *row);
	for (i = 0; i < width; i++)
		row[i] = xstrdup(i < n ? f[i] : "");
	return row;
}

static void
import_svp_free(struct svp_file *sf)
{
	size_t	 i, k;

	for (i = 0; i < sf->n; i++) {
		for (k = 0; k < sf->nrow[i]; k++)
			free(sf->rows[i][k]);
		free(sf->rows[i]);
	}
	free(sf->rows);
	free(sf->nrow);
	for (k = 0; k < sf->nhead; k++)
		free(sf->head[k]);
	free(sf->head);
}

/* Read the whole file: layer tables are small. */
static int
import_svp_read(struct store *s, struct svp_file *sf, const char *path,
    char **cause)
{
	struct csv	*csv;
	char		**f;
	size_t		  n, k;

	memset(sf, 0, sizeof *sf);
	if ((csv = import_csv_open(path, cause)) == NULL)
		return -1;
	if (import_csv_header(csv, &f, &n, cause) != 0) {
		import_csv_free(csv);
		return -1;
	}
	sf->head = import_svp_dup_row(f, n, n);
	sf->nhead = n;
	for (k = 0; k < SVP_NCOLS; k++)
		sf->col[k] = import_svp_find(f, n, svp_prefixes[k]);
	while (import_csv_next(csv, &f, &n) == 1) {
		sf->rows = xreallocarray(sf->rows, sf->n + 1, sizeof *sf->rows);
		sf->nrow = xreallocarray(sf->nrow, sf->n + 1, sizeof *sf->nrow);
		sf->rows[sf->n] = import_svp_dup_row(f, n, sf->nhead);
		sf->nrow[sf->n++] = sf->nhead;
		if (sf->col[SVP_LAYER] >= 0 && (size_t)sf->col[SVP_LAYER] < n &&
		    strcmp(f[sf->col[SVP_LAYER]], "-") == 0)
			sf->has_total = true;
	}
	import_csv_report(csv, s);
	import_csv_free(csv);
	return 0;
}

/*
 * The "-" row: numbers summed for times and byte counts, time-weighted
 * means for ratio columns, text columns "-".
 */
static char **
import_svp_total(struct svp_file *sf, size_t ncols)
{
	char	**row, buf[64];
	double	  sum, wsum, t, v, tt;
	size_t	  i, k;
	bool	  ratio, num;

	row = xcalloc(ncols, sizeof *row);
	for (k = 0; k < sf->nhead; k++) {
		ratio = strcasestr(sf->head[k], "ratio") != NULL ||
		    strcasestr(sf->head[k], "bound") != NULL;
		sum = wsum = tt = 0;
		num = sf->n > 0;
		for (i = 0; i < sf->n && num; i++) {
			v = import_svp_num(sf->rows[i], sf->nrow[i], (int)k);
			t = import_svp_num(sf->rows[i], sf->nrow[i],
			    sf->col[SVP_TIME]);
			if (isnan(v))
				num = false;
			sum += v;
			if (!isnan(t)) {
				wsum += v * t;
				tt += t;
			}
		}
		if (!num || (int)k == sf->col[SVP_LAYER])
			row[k] = xstrdup("-");
		else if (ratio && (int)k != sf->col[SVP_TIME] &&
		    strcasecmp(sf->head[k], "Time Ratio") != 0) {
			util_fmt_fixed(buf, sizeof buf, tt > 0 ? wsum / tt : 0,
			    6, true);
			row[k] = xstrdup(buf);
		} else {
			util_fmt_fixed(buf, sizeof buf, sum, 6, true);
			row[k] = xstrdup(buf);
		}
	}
	return row;
}

/* Write the rows, adding Memory Bound and the total row when missing. */
static int
import_svp_write(struct store *s, struct svp_file *sf, struct import_ctx *ctx,
    char **cause)
{
	char	**total, buf[64];
	size_t	  ncols = sf->nhead, i, k;
	bool	  add_bound = sf->col[SVP_BOUND] < 0;

	if (add_bound)
		sf->head[ncols++] = xstrdup("Memory Bound");
	if (store_load_generic_begin(s, "aa_core_metrics", ctx->device,
	    ctx->rank, sf->head, ncols, cause) != 0)
		return -1;
	if (add_bound) {
		sf->nhead = ncols;
		store_load_meta(s, "derived.aa_core_metrics", "Memory Bound");
	}
	for (i = 0; i < sf->n; i++) {
		if (add_bound) {
			util_fmt_fixed(buf, sizeof buf, import_svp_bound(sf,
			    sf->rows[i], sf->nrow[i]), 6, true);
			sf->rows[i][sf->nrow[i]++] = xstrdup(buf);
		}
		store_load_generic_row(s, sf->rows[i], sf->nrow[i]);
	}
	if (!sf->has_total && sf->n > 0) {
		store_load_legacy(s, NULL);
		total = import_svp_total(sf, ncols);
		if (add_bound) {
			free(total[ncols - 1]);
			util_fmt_fixed(buf, sizeof buf, import_svp_bound(sf,
			    total, ncols), 6, true);
			total[ncols - 1] = xstrdup(buf);
		}
		store_load_generic_row(s, total, ncols);
		for (k = 0; k < ncols; k++)
			free(total[k]);
		free(total);
	}
	return 0;
}

/*
 * Keep the numbers of an SVP op_summary file name as a row of the generic
 * table frequency. Names that do not have the eight dotted parts are left
 * alone.
 */
static void
import_svp_name(struct store *s, const char *path, struct import_ctx *ctx)
{
	static char	*cols[] = { "Device_id", "Model Name", "Model ID",
	    "Batch", "Pics", "Count", "ICache", "Frequency" };
	char		*b, *p, *cells[8], *cause = NULL;
	size_t		 n = 0, i;

	b = xstrdup(util_basename(path) + strlen("op_summary_"));
	if ((p = strrchr(b, '.')) != NULL && strcasecmp(p, ".csv") == 0)
		*p = '\0';
	cells[n++] = b;
	if ((p = strchr(b, '.')) == NULL) {
		free(b);
		return;
	}
	*p = '\0';
	cells[n++] = p + 1;
	/* The model name may hold dots: take the six numbers from the end. */
	for (i = 0; i < 6; i++) {
		if ((p = strrchr(cells[1], '.')) == NULL)
			break;
		*p = '\0';
		cells[7 - i] = p + 1;
	}
	if (i == 6 && store_load_generic_begin(s, "frequency", ctx->device,
	    ctx->rank, cols, 8, &cause) == 0) {
		store_load_generic_row(s, cells, 8);
		store_load_meta(s, "derived.frequency", "*");
	}
	free(cause);
	free(b);
}

/*
 * Load an SVP op_summary (one row per layer) into aa_core_metrics and its
 * file name into frequency. On failure return -1 and set *cause.
 */
int
import_svp_aa_core(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct svp_file	 sf;
	int		 rc;

	if (import_svp_read(s, &sf, path, cause) != 0)
		return -1;
	rc = import_svp_write(s, &sf, ctx, cause);
	import_svp_free(&sf);
	if (rc == 0)
		import_svp_name(s, path, ctx);
	return rc;
}
