/*
 * The UI's start, stop and main loop. This is the only file that starts and
 * ends curses and calls doupdate(): views change state in their key
 * handlers and the loop repaints at most once per key. A replay file
 * (NPUPROF_KEYS) feeds keys instead of the terminal and reports how long
 * each took, so the UI's speed can be measured without a person.
 */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

#define UI_MIN_COLS	40
#define UI_MIN_LINES	8

struct ui_replay {
	FILE	*f;
	char	*pending;	/* the rest of a "type TEXT" line */
	size_t	 at;
	double	*ms;		/* until the answer is on screen */
	double	*done;		/* until background work ended, or 0 */
	char	**names;
	size_t	 n;
	double	 first;
};

static const struct ui_opts	*ui_o;
static struct ui_config		 ui_cfg;
static bool			 ui_started;
static bool			 ui_quit;
static volatile sig_atomic_t	 ui_sigint;

static void	 ui_on_sigint(int);
static struct ui_replay		 ui_rp;
static char			 ui_busy[64];	/* as last drawn */
static bool			 ui_msg_above;	/* a message over the view */

/* The clock main.c times the launch with, as the UI times itself. */
double
ui_now(void)
{
	return util_now();
}

/*
 * The store in use: S of ui_run() unless a re-import replaced it. It stays
 * the caller's, after ui_run() too.
 */
struct store *
ui_store(void)
{
	return session_base();
}

/* The shutdown hook: leave curses so a fatal message is readable. */
static void
ui_stop(void)
{
	if (!ui_started)
		return;
	ui_started = false;
	endwin();
}

/* The terminal too small: a clear message instead of a broken screen. */
static bool
ui_too_small(void)
{
	if (COLS >= UI_MIN_COLS && LINES >= UI_MIN_LINES)
		return false;
	erase();
	mvprintw(0, 0, "terminal too small");
	mvprintw(1, 0, "need %dx%d", UI_MIN_COLS, UI_MIN_LINES);
	mvprintw(2, 0, "have %dx%d", COLS, LINES);
	wnoutrefresh(stdscr);
	return true;
}

/* The device and rank shown, for the tab bar. */
static void
ui_device_label(char *buf, size_t len)
{
	int64_t	 dev = session_device(), rank = session_rank();
	char	 d[24], r[24];

	if (dev == NP_HOST_DEVICE)
		snprintf(d, sizeof d, "host");
	else if (dev != NP_NA)
		snprintf(d, sizeof d, "%lld", (long long)dev);
	else
		snprintf(d, sizeof d, "all");
	if (rank != NP_NA)
		snprintf(r, sizeof r, "%lld", (long long)rank);
	else
		snprintf(r, sizeof r, "all");
	snprintf(buf, len, "device %s rank %s", d, r);
}

/*
 * The tab bar on the first line: the views with data, then the device and
 * rank shown. When the titles do not fit, or they leave no room for a
 * device or rank that is chosen (not "all"), the other tabs show their
 * numbers only, so the active one is always named and a choice that
 * hides rows stays in sight.
 */
static void
ui_draw_tabs(void)
{
	char	 dev[64];
	int	 i, x = 0, w, full = 0;
	bool	 narrow;

	draw_fill(0, 0, COLS, ROLE_TAB);
	ui_device_label(dev, sizeof dev);
	w = draw_width(dev);
	for (i = 0; i < tabs_count(); i++) {
		if (tabs_available(i))
			full += draw_width(tabs_ops(i)->title) + 4;
	}
	narrow = full > COLS || (full + w + 1 >= COLS &&
	    (session_device() != NP_NA || session_rank() != NP_NA));
	for (i = 0; i < tabs_count(); i++) {
		if (!tabs_available(i))
			continue;
		if (narrow && i != tabs_current())
			x += draw_textf(0, x, COLS - x, ROLE_TAB, " %c",
			    tabs_key(i));
		else
			x += draw_textf(0, x, COLS - x, i == tabs_current() ?
			    ROLE_TAB_ACTIVE : ROLE_TAB, " %c %s ",
			    tabs_key(i), tabs_ops(i)->title);
	}
	if (x + w + 1 < COLS)
		draw_text(0, COLS - w - 1, w, ROLE_TAB, dev);
}

