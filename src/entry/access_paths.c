/*-------------------------------------------------------------------------
 *
 * access_paths.c
 *	  access_paths(rel, idx, selectivity, max_seconds, paths): the same count
 *	  through a sequential scan, an index scan, an index-only scan and a
 *	  bitmap heap scan of one btree index (accesspath.c), cold and warm, a
 *	  row per path and cache state.
 *
 * A cold index path's row holds its page rate against random reads of the
 * table's blocks at the depth the path keeps (path_pct, with an interval
 * over rounds): how much of what the storage gives at that depth the path
 * gets.  The sequential scan is timed once each way; how it compares with
 * the storage read in order is scan_efficiency's question.  Warm rows
 * are the paths' CPU: their pages came from shared_buffers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/relation.h"
#include "access/table.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "argcheck.h"
#include "cgroup.h"
#include "compat.h"
#include "fnargs.h"
#include "relcheck.h"
#include "relfiles.h"
#include "rows.h"
#include "stats.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(access_paths);

static void
check_selectivity(double selectivity)
{
	if (isnan(selectivity) || selectivity <= 0 || selectivity > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid selectivity: %g", selectivity),
				 errhint("selectivity, the share of the table's rows the count covers, must be above 0 and at most 1 (0.001 is 0.1 %%).")));
}

/* Which paths to measure, from their names: a flag for each. */
static void
parse_paths(ArrayType *arr, bool *want)
{
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			i;
	int			p;

	memset(want, 0, sizeof(bool) * SB_NPATHS);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("paths must be a one-dimensional array")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("paths must name at least one access path"),
				 errhint("Leave the argument out for all four: seq, index, index_only and bitmap.")));
	for (i = 0; i < n; i++)
	{
		char	   *name;

		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("paths must not contain NULL")));
		name = TextDatumGetCString(elems[i]);
		for (p = 0; p < SB_NPATHS; p++)
			if (strcmp(name, sb_path_name((SbPath) p)) == 0)
				break;
		if (p == SB_NPATHS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown access path \"%s\"", sb_arg_for_message(name)),
					 errhint("The paths are seq, index, index_only and bitmap.")));
		want[p] = true;
	}
}

