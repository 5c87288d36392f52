/*-------------------------------------------------------------------------
 *
 * efficiency.c
 *	  scan_efficiency()'s measurement on one server: the checks that need
 *	  the method, the lock and the budget, the caches' state kept or put
 *	  back, the samples (sampler.c), the write pass, the figure's median,
 *	  interval and spread, and the verdict, written once into the row
 *	  (efficiency_row.c) the entry file returns.
 *
 * The budget starts once the relation's lock is held; the write pass
 * comes last, so that its dirty pages cannot slow the reads; where the
 * figure moved during the call, its interval holds both halves (the
 * drift); a call that measured nothing says why, never as a figure.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "portability/instr_time.h"
#include "utils/lsyscache.h"

#include "cache.h"
#include "efficiency.h"
#include "efficiency_row.h"
#include "history_record.h"
#include "mountinfo.h"
#include "relfiles.h"
#include "restore.h"
#include "sampler.h"
#include "scratch.h"
#include "settings.h"
#include "stats.h"
#include "tablespace.h"
#include "verdict.h"

/* The judge's input, from what the sampler measured (verdict.c). */
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
 * The figures of scan_efficiency(req) on this server, into r; the verdict,
 * the server's facts and its limits are allocated here and stay with r.
 */
void
sb_efficiency(const SbEfficiencyRequest *req, SbEfficiencyRow *r)
{
	Oid			relid;
	SbEfficiency *e = palloc0(sizeof(SbEfficiency));
	SbVerdict  *v = palloc0(sizeof(SbVerdict));
	SbServerFacts *facts = palloc0(sizeof(SbServerFacts));
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
	bool		restore;
	SbCacheSnapshot snap;
	SbRestoreResult restored;
	instr_time	call_start;
	double		lock_wait_s;

	INSTR_TIME_SET_CURRENT(call_start);
	relid = req->relid;
	e->cache = req->cache;
	e->block_size = req->block_size;
	e->runs = req->runs;
	e->sample = req->sample;
	e->max_seconds = req->max_seconds;
	e->target_pct = req->target_pct;
	e->method = req->method;
	with_write = req->with_write;
	restore = req->restore;

	if (e->method == SB_METHOD_WHOLE && e->sample < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample applies to method \"pairs\" only"),
				 errhint("method => 'whole' reads the whole relation; leave sample at 1, or use method => 'pairs'.")));
	if (e->method == SB_METHOD_PAIRS && e->runs != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("runs applies to method \"whole\" only"),
				 errdetail("Method \"pairs\" takes pairs until the interval is within target_pct or max_seconds are spent."),
				 errhint("Leave runs at 1, or use method => 'whole'.")));
	/* Recording comes last: whether it can be done is said first. */
	if (req->record)
		sb_history_check_record(req->schema, "scan_efficiency");

	/*
	 * The budget starts once the relation's lock is held: a wait behind
	 * someone's ACCESS EXCLUSIVE is not measuring, and is said on its own.
	 */
	e->target = sb_target_open(relid, SB_TARGET_SCAN);
	INSTR_TIME_SET_CURRENT(e->start);
	lock_wait_s = INSTR_TIME_GET_DOUBLE(e->start) - INSTR_TIME_GET_DOUBLE(call_start);
	if (lock_wait_s >= SB_LOCK_WAIT_NOTICE_S)
		ereport(NOTICE,
				(errmsg("waited %.1f s for a lock on \"%s\"", lock_wait_s,
						get_rel_name(relid)),
				 errdetail("The time budget (max_seconds) started once the lock was held.")));
	/* What the caches held before anything is evicted (restore.c). */
	if (restore)
		sb_cache_snapshot(e->target, &snap);
	else
		sb_residency(e->target, &snap.before);
	/* with_write writes a scratch file there: refuse before measuring. */
	if (with_write)
		write_spc = sb_check_write_tablespace(sb_target_tablespace(e->target));
	/* The server's limits, which the sampler and the verdict weigh. */
	sb_cgroup_limits(sb_target_first_path(e->target), &e->limits);
	sb_sample(e);

	/*
	 * The Write column of lmdd's Write / Read / Scan tables: lmdd sync=1 in
	 * the relation's tablespace, as large as the relation and no larger
	 * than free space allows.  Last, so that its dirty pages cannot slow
	 * the reads measured above.
	 */
	if (with_write)
		write_mb_s = sb_write_mb_s(write_spc, e->target->bytes, e->block_size);

	/* Put back what the caches held, or at least say what changed. */
	if (restore)
		sb_cache_restore(e->target, &snap, &restored);
	else
	{
		SbResidency end;

		sb_residency(e->target, &end);
		memset(&restored, 0, sizeof(restored));
		restored.cached_pct_start = sb_pct(snap.before.any_blocks, e->target->nblocks);
		restored.cached_pct_end = sb_pct(end.any_blocks, e->target->nblocks);
		restored.restored_pct = NAN;
		restored.seconds = NAN;
	}

	median = sb_quantile(e->ratio_sorted.v, e->ratio_sorted.n, 0.5);
	(void) sb_median_ci(e->ratio_sorted.v, e->ratio_sorted.n, SB_CONFIDENCE,
						&lo, &hi);
	/* Where the figure moved during the call, the interval holds both. */
	sb_sample_drift(e, &drift_first, &drift_second);
	if (!isnan(drift_first))
	{
		lo = Min(lo, Min(drift_first, drift_second));
		hi = Max(hi, Max(drift_first, drift_second));
	}
	sb_mount_of(sb_target_first_path(e->target), &fstype, &device);

	sb_efficiency_row_init(r);
	r->relation = relid;
	r->bytes = e->target->bytes;
	r->rows = e->rows;
	r->cache = sb_cache_name(e->cache);
	r->block_size = e->block_size;
	r->runs = e->runs;
	r->read_mb_s = sb_samples_median(&e->read_mb_s);
	r->scan_mb_s = sb_samples_median(&e->scan_mb_s);
	r->scan_pct = median;
	if (e->ratio.n > 0)
	{
		r->read_s = e->read_s;
		r->scan_s = e->scan_s;
		r->read_cached_pct = e->read_cached_max;
		r->scan_cached_pct = e->scan_cached_max;
		r->cpu_wait_s = e->cpu_wait_s;
		if (e->throttled_known)
			r->cpu_throttled_s = e->throttled_s;
	}
	r->filesystem = fstype;
	r->device = device;
	r->method = sb_method_name(e->method);
	r->pairs = e->ratio.n;
	r->coverage_pct = sb_pct(e->blocks_covered, e->target->nblocks);
	r->scan_pct_lo = lo;
	r->scan_pct_hi = hi;
	r->scan_pct_p10 = sb_quantile(e->ratio_sorted.v, e->ratio_sorted.n, 0.1);
	r->scan_pct_p90 = sb_quantile(e->ratio_sorted.v, e->ratio_sorted.n, 0.9);
	r->elapsed_s = sb_efficiency_elapsed_s(e);
	r->lock_wait_s = lock_wait_s;
	r->cached_pct_start = restored.cached_pct_start;
	r->cached_pct_end = restored.cached_pct_end;
	r->restored_pct = restored.restored_pct;
	r->restore_s = restored.seconds;
	r->device_mb_s = sb_samples_median(&e->device_mb_s);
	r->device_pct = sb_samples_median(&e->device_pct);
	if (e->device_mb_s.n > 0)
		r->device_depth = e->device_depth;
	if (e->ratio.n > 0)
		judge(e, median, lo, hi, drift_first, drift_second, v);
	else
	{
		/* Nothing measured, nothing to judge: say why, never as a figure. */
		sb_verdict_unmeasured(v, e->target->nblocks == 0);
		if (e->target->nblocks == 0)
			ereport(NOTICE,
					(errmsg("\"%s\" is empty: there is nothing to measure",
							get_rel_name(relid))));
		else
			ereport(NOTICE,
					(errmsg("no pair of \"%s\" was measured within max_seconds (%g s)",
							get_rel_name(relid), e->max_seconds),
					 errhint("Allow more time (max_seconds).")));
	}
	r->verdict = v;
	r->settings = sb_io_settings();
	sb_server_facts(facts);
	r->facts = facts;
	r->write_mb_s = write_mb_s;
	r->limits = &e->limits;

	sb_target_close(e->target);
}
