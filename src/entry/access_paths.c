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

#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "accesspath.h"
#include "argcheck.h"
#include "cgroup.h"
#include "compat.h"
#include "fnargs.h"
#include "relfiles.h"
#include "rows.h"
#include "stats.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(access_paths);

/* The table: one with heap pages of its own, in shared buffers. */
static void
check_table(Oid relid)
{
	char		relkind = get_rel_relkind(relid);
	char	   *name = get_rel_name(relid);

	if (name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
	if (relkind == RELKIND_PARTITIONED_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is a partitioned table", name),
				 errhint("Measure one of its partitions and an index of it.")));
	if (relkind != RELKIND_RELATION && relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table or materialized view", name)));
	if (get_rel_persistence(relid) == RELPERSISTENCE_TEMP)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is a temporary table", name),
				 errdetail("Its pages live in the session's local buffers, not in shared buffers as other tables' do.")));
}

/* pg_class.relam, read from the catalog's cache (15 has no lookup of it) */
static Oid
rel_am(Oid relid)
{
	HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			am;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	am = ((Form_pg_class) GETSTRUCT(tup))->relam;
	ReleaseSysCache(tup);
	return am;
}

static char *
opclass_name(Oid opclass)
{
	HeapTuple	tup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclass));
	char	   *name;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator class %u", opclass);
	name = pstrdup(NameStr(((Form_pg_opclass) GETSTRUCT(tup))->opcname));
	ReleaseSysCache(tup);
	return name;
}

/*
 * The index: a valid btree on this table whose first key is a plain
 * column ordered by its type's default operator class, with no predicate,
 * so that "key <= bound" is a range every path can answer.
 */
static void
check_index(Oid relid, Oid indexid)
{
	char	   *name = get_rel_name(indexid);
	char		relkind = get_rel_relkind(indexid);
	HeapTuple	tup;
	Form_pg_index ind;
	bool		isnull;
	Oid			am;
	Oid			opclass;
	Oid			keytype;
	oidvector  *classes;

	if (name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("index with OID %u does not exist", indexid)));
	if (relkind == RELKIND_PARTITIONED_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" is a partitioned index", name),
				 errhint("Measure one partition and its index.")));
	if (relkind != RELKIND_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", name),
				 errhint("Pass an index of \"%s\" as idx; \\d %s lists them.",
						 get_rel_name(relid), get_rel_name(relid))));

	tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for index %u", indexid);
	ind = (Form_pg_index) GETSTRUCT(tup);
	if (ind->indrelid != relid)
	{
		Oid			owner = ind->indrelid;

		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("index \"%s\" is on \"%s\", not on \"%s\"",
						name, get_rel_name(owner), get_rel_name(relid))));
	}
	if (!ind->indisvalid)
	{
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index \"%s\" is not valid", name),
				 errhint("REINDEX it, or wait for CREATE INDEX CONCURRENTLY to finish.")));
	}
	if (ind->indkey.values[0] == 0)
	{
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the first key of index \"%s\" is an expression", name),
				 errdetail("access_paths counts the rows with a key at most a bound, and needs a column as the first key.")));
	}
	if (!heap_attisnull(tup, Anum_pg_index_indpred, NULL))
	{
		ReleaseSysCache(tup);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is partial", name),
				 errdetail("A partial index answers only the rows its predicate covers; the sequential scan would count others.")));
	}
	classes = (oidvector *) DatumGetPointer(SysCacheGetAttr(INDEXRELID, tup,
															Anum_pg_index_indclass,
															&isnull));
	opclass = classes->values[0];
	keytype = get_atttype(relid, ind->indkey.values[0]);
	ReleaseSysCache(tup);

	am = rel_am(indexid);
	if (am != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" is not a btree index", name),
				 errdetail("access_paths times a key range, which only a btree index orders.")));
	if (opclass != GetDefaultOpClass(keytype, BTREE_AM_OID))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("index \"%s\" orders its first key by operator class \"%s\", not its type's default",
						name, opclass_name(opclass))));
}

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