/*
 * The key bar at the right of the status line, from column X on: the
 * view's main keys, as many as fit whole, the first ones first.
 */
static void
ui_draw_bar(const struct view *v, int x)
{
	char	 bar[256], *cut, *last;
	int	 w;

	keys_bar(v, bar, sizeof bar);
	while ((w = draw_width(bar)) > 0 && x + 2 + w + 1 > COLS) {
		last = NULL;
		for (cut = bar; (cut = strstr(cut, "  ")) != NULL; cut++)
			last = cut;
		if (last == NULL)
			return;
		*last = '\0';
	}
	if (w > 0)
		draw_text(LINES - 1, COLS - w - 1, w, ROLE_STATUS, bar);
}

/*
 * What the store's background build is doing, for the status line: the
 * index of its default order, then its timeline's tables (its other
 * indexes build beside them); "" when none runs, or before it
 * has run for a second (most builds are done by then). Whole seconds, so
 * that it changes once a second.
 */
static void
ui_busy_text(char *buf, size_t size)
{
	double	 secs = 0;
	int	 busy;

	busy = store_timeline_state(session_store(), &secs);
	if (busy == STORE_BUSY_NONE || secs < 1)
		buf[0] = '\0';
	else
		snprintf(buf, size, "[building %s %.0fs]", busy ==
		    STORE_BUSY_TIMELINE ? "timeline" : "indexes", secs);
}

/*
 * Draw MSG in ROLE on the lines above the status line, wrapped at spaces
 * to the screen's width: as many lines as it takes, up to three (the
 * third cut at the screen's edge if need be; one on a short screen).
 */
static void
ui_draw_msg_above(const char *msg, enum role role)
{
	const char	*at[3];
	char		*line;
	size_t		 len[3], b, k;
	int		 n = 0, i, max = LINES - UI_MIN_LINES > 3 ? 3 : 1;

	while (*msg != '\0' && n < max) {
		util_width(msg, (size_t)COLS, &b, draw_utf8());
		if (msg[b] != '\0' && n + 1 < max) {
			for (k = b; k > 0 && msg[k] != ' '; k--)
				;
			if (k > 0)
				b = k;
		}
		at[n] = msg;
		len[n] = n + 1 < max || msg[b] == '\0' ? b : strlen(msg);
		n++;
		for (msg += b; *msg == ' '; msg++)
			;
	}
	for (i = 0; i < n; i++) {
		line = xstrndup(at[i], len[i]);
		draw_fill(LINES - 1 - n + i, 0, COLS, role);
		draw_text(LINES - 1 - n + i, 0, COLS, role, line);
		free(line);
	}
}

/* The status line: the view's state, the message if any, the key bar. */
static void
ui_draw_status(void)
{
	struct view	*v = view_top();
	const char	*msg;
	enum role	 role;
	char		 buf[512];
	int		 x;

	if (prompt_active()) {
		prompt_draw();
		return;
	}
	buf[0] = '\0';
	if (v != NULL && v->ops->status != NULL)
		v->ops->status(v, buf, sizeof buf);
	else if (v != NULL)
		snprintf(buf, sizeof buf, " %s", v->ops->title);
	draw_fill(LINES - 1, 0, COLS, ROLE_STATUS);
	x = draw_text(LINES - 1, 0, COLS, ROLE_STATUS, buf);
	/*
	 * A message that does not fit after the view's status (an error,
	 * an answer to a key) goes whole on the line above, over the view
	 * until the next key, which draws the view again: both are to be
	 * read.
	 */
	ui_msg_above = false;
	if ((msg = status_get(&role)) != NULL && (x + 2 >= COLS ||
	    draw_width(msg) > COLS - x - 2) && LINES > UI_MIN_LINES) {
		ui_draw_msg_above(msg, role);
		ui_msg_above = true;
	} else if (msg != NULL && x + 2 < COLS)
		x += 2 + draw_text(LINES - 1, x + 2, COLS - x - 2, role, msg);
	ui_busy_text(ui_busy, sizeof ui_busy);
	if (ui_busy[0] != '\0' && x + 2 < COLS)
		x += 2 + draw_text(LINES - 1, x + 2, COLS - x - 2, ROLE_DIM,
		    ui_busy);
	if (v != NULL)
		ui_draw_bar(v, x);
}

