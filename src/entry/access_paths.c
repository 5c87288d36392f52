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

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "accesspath.h"
#include "accesspath_rounds.h"
#include "argcheck.h"
#include "fnargs.h"
#include "relcheck.h"
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

/* A row of the figures of one path, cold or warm. */
static HeapTuple
path_row(TupleDesc tupdesc, Oid relid, Oid indexid, double selectivity,
		 const SbPathFigures *f)
{
	SbRow		row;
	const SbPathRun *r = &f->run;
	double		d = Max(f->nruns, 1);

	sb_row_init(&row, tupdesc, NULL, 0);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_datum(&row, "idx", ObjectIdGetDatum(indexid));
	sb_row_text(&row, "path", sb_path_name(f->path));
	sb_row_text(&row, "cache", f->cold ? "cold" : "warm");
	sb_row_float(&row, "selectivity", selectivity, 6);
	if (f->depth > 0)
		sb_row_datum(&row, "depth", Int32GetDatum(f->depth));
	else
		sb_row_null(&row, "depth");
	sb_row_null(&row, "depth_kept");
	sb_row_float(&row, "random_pages_s", f->random_pages_s, 1);
	sb_row_float(&row, "path_pct", f->path_pct, 1);
	sb_row_float(&row, "pct_low", f->pct_lo, 1);
	sb_row_float(&row, "pct_high", f->pct_hi, 1);
	sb_row_float(&row, "cached_pct_before", f->cached_pct_before, 1);
	sb_row_null(&row, "rows");
	sb_row_null(&row, "heap_pages_read");
	sb_row_null(&row, "index_pages_read");
	sb_row_null(&row, "pages_hit");
	sb_row_null(&row, "run_s");
	sb_row_null(&row, "pages_s");
	/* a run's figures, the means of the runs where it holds their sums */
	if (!f->stopped)
	{
		sb_row_datum(&row, "rows", Int64GetDatum(r->rows));
		sb_row_float(&row, "heap_pages_read", r->heap_read < 0 ? NAN : r->heap_read / d, 1);
		sb_row_float(&row, "index_pages_read", r->index_read < 0 ? NAN : r->index_read / d, 1);
		sb_row_float(&row, "pages_hit", r->pages_hit / d, 1);
		sb_row_float(&row, "run_s", r->seconds / d, 6);
		sb_row_float(&row, "pages_s", r->pages_read > 0 ? sb_rate(r->pages_read, r->seconds) : NAN, 1);
		if (r->io_ok)
			sb_row_float(&row, "depth_kept", r->distance_mean, 1);
	}
	sb_row_datum(&row, "rounds", Int32GetDatum(f->rounds));
	sb_row_verdict(&row, "verdict", &f->verdict);
	return sb_row_tuple(&row);
}

/*
 * access_paths(rel, idx, selectivity, max_seconds, paths): the arguments
 * checked before anything is opened, then a row per path and cache state
 * (accesspath_rounds.c measures them).
 */
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
	SbPathFigures figures[2 * SB_NPATHS];
	int			n;
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

	n = sb_path_measure(relid, indexid, selectivity, max_seconds, want, figures);
	for (i = 0; i < n; i++)
		tuplestore_puttuple(rsinfo->setResult,
							path_row(rsinfo->setDesc, relid, indexid,
									 selectivity, &figures[i]));
	return (Datum) 0;
}
