/*
 * A collection's first device directory read while its host's API records
 * load. The device's info.json, task logs, PMU and AI CPU records need
 * nothing of the host but its expand_stream_spec flag, and reading the
 * API records keeps one core busy while the other waits: the device's
 * records are read on a thread of their own meanwhile, and taken when
 * the device directory's turn comes (prof_early_take()). The thread keeps
 * the files it reads and its warnings, in two parts, so that they reach
 * the store in the order a read in turn would write them.
 *
 * The device's tasks then share memory with the host's records, whose
 * peak comes when the task_track records are read: a directory whose
 * task logs promise more than PROF_EARLY_TASKS tasks (or
 * NPUPROF_EARLY_TASKS, if it is a number) is read in its turn, so that the
 * peak stays under the bound of the raw import (bench/prof.sh) for any
 * number of tasks.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

#define PROF_EARLY_TASKS	(3 << 19)	/* 1.5M: 48 MB of tasks */

/*
 * The tasks the task logs of device directory DIR hold at most: two logs
 * of 64 bytes a task in hwts.data, of 32 or 64 in stars_soc.data.
 */
static int64_t
prof_early_tasks(const char *dir)
{
	return prof_slices_bytes(dir, "hwts.data") / (2 * DEV_HWTS_SIZE) +
	    prof_slices_bytes(dir, "stars_soc.data") / (2 * DEV_STARS_V6_SIZE);
}

static void *
prof_early_main(void *arg)
{
	struct prof_early	*e = arg;
	char			*data;

	store_load_defer_begin(&e->defer_meta);
	e->meta_rc = prof_meta_read(e->s, e->dir, e->device, &e->m);
	store_load_defer_stop();
	store_load_defer_begin(&e->defer_data);
	data = util_path_join(e->dir, "data");
	prof_logs_read(e->s, data, &e->m, e->expand, &e->d);
	prof_pmu_read(e->s, data, &e->m, e->expand, &e->p);
	prof_aicpu_read(e->s, data, e->expand, &e->a);
	free(data);
	store_load_defer_stop();
	return NULL;
}

/*
 * Start reading the device directory DIR (device DEVICE) into E; EXPAND is
 * the host's expand_stream_spec flag. Without a thread, or with too many
 * tasks, E stays unused, and the directory is read in its turn.
 */
void
prof_early_start(struct prof_early *e, struct store *s, const char *dir,
    int64_t device, bool expand)
{
	/* The most tasks a directory read early may promise; 0: none. */
	int64_t	 bound = (int64_t)util_env_count("NPUPROF_EARLY_TASKS",
	    PROF_EARLY_TASKS, 0);

	memset(e, 0, sizeof *e);
	if (bound == 0 || prof_early_tasks(dir) > bound)
		return;
	e->s = s;
	e->dir = xstrdup(dir);
	e->device = device;
	e->expand = expand;
	e->started = pthread_create(&e->thread, NULL, prof_early_main, e) ==
	    0;
	if (!e->started) {
		free(e->dir);
		e->dir = NULL;
	}
}

/* True if E holds the device directory DIR, read or being read, not taken. */
bool
prof_early_has(const struct prof_early *e, const char *dir)
{
	return e != NULL && e->started && !e->taken &&
	    strcmp(e->dir, dir) == 0;
}

/* Wait for E's thread, once. */
static void
prof_early_join(struct prof_early *e)
{
	if (!e->started || e->joined)
		return;
	pthread_join(e->thread, NULL);
	e->joined = true;
}

/*
 * Wait for E's directory and write the files its info.json read named and
 * its warnings to S; return what prof_meta_read() returned, with the meta
 * into *M (E's, borrowed).
 */
int
prof_early_meta(struct prof_early *e, struct prof_meta *m)
{
	prof_early_join(e);
	store_load_defer_end(e->s, e->defer_meta);
	e->defer_meta = NULL;
	*m = e->m;
	return e->meta_rc;
}

/*
 * The records of E's directory, after prof_early_meta(): its files and
 * warnings are written to the store, and the records move to the caller,
 * who releases them.
 */
void
prof_early_take(struct prof_early *e, struct prof_dev *d, struct prof_pmu *p,
    struct prof_aicpus *a)
{
	store_load_defer_end(e->s, e->defer_data);
	e->defer_data = NULL;
	*d = e->d;
	*p = e->p;
	*a = e->a;
	memset(&e->d, 0, sizeof e->d);
	memset(&e->p, 0, sizeof e->p);
	memset(&e->a, 0, sizeof e->a);
	e->taken = true;
}

/*
 * Let go of E: a directory never taken (the host's spans failed to load)
 * has its records freed and its warnings dropped; the meta stays the
 * caller's once prof_early_meta() gave it.
 */
void
prof_early_release(struct prof_early *e)
{
	if (!e->started)
		return;
	prof_early_join(e);
	if (!e->taken) {
		prof_logs_release(&e->d);
		prof_pmu_release(&e->p);
		prof_aicpu_release(&e->a);
		if (e->defer_meta != NULL)
			prof_meta_release(&e->m);
		store_load_defer_end(NULL, e->defer_meta);
		store_load_defer_end(NULL, e->defer_data);
	}
	free(e->dir);
	memset(e, 0, sizeof *e);
}
