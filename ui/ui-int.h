/*
 * What the files in ui/ share and nothing outside includes: colour roles,
 * actions, the views and their helpers. It brings in ui.h and the store's
 * query interface.
 */
#ifndef UI_INT_H
#define UI_INT_H

#include "ui.h"
#include "store.h"

/*
 * Colour roles: the name a theme file uses, the fallback colours (16-colour
 * numbers, -1 for the terminal's default) and the attribute used without
 * colour.
 */
#define ROLES(X)							\
	X(NORMAL,	"normal",	-1,	-1,	0)		\
	X(HEADER,	"header",	0,	6,	A_REVERSE)	\
	X(SORTED,	"sorted",	0,	3,	A_REVERSE | A_BOLD) \
	X(CURSOR,	"cursor",	15,	4,	A_REVERSE)	\
	X(STATUS,	"status",	15,	4,	A_REVERSE)	\
	X(TITLE,	"title",	11,	-1,	A_BOLD)		\
	X(TAB,		"tab",		7,	-1,	0)		\
	X(TAB_ACTIVE,	"tab-active",	0,	7,	A_REVERSE)	\
	X(LABEL,	"label",	6,	-1,	A_BOLD)		\
	X(HOT,		"hot",		9,	-1,	A_BOLD)		\
	X(BAR,		"bar",		2,	-1,	0)		\
	X(DIM,		"dim",		8,	-1,	A_DIM)		\
	X(MATCH,	"match",	0,	11,	A_UNDERLINE)	\
	X(PROMPT,	"prompt",	-1,	-1,	A_BOLD)		\
	X(ERROR,	"error",	15,	1,	A_BOLD)		\
	X(KEY,		"key",		10,	-1,	A_BOLD)		\
	X(SPAN_AI_CORE,	"span-ai-core",	2,	-1,	0)		\
	X(SPAN_AI_VECTOR_CORE, "span-ai-vector-core", 6, -1, 0)		\
	X(SPAN_MIX,	"span-mix",	5,	-1,	0)		\
	X(SPAN_AI_CPU,	"span-ai-cpu",	3,	-1,	0)		\
	X(SPAN_COMM,	"span-comm",	1,	-1,	A_BOLD)		\
	X(SPAN_MEMCPY,	"span-memcpy",	4,	-1,	0)		\
	X(SPAN_EVENT,	"span-event",	8,	-1,	0)		\
	X(SPAN_OTHER,	"span-other",	7,	-1,	0)		\
	X(SPAN_API,	"span-api",	12,	-1,	0)		\
	X(SPAN_STEP,	"span-step",	11,	-1,	0)		\
	X(SPARK,	"spark",	13,	-1,	0)		\
	X(HEAT_1,	"heat-1",	1,	-1,	0)		\
	X(HEAT_2,	"heat-2",	3,	-1,	0)		\
	X(HEAT_3,	"heat-3",	6,	-1,	0)		\
	X(HEAT_4,	"heat-4",	2,	-1,	0)		\
	X(DIFF_MORE,	"diff-more",	15,	1,	A_REVERSE | A_BOLD) \
	X(DIFF_LESS,	"diff-less",	0,	2,	A_UNDERLINE)

#define ROLE_ENUM(e, name, fg, bg, mono)	ROLE_##e,
enum role {
	ROLES(ROLE_ENUM)
	ROLE_COUNT
};
#undef ROLE_ENUM

/*
 * User actions: the name the config file uses and the help text. Each
 * key table maps keys to these.
 */
