/*-------------------------------------------------------------------------
 *
 * citus.c
 *	  The Citus functions: scan_efficiency_shards(), a figure per shard
 *	  placement and per node, and scan_efficiency_node(), the step a node
 *	  runs on its own placements when the coordinator asks (internal; see
 *	  src/citus.c).  scan_efficiency on a Citus table gives the cluster's
 *	  figure (citus_cluster.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "argcheck.h"
#include "citus.h"
#include "clock.h"
#include "fnargs.h"
#include "seqread.h"
#include "restore.h"
#include "rows.h"
#include "scan.h"
#include "stats.h"

PG_FUNCTION_INFO_V1(scan_efficiency_shards);
PG_FUNCTION_INFO_V1(scan_efficiency_node);

/* ---- scan_efficiency_node: one step on this node's placements ---- */

static void
json_float(StringInfo buf, const char *key, double v)
{
	if (isnan(v))
		appendStringInfo(buf, ", \"%s\": null", key);
	else
		appendStringInfo(buf, ", \"%s\": %.9g", key, v);
}

/*
 * Run on each node by the coordinator.  step is 'read' (raw reads),
 * 'scan' (count(1) of each placement through this node's executor) or
 * 'prepare' (put the caches in the state asked for, for a count(1) that
 * the coordinator runs next).  The caches of all the placements are set
 * first and the timed passes follow back to back, so that the nodes,
 * started together, read at the same time.
 *
 * For restore => true, 'snapshot' answers what the caches hold of each
 * placement, as bytes the coordinator keeps, and 'restore' puts that back
 * from the snapshots it hands over (restore.c).
 */
typedef enum SbNodeStep
{
	SB_STEP_READ,
	SB_STEP_SCAN,
	SB_STEP_PREPARE,
	SB_STEP_SNAPSHOT,
	SB_STEP_RESTORE
} SbNodeStep;

static const char *const step_names[] = {"read", "scan", "prepare", "snapshot", "restore"};

