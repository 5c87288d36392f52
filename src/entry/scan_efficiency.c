/*-------------------------------------------------------------------------
 *
 * scan_efficiency.c
 *	  scan_efficiency(): the executor's count(1) scan rate as a percentage
 *	  of the raw read rate of the same blocks, with how sure that figure is
 *	  and whether it measures the storage at all.
 *
 * The unit of measurement is a pair: the raw read of a stretch of the
 * relation and the executor scan of the same blocks, back to back, each
 * after the same cache preparation, the order alternating from pair to
 * pair.  Whatever drifts on the machine (a neighbour's load, the host's
 * cache, frequency scaling) moves both sides of a pair together, so the
 * pair's ratio is far steadier than either rate.  The figures are medians
 * over pairs; their spread is the 10th and 90th percentile of the pair
 * ratios, and their precision a 95 % confidence interval of the median by
 * order statistics (binomial ranks, no assumption about the distribution;
 * stats.c).
 *
 * Stretches are drawn in random order without replacement, so any prefix
 * of the draw is a fair sample of the relation, and drawing stops as soon
 * as the interval is narrow enough (target_pct), the time budget would be
 * overrun (max_seconds), or the fraction asked for is covered (sample).
 * A nightly check on a terabyte table thus reads what it needs for the
 * precision asked for, not the terabyte twice.  A relation of fewer than
 * ten stretches is read in rounds until it has ten pairs.
 *
 * Every rate is bytes over the wall-clock time of its pass, what the
 * server really got (clock.c says why no wait is taken out).  The time
 * the backend waited for a CPU and the time its group was held back by a
 * CPU quota are columns of their own, beside the group's limits; the
 * verdict (verdict.c) says when either shaped the figure.  Under limits,
 * the stretches are long enough that a rate limiter's allowance does not
 * inflate them (sampler.c).
 *
 * method => 'whole' keeps the original measurement: runs alternated
 * passes over the whole relation, now with the same statistics over runs.
 *
 * Both methods also measure, in the same call, what the verdict needs:
 * O_DIRECT reads of the same blocks (what the storage delivers without any
 * cache of this system) and warm scans of them (the executor's CPU
 * ceiling).
 *
 * The samples are taken by the sampler (sampler.c); this file reads the
 * arguments, judges the samples and builds the row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "argcheck.h"
#include "citus.h"
#include "citus_cluster.h"
#include "efficiency_row.h"
#include "fnargs.h"
#include "history_record.h"
#include "mountinfo.h"
#include "pairs.h"
#include "relfiles.h"
#include "request.h"
#include "restore.h"
#include "rows.h"
#include "sampler.h"
#include "scratch.h"
#include "settings.h"
#include "stats.h"
#include "tablespace.h"

PG_FUNCTION_INFO_V1(scan_efficiency);

/* ---- The verdict (verdict.c) ---- */

static void
judge(SbEfficiency *e, double median, double lo, double hi,
	  double drift_first, double drift_second, SbVerdict *v)
{
	SbJudgeInput in;

	sb_judge_input_init(&in);
	in.what = get_rel_name(e->target->relid);
	in.unit = e->method == SB_METHOD_PAIRS ? "pairs" : "runs";
	in.cache = e->cache;
	in.n = e->ratio.n;
	in.median = median;
	in.lo = lo;
	in.hi = hi;
	in.target_pct = e->target_pct;
	in.cached_pct = Max(e->read_cached_max, e->scan_cached_max);
	in.read_mb_s = sb_samples_median(&e->read_mb_s);
	in.scan_mb_s = sb_samples_median(&e->scan_mb_s);
	in.direct_mb_s = sb_samples_median(&e->direct_mb_s);
	in.host_ratio = sb_samples_median(&e->host_ratio);
	in.device_mb_s = sb_samples_median(&e->device_mb_s);
	in.device_pct = sb_samples_median(&e->device_pct);
	in.device_depth = e->device_depth;
	if (e->read_io_s > 0 && e->read_ios > 0)
	{
		in.read_iops = e->read_ios / e->read_io_s;
		in.read_request_kb = e->read_io_bytes / 1024.0 / e->read_ios;
	}
	in.ceiling_mb_s = sb_samples_median(&e->ceiling_mb_s);
	in.ceiling_ratio = sb_samples_median(&e->ceiling_ratio);
	in.timed_s = e->timed_s;
	in.cpu_wait_s = e->cpu_wait_s;
	in.throttled_s = e->throttled_known ? e->throttled_s : NAN;
	in.cpu_busy_s = e->cpu_busy_s;
	in.scan_timed_s = e->scan_timed_s;
	in.scan_busy_s = e->scan_busy_s;
	in.scan_periods = e->scan_periods;
	in.scan_spent_periods = e->scan_spent_periods;
	in.drift_first = drift_first;
	in.drift_second = drift_second;
	in.limits = &e->limits;
	sb_judge(&in, v);
}

