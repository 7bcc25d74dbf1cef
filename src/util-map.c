/*
 * A map of 64-bit keys to 64-bit values by open addressing: the hash
 * table of the program (util_map32 below is its compact twin for the
 * largest indexes). Importers index records with it (hash ids to
 * names, join keys to host tasks, task keys to slots); the store indexes
 * interned strings and statistics groups with it by a hash of their key,
 * each item linking to the one before with the same hash, so a collision
 * of hashes never merges two keys.
 */
#include <stdlib.h>
#include <string.h>

#include "npuprof.h"

void
util_map_init(struct util_map *m)
{
	memset(m, 0, sizeof *m);
}

void
util_map_release(struct util_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* KEY's bits mixed, so that keys differing in a few bits spread. */
static uint64_t
util_map_mix(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	return key ^ key >> 33;
}

static size_t
util_map_slot(uint64_t key, size_t size)
{
	return (size_t)util_map_mix(key) & (size - 1);
}

static void
util_map_grow(struct util_map *m)
{
	struct util_map	 old = *m;
	size_t		 i, j;

	m->size = old.size == 0 ? 64 : old.size * 2;
	m->keys = xcalloc(m->size, sizeof *m->keys);
	m->vals = xcalloc(m->size, sizeof *m->vals);
	for (i = 0; i < old.size; i++) {
		if (old.vals[i] == 0)
			continue;
		j = util_map_slot(old.keys[i], m->size);
		while (m->vals[j] != 0)
			j = (j + 1) & (m->size - 1);
		m->keys[j] = old.keys[i];
		m->vals[j] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
}

/*
 * Size empty map M for N keys at once, so that filling it never holds the
 * old and the new table together.
 */
void
util_map_reserve(struct util_map *m, size_t n)
{
	size_t	 size = 64;

	while (size < 2 * (n + 1))
		size *= 2;
	if (m->size >= size)
		return;
	util_map_release(m);
	m->size = size;
	m->keys = xcalloc(size, sizeof *m->keys);
	m->vals = xcalloc(size, sizeof *m->vals);
}

/* Look KEY up; true and *VAL set if present. */
bool
util_map_get(const struct util_map *m, uint64_t key, uint64_t *val)
{
	size_t	 j;

	if (m->size == 0)
		return false;
	for (j = util_map_slot(key, m->size); m->vals[j] != 0;
	    j = (j + 1) & (m->size - 1)) {
		if (m->keys[j] == key) {
			*val = m->vals[j] - 1;
			return true;
		}
	}
	return false;
}

/* Set KEY to VAL (VAL below UINT64_MAX). */
void
util_map_set(struct util_map *m, uint64_t key, uint64_t val)
{
	size_t	 j;

	if (2 * (m->n + 1) > m->size)
		util_map_grow(m);
	for (j = util_map_slot(key, m->size); m->vals[j] != 0;
	    j = (j + 1) & (m->size - 1)) {
		if (m->keys[j] == key) {
			m->vals[j] = val + 1;
			return;
		}
	}
	m->keys[j] = key;
	m->vals[j] = val + 1;
	m->n++;
}

/*
 * Look up a key known by its hash *H (a string's, say), where two keys
 * may share a hash: try the map's keys from *H on until SAME(ARG, value)
 * holds (true, *VAL set) or a key is free (false, *H is that key, where
 * a new one goes).
 */
bool
util_map_probe(const struct util_map *m, uint64_t *h,
    bool (*same)(const void *, uint64_t), const void *arg, uint64_t *val)
{
	uint64_t	 v;

	for (; util_map_get(m, *h, &v); (*h)++) {
		if (same(arg, v)) {
			*val = v;
			return true;
		}
	}
	return false;
}

/*
 * util_map32: the slots are any number (not a power of two), so a table of
 * N keys takes about 15 bytes a key rather than 32 to 64.
 */
void
util_map32_init(struct util_map32 *m)
{
	memset(m, 0, sizeof *m);
}

void
util_map32_release(struct util_map32 *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

static size_t
util_map32_slot(uint64_t key, size_t size)
{
	return (size_t)(util_map_mix(key) % size);
}

/* The slots for N keys at most 0.8 full. */
static size_t
util_map32_room(size_t n)
{
	return n + n / 4 + 64;
}

static void
util_map32_put(struct util_map32 *m, uint64_t key, uint32_t val1)
{
	size_t	 j;

	for (j = util_map32_slot(key, m->size); m->vals[j] != 0;
	    j = j + 1 == m->size ? 0 : j + 1) {
		if (m->keys[j] == key) {
			m->vals[j] = val1;
			return;
		}
	}
	m->keys[j] = key;
	m->vals[j] = val1;
	m->n++;
}

static void
util_map32_resize(struct util_map32 *m, size_t size)
{
	struct util_map32	 old = *m;
	size_t			 i;

	m->size = size;
	m->n = 0;
	m->keys = xcalloc(size, sizeof *m->keys);
	m->vals = xcalloc(size, sizeof *m->vals);
	for (i = 0; i < old.size; i++) {
		if (old.vals[i] != 0)
			util_map32_put(m, old.keys[i], old.vals[i]);
	}
	free(old.keys);
	free(old.vals);
}

/* Size M for N keys at once, so that filling it never resizes it. */
void
util_map32_reserve(struct util_map32 *m, size_t n)
{
	if (m->size < util_map32_room(n))
		util_map32_resize(m, util_map32_room(n));
}

/* Look KEY up; true and *VAL set if present. */
bool
util_map32_get(const struct util_map32 *m, uint64_t key, uint32_t *val)
{
	size_t	 j;

	if (m->size == 0)
		return false;
	for (j = util_map32_slot(key, m->size); m->vals[j] != 0;
	    j = j + 1 == m->size ? 0 : j + 1) {
		if (m->keys[j] == key) {
			*val = m->vals[j] - 1;
			return true;
		}
	}
	return false;
}

/* Set KEY to VAL (VAL below UINT32_MAX). */
void
util_map32_set(struct util_map32 *m, uint64_t key, uint32_t val)
{
	if (val == UINT32_MAX)
		fatalx("%s: value %u out of range", __func__, val);
	if (m->size == 0 || 5 * (m->n + 1) > 4 * m->size)
		util_map32_resize(m, util_map32_room(m->n + m->n / 2));
	util_map32_put(m, key, val + 1);
}