#define ACTIONS(X)							\
	X(NONE,		"none",		"Do nothing")			\
	X(UP,		"up",		"Move up one row")		\
	X(DOWN,		"down",		"Move down one row")		\
	X(PAGE_UP,	"page-up",	"Move up one page")		\
	X(PAGE_DOWN,	"page-down",	"Move down one page")		\
	X(HALF_UP,	"half-up",	"Move up half a page")		\
	X(HALF_DOWN,	"half-down",	"Move down half a page")	\
	X(TOP,		"top",		"Go to the first row")		\
	X(BOTTOM,	"bottom",	"Go to the last row")		\
	X(LEFT,		"left",		"Scroll one column left")	\
	X(RIGHT,	"right",	"Scroll one column right")	\
	X(OPEN,		"open",		"Open the row and what it links to") \
	X(SORT_PREV,	"sort-prev",	"Sort on the previous column")	\
	X(SORT_NEXT,	"sort-next",	"Sort on the next column")	\
	X(SORT_INVERT,	"sort-invert",	"Invert the sort order")	\
	X(SORT_MENU,	"sort-menu",	"Choose the sort column from a list") \
	X(SORT_TIME,	"sort-time",	"Sort on the time, largest first") \
	X(COLUMNS,	"columns",	"Choose the columns shown")	\
	X(FILTER,	"filter",	"Filter rows (regex or col:regex)") \
	X(SEARCH,	"search",	"Search forward")		\
	X(SEARCH_BACK,	"search-back",	"Search backward")		\
	X(NEXT_MATCH,	"next-match",	"Go to the next match")		\
	X(PREV_MATCH,	"prev-match",	"Go to the previous match")	\
	X(SAVE,		"save",		"Save the view as CSV or TSV")	\
	X(REIMPORT,	"reimport",	"Re-import changed inputs")	\
	X(DEVICE,	"device",	"Choose the device")		\
	X(RANK,		"rank",		"Choose the rank")		\
	X(AA_CORE,	"aa-core",	"AA Core metrics (SVP jobs)")	\
	X(NEXT_VIEW,	"next-view",	"Switch to the next view")	\
	X(PREV_VIEW,	"prev-view",	"Switch to the previous view")	\
	X(VIEW_1,	"view-1",	"Summary view")			\
	X(VIEW_2,	"view-2",	"Op statistic view")		\
	X(VIEW_3,	"view-3",	"API statistic view")		\
	X(VIEW_4,	"view-4",	"Op summary (kernels) view")	\
	X(VIEW_5,	"view-5",	"Steps view")			\
	X(VIEW_6,	"view-6",	"Memory view")			\
	X(VIEW_7,	"view-7",	"Markers view")			\
	X(VIEW_8,	"view-8",	"Flame graph view")		\
	X(VIEW_9,	"view-9",	"Timeline view")		\
	X(VIEW_0,	"view-0",	"Cluster view (several ranks)")	\
	X(VIEW_ADVICE,	"view-advice",	"Advice view: what to fix")	\
	X(ZOOM_IN,	"zoom-in",	"Zoom in around the cursor")	\
	X(ZOOM_OUT,	"zoom-out",	"Zoom out")			\
	X(FLAME_MODE,	"flame-mode",	"Cycle icicle, trees, sandwich") \
	X(WEIGHT,	"weight",	"Weigh by device or host time")	\
	X(STACKS,	"stacks",	"Cycle the source of the stacks") \
	X(STEP,		"step",		"Show one step only, or all")	\
	X(PAN_LEFT,	"pan-left",	"Pan left a quarter frame")	\
	X(PAN_RIGHT,	"pan-right",	"Pan right a quarter frame")	\
	X(FIT,		"fit",		"Fit the whole trace")		\
	X(UNDO,		"undo",		"Undo a zoom or pan")		\
	X(NEXT_SPAN,	"next-span",	"Go to the next span on the lane") \
	X(PREV_SPAN,	"prev-span",	"Go to the previous span")	\
	X(FOLLOW_FLOW,	"follow-flow",	"Follow launch to task and back") \
	X(ZOOM_SPAN,	"zoom-span",	"Zoom to the span at the cursor") \
	X(GOTO_TIME,	"goto-time",	"Go to a time (or +/- relative)") \
	X(PEAK,		"peak",		"Go to the peak of the counter lane") \
	X(MARK,		"mark",		"Set the mark at the cursor")	\
	X(GOTO_MARK,	"goto-mark",	"Return to the mark")		\
	X(JUMP,		"timeline",					\
	    "Show the task, op type, step or marker in the timeline") \
	X(SELECT,	"select",	"Select the range from the mark") \
	X(APPLY_RANGE,	"apply-range",	"Op statistic of the selected range") \
	X(RANGE_FLAME,	"range-flame",	"Flame graph of the selected range") \
	X(COLLAPSE,	"collapse",	"Collapse or expand the lane's group") \
	X(HIDE_LANES,	"hide-lanes",	"Hide lanes matching a regex")	\
	X(NARROW,	"narrow",	"Narrow the lane name column")	\
	X(WIDEN,	"widen",	"Widen the lane name column")	\
	X(ALIGN_STEPS,	"align-steps",					\
	    "Line the ranks' lanes up at a step's start")		\
	X(COMPARE_TABLE, "compare-table",				\
	    "Compare: the next comparison table")			\
	X(GRID_METRIC,	"grid-metric",					\
	    "Cluster: the link grids' bandwidth or transit time")	\
	X(HELP,		"help",		"Show this help")		\
	X(REDRAW,	"redraw",	"Redraw the screen")		\
	X(CLOSE,	"close",	"Close the view; q quits at the top") \
	X(QUIT,		"quit",		"Quit")

