/*
 * Keys and actions. The ACTIONS list in ui.h yields the action names the
 * config file accepts and their help text; the global key map below is
 * consulted after a view's own map, and bindings from the config file come
 * before both. The help view and the man page's KEY BINDINGS list are made
 * from these tables.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui-int.h"

#define ACTION_NAME(e, name, help)	name,
static const char *keys_names[] = { ACTIONS(ACTION_NAME) };
#undef ACTION_NAME
#define ACTION_HELP(e, name, help)	help,
static const char *keys_helps[] = { ACTIONS(ACTION_HELP) };
#undef ACTION_HELP

static const struct key_binding keys_global_keys[] = {
	{ KEY_UP, ACTION_UP, NULL },
	{ 'k', ACTION_UP, NULL },
	{ KEY_DOWN, ACTION_DOWN, NULL },
	{ 'j', ACTION_DOWN, NULL },
	{ KEY_PPAGE, ACTION_PAGE_UP, NULL },
	{ KEYS_CTRL('b'), ACTION_PAGE_UP, NULL },
	{ KEY_NPAGE, ACTION_PAGE_DOWN, NULL },
	{ KEYS_CTRL('f'), ACTION_PAGE_DOWN, NULL },
	{ ' ', ACTION_PAGE_DOWN, NULL },
	{ KEYS_CTRL('u'), ACTION_HALF_UP, NULL },
	{ KEYS_CTRL('d'), ACTION_HALF_DOWN, NULL },
	{ KEY_HOME, ACTION_TOP, NULL },
	{ 'g', ACTION_TOP, NULL },
	{ KEY_END, ACTION_BOTTOM, NULL },
	{ 'G', ACTION_BOTTOM, NULL },
	{ KEY_LEFT, ACTION_LEFT, NULL },
	{ 'h', ACTION_LEFT, NULL },
	{ KEY_RIGHT, ACTION_RIGHT, NULL },
	{ 'l', ACTION_RIGHT, NULL },
	{ '\r', ACTION_OPEN, NULL },
	{ KEY_ENTER, ACTION_OPEN, NULL },
	{ '\t', ACTION_NEXT_VIEW, NULL },
	{ KEY_BTAB, ACTION_PREV_VIEW, NULL },
	{ '1', ACTION_VIEW_1, NULL },
	{ '2', ACTION_VIEW_2, NULL },
	{ '3', ACTION_VIEW_3, NULL },
	{ '4', ACTION_VIEW_4, NULL },
	{ '5', ACTION_VIEW_5, NULL },
	{ '6', ACTION_VIEW_6, NULL },
	{ '7', ACTION_VIEW_7, NULL },
	{ '8', ACTION_VIEW_8, NULL },
	{ '9', ACTION_VIEW_9, NULL },
	{ '0', ACTION_VIEW_0, NULL },
	{ 'E', ACTION_VIEW_ADVICE, NULL },
	{ 'd', ACTION_DEVICE, NULL },
	{ 'r', ACTION_RANK, NULL },
	{ 'a', ACTION_AA_CORE, NULL },
	{ 'R', ACTION_REIMPORT, NULL },
	{ '?', ACTION_HELP, NULL },
	{ KEY_F(1), ACTION_HELP, NULL },
	{ KEYS_CTRL('l'), ACTION_REDRAW, NULL },
	{ 'q', ACTION_CLOSE, NULL },
	{ 0x1b, ACTION_CLOSE, NULL },
	{ 'Q', ACTION_QUIT, NULL },
	{ 0, ACTION_NONE, NULL }
};

/* Key names for the config file, the help view and the replay file. */
static const struct {
	const char	*name;
	int		 key;
} keys_special[] = {
	{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT }, { "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE },
	{ "Home", KEY_HOME }, { "End", KEY_END }, { "Enter", '\r' },
	{ "Tab", '\t' }, { "S-Tab", KEY_BTAB }, { "Esc", 0x1b },
	{ "Space", ' ' }, { "Backspace", KEY_BACKSPACE }, { "Del", KEY_DC },
	{ "Resize", KEY_RESIZE }
};

#define KEYS_NSPECIAL	(sizeof keys_special / sizeof keys_special[0])

/* Bindings from the config file, searched first. */
static struct key_binding	 keys_user[64];
static size_t			 keys_nuser;

const char *
keys_action_name(enum action a)
{
	return keys_names[a];
}

const char *
keys_action_help(enum action a)
{
	return keys_helps[a];
}

/* The action called NAME, or -1. */
int
keys_action_find(const char *name)
{
	size_t	 i;

	for (i = 0; i < ACTION_COUNT; i++) {
		if (strcmp(keys_names[i], name) == 0)
			return (int)i;
	}
	return -1;
}

/* The key called NAME ("j", "C-d", "F1", "PgDn", "M-x"), or -1. */
int
keys_parse(const char *name)
{
	size_t	 i;
	int	 n;

	if (name[0] != '\0' && name[1] == '\0')
		return (unsigned char)name[0];
	/* M-x, M-Up: Alt with a key; not M-M-x. */
	if ((name[0] == 'M' || name[0] == 'm') && name[1] == '-' &&
	    name[2] != '\0') {
		n = keys_parse(name + 2);
		return n < 0 || (n & KEYS_ALT) != 0 ? -1 : n | KEYS_ALT;
	}
	for (i = 0; i < KEYS_NSPECIAL; i++) {
		if (strcasecmp(keys_special[i].name, name) == 0)
			return keys_special[i].key;
	}
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
	    name[2] >= 'a' && name[2] <= 'z' && name[3] == '\0')
		return KEYS_CTRL(name[2]);
	/* F1 to F12, and nothing after the number (not F1x). */
	if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' &&
	    name[1] <= '9' && strspn(name + 1, "0123456789") ==
	    strlen(name + 1)) {
		n = atoi(name + 1);
		if (n >= 1 && n <= 12)
			return KEY_F(n);
	}
	return -1;
}