/* The 8 kB reads a second the group's read throttle allows the table. */
static double
throttle_rate(SbTarget *heap)
{
	SbCgroupLimits limits;

	sb_cgroup_limits(heap->segments[0]->path, &limits);
	return sb_cgroup_read_rate(&limits, BLCKSZ);
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
	int			nestlevel;
	int			nrandom = 0;
	int			i;
	instr_time	t0;
	instr_time	now;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	indexid = sb_arg_oid(&args, "idx", REGCLASSOID);
	selectivity = sb_arg_float8(&args, "selectivity", 0.001);
	max_seconds = sb_arg_float8(&args, "max_seconds", 60.0);
	parse_paths(sb_arg_array(&args, "paths", TEXTOID), want);
	check_table(relid);
	check_index(relid, indexid);
	check_selectivity(selectivity);
	sb_check_max_seconds(max_seconds);
	sb_init_srf(fcinfo);

	heap_target = sb_target_open(relid, SB_TARGET_SCAN);
	if (heap_target->nleaves != 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("\"%s\" has inheritance children", get_rel_name(relid)),
				 errhint("Measure one table of the hierarchy at a time.")));
	heap = heap_target->leaves[0].rel;
	if (heap->rd_rel->reltuples < 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("\"%s\" has not been analyzed", get_rel_name(relid)),
				 errdetail("The share of rows the count covers is taken from its row count, and the planner's choices from its statistics."),
				 errhint("ANALYZE %s first.", get_rel_name(relid))));
	if (heap_target->nblocks == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is empty: there is nothing to read",
						get_rel_name(relid))));
	index_target = sb_target_open(indexid, SB_TARGET_INDEX);
	index = index_target->leaves[0].rel;

	/*
	 * For the whole call: no parallel workers (a path is one backend's
	 * reads), no JIT (its compile time is no path's), every scan from the
	 * first block.
	 */
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("max_parallel_workers_per_gather", "0",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	(void) set_config_option("jit", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("synchronize_seqscans", "off", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);

	bound = sb_path_bound(heap, index, selectivity, &reltuples);
	for (i = 0; i < SB_NPATHS; i++)
	{
		plans[i] = want[i] ? sb_path_plan(heap, index, (SbPath) i, bound) : NULL;
		if (plans[i] != NULL && i != SB_PATH_SEQ)
			nrandom++;
	}
	limit_rate = throttle_rate(heap_target);

	INSTR_TIME_SET_CURRENT(t0);
	for (i = 0; i < SB_NPATHS; i++)
	{
		SbPathPlan *p = plans[i];
		SbPathRun	run;
		SbPathRounds rounds;
		SbVerdict	v;
		SbRow		row;
		double		cached;
		double		left;

		if (p == NULL)
			continue;
		row.tupdesc = rsinfo->setDesc;

		/* cold */
		row_start(&row, relid, indexid, (SbPath) i, true, selectivity,
				  sb_path_depth(p));
		if (i == SB_PATH_SEQ)
		{
			sb_path_cold(p, heap_target, index_target, &run, &cached);
			row_run(&row, &run, 1);
			sb_row_float(&row, "cached_pct_before", cached, 1);
			sb_row_datum(&row, "rounds", Int32GetDatum(1));
			sb_judge_access_path(-1, NAN, NAN, NAN, cached,
								 sb_rate(run.pages_read, run.seconds),
								 limit_rate, &v);
		}
		else
		{
			INSTR_TIME_SET_CURRENT(now);
			INSTR_TIME_SUBTRACT(now, t0);
			left = Max(max_seconds - INSTR_TIME_GET_DOUBLE(now), 0.0);
			sb_path_rounds(p, heap_target, index_target, left / nrandom,
						   &rounds);
			nrandom--;
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
		sb_row_verdict(&row, "verdict", &v);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));

		/* warm: the path's pages in shared_buffers, its CPU alone */
		row_start(&row, relid, indexid, (SbPath) i, false, selectivity,
				  sb_path_depth(p));
		sb_path_warm(p, &run);
		row_run(&row, &run, 1);
		sb_row_datum(&row, "rounds", Int32GetDatum(1));
		v.n = 0;
		sb_row_verdict(&row, "verdict", &v);
		tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
	}

	AtEOXact_GUC(true, nestlevel);
	sb_target_close(index_target);
	sb_target_close(heap_target);
	return (Datum) 0;
}