#define ACTION_ENUM(e, name, help)	ACTION_##e,
enum action {
	ACTIONS(ACTION_ENUM)
	ACTION_COUNT
};
#undef ACTION_ENUM

/* What a key handler asks the loop to repaint. */
enum redraw {
	REDRAW_NONE = 0,
	REDRAW_BODY = 1 << 0,
	REDRAW_STATUS = 1 << 1,
	REDRAW_ALL = REDRAW_BODY | REDRAW_STATUS
};

struct key_binding {
	int		 key;
	enum action	 action;
	const char	*help;		/* NULL: the action's own text */
};

#define KEYS_CTRL(c)	((c) & 0x1f)
/* Alt (Meta) with a key: Esc then the key, as terminals send it. */
#define KEYS_ALT	0x100000

/* One entry of a view's key bar: the action and its one-word label. */
struct key_hint {
	enum action	 action;
	const char	*label;
};

struct view;

/* How far a view's background work (a sort, a filter) has got. */
enum view_work {
	WORK_IDLE,		/* nothing running */
	WORK_SHOWN,		/* running, the first page is on screen */
	WORK_WAIT		/* running, nothing to show yet */
};

struct view_ops {
	const char	*name;
	const char	*title;
	const char	*table;		/* its store tables, " "-separated */
	int		 (*open)(struct view *, const void *, char **);
	void		 (*close)(struct view *);
	void		 (*draw)(struct view *, int, int);
	int		 (*key)(struct view *, enum action, int);
	void		 (*resize)(struct view *);
	void		 (*status)(struct view *, char *, size_t);
	int		 (*tick)(struct view *, enum view_work *);
	const struct key_binding *keymap;
	const struct key_hint	*hints;	/* the key bar, ACTION_NONE ends */
};

struct view {
	const struct view_ops	*ops;
	void			*data;
	struct view		*below;
	bool			 top;	/* a tab, not pushed over another */
};

/* The configuration after config.c merged file and command line. */
struct ui_config {
	char		*theme;
	bool		 mouse;
	char		*view;
};

/* status.c */
void		 status_set(enum role, const char *, ...) PRINTFLIKE(2, 3);
const char	*status_get(enum role *);
void		 status_clear(void);

/* session.c */
struct store	*session_store(void);
struct store	*session_base(void);
struct store	*session_store_for(const char *);
void		 session_set_compare(struct store *,
		     const struct store_compare *);
struct store	*session_compare_base(void);
const struct store_compare *session_compare_opts(void);
void		 session_release(void);
void		 session_set_store(struct store *);
void		 session_prefetch(void);
int64_t		 session_device(void);
int64_t		 session_rank(void);
int		 session_set_device(int64_t, int64_t, char **);
struct store_rows *session_query(const char *, const char *, int64_t,
		     bool);

/* mouse.c */
void		 mouse_init(void);
int		 mouse_read(void);
void		 mouse_get(int *, int *, bool *, int *);
int		 mouse_button(void);

/* draw.c */
void		 draw_init(void);
bool		 draw_utf8(void);
void		 draw_fill(int, int, int, enum role);
int		 draw_text(int, int, int, enum role, const char *);
int		 draw_textf(int, int, int, enum role, const char *, ...)
		     PRINTFLIKE(5, 6);
int		 draw_width(const char *);
int		 draw_cell(int, int, int, enum role, const char *, bool);
void		 draw_span(int, int, int, enum role, const char *, bool);
void		 draw_hline(int, int, int, enum role);
void		 draw_bar(int, int, int, double, enum role);
const char	*draw_glyph_up(void);
const char	*draw_glyph_down(void);

/* theme.c */
int		 theme_load(const char *, bool, char **);
int		 theme_attr(enum role);
const char	*theme_role_name(enum role);