/* The name of KEY, as keys_parse() reads it. */
void
keys_name(int key, char *buf, size_t len)
{
	size_t	 i;

	if ((key & KEYS_ALT) != 0 && len > 2) {
		snprintf(buf, len, "M-");
		keys_name(key & ~KEYS_ALT, buf + 2, len - 2);
		return;
	}
	for (i = 0; i < KEYS_NSPECIAL; i++) {
		if (keys_special[i].key == key) {
			snprintf(buf, len, "%s", keys_special[i].name);
			return;
		}
	}
	if (key == KEY_ENTER)
		snprintf(buf, len, "Enter");
	else if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "F%d", key - KEY_F(0));
	else if (key > 0 && key < 0x20)
		snprintf(buf, len, "C-%c", key + 'a' - 1);
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, len, "%c", key);
	else if (key == 0x7f)	/* what most terminals' Backspace sends */
		snprintf(buf, len, "Backspace");
	else
		snprintf(buf, len, "0x%x", key);
}

static enum action
keys_find(const struct key_binding *map, int key)
{
	size_t	 i;

	for (i = 0; map != NULL && map[i].action != ACTION_NONE; i++) {
		if (map[i].key == key)
			return map[i].action;
	}
	return ACTION_NONE;
}

/* The action of KEY: the user's bindings, then MAP. */
enum action
keys_lookup(const struct key_binding *map, int key)
{
	enum action	 a;

	if ((a = keys_find(keys_user, key)) != ACTION_NONE)
		return a;
	return keys_find(map, key);
}

/* The action of KEY in the user's then the global map. */
enum action
keys_global(int key)
{
	return keys_lookup(keys_global_keys, key);
}

const struct key_binding *
keys_global_map(void)
{
	return keys_global_keys;
}

