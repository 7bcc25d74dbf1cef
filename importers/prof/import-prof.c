/*
 * Raw PROF_* collections (doc/formats.md sections 1-4): a PROF_* directory
 * with host/ and device_N/ collection directories, or one bare host/ or
 * device_N/ directory, each holding control files and data/ slices. The
 * host half gives API spans and ops, the device half task logs; the join
 * turns them into the store's task rows, from which the statistics are
 * computed at commit. A PROF_* directory that holds only an export has no
 * raw data and is left to the msprof importer.
 */
#include <stdlib.h>
#include <string.h>

#include "prof-int.h"

/* True if DIR/data holds at least one data slice. */
static bool
import_prof_has_data(const char *dir)
{
	char	**names, *data;
	size_t	  n, i;
	bool	  found = false;

	data = util_path_join(dir, "data");
	names = util_dir_list(data, &n);
	for (i = 0; i < n && !found; i++) {
		if (strstr(names[i], ".slice_") != NULL &&
		    !util_has_suffix(names[i], ".done") &&
		    !util_has_suffix(names[i], ".complete"))
			found = true;
	}
	util_strv_free(names, n);
	free(data);
	return found;
}

/* The device id of a collection directory name, NP_NA if not one. */
static int64_t
import_prof_device(const char *name)
{
	const char	*p;
	int64_t		 dev;

	if (strcmp(name, "host") == 0)
		return NP_HOST_DEVICE;
	if (!util_has_prefix(name, "device_"))
		return NP_NA;
	p = strrchr(name, '_') + 1;
	if (util_parse_int(p, strlen(p), &dev) != 0 || dev < 0 ||
	    dev >= NP_HOST_DEVICE)
		return NP_NA;
	return dev;
}

/* True if PATH holds host/ or device_N/ directories with raw data. */
static bool
import_prof_is_prof(const char *path)
{
	char	**names, *p;
	size_t	  n, i;
	bool	  found = false;

	names = util_dir_list(path, &n);
	for (i = 0; i < n && !found; i++) {
		if (import_prof_device(names[i]) == NP_NA)
			continue;
		p = util_path_join(path, names[i]);
		found = import_prof_has_data(p);
		free(p);
	}
	util_strv_free(names, n);
	return found;
}

int
import_prof_probe(const char *path, bool isdir)
{
	if (!isdir)
		return IMPORT_NO;
	if (import_prof_is_prof(path))
		return IMPORT_BEST;
	if (import_prof_device(util_basename(path)) != NP_NA &&
	    import_prof_has_data(path))
		return IMPORT_BEST;
	return IMPORT_NO;
}

/* Record what the metadata says about the collection. */
static void
import_prof_meta(struct store *s, const struct prof_meta *m)
{
	const char	*chip = prof_meta_chip_name(m->chip);

	if (chip != NULL)
		store_load_meta(s, "chip", chip);
	if (m->prof_level != NULL)
		store_load_meta(s, "prof_level", m->prof_level);
	if (m->aic_metrics != NULL)
		store_load_meta(s, "aic_metrics", m->aic_metrics);
}

/*
 * Load the device directory DIR, joined with host data H (may be empty),
 * as rank RANK: the host's, else the device's info.json's, else, when
 * the profile is one of several, the device id (warned). Set ctx->rank
 * to the rank used, if any. MEMS, if set, takes its process memory
 * samples (APP), DMEM its memory samples and module memory records.
 * LAST if it is the last device directory to read. EARLY (or NULL) may
 * hold DIR read already.
 */
static void
import_prof_device_dir(struct store *s, const char *dir, int64_t device,
    struct prof_host *h, int64_t rank, struct import_ctx *ctx,
    struct prof_mems *mems, struct prof_devmem *dmem, bool last,
    struct prof_early *early)
{
	struct prof_meta	 m;
	struct prof_dev		 d;
	struct prof_pmu		 p;
	struct prof_aicpus	 a;
	char			*data;
	size_t			 napp;
	bool			 read = prof_early_has(early, dir);