/* keys.c */
const char	*keys_action_name(enum action);
const char	*keys_action_help(enum action);
int		 keys_action_find(const char *);
int		 keys_parse(const char *);
void		 keys_name(int, char *, size_t);
enum action	 keys_lookup(const struct key_binding *, int);
enum action	 keys_global(int);
const struct key_binding *keys_global_map(void);
const struct key_binding *keys_user_map(void);
void		 keys_bind(int, enum action);
int		 keys_for(const struct key_binding *, enum action);
const char	*keys_names_for(const struct key_binding *, enum action,
		     char *, size_t);
enum action	 keys_effective(const struct key_binding *, int);
void		 keys_bar(const struct view *, char *, size_t);

/* config-yaml.c */
struct config_yaml_entry {
	char	*section;	/* NULL at the top level */
	char	*key;
	char	*value;		/* a list is joined with "," */
	int	 line;
};
struct config_yaml {
	struct config_yaml_entry	*v;
	size_t				 n;
};
struct config_yaml *config_yaml_load(const char *, char **);
void		 config_yaml_free(struct config_yaml *);

/* config.c */
int		 config_load(struct ui_config *, const char *, char **);
void		 config_release(struct ui_config *);
char		*config_path(void);

/*
 * What the flame and window views open on when pushed from the timeline:
 * the range [FROM_NS, TO_NS), its times shown from ORIGIN_NS.
 */
struct view_range_arg {
	int64_t		 from_ns;
	int64_t		 to_ns;
	int64_t		 origin_ns;	/* the trace's start */
};

/* view.c */
extern const struct key_hint view_hints_page[];
extern const struct key_hint view_hints_pick[];
bool		 view_list_move(size_t *, size_t, enum action);
void		 view_list_show(size_t, size_t *, size_t);
void		 view_set_stack(struct view **);
int		 view_push(const struct view_ops *, const void *, char **);
void		 view_pop(void);
struct view	*view_top(void);
int		 view_body_lines(void);
void		 view_draw(struct view *, int);

/* tabs.c */
int		 tabs_count(void);
const struct view_ops *tabs_ops(int);
int		 tabs_current(void);
bool		 tabs_available(int);
int		 tabs_switch(enum action);
int		 tabs_key(int);
void		 tabs_close_all(void);
void		 tabs_reopen(int);
void		 tabs_resize(void);

/* prompt.c */
bool		 prompt_active(void);
void		 prompt_draw(void);
int		 prompt_key(int);
void		 prompt_on_change(void (*)(void *, const char *));
void		 prompt_start(const char *, const char *,
		     void (*)(void *, const char *), void *);
void		 prompt_step(const char *, int64_t,
		     void (*)(void *, const char *), void *);
int		 prompt_step_parse(const char *, int64_t *);

/*
 * view-table.c: the table views, one line each. VIEW_TABLE_<E> indexes its
 * ops in view_table_ops; then come its name, its title and the store
 * tables it shows (the first the store has). AA Core metrics is no tab: a
 * opens it over the current one.
 */
#define VIEW_TABLES(X)							\
	X(OP_STAT, "op_statistic", "Op statistic", "op_statistic")	\
	X(API_STAT, "api_statistic", "API statistic", "api_statistic")	\
	X(KERNELS, "kernels", "Kernels", "op_summary")			\
	X(STEPS, "steps", "Steps", "step_trace")			\
	X(MEMORY, "memory", "Memory",					\
	    "memory_record npu_mem npu_module_mem operator_memory")	\
	X(MARKERS, "markers", "Markers", "msprof_tx")			\
	X(AA_CORE, "aa_core_metrics", "AA Core metrics", "aa_core_metrics")

#define VIEW_TABLE_ENUM(e, nm, ti, tb)	VIEW_TABLE_##e,
enum view_table_kind {
	VIEW_TABLES(VIEW_TABLE_ENUM)
	VIEW_TABLE_COUNT
};
#undef VIEW_TABLE_ENUM

extern const struct view_ops view_table_ops[VIEW_TABLE_COUNT];

/* A table view's state, shared by view-table*.c and view-jump.c. */
/* Epoch instants from here on (ns): about 1970-01-12, past any duration. */
#define VIEW_TABLE_EPOCH	INT64_C(1000000000000000)

