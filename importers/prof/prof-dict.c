/*
 * Names in the raw host data are 64-bit ids (doc/formats.md section 3.4):
 * hash_dic lines "<id>:<string>" and type_info_dic lines
 * "<level>_<type>:<name>", split at the first colon, later duplicates
 * overwriting earlier ones. A missing id prints as its number, as the
 * vendor prints it.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

static void
prof_dict_add(struct prof_dicts *d, struct util_map *m, uint64_t key,
    const char *v)
{
	d->strs = util_grow(d->strs, d->nstrs, 1, sizeof *d->strs);
	d->strs[d->nstrs] = xstrdup(v);
	util_map_set(m, key, d->nstrs++);
}

struct prof_dicts_ctx {
	struct store		*s;
	struct prof_dicts	*d;
	bool			 types;
	const char		*path;
	int			 bad;
};

static void
prof_dict_line(void *arg, char *line, size_t len)
{
	struct prof_dicts_ctx	*c = arg;
	char			*colon, *us, *end;
	unsigned long long	 a, b;

	if (len == 0)
		return;
	if ((colon = strchr(line, ':')) == NULL)
		goto bad;
	*colon = '\0';
	if (c->types) {
		if ((us = strchr(line, '_')) == NULL)
			goto bad;
		a = strtoull(line, &end, 10);
		if (end != us)
			goto bad;
		b = strtoull(us + 1, &end, 10);
		if (*end != '\0' || end == us + 1)
			goto bad;
		prof_dict_add(c->d, &c->d->type, a << 32 | (b & 0xFFFFFFFF),
		    colon + 1);
	} else {
		a = strtoull(line, &end, 10);
		if (*end != '\0' || end == line)
			goto bad;
		prof_dict_add(c->d, &c->d->hash, a, colon + 1);
	}
	return;
bad:
	c->bad++;
}

/* Say once how many lines of C's file were not 'id:name'. */
static void
prof_dict_report(const struct prof_dicts_ctx *c)
{
	if (c->bad > 0)
		store_load_warning(c->s, c->path, -1, "%d line%s without "
		    "'id:name' ignored", c->bad, c->bad == 1 ? "" : "s");
}

/* Read hash_dic and type_info_dic from the host data directory DATA. */
void
prof_dict_read(struct store *s, const char *data, struct prof_dicts *d)
{
	struct prof_dicts_ctx	 c;
	struct prof_files	 f;
	int			 i;

	memset(d, 0, sizeof *d);
	for (i = 0; i < 2; i++) {
		prof_slices_list(data, i == 0 ? "additional.hash_dic" :
		    "additional.type_info_dic", true, &f);
		memset(&c, 0, sizeof c);
		c.s = s;
		c.d = d;
		c.types = i == 1;
		c.path = f.n > 0 ? f.paths[0] : data;
		prof_slices_lines_read(s, &f, prof_dict_line, &c);
		prof_dict_report(&c);
		prof_slices_release(&f);
	}
}

/*
 * Add the hash_dic lines of the LEN bytes at DATA (read from PATH, for
 * warnings) to D, which is zeroed or filled before: how a legacy JOB's
 * dictionary, read whole, takes the same rules.
 */
void
prof_dict_parse(struct store *s, const char *path, const char *data,
    size_t len, struct prof_dicts *d)
{
	struct prof_dicts_ctx	 c;
	const char		*p = data, *end = data + len, *nl;
	char			*line;
	size_t			 n;

	memset(&c, 0, sizeof c);
	c.s = s;
	c.d = d;
	c.path = path;
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		line = xstrndup(p, n);
		prof_dict_line(&c, line, n);
		free(line);
	}
	prof_dict_report(&c);
}

void
prof_dict_release(struct prof_dicts *d)
{
	size_t	 i;

	for (i = 0; i < d->nstrs; i++)
		free(d->strs[i]);
	free(d->strs);
	util_map_release(&d->hash);
	util_map_release(&d->type);
	memset(d, 0, sizeof *d);
}

/* The string of hash ID, or its number printed into BUF. */
const char *
prof_dict_hash(const struct prof_dicts *d, uint64_t id, char *buf,
    size_t size)
{
	uint64_t	 i;

	if (util_map_get(&d->hash, id, &i))
		return d->strs[i];
	snprintf(buf, size, "%llu", (unsigned long long)id);
	return buf;
}

bool
prof_dict_has_type(const struct prof_dicts *d, unsigned level,
    uint64_t type)
{
	uint64_t	 i;

	return util_map_get(&d->type, (uint64_t)level << 32 |
	    (type & 0xFFFFFFFF), &i);
}

/* The name of (LEVEL, TYPE), or the type number printed into BUF. */
const char *
prof_dict_type(const struct prof_dicts *d, unsigned level, uint64_t type,
    char *buf, size_t size)
{
	uint64_t	 i;

	if (util_map_get(&d->type, (uint64_t)level << 32 |
	    (type & 0xFFFFFFFF), &i))
		return d->strs[i];
	if (level == PROF_LEVEL_RUNTIME && type == 27)
		return "DYNAMIC_ENABLE";
	if (level == PROF_LEVEL_RUNTIME && type == 28)
		return "DYNAMIC_DISABLE";
	snprintf(buf, size, "%llu", (unsigned long long)type);
	return buf;
}
