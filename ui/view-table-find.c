/*
 * Searching and saving in a table view. A search walks the table from the
 * cursor a page at a time (the rows as the user sees them, sorted and
 * filtered) and stops at the first row with a matching cell, or after a
 * few seconds with a message saying how far it got; while a filter or sort
 * still runs, it waits at the last row found so far and goes on when the
 * scan ends. Saving writes every row of the view, sorted and filtered, as
 * CSV or TSV.
 */
#include <sys/stat.h>

#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui-int.h"

#define FIND_CHUNK	512
#define FIND_SECONDS	3.0
#define HITS_MAX	(1 << 20)	/* match rows kept for "match i/N" */
#define HITS_SECONDS	0.03

/* Whether a cell of row I of R, as the table shows it, matches M. */
static bool
view_table_find_row(const struct view_table *vt, struct matcher *m,
    const struct store_rows *r, size_t i)
{
	char		 buf[STORE_READABLE_MAX];
	size_t		 j;
	const char	*c;

	for (j = 0; j < r->ncols; j++) {
		c = view_table_page_text(vt, r, i, j, buf);
		if (view_table_page_match(m, r, i, j, c))
			return true;
	}
	return false;
}

/*
 * Find the next row matching M from row FROM on, forward or BACK: true
 * when the search is over (a row found, or a message why it stops), false
 * at the end of the table. WRAPPED if it began at the other end.
 */
static bool
view_table_find_scan(struct view_table *vt, struct matcher *m, bool back,
    int64_t from, bool wrapped)
{
	struct store_rows	*r;
	char			*cause = NULL;
	int64_t			 off, i;
	double			 t0 = util_now();
	size_t			 k;

	while (from >= 0 && (vt->total < 0 || from < vt->total)) {
		off = back ? (from >= FIND_CHUNK - 1 ? from - FIND_CHUNK + 1 :
		    0) : from;
		if ((r = store_page_fetch(vt->pager, off, FIND_CHUNK,
		    &cause)) == NULL) {
			status_set(ROLE_ERROR, "%s", cause);
			free(cause);
			return true;
		}
		/*
		 * A running scan may have found more rows than the last tick
		 * saw: the cursor may go to any row fetched.
		 */
		if (vt->busy && off + (int64_t)r->nrows > vt->found)
			vt->found = off + (int64_t)r->nrows;
		for (k = 0; k < r->nrows; k++) {
			i = back ? from - off - (int64_t)k : (int64_t)k;
			if (i < 0 || i >= (int64_t)r->nrows)
				continue;
			if (view_table_find_row(vt, m, r, (size_t)i)) {
				store_rows_free(r);
				view_table_page_goto(vt, off + i);
				if (view_table_page_fill(vt, false,
				    &cause) != 0)
					free(cause);
				if (wrapped)
					status_set(ROLE_NORMAL, "/%s  (wrapped "
					    "to the %s)", vt->search, back ?
					    "end" : "start");
				return true;
			}
			/* The caller says it gave up: no use going on. */
			if (matcher_failed(m, NULL)) {
				store_rows_free(r);
				return false;
			}
		}
		if (!back && (int64_t)r->nrows < FIND_CHUNK) {
			store_rows_free(r);
			/*
			 * A filter or sort still running has not found its
			 * later rows yet: go on from here when it ends,
			 * rather than say "not found" too early.
			 */
			if (vt->busy) {
				vt->search_wait = true;
				view_table_page_goto(vt, off + (int64_t)k - 1);
				if (view_table_page_fill(vt, false,
				    &cause) != 0)
					free(cause);
				status_set(ROLE_NORMAL, "search goes on when "
				    "the %s is done", vt->filter != NULL ?
				    "filter" : "sort");
				return true;
			}
			break;
		}
		store_rows_free(r);
		from = back ? off - 1 : off + FIND_CHUNK;
		if (util_now() - t0 > FIND_SECONDS) {
			status_set(ROLE_ERROR, "search stopped at row %lld: "
			    "press n to go on", (long long)from + 1);
			view_table_page_goto(vt, from);
			if (view_table_page_fill(vt, false, &cause) != 0)
				free(cause);
			return true;
		}
	}
	return false;
}

/*
 * Find the next row matching M from the cursor, forward or BACK; past the
 * last row (or the first) it goes on from the other end, as less and vi
 * do, once the table's rows are all counted.
 */
static void
view_table_find_next(struct view_table *vt, struct matcher *m, bool back)
{
	char	*cause = NULL;

	if (view_table_find_scan(vt, m, back, vt->cur + (back ? -1 : 1),
	    false))
		return;
	if (!vt->busy && vt->total > 0 && !matcher_failed(m, NULL) &&
	    view_table_find_scan(vt, m, back, back ? vt->total - 1 : 0, true))
		return;
	/* Rows it gave up on may match: not "not found". */
	if (matcher_failed(m, &cause)) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	status_set(ROLE_ERROR, "not found: %s", vt->search);
}