struct view_table {
	const struct store_table *t;
	const struct store_table *base;	/* t without a step */
	int64_t			 step;		/* NP_NA: every step */
	struct store_window	 win;		/* the step's */
	struct store_page	*pager;
	struct store_rows	*page;		/* rows around the screen */
	int64_t			 page_off;
	int64_t			 total;		/* -1 until known */
	int64_t			 cur;
	int64_t			 top;
	size_t			 col0;		/* first column shown */
	int			 key;		/* column kept in view, or -1 */
	size_t			 ncols;
	char			**names;
	int			*widths;
	bool			*numeric;
	bool			*hidden;	/* left out of the screen */
	bool			*instant;	/* starts, ends: relative */
	bool			*scaled;	/* us, ms, s: magnitudes mix */
	int64_t			*lo;		/* durations seen: the least */
	int64_t			*hi;		/* above zero, the greatest */
	int			*intw;		/* numbers: integer part, */
	int			*fracw;		/* decimals, widest */
	int64_t			 origin;	/* trace start, or NP_NA */
	int			 sort_col;	/* -1: the table's order */
	bool			 sort_desc;
	char			*sort;
	char			*filter;
	char			*filter_bad;	/* the last one refused */
	char			*saved;		/* the last file P named */
	char			*search;
	struct matcher		*search_m;	/* its matches stand out */
	int64_t			*hits;		/* rows matching it, counted */
	size_t			 nhits;		/* in the background */
	size_t			 ahits;
	int64_t			 hits_next;	/* the next row to look at */
	bool			 hits_done;
	bool			 search_back;
	bool			 search_wait;	/* resume when the scan ends */
	bool			 busy;		/* a scan runs for the pager */
	int64_t			 found;		/* rows it found so far */
	double			 t0;		/* when it started */
};

int		 view_table_sort(struct view_table *, int, bool);
bool		 view_table_shown(const struct view_table *, size_t);

/* view-columns.c */
extern const struct view_ops view_columns_ops;

/* view-table-page.c */
const struct store_table *view_table_page_find(const char *);
int64_t		 view_table_page_height(void);
void		 view_table_page_query(struct view_table *,
		     struct store_query *);
int		 view_table_page_fill(struct view_table *, bool, char **);
const struct store_rows *view_table_page_row(struct view_table *, int64_t,
		     size_t *);
int		 view_table_page_reload(struct view_table *, char **);
void		 view_table_page_free(struct view_table *);
void		 view_table_page_goto(struct view_table *, int64_t);
const char	*view_table_page_header(const struct view_table *, size_t,
		     char *, size_t);
const char	*view_table_page_text(const struct view_table *,
		     const struct store_rows *, size_t, size_t, char *);
bool		 view_table_page_match(struct matcher *,
		     const struct store_rows *, size_t, size_t, const char *);
int		 view_table_page_draw_cell(const struct view_table *, size_t,
		     int, int, int, enum role, const char *);

/* view-table-step.c */
int		 view_table_step_key(struct view_table *);
void		 view_table_step_query(const struct view_table *,
		     struct store_query *);

/* view-table-find.c */
int		 view_table_find_search_key(struct view_table *, enum action);
void		 view_table_find_search_resume(struct view_table *);
void		 view_table_find_hits_reset(struct view_table *);
bool		 view_table_find_hits_tick(struct view_table *);
void		 view_table_find_hits_status(const struct view_table *,
		     char *, size_t);
int		 view_table_find_save_key(struct view_table *);

/* view-summary.c */
extern const struct view_ops view_summary_ops;
extern const struct view_ops view_cluster_ops;

/* view-advice.c */
extern const struct view_ops view_advice_ops;
extern const struct view_ops view_compare_ops;

/* view-detail.c */
extern const struct view_ops view_detail_ops;
struct view_detail_arg {
	const char		*table;
	const struct store_rows	*rows;
	size_t			 row;
	const struct store_window *win;	/* the table's step, or NULL */
};

/* view-device.c */
extern const struct view_ops view_device_ops;
extern const struct view_ops view_rank_ops;

/* view-sort.c: the sort menu of a table view (its argument). */
extern const struct view_ops view_sort_ops;

/* view-flame.c */
enum flame_mode {
	FLAME_ICICLE,
	FLAME_TOP_DOWN,
	FLAME_BOTTOM_UP,
	FLAME_SANDWICH,
	FLAME_NMODES
};