static void
ui_draw(int redraw)
{
	enum role	 role;

	if (ui_too_small())
		return;
	/* The view under a message drawn over it, once the message goes. */
	if (ui_msg_above && status_get(&role) == NULL)
		redraw |= REDRAW_BODY;
	if (redraw & REDRAW_BODY) {
		erase();
		ui_draw_tabs();
		view_draw(view_top(), redraw);
	}
	ui_draw_status();
	wnoutrefresh(stdscr);
}

/*
 * Check every line of the replay file PATH, open in ui_rp.f, before the
 * UI starts: a key name that is none is an error naming its line, not a
 * key left out of the measurement.
 */
static int
ui_replay_check(const char *path, char **cause)
{
	char	 line[256];
	size_t	 len;
	int	 n = 0;

	while (fgets(line, sizeof line, ui_rp.f) != NULL) {
		n++;
		len = strcspn(line, "\r\n");
		line[len] = '\0';
		if (len == 0 || line[0] == '#' || (strncmp(line, "type ",
		    5) == 0 && line[5] != '\0') || keys_parse(line) >= 0)
			continue;
		xasprintf(cause, "%s:%d: unknown key '%s'", path, n, line);
		return -1;
	}
	rewind(ui_rp.f);
	return 0;
}

/* Read the next key of the replay file; at its end, quit. */
static int
ui_replay_key(void)
{
	char	 line[256];
	size_t	 len;
	int	 key;

	if (ui_rp.pending != NULL) {
		key = (unsigned char)ui_rp.pending[ui_rp.at++];
		if (ui_rp.pending[ui_rp.at] == '\0') {
			free(ui_rp.pending);
			ui_rp.pending = NULL;
		}
		return key;
	}
	while (fgets(line, sizeof line, ui_rp.f) != NULL) {
		len = strcspn(line, "\r\n");
		line[len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (strncmp(line, "type ", 5) == 0 && line[5] != '\0') {
			/* Typed text counts as one key, timed at its end. */
			ui_rp.pending = xstrdup(line + 6);
			ui_rp.at = 0;
			if (ui_rp.pending[0] == '\0') {
				free(ui_rp.pending);
				ui_rp.pending = NULL;
			}
			key = (unsigned char)line[5];
		} else if ((key = keys_parse(line)) < 0)
			continue;
		ui_rp.names = xreallocarray(ui_rp.names, ui_rp.n + 1,
		    sizeof *ui_rp.names);
		ui_rp.ms = xreallocarray(ui_rp.ms, ui_rp.n + 1,
		    sizeof *ui_rp.ms);
		ui_rp.done = xreallocarray(ui_rp.done, ui_rp.n + 1,
		    sizeof *ui_rp.done);
		ui_rp.names[ui_rp.n] = xstrdup(line);
		ui_rp.ms[ui_rp.n] = 0;
		ui_rp.done[ui_rp.n] = 0;
		ui_rp.n++;
		return key;
	}
	ui_quit = true;
	return ERR;
}

static int
ui_replay_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Print the replay's figures to stderr, after curses has ended. */
static void
ui_replay_report(void)
{
	double	*sorted;
	size_t	 i;

	fprintf(stderr, "first-screen-ms %.1f\n", ui_rp.first);
	for (i = 0; i < ui_rp.n; i++) {
		if (ui_rp.done[i] > 0)
			fprintf(stderr, "key %s %.2f done-ms %.2f\n",
			    ui_rp.names[i], ui_rp.ms[i], ui_rp.done[i]);
		else
			fprintf(stderr, "key %s %.2f\n", ui_rp.names[i],
			    ui_rp.ms[i]);
	}
	if (ui_rp.n > 0) {
		sorted = xreallocarray(NULL, ui_rp.n, sizeof *sorted);
		memcpy(sorted, ui_rp.ms, ui_rp.n * sizeof *sorted);
		qsort(sorted, ui_rp.n, sizeof *sorted, ui_replay_cmp);
		fprintf(stderr, "keys %zu p50-ms %.2f p99-ms %.2f "
		    "max-ms %.2f\n", ui_rp.n, sorted[ui_rp.n / 2],
		    sorted[(ui_rp.n * 99) / 100 < ui_rp.n ?
		    (ui_rp.n * 99) / 100 : ui_rp.n - 1], sorted[ui_rp.n - 1]);
		free(sorted);
	}
	for (i = 0; i < ui_rp.n; i++)
		free(ui_rp.names[i]);
	free(ui_rp.names);
	free(ui_rp.ms);
	free(ui_rp.done);
	fclose(ui_rp.f);
}

/*
 * The rest of a CSI sequence after ESC [ that the terminal's description
 * does not know (tmux sends Home as ESC [ 1 ~ under TERM=xterm-256color,
 * Alt-Up as ESC [ 1 ; 3 A under TERM=screen), read whole so its digits do
 * not switch views: the key it stands for, or ERR.
 */
static int
ui_getkey_seq(void)
{
	static const struct {
		const char	*seq;
		int		 key;
	} known[] = {
		{ "1~", KEY_HOME }, { "7~", KEY_HOME }, { "H", KEY_HOME },
		{ "4~", KEY_END }, { "8~", KEY_END }, { "F", KEY_END },
		{ "5~", KEY_PPAGE }, { "6~", KEY_NPAGE }, { "3~", KEY_DC },
		{ "A", KEY_UP }, { "B", KEY_DOWN }, { "C", KEY_RIGHT },
		{ "D", KEY_LEFT },
		/* With Alt (xterm's modifier 3). */
		{ "1;3A", KEY_UP | KEYS_ALT }, { "1;3B", KEY_DOWN | KEYS_ALT },
		{ "1;3C", KEY_RIGHT | KEYS_ALT },
		{ "1;3D", KEY_LEFT | KEYS_ALT },
		{ "1;3H", KEY_HOME | KEYS_ALT }, { "1;3F", KEY_END | KEYS_ALT },
		{ "5;3~", KEY_PPAGE | KEYS_ALT },
		{ "6;3~", KEY_NPAGE | KEYS_ALT }, { "3;3~", KEY_DC | KEYS_ALT }
	};
	char	 seq[16];
	size_t	 n = 0, i;
	int	 c;

	while ((c = getch()) != ERR && n + 1 < sizeof seq) {
		seq[n++] = (char)c;
		if (c >= 0x40 && c <= 0x7e)
			break;
	}
	seq[n] = '\0';
	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (strcmp(seq, known[i].seq) == 0)
			return known[i].key;
	}
	return ERR;
}