static SbNodeStep
parse_step(const char *step)
{
	int			i;

	for (i = 0; i < lengthof(step_names); i++)
		if (strcmp(step, step_names[i]) == 0)
			return (SbNodeStep) i;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid step \"%s\"", step),
			 errhint("Valid steps are \"read\", \"scan\", \"prepare\", \"snapshot\" and \"restore\".")));
	return SB_STEP_READ;		/* keep the compiler quiet */
}

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
	SbTarget  **targets;
	SbReadResult *reads;
	SbScanResult *scans;
	SbResidency *res;
	SbCacheSnapshot *snapshots;
	SbRestoreResult *restored;
	SbClock		clock;
	SbTiming	node_t;
	StringInfoData out;
	bool		timed;
	int			i;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	step = parse_step(sb_arg_cstring(&args, "step", NULL));
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
	timed = step == SB_STEP_READ || step == SB_STEP_SCAN;

	targets = palloc0(sizeof(SbTarget *) * Max(nids, 1));
	reads = palloc0(sizeof(SbReadResult) * Max(nids, 1));
	scans = palloc0(sizeof(SbScanResult) * Max(nids, 1));
	res = palloc0(sizeof(SbResidency) * Max(nids, 1));
	snapshots = palloc0(sizeof(SbCacheSnapshot) * Max(nids, 1));
	restored = palloc0(sizeof(SbRestoreResult) * Max(nids, 1));
	for (i = 0; i < nids; i++)
	{
		char	   *name = TextDatumGetCString(names[i]);
		Oid			shard_relid = DatumGetObjectId(DirectFunctionCall1(regclassin,
																	   CStringGetDatum(name)));

		targets[i] = sb_target_open(shard_relid, SB_TARGET_SCAN);
	}

	/* The caches first, for all; then the timed passes. */
	for (i = 0; i < nids && (timed || step == SB_STEP_PREPARE); i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (cache == SB_CACHE_COLD)
		{
			if (step != SB_STEP_READ)
				sb_evict_buffers(targets[i]);
			sb_evict_page_cache(targets[i]);
		}
		else if (cache == SB_CACHE_WARM && step == SB_STEP_READ)
			sb_raw_read(targets[i], block_size, SB_CACHE_ASIS, &reads[i], NULL);
		else if (cache == SB_CACHE_WARM && step == SB_STEP_SCAN)
			sb_scan(targets[i], "count(1)", 0, SB_CACHE_ASIS, &scans[i]);
	}

	sb_clock_start(&clock);
	for (i = 0; i < nids; i++)
	{
		CHECK_FOR_INTERRUPTS();
		switch (step)
		{
			case SB_STEP_READ:
				sb_raw_read(targets[i], block_size, SB_CACHE_ASIS, &reads[i], NULL);
				break;
			case SB_STEP_SCAN:
				sb_scan(targets[i], "count(1)", 0, SB_CACHE_ASIS, &scans[i]);
				break;
			case SB_STEP_PREPARE:
				sb_residency(targets[i], &res[i]);
				break;
			case SB_STEP_SNAPSHOT:
				sb_cache_snapshot(targets[i], &snapshots[i]);
				break;
			case SB_STEP_RESTORE:
				sb_cache_snapshot_from_bytes(targets[i], DatumGetByteaPP(snaps[i]),
											 &snapshots[i]);
				sb_cache_restore(targets[i], &snapshots[i], &restored[i]);
				break;
		}
	}
	sb_clock_stop(&clock, &node_t);

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (i = 0; i < nids; i++)
	{
		appendStringInfo(&out, "%s{\"shardid\": " INT64_FORMAT ", \"bytes\": " UINT64_FORMAT,
						 i ? ", " : "", DatumGetInt64(ids[i]), targets[i]->bytes);
		switch (step)
		{
			case SB_STEP_READ:
				json_float(&out, "seconds", reads[i].timing.seconds);
				json_float(&out, "cached_pct", reads[i].cached_pct_before);
				break;
			case SB_STEP_SCAN:
				appendStringInfo(&out, ", \"rows\": " UINT64_FORMAT, scans[i].rows);
				json_float(&out, "seconds", scans[i].timing.seconds);
				json_float(&out, "cached_pct", scans[i].cached_pct_before);
				break;
			case SB_STEP_PREPARE:
				json_float(&out, "cached_pct", sb_pct(res[i].any_blocks, res[i].blocks));
				break;
			case SB_STEP_SNAPSHOT:
				json_float(&out, "cached_pct", sb_pct(snapshots[i].before.any_blocks,
													  targets[i]->nblocks));
				appendStringInfoString(&out, ", \"snapshot\": ");
				escape_json(&out, DatumGetCString(DirectFunctionCall1(byteaout,
																	  PointerGetDatum(sb_cache_snapshot_bytes(targets[i], &snapshots[i])))));
				break;
			case SB_STEP_RESTORE:
				json_float(&out, "cached_pct", restored[i].cached_pct_start);
				json_float(&out, "cached_pct_end", restored[i].cached_pct_end);
				json_float(&out, "restored_pct", restored[i].restored_pct);
				json_float(&out, "seconds", restored[i].seconds);
				break;
		}
		json_float(&out, "node_s", step == SB_STEP_PREPARE ? NAN : node_t.seconds);
		appendStringInfoChar(&out, '}');
		sb_target_close(targets[i]);
	}
	appendStringInfoChar(&out, ']');

	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(out.data)));
}

/* ---- scan_efficiency_shards: a row per placement, a row per node ---- */

