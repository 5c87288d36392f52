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

/* An OID column: NULL where the node has none. */
static void
row_oid(SbRow *row, const char *name, Oid oid)
{
	if (OidIsValid(oid))
		sb_row_datum(row, name, ObjectIdGetDatum(oid));
	else
		sb_row_null(row, name);
}

static void
put_row(ReturnSetInfo *rsinfo, const SbScanNode *s, const SbScanReferences *refs)
{
	SbRow		row;
	SbScanJudged j;

	sb_planscan_judge(s, refs, &j);

	sb_row_init(&row, rsinfo->setDesc, NULL, 0);
	sb_row_text(&row, "cache", s->cold ? "cold" : "warm");
	sb_row_datum(&row, "node", Int32GetDatum(s->node));
	sb_row_text(&row, "node_type", s->node_type);
	row_oid(&row, "relation", s->relid);
	sb_row_text(&row, "alias", s->alias);
	row_oid(&row, "idx", s->indexid);
	sb_row_datum(&row, "rows", Int64GetDatum(s->rows));
	sb_row_datum(&row, "loops", Int64GetDatum(s->loops));
	sb_row_datum(&row, "blocks_read", Int64GetDatum(s->blocks_read));
	sb_row_datum(&row, "blocks_hit", Int64GetDatum(s->blocks_hit));
	sb_row_datum(&row, "bytes_read", Int64GetDatum(s->blocks_read * BLCKSZ));
	sb_row_float(&row, "read_wait_s", s->read_wait_s, 6);
	sb_row_float(&row, "read_mb_s", j.read_mb_s, 1);
	sb_row_float(&row, "node_s", s->node_s, 6);
	sb_row_float(&row, "read_wait_pct", j.read_wait_pct, 1);
	sb_row_float(&row, "in_flight", s->in_flight, 1);
	sb_row_float(&row, "cached_pct", s->cached_pct, 1);
	sb_row_text(&row, "reference", j.reference);
	sb_row_float(&row, "reference_mb_s", j.reference_mb_s, 1);
	sb_row_float(&row, "reference_pct", 100 * j.read_mb_s / j.reference_mb_s, 1);

	if (s->blocks_read == 0)
	{
		sb_row_null(&row, "verdict");
		sb_row_text(&row, "note", s->cold && s->blocks_hit > 0 ?
					"no block was read from outside shared_buffers: planning (an index probed for an estimate) or another node read its blocks first" :
					"no block was read from outside shared_buffers");
	}
	else
	{
		sb_row_verdict(&row, "verdict", &j.verdict);
		if (isnan(j.reference_mb_s))
			sb_row_text(&row, "note",
						"no rate of this storage is recorded for its access path: page_costs_check (on a table of 10 MB or more) or efficiency_check measures it");
		else if (isnan(j.read_mb_s))
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