const struct key_binding *
keys_user_map(void)
{
	return keys_user;
}

/*
 * Bind KEY to A before every map (from the config file). Enter is both
 * the key that sends a carriage return and the keypad's, one name.
 */
void
keys_bind(int key, enum action a)
{
	size_t	 i;

	if (key == '\r')
		keys_bind(KEY_ENTER, a);

	for (i = 0; i < keys_nuser; i++) {
		if (keys_user[i].key == key) {
			keys_user[i].action = a;
			return;
		}
	}
	if (keys_nuser + 1 >= sizeof keys_user / sizeof keys_user[0])
		return;
	keys_user[keys_nuser].key = key;
	keys_user[keys_nuser].action = a;
	keys_nuser++;
}

/* The action KEY does in a view with key map MAP. */
enum action
keys_effective(const struct key_binding *map, int key)
{
	enum action	 a;

	if ((a = keys_lookup(map, key)) == ACTION_NONE)
		a = keys_global(key);
	return a;
}

/*
 * Up to MAX keys doing A in a view with key map MAP, in KEYS: the user's
 * bindings, then the view's, then the global ones, each only where the
 * user's bindings left it doing A. Return how many.
 */
static size_t
keys_doing(const struct key_binding *map, enum action a, int *keys,
    size_t max)
{
	const struct key_binding	*maps[3];
	size_t				 i, j, n = 0;

	maps[0] = keys_user;
	maps[1] = map;
	maps[2] = keys_global_keys;
	for (i = 0; i < 3; i++) {
		for (j = 0; maps[i] != NULL && maps[i][j].action !=
		    ACTION_NONE && n < max; j++) {
			if (maps[i][j].action == a &&
			    keys_effective(map, maps[i][j].key) == a)
				keys[n++] = maps[i][j].key;
		}
	}
	return n;
}

/* The first key doing A in a view with key map MAP, or -1 if none does. */
int
keys_for(const struct key_binding *map, enum action a)
{
	int	 key;

	return keys_doing(map, a, &key, 1) == 1 ? key : -1;
}

/*
 * The keys doing A in a view with key map MAP, for a title or message,
 * in BUF: "Enter", or "Space or Enter" (two names at most, in the order
 * keys_doing() finds them); when no key does it, the action's name and
 * "(no key)".
 */
const char *
keys_names_for(const struct key_binding *map, enum action a, char *buf,
    size_t len)
{
	char	 name[32];
	int	 keys[3];
	size_t	 n, i, named = 0;

	/* Enter is two keys of one name: three keys give two names. */
	n = keys_doing(map, a, keys, 3);
	buf[0] = '\0';
	for (i = 0; i < n && named < 2; i++) {
		keys_name(keys[i], name, sizeof name);
		if (named == 1 && strcmp(buf, name) == 0)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    named > 0 ? " or " : "", name);
		named++;
	}
	if (named == 0)
		snprintf(buf, len, "%s (no key)", keys_action_name(a));
	return buf;
}

/*
 * The key bar of view V into BUF: "key label" pairs two spaces apart, in
 * the order of its hints, with the keys the user's bindings left doing
 * them. q reads "quit" where it quits and "back" where it closes.
 */
void
keys_bar(const struct view *v, char *buf, size_t len)
{
	const struct key_hint	*h;
	const char		*label;
	char			 name[32];
	size_t			 used = 0;
	int			 key, n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (h = v->ops->hints; h != NULL && h->action != ACTION_NONE; h++) {
		if ((key = keys_for(v->ops->keymap, h->action)) < 0)
			continue;
		keys_name(key, name, sizeof name);
		label = h->label;
		if (h->action == ACTION_CLOSE)
			label = v->below == NULL ? "quit" : "back";
		n = snprintf(buf + used, len - used, "%s%s %s",
		    used > 0 ? "  " : "", name, label);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';
			return;
		}
		used += (size_t)n;
	}
}
