/*
 * The advice table: what to fix, with the numbers that prove it. Each
 * rule is a row of store_advice_rules: a name (its key in config.yaml),
 * a category, what it needs from the store (a query that answers whether
 * the store has it), a threshold, and a query over the store whose rows
 * are its findings: a score (the value over the threshold; 0 for
 * information), the finding with its numbers, a suggestion (NULL: the
 * rule's own), where the evidence is (a table and a filter, or a time
 * for the timeline) and the rank. The threshold is bound as ?1, the
 * timeline's origin (ns) as ?2.
 *
 * Before the rules run, the run's overall breakdown (store-overall.c) is
 * put in the temporary tables overall_part (rank, ord, label, ms, ratio,
 * n) and overall_group (rank, grp, comm, wait, transmit; ms) when the
 * trace has its overlap analysis, and np_pmu_named(set, pmu, name) reads
 * a kernel's PMU value by its column name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store-int.h"

struct store_advice_rule {
	const char	*name;
	const char	*category;
	const char	*needs;		/* what the rule reads, for the man page */
	const char	*applies;	/* SQL: one row if the store has it */
	double		 threshold;
	const char	*unit;
	const char	*query;
	const char	*suggestion;
};

#define ADVICE_TASKS	"SELECT 1 FROM task LIMIT 1"
#define ADVICE_SPANS	"SELECT 1 FROM api LIMIT 1"
#define ADVICE_OVERALL	"SELECT 1 FROM temp.overall_part LIMIT 1"