/*
 * scan_efficiency's arguments, from whichever definition the caller's
 * database has, by name (fnargs.c).  0.1's definition is (rel, cache,
 * block_size, runs) and measured runs alternated whole passes with no
 * budget: a database still at 0.1 gets that.  The checks that apply to
 * both paths, one server and a Citus cluster, are made here.
 */
static void
decode_request(FunctionCallInfo fcinfo, SbEfficiencyRequest *req)
{
	SbArgs		args;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	memset(req, 0, sizeof(*req));
	req->relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	req->cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "cold")), false);
	req->block_size = sb_arg_int32(&args, "block_size", BLCKSZ);
	req->runs = sb_arg_int32(&args, "runs", 1);
	req->sample = sb_arg_float8(&args, "sample", 1.0);
	req->max_seconds = sb_arg_float8(&args, "max_seconds", SB_MAX_SECONDS);
	req->target_pct = sb_arg_float8(&args, "target_pct", 0);
	req->method = sb_parse_method(cstring_to_text(sb_arg_cstring(&args, "method", "whole")));
	req->with_write = sb_arg_bool(&args, "with_write", false);
	req->record = sb_arg_bool(&args, "record", false);
	req->restore = sb_arg_bool(&args, "restore", false);
	req->schema = get_func_namespace(fcinfo->flinfo->fn_oid);
	req->tupdesc = sb_result_tupdesc(fcinfo);

	sb_check_block_size(req->block_size);
	sb_check_runs(req->runs);
	sb_check_sample(req->sample);
	sb_check_max_seconds(req->max_seconds);
	sb_check_target_pct(req->target_pct);
}

/* ---- scan_efficiency(rel, cache, block_size, runs, sample, max_seconds,
 *                      target_pct, method, with_write, record, restore) ---- */