/*
 * After an Esc: what follows at once. Esc itself when nothing does, a
 * CSI sequence's key, or Alt with the key that does (Alt-x is sent as
 * Esc x): not an Esc that closes a view, then x. Esc Esc [ is Alt with
 * a CSI key (rxvt's Alt-Right); Esc Esc otherwise is two Escs.
 */
static int
ui_getkey_csi(void)
{
	int	 c, key;

	timeout(0);
	if ((c = getch()) == ERR)
		return 0x1b;
	/* A curses key (a resize, say) is its own, after the Esc. */
	if (c > 0xff) {
		ungetch(c);
		return 0x1b;
	}
	if (c == 0x1b) {
		if ((c = getch()) == '[')
			return (key = ui_getkey_seq()) == ERR ? ERR :
			    key | KEYS_ALT;
		/* Read next: the second Esc, then what came after it. */
		if (c != ERR)
			ungetch(c);
		ungetch(0x1b);
		return 0x1b;
	}
	if (c != '[')
		return c | KEYS_ALT;
	return ui_getkey_seq();
}

/*
 * Alt with a cursor key as the terminal's description names it (kUP3,
 * xterm's Alt-Up): curses returns a code of its own for each, found here
 * once the terminal is set up.
 */
static struct {
	const char	*cap;
	int		 key;
	int		 code;
} ui_alt_caps[] = {
	{ "kUP3", KEY_UP, 0 }, { "kDN3", KEY_DOWN, 0 },
	{ "kLFT3", KEY_LEFT, 0 }, { "kRIT3", KEY_RIGHT, 0 },
	{ "kHOM3", KEY_HOME, 0 }, { "kEND3", KEY_END, 0 },
	{ "kPRV3", KEY_PPAGE, 0 }, { "kNXT3", KEY_NPAGE, 0 },
	{ "kDC3", KEY_DC, 0 }
};