static struct store_advice_rule store_advice_rules[] = {
	{ "overall", "Overall",
	  "the trace's overlap analysis, or a database export",
	  ADVICE_OVERALL, 0, "",
	  "SELECT 0, printf('%s: %.3f ms, %.1f%% of %.3f ms end to end%s',"
	  " label, ms, ratio * 100, (SELECT ms FROM temp.overall_part e"
	  " WHERE e.rank IS p.rank AND e.label = 'E2E Time'), CASE WHEN"
	  " n >= 0 THEN printf(', %d kernels', n) ELSE '' END), '',"
	  " 'overall', rank FROM temp.overall_part p WHERE ms > 0 AND"
	  " label <> 'E2E Time' ORDER BY rank, ord",
	  "Where the time goes, as msprof-analyze splits it." },
	{ "free-time", "Scheduling",
	  "the trace's overlap analysis, or a database export",
	  ADVICE_OVERALL, 0.1, "share of end to end",
	  "SELECT ratio / ?1, printf('the device is free (neither computing"
	  " nor communicating) %.3f ms, %.1f%% of the run', ms, ratio * 100),"
	  " NULL, 'overall', rank FROM temp.overall_part WHERE label ="
	  " 'Free Time' AND ratio >= ?1",
	  "The host does not keep the device busy: see launch-gap for where;"
	  " fewer and larger ops (fusion, graph mode), TASK_QUEUE_ENABLE=2,"
	  " a larger ACLNN_CACHE_LIMIT, and no host work inside the step"
	  " (data loading, logging) help." },
	{ "uncovered-communication", "Communication",
	  "the trace's overlap analysis and HCCL process, or a database"
	  " export",
	  "SELECT 1 FROM temp.overall_group LIMIT 1", 0.1,
	  "share of end to end",
	  "SELECT g.comm / e.ms / ?1, printf('communication group %s is"
	  " uncovered by computing %.3f ms, %.1f%% of the run: %.3f ms"
	  " waiting, %.3f ms transmitting', g.grp, g.comm, g.comm / e.ms *"
	  " 100, g.wait, g.transmit), CASE WHEN g.wait > g.transmit THEN"
	  " 'Most of it is waiting for other ranks: look for the slow rank"
	  " (a cluster''s slow-rank findings) and balance the work between"
	  " ranks.' ELSE 'Most of it is transmitting: overlap it with"
	  " computing (bucketed or asynchronous collectives, gradient"
	  " accumulation) or move less data.' END, 'overall', g.rank FROM"
	  " temp.overall_group g JOIN temp.overall_part e ON e.rank IS"
	  " g.rank AND e.label = 'E2E Time' WHERE e.ms > 0 AND g.comm / e.ms"
	  " >= ?1", NULL },
	{ "wait-ratio", "Communication", "torch_npu's communication.json",
	  "SELECT 1 FROM generic WHERE name = 'communication'", 0.2,
	  "Wait Time Ratio",
	  "SELECT max(r) / ?1, printf('%d of %d communication ops wait"
	  " %.0f%% of their time or more, %.3f ms waiting in them; most"
	  " %s, %.1f%%', sum(r >= ?1), count(*), ?1 * 100,"
	  " sum(CASE WHEN r >= ?1 THEN w ELSE 0 END),"
	  " (SELECT \"Op Name\" FROM communication c2 WHERE c2._rank IS"
	  " c._rank AND c2.\"Op Name\" <> 'Total Op Info' ORDER BY"
	  " CAST(c2.\"Wait Time Ratio\" AS REAL) DESC LIMIT 1), max(r) * 100),"
	  " NULL, 'communication:Wait Time Ratio', _rank FROM (SELECT _rank,"
	  " \"Op Name\", CAST(\"Wait Time Ratio\" AS REAL) r,"
	  " CAST(\"Wait Time(ms)\" AS REAL) w FROM communication WHERE"
	  " \"Op Name\" <> 'Total Op Info') c GROUP BY _rank HAVING max(r) >="
	  " ?1",
	  "The ranks reach their collectives at different times: the one"
	  " that waits least is the slow one (see the cluster's findings);"
	  " balance its work, or look at its host (data loading, logging)." },
	{ "alignment", "Communication",
	  "the HCCL tasks of the trace with their sizes",
	  "SELECT 1 FROM lane WHERE tid IS NULL AND name IN ('HCCL',"
	  " 'Communication')", 1, "ops",
	  "WITH h AS (SELECT DISTINCT pid FROM lane WHERE tid IS NULL AND name"
	  " IN ('HCCL', 'Communication')), o AS (SELECT a.id, a.rank, a.pid,"
	  " a.start_ns, a.end_ns, n.s name FROM api a JOIN h USING (pid) JOIN"
	  " lane l ON l.pid = a.pid AND l.tid = a.tid JOIN str n ON n.id ="
	  " a.name WHERE l.name LIKE '%Communication%'), t AS (SELECT a.rank,"
	  " a.pid, a.start_ns, a.end_ns - a.start_ns dur, CAST(json_extract("
	  "a.args, '$.\"size(Byte)\"') AS INTEGER) size FROM api a JOIN h"
	  " USING (pid) WHERE json_valid(a.args) AND json_extract(a.args,"
	  " '$.\"transport type\"') = 'SDMA' AND json_extract(a.args,"
	  " '$.\"link type\"') <> 'ON_CHIP' AND CAST(json_extract(a.args,"
	  " '$.\"size(Byte)\"') AS INTEGER) > 512 AND CAST(json_extract("
	  "a.args, '$.\"size(Byte)\"') AS INTEGER) % 512 <> 0), u AS (SELECT"
	  " o.rank, o.id, o.name, t.dur, t.size FROM t JOIN o ON o.pid ="
	  " t.pid AND o.rank IS t.rank AND t.start_ns BETWEEN o.start_ns AND"
	  " o.end_ns) SELECT count(DISTINCT id) * 1.0 / ?1,"
	  " printf('data not a multiple of 512 bytes goes over SDMA between"
	  " chips in %s: %s, %.3f us, %d to %d bytes (%s among them)',"
	  " CASE count(DISTINCT id) WHEN 1 THEN 'a communication op' ELSE"
	  " printf('%d communication ops', count(DISTINCT id)) END, CASE"
	  " count(*) WHEN 1 THEN '1 task' ELSE printf('%d tasks', count(*))"
	  " END, sum(dur) / 1000.0, min(size), max(size), min(name)), NULL,"
	  " 'spans:Name:^' || min(name) || '$', rank FROM u GROUP BY rank"
	  " HAVING count(DISTINCT id) >= ?1",
	  "Unaligned transfers run at a fraction of the link's bandwidth:"
	  " pad the tensors a collective moves (bucket sizes, hidden and"
	  " vocabulary sizes) to multiples of 512 bytes." },
	{ "packet", "Communication",
	  "torch_npu's communication.json (its bandwidth per transport)",
	  "SELECT 1 FROM generic WHERE name = 'communication_bandwidth'", 0.2,
	  "share of ops",
	  "SELECT r / ?1, printf('%.1f%% of the communication ops that use"
	  " %s (%d of %d) move under %d MB each, %.3f ms of transfers in"
	  " all', r * 100, t, k, n, m, ms), NULL,"
	  " 'communication_bandwidth:Transport Type:^' || t || '$', _rank FROM"
	  " (SELECT _rank, \"Transport Type\" t, CASE \"Transport Type\" WHEN"
	  " 'SDMA' THEN 16 ELSE 1 END m, count(*) n, sum(CAST(\"Transit"
	  " Size(MB)\" AS REAL) < CASE \"Transport Type\" WHEN 'SDMA' THEN 16"
	  " ELSE 1 END) k, sum(CASE WHEN CAST(\"Transit Size(MB)\" AS REAL) <"
	  " CASE \"Transport Type\" WHEN 'SDMA' THEN 16 ELSE 1 END THEN"
	  " CAST(\"Transit Time(ms)\" AS REAL) ELSE 0 END) ms, sum(CAST("
	  "\"Transit Size(MB)\" AS REAL) < CASE \"Transport Type\" WHEN"
	  " 'SDMA' THEN 16 ELSE 1 END) * 1.0 / count(*) r FROM"
	  " communication_bandwidth WHERE \"Transport Type\" IN ('SDMA',"
	  " 'RDMA') AND CAST(\"Transit Size(MB)\" AS REAL) > 0 GROUP BY _rank,"
	  " \"Transport Type\") WHERE r > ?1",
	  "Many small transfers make the host the bottleneck: in data"
	  " parallelism a larger batch or gradient accumulation (fewer, larger"
	  " allreduces), ZeRO-2 or ZeRO-1 rather than ZeRO-3 where memory"
	  " allows, fused optimizers and larger buckets." },
	{ "bandwidth", "Communication",
	  "torch_npu's communication.json (its bandwidth per transport)",
	  "SELECT 1 FROM generic WHERE name = 'communication_bandwidth'", 0.5,
	  "share of the median bandwidth",
	  "WITH b AS (SELECT _rank r, \"Transport Type\" t, \"Op Name\" op,"
	  " CAST(\"Bandwidth(GB/s)\" AS REAL) bw FROM communication_bandwidth"
	  " WHERE \"Op Name\" <> 'Total Op Info' AND \"Transport Type\" NOT IN"
	  " ('SDMA', 'LOCAL') AND CAST(\"Transit Size(MB)\" AS REAL) >= 1),"
	  " m AS (SELECT r, t, avg(bw) med FROM (SELECT r, t, bw, row_number()"
	  " OVER (PARTITION BY r, t ORDER BY bw) k, count(*) OVER (PARTITION"
	  " BY r, t) n FROM b) WHERE k IN ((n + 1) / 2, (n + 2) / 2) GROUP BY"
	  " r, t) SELECT (1 - min(b.bw) / m.med) / (1 - ?1), printf('%d of %d"
	  " %s transfers of 1 MB or more run under %.0f%% of their median"
	  " bandwidth, %.2f GB/s; the slowest, %s, at %.2f GB/s',"
	  " sum(b.bw < ?1 * m.med), count(*), b.t, ?1 * 100, m.med, (SELECT"
	  " op FROM b b3 WHERE b3.r IS b.r AND b3.t = b.t ORDER BY b3.bw"
	  " LIMIT 1), min(b.bw)), NULL, 'communication_bandwidth:Transport"
	  " Type:^' || b.t || '$', b.r FROM b JOIN m ON m.r IS b.r AND m.t ="
	  " b.t GROUP BY b.r, b.t HAVING count(*) >= 3 AND sum(b.bw < ?1 *"
	  " m.med) > 0",
	  "Some transfers run far slower than the others on the same link:"
	  " they may contend with computing for the memory (run the"
	  " collective apart from heavy copies), or the link is shared with"
	  " other jobs; on a cluster, the slow-link findings name the link." },
	{ "aicpu", "Computing", "kernels and their core types", ADVICE_TASKS,
	  20, "us per op type",
	  "SELECT sum(t.dur_ns) / 1000.0 / ?1, printf('%s runs on the AI CPU:"
	  " %d kernels, %.3f us in all, the longest %.3f us%s', o.s,"
	  " count(*), sum(t.dur_ns) / 1000.0, max(t.dur_ns) / 1000.0, CASE"
	  " WHEN EXISTS (SELECT 1 FROM task u JOIN str v ON v.id ="
	  " u.task_type WHERE u.op_type = t.op_type AND v.s <> 'AI_CPU')"
	  " THEN '; the same op type runs on the AI Core elsewhere in this"
	  " run' ELSE '' END), NULL, 'kernels:OP Type:^' || o.s || '$',"
	  " t.rank FROM task t JOIN str y ON y.id = t.task_type JOIN str o"
	  " ON o.id = t.op_type WHERE y.s = 'AI_CPU' GROUP BY t.rank,"
	  " t.op_type HAVING sum(t.dur_ns) / 1000.0 >= ?1 ORDER BY"
	  " sum(t.dur_ns) DESC",
	  "AI CPU kernels are slow and break the AI Core pipeline: often an"
	  " input data type (double, int64) has no AI Core kernel; cast it"
	  " (float32, int32) or use another op." },
	{ "dynamic-shape", "Computing", "kernels and their op state",
	  ADVICE_TASKS, 0.5, "share of kernels",
	  "SELECT d * 1.0 / n / ?1, printf('%d of %d kernels (%.0f%%) have"
	  " dynamic shapes: each is compiled or tiled as it runs', d, n,"
	  " d * 100.0 / n), NULL, 'kernels:OP State:^dynamic$', rank FROM"
	  " (SELECT t.rank, count(*) n, sum(s.s = 'dynamic') d FROM task t"
	  " JOIN str s ON s.id = t.op_state GROUP BY t.rank) WHERE n > 0 AND"
	  " d * 1.0 / n >= ?1",
	  "Keep shapes static where you can (pad to fixed sizes, bucket"
	  " sequence lengths); with torch_npu,"
	  " torch_npu.npu.set_compile_mode(jit_compile=False) and a"
	  " HOST_CACHE_CAPACITY above 0 cut the cost of changing shapes." },
	{ "synchronize", "Scheduling", "CANN API spans", ADVICE_SPANS, 10,
	  "calls",
	  "SELECT count(*) * 1.0 / ?1, printf('%d stream synchronizations"
	  " (%s) take %.3f ms: the host waits for the device each time',"
	  " count(*), n.s, sum(a.end_ns - a.start_ns) / 1e6), NULL,"
	  " 'spans:Name:SynchronizeStream', a.rank FROM api a JOIN str n ON"
	  " n.id = a.name WHERE n.s LIKE '%SynchronizeStream%' GROUP BY"
	  " a.rank, n.s HAVING count(*) >= ?1",
	  "Something reads device values on the host inside the step"
	  " (.item(), .cpu(), printing or logging a device tensor, a"
	  " nonzero or a mask): move it out of the step or batch it; unset"
	  " ASCEND_LAUNCH_BLOCKING." },
	{ "syncbn", "Scheduling", "PyTorch op spans", ADVICE_SPANS, 20,
	  "calls",
	  "SELECT count(*) * 1.0 / ?1, printf('%d SyncBatchNorm calls, %.3f"
	  " ms: each gathers statistics over the ranks', count(*),"
	  " sum(a.end_ns - a.start_ns) / 1e6), NULL,"
	  " 'spans:Name:SyncBatchNorm', a.rank FROM api a JOIN str n ON n.id"
	  " = a.name WHERE n.s LIKE '%SyncBatchNorm%' GROUP BY a.rank HAVING"
	  " count(*) >= ?1",
	  "Use plain BatchNorm where the batch per rank is large enough"
	  " (drop convert_sync_batchnorm), or an implementation that"
	  " gathers all statistics in one collective." },
	{ "fused-optimizer", "Scheduling", "PyTorch op spans", ADVICE_SPANS,
	  1, "steps",
	  "SELECT count(*) * 1.0 / ?1, printf('the optimizer steps with %s"
	  " %s, %.3f ms: torch_npu has a fused %s', o, CASE count(*) WHEN 1"
	  " THEN 'once' ELSE printf('%d times', count(*)) END, sum(d) / 1e6,"
	  " o), printf('A fused optimizer updates all"
	  " parameters in a few kernels instead of several per tensor:"
	  " torch_npu.optim.NpuFused%s.', o), 'spans:Name:^Optimizer.step#'"
	  " || o, rank FROM (SELECT a.rank, a.end_ns - a.start_ns d,"
	  " substr(n.s, 16, length(n.s) - 20) o FROM api a JOIN str"
	  " n ON n.id = a.name WHERE n.s LIKE 'Optimizer.step#%.step') WHERE"
	  " o IN ('SGD', 'Adam', 'AdamW', 'Adadelta', 'Lamb', 'RMSprop',"
	  " 'RMSpropTF', 'AdamP', 'Adagrad') GROUP BY rank, o HAVING count(*)"
	  " >= ?1", NULL },
	{ "launch-gap", "Scheduling", "kernels", ADVICE_TASKS, 0.1,
	  "share of the device's time",
	  "SELECT tot * 1.0 / span / ?1, printf('device %s is idle %s for 50"
	  " us or more between kernels, %.3f ms in all, %.1f%% of its %.3f"
	  " ms; the longest, %.3f us, before the kernel %s at %.3f ms', CASE"
	  " WHEN device IS NULL THEN 'N/A' ELSE device END, CASE n WHEN 1"
	  " THEN 'once' ELSE printf('%d times', n) END, tot / 1e6,"
	  " tot * 100.0 / span, span / 1e6, big / 1e3, (SELECT n.s FROM task"
	  " t JOIN str n ON n.id = t.name WHERE t.id = x.id), (at - ?2) /"
	  " 1e6),"
	  " NULL, 'task:' || id, rank FROM (SELECT g.rank, g.device,"
	  " count(*) n, sum(gap) tot, max(gap) big, sp.lo lo, sp.hi - sp.lo"
	  " span, (SELECT g2.start_ns FROM temp.advice_gap g2 WHERE"
	  " g2.rank IS g.rank AND g2.device IS g.device ORDER BY g2.gap DESC"
	  " LIMIT 1) at, (SELECT g2.id FROM temp.advice_gap g2 WHERE"
	  " g2.rank IS g.rank AND g2.device IS g.device ORDER BY g2.gap DESC"
	  " LIMIT 1) id FROM temp.advice_gap g JOIN temp.advice_span sp ON"
	  " sp.rank IS g.rank AND sp.device IS g.device GROUP BY g.rank,"
	  " g.device) x"
	  " WHERE span > 0 AND tot * 1.0 / span >= ?1",
	  "The host launches kernels slower than the device runs them"
	  " (host bound): fuse small ops, raise ACLNN_CACHE_LIMIT, set"
	  " TASK_QUEUE_ENABLE=2, bind the process to cores near the NPU,"
	  " or capture the step as a graph." },
	{ "memory-ops", "Memory", "CANN API spans", ADVICE_SPANS, 10000,
	  "us per API",
	  "SELECT sum(a.end_ns - a.start_ns) / 1000.0 / ?1, printf('%d %s"
	  " calls take %.3f us: the device waits while memory is allocated"
	  " or freed', count(*), n.s, sum(a.end_ns - a.start_ns) / 1000.0),"
	  " CASE WHEN n.s LIKE '%Malloc%' THEN 'Let the caching allocator"
	  " keep and grow its blocks:"
	  " PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.' ELSE 'Memory"
	  " is given back and taken again: remove empty_cache() calls from"
	  " the step, or lower the batch size if memory is near full.' END,"
	  " 'spans:Name:' || n.s, a.rank FROM api a JOIN str n ON n.id ="
	  " a.name WHERE n.s IN ('AscendCL@aclMallocMemInner',"
	  " 'AscendCL@aclrtFreePhysical', 'AscendCL@aclrtFree',"
	  " 'aclMallocMemInner', 'aclrtFreePhysical', 'aclrtFree') GROUP BY"
	  " a.rank, n.s HAVING sum(a.end_ns - a.start_ns) / 1000.0 >= ?1",
	  NULL },
	{ "memory-peak", "Memory", "torch_npu's memory_record.csv",
	  "SELECT 1 FROM generic WHERE name = 'memory_record'", 0, "MB",
	  "SELECT CASE WHEN ?1 > 0 THEN m / ?1 ELSE 0 END, printf('memory"
	  " reserved peaks at %.1f MB (%s, %s)', m, c, d), NULL,"
	  " 'memory_record:Total Reserved', r FROM (SELECT r, m, c, d,"
	  " row_number() OVER (PARTITION BY r ORDER BY m DESC) k FROM"
	  " (SELECT _rank r, max(CAST(\"Total Reserved(MB)\" AS REAL)) m,"
	  " Component c, \"Device Type\" d FROM memory_record GROUP BY"
	  " _rank, Component, \"Device Type\")) WHERE k = 1 AND m > 0 AND"
	  " m >= ?1",
	  "The largest component's peak. With a threshold (the device's"
	  " memory, say) set in config.yaml, a peak above it is a finding:"
	  " lower the batch size, recompute activations, or shard optimizer"
	  " states." },
	{ "env", "Environment", "profiler_metadata.json's ENV_VARIABLES",
	  "SELECT 1 FROM generic WHERE name = 'env_variables'", 0, "",
	  "SELECT 1, printf('%s is %s', Name, CASE WHEN Value = '' THEN"
	  " 'not set' ELSE '''' || Value || '''' END), CASE Name"
	  " WHEN 'ACLNN_CACHE_LIMIT' THEN 'A larger aclnn op cache helps a"
	  " host-bound run: export ACLNN_CACHE_LIMIT=100000.'"
	  " WHEN 'HOST_CACHE_CAPACITY' THEN 'Caching the host work of recent"
	  " input shapes helps dynamic shapes: export HOST_CACHE_CAPACITY=20.'"
	  " WHEN 'PYTORCH_NPU_ALLOC_CONF' THEN 'Expandable segments cut"
	  " fragmentation and allocation calls:"
	  " export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True.'"
	  " WHEN 'ASCEND_LAUNCH_BLOCKING' THEN 'Launches wait for each"
	  " kernel: unset ASCEND_LAUNCH_BLOCKING outside debugging.'"
	  " WHEN 'ASCEND_GLOBAL_LOG_LEVEL' THEN 'Logging below error level"
	  " slows the run: export ASCEND_GLOBAL_LOG_LEVEL=3.'"
	  " WHEN 'HCCL_ALGO' THEN 'A fixed algorithm may not suit every"
	  " size and layout: unset HCCL_ALGO unless it was measured to help.'"
	  " ELSE 'Check that it matches the NIC''s settings (RoCE priority"
	  " and DSCP).' END, 'env_variables', _rank FROM env_variables WHERE"
	  " (Name = 'ACLNN_CACHE_LIMIT' AND (Value = '' OR CAST(Value AS"
	  " INTEGER) < 10000)) OR (Name = 'HOST_CACHE_CAPACITY' AND (Value ="
	  " '' OR CAST(Value AS INTEGER) = 0)) OR (Name ="
	  " 'PYTORCH_NPU_ALLOC_CONF' AND instr(Value,"
	  " 'expandable_segments:True') = 0) OR (Name ="
	  " 'ASCEND_LAUNCH_BLOCKING' AND Value <> '' AND CAST(Value AS"
	  " INTEGER) = 1) OR (Name = 'ASCEND_GLOBAL_LOG_LEVEL' AND Value <>"
	  " '' AND CAST(Value AS INTEGER) <> 3) OR (Name IN ('HCCL_ALGO',"
	  " 'HCCL_RDMA_TC', 'HCCL_RDMA_SL') AND Value <> '')", NULL },
	{ "bound", "Computing", "kernels with PMU data (aic_metrics)",
	  ADVICE_TASKS, 0.8, "pipe busy ratio",
	  "SELECT r / ?1, printf('%s is %s bound: its %s pipe is busy %.0f%%"
	  " of its %.3f ms (%.1f%% of computing kernels'' time, %d"
	  " kernels)', op, what,"
	  " pipe, r * 100, us / 1000, us * 100 / all_us, n), CASE what WHEN"
	  " 'memory' THEN 'It moves more data than it computes on: fuse it"
	  " with its neighbours, keep data in a layout that needs no"
	  " TransData, or use a lower precision.' WHEN 'scalar' THEN 'It"
	  " spends its time on control and addresses, not on data: a"
	  " better tiling, larger blocks or another implementation of the"
	  " op helps.' ELSE 'It is near the unit''s peak: only less work"
	  " (smaller shapes, lower precision, fewer calls) makes it"
	  " faster.' END, 'kernels:OP Type:^' || op ||"
	  " '$', rank FROM temp.advice_pipe WHERE r >= ?1 AND us * 1.0 /"
	  " all_us >= 0.05 ORDER BY us DESC",
	  NULL },
	{ "headroom", "Computing", "kernels with PMU data (aic_metrics)",
	  ADVICE_TASKS, 0.05, "share of computing kernels' time",
	  "SELECT us / all_us / ?1, printf('%s takes %.3f ms (%.1f%% of"
	  " computing kernels'' time, %d kernels) yet its busiest pipe (%s)"
	  " is busy only"
	  " %.0f%%', op, us / 1000, us * 100 / all_us, n, pipe, r * 100),"
	  " NULL, 'kernels:OP Type:^' || op || '$', rank FROM"
	  " temp.advice_pipe WHERE r < 0.5 AND us * 1.0 / all_us >= ?1"
	  " ORDER BY us DESC",
	  "Its units mostly wait: on scalar work, on synchronization or on"
	  " too few blocks for the cores (look at its Block Num); a better"
	  " tiling or a fused kernel has room to gain." },
	{ "cluster", "Cluster", "a cluster's findings (cluster_findings)",
	  "SELECT 1 FROM generic WHERE name = 'cluster_findings'", 0, "",
	  /*
	   * Each finding's own value over its threshold: under it where
	   * less is worse (a straggler's wait, a link's bandwidth).
	   */
	  "SELECT CASE WHEN CAST(Value AS REAL) > 0 AND CAST(Threshold AS"
	  " REAL) > 0 THEN CASE WHEN Finding IN ('straggler', 'slow link')"
	  " THEN CAST(Threshold AS REAL) / CAST(Value AS REAL) ELSE"
	  " CAST(Value AS REAL) / CAST(Threshold AS REAL) END ELSE 1 END,"
	  " printf('%s: %s', Finding, Evidence), CASE Finding WHEN"
	  " 'slow link' THEN 'Check the link''s cabling, NIC and switch port"
	  " (RoCE priority, congestion) and the HCCL settings for it.' WHEN"
	  " 'high wait' THEN 'The group waits for its slowest rank: find it"
	  " (straggler, slow rank) and balance its work.' ELSE 'Look at that"
	  " rank alone (Enter on it in the Cluster view): its computing,"
	  " host or data loading is slower than the others''.' END,"
	  " 'cluster_findings', Rank FROM cluster_findings", NULL }
};