/* One line of a tree mode: a frame at a depth, or a heading. */
struct flame_line {
	const struct store_frame *f;		/* NULL: a heading */
	const char		*heading;
	int			 depth;
	bool			 outward;	/* callers: no self time */
};

struct view_flame {
	struct store_stacks_opts o;
	struct store_stacks_opts old;		/* before the job's */
	struct store_stacks_job	*job;		/* a tree being built */
	bool			 cycling;	/* c: on to the next source */
	char			*cycle_why;	/* why the first one failed */
	double			 t0;		/* when it started */
	char			*error;		/* why there is no tree */
	struct store_stacks	*st;		/* NULL until built */
	struct store_stacks	*base;		/* --compare: the base's */
	struct store_stacks	*inv;		/* bottom-up, when asked */
	struct store_stacks	*callers;	/* the sandwich of ... */
	struct store_stacks	*callees;
	char			*sandwich;	/* ... this frame name */
	enum flame_mode		 mode;
	struct store_frame	*root;		/* zoomed into */
	struct store_frame	**zooms;
	size_t			 nzooms;
	struct store_frame	*sel;
	int			 depth0;	/* first depth drawn */
	struct flame_line	*lines;
	size_t			 nlines;
	size_t			 cur;
	size_t			 top;
	struct matcher		*m;
	char			*search;
	int64_t			 hit;		/* time the matches cover */
	int64_t			 nhit;
	int64_t			 origin;	/* trace start, for a range */
};
extern const struct view_ops view_flame_ops;

/* view-flame-draw.c */
typedef void	(*flame_place_cb)(struct view_flame *,
		     const struct store_frame *, int, int, int, void *);
void		 view_flame_draw_layout(struct view_flame *, int,
		     flame_place_cb,
		     void *);
void		 view_flame_draw(struct view *, int, int);
int		 view_flame_draw_rows(int);
const struct store_frame *view_flame_base(const struct view_flame *,
		     const struct store_frame *);

/* view-help.c */
extern const struct view_ops view_help_ops;

/* view-timeline.c: its state, shared with view-timeline-*.c */
#define VIEW_TL_UNDO	64
#define VIEW_TL_MINSPAN	16	/* narrowest frame, ns */

/*
 * What n and N call in a timeline opened on an op type (view-jump.c
 * passes it): put the next or previous instance in the span. Return 1, or
 * 0 with the reason on the status line.
 */
typedef int	(*view_timeline_step_cb)(enum store_span_dir,
		     struct store_span *);

struct view_tl_frame {
	int64_t		 t0;
	int64_t		 t1;
	int64_t		 cursor;
};

/* A row on screen: lane LANE, or the collapsed group of lane LANE. */
struct view_tl_item {
	size_t		 lane;
	bool		 group;		/* a collapsed group */
	bool		 header;	/* the header of an expanded group */
	size_t		 nlanes;	/* in the group */
};

struct view_tl_row {
	struct store_cell	*cells;
	struct store_span	*spans;		/* NULL unless zoomed in */
	size_t			 nspans;
};

struct view_tl {
	struct store_lane	*lanes;
	size_t			 nlanes;
	size_t			 cur;		/* row of the cursor */
	size_t			 top;		/* first row shown */
	int64_t			 lo;		/* extent of every lane */
	int64_t			 hi;
	int64_t			 fit0;		/* extent of spans and tasks */
	int64_t			 fit1;
	struct view_tl_frame	 f;
	struct view_tl_frame	 undo[VIEW_TL_UNDO];
	size_t			 nundo;
	int64_t			 mark;		/* NP_NA if none */
	int			 w;		/* cells across */
	struct view_tl_row	*rows;		/* by row, filled when shown */
	struct store_span	 sel;		/* span at the cursor */
	bool			 has_sel;
	struct store_rows	*detail;
	struct view_tl_item	*items;		/* the rows, nitems */
	size_t			 nitems;
	char			**collapsed;	/* group names */
	size_t			 ncollapsed;
	struct matcher		*hide;
	char			*hide_re;
	int			 namew;
	int			 namew_want;	/* as chosen (< and >) */
	int64_t			 sel0;		/* selected range, or NP_NA */
	int64_t			 sel1;
	int64_t			 drag;		/* a press's time, or NP_NA */
	int			 dragx;
	view_timeline_step_cb	 step;		/* n, N walk an op type */
	struct matcher		*search;	/* / on task names */
	char			*search_re;
	bool			 searching;	/* n, N repeat the search */
	int64_t			*off;		/* per lane: shift, or NULL */
	int64_t			 align;		/* the step lined up, or NP_NA */
	bool			 pending;	/* its tables being built */
	double			 t0;		/* since when */
	char			*error;		/* why there is no timeline */
};

