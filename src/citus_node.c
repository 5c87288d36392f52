/*-------------------------------------------------------------------------
 *
 * citus_node.c
 *	  scan_efficiency_node(): the step a node runs on its own placements
 *	  when the coordinator asks (internal; see citus.c).
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
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "citus.h"

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
 */
Datum
scan_efficiency_node(PG_FUNCTION_ARGS)
{
	char	   *step = text_to_cstring(PG_GETARG_TEXT_PP(0));
	SbCacheMode cache = sb_parse_cache(PG_GETARG_TEXT_PP(1), false);
	int32		block_size = PG_GETARG_INT32(2);
	ArrayType  *ids_arr = PG_GETARG_ARRAYTYPE_P(3);
	ArrayType  *names_arr = PG_GETARG_ARRAYTYPE_P(4);
	Datum	   *ids,
			   *names;
	bool	   *id_nulls,
			   *name_nulls;
	int			nids,
				nnames;
	SbTarget  **targets;
	SbReadResult *reads;
	SbScanResult *scans;
	SbResidency *res;
	SbClock		clock;
	SbTiming	node_t;
	StringInfoData out;
	bool		is_read = strcmp(step, "read") == 0;
	bool		is_scan = strcmp(step, "scan") == 0;
	int			i;

	if (!is_read && !is_scan && strcmp(step, "prepare") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid step \"%s\"", step),
				 errhint("Valid steps are \"read\", \"scan\" and \"prepare\".")));
	sb_check_block_size(block_size);
	deconstruct_array(ids_arr, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &ids, &id_nulls, &nids);
	deconstruct_array(names_arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &names, &name_nulls, &nnames);
	if (nids != nnames)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shardids and shards must have the same length")));
	for (i = 0; i < nids; i++)
		if (id_nulls[i] || name_nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("shardids and shards must not contain NULL")));

	targets = palloc0(sizeof(SbTarget *) * Max(nids, 1));
	reads = palloc0(sizeof(SbReadResult) * Max(nids, 1));
	scans = palloc0(sizeof(SbScanResult) * Max(nids, 1));
	res = palloc0(sizeof(SbResidency) * Max(nids, 1));
	for (i = 0; i < nids; i++)
	{
		char	   *name = TextDatumGetCString(names[i]);
		Oid			shard_relid = DatumGetObjectId(DirectFunctionCall1(regclassin,
																	   CStringGetDatum(name)));

		targets[i] = sb_target_open(shard_relid, SB_TARGET_SCAN);
	}

	/* The caches first, for all; then the timed passes. */
	for (i = 0; i < nids; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (cache == SB_CACHE_COLD)
		{
			if (!is_read)
				sb_evict_buffers(targets[i]);
			sb_evict_page_cache(targets[i]);
		}
		else if (cache == SB_CACHE_WARM && is_read)
			sb_raw_read(targets[i], block_size, SB_CACHE_ASIS, &reads[i], NULL);
		else if (cache == SB_CACHE_WARM && is_scan)
			sb_scan(targets[i], "count(1)", 0, SB_CACHE_ASIS, &scans[i]);
	}

	sb_clock_start(&clock);
	for (i = 0; i < nids; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (is_read)
			sb_raw_read(targets[i], block_size, SB_CACHE_ASIS, &reads[i], NULL);
		else if (is_scan)
			sb_scan(targets[i], "count(1)", 0, SB_CACHE_ASIS, &scans[i]);
		else
			sb_residency(targets[i], &res[i]);
	}
	sb_clock_stop(&clock, &node_t);

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (i = 0; i < nids; i++)
	{
		appendStringInfo(&out, "%s{\"shardid\": " INT64_FORMAT ", \"bytes\": " UINT64_FORMAT,
						 i ? ", " : "", DatumGetInt64(ids[i]), targets[i]->bytes);
		if (is_read)
		{
			json_float(&out, "seconds", reads[i].timing.seconds);
			json_float(&out, "cached_pct", reads[i].cached_pct_before);
		}
		else if (is_scan)
		{
			appendStringInfo(&out, ", \"rows\": " UINT64_FORMAT, scans[i].rows);
			json_float(&out, "seconds", scans[i].timing.seconds);
			json_float(&out, "cached_pct", scans[i].cached_pct_before);
		}
		else
			json_float(&out, "cached_pct", sb_pct(res[i].any_blocks, res[i].blocks));
		json_float(&out, "node_s", is_read || is_scan ? node_t.seconds : NAN);
		appendStringInfoChar(&out, '}');
		sb_target_close(targets[i]);
	}
	appendStringInfoChar(&out, ']');

	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(out.data)));
}
