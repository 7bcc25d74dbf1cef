/*
 * The Advice tab: the findings of show PATH advice, the overall breakdown
 * first, then each finding by severity (high ones hot) with its
 * suggestion under it and where its evidence is. Enter on a finding opens
 * that evidence: the Kernels table filtered to the op type (or state) it
 * names, the timeline on the kernel after the longest launch gap, the
 * Memory or Cluster tab. The rules that had nothing to read close it.
 * The rules run in the background (store-job.c): on a million
 * kernels they take seconds, which the view spends saying so.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* The Where of each finding, by its line's id (its index). */
struct view_advice {
	struct store_advice_job	*job;	/* until the findings are in */
	double			 t0;
	struct text		*t;
	char			**where;
	int64_t			*rank;	/* of each finding, or NP_NA */
	size_t			 n;
	bool			 ranks;	/* the findings are of several */
	struct store_rows	*rows;	/* the findings, laid out again */
	char			*skipped;	/* on a resize */
};

/*
 * Add S to T in ROLE at INDENT, wrapped at spaces to the screen's width
 * (the lines after the first at column 8), its first line with finding
 * ID (NP_NA: none): the cursor steps from finding to finding.
 */
static void
view_advice_wrap(struct text *t, enum role role, int indent, const char *s,
    int64_t id)
{
	size_t	 w, max, cut;
	char	*line;

	while (*s != '\0') {
		w = COLS > indent + 20 ? (size_t)(COLS - indent - 2) : 20;
		cut = strlen(s);
		if (util_width(s, SIZE_MAX, NULL, true) > w) {
			util_width(s, w, &max, true);
			for (cut = max; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = max > 0 ? max : 1;
		}
		line = xstrndup(s, cut);
		text_add(t, role, indent, line);
		free(line);
		if (id != NP_NA)
			text_set_id(t, id);
		id = NP_NA;
		s += cut;
		while (*s == ' ')
			s++;
		indent = 8;
	}
}

/*
 * Lay the findings VA->rows (and the rules not applied, VA->skipped) out
 * in VA to the screen's width.
 */
static void
view_advice_fill(struct view_advice *va)
{
	struct store_rows	*r = va->rows;
	const char		*skipped = va->skipped;
	const char		*sev, *rule, *rank;
	size_t			 i;
	enum role		 role;
	bool			 overall = false, ranks = false;
	char			*line, keys[64];

	va->t = text_create();
	va->where = xcalloc(r->nrows + 1, sizeof *va->where);
	va->rank = xcalloc(r->nrows + 1, sizeof *va->rank);
	text_addf(va->t, ROLE_TITLE, 1, "Advice: %s (%s: the evidence)",
	    store_path(session_store()), keys_names_for(view_advice_ops.keymap,
	    ACTION_OPEN, keys, sizeof keys));
	if (r->nrows == 0)
		text_add(va->t, ROLE_DIM, 1, "(no findings)");
	/* Ranks are named where the findings are of more than one. */
	for (i = 1; i < r->nrows && !ranks; i++)
		ranks = strcmp(store_rows_cell(r, i, 3), store_rows_cell(r, 0,
		    3)) != 0;
	for (i = 0; i < r->nrows; i++) {
		sev = store_rows_cell(r, i, 0);
		rule = store_rows_cell(r, i, 2);
		rank = ranks ? store_rows_cell(r, i, 3) : "N/A";
		if (strcmp(rule, "overall") == 0) {
			if (!overall) {
				text_add(va->t, ROLE_NORMAL, 0, "");
				text_add(va->t, ROLE_LABEL, 1,
				    "Where the time goes");
				overall = true;
			}
			text_addf(va->t, ROLE_NORMAL, 3, "%s%s%s",
			    store_rows_cell(r, i, 4), strcmp(rank, "N/A") ==
			    0 ? "" : "  rank ", strcmp(rank, "N/A") == 0 ? "" :
			    rank);
			continue;
		}
		va->where[va->n] = xstrdup(store_rows_cell(r, i, 6));
		if (util_parse_int(store_rows_cell(r, i, 3),
		    strlen(store_rows_cell(r, i, 3)), &va->rank[va->n]) != 0)
			va->rank[va->n] = NP_NA;
		role = strcmp(sev, "high") == 0 ? ROLE_HOT : strcmp(sev,
		    "medium") == 0 ? ROLE_LABEL : ROLE_NORMAL;
		text_add(va->t, ROLE_NORMAL, 0, "");
		xasprintf(&line, "%-6s %s %s%s%s: %s", sev,
		    store_rows_cell(r, i, 1), rule, strcmp(rank, "N/A") == 0 ?
		    "" : " rank ", strcmp(rank, "N/A") == 0 ? "" : rank,
		    store_rows_cell(r, i, 4));
		view_advice_wrap(va->t, role, 1, line, (int64_t)va->n);
		free(line);
		view_advice_wrap(va->t, ROLE_DIM, 8, store_rows_cell(r, i, 5),
		    NP_NA);
		if (*va->where[va->n] != '\0' &&
		    strcmp(va->where[va->n], "overall") != 0) {
			xasprintf(&line, "evidence: %s", va->where[va->n]);
			view_advice_wrap(va->t, ROLE_DIM, 8, line, NP_NA);
			free(line);
		}
		va->n++;
	}
	va->ranks = ranks;
	if (skipped != NULL) {
		text_add(va->t, ROLE_NORMAL, 0, "");
		xasprintf(&line, "Not applied: %s", skipped);
		view_advice_wrap(va->t, ROLE_DIM, 1, line, NP_NA);
		free(line);
	}
}

/* The layout of VA without its findings. */
static void
view_advice_clear(struct view_advice *va)
{
	size_t	 i;

	for (i = 0; i < va->n; i++)
		free(va->where[i]);
	free(va->where);
	free(va->rank);
	va->where = NULL;
	va->rank = NULL;
	va->n = 0;
	text_free(va->t);
	va->t = NULL;
}

/* Wrap the findings again to the new width, the cursor on its finding. */
static void
view_advice_resize(struct view *v)
{
	struct view_advice	*va = v->data;
	int64_t			 id;

	if (va->rows == NULL)
		return;
	id = text_cur_id(va->t);
	view_advice_clear(va);
	view_advice_fill(va);
	text_goto_id(va->t, id);
}

static int
view_advice_open(struct view *v, const void *arg, char **cause)
{
	struct view_advice	*va;

	(void)arg;
	va = xcalloc(1, sizeof *va);
	va->t0 = util_now();
	if ((va->job = store_advice_job_start(session_store(),
	    session_rank(), cause)) == NULL) {
		free(va);
		return -1;
	}
	va->t = text_create();
	v->data = va;
	return 0;
}

/* The job's progress: lay its findings out once they are in. */
static int
view_advice_tick(struct view *v, enum view_work *w)
{
	struct view_advice	*va = v->data;
	struct store_rows	*r;
	char			*skipped = NULL, *cause = NULL;
	int			 rc;

	*w = WORK_IDLE;
	if (va->job == NULL)
		return REDRAW_NONE;
	if ((rc = store_advice_job_poll(va->job, &r, &skipped, &cause)) == 0) {
		*w = WORK_SHOWN;
		return REDRAW_BODY;
	}
	store_advice_job_free(va->job);
	va->job = NULL;
	text_free(va->t);
	if (rc == 1) {
		va->rows = r;
		va->skipped = skipped;
		view_advice_fill(va);
	} else {
		va->t = text_create();
		text_addf(va->t, ROLE_ERROR, 1, "%s", cause);
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
	}
	return REDRAW_ALL;
}


static void
view_advice_close(struct view *v)
{
	struct view_advice	*va = v->data;

	if (va == NULL)
		return;
	store_advice_job_free(va->job);
	view_advice_clear(va);
	store_rows_free(va->rows);
	free(va->skipped);
	free(va);
	v->data = NULL;
}

static void
view_advice_draw(struct view *v, int y, int h)
{
	struct view_advice	*va = v->data;

	if (va->job != NULL) {
		draw_textf(y + 1, 1, COLS - 1, ROLE_DIM, "working out the "
		    "advice (%.0f s so far); keys and other views work "
		    "meanwhile", util_now() - va->t0);
		return;
	}
	v->data = va->t;
	text_draw(v, y, h);
	v->data = va;
}

/* Open the evidence WHERE: "table:column:regex", "task:ID", a tab. */
static int
view_advice_jump(const char *where)
{
	const char	*filter;
	char		*table;
	int		 rc;

	if (strncmp(where, "task:", 5) == 0)
		return view_jump_task_id(strtoll(where + 5, NULL, 10));
	if (strcmp(where, "cluster_findings") == 0)
		return tabs_switch(ACTION_VIEW_0);
	filter = strchr(where, ':');
	table = filter != NULL ? xstrndup(where, (size_t)(filter - where)) :
	    xstrdup(where);
	if (strcmp(table, "kernels") == 0)
		rc = view_push(&view_table_ops[VIEW_TABLE_KERNELS], filter !=
		    NULL && strchr(filter + 1, ':') != NULL ? filter + 1 : NULL,
		    NULL) == 0 ? REDRAW_ALL : REDRAW_STATUS;
	else if (strcmp(table, "memory_record") == 0)
		rc = tabs_switch(ACTION_VIEW_6);
	else {
		status_set(ROLE_NORMAL, "%s: show PATH %s prints it", where,
		    table);
		rc = REDRAW_STATUS;
	}
	free(table);
	return rc;
}

/*
 * Open the evidence WHERE of a finding of RANK (NP_NA: of no one rank),
 * every view first showing that rank as the Cluster view's Enter does:
 * this view reopens for it, so nothing of it is read after.
 */
static int
view_advice_evidence(const char *where, int64_t rank)
{
	char	*w = xstrdup(where), *cause = NULL;
	int	 rc = 0;

	if (rank != NP_NA && rank != session_rank()) {
		if (session_set_device(session_device(), rank, &cause) != 0) {
			tabs_reopen(tabs_current());
			status_set(ROLE_ERROR, "%s", cause);
			free(cause);
			free(w);
			return REDRAW_ALL;
		}
		tabs_reopen(tabs_current());
		status_set(ROLE_NORMAL, "rank %lld in every view (r: all "
		    "ranks)", (long long)rank);
		rc = REDRAW_ALL;
	}
	rc |= view_advice_jump(w);
	free(w);
	return rc | REDRAW_STATUS;
}

static int
view_advice_key(struct view *v, enum action a, int key)
{
	struct view_advice	*va = v->data;
	int64_t			 id;
	int			 rc;

	if (a == ACTION_OPEN && va->job != NULL) {
		status_set(ROLE_NORMAL, "the advice is still being worked out");
		return REDRAW_STATUS;
	}
	if (a == ACTION_OPEN) {
		id = text_cur_id(va->t);
		if (id == NP_NA || (size_t)id >= va->n ||
		    *va->where[id] == '\0') {
			status_set(ROLE_NORMAL, "no evidence to open here");
			return REDRAW_STATUS;
		}
		if (strcmp(va->where[id], "overall") == 0) {
			status_set(ROLE_NORMAL, "the numbers are in the "
			    "breakdown at the top; show --compare gives it "
			    "against another run");
			return REDRAW_STATUS;
		}
		return view_advice_evidence(va->where[id], va->ranks ?
		    va->rank[id] : NP_NA);
	}
	v->data = va->t;
	rc = text_key(v, a, key);
	v->data = va;
	return rc;
}

static void
view_advice_status(struct view *v, char *buf, size_t len)
{
	struct view_advice	*va = v->data;

	if (va->job != NULL)
		snprintf(buf, len, " Advice  working... ");
	else
		snprintf(buf, len, " Advice  %zu finding%s ", va->n, va->n == 1 ?
		    "" : "s");
}

static const struct key_binding view_advice_keys[] = {
	{ 'j', ACTION_DOWN, "Step to the next finding" },
	{ KEY_DOWN, ACTION_DOWN, NULL },
	{ 'k', ACTION_UP, "Step to the previous finding" },
	{ KEY_UP, ACTION_UP, NULL },
	{ 'G', ACTION_BOTTOM, "The last finding, and the end of the text" },
	{ KEY_END, ACTION_BOTTOM, NULL },
	{ '\r', ACTION_OPEN, "Open the finding's evidence" },
	{ KEY_ENTER, ACTION_OPEN, NULL },
	{ 0, ACTION_NONE, NULL }
};

static const struct key_hint view_advice_hints[] = {
	{ ACTION_HELP, "help" },
	{ ACTION_OPEN, "evidence" },
	{ ACTION_NONE, NULL }
};

const struct view_ops view_advice_ops = {
	.name = "advice",
	.title = "Advice",
	.open = view_advice_open,
	.close = view_advice_close,
	.draw = view_advice_draw,
	.resize = view_advice_resize,
	.key = view_advice_key,
	.status = view_advice_status,
	.tick = view_advice_tick,
	.keymap = view_advice_keys,
	.hints = view_advice_hints,
};
