/*
 * The small YAML subset of our theme and config files, read with libyaml:
 * a mapping whose values are scalars, lists of scalars, or one more level of
 * mapping. The result is a flat list of (section, key, value, line) so the
 * callers check names and values and can name the line of a mistake.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "ui-int.h"

static void
config_yaml_add(struct config_yaml *y, const char *section, const char *key,
    const char *value, int line)
{
	struct config_yaml_entry	*e;

	y->v = util_grow(y->v, y->n, 1, sizeof *y->v);
	e = &y->v[y->n++];
	e->section = section != NULL ? xstrdup(section) : NULL;
	e->key = xstrdup(key);
	e->value = xstrdup(value);
	e->line = line;
}

void
config_yaml_free(struct config_yaml *y)
{
	size_t	 i;

	if (y == NULL)
		return;
	for (i = 0; i < y->n; i++) {
		free(y->v[i].section);
		free(y->v[i].key);
		free(y->v[i].value);
	}
	free(y->v);
	free(y);
}

/*
 * Read the value after a key: a scalar, a flow or block list of scalars
 * (joined with ","), or, when SECTION is NULL, a nested mapping. Return 0,
 * or -1 with *cause set.
 */
static int
config_yaml_value(yaml_parser_t *p, struct config_yaml *y, const char *path,
    const char *section, const char *key, char **cause);

static int
config_yaml_next(yaml_parser_t *p, yaml_event_t *ev, const char *path,
    char **cause)
{
	if (yaml_parser_parse(p, ev))
		return 0;
	xasprintf(cause, "%s:%zu: %s", path, p->problem_mark.line + 1,
	    p->problem != NULL ? p->problem : "bad YAML");
	return -1;
}

static int
config_yaml_mapping(yaml_parser_t *p, struct config_yaml *y, const char *path,
    const char *section, char **cause)
{
	yaml_event_t	 ev;
	char		*key;
	int		 rc;

	for (;;) {
		if (config_yaml_next(p, &ev, path, cause) != 0)
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (ev.type != YAML_SCALAR_EVENT) {
			xasprintf(cause, "%s:%zu: expected a name", path,
			    ev.start_mark.line + 1);
			yaml_event_delete(&ev);
			return -1;
		}
		key = xstrdup((const char *)ev.data.scalar.value);
		yaml_event_delete(&ev);
		rc = config_yaml_value(p, y, path, section, key, cause);
		free(key);
		if (rc != 0)
			return -1;
	}
}

static int
config_yaml_value(yaml_parser_t *p, struct config_yaml *y, const char *path,
    const char *section, const char *key, char **cause)
{
	yaml_event_t	 ev;
	struct strbuf	 b;
	int		 line;

	if (config_yaml_next(p, &ev, path, cause) != 0)
		return -1;
	line = (int)ev.start_mark.line + 1;
	switch (ev.type) {
	case YAML_SCALAR_EVENT:
		config_yaml_add(y, section, key,
		    (const char *)ev.data.scalar.value, line);
		yaml_event_delete(&ev);
		return 0;
	case YAML_MAPPING_START_EVENT:
		yaml_event_delete(&ev);
		if (section != NULL) {
			xasprintf(cause, "%s:%d: '%s' is nested too deeply",
			    path, line, key);
			return -1;
		}
		return config_yaml_mapping(p, y, path, key, cause);
	case YAML_SEQUENCE_START_EVENT:
		yaml_event_delete(&ev);
		strbuf_init(&b);
		strbuf_adds(&b, "");
		for (;;) {
			if (config_yaml_next(p, &ev, path, cause) != 0) {
				strbuf_release(&b);
				return -1;
			}
			if (ev.type == YAML_SEQUENCE_END_EVENT)
				break;
			if (ev.type != YAML_SCALAR_EVENT) {
				xasprintf(cause, "%s:%zu: expected a word in "
				    "the list of '%s'", path,
				    ev.start_mark.line + 1, key);
				yaml_event_delete(&ev);
				strbuf_release(&b);
				return -1;
			}
			strbuf_addf(&b, "%s%s", b.len > 0 ? "," : "",
			    (const char *)ev.data.scalar.value);
			yaml_event_delete(&ev);
		}
		yaml_event_delete(&ev);
		config_yaml_add(y, section, key, b.s, line);
		strbuf_release(&b);
		return 0;
	default:
		xasprintf(cause, "%s:%d: unexpected value for '%s'", path,
		    line, key);
		yaml_event_delete(&ev);
		return -1;
	}
}

/*
 * Parse the YAML file PATH. Return the entries, or NULL with *cause set
 * (naming the line) if the file cannot be read or is not our shape. An
 * empty file gives no entries.
 */
struct config_yaml *
config_yaml_load(const char *path, char **cause)
{
	struct config_yaml	*y;
	yaml_parser_t		 p;
	yaml_event_t		 ev;
	FILE			*f;
	int			 rc = -1;

	if ((f = fopen(path, "rb")) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", path,
		    strerror(errno));
		return NULL;
	}
	y = xcalloc(1, sizeof *y);
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	for (;;) {
		if (config_yaml_next(&p, &ev, path, cause) != 0)
			break;
		if (ev.type == YAML_STREAM_END_EVENT ||
		    ev.type == YAML_DOCUMENT_END_EVENT) {
			yaml_event_delete(&ev);
			rc = 0;
			break;
		}
		if (ev.type == YAML_MAPPING_START_EVENT) {
			yaml_event_delete(&ev);
			if (config_yaml_mapping(&p, y, path, NULL, cause) != 0)
				break;
			continue;
		}
		if (ev.type == YAML_SCALAR_EVENT ||
		    ev.type == YAML_SEQUENCE_START_EVENT) {
			xasprintf(cause, "%s:%zu: expected 'name: value' "
			    "lines", path, ev.start_mark.line + 1);
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	if (rc != 0) {
		config_yaml_free(y);
		return NULL;
	}
	return y;
}