/* The columns every row has. */
static void
row_start(SbRow *row, Oid relid, Oid indexid, SbPath path, bool cold,
		  double selectivity, int depth)
{
	sb_row_init(row, row->tupdesc, NULL, 0);
	sb_row_datum(row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(row, "idx", ObjectIdGetDatum(indexid));
	sb_row_text(row, "path", sb_path_name(path));
	sb_row_text(row, "cache", cold ? "cold" : "warm");
	sb_row_float(row, "selectivity", selectivity, 6);
	if (depth > 0)
		sb_row_datum(row, "depth", Int32GetDatum(depth));
	else
		sb_row_null(row, "depth");
	sb_row_null(row, "depth_kept");
	sb_row_null(row, "random_pages_s");
	sb_row_null(row, "path_pct");
	sb_row_null(row, "pct_low");
	sb_row_null(row, "pct_high");
	sb_row_null(row, "cached_pct_before");
	sb_row_null(row, "rows");
	sb_row_null(row, "heap_pages_read");
	sb_row_null(row, "index_pages_read");
	sb_row_null(row, "pages_hit");
	sb_row_null(row, "run_s");
	sb_row_null(row, "pages_s");
}

/* A run's figures, the means of n runs where it holds their sums. */
static void
row_run(SbRow *row, const SbPathRun *r, int n)
{
	double		d = Max(n, 1);

	sb_row_datum(row, "rows", Int64GetDatum(r->rows));
	sb_row_float(row, "heap_pages_read", r->heap_read < 0 ? NAN : r->heap_read / d, 1);
	sb_row_float(row, "index_pages_read", r->index_read < 0 ? NAN : r->index_read / d, 1);
	sb_row_float(row, "pages_hit", r->pages_hit / d, 1);
	sb_row_float(row, "run_s", r->seconds / d, 6);
	sb_row_float(row, "pages_s", r->pages_read > 0 ? sb_rate(r->pages_read, r->seconds) : NAN, 1);
	if (r->io_ok)
		sb_row_float(row, "depth_kept", r->distance_mean, 1);
}

/* A row whose runs the time ran out in: no figures, over_budget. */
static void
row_stopped(SbRow *row, SbVerdict *v)
{
	sb_row_datum(row, "rounds", Int32GetDatum(0));
	sb_judge_access_path(0, NAN, NAN, NAN, NAN, NAN, HUGE_VAL, v);
}

Datum
access_paths(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbArgs		args;
	Oid			relid;
	Oid			indexid;
	double		selectivity;
	double		max_seconds;
	bool		want[SB_NPATHS];
	Relation	heap;
	Relation	index;
	SbTarget   *heap_target;
	SbTarget   *index_target;
	SbPathPlan *plans[SB_NPATHS];
	char	   *bound;
	double		reltuples;
	double		limit_rate;
	TimestampTz deadline;
	int			nestlevel;
	int			nleft = 0;
	int			stopped = 0;
	int			i;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	indexid = sb_arg_oid(&args, "idx", REGCLASSOID);
	selectivity = sb_arg_float8(&args, "selectivity", 0.001);
	max_seconds = sb_arg_float8(&args, "max_seconds", 60.0);
	parse_paths(sb_arg_array(&args, "paths", TEXTOID), want);
	sb_check_heap_table(relid, NULL, "Measure one of its partitions and an index of it.", NULL);
	sb_check_range_index(relid, indexid, "access_paths");
	check_selectivity(selectivity);
	sb_check_max_seconds(max_seconds);
	sb_init_srf(fcinfo);

	heap_target = sb_path_open_table(relid,
									 "The share of rows the count covers is taken from its row count, and the planner's choices from its statistics.");
	heap = heap_target->leaves[0].rel;
	index_target = sb_target_open(indexid, SB_TARGET_INDEX);
	index = index_target->leaves[0].rel;
	/* the budget runs from here, the locks held: every step stops by it */
	deadline = sb_path_deadline(max_seconds);

	/* one backend's reads, no JIT, every scan from the first block */
	nestlevel = sb_path_settings_begin();

	bound = sb_path_bound(heap, index, selectivity, deadline, &reltuples);
	for (i = 0; i < SB_NPATHS; i++)
	{
		plans[i] = want[i] ? sb_path_plan(heap, index, (SbPath) i, bound) : NULL;
		if (plans[i] != NULL)
			nleft++;
	}
	limit_rate = sb_cgroup_path_read_rate(heap_target->segments[0]->path, BLCKSZ);

	for (i = 0; i < SB_NPATHS; i++)
	{
		SbPathPlan *p = plans[i];
		SbPathRun	run;
		SbPathRounds rounds;
		SbVerdict	v;
		SbRow		row;
		double		cached;
		TimestampTz share_end;

		if (p == NULL)
			continue;
		row.tupdesc = rsinfo->setDesc;
		/* each path, cold and warm, has its share of the time left */
		share_end = sb_path_deadline(Max(sb_path_seconds_left(deadline), 0.0) / nleft);
		nleft--;

		/* cold */
		row_start(&row, relid, indexid, (SbPath) i, true, selectivity,
				  sb_path_depth(p));
		if (i == SB_PATH_SEQ)
		{
			if (sb_path_cold(p, heap_target, index_target, share_end, &run, &cached))
			{
				row_run(&row, &run, 1);
				sb_row_float(&row, "cached_pct_before", cached, 1);
				sb_row_datum(&row, "rounds", Int32GetDatum(1));
				sb_judge_access_path(-1, NAN, NAN, NAN, cached,
									 sb_rate(run.pages_read, run.seconds),
									 limit_rate, &v);
			}
			else
			{
				row_stopped(&row, &v);
				stopped++;
			}
		}
		else
		{
			/* the two warm runs after the rounds are left time */
			sb_path_rounds(p, heap_target, index_target, share_end, 2, &rounds);
			if (rounds.rounds == 0 && rounds.budget_hit)
			{
				row_stopped(&row, &v);
				stopped++;
			}
			else
			{
				row_run(&row, &rounds.sum, rounds.rounds);
				sb_row_float(&row, "cached_pct_before", rounds.cached_pct_before, 1);
				sb_row_datum(&row, "rounds", Int32GetDatum(rounds.rounds));
				if (rounds.random_reads > 0)
				{
					sb_row_float(&row, "random_pages_s",
								 sb_rate(rounds.random_reads, rounds.random_s), 1);
					sb_row_float(&row, "path_pct", rounds.pct, 1);
					sb_row_float(&row, "pct_low", rounds.pct_lo, 1);
					sb_row_float(&row, "pct_high", rounds.pct_hi, 1);
				}
				sb_judge_access_path(rounds.rounds, rounds.pct, rounds.pct_lo,
									 rounds.pct_hi, rounds.cached_pct_before,
									 sb_rate(rounds.sum.pages_read, rounds.sum.seconds),
									 limit_rate, &v);
			}
		}
		sb_row_verdict(&row, "verdict", &v);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));

		/* warm: the path's pages in shared_buffers, its CPU alone */
		row_start(&row, relid, indexid, (SbPath) i, false, selectivity,
				  sb_path_depth(p));
		if (sb_path_warm(p, share_end, &run))
		{
			row_run(&row, &run, 1);
			sb_row_datum(&row, "rounds", Int32GetDatum(1));
			v.n = 0;
		}
		else
		{
			row_stopped(&row, &v);
			stopped++;
		}
		sb_row_verdict(&row, "verdict", &v);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}

	if (stopped > 0)
		ereport(NOTICE,
				(errmsg("\"%s\": max_seconds (%g s) ran out before %d of the runs asked for ended",
						get_rel_name(relid), max_seconds, stopped),
				 errdetail("Each path had its share of the time, cold and warm; a run that outlasted it was stopped and its row has no figures."),
				 errhint("Give it more time (max_seconds), ask for fewer paths, or a smaller selectivity.")));

	AtEOXact_GUC(true, nestlevel);
	sb_target_close(index_target);
	sb_target_close(heap_target);
	return (Datum) 0;
}