static void
ui_alt_caps_init(void)
{
	char	*s;
	size_t	 i;

	for (i = 0; i < sizeof ui_alt_caps / sizeof ui_alt_caps[0]; i++) {
		s = tigetstr(ui_alt_caps[i].cap);
		ui_alt_caps[i].code = s != NULL && s != (char *)-1 ?
		    key_defined(s) : 0;
	}
}

/* KEY, or Alt with the cursor key it is curses' code for. */
static int
ui_alt_cap(int key)
{
	size_t	 i;

	for (i = 0; key > 0xff && i < sizeof ui_alt_caps /
	    sizeof ui_alt_caps[0]; i++) {
		if (ui_alt_caps[i].code > 0 && key == ui_alt_caps[i].code)
			return ui_alt_caps[i].key | KEYS_ALT;
	}
	return key;
}

/* The next key: from the replay file or the terminal. */
static int
ui_getkey(void)
{
	int	 key;

	if (ui_rp.f != NULL)
		return ui_replay_key();
	/* A Ctrl-C while the screen was drawn: no read to interrupt. */
	if (ui_sigint)
		return ERR;
	do {
		errno = 0;
		key = getch();
	} while (key == ERR && errno == EINTR && !ui_sigint);
	if (key == KEY_MOUSE && mouse_read() != OK)
		return ERR;
	if (key == 0x1b)
		return ui_getkey_csi();
	return ui_alt_cap(key);
}

/*
 * Re-import through main.c's callback: curses steps aside so the import
 * can print its progress, every view closes (their table specs belong to
 * the old store), and the tab shown reopens on the new store (the first
 * tab if it has no data now). On failure the old store stays.
 */
static int
ui_reimport(void)
{
	struct store	*ns;
	char		*cause = NULL;
	int		 tab = tabs_current();
	int64_t		 was = session_rank();

	if (ui_o->reimport == NULL) {
		status_set(ROLE_ERROR, "re-import is not possible here");
		return REDRAW_STATUS;
	}
	tabs_close_all();
	def_prog_mode();
	endwin();
	ns = ui_o->reimport(ui_o->reimport_arg, session_base(), &cause);
	/* The import set its own Ctrl-C handler; the UI's comes back. */
	util_catch_signal(SIGINT, ui_on_sigint);
	reset_prog_mode();
	clearok(curscr, TRUE);
	if (ns == NULL) {
		status_set(ROLE_ERROR, "%s", cause);
		free(cause);
	} else if (ns == session_base())
		status_set(ROLE_NORMAL, "nothing changed since the import: "
		    "the store is as it was");
	else {
		session_set_store(ns);
		if (session_rank() == was)
			status_set(ROLE_NORMAL, "re-imported");
		else
			status_set(ROLE_ERROR, "re-imported; rank %lld has no "
			    "store now, all ranks are shown", (long long)was);
	}
	tabs_reopen(tab);
	return REDRAW_ALL;
}

/*
 * Handle a global action A of KEY that view V left alone. A key that is
 * none of V's, or Enter where V opens nothing, says so: the keys most
 * views share (/, \, S, s, t) do nothing in the Summary or Advice.
 */