Datum
scan_efficiency(PG_FUNCTION_ARGS)
{
	SbEfficiencyRequest req;
	Oid			relid;
	SbEfficiency e;
	TupleDesc	tupdesc;
	double		median,
				lo,
				hi,
				drift_first,
				drift_second;
	char	   *fstype;
	char	   *device;
	bool		with_write;
	Oid			write_spc = InvalidOid;
	double		write_mb_s = NAN;
	SbEfficiencyRow r;
	SbVerdict	v;
	SbServerFacts facts;
	bool		record;
	Datum		result;
	bool		restore;
	SbCacheSnapshot snap;
	SbRestoreResult restored;
	instr_time	call_start;
	double		lock_wait_s;

	decode_request(fcinfo, &req);
	/* From here, scan_pairs() shows this call's pairs (none on Citus). */
	sb_trace_begin("scan_efficiency", req.relid);

	/* A Citus table is measured on its nodes (citus_cluster.c). */
	if (sb_citus_table(req.relid))
		PG_RETURN_DATUM(sb_citus_scan_efficiency(&req));

	memset(&e, 0, sizeof(e));
	INSTR_TIME_SET_CURRENT(call_start);
	relid = req.relid;
	tupdesc = req.tupdesc;
	e.cache = req.cache;
	e.block_size = req.block_size;
	e.runs = req.runs;
	e.sample = req.sample;
	e.max_seconds = req.max_seconds;
	e.target_pct = req.target_pct;
	e.method = req.method;
	with_write = req.with_write;
	record = req.record;
	restore = req.restore;

	if (e.method == SB_METHOD_WHOLE && e.sample < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample applies to method \"pairs\" only"),
				 errhint("method => 'whole' reads the whole relation; leave sample at 1, or use method => 'pairs'.")));
	if (e.method == SB_METHOD_PAIRS && e.runs != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("runs applies to method \"whole\" only"),
				 errdetail("Method \"pairs\" takes pairs until the interval is within target_pct or max_seconds are spent."),
				 errhint("Leave runs at 1, or use method => 'whole'.")));
	/* Recording comes last: whether it can be done is said first. */
	if (record)
		sb_history_check_record(req.schema, "scan_efficiency");

	/*
	 * The budget starts once the relation's lock is held: a wait behind
	 * someone's ACCESS EXCLUSIVE is not measuring, and is said on its own.
	 */
	e.target = sb_target_open(relid, SB_TARGET_SCAN);
	INSTR_TIME_SET_CURRENT(e.start);
	lock_wait_s = INSTR_TIME_GET_DOUBLE(e.start) - INSTR_TIME_GET_DOUBLE(call_start);
	if (lock_wait_s >= SB_LOCK_WAIT_NOTICE_S)
		ereport(NOTICE,
				(errmsg("waited %.1f s for a lock on \"%s\"", lock_wait_s,
						get_rel_name(relid)),
				 errdetail("The time budget (max_seconds) started once the lock was held.")));
	/* What the caches held before anything is evicted (restore.c). */
	if (restore)
		sb_cache_snapshot(e.target, &snap);
	else
		sb_residency(e.target, &snap.before);
	/* with_write writes a scratch file there: refuse before measuring. */
	if (with_write)
		write_spc = sb_check_write_tablespace(sb_target_tablespace(e.target));
	/* The server's limits, which the sampler and the verdict weigh. */
	sb_cgroup_limits(sb_target_first_path(e.target), &e.limits);
	sb_sample(&e);

	/*
	 * The Write column of lmdd's Write / Read / Scan tables: lmdd sync=1 in
	 * the relation's tablespace, as large as the relation and no larger
	 * than free space allows.  Last, so that its dirty pages cannot slow
	 * the reads measured above.
	 */
	if (with_write)
		write_mb_s = sb_write_mb_s(write_spc, e.target->bytes, e.block_size);

	/* Put back what the caches held, or at least say what changed. */
	if (restore)
		sb_cache_restore(e.target, &snap, &restored);
	else
	{
		SbResidency end;

		sb_residency(e.target, &end);
		memset(&restored, 0, sizeof(restored));
		restored.cached_pct_start = sb_pct(snap.before.any_blocks, e.target->nblocks);
		restored.cached_pct_end = sb_pct(end.any_blocks, e.target->nblocks);
		restored.restored_pct = NAN;
		restored.seconds = NAN;
	}

	median = sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.5);
	(void) sb_median_ci(e.ratio_sorted.v, e.ratio_sorted.n, SB_CONFIDENCE,
						&lo, &hi);
	/* Where the figure moved during the call, the interval holds both. */
	sb_sample_drift(&e, &drift_first, &drift_second);
	if (!isnan(drift_first))
	{
		lo = Min(lo, Min(drift_first, drift_second));
		hi = Max(hi, Max(drift_first, drift_second));
	}
	sb_mount_of(sb_target_first_path(e.target), &fstype, &device);

	sb_efficiency_row_init(&r);
	r.relation = relid;
	r.bytes = e.target->bytes;
	r.rows = e.rows;
	r.cache = sb_cache_name(e.cache);
	r.block_size = e.block_size;
	r.runs = e.runs;
	r.read_mb_s = sb_samples_median(&e.read_mb_s);
	r.scan_mb_s = sb_samples_median(&e.scan_mb_s);
	r.scan_pct = median;
	if (e.ratio.n > 0)
	{
		r.read_s = e.read_s;
		r.scan_s = e.scan_s;
		r.read_cached_pct = e.read_cached_max;
		r.scan_cached_pct = e.scan_cached_max;
		r.cpu_wait_s = e.cpu_wait_s;
		if (e.throttled_known)
			r.cpu_throttled_s = e.throttled_s;
	}
	r.filesystem = fstype;
	r.device = device;
	r.method = sb_method_name(e.method);
	r.pairs = e.ratio.n;
	r.coverage_pct = sb_pct(e.blocks_covered, e.target->nblocks);
	r.scan_pct_lo = lo;
	r.scan_pct_hi = hi;
	r.scan_pct_p10 = sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.1);
	r.scan_pct_p90 = sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.9);
	r.elapsed_s = sb_efficiency_elapsed_s(&e);
	r.lock_wait_s = lock_wait_s;
	r.cached_pct_start = restored.cached_pct_start;
	r.cached_pct_end = restored.cached_pct_end;
	r.restored_pct = restored.restored_pct;
	r.restore_s = restored.seconds;
	r.device_mb_s = sb_samples_median(&e.device_mb_s);
	r.device_pct = sb_samples_median(&e.device_pct);
	if (e.device_mb_s.n > 0)
		r.device_depth = e.device_depth;
	if (e.ratio.n > 0)
		judge(&e, median, lo, hi, drift_first, drift_second, &v);
	else
	{
		/* Nothing measured, nothing to judge: say why, never as a figure. */
		sb_verdict_unmeasured(&v, e.target->nblocks == 0);
		if (e.target->nblocks == 0)
			ereport(NOTICE,
					(errmsg("\"%s\" is empty: there is nothing to measure",
							get_rel_name(relid))));
		else
			ereport(NOTICE,
					(errmsg("no pair of \"%s\" was measured within max_seconds (%g s)",
							get_rel_name(relid), e.max_seconds),
					 errhint("Allow more time (max_seconds).")));
	}
	r.verdict = &v;
	r.settings = sb_io_settings();
	sb_server_facts(&facts);
	r.facts = &facts;
	r.write_mb_s = write_mb_s;
	r.limits = &e.limits;

	sb_target_close(e.target);

	result = sb_efficiency_row(tupdesc, &r);
	if (record)
		sb_history_record(req.schema, result, tupdesc);
	PG_RETURN_DATUM(result);
}