struct view_timeline_arg {
	const struct store_span	*span;		/* to show, selected */
	view_timeline_step_cb	 step;		/* n, N walk its op type */
	bool			 fit;		/* frame the span itself */
	int64_t			 cursor;	/* in the frame, or NP_NA */
};
extern const struct view_ops view_timeline_ops;
int		 view_timeline_ready(double *, char **);
void		 view_timeline_fill(struct view_tl *);
void		 view_timeline_focus(struct view_tl *,
		     const struct store_span *);

/* view-timeline-counter.c */
void		 view_timeline_counter_footer(struct view_tl *,
		     const struct store_lane *, int);
int		 view_timeline_counter_peak(struct view_tl *);

/* view-timeline-align.c */
/* Under --compare the base run's lanes follow NEW's, their ids this more. */
#define VIEW_TL_BASE	(INT64_C(1) << 48)
struct store	*view_timeline_store(int64_t, int64_t *);
void		 view_timeline_span_in(struct store *, struct store_span *);
struct store_lane view_timeline_lane_in(const struct store_lane *,
		     struct store **);
int		 view_timeline_align_runs(struct view_tl *);
int64_t		 view_timeline_align_at(const struct view_tl *, size_t);
int64_t		 view_timeline_align_of(const struct view_tl *, int64_t);
void		 view_timeline_align_extent(struct view_tl *);
int		 view_timeline_align_key(struct view_tl *);

/* view-timeline-search.c */
int		 view_timeline_search_key(struct view_tl *, enum action);

/* view-timeline-range.c */
void		 view_timeline_range_set(struct view_tl *, int64_t, int64_t,
		     bool);
void		 view_timeline_range_zoom(struct view_tl *, int64_t, int64_t,
		     int64_t);
int		 view_timeline_range_mouse(struct view_tl *);
int		 view_timeline_range_key(struct view_tl *, enum action);

/* view-timeline-lanes.c */
const struct store_lane *view_timeline_lanes_lane_at(const struct view_tl *);
size_t		 view_timeline_lanes_height(void);
bool		 view_timeline_lanes_hidden(const struct view_tl *,
		     const struct store_lane *);
void		 view_timeline_lanes_items(struct view_tl *);
void		 view_timeline_lanes_to_lane(struct view_tl *, int64_t);
void		 view_timeline_lanes_group(struct view_tl *,
		     const struct view_tl_item *, struct store_cell *);
bool		 view_timeline_lanes_hide(struct view_tl *, const char *);
void		 view_timeline_lanes_collapse(struct view_tl *);

/* view-jump.c */
int		 view_jump_task_id(int64_t);
int		 view_jump_key(struct view_table *);

/* view-window.c */
extern const struct view_ops view_window_ops;

/* text.c */
struct text;
struct text	*text_create(void);
void		 text_free(struct text *);
void		 text_add(struct text *, enum role, int, const char *);
void		 text_addf(struct text *, enum role, int, const char *, ...)
		     PRINTFLIKE(4, 5);
#define TEXT_STACK	3	/* parts of a stacked bar */
void		 text_add_stack(struct text *, int, const char *,
		     const double *, const char *);
void		 text_add_bar(struct text *, int, const char *, double,
		     const char *);
void		 text_add_lines(struct text *, int, const char *,
		     const enum role *, size_t, enum role);
void		 text_add_cells(struct text *, int, const char *,
		     const char *const *, const enum role *, size_t);
void		 text_close(struct view *);
void		 text_draw(struct view *, int, int);
int		 text_key(struct view *, enum action, int);
size_t		 text_lines(struct text *);
void		 text_set_id(struct text *, int64_t);
void		 text_set_freeze(struct text *, size_t);
bool		 text_at(const struct text *, int, int, size_t *, size_t *);
void		 text_keep_place(struct text *, const struct text *);
int64_t		 text_cur_id(const struct text *);
void		 text_goto_id(struct text *, int64_t);

#endif /* UI_INT_H */