static void
view_table_find_search_run(struct view_table *vt, bool back)
{
	struct matcher	*m;
	char		*cause = NULL;

	if ((m = matcher_create(vt->search, false, &cause)) == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	view_table_find_next(vt, m, back);
	matcher_free(m);
}

/* The scan has ended: carry on with the search that waited for it. */
void
view_table_find_search_resume(struct view_table *vt)
{
	if (!vt->search_wait)
		return;
	vt->search_wait = false;
	if (vt->search != NULL)
		view_table_find_search_run(vt, false);
}

/*
 * The matcher of the search text, for its highlights: the last search's,
 * or none.
 */
static void
view_table_find_matcher(struct view_table *vt, const char *text)
{
	char	*cause = NULL;

	matcher_free(vt->search_m);
	vt->search_m = NULL;
	/* A bad one is reported by the search itself. */
	if (text != NULL && *text != '\0' &&
	    (vt->search_m = matcher_create(text, false, &cause)) == NULL)
		free(cause);
	view_table_find_hits_reset(vt);
}

/*
 * As the search text is typed: every cell it matches lights up at once,
 * as less --incsearch does; a regex not yet complete leaves the last
 * highlights.
 */
static void
view_table_find_search_live(void *arg, const char *text)
{
	struct view_table	*vt = arg;
	struct matcher		*m;
	char			*cause = NULL;

	if (*text == '\0') {
		view_table_find_matcher(vt, NULL);
		return;
	}
	if ((m = matcher_create(text, false, &cause)) == NULL) {
		free(cause);
		return;
	}
	matcher_free(vt->search_m);
	vt->search_m = m;
	view_table_find_hits_reset(vt);
}

static void
view_table_find_search_done(void *arg, const char *text)
{
	struct view_table	*vt = arg;

	/* Cancelled: the last search's highlights come back. */
	if (text == NULL || *text == '\0') {
		view_table_find_matcher(vt, vt->search);
		return;
	}
	free(vt->search);
	vt->search = xstrdup(text);
	view_table_find_matcher(vt, text);
	view_table_find_search_run(vt, vt->search_back);
}

/* Count the search's matches afresh: a new search, sort or filter. */
void
view_table_find_hits_reset(struct view_table *vt)
{
	free(vt->hits);
	vt->hits = NULL;
	vt->nhits = vt->ahits = 0;
	vt->hits_next = 0;
	vt->hits_done = vt->search_m == NULL;
}

/*
 * Count on for a moment: the rows from where the count got to, a chunk
 * at a time, for at most HITS_SECONDS, so keys stay quick on a big table.
 * The rows of the first HITS_MAX matches are kept to say which match
 * the cursor is on. Return whether there is more to count.
 */
bool
view_table_find_hits_tick(struct view_table *vt)
{
	struct store_rows	*r;
	char			*cause = NULL;
	double			 t0 = util_now(), t1;
	size_t			 k;

	if (vt->search_m == NULL)
		vt->hits_done = true;
	while (!vt->hits_done && !vt->busy && vt->pager != NULL) {
		if ((r = store_page_fetch(vt->pager, vt->hits_next,
		    FIND_CHUNK, &cause)) == NULL) {
			free(cause);
			vt->hits_done = true;
			break;
		}
		/* The fetch is not counted: else a slow one leaves a row. */
		t1 = util_now();
		for (k = 0; k < r->nrows; k++) {
			/*
			 * A row at a time, so that a pattern that backtracks
			 * long on each cell cannot hold the keys up.
			 */
			if (k > 0 && util_now() - t1 > HITS_SECONDS)
				break;
			if (!view_table_find_row(vt, vt->search_m, r, k))
				continue;
			if (vt->nhits < HITS_MAX) {
				if (vt->nhits == vt->ahits) {
					vt->ahits = vt->ahits * 2 + 64;
					vt->hits = xreallocarray(vt->hits,
					    vt->ahits, sizeof *vt->hits);
				}
				vt->hits[vt->nhits] = vt->hits_next +
				    (int64_t)k;
			}
			vt->nhits++;
		}
		vt->hits_next += (int64_t)k;
		vt->hits_done = k == r->nrows && r->nrows < FIND_CHUNK;
		store_rows_free(r);
		/*
		 * Rows PCRE2 gave up on may match: the count would be wrong,
		 * so there is none (the search says why).
		 */
		if (matcher_failed(vt->search_m, NULL)) {
			vt->nhits = 0;
			vt->hits_done = true;
		}
		if (util_now() - t0 > HITS_SECONDS)
			break;
	}
	return !vt->hits_done && !vt->busy;
}

/*
 * "  match I/N" for the status line: the cursor's match among the N found
 * (N+ while counting), or "-" when the cursor is on no match.
 */
void
view_table_find_hits_status(const struct view_table *vt, char *buf,
    size_t len)
{
	size_t	 lo = 0, hi, mid;
	char	 at[32] = "-";

	buf[0] = '\0';
	if (vt->search_m == NULL || (vt->nhits == 0 && !vt->hits_done) ||
	    matcher_failed(vt->search_m, NULL))
		return;
	hi = vt->nhits < HITS_MAX ? vt->nhits : HITS_MAX;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (vt->hits[mid] < vt->cur)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < vt->nhits && lo < HITS_MAX && vt->hits[lo] == vt->cur)
		snprintf(at, sizeof at, "%zu", lo + 1);
	snprintf(buf, len, "  match %s/%zu%s", at, vt->nhits,
	    vt->hits_done ? "" : "+");
}

