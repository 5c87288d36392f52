/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  The Citus functions: scan_efficiency_shards(), a figure per shard
 *	  placement and per node, and scan_efficiency_node(), the step a node
 *	  runs on its own placements when the coordinator asks (internal; see
 *	  src/citus.c).  They are measured by citus_shards.c and citus_node.c;
 *	  scan_efficiency on a Citus table gives the cluster's figure
 *	  (citus_cluster.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "argcheck.h"
#include "citus_node.h"
#include "citus_shards.h"
#include "fnargs.h"
#include "rows.h"

PG_FUNCTION_INFO_V1(scan_efficiency_shards);
PG_FUNCTION_INFO_V1(scan_efficiency_node);

/* ---- scan_efficiency_node: one step on this node's placements ---- */

/* An array argument's elements, none of them NULL. */
static Datum *
array_elements(ArrayType *arr, Oid type, const char *name, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int			i;

	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	deconstruct_array(arr, type, typlen, typbyval, typalign, &elems, &nulls, n);
	for (i = 0; i < *n; i++)
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain NULL", name)));
	return elems;
}

Datum
scan_efficiency_node(PG_FUNCTION_ARGS)
{
	SbArgs		args;
	SbNodeStep	step;
	SbCacheMode cache;
	int32		block_size;
	ArrayType  *snaps_arr;
	Datum	   *ids,
			   *names,
			   *snaps = NULL;
	int			nids,
				nnames,
				nsnaps = 0;
	char	   *json;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	step = sb_citus_node_step_parse(sb_arg_cstring(&args, "step", NULL));
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", NULL)), false);
	block_size = sb_arg_int32(&args, "block_size", BLCKSZ);
	sb_check_block_size(block_size);
	ids = array_elements(sb_arg_array(&args, "shardids", INT8OID), INT8OID, "shardids", &nids);
	names = array_elements(sb_arg_array(&args, "shards", TEXTOID), TEXTOID, "shards", &nnames);
	/* 0.3's definition has no snapshots: it never restores */
	snaps_arr = sb_arg_array(&args, "snapshots", BYTEAOID);
	if (snaps_arr)
		snaps = array_elements(snaps_arr, BYTEAOID, "snapshots", &nsnaps);
	if (nids != nnames)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardids and shards must have the same length")));
	if (step == SB_STEP_RESTORE && nsnaps != nids)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("step \"restore\" needs a snapshot of each shard"),
				 errhint("Give the snapshots step \"snapshot\" answered, in the order of shards.")));

	json = sb_citus_node_step(step, cache, block_size, ids, names, snaps, nids);
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
}

/* ---- scan_efficiency_shards: a row per placement, a row per node ---- */

static void
put_shard_row(ReturnSetInfo *rsinfo, Oid relid, const SbShardFigures *f)
{
	SbRow		row;

	sb_row_init(&row, rsinfo->setDesc, NULL, 0);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "level", f->level);
	sb_row_text(&row, "node", f->node);
	if (f->shard)
		sb_row_datum(&row, "shardid", Int64GetDatum(f->shardid));
	else
		sb_row_null(&row, "shardid");
	sb_row_text(&row, "shard", f->shard);
	sb_row_datum(&row, "bytes", Int64GetDatum(f->bytes));
	sb_row_datum(&row, "rows", Int64GetDatum(f->rows));
	sb_row_float(&row, "read_mb_s", f->read_mb_s, 1);
	sb_row_float(&row, "scan_mb_s", f->scan_mb_s, 1);
	sb_row_float(&row, "scan_pct", f->scan_pct, 1);
	sb_row_float(&row, "scan_pct_lo", f->scan_pct_lo, 1);
	sb_row_float(&row, "scan_pct_hi", f->scan_pct_hi, 1);
	sb_row_float(&row, "read_s", f->read_s, 3);
	sb_row_float(&row, "scan_s", f->scan_s, 3);
	sb_row_float(&row, "read_cached_pct", f->read_cached, 1);
	sb_row_float(&row, "scan_cached_pct", f->scan_cached, 1);
	sb_row_datum(&row, "pairs", Int32GetDatum(f->pairs));
	if (f->judged)
		sb_row_verdict(&row, "verdict", &f->verdict);
	else
		sb_row_null(&row, "verdict");
	sb_row_text(&row, "slowest_shard", f->slowest);
	sb_row_datum(&row, "measured_at", TimestampTzGetDatum(f->at));
	tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
}

Datum
scan_efficiency_shards(PG_FUNCTION_ARGS)
{
	Oid			relid;
	SbCacheMode cache;
	int32		block_size;
	int32		runs;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbArgs		args;
	List	   *figures;
	ListCell   *lc;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "cold")), false);
	block_size = sb_arg_int32(&args, "block_size", BLCKSZ);
	runs = sb_arg_int32(&args, "runs", 1);

	sb_check_block_size(block_size);
	sb_check_runs(runs);
	sb_init_srf(fcinfo);

	figures = sb_citus_shards(relid, cache, block_size, runs,
							  get_func_namespace(fcinfo->flinfo->fn_oid));
	foreach(lc, figures)
		put_shard_row(rsinfo, relid, lfirst(lc));
	return (Datum) 0;
}
