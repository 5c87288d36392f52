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
 * inflate them (pairs.c).
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

#include "args.h"
#include "citus.h"
#include "citus_cluster.h"
#include "history.h"
#include "mountinfo.h"
#include "relfiles.h"
#include "rows.h"
#include "sampler.h"
#include "scratch.h"
#include "settings.h"
#include "stats.h"
#include "tablespace.h"

PG_FUNCTION_INFO_V1(scan_efficiency);

/* scan_efficiency's arguments in the 0.2 definition; 0.1 passed 4. */
#define SB_EFFICIENCY_NARGS_0_2	10

/* ---- The verdict (verdict.c) ---- */

static void
judge(SbEfficiency *e, double median, double lo, double hi, SbVerdict *v)
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
	in.ceiling_mb_s = sb_samples_median(&e->ceiling_mb_s);
	in.ceiling_ratio = sb_samples_median(&e->ceiling_ratio);
	in.timed_s = e->timed_s;
	in.cpu_wait_s = e->cpu_wait_s;
	in.throttled_s = e->throttled_known ? e->throttled_s : NAN;
	in.cpu_busy_s = e->cpu_busy_s;
	in.limits = &e->limits;
	sb_judge(&in, v);
}

/* ---- scan_efficiency(rel, cache, block_size, runs, sample, max_seconds,
 *                      target_pct, method) ---- */

Datum
scan_efficiency(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	SbEfficiency e;
	TupleDesc	tupdesc;
	double		median,
				lo,
				hi;
	char	   *fstype;
	char	   *device;
	bool		with_write;
	Oid			write_spc = InvalidOid;
	double		write_mb_s = NAN;
	SbRow		row;
	bool		record = false;
	Datum		result;

	/* A Citus table is measured on its nodes (citus_cluster.c). */
	if (sb_citus_table(relid))
		return sb_citus_scan_efficiency(fcinfo);

	memset(&e, 0, sizeof(e));
	INSTR_TIME_SET_CURRENT(e.start);
	e.cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	e.block_size = PG_GETARG_INT32(2);
	e.runs = PG_GETARG_INT32(3);

	/*
	 * The arguments of the SQL definition the caller has: 0.1's is (rel,
	 * cache, block_size, runs), which measured runs alternated whole
	 * passes; 0.2's adds sample, max_seconds, target_pct, method,
	 * with_write and record.  A database not yet at ALTER EXTENSION UPDATE
	 * calls this library through its old definition, so read only the
	 * arguments it passes and give the others the old meaning.
	 */
	if (PG_NARGS() >= SB_EFFICIENCY_NARGS_0_2)
	{
		e.sample = PG_GETARG_FLOAT8(4);
		e.max_seconds = PG_GETARG_FLOAT8(5);
		e.target_pct = PG_GETARG_FLOAT8(6);
		e.method = sb_parse_method(PG_GETARG_TEXT_PP(7));
		with_write = PG_GETARG_BOOL(8);
		record = PG_GETARG_BOOL(9);
	}
	else
	{
		e.sample = 1.0;
		e.max_seconds = SB_MAX_SECONDS;
		e.target_pct = 0;
		e.method = SB_METHOD_WHOLE;
		with_write = false;
	}

	sb_check_block_size(e.block_size);
	sb_check_runs(e.runs);
	sb_check_sample(e.sample);
	sb_check_max_seconds(e.max_seconds);
	sb_check_target_pct(e.target_pct);
	if (e.method == SB_METHOD_WHOLE && e.sample < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("sample applies to method \"pairs\" only"),
				 errhint("method => 'whole' reads the whole relation; leave sample at 1, or use method => 'pairs'.")));
	tupdesc = sb_result_tupdesc(fcinfo);
	sb_row_init(&row, tupdesc);

	e.target = sb_target_open(relid, SB_TARGET_SCAN);
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

	median = sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.5);
	(void) sb_median_ci(e.ratio_sorted.v, e.ratio_sorted.n, SB_CONFIDENCE,
						&lo, &hi);
	sb_mount_of(sb_target_first_path(e.target), &fstype, &device);

	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "bytes", Int64GetDatum(e.target->bytes));
	sb_row_datum(&row, "rows", Int64GetDatum(e.rows));
	sb_row_text(&row, "cache", sb_cache_name(e.cache));
	sb_row_datum(&row, "block_size", Int32GetDatum(e.block_size));
	sb_row_datum(&row, "runs", Int32GetDatum(e.runs));
	sb_row_float(&row, "read_mb_s", sb_samples_median(&e.read_mb_s), 1);
	sb_row_float(&row, "scan_mb_s", sb_samples_median(&e.scan_mb_s), 1);
	sb_row_float(&row, "scan_pct", median, 1);
	sb_row_float(&row, "read_s", e.ratio.n > 0 ? e.read_s : NAN, 3);
	sb_row_float(&row, "scan_s", e.ratio.n > 0 ? e.scan_s : NAN, 3);
	sb_row_float(&row, "read_cached_pct", e.ratio.n > 0 ? e.read_cached_max : NAN, 1);
	sb_row_float(&row, "scan_cached_pct", e.ratio.n > 0 ? e.scan_cached_max : NAN, 1);
	sb_row_text(&row, "filesystem", fstype);
	sb_row_text(&row, "device", device);
	sb_row_datum(&row, "measured_at", TimestampTzGetDatum(GetCurrentTimestamp()));

	sb_row_text(&row, "method", sb_method_name(e.method));
	sb_row_datum(&row, "pairs", Int32GetDatum(e.ratio.n));
	sb_row_float(&row, "coverage_pct", sb_pct(e.blocks_covered, e.target->nblocks), 1);
	sb_row_float(&row, "scan_pct_lo", lo, 1);
	sb_row_float(&row, "scan_pct_hi", hi, 1);
	sb_row_float(&row, "scan_pct_p10", sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.1), 1);
	sb_row_float(&row, "scan_pct_p90", sb_quantile(e.ratio_sorted.v, e.ratio_sorted.n, 0.9), 1);
	sb_row_float(&row, "elapsed_s", sb_efficiency_elapsed_s(&e), 3);
	if (e.ratio.n == 0)
		sb_row_null(&row, "verdict");	/* nothing measured, nothing to judge */
	else
	{
		SbVerdict	v;

		judge(&e, median, lo, hi, &v);
		sb_row_verdict(&row, "verdict", &v);
	}
	sb_row_datum(&row, "settings", sb_io_settings());
	sb_row_float(&row, "write_mb_s", write_mb_s, 1);
	sb_row_float(&row, "cpu_wait_s", e.ratio.n > 0 ? e.cpu_wait_s : NAN, 3);
	sb_row_float(&row, "cpu_throttled_s",
				 e.ratio.n > 0 && e.throttled_known ? e.throttled_s : NAN, 3);
	sb_row_limits(&row, &e.limits);

	sb_target_close(e.target);

	result = sb_row_result(&row);
	if (record)
		sb_history_record(fcinfo, result, tupdesc);
	PG_RETURN_DATUM(result);
}
