/*
 * Themes: a YAML file maps each colour role to a foreground, a background
 * and attributes. Colours are names or 0-255; a terminal with fewer colours
 * gets the nearest it has (256 to 16 to 8, bright as bold), and one without
 * colour, or NO_COLOR, gets each role's monochrome attribute instead.
 */
#include <curses.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ui-int.h"

struct theme_role {
	int	 fg;
	int	 bg;
	int	 attr;
	int	 mono;
};

#define ROLE_NAME(e, name, fg, bg, mono)	name,
static const char *theme_names[] = { ROLES(ROLE_NAME) };
#undef ROLE_NAME
#define ROLE_DEFAULT(e, name, fg, bg, mono)	{ fg, bg, 0, mono },
static const struct theme_role theme_defaults[] = { ROLES(ROLE_DEFAULT) };
#undef ROLE_DEFAULT

static struct theme_role	 theme_roles[ROLE_COUNT];
static int			 theme_attrs[ROLE_COUNT];

static const char *theme_colours[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"
};

const char *
theme_role_name(enum role r)
{
	return theme_names[r];
}

int
theme_attr(enum role r)
{
	return theme_attrs[r];
}

/* A colour name or number, -1 for default; -2 if unknown. */
static int
theme_colour(const char *s)
{
	size_t	 i;
	char	*end;
	long	 n;
	bool	 bright = false;

	if (strcasecmp(s, "default") == 0 || strcasecmp(s, "none") == 0)
		return -1;
	if (strncasecmp(s, "bright-", 7) == 0) {
		bright = true;
		s += 7;
	}
	for (i = 0; i < 8; i++) {
		if (strcasecmp(s, theme_colours[i]) == 0)
			return (int)i + (bright ? 8 : 0);
	}
	if (bright)
		return -2;
	n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n < 0 || n > 255)
		return -2;
	return (int)n;
}

static int
theme_attr_word(const char *s, size_t len)
{
	static const struct {
		const char	*name;
		int		 attr;
	} words[] = {
		{ "bold", A_BOLD }, { "dim", A_DIM },
		{ "underline", A_UNDERLINE }, { "reverse", A_REVERSE },
		{ "standout", A_STANDOUT }, { "blink", A_BLINK },
		{ "normal", 0 }, { "none", 0 }
	};
	size_t	 i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strlen(words[i].name) == len &&
		    strncasecmp(words[i].name, s, len) == 0)
			return words[i].attr;
	}
	return -1;
}

/* Attributes "bold,underline"; -1 if a word is unknown. */
static int
theme_parse_attrs(const char *s)
{
	const char	*end;
	int		 attr = 0, a;

	while (*s != '\0') {
		s += strspn(s, " ,");
		end = s + strcspn(s, " ,");
		if (end == s)
			break;
		if ((a = theme_attr_word(s, (size_t)(end - s))) < 0)
			return -1;
		attr |= a;
		s = end;
	}
	return attr;
}

/* The nearest colour the terminal has; bright on 8 colours adds *bold. */
static int
theme_fit(int c, int *bold)
{
	int	 r, g, b, n;

	if (c < 0 || c < COLORS)
		return c;
	if (c >= 232)
		c = c < 238 ? 0 : c < 244 ? 8 : c < 250 ? 7 : 15;
	else if (c >= 16) {
		n = c - 16;
		r = n / 36;
		g = (n / 6) % 6;
		b = n % 6;
		c = (r >= 3) | (g >= 3) << 1 | (b >= 3) << 2;
		if (r >= 4 || g >= 4 || b >= 4)
			c += 8;
		if (c == 0 && (r > 0 || g > 0 || b > 0))
			c = 8;
	}
	if (c >= COLORS && c >= 8) {
		c -= 8;
		*bold = A_BOLD;
	}
	return c < COLORS ? c : -1;
}

/*
 * Find theme NAME: a file if it has a '/' or ends in .yaml, else a name:
 * the user's, NPUPROF_THEMES's, the installed one, else the one beside the
 * binary (a build tree).
 */
