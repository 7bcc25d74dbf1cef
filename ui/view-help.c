/*
 * The help view, made from the key tables so it never drifts from the
 * code: the keys of the view it was opened over, the user's bindings from
 * the config file, then the global keys, each with its action's text.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "ui-int.h"

/* The widest action name of MAP, or W if none is wider. */
static int
view_help_width(const struct key_binding *map, int w)
{
	size_t	 i;

	for (i = 0; map != NULL && map[i].action != ACTION_NONE; i++) {
		if ((int)strlen(keys_action_name(map[i].action)) > w)
			w = (int)strlen(keys_action_name(map[i].action));
	}
	return w;
}

/*
 * One line per action of MAP: the keys of it that do it in a view of key
 * map VIEW (a binding of the user's takes a key from the action it did),
 * the action's name in a column W wide, then the help text.
 */
static void
view_help_map(struct text *t, const char *title,
    const struct key_binding *map, const struct key_binding *view, int w)
{
	char		 name[32];
	struct strbuf	 keys;
	size_t		 i, j;
	bool		 seen;

	if (map == NULL || map[0].action == ACTION_NONE)
		return;
	text_add(t, ROLE_NORMAL, 0, "");
	text_add(t, ROLE_TITLE, 1, title);
	strbuf_init(&keys);
	for (i = 0; map[i].action != ACTION_NONE; i++) {
		seen = false;
		for (j = 0; j < i; j++)
			seen = seen || map[j].action == map[i].action;
		if (seen)
			continue;
		strbuf_reset(&keys);
		for (j = i; map[j].action != ACTION_NONE; j++) {
			if (map[j].action != map[i].action ||
			    keys_effective(view, map[j].key) != map[j].action)
				continue;
			/* Said already, in the view's own words. */
			if (map == keys_global_map() && view != NULL &&
			    keys_lookup(view, map[j].key) != ACTION_NONE)
				continue;
			keys_name(map[j].key, name, sizeof name);
			if (keys.len > 0 && strstr(keys.s, name) != NULL)
				continue;
			strbuf_addf(&keys, "%s%s", keys.len > 0 ? " " : "",
			    name);
		}
		if (keys.len == 0)
			continue;	/* every key of it bound elsewhere */
		text_addf(t, ROLE_NORMAL, 3, "%-16s %-*s %s", keys.s, w,
		    keys_action_name(map[i].action), map[i].help != NULL ?
		    map[i].help : keys_action_help(map[i].action));
	}
	strbuf_release(&keys);
}

static int
view_help_open(struct view *v, const void *arg, char **cause)
{
	struct view	*below = view_top();
	struct text	*t;
	char		 title[128];
	int		 w;

	t = text_create();
	text_add(t, ROLE_TITLE, 1, "npuprof-tui keys (q closes this help)");
	/* One column of action names for all the sections. */
	w = view_help_width(below != NULL ? below->ops->keymap : NULL, 12);
	w = view_help_width(keys_global_map(), view_help_width(keys_user_map(),
	    w));
	if (below != NULL && below->ops->keymap != NULL) {
		snprintf(title, sizeof title, "%s view", below->ops->title);
		view_help_map(t, title, below->ops->keymap, below->ops->keymap,
		    w);
	}
	view_help_map(t, "Your bindings (config.yaml)", keys_user_map(),
	    below != NULL ? below->ops->keymap : NULL, w);
	view_help_map(t, "Everywhere", keys_global_map(), below != NULL ?
	    below->ops->keymap : NULL, w);
	text_add(t, ROLE_NORMAL, 0, "");
	text_add(t, ROLE_TITLE, 1, "Filters and searches");
	text_add(t, ROLE_NORMAL, 3, "A PCRE2 regex over every cell, or "
	    "COLUMN:REGEX for one column (a prefix of its name).");
	text_add(t, ROLE_NORMAL, 3, "An empty filter shows every row again; "
	    "(?i) ignores case.");
	text_add(t, ROLE_NORMAL, 3, "After C-r, n and N go on backward and "
	    "forward, as in less.");
	text_add(t, ROLE_NORMAL, 3, "A question offers the last answer: "
	    "Enter takes it, typing replaces it,");
	text_add(t, ROLE_NORMAL, 3, "Backspace, C-w, C-u, Right or End edit "
	    "it, Esc cancels.");
	text_add(t, ROLE_NORMAL, 3, "On big tables a filter, or a sort on a "
	    "column without an index, runs in the");
	text_add(t, ROLE_NORMAL, 3, "background: the status line says how "
	    "far it got, and keys keep working.");
	text_add(t, ROLE_NORMAL, 0, "");
	text_add(t, ROLE_TITLE, 1, "Mouse (--no-mouse leaves it to the "
	    "terminal)");
	text_add(t, ROLE_NORMAL, 3, "Tables: a click on a row moves there, "
	    "on a column's name sorts on it");
	text_add(t, ROLE_NORMAL, 3, "(in the Compare view too);");
	text_add(t, ROLE_NORMAL, 3, "the wheel scrolls. Timeline: the wheel "
	    "zooms around the pointer, a drag");
	text_add(t, ROLE_NORMAL, 3, "selects a range, a click moves the "
	    "cursor.");
	text_add(t, ROLE_NORMAL, 0, "");
	text_add(t, ROLE_TITLE, 1, "Background work");
	text_add(t, ROLE_NORMAL, 3, "After an import the store's indexes and "
	    "timeline are built in the");
	text_add(t, ROLE_NORMAL, 3, "background too: past a second the status "
	    "line says [building indexes Ns]");
	text_add(t, ROLE_NORMAL, 3, "or [building timeline Ns] (the other "
	    "indexes beside it).");
	text_add(t, ROLE_NORMAL, 0, "");
	text_add(t, ROLE_NORMAL, 1, "C-c quits at once, as an interrupt "
	    "(exit status 130).");
	v->data = t;
	return 0;
}

static int
view_help_key(struct view *v, enum action a, int key)
{
	if (a == ACTION_HELP)
		return REDRAW_NONE;
	return text_key(v, a, key);
}

static void
view_help_status(struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, " Help ");
}

const struct view_ops view_help_ops = {
	.name = "help",
	.title = "Help",
	.open = view_help_open,
	.close = text_close,
	.draw = text_draw,
	.key = view_help_key,
	.status = view_help_status,
	.hints = view_hints_pick + 1,
};
