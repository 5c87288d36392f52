/*-------------------------------------------------------------------------
 *
 * citus_node.c
 *	  One step of a Citus measurement on a node's own placements, as the
 *	  coordinator asks for it through scan_efficiency_node(), answered as
 *	  JSON, an element a placement.
 *
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
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/json.h"

#include "cache.h"
#include "citus_node.h"
#include "clock.h"
#include "relfiles.h"
#include "restore.h"
#include "scan.h"
#include "seqread.h"
#include "stats.h"

static const char *const step_names[] = {"read", "scan", "prepare", "snapshot", "restore"};

/* A step by its name, as the coordinator sends it. */
SbNodeStep
sb_citus_node_step_parse(const char *step)
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

static void
json_float(StringInfo buf, const char *key, double v)
{
	if (isnan(v))
		appendStringInfo(buf, ", \"%s\": null", key);
	else
		appendStringInfo(buf, ", \"%s\": %.9g", key, v);
}

/*
 * step on the placements (ids, their names; snaps, the snapshots a
 * restore puts back), the caches of all set first and the timed passes
 * back to back; the answer as JSON text.
 */
char *
sb_citus_node_step(SbNodeStep step, SbCacheMode cache, int block_size,
				   Datum *ids, Datum *names, Datum *snaps, int nids)
{
	SbTarget  **targets;
	SbReadResult *reads;
	SbScanResult *scans;
	SbResidency *res;
	SbCacheSnapshot *snapshots;
	SbRestoreResult *restored;
	SbClock		clock;
	SbTiming	node_t;
	StringInfoData out;
	bool		timed = step == SB_STEP_READ || step == SB_STEP_SCAN;
	int			i;

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
	return out.data;
}