	store_load_progress_bytes(s, "device", dir, -1);
	if ((read ? prof_early_meta(early, &m) : prof_meta_read(s, dir,
	    device, &m)) != 0)
		store_load_warning(s, dir, -1, "no info.json: chip and "
		    "frequencies unknown");
	import_prof_meta(s, &m);
	if (rank == NP_NA && m.rank != NP_NA) {
		rank = m.rank;
		store_load_rank(s, rank, dir);
	} else if (rank == NP_NA && ctx->several && device >= 0) {
		rank = device;
		store_load_warning(s, dir, -1, "no rank_id: its device id %lld "
		    "is taken as its rank", (long long)device);
		store_load_rank(s, rank, dir);
	}
	if (rank != NP_NA)
		ctx->rank = rank;
	data = util_path_join(dir, "data");
	if (read)
		prof_early_take(early, &d, &p, &a);
	else {
		prof_logs_read(s, data, &m, h->expand, &d);
		prof_pmu_read(s, data, &m, h->expand, &p);
		prof_aicpu_read(s, data, h->expand, &a);
	}
	napp = dmem->npu.n;
	prof_npumem_read(s, data, &m, rank, &dmem->npu);
	if (mems != NULL)
		prof_mem_app_take(&dmem->npu, napp, mems);
	prof_modmem_read(s, data, &m, rank, &dmem->mod);
	store_load_pmu_names(s, p.n > 0 ? &p.names : NULL);
	store_load_progress_bytes(s, "join", dir, last ? 0 : -1);
	prof_join_load(s, h, &d, &m, &p, &a, rank);
	prof_aicpu_load(s, &a, &m, device, rank);
	prof_aicpu_comm_load(s, &a, &m, &h->dicts, device, rank);
	prof_step_load(s, data, &m, &a, rank);
	prof_aicpu_release(&a);
	store_load_pmu_names(s, NULL);
	prof_pmu_release(&p);
	prof_logs_release(&d);
	free(data);
	prof_meta_release(&m);
}

/*
 * Start the progress of PATH, counted in the bytes of its slices: those
 * of HOSTDIR, if any, and of its N device directories NAMES, or of PATH
 * itself when BARE.
 */
static void
import_prof_progress(struct store *s, const char *path, const char *hostdir,
    char **names, size_t n, bool bare)
{
	int64_t	 dev, total = 0;
	char	*p;
	size_t	 i;

	if (hostdir != NULL)
		total += prof_slices_bytes(hostdir, NULL);
	if (bare && import_prof_device(util_basename(path)) != NP_HOST_DEVICE)
		total += prof_slices_bytes(path, NULL);
	for (i = 0; i < n; i++) {
		dev = import_prof_device(names[i]);
		if (dev == NP_NA || dev == NP_HOST_DEVICE)
			continue;
		p = util_path_join(path, names[i]);
		total += prof_slices_bytes(p, NULL);
		free(p);
	}
	store_load_progress_bytes(s, hostdir != NULL ? "host" : "device",
	    path, total);
}

/*
 * The rank of a profile without rank_id in its host's info.json, when it
 * is one of several: the id of its only device directory among the N
 * NAMES of PATH (warned), else none.
 */
static int64_t
import_prof_one_device(struct store *s, const char *path, char **names,
    size_t n)
{
	int64_t	 dev, one = NP_NA;
	size_t	 i, k = 0;

	for (i = 0; i < n; i++) {
		dev = import_prof_device(names[i]);
		if (dev == NP_NA || dev == NP_HOST_DEVICE)
			continue;
		one = dev;
		k++;
	}
	if (k != 1)
		return NP_NA;
	store_load_warning(s, path, -1, "no rank_id: its one device's id "
	    "%lld is taken as its rank", (long long)one);
	return one;
}

/*
 * True if PATH is the first (by name) PROF_* collection in PARENT: the
 * FRAMEWORK/ records beside them are the process's and are read once.
 */
static bool
import_prof_first(const char *parent, const char *path)
{
	char		**names, *p, *own, *end;
	const char	 *base, *first = NULL;
	size_t		  n, i;
	bool		  is;

	own = xstrdup(path);
	while ((end = strrchr(own, '/')) != NULL && end[1] == '\0' &&
	    end != own)
		*end = '\0';
	base = util_basename(own);
	names = util_dir_list(parent, &n);
	for (i = 0; i < n; i++) {
		if (!util_has_prefix(names[i], "PROF_") || (first != NULL &&
		    strcmp(names[i], first) >= 0))
			continue;
		p = util_path_join(parent, names[i]);
		if (import_prof_is_prof(p))
			first = names[i];
		free(p);
	}
	is = first == NULL || strcmp(first, base) == 0;
	util_strv_free(names, n);
	free(own);
	return is;
}

