/*
 * The call tree built in a thread (store-job.c) is the one built
 * at once, folded line for line, for the whole profile, a device, a step
 * and a time window; a step the profile lacks fails with its reason; a
 * job freed while it runs stops (the sanitizer build checks that nothing
 * leaks or races).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "tap.h"

#define NTASKS	3000

static const char *ops[] = { "MatMulV2", "Add", "Conv2D" };
static const char *names[] = { "mm_1", "add_2", "conv_3", "mm_4" };

/* The folded text of tree ST, as show prints it. */
static char *
fold(const struct store_stacks *st)
{
	char	*buf = NULL;
	size_t	 size = 0;
	FILE	*f;

	if ((f = open_memstream(&buf, &size)) == NULL)
		return xstrdup("");
	store_stacks_fold(f, st);
	fclose(f);
	return buf;
}

/* The tree of O built by a job, waited for; NULL with *cause. */
static struct store_stacks *
by_job(struct store *s, const struct store_stacks_opts *o, char **cause)
{
	struct store_stacks_job	*j;
	struct store_stacks	*st = NULL;
	int			 rc;

	if ((j = store_stacks_job_start(s, o, cause)) == NULL)
		return NULL;
	while ((rc = store_stacks_job_poll(j, &st, cause)) == 0)
		usleep(1000);
	store_stacks_job_free(j);
	return rc == 1 ? st : NULL;
}

static void
same_tree(struct store *s, const struct store_stacks_opts *o,
    const char *what)
{
	struct store_stacks	*a, *b;
	char			*fa, *fb, *cause = NULL;

	a = store_stacks_build(s, o, &cause);
	free(cause);
	cause = NULL;
	b = by_job(s, o, &cause);
	if (a == NULL || b == NULL) {
		ok(0, "%s: %s", what, cause != NULL ? cause : "no tree");
		free(cause);
		store_stacks_free(a);
		store_stacks_free(b);
		return;
	}
	fa = fold(a);
	fb = fold(b);
	ok(strcmp(fa, fb) == 0 && *fa != '\0', "%s: the job's tree is the "
	    "one built at once", what);
	free(fa);
	free(fb);
	store_stacks_free(a);
	store_stacks_free(b);
}

static struct store *
make_store(const char *db)
{
	struct store_task	 t;
	struct store		*s;
	char			*cause = NULL;
	size_t			 i;

	unlink(db);
	if ((s = store_load_begin(db, "/nonexistent-job", &cause)) == NULL) {
		ok(0, "load: %s", cause);
		free(cause);
		return NULL;
	}
	for (i = 0; i < NTASKS; i++) {
		memset(&t, 0, sizeof t);
		t.device = (int64_t)(i % 2);
		t.rank = NP_NA;
		t.step = 1 + (int64_t)(i * 3 / NTASKS);
		t.model_id = t.stream = t.task = t.batch = t.context = NP_NA;
		t.wait_ns = t.block_num = t.mix_block_num = NP_NA;
		t.conn = t.api = NP_NA;
		t.start_ns = 1000000 + (int64_t)i * 1000;
		t.dur_ns = 100 + (int64_t)(i % 97);
		t.op_type = ops[i % 3];
		t.task_type = "AI_CORE";
		t.name = names[i % 4];
		store_load_task(s, &t);
	}
	ok(store_load_commit(s, &cause) == 0, "commit");
	free(cause);
	cause = NULL;
	if ((s = store_open(db, &cause)) == NULL) {
		ok(0, "open: %s", cause);
		free(cause);
	}
	return s;
}

int
main(void)
{
	struct store_stacks_opts	 o;
	struct store_stacks_job		*j;
	struct store_stacks		*st;
	struct store			*s;
	char				 dir[] = "/tmp/t-stacks-job.XXXXXX";
	char				*db, *cause = NULL;

	if (mkdtemp(dir) == NULL)
		return 1;
	xasprintf(&db, "%s/s.db", dir);
	if ((s = make_store(db)) != NULL) {
		store_stacks_opts_init(&o);
		same_tree(s, &o, "the whole profile");
		o.device = 1;
		same_tree(s, &o, "device 1");
		store_stacks_opts_init(&o);
		o.step = 2;
		same_tree(s, &o, "step 2");
		store_stacks_opts_init(&o);
		o.from_ns = 1500000;
		o.to_ns = 2500000;
		same_tree(s, &o, "a time window");

		store_stacks_opts_init(&o);
		o.step = 99;
		st = by_job(s, &o, &cause);
		ok(st == NULL && cause != NULL &&
		    strstr(cause, "no step 99") != NULL,
		    "a step the profile lacks: the job says so");
		store_stacks_free(st);
		free(cause);
		cause = NULL;

		/* Freed at once: it stops, whatever it had got to. */
		store_stacks_opts_init(&o);
		j = store_stacks_job_start(s, &o, &cause);
		ok(j != NULL, "a job starts");
		store_stacks_job_free(j);
		ok(1, "a job freed while it runs stops");
		free(cause);
		store_free(s);
	}
	unlink(db);
	free(db);
	rmdir(dir);
	return done_testing();
}