/* The search keys: / and ? prompt, n and N repeat. */
int
view_table_find_search_key(struct view_table *vt, enum action a)
{
	switch (a) {
	case ACTION_SEARCH:
	case ACTION_SEARCH_BACK:
		vt->search_back = a == ACTION_SEARCH_BACK;
		/* The last search offered: / Enter goes to its next match. */
		prompt_start(vt->search_back ? "search backward: " :
		    "search: ", vt->search, view_table_find_search_done, vt);
		prompt_on_change(view_table_find_search_live);
		return REDRAW_STATUS;
	default:
		if (vt->search == NULL) {
			status_set(ROLE_ERROR, "no search yet: press /");
			return REDRAW_STATUS;
		}
		view_table_find_search_run(vt, (a == ACTION_PREV_MATCH) !=
		    vt->search_back);
		return REDRAW_ALL;
	}
}

/* A file name P asks about again, as it is there already. */
struct view_table_save {
	struct view_table	*vt;
	char			*path;
};

/* Write the view of VT to PATH: TSV if it ends in .tsv, else CSV. */
static void
view_table_find_save_write(struct view_table *vt, const char *path)
{
	struct store_print_opts	 po;
	struct store_query	 q;
	struct store_rows	*r;
	char			*cause = NULL;
	FILE			*f;

	view_table_page_query(vt, &q);
	if ((r = store_query_table(session_store(), vt->t, &q,
	    &cause)) == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
		return;
	}
	if ((f = fopen(path, "w")) == NULL) {
		status_set(ROLE_ERROR, "cannot open '%s': %s", path,
		    strerror(errno));
		store_rows_free(r);
		return;
	}
	memset(&po, 0, sizeof po);
	po.format = util_has_suffix(path, ".tsv") ? PRINT_TSV : PRINT_CSV;
	store_print_rows(f, r, &po);
	if (fclose(f) != 0)
		status_set(ROLE_ERROR, "cannot write '%s': %s", path,
		    strerror(errno));
	else
		status_set(ROLE_NORMAL, "saved %zu rows to %s", r->nrows,
		    path);
	store_rows_free(r);
}

/* The answer to "overwrite it?": only y or yes overwrites. */
static void
view_table_find_save_confirm(void *arg, const char *answer)
{
	struct view_table_save	*a = arg;

	if (answer != NULL && (strcasecmp(answer, "y") == 0 ||
	    strcasecmp(answer, "yes") == 0))
		view_table_find_save_write(a->vt, a->path);
	else
		status_set(ROLE_NORMAL, "not saved: '%s' kept", a->path);
	free(a->path);
	free(a);
}

/*
 * The file name P asked for: a file that is there already (a vendor CSV
 * of the same name, say) is overwritten only when the user says so.
 */
static void
view_table_find_save_done(void *arg, const char *path)
{
	struct view_table	*vt = arg;
	struct view_table_save	*a;
	struct stat		 st;
	char			*label;

	if (path == NULL || *path == '\0')
		return;
	free(vt->saved);
	vt->saved = xstrdup(path);
	if (stat(path, &st) != 0) {
		view_table_find_save_write(vt, path);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		status_set(ROLE_ERROR, "'%s' is a folder: give a file name",
		    path);
		return;
	}
	a = xcalloc(1, sizeof *a);
	a->vt = vt;
	a->path = xstrdup(path);
	xasprintf(&label, "'%s' is there: overwrite it? (y/N) ", path);
	prompt_start(label, NULL, view_table_find_save_confirm, a);
	free(label);
}

int
view_table_find_save_key(struct view_table *vt)
{
	char	*name;

	/* The name given last, else the table's, in the working folder. */
	if (vt->saved != NULL)
		name = xstrdup(vt->saved);
	else
		xasprintf(&name, "%s.csv", store_tables_name(vt->t));
	prompt_start("save as (.csv or .tsv): ", name,
	    view_table_find_save_done,
	    vt);
	free(name);
	return REDRAW_STATUS;
}