#define ADVICE_NRULES \
	(sizeof store_advice_rules / sizeof store_advice_rules[0])

/* Set rule NAME's threshold to V; -1 if there is no such rule. */
int
store_advice_set(const char *name, double v)
{
	size_t	 i;

	for (i = 0; i < ADVICE_NRULES; i++) {
		if (strcmp(store_advice_rules[i].name, name) == 0) {
			store_advice_rules[i].threshold = v;
			return 0;
		}
	}
	return -1;
}

/* The rules as a table: name, category, needs, threshold, unit, what. */
struct store_rows *
store_advice_rules_table(void)
{
	static const char *const names[] = { "Rule", "Category", "Needs",
	    "Threshold", "Unit", "Suggestion" };
	struct store_rows	*r;
	struct store_val	 vals[6];
	char			*cells[6], buf[64];
	size_t			 i;

	r = store_compare_rows(names, 6, "TTTRTT");
	for (i = 0; i < ADVICE_NRULES; i++) {
		memset(vals, 0, sizeof vals);
		cells[0] = xstrdup(store_advice_rules[i].name);
		cells[1] = xstrdup(store_advice_rules[i].category);
		cells[2] = xstrdup(store_advice_rules[i].needs);
		util_fmt_pyfloat(buf, sizeof buf,
		    store_advice_rules[i].threshold);
		cells[3] = xstrdup(buf);
		vals[3].kind = VAL_REAL;
		vals[3].d = store_advice_rules[i].threshold;
		cells[4] = xstrdup(store_advice_rules[i].unit);
		cells[5] = xstrdup(store_advice_rules[i].suggestion != NULL ?
		    store_advice_rules[i].suggestion : "(by finding)");
		store_rows_add(r, cells, vals);
	}
	return r;
}

