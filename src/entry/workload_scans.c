/*-------------------------------------------------------------------------
 *
 * workload_scans.c
 *	  workload_scans(query, cache): one query given by the caller, run
 *	  with EXPLAIN ANALYZE cold and warm (planscan.c), a row per scan node
 *	  and run: what it read, how fast per second it waited, against the
 *	  reference of its access path (workload_references()), and a verdict.
 *
 * The query is checked before anything runs: one plain SELECT.  The
 * references are read next, so that a role that may not read them is
 * told before the query runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "argcheck.h"
#include "compat.h"
#include "fnargs.h"
#include "planscan.h"
#include "rows.h"
#include "stats.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(workload_scans);

/* The largest of the storage's device rates (page_cache is not one). */
static double
device_max(const SbScanReferences *refs)
{
	double		m = NAN;

	if (refs->sequential > 0)
		m = refs->sequential;
	if (refs->random > 0 && !(m >= refs->random))
		m = refs->random;
	if (refs->random_at_depth > 0 && !(m >= refs->random_at_depth))
		m = refs->random_at_depth;
	return m;
}

static void
put_row(ReturnSetInfo *rsinfo, const SbScanNode *s, const SbScanReferences *refs)
{
	SbRow		row;
	SbVerdict	v;
	const char *ref_name = sb_planscan_reference_name(s->node_type);
	double		ref_mb_s = sb_planscan_reference(refs, s->node_type);
	double		bytes = (double) s->blocks_read * BLCKSZ;
	double		mb_s = NAN;
	double		wait_pct = NAN;
	bool		one_at_a_time;

	/* No rate at depth recorded: a bitmap heap scan reads one at a time. */
	if (strcmp(ref_name, "random_at_depth") == 0 && isnan(ref_mb_s))
	{
		ref_name = "random";
		ref_mb_s = refs->random;
	}
	if (s->blocks_read > 0 && s->read_wait_s > 0)
		mb_s = bytes / s->read_wait_s / 1e6;
	if (s->node_s > 0)
		wait_pct = 100 * s->read_wait_s / s->node_s;
	one_at_a_time = !isnan(s->in_flight) ? s->in_flight <= 1.5 :
		(strcmp(s->node_type, "Index Scan") == 0 ||
		 strcmp(s->node_type, "Index Only Scan") == 0);

	sb_row_init(&row, rsinfo->setDesc, NULL, 0);
	sb_row_text(&row, "cache", s->cold ? "cold" : "warm");
	sb_row_datum(&row, "node", Int32GetDatum(s->node));
	sb_row_text(&row, "node_type", s->node_type);
	if (OidIsValid(s->relid))
		sb_row_datum(&row, "relation", ObjectIdGetDatum(s->relid));
	else
		sb_row_null(&row, "relation");
	if (s->alias)
		sb_row_text(&row, "alias", s->alias);
	else
		sb_row_null(&row, "alias");
	if (OidIsValid(s->indexid))
		sb_row_datum(&row, "idx", ObjectIdGetDatum(s->indexid));
	else
		sb_row_null(&row, "idx");
	sb_row_datum(&row, "rows", Int64GetDatum(s->rows));
	sb_row_datum(&row, "loops", Int64GetDatum(s->loops));
	sb_row_datum(&row, "blocks_read", Int64GetDatum(s->blocks_read));
	sb_row_datum(&row, "blocks_hit", Int64GetDatum(s->blocks_hit));
	sb_row_datum(&row, "bytes_read", Int64GetDatum((int64) bytes));
	sb_row_float(&row, "read_wait_s", s->read_wait_s, 6);
	sb_row_float(&row, "read_mb_s", mb_s, 1);
	sb_row_float(&row, "node_s", s->node_s, 6);
	sb_row_float(&row, "read_wait_pct", wait_pct, 1);
	sb_row_float(&row, "in_flight", s->in_flight, 1);
	sb_row_float(&row, "cached_pct", s->cached_pct, 1);
	sb_row_text(&row, "reference", ref_name);
	sb_row_float(&row, "reference_mb_s", ref_mb_s, 1);
	sb_row_float(&row, "reference_pct", 100 * mb_s / ref_mb_s, 1);

	if (s->blocks_read == 0)
	{
		sb_row_null(&row, "verdict");
		sb_row_text(&row, "note", s->cold && s->blocks_hit > 0 ?
					"no block was read from outside shared_buffers: planning (an index probed for an estimate) or another node read its blocks first" :
					"no block was read from outside shared_buffers");
	}
	else
	{
		sb_judge_scan_node(s->cold, wait_pct, mb_s, device_max(refs),
						   refs->random_at_depth, one_at_a_time, s->cached_pct,
						   s->read_wait_s > 0 ? s->blocks_read / s->read_wait_s : NAN,
						   s->limit_rate, &v);
		sb_row_verdict(&row, "verdict", &v);
		if (isnan(ref_mb_s))
			sb_row_text(&row, "note",
						"no rate of this storage is recorded for its access path: page_costs_check (on a table of 10 MB or more) or efficiency_check measures it");
		else if (isnan(mb_s))
			sb_row_text(&row, "note",
						"its reads were not waited for: they were done ahead of the node (read-ahead, asynchronous reads)");
		else
			sb_row_null(&row, "note");
	}
	tuplestore_puttuple(rsinfo->setResult, sb_row_tuple(&row));
}

Datum
workload_scans(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SbArgs		args;
	char	   *query;
	char	   *cache;
	bool		cold;
	bool		warm;
	SbScanReferences refs;
	List	   *nodes;
	ListCell   *lc;

	sb_args_refuse_nulls(fcinfo);
	sb_args_init(&args, fcinfo);
	query = sb_arg_cstring(&args, "query", "");
	cache = sb_arg_cstring(&args, "cache", "both");
	cold = strcmp(cache, "cold") == 0 || strcmp(cache, "both") == 0;
	warm = strcmp(cache, "warm") == 0 || strcmp(cache, "both") == 0;
	if (!cold && !warm)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid cache mode: \"%s\"", sb_arg_for_message(cache)),
				 errhint("Valid cache modes are \"cold\", \"warm\" and \"both\" (cold, then warm).")));
	sb_planscan_check(query);
	sb_init_srf(fcinfo);

	sb_planscan_references(get_func_namespace(fcinfo->flinfo->fn_oid), &refs);
	nodes = sb_planscan_run(query, cold, warm);
	foreach(lc, nodes)
		put_row(rsinfo, (SbScanNode *) lfirst(lc), &refs);
	return (Datum) 0;
}