/* The folder PATH is in; the caller frees it. */
static char *
import_prof_parent(const char *path)
{
	char	*parent, *slash;

	parent = xstrdup(path);
	while ((slash = strrchr(parent, '/')) != NULL && slash[1] == '\0' &&
	    slash != parent)
		*slash = '\0';
	if ((slash = strrchr(parent, '/')) != NULL)
		slash[slash == parent ? 1 : 0] = '\0';
	else {
		free(parent);
		parent = xstrdup(".");
	}
	return parent;
}

/*
 * The folder of PATH if PATH is the PROF_* half of an un-analysed
 * torch_npu profile, beside its FRAMEWORK/ and the first of its PROF_*
 * (the records are read once); NULL if not. The caller frees it.
 */
static char *
import_prof_torch(const char *path)
{
	char	*parent;

	parent = import_prof_parent(path);
	if (util_dir_has(parent, "FRAMEWORK") &&
	    !util_dir_has(parent, "ASCEND_PROFILER_OUTPUT") &&
	    import_prof_first(parent, path))
		return parent;
	free(parent);
	return NULL;
}

/*
 * True if PATH is a PROF_* of an un-analysed torch_npu profile, the first
 * or not: beside a FRAMEWORK/ of no MindSpore records, with no
 * ASCEND_PROFILER_OUTPUT/. Its tables that torch_npu copies from msprof's
 * export take torch_npu's columns.
 */
static bool
import_prof_pt_folder(const char *path)
{
	char	*parent, *fwk;
	bool	 pt;

	parent = import_prof_parent(path);
	pt = util_dir_has(parent, "FRAMEWORK") &&
	    !util_dir_has(parent, "ASCEND_PROFILER_OUTPUT");
	if (pt) {
		fwk = util_path_join(parent, "FRAMEWORK");
		pt = !prof_fwk_is_ms(fwk);
		free(fwk);
	}
	free(parent);
	return pt;
}

/*
 * If PATH is the PROF_* half of an un-analysed torch_npu profile, decode
 * the FRAMEWORK/ folder beside it, with the host metadata HM, for the
 * rank of CTX; NAMES (N) are PATH's entries, for the devices (the first
 * into *DEVICE). Return true if it held PyTorch ops; set *QUEUE if it had
 * task queue marks. *MEM takes its NPU memory records (done set if the
 * folder was read).
 */
static bool
import_prof_framework(struct store *s, const char *path,
    const struct prof_meta *hm, const struct import_ctx *ctx, char **names,
    size_t n, bool *queue, int64_t *device, struct prof_fwk_out *mem)
{
	char	*parent, *fwk;
	int64_t	 dev = NP_NA, d;
	size_t	 i, ndev = 0;
	bool	 ops = false;

	memset(mem, 0, sizeof *mem);
	mem->device = NP_NA;
	if ((parent = import_prof_torch(path)) != NULL) {
		for (i = 0; i < n; i++) {
			d = import_prof_device(names[i]);
			if (d == NP_NA || d == NP_HOST_DEVICE)
				continue;
			ndev++;
			if (dev == NP_NA || d < dev)
				dev = d;
		}
		fwk = util_path_join(parent, "FRAMEWORK");
		store_load_progress_bytes(s, "framework", fwk, -1);
		ops = prof_fwk_load(s, parent, fwk, hm, ctx, dev, ndev, queue,
		    mem);
		mem->done = true;
		*device = dev;
		free(fwk);
		free(parent);
	}
	return ops;
}

/*
 * The rank of PATH, the PROF_* half of an un-analysed torch_npu profile,
 * from its profiler_info*.json when CANN's info.json gives none (as
 * torch_npu's analysis takes it). Return true if it set CTX's rank.
 */
static bool
import_prof_torch_rank(struct store *s, const char *path,
    struct import_ctx *ctx)
{
	char	**names, *parent, *p, *why = NULL;
	size_t	  n, i;
	bool	  done = false;

	if ((parent = import_prof_torch(path)) == NULL)
		return false;
	names = util_dir_list(parent, &n);
	for (i = 0; i < n && !done; i++) {
		if (!util_has_prefix(names[i], "profiler_info") ||
		    !util_has_suffix(names[i], ".json"))
			continue;
		p = util_path_join(parent, names[i]);
		if (import_meta_profiler_info(s, p, ctx, &why) != 0) {
			store_load_warning(s, p, -1, "%s", why);
			free(why);
			why = NULL;
		}
		done = ctx->rank != NP_NA;
		free(p);
	}
	util_strv_free(names, n);
	free(parent);
	return done;
}