/* Run SQL on S; -1 with *cause set (when CAUSE is not NULL) on failure. */
static int
store_advice_exec(struct store *s, const char *sql, char **cause)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	if (cause != NULL)
		xasprintf(cause, "cannot prepare the advice of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
	return -1;
}

/* The PMU ratios the pipe table reads: pipe, what it bounds, names. */
static const char *const advice_pmu[] = { "aic_mac_ratio", "aiv_vec_ratio",
	"aic_mte2_ratio", "aiv_mte2_ratio", "aic_scalar_ratio",
	"aiv_scalar_ratio" };
#define ADVICE_NPMU	6
static const struct {
	const char	*pipe;
	const char	*what;
	int		 a, b;		/* places in advice_pmu, b -1: none */
} advice_pipes[] = {
	{ "mac", "cube", 0, -1 },
	{ "vec", "vector", 1, -1 },
	{ "mte2", "memory", 2, 3 },
	{ "scalar", "scalar", 4, 5 }
};
#define ADVICE_NPIPES	4

/* An op type's kernels of one rank: time, count, pipes' busy time. */
struct advice_op {
	int64_t		 rank;		/* NP_NA: none */
	int64_t		 type;		/* str id */
	double		 us;
	int64_t		 n;
	double		 busy[ADVICE_NPIPES];	/* ratio x us */
	double		 with[ADVICE_NPIPES];	/* us of kernels with it */
};