static char *
theme_path(const char *name)
{
	const char	*dir, *cfg;
	char		*path, *local, *slash, exe[PATH_MAX];
	ssize_t		 n;

	if (strchr(name, '/') != NULL || util_has_suffix(name, ".yaml"))
		return xstrdup(name);
	if ((cfg = getenv("XDG_CONFIG_HOME")) != NULL && *cfg == '/') {
		xasprintf(&path, "%s/npuprof-tui/themes/%s.yaml", cfg, name);
		if (access(path, R_OK) == 0)
			return path;
		free(path);
	}
	if ((dir = getenv("NPUPROF_THEMES")) != NULL && *dir != '\0') {
		xasprintf(&path, "%s/%s.yaml", dir, name);
		return path;
	}
	xasprintf(&path, "%s/themes/%s.yaml", PKGDATADIR, name);
	/* Not installed: run from the build tree, themes/ beside it. */
	if (access(path, R_OK) != 0 && (n = readlink("/proc/self/exe", exe,
	    sizeof exe - 1)) > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL)
			*slash = '\0';
		xasprintf(&local, "%s/themes/%s.yaml", exe, name);
		if (access(local, R_OK) == 0) {
			free(path);
			return local;
		}
		free(local);
	}
	return path;
}

static int
theme_entry(const struct config_yaml_entry *e, const char *path,
    char **cause)
{
	size_t	 i;
	int	 c;

	for (i = 0; i < ROLE_COUNT; i++) {
		if (strcmp(theme_names[i], e->section != NULL ? e->section :
		    e->key) == 0)
			break;
	}
	if (i == ROLE_COUNT || e->section == NULL) {
		xasprintf(cause, "%s:%d: unknown role '%s'", path, e->line,
		    e->section != NULL ? e->section : e->key);
		return -1;
	}
	if (strcmp(e->key, "fg") == 0 || strcmp(e->key, "bg") == 0) {
		if ((c = theme_colour(e->value)) == -2) {
			xasprintf(cause, "%s:%d: unknown colour '%s'", path,
			    e->line, e->value);
			return -1;
		}
		if (e->key[0] == 'f')
			theme_roles[i].fg = c;
		else
			theme_roles[i].bg = c;
	} else if (strcmp(e->key, "attr") == 0 || strcmp(e->key, "mono") == 0) {
		if ((c = theme_parse_attrs(e->value)) < 0) {
			xasprintf(cause, "%s:%d: unknown attribute in '%s'",
			    path, e->line, e->value);
			return -1;
		}
		if (e->key[0] == 'a')
			theme_roles[i].attr = c;
		else
			theme_roles[i].mono = c;
	} else {
		xasprintf(cause, "%s:%d: unknown setting '%s' (fg, bg, attr "
		    "or mono)", path, e->line, e->key);
		return -1;
	}
	return 0;
}

/* Turn the roles into curses attributes, with or without colour. */
static void
theme_apply(bool colour)
{
	size_t	 i;
	int	 fg, bg, bold, unused;

	for (i = 0; i < ROLE_COUNT; i++) {
		bold = 0;
		if (!colour || (int)i + 1 >= COLOR_PAIRS) {
			theme_attrs[i] = theme_roles[i].attr |
			    theme_roles[i].mono;
			continue;
		}
		fg = theme_fit(theme_roles[i].fg, &bold);
		bg = theme_fit(theme_roles[i].bg, &unused);
		init_pair((short)(i + 1), (short)fg, (short)bg);
		theme_attrs[i] = COLOR_PAIR(i + 1) | theme_roles[i].attr |
		    bold;
	}
}

/*
 * Load theme NAME (NULL: the built-in one) and set up the roles. Return 0,
 * or -1 with *cause naming the file and line of the problem.
 */
int
theme_load(const char *name, bool colour, char **cause)
{
	struct config_yaml	*y;
	char			*path;
	size_t			 i;

	memcpy(theme_roles, theme_defaults, sizeof theme_roles);
	if (name != NULL) {
		path = theme_path(name);
		if ((y = config_yaml_load(path, cause)) == NULL) {
			free(path);
			return -1;
		}
		for (i = 0; i < y->n; i++) {
			if (theme_entry(&y->v[i], path, cause) != 0) {
				config_yaml_free(y);
				free(path);
				return -1;
			}
		}
		config_yaml_free(y);
		free(path);
	}
	theme_apply(colour);
	return 0;
}
