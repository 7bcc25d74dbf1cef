/*
 * The config file, $XDG_CONFIG_HOME/npuprof-tui/config.yaml (or
 * ~/.config/...): the theme, whether to use the mouse, the first view,
 * key bindings and the advice's thresholds. A missing file is no error;
 * a mistake in it names the line.
 *
 *	theme: light
 *	mouse: false
 *	view: kernels
 *	keys:
 *	  quit: x
 *	  sort-next: s
 *	advice:
 *	  free-time: 0.2
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui-int.h"

/* The path of the config file; the caller frees it. */
char *
config_path(void)
{
	const char	*cfg = getenv("XDG_CONFIG_HOME"), *home;
	char		*path;

	if (cfg != NULL && *cfg == '/')
		xasprintf(&path, "%s/npuprof-tui/config.yaml", cfg);
	else {
		home = getenv("HOME");
		xasprintf(&path, "%s/.config/npuprof-tui/config.yaml",
		    home != NULL ? home : "/");
	}
	return path;
}

static int
config_bool(const struct config_yaml_entry *e, const char *path, bool *b,
    char **cause)
{
	if (strcmp(e->value, "true") == 0 || strcmp(e->value, "yes") == 0 ||
	    strcmp(e->value, "on") == 0)
		*b = true;
	else if (strcmp(e->value, "false") == 0 ||
	    strcmp(e->value, "no") == 0 || strcmp(e->value, "off") == 0)
		*b = false;
	else {
		xasprintf(cause, "%s:%d: '%s' must be true or false, not '%s'",
		    path, e->line, e->key, e->value);
		return -1;
	}
	return 0;
}

/* A "keys:" entry: ACTION: KEY or ACTION: [KEY, KEY]. */
static int
config_key(const struct config_yaml_entry *e, const char *path, char **cause)
{
	const char	*p = e->value, *end;
	char		*name;
	int		 a, key;

	if ((a = keys_action_find(e->key)) <= 0) {
		xasprintf(cause, "%s:%d: unknown action '%s'", path, e->line,
		    e->key);
		return -1;
	}
	for (;;) {
		end = strchr(p, ',');
		name = end != NULL ? xstrndup(p, (size_t)(end - p)) :
		    xstrdup(p);
		key = name[0] == '\0' && end != NULL ? ',' : keys_parse(name);
		if (key < 0) {
			xasprintf(cause, "%s:%d: unknown key '%s'", path,
			    e->line, name);
			free(name);
			return -1;
		}
		free(name);
		keys_bind(key, (enum action)a);
		if (end == NULL)
			break;
		p = end + 1;
	}
	return 0;
}

/* An "advice:" entry: RULE: THRESHOLD. */
static int
config_advice(const struct config_yaml_entry *e, const char *path,
    char **cause)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(e->value, &end);
	/* inf, nan and 1e400 (ERANGE) are no threshold either. */
	if (end == e->value || *end != '\0' || errno != 0 || !isfinite(v)) {
		xasprintf(cause, "%s:%d: the threshold of '%s' must be a "
		    "finite number, not '%s'", path, e->line, e->key,
		    e->value);
		return -1;
	}
	if (store_advice_set(e->key, v) != 0) {
		xasprintf(cause, "%s:%d: unknown advice rule '%s' (show PATH "
		    "advice_rules lists them)", path, e->line, e->key);
		return -1;
	}
	return 0;
}

static int
config_entry(struct ui_config *c, const struct config_yaml_entry *e,
    const char *path, char **cause)
{
	if (e->section != NULL && strcmp(e->section, "keys") == 0)
		return config_key(e, path, cause);
	if (e->section != NULL && strcmp(e->section, "advice") == 0)
		return config_advice(e, path, cause);
	if (e->section != NULL) {
		xasprintf(cause, "%s:%d: unknown section '%s'", path, e->line,
		    e->section);
		return -1;
	}
	if (strcmp(e->key, "theme") == 0) {
		free(c->theme);
		c->theme = xstrdup(e->value);
	} else if (strcmp(e->key, "view") == 0) {
		free(c->view);
		c->view = xstrdup(e->value);
	} else if (strcmp(e->key, "mouse") == 0)
		return config_bool(e, path, &c->mouse, cause);
	else {
		xasprintf(cause, "%s:%d: unknown setting '%s' (theme, mouse, "
		    "view, keys or advice)", path, e->line, e->key);
		return -1;
	}
	return 0;
}

/*
 * Read the config file PATH into C. Return 0 (also when there is no file),
 * or -1 with *cause naming the line.
 */
int
config_load(struct ui_config *c, const char *path, char **cause)
{
	struct config_yaml	*y;
	size_t			 i;

	memset(c, 0, sizeof *c);
	c->mouse = true;
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0;
	if ((y = config_yaml_load(path, cause)) == NULL)
		return -1;
	for (i = 0; i < y->n; i++) {
		if (config_entry(c, &y->v[i], path, cause) != 0) {
			config_yaml_free(y);
			config_release(c);
			return -1;
		}
	}
	config_yaml_free(y);
	return 0;
}

void
config_release(struct ui_config *c)
{
	free(c->theme);
	free(c->view);
	memset(c, 0, sizeof *c);
}

/*
 * Read the config file for the advice's thresholds alone (show PATH
 * advice); -1 with *cause naming the line of a mistake in it.
 */
int
ui_config_advice(char **cause)
{
	struct ui_config	 c;
	char			*path = config_path();
	int			 rc;

	rc = config_load(&c, path, cause);
	if (rc == 0)
		config_release(&c);
	free(path);
	return rc;
}