/*
 * temp.advice_pipe(rank, op, us, n, all_us, pipe, what, r): per rank and
 * op type its kernel time, all kernel time of the rank, and its busiest
 * pipe with the pipe's busy ratio, weighted by the kernels' time.
 */
static int
store_advice_pipes(struct store *s, char **cause)
{
	struct advice_op	*v = NULL, *o;
	struct util_map		 at;
	sqlite3_stmt		*stmt, *ins;
	int64_t			 places[ADVICE_NPMU], set = INT64_MIN, rank;
	double			 val[ADVICE_NPMU], us, r, best, all;
	uint64_t		 key, k;
	size_t			 n = 0, i, p, bi;
	int			 rc;

	if (store_advice_exec(s, "CREATE TEMP TABLE advice_pipe(rank INTEGER, op"
	    " TEXT, us REAL, n INTEGER, all_us REAL, pipe TEXT, what TEXT, r"
	    " REAL)", cause) != 0)
		return -1;
	if (store_prepare(s, &stmt, "SELECT rank, op_type, dur_ns, pmu_set,"
	    " pmu FROM task WHERE op_type IS NOT NULL ORDER BY id", cause)
	    != 0)
		return -1;
	util_map_init(&at);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		rank = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(stmt, 0);
		key = (uint64_t)rank * 0x9e3779b97f4a7c15ULL ^
		    (uint64_t)sqlite3_column_int64(stmt, 1);
		if (!util_map_get(&at, key, &k)) {
			v = util_grow(v, n, 1, sizeof *v);
			memset(&v[n], 0, sizeof v[n]);
			v[n].rank = rank;
			v[n].type = sqlite3_column_int64(stmt, 1);
			k = ++n;
			util_map_set(&at, key, k);
		}
		o = &v[k - 1];
		us = (double)sqlite3_column_int64(stmt, 2) / 1000.0;
		o->us += us;
		o->n++;
		if (sqlite3_column_type(stmt, 3) == SQLITE_NULL)
			continue;
		if (sqlite3_column_int64(stmt, 3) != set) {
			set = sqlite3_column_int64(stmt, 3);
			store_pmu_places(s, set, advice_pmu, ADVICE_NPMU,
			    places);
		}
		store_pmu_values(sqlite3_column_blob(stmt, 4),
		    (size_t)sqlite3_column_bytes(stmt, 4), places, ADVICE_NPMU,
		    val);
		for (p = 0; p < ADVICE_NPIPES; p++) {
			r = val[advice_pipes[p].a];
			if (advice_pipes[p].b >= 0 && (isnan(r) ||
			    val[advice_pipes[p].b] > r))
				r = val[advice_pipes[p].b];
			if (isnan(r))
				continue;
			o->busy[p] += r * us;
			o->with[p] += us;
		}
	}
	sqlite3_finalize(stmt);
	util_map_release(&at);
	if (rc != SQLITE_DONE) {
		xasprintf(cause, "cannot read the kernels of '%s': %s",
		    s->path, sqlite3_errmsg(s->db));
		free(v);
		return -1;
	}
	if (store_prepare(s, &ins, "INSERT INTO temp.advice_pipe SELECT ?1,"
	    " (SELECT s FROM str WHERE id = ?2), ?3, ?4, ?5, ?6, ?7, ?8",
	    cause) != 0) {
		free(v);
		return -1;
	}
	for (i = 0; i < n; i++) {
		best = -1;
		bi = 0;
		for (p = 0; p < ADVICE_NPIPES; p++) {
			if (v[i].with[p] > 0 && v[i].busy[p] / v[i].with[p] >
			    best) {
				best = v[i].busy[p] / v[i].with[p];
				bi = p;
			}
		}
		if (best < 0)
			continue;
		/* Of the rank's kernels with PMU data: its computing. */
		for (all = 0, p = 0; p < n; p++) {
			if (v[p].rank == v[i].rank && (v[p].with[0] > 0 ||
			    v[p].with[1] > 0 || v[p].with[2] > 0 ||
			    v[p].with[3] > 0))
				all += v[p].us;
		}
		store_load_bind_i64(ins, 1, v[i].rank);
		sqlite3_bind_int64(ins, 2, v[i].type);
		sqlite3_bind_double(ins, 3, v[i].us);
		sqlite3_bind_int64(ins, 4, v[i].n);
		sqlite3_bind_double(ins, 5, all);
		sqlite3_bind_text(ins, 6, advice_pipes[bi].pipe, -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, advice_pipes[bi].what, -1,
		    SQLITE_STATIC);
		sqlite3_bind_double(ins, 8, best);
		sqlite3_step(ins);
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	free(v);
	return 0;
}