static int
ui_global(struct view *v, enum action a, int key)
{
	const struct view_ops	*chooser;
	char			 name[32];

	switch (a) {
	case ACTION_QUIT:
		ui_quit = true;
		return REDRAW_NONE;
	case ACTION_HELP:
		return view_push(&view_help_ops, NULL, NULL) == 0 ?
		    REDRAW_ALL : REDRAW_STATUS;
	case ACTION_REDRAW:
		clearok(curscr, TRUE);
		return REDRAW_ALL;
	case ACTION_REIMPORT:
		return ui_reimport();
	case ACTION_DEVICE:
	case ACTION_RANK:
		chooser = a == ACTION_DEVICE ? &view_device_ops :
		    &view_rank_ops;
		/* Not a chooser over the same chooser: it is open. */
		if (v->ops == chooser)
			return REDRAW_NONE;
		return view_push(chooser, NULL, NULL) == 0 ? REDRAW_ALL :
		    REDRAW_STATUS;
	case ACTION_AA_CORE:
		return view_push(&view_table_ops[VIEW_TABLE_AA_CORE], NULL,
		    NULL) == 0 ? REDRAW_ALL : REDRAW_STATUS;
	case ACTION_NEXT_VIEW:
	case ACTION_PREV_VIEW:
	case ACTION_VIEW_1:
	case ACTION_VIEW_2:
	case ACTION_VIEW_3:
	case ACTION_VIEW_4:
	case ACTION_VIEW_5:
	case ACTION_VIEW_6:
	case ACTION_VIEW_7:
	case ACTION_VIEW_8:
	case ACTION_VIEW_9:
	case ACTION_VIEW_0:
	case ACTION_VIEW_ADVICE:
		return tabs_switch(a);
	case ACTION_NONE:
	case ACTION_OPEN:
		if (key == ERR || key == KEY_MOUSE || key < 0)
			return REDRAW_NONE;
		keys_name(key, name, sizeof name);
		/* A key without a name (0x14b): not worth a word. */
		if (strstr(name, "0x") != NULL)
			return REDRAW_NONE;
		status_set(ROLE_NORMAL, "%s does nothing in the %s view%s",
		    name, v->ops->title, v->ops == &view_help_ops ? "" :
		    " (? lists its keys)");
		return REDRAW_STATUS;
	default:
		return REDRAW_NONE;
	}
}

/*
 * One key: the prompt takes it if open; else the view's map, then the
 * global map, turn it into an action the view may handle (its handler
 * returns -1 for actions it leaves to the UI).
 */
static int
ui_key(int key)
{
	struct view	*v = view_top();
	enum action	 a;
	int		 redraw;

	if (key == KEY_RESIZE) {
		tabs_resize();
		return REDRAW_ALL;
	}
	if (prompt_active()) {
		/*
		 * Esc then a key typed at once: the Esc cancels, the key goes
		 * to the view, as two keys would.
		 */
		if ((key & KEYS_ALT) != 0) {
			redraw = prompt_key(0x1b);
			return redraw | ui_key(key & ~KEYS_ALT);
		}
		return prompt_key(key);
	}
	status_clear();
	if (COLS < UI_MIN_COLS || LINES < UI_MIN_LINES) {
		if (keys_global(key) == ACTION_QUIT)
			ui_quit = true;
		return REDRAW_ALL;
	}
	if ((a = keys_lookup(v->ops->keymap, key)) == ACTION_NONE)
		a = keys_global(key);
	if ((redraw = v->ops->key(v, a, key)) < 0) {
		if (a == ACTION_CLOSE && v->below == NULL && key == 0x1b) {
			/*
			 * Esc closes what was opened over a view, never the
			 * program: a stray Esc, or Alt-x sent as Esc x, must
			 * not quit.
			 */
			status_set(ROLE_NORMAL, "nothing to close: q or Q "
			    "quits");
			redraw = REDRAW_STATUS;
		} else if (a == ACTION_CLOSE) {
			if (v->below == NULL)
				ui_quit = true;
			else
				view_pop();
			redraw = REDRAW_ALL;
		} else
			redraw = ui_global(v, a, key);
	}
	return redraw | REDRAW_STATUS;
}