/*
 * MindSpore's async_npu flows of RANK, from its launch ranges to the
 * device tasks of the collection PATH, once both are loaded, by the rule
 * of MindSpore 2.VER (or of 2.3's release candidates: PROF_MS_23RC).
 */
static void
import_prof_ms_flows(struct store *s, const char *path, int64_t rank,
    int ver)
{
	int64_t	 made, missed;
	char	*why = NULL;

	/*
	 * 2.3 lets a launch start up to 1 ms before its range; its release
	 * candidates take any range of the thread.
	 */
	if (store_ms_flows_load(s, rank, ver == 23 ? 1000000 : 0, ver == 23 ||
	    ver == PROF_MS_23RC, ver == PROF_MS_23RC, &made, &missed,
	    &why) != 0) {
		store_load_warning(s, path, -1, "%s", why);
		free(why);
		return;
	}
	if (made > 0 && missed > 0)
		store_load_warning(s, path, -1, "%lld launched device task%s "
		    "in no MindSpore launch range of their thread: no "
		    "async_npu flow, as MindSpore draws none",
		    (long long)missed, missed == 1 ? "" : "s");
}

/*
 * Start reading the first device directory among the N NAMES of PATH
 * into EARLY while the host's API records load (prof-early.c); EXPAND is
 * the host's expand_stream_spec flag.
 */
static void
import_prof_early(struct store *s, const char *path, char **names, size_t n,
    bool expand, struct prof_early *early)
{
	int64_t	 dev;
	char	*p;
	size_t	 i;

	for (i = 0; i < n; i++) {
		dev = import_prof_device(names[i]);
		if (dev == NP_NA || dev == NP_HOST_DEVICE)
			continue;
		p = util_path_join(path, names[i]);
		prof_early_start(early, s, p, dev, expand);
		free(p);
		return;
	}
}