struct advice_part_arg {
	sqlite3_stmt	*ins;
	int64_t		 rank;
	int64_t		 ord;
};

static void
store_advice_part(void *arg, const char *label, double ms, double ratio,
    int64_t n)
{
	struct advice_part_arg	*a = arg;

	store_load_bind_i64(a->ins, 1, a->rank);
	sqlite3_bind_int64(a->ins, 2, a->ord++);
	sqlite3_bind_text(a->ins, 3, label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(a->ins, 4, ms);
	sqlite3_bind_double(a->ins, 5, ratio);
	sqlite3_bind_int64(a->ins, 6, n);
	sqlite3_step(a->ins);
	sqlite3_reset(a->ins);
}

/*
 * temp.overall_part and temp.overall_group of each rank whose trace has
 * the overlap analysis.
 */
static int
store_advice_overall(struct store *s, char **cause)
{
	struct advice_part_arg	 a;
	struct store_overall	*ov;
	sqlite3_stmt		*ranks, *grp;
	char			*why = NULL, *name;
	size_t			 i;
	int			 rc = 0;

	if (store_advice_exec(s, "CREATE TEMP TABLE overall_part(rank INTEGER, ord"
	    " INTEGER, label TEXT, ms REAL, ratio REAL, n INTEGER);"
	    " CREATE TEMP TABLE overall_group(rank INTEGER, grp TEXT, comm"
	    " REAL, wait REAL, transmit REAL)", cause) != 0)
		return -1;
	/* A database export has no overlap analysis: its tasks tell. */
	if (store_prepare(s, &ranks, "SELECT DISTINCT rank FROM lane WHERE"
	    " tid IS NULL AND name = 'Overlap Analysis' UNION SELECT DISTINCT"
	    " rank FROM task WHERE EXISTS (SELECT 1 FROM meta WHERE key LIKE"
	    " 'db.%') AND NOT EXISTS (SELECT 1 FROM lane WHERE name ="
	    " 'Overlap Analysis')", cause) != 0)
		return -1;
	if (store_prepare(s, &a.ins, "INSERT INTO temp.overall_part VALUES"
	    " (?1, ?2, ?3, ?4, ?5, ?6)", cause) != 0 ||
	    store_prepare(s, &grp, "INSERT INTO temp.overall_group VALUES"
	    " (?1, ?2, ?3, ?4, ?5)", cause) != 0) {
		sqlite3_finalize(ranks);
		return -1;
	}
	while (rc == 0 && sqlite3_step(ranks) == SQLITE_ROW) {
		a.rank = sqlite3_column_type(ranks, 0) == SQLITE_NULL ? NP_NA :
		    sqlite3_column_int64(ranks, 0);
		a.ord = 0;
		if ((ov = store_overall_of(s, a.rank, NP_NA, &why)) == NULL) {
			/* Not a failure of the advice: the rule does not apply. */
			free(why);
			why = NULL;
			continue;
		}
		store_overall_parts(ov, store_advice_part, &a);
		for (i = 0; i < ov->ngroups; i++) {
			if (ov->groups[i].pg != NULL)
				xasprintf(&name, "%s: %s", ov->groups[i].pg,
				    ov->groups[i].name);
			else
				name = xstrdup(ov->groups[i].name);
			store_load_bind_i64(grp, 1, a.rank);
			sqlite3_bind_text(grp, 2, name, -1, SQLITE_TRANSIENT);
			sqlite3_bind_double(grp, 3, (ov->groups[i].wait +
			    ov->groups[i].transmit) / 1000.0);
			sqlite3_bind_double(grp, 4, ov->groups[i].wait /
			    1000.0);
			sqlite3_bind_double(grp, 5, ov->groups[i].transmit /
			    1000.0);
			sqlite3_step(grp);
			sqlite3_reset(grp);
			free(name);
		}
		store_overall_free(ov);
	}
	sqlite3_finalize(ranks);
	sqlite3_finalize(a.ins);
	sqlite3_finalize(grp);
	return rc;
}

/* Drop the temporary tables of the advice. */
static void
store_advice_drop(struct store *s)
{
	store_advice_exec(s, "DROP TABLE IF EXISTS temp.overall_part;"
	    " DROP TABLE IF EXISTS temp.overall_group;"
	    " DROP TABLE IF EXISTS temp.advice_gap;"
	    " DROP TABLE IF EXISTS temp.advice_span;"
	    " DROP TABLE IF EXISTS temp.advice_pipe", NULL);
}

/* The order of severities in the table: the overall first. */
static int
store_advice_rank(const char *rule, double score)
{
	if (strcmp(rule, "overall") == 0)
		return 0;
	return score >= 2 ? 1 : score >= 1 ? 2 : 3;
}

struct advice_row {
	char		*cells[7];
	int		 order;
	size_t		 seq;
};

static int
store_advice_row_cmp(const void *a, const void *b)
{
	const struct advice_row	*x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The advice of S (of rank RANK only, NP_NA: all): a row per finding,
 * the overall breakdown first, then by severity and rule. The rules that
 * found nothing to read in S are named in *SKIPPED ("rule (needs what)",
 * joined by "; "), NULL if none. NULL with *cause set on failure.
 */
struct store_rows *
store_advice(struct store *s, int64_t rank, char **skipped, char **cause)
{
	static const char *const names[] = { "Severity", "Category", "Rule",
	    "Rank", "Finding", "Suggestion", "Where" };
	struct store_advice_rule	*ru;
	struct advice_row		*v = NULL, *row;
	struct store_rows		*r = NULL;
	struct strbuf			 skip;
	sqlite3_stmt			*stmt;
	double				 score;
	size_t				 n = 0, i, k;
	bool				 applies;
	int64_t				 origin;
	int				 rc;

	*skipped = NULL;
	if ((origin = store_lanes_origin(s)) == NP_NA)
		origin = 0;
	strbuf_init(&skip);
	store_advice_drop(s);
	if (store_advice_overall(s, cause) != 0 ||
	    store_advice_pipes(s, cause) != 0 ||
	    store_advice_exec(s, "CREATE TEMP TABLE advice_gap AS SELECT id,"
	    " rank, device, start_ns, gap FROM (SELECT id, rank, device,"
	    " start_ns,"
	    " start_ns - max(start_ns + dur_ns) OVER (PARTITION BY rank,"
	    " device ORDER BY start_ns, id ROWS BETWEEN UNBOUNDED PRECEDING"
	    " AND 1 PRECEDING) gap FROM task) WHERE gap >= 50000;"
	    " CREATE TEMP TABLE advice_span AS SELECT rank, device,"
	    " min(start_ns) lo, max(start_ns + dur_ns) hi FROM task GROUP BY"
	    " rank, device", cause) != 0)
		goto out;
	for (k = 0; k < ADVICE_NRULES; k++) {
		ru = &store_advice_rules[k];
		applies = false;
		if (store_prepare(s, &stmt, ru->applies, NULL) == 0) {
			applies = sqlite3_step(stmt) == SQLITE_ROW;
			sqlite3_finalize(stmt);
		}
		if (!applies) {
			strbuf_addf(&skip, "%s%s (needs %s)", skip.len > 0 ?
			    "; " : "", ru->name, ru->needs);
			continue;
		}
		if (store_prepare(s, &stmt, ru->query, cause) != 0)
			goto out;
		sqlite3_bind_double(stmt, 1, ru->threshold);
		if (sqlite3_bind_parameter_count(stmt) >= 2)
			store_load_bind_i64(stmt, 2, origin);
		while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
			if (rank != NP_NA && (sqlite3_column_type(stmt, 4) ==
			    SQLITE_NULL || sqlite3_column_int64(stmt, 4) !=
			    rank))
				continue;
			score = sqlite3_column_double(stmt, 0);
			v = util_grow(v, n, 1, sizeof *v);
			row = &v[n];
			row->order = store_advice_rank(ru->name, score);
			row->seq = n++;
			row->cells[0] = xstrdup(row->order == 0 || score <= 0 ?
			    "info" : score >= 2 ? "high" : "medium");
			row->cells[1] = xstrdup(ru->category);
			row->cells[2] = xstrdup(ru->name);
			row->cells[3] = sqlite3_column_type(stmt, 4) ==
			    SQLITE_NULL ? xstrdup("N/A") : xstrdup((const char *)
			    sqlite3_column_text(stmt, 4));
			row->cells[4] = xstrdup((const char *)
			    sqlite3_column_text(stmt, 1));
			row->cells[5] = xstrdup(sqlite3_column_type(stmt, 2) !=
			    SQLITE_NULL ? (const char *)sqlite3_column_text(
			    stmt, 2) : ru->suggestion != NULL ? ru->suggestion :
			    "");
			row->cells[6] = xstrdup(sqlite3_column_type(stmt, 3) !=
			    SQLITE_NULL ? (const char *)sqlite3_column_text(
			    stmt, 3) : "");
		}
		sqlite3_finalize(stmt);
		if (rc != SQLITE_DONE) {
			xasprintf(cause, "advice rule %s on '%s': %s", ru->name,
			    s->path, sqlite3_errmsg(s->db));
			goto out;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, store_advice_row_cmp);
	r = store_compare_rows(names, 7, "TTTTTTT");
	for (i = 0; i < n; i++) {
		store_rows_add(r, v[i].cells, NULL);
		memset(v[i].cells, 0, sizeof v[i].cells);
	}
	if (skip.len > 0)
		*skipped = strbuf_detach(&skip);
out:
	for (i = 0; i < n; i++) {
		for (k = 0; k < 7; k++)
			free(v[i].cells[k]);
	}
	free(v);
	strbuf_release(&skip);
	store_advice_drop(s);
	return r;
}