/* Let the top view pick up its background work's progress. */
static enum view_work
ui_tick(int *redraw)
{
	struct view	*v = view_top();
	enum view_work	 w = WORK_IDLE;
	char		 busy[sizeof ui_busy];

	/* The background build's word on the status line, as it changes. */
	ui_busy_text(busy, sizeof busy);
	if (strcmp(busy, ui_busy) != 0)
		*redraw |= REDRAW_STATUS;

	if (v != NULL && v->ops->tick != NULL)
		*redraw |= v->ops->tick(v, &w);
	return w;
}

/*
 * Replay: a key's time runs until its answer is on screen (a sort's or
 * filter's first page); then its background work is waited for, and
 * timed too, before the next key, so each key is timed alone. Return
 * true while there is work to wait for.
 */
static bool
ui_replay_wait(double t, enum view_work w, bool *answered, bool *worked)
{
	double	 ms = (ui_now() - t) * 1000;

	if (!*answered && w != WORK_WAIT) {
		ui_rp.ms[ui_rp.n - 1] = ms;
		*answered = true;
	}
	if (w != WORK_IDLE) {
		*worked = true;
		napms(5);
		return true;
	}
	if (*worked)
		ui_rp.done[ui_rp.n - 1] = ms;
	return false;
}

/* Ctrl-C: leave the loop; ui_run() restores the terminal first. */
static void
ui_on_sigint(int sig)
{
	(void)sig;
	ui_sigint = 1;
}

/* True once Ctrl-C ended the UI: the caller exits as SIGINT would. */
bool
ui_interrupted(void)
{
	return ui_sigint != 0;
}

static void
ui_loop(void)
{
	double		 t = 0;
	int		 redraw = REDRAW_ALL, key;
	bool		 first = true, timing = false, answered, worked;
	enum view_work	 w;

	while (!ui_quit && !ui_sigint) {
		w = ui_tick(&redraw);
		if (redraw != REDRAW_NONE) {
			ui_draw(redraw);
			doupdate();
			redraw = REDRAW_NONE;
		}
		session_prefetch();
		if (first) {
			ui_rp.first = (ui_now() - ui_o->t0) * 1000;
			first = false;
		} else if (timing) {
			if (ui_replay_wait(t, w, &answered, &worked))
				continue;
			timing = false;
		}
		/*
		 * While a scan runs, wake up to show how far it got, soon
		 * while its first rows are awaited (a filter walking a sorted
		 * table has them in milliseconds); idle, once a second, so a
		 * Ctrl-C that came just before the read began (and so
		 * interrupted none) still ends the loop; while the store's
		 * background build runs, four times a second for its word on
		 * the status line.
		 */
		if (ui_rp.f == NULL)
			timeout(w == WORK_WAIT ? 10 : w != WORK_IDLE ? 100 :
			    store_timeline_state(session_store(), NULL) !=
			    STORE_BUSY_NONE ? 250 : 1000);
		if ((key = ui_getkey()) == ERR)
			continue;
		t = ui_now();
		timing = ui_rp.f != NULL && ui_rp.n > 0;
		answered = worked = false;
		redraw |= ui_key(key);
	}
}

/* Start curses and the colours of the theme. Return -1 with *cause set. */
static int
ui_start(char **cause)
{
	const char	*nc = getenv("NO_COLOR");
	bool		 color;

	draw_init();
	if (newterm(NULL, stdout, stdin) == NULL) {
		xasprintf(cause, "cannot start curses on terminal '%s'",
		    getenv("TERM") != NULL ? getenv("TERM") : "");
		return -1;
	}
	ui_started = true;
	log_set_hook(ui_stop);
	color = has_colors() && (nc == NULL || *nc == '\0');
	if (color) {
		start_color();
		use_default_colors();
	}
	cbreak();
	noecho();
	/* Ours, not curses' (which exits 1); a blocked key read returns. */
	util_catch_signal(SIGINT, ui_on_sigint);
	nonl();
	keypad(stdscr, TRUE);
	ui_alt_caps_init();
	set_escdelay(25);
	curs_set(0);
	if (ui_cfg.mouse && !ui_o->no_mouse)
		mouse_init();
	if (theme_load(ui_o->theme != NULL ? ui_o->theme : ui_cfg.theme,
	    color, cause) != 0) {
		ui_stop();
		return -1;
	}
	return 0;
}

