/*
 * Where an import's time goes, without the parser: usage floor N DIR.
 * First the SQLite floor (store_floor(): bare INSERTs of N task rows into
 * our schema, then its indexes). Then the store's own load interface fed
 * N ready-made tasks (interning, op statistics, the timeline tables and
 * indexes at commit). Whatever an import spends beyond the second figure
 * is parsing. Last, the floor of storing less (store_floor_blocks(): the
 * same tasks as column-coded blocks, one row per 1024 tasks). CPU
 * seconds throughout, so a loaded machine reads the same.
 */
#include <stdio.h>
#include <stdlib.h>

#include "store.h"

/* Feed N tasks shaped like the demo's through store_load_task(). */
static int
floor_store(const char *dir, int64_t n)
{
	static const char	*types[] = { "MatMul", "Add", "Conv2D",
	    "ReduceSum", "Cast", "Transpose", "Softmax", "LayerNorm" };
	static const char	*cores[] = { "AI_CORE", "AI_VECTOR_CORE",
	    "AI_CPU", "MIX_AIC" };
	struct store		*s;
	struct store_task	 t = { 0 };
	char			*path, *name, *shape, *cause = NULL;
	int64_t			 i, start_ns = 1700000000000000000LL;
	uint64_t		 r;
	double			 t0, t1, t2;

	xasprintf(&path, "%s/store.db", dir);
	if ((s = store_load_begin(path, dir, &cause)) == NULL) {
		fprintf(stderr, "floor: %s\n", cause);
		return -1;
	}
	t0 = store_floor_cpu();
	for (i = 0; i < n; i++) {
		r = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
		start_ns += 1000 + i % 5000;
		t.stream = i % 8;
		t.task = i & 0xffff;
		t.start_ns = start_ns;
		t.dur_ns = (int64_t)(r >> 40) % 200000;
		t.wait_ns = (int64_t)(r >> 30) % 1000;
		t.block_num = (int64_t)(r >> 20) % 48;
		t.mix_block_num = NP_NA;
		t.context = NP_NA;
		t.conn = NP_NA;
		t.api = NP_NA;
		t.step = i / 10000;
		t.op_type = types[(r >> 50) % 8];
		t.task_type = cores[(r >> 53) % 4];
		xasprintf(&name, "%s_%u", t.op_type,
		    (unsigned)((r >> 44) % 500));
		xasprintf(&shape, "\"%u,%u\"", (unsigned)(r >> 36) % 64,
		    (unsigned)(r >> 28) % 1024);
		t.name = name;
		t.in_shapes = t.out_shapes = shape;
		t.in_dtypes = t.out_dtypes = "FLOAT16";
		t.in_formats = t.out_formats = "ND";
		t.op_state = "static";
		t.hf32 = "NO";
		store_load_task(s, &t);
		free(name);
		free(shape);
	}
	t1 = store_floor_cpu();
	if (store_load_commit(s, &cause) != 0) {
		fprintf(stderr, "floor: %s\n", cause);
		return -1;
	}
	t2 = store_floor_cpu();
	printf("store load interface, %lld ready-made tasks: load %.2f"
	    " CPU-s, commit %.2f CPU-s, %.0f tasks per CPU-second\n",
	    (long long)n, t1 - t0, t2 - t1, n / (t2 - t0));
	free(path);
	return 0;
}

int
main(int argc, char **argv)
{
	char		*path, *cause = NULL;
	int64_t		 n, bytes;
	double		 ins, idx;

	if (argc != 3 || (n = strtoll(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: floor N DIR\n");
		return 2;
	}
	xasprintf(&path, "%s/floor.db", argv[2]);
	if (store_floor(path, n, &ins, &idx, &cause) != 0) {
		fprintf(stderr, "floor: %s\n", cause);
		return 1;
	}
	printf("SQLite floor, %lld bare task INSERTs: %.2f CPU-s, the"
	    " store's indexes %.2f CPU-s, at most %.0f rows per"
	    " CPU-second\n", (long long)n, ins, idx, n / (ins + idx));
	free(path);
	xasprintf(&path, "%s/blocks.db", argv[2]);
	if (store_floor_blocks(path, n, &ins, &bytes, &cause) != 0) {
		fprintf(stderr, "floor: %s\n", cause);
		return 1;
	}
	printf("storing less (issue #24), the same tasks as column-coded"
	    " blocks of 1024: %.2f CPU-s, %.1f MB of blobs, %.0f tasks per"
	    " CPU-second\n", ins, bytes / 1e6, n / ins);
	free(path);
	return floor_store(argv[2], n) == 0 ? 0 : 1;
}