static void
put_shard_row(ReturnSetInfo *rsinfo, Oid relid, const char *level,
			  const char *node, int64 shardid, const char *shard,
			  int64 bytes, int64 rows, double *read_s, double *scan_s,
			  int pairs, SbCacheMode cache, double read_cached,
			  double scan_cached, const char *slowest, TimestampTz at)
{
	double	   *read_mb_s = palloc(sizeof(double) * pairs);
	double	   *scan_mb_s = palloc(sizeof(double) * pairs);
	double	   *ratio = palloc(sizeof(double) * pairs);
	double		med,
				lo,
				hi;
	SbRow		row;
	SbVerdict	verdict;
	int			i;

	for (i = 0; i < pairs; i++)
	{
		read_mb_s[i] = sb_rate(bytes / SB_MB, read_s[i]);
		scan_mb_s[i] = sb_rate(bytes / SB_MB, scan_s[i]);
		ratio[i] = sb_rate(100.0 * scan_mb_s[i], read_mb_s[i]);
	}
	med = sb_citus_ratio_figures(ratio, pairs, &lo, &hi, NULL, NULL);

	sb_row_init(&row, rsinfo->setDesc, NULL, 0);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(relid));
	sb_row_text(&row, "level", level);
	sb_row_text(&row, "node", node);
	if (shard)
		sb_row_datum(&row, "shardid", Int64GetDatum(shardid));
	else
		sb_row_null(&row, "shardid");
	sb_row_text(&row, "shard", shard);
	sb_row_datum(&row, "bytes", Int64GetDatum(bytes));
	sb_row_datum(&row, "rows", Int64GetDatum(rows));
	sb_row_float(&row, "read_mb_s", sb_median(read_mb_s, pairs), 1);
	sb_row_float(&row, "scan_mb_s", sb_median(scan_mb_s, pairs), 1);
	sb_row_float(&row, "scan_pct", med, 1);
	sb_row_float(&row, "scan_pct_lo", lo, 1);
	sb_row_float(&row, "scan_pct_hi", hi, 1);
	sb_row_float(&row, "read_s", sb_median(read_s, pairs), 3);
	sb_row_float(&row, "scan_s", sb_median(scan_s, pairs), 3);
	sb_row_float(&row, "read_cached_pct", read_cached, 1);
	sb_row_float(&row, "scan_cached_pct", scan_cached, 1);
	sb_row_datum(&row, "pairs", Int32GetDatum(pairs));
	if (sb_citus_verdict(cache, sb_max((double[]) {read_cached, scan_cached}, 2),
						 med, lo, hi, pairs, 0, NULL, &verdict))
		sb_row_verdict(&row, "verdict", &verdict);
	else
		sb_row_null(&row, "verdict");
	sb_row_text(&row, "slowest_shard", slowest);
	sb_row_datum(&row, "measured_at", TimestampTzGetDatum(at));
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
	MemoryContext outer = CurrentMemoryContext;
	SbArgs		args;
	SbCitusTable *ct;
	TimestampTz at;
	char		kind;
	int			pair,
				n,
				i;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	relid = sb_arg_oid(&args, "rel", REGCLASSOID);
	cache = sb_parse_cache(cstring_to_text(sb_arg_cstring(&args, "cache", "cold")), false);
	block_size = sb_arg_int32(&args, "block_size", BLCKSZ);
	runs = sb_arg_int32(&args, "runs", 1);

	sb_check_block_size(block_size);
	sb_check_runs(runs);
	sb_init_srf(fcinfo);

	SPI_connect();
	if (!sb_citus_table_kind(relid, &kind))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a Citus table", get_rel_name(relid)),
				 errhint("scan_efficiency('%s') measures a table on this server.",
						 get_rel_name(relid))));
	ct = sb_citus_table_open(relid, kind, get_func_namespace(fcinfo->flinfo->fn_oid), outer);
	sb_citus_alloc_pairs(ct, runs, outer);

	for (pair = 0; pair < runs; pair++)
	{
		int			side;

		for (side = 0; side < 2; side++)
		{
			bool		do_read = ((side == 0) == (pair % 2 == 0));

			CHECK_FOR_INTERRUPTS();
			sb_citus_store_step(ct, sb_citus_run_step(ct, do_read ? "read" : "scan", cache, block_size),
					   do_read, pair);
		}
	}
	at = GetCurrentTimestamp();

	/* Each node's placements, then the node's own row. */
	for (n = 0; n < ct->nnodes; n++)
	{
		SbNode	   *node = &ct->nodes[n];
		int64		bytes = 0,
					rows = 0;
		double		read_cached = NAN,
					scan_cached = NAN,
					slowest_mb_s = NAN;
		char	   *slowest = NULL;

		for (i = 0; i < ct->nplacements; i++)
		{
			SbPlacement *p = &ct->placements[i];
			double	   *tmp;
			double		mb_s;

			if (p->nodeid != node->nodeid)
				continue;
			put_shard_row(rsinfo, relid, "shard", p->node, p->shardid, p->shard,
						  p->bytes, p->rows, p->read_s, p->scan_s, runs, cache,
						  p->read_cached, p->scan_cached, NULL, at);
			bytes += p->bytes;
			rows += p->rows;
			read_cached = sb_max((double[]) {read_cached, p->read_cached}, 2);
			scan_cached = sb_max((double[]) {scan_cached, p->scan_cached}, 2);

			tmp = palloc(sizeof(double) * runs);
			memcpy(tmp, p->scan_s, sizeof(double) * runs);
			mb_s = sb_rate(p->bytes / SB_MB, sb_median(tmp, runs));
			if (!isnan(mb_s) && (slowest == NULL || mb_s < slowest_mb_s))
			{
				slowest = p->shard;
				slowest_mb_s = mb_s;
			}
		}
		put_shard_row(rsinfo, relid, "node", node->node, 0, NULL, bytes, rows,
					  node->read_s, node->scan_s, runs, cache, read_cached,
					  scan_cached, slowest, at);
	}
	SPI_finish();

	return (Datum) 0;
}