/* The first view: the config's default view, else the summary. */
static int
ui_first_view(char **cause)
{
	static const struct {
		const char	*name;
		enum action	 a;
	} names[] = {
		{ "summary", ACTION_VIEW_1 },
		{ "op_statistic", ACTION_VIEW_2 },
		{ "api_statistic", ACTION_VIEW_3 },
		{ "kernels", ACTION_VIEW_4 },
		{ "op_summary", ACTION_VIEW_4 },
		{ "steps", ACTION_VIEW_5 },
		{ "memory", ACTION_VIEW_6 },
		{ "markers", ACTION_VIEW_7 },
		{ "flame", ACTION_VIEW_8 },
		{ "timeline", ACTION_VIEW_9 },
		{ "cluster", ACTION_VIEW_0 },
		{ "advice", ACTION_VIEW_ADVICE }
	};
	const char	*msg;
	enum role	 role;
	size_t		 i;

	if (ui_cfg.view != NULL) {
		for (i = 0; i < sizeof names / sizeof names[0]; i++) {
			if (strcmp(names[i].name, ui_cfg.view) == 0)
				break;
		}
		if (i < sizeof names / sizeof names[0] &&
		    tabs_switch(names[i].a) != REDRAW_STATUS)
			return 0;
	}
	/* --compare: the Compare view over NEW's Summary. */
	if (session_compare_base() != NULL) {
		if (tabs_switch(ACTION_VIEW_1) == REDRAW_STATUS ||
		    view_push(&view_compare_ops, NULL, NULL) != 0) {
			msg = status_get(&role);
			xasprintf(cause, "cannot compare: %s", msg != NULL ?
			    msg : "no data");
			return -1;
		}
		return 0;
	}
	/* A cluster kept as a store per rank opens on its ranks. */
	if (store_set_is(session_base()) && session_rank() == NP_NA &&
	    tabs_switch(ACTION_VIEW_0) != REDRAW_STATUS)
		return 0;
	if (tabs_switch(ACTION_VIEW_1) == REDRAW_STATUS) {
		msg = status_get(&role);
		xasprintf(cause, "cannot open the summary: %s",
		    msg != NULL ? msg : "no data");
		return -1;
	}
	return 0;
}

/*
 * Run the UI on store S until the user quits. S may be replaced by a
 * re-import; the store in use at the end is returned through ui_store()
 * and stays the caller's. Return 0, or -1 with *cause set.
 */
int
ui_run(struct store *s, const struct ui_opts *o, char **cause)
{
	const char	*keys = o->replay;
	char		*path;
	int		 rc = 0;

	session_set_store(s);
	session_set_compare(o->base, o->compare);
	if (session_set_device(o->device, o->rank, cause) != 0)
		return -1;
	ui_o = o;
	path = config_path();
	rc = config_load(&ui_cfg, path, cause);
	free(path);
	if (rc != 0)
		return -1;
	if (keys == NULL && (keys = getenv("NPUPROF_KEYS")) != NULL &&
	    *keys == '\0')
		keys = NULL;
	if (keys != NULL && (ui_rp.f = fopen(keys, "r")) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", keys,
		    strerror(errno));
		config_release(&ui_cfg);
		return -1;
	}
	if (ui_rp.f != NULL && ui_replay_check(keys, cause) != 0) {
		fclose(ui_rp.f);
		ui_rp.f = NULL;
		config_release(&ui_cfg);
		return -1;
	}
	if ((rc = ui_start(cause)) == 0 && (rc = ui_first_view(cause)) == 0)
		ui_loop();
	tabs_close_all();
	session_release();
	ui_stop();
	log_set_hook(NULL);
	if (ui_rp.f != NULL)
		ui_replay_report();
	status_clear();
	config_release(&ui_cfg);
	return rc;
}
