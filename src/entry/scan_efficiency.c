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
 * The samples are taken by the sampler (sampler.c), judged and written
 * into the row by efficiency.c; this file reads the arguments, sends a
 * Citus table to its nodes (citus_cluster.c) and returns the row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "argcheck.h"
#include "citus.h"
#include "citus_cluster.h"
#include "efficiency.h"
#include "efficiency_row.h"
#include "fnargs.h"
#include "history_record.h"
#include "request.h"
#include "sampler.h"

PG_FUNCTION_INFO_V1(scan_efficiency);

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
	SbEfficiencyRow r;
	Datum		result;

	decode_request(fcinfo, &req);
	/* From here, scan_pairs() shows this call's pairs (none on Citus). */
	sb_trace_begin("scan_efficiency", req.relid);

	/* A Citus table is measured on its nodes (citus_cluster.c). */
	if (sb_citus_table(req.relid))
		PG_RETURN_DATUM(sb_citus_scan_efficiency(&req));

	sb_efficiency(&req, &r);
	result = sb_efficiency_row(req.tupdesc, &r);
	if (req.record)
		sb_history_record(req.schema, result, req.tupdesc);
	PG_RETURN_DATUM(result);
}