int
import_prof_load(struct store *s, const char *path, struct import_ctx *ctx,
    char **cause)
{
	struct prof_host	 h;
	struct prof_host_nodes	 nodes;
	struct prof_meta	 hm;
	struct prof_fwk_out	 fo;
	struct prof_mems	 mems;
	struct prof_devmem	 dmem;
	struct prof_early	 early;
	char			**names, *hostdir = NULL, *p, *data;
	size_t			  n, i, last;
	int64_t			  dev, rank, tdev = NP_NA;
	char			 *why = NULL;
	bool			  bare, torch, queue = false, torchmem, msmem;
	bool			  expand;
	struct store_defer	 *expand_defer = NULL;

	bare = import_prof_device(util_basename(path)) != NP_NA;
	names = bare ? NULL : util_dir_list(path, &n);
	if (bare) {
		n = 0;
		if (import_prof_device(util_basename(path)) == NP_HOST_DEVICE)
			hostdir = xstrdup(path);
	} else if (util_dir_has(path, "host"))
		hostdir = util_path_join(path, "host");
	memset(&h, 0, sizeof h);
	memset(&hm, 0, sizeof hm);
	memset(&early, 0, sizeof early);
	import_prof_progress(s, path, hostdir, names, n, bare);
	if (hostdir != NULL) {
		if (prof_meta_read(s, hostdir, NP_HOST_DEVICE, &hm) != 0)
			store_load_warning(s, hostdir, -1, "no info.json: "
			    "host times taken as monotonic ns");
		ctx->rank = hm.rank;
		if (hm.rank != NP_NA || bare ||
		    !import_prof_torch_rank(s, path, ctx)) {
			if (hm.rank == NP_NA && ctx->several)
				ctx->rank = import_prof_one_device(s, path,
				    names, n);
			if (ctx->rank != NP_NA)
				store_load_rank(s, ctx->rank, path);
		}
		data = util_path_join(hostdir, "data");
		/*
		 * Read first, but its file and warnings go where a read
		 * after the task records writes them.
		 */
		store_load_defer_begin(&expand_defer);
		expand = prof_host_read_expand(s, data);
		store_load_defer_stop();
		import_prof_early(s, path, names, n, expand, &early);
		prof_host_read(s, data, &h);
		h.expand = expand;
		h.meta = &hm;
		prof_mstx_load(s, data, &h, &hm, ctx->rank);
		/* The node records are read while the spans are written. */
		prof_host_nodes_start(&nodes, s, data, &h);
		if (prof_ops_load_spans(s, &h, &hm, ctx->rank, cause) != 0) {
			prof_host_nodes_join(&nodes);
			prof_early_release(&early);
			store_load_defer_end(NULL, expand_defer);
			free(data);
			util_strv_free(names, n);
			prof_host_release(&h);
			prof_meta_release(&hm);
			free(hostdir);
			return -1;
		}
		prof_comm_load(s, &h, &hm, ctx->rank);
		prof_hccl_pack(&h);
		prof_ops_keep(&h);
		prof_extra_tables(s, &h, &hm, ctx->rank);
		prof_host_nodes_join(&nodes);
		prof_host_read_records(s, data, &h);
		store_load_defer_end(s, expand_defer);
		expand_defer = NULL;
		if (h.track_v2)
			store_load_meta(s, "task_track_layout", "V2");
		free(data);
		prof_ops_build(&h);
		prof_hccl_build(&h);
		prof_ops_finish(&h);
	} else if (!bare || import_prof_device(util_basename(path)) !=
	    NP_HOST_DEVICE)
		store_load_warning(s, path, -1, "no host directory: device "
		    "tasks have no op names, and op_summary, which lists "
		    "compute ops only, has none (task_time has them all)");
	rank = ctx->rank;
	memset(&fo, 0, sizeof fo);
	memset(&mems, 0, sizeof mems);
	memset(&dmem, 0, sizeof dmem);
	torch = !bare && import_prof_framework(s, path, &hm, ctx, names, n,
	    &queue, &tdev, &fo);
	/* GE's memory records, for the framework's memory_record. */
	torchmem = fo.done && !fo.mindspore;
	/* MindSpore builds memory_record only with profile_memory on. */
	msmem = fo.done && fo.mindspore && fo.ms_memory != 0;
	if ((torchmem || msmem) && hostdir != NULL) {
		data = util_path_join(hostdir, "data");
		prof_mem_ge_read(s, data, &hm, &mems);
		free(data);
	}
	if (torchmem && hostdir != NULL)
		prof_mem_record_ops(s, &mems, &h.dicts, &hm, rank, fo.device !=
		    NP_NA ? fo.device : ctx->device);
	if (bare && import_prof_device(util_basename(path)) != NP_HOST_DEVICE)
		import_prof_device_dir(s, path, import_prof_device(
		    util_basename(path)), &h, rank, ctx, NULL, &dmem, true,
		    NULL);
	for (i = 0, last = SIZE_MAX; i < n; i++) {
		dev = import_prof_device(names[i]);
		if (dev != NP_NA && dev != NP_HOST_DEVICE)
			last = i;
	}
	for (i = 0; i < n; i++) {
		dev = import_prof_device(names[i]);
		/* "device_abc", "device_-1", "device_64": not a device. */
		if (dev == NP_NA && util_has_prefix(names[i], "device_")) {
			p = util_path_join(path, names[i]);
			store_load_warning(s, p, -1, "not a device folder "
			    "(device_N, N from 0 to %d): not imported",
			    NP_HOST_DEVICE - 1);
			free(p);
		}
		if (dev == NP_NA || dev == NP_HOST_DEVICE)
			continue;
		p = util_path_join(path, names[i]);
		import_prof_device_dir(s, p, dev, &h, rank, ctx,
		    torchmem || msmem ? &mems : NULL, &dmem, i == last,
		    &early);
		free(p);
	}
	prof_early_release(&early);
	util_strv_free(names, n);
	/* torch_npu copies msprof's table into its own columns. */
	prof_modmem_write(s, &dmem.mod, !bare && import_prof_pt_folder(path),
	    path);
	prof_npumem_write(s, &dmem.npu, path);
	prof_hccl_opstat_write(s, &h, path);
	prof_modmems_release(&dmem.mod);
	prof_npumems_release(&dmem.npu);
	if (torchmem)
		prof_mem_record_write(s, &fo, &mems, path, rank, ctx);
	else if (msmem)
		prof_ms_mem_write(s, &fo, &mems, path, rank, ctx);
	if (fo.mindspore)
		import_prof_ms_flows(s, path, rank, fo.ms_ver);
	free(fo.v);
	free(fo.path);
	free(fo.msv);
	free(fo.ms_path);
	prof_mems_release(&mems);
	/* PyTorch steps and operator_details once the kernels are in. */
	if (torch && store_torch_ops_load(s, rank, queue, tdev, &why) !=
	    0) {
		store_load_warning(s, path, -1, "%s", why);
		free(why);
	}
	prof_host_release(&h);
	prof_meta_release(&hm);
	free(hostdir);
	return 0;
}
