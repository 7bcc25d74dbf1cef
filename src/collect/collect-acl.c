/*
 * Rewriting an application's acl.json for collect: the keys of its
 * "profiler" object that the command line sets are replaced or added,
 * and everything else (other sections, other profiler keys, the order of
 * keys, numbers as written) is kept. The file is parsed into a yajl tree
 * and generated again.
 */
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include "collect.h"

static void	collect_acl_value(yajl_gen, yajl_val);

static void
collect_acl_string(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

/* The profiler object: its keys with ours replaced, then our new ones. */
static void
collect_acl_profiler(yajl_gen g, yajl_val old, const struct collect_acl *set)
{
	size_t	 i;
	int	 k;
	bool	 done[8] = { false };

	yajl_gen_map_open(g);
	for (i = 0; YAJL_IS_OBJECT(old) && i < old->u.object.len; i++) {
		collect_acl_string(g, old->u.object.keys[i]);
		for (k = 0; k < set->n; k++) {
			if (strcmp(set->keys[k], old->u.object.keys[i]) == 0)
				break;
		}
		if (k < set->n) {
			collect_acl_string(g, set->values[k]);
			done[k] = true;
		} else
			collect_acl_value(g, old->u.object.values[i]);
	}
	for (k = 0; k < set->n; k++) {
		if (done[k])
			continue;
		collect_acl_string(g, set->keys[k]);
		collect_acl_string(g, set->values[k]);
	}
	yajl_gen_map_close(g);
}

/* Generate V as it was parsed. */
static void
collect_acl_value(yajl_gen g, yajl_val v)
{
	size_t	 i;

	switch (v->type) {
	case yajl_t_string:
		collect_acl_string(g, v->u.string);
		break;
	case yajl_t_number:
		yajl_gen_number(g, v->u.number.r, strlen(v->u.number.r));
		break;
	case yajl_t_object:
		yajl_gen_map_open(g);
		for (i = 0; i < v->u.object.len; i++) {
			collect_acl_string(g, v->u.object.keys[i]);
			collect_acl_value(g, v->u.object.values[i]);
		}
		yajl_gen_map_close(g);
		break;
	case yajl_t_array:
		yajl_gen_array_open(g);
		for (i = 0; i < v->u.array.len; i++)
			collect_acl_value(g, v->u.array.values[i]);
		yajl_gen_array_close(g);
		break;
	case yajl_t_true:
		yajl_gen_bool(g, 1);
		break;
	case yajl_t_false:
		yajl_gen_bool(g, 0);
		break;
	default:
		yajl_gen_null(g);
		break;
	}
}

/*
 * The acl.json TEXT (NUL-terminated) with the profiler keys of SET. An
 * empty file counts as {}. Return the new text (caller frees), or NULL
 * with *cause when TEXT is not a JSON object.
 */
char *
collect_acl_rewrite(const char *text, const struct collect_acl *set,
    char **cause)
{
	yajl_val		 root;
	yajl_gen		 g;
	const unsigned char	*buf;
	size_t			 len, i;
	char			 err[256], *out;
	bool			 found = false;

	text += strspn(text, " \t\r\n");
	if (*text == '\0')
		text = "{}";
	if ((root = json_tree_parse(text, err, sizeof err)) == NULL) {
		err[strcspn(err, "\n")] = '\0';
		xasprintf(cause, "not JSON: %s", err);
		return NULL;
	}
	if (!YAJL_IS_OBJECT(root)) {
		xasprintf(cause, "not a JSON object");
		yajl_tree_free(root);
		return NULL;
	}
	g = yajl_gen_alloc(NULL);
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, "    ");
	yajl_gen_map_open(g);
	for (i = 0; i < root->u.object.len; i++) {
		collect_acl_string(g, root->u.object.keys[i]);
		if (strcmp(root->u.object.keys[i], "profiler") == 0 &&
		    !found) {
			collect_acl_profiler(g, root->u.object.values[i], set);
			found = true;
		} else
			collect_acl_value(g, root->u.object.values[i]);
	}
	if (!found) {
		collect_acl_string(g, "profiler");
		collect_acl_profiler(g, NULL, set);
	}
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &buf, &len);
	out = xstrndup((const char *)buf, len);
	yajl_gen_free(g);
	yajl_tree_free(root);
	return out;
}
