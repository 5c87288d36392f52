/*-------------------------------------------------------------------------
 *
 * citus_cluster.c
 *	  On a coordinator: scan_efficiency() of a Citus table, the cluster's
 *	  figure, from the steps citus.c runs on every node at once.
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

#include "argcheck.h"
#include "citus.h"
#include "citus_cluster.h"
#include "clock.h"
#include "efficiency_row.h"
#include "history_record.h"
#include "request.h"
#include "settings.h"
#include "stats.h"

/* ---- scan_efficiency on a Citus table: the cluster's figure ---- */

/*
 * What differs from one server: a sample of the cluster is not taken
 * (every placement is read in every pass), nor a write; method 'pairs'
 * adds pairs of whole-cluster passes until the interval meets the target
 * or the budget would be overrun, 'whole' takes runs pairs.
 */
Datum
sb_citus_scan_efficiency(const SbEfficiencyRequest *req)
{
	Oid			relid = req->relid;
	SbCacheMode cache = req->cache;
	int32		block_size = req->block_size;
	int32		runs = req->runs;
	double		max_seconds = req->max_seconds;
	double		target_pct = req->target_pct;
	bool		adaptive = req->method == SB_METHOD_PAIRS;
	MemoryContext outer = CurrentMemoryContext;
	TupleDesc	tupdesc = req->tupdesc;
	SbCitusTable *ct;
	char		kind;
	double	   *read_mb_s,
			   *scan_mb_s,
			   *ratio,
			   *read_s,
			   *scan_s;
	double		read_cached = NAN,
				scan_cached = NAN;
	double		lo,
				hi,
				p10,
				p90,
				med;
	int64		bytes = 0,
				rows = 0;
	int			maxpairs,
				pairs = 0;
	instr_time	begin,
				now;
	SbEfficiencyRow r;
	char	   *count_sql;
	SbVerdict	verdict;
	bool		judged;
	Datum		result;
	MemoryContext old;
	SbCitusRestore restored;
	bool		restore;

	if (req->sample < 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("sample is not supported for a Citus table"),
				 errdetail("The cluster figure reads every shard placement in each pass."),
				 errhint("Leave sample at 1; max_seconds bounds the call.")));
	if (req->with_write)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("with_write is not supported for a Citus table"),
				 errdetail("The write test runs in one server's tablespace; a Citus table's data lives on its nodes."),
				 errhint("Run storage_profile() on each node for its write rate.")));
	/* Recording comes last: whether it can be done is said first. */
	if (req->record)
		sb_history_check_record(req->schema, "scan_efficiency");

	SPI_connect();
	if (!sb_citus_table_kind(relid, &kind))
		elog(ERROR, "relation %u is not a Citus table", relid);
	ct = sb_citus_table_open(relid, kind, req->schema, outer);
	if (ct->kind == SB_CITUS_REFERENCE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the cluster figure of reference table \"%s\" is not supported", ct->relname),
				 errdetail("count(1) on a reference table reads one of its %d copies, the raw read all of them.",
						   ct->nplacements),
				 errhint("scan_efficiency_shards('%s') measures each copy on its node.", ct->relname)));
	if (ct->nplacements > ct->nshards)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the cluster figure of \"%s\" is not supported: its shards have more than one placement",
						ct->relname),
				 errdetail("count(1) reads one placement of each shard, the raw read all of them."),
				 errhint("scan_efficiency_shards('%s') measures each placement on its node.", ct->relname)));

	maxpairs = adaptive ? Max(runs, SB_CITUS_MAX_PAIRS) : runs;
	sb_citus_alloc_pairs(ct, maxpairs, outer);
	read_mb_s = palloc0(sizeof(double) * maxpairs);
	scan_mb_s = palloc0(sizeof(double) * maxpairs);
	ratio = palloc0(sizeof(double) * maxpairs);
	read_s = palloc0(sizeof(double) * maxpairs);
	scan_s = palloc0(sizeof(double) * maxpairs);
	count_sql = psprintf("SELECT count(1) FROM %s",
						 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
													ct->relname));

	/* What the nodes' caches held, before anything is evicted. */
	memset(&restored, 0, sizeof(restored));
	restored.restored_pct = restored.seconds = NAN;
	restore = req->restore && sb_citus_can_restore(ct);
	if (req->restore && !restore)
		ereport(WARNING,
				(errmsg("the nodes' caches of \"%s\" will not be put back", ct->relname),
				 errdetail("This database's scan_efficiency_node predates restoring a Citus table's caches."),
				 errhint("ALTER EXTENSION scanbench UPDATE, on the coordinator, updates it on every node.")));
	if (restore)
		restored.cached_pct_start = sb_citus_snapshot(ct);
	else
		restored.cached_pct_start =
			sb_citus_step_cached_pct(ct, sb_citus_run_step(ct, "prepare", SB_CACHE_ASIS, block_size));

	INSTR_TIME_SET_CURRENT(begin);
	while (pairs < maxpairs)
	{
		int			side;
		double		spent;

		for (side = 0; side < 2; side++)
		{
			/* Alternate which side goes first, so both see the same drift. */
			bool		do_read = ((side == 0) == (pairs % 2 == 0));

			CHECK_FOR_INTERRUPTS();
			if (do_read)
			{
				SbStepRow  *r = sb_citus_run_step(ct, "read", cache, block_size);
				int			i;

				sb_citus_store_step(ct, r, true, pairs);
				bytes = 0;
				for (i = 0; i < ct->nplacements; i++)
					bytes += r[i].bytes;
				read_s[pairs] = sb_citus_step_wall_s(ct, r);
				read_cached = sb_max((double[]) {read_cached, sb_citus_step_cached_pct(ct, r)}, 2);
			}
			else
			{
				SbStepRow  *r = sb_citus_run_step(ct, "prepare", cache, block_size);
				SbClock		clock;
				SbTiming	t;
				bool		isnull;

				scan_cached = sb_max((double[]) {scan_cached, sb_citus_step_cached_pct(ct, r)}, 2);
				if (cache == SB_CACHE_WARM &&
					SPI_execute(count_sql, true, 0) != SPI_OK_SELECT)
					elog(ERROR, "count(1) on \"%s\" failed", ct->relname);
				sb_clock_start(&clock);
				if (SPI_execute(count_sql, true, 0) != SPI_OK_SELECT || SPI_processed != 1)
					elog(ERROR, "count(1) on \"%s\" failed", ct->relname);
				sb_clock_stop(&clock, &t);
				rows = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
												   SPI_tuptable->tupdesc, 1, &isnull));
				scan_s[pairs] = t.seconds;
			}
		}
		read_mb_s[pairs] = sb_rate(bytes / SB_MB, read_s[pairs]);
		scan_mb_s[pairs] = sb_rate(bytes / SB_MB, scan_s[pairs]);
		ratio[pairs] = sb_rate(100.0 * scan_mb_s[pairs], read_mb_s[pairs]);
		pairs++;

		if (pairs < runs || !adaptive)
			continue;
		/* Stop at the target, or before the next pair overruns the budget. */
		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, begin);
		spent = INSTR_TIME_GET_DOUBLE(now);
		if (spent + spent / pairs > max_seconds)
			break;
		med = sb_citus_ratio_figures(ratio, pairs, &lo, &hi, NULL, NULL);
		if (target_pct > 0 && sb_halfwidth_pct(med, lo, hi) <= target_pct)
			break;
	}
	/* Put back what the caches held, or at least say what changed. */
	if (restore)
		sb_citus_restore(ct, &restored);
	else
		restored.cached_pct_end =
			sb_citus_step_cached_pct(ct, sb_citus_run_step(ct, "prepare", SB_CACHE_ASIS, block_size));
	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, begin);

	med = sb_citus_ratio_figures(ratio, pairs, &lo, &hi, &p10, &p90);
	judged = sb_citus_verdict(cache, sb_max((double[]) {read_cached, scan_cached}, 2),
							  med, lo, hi, pairs, target_pct, ct->relname, &verdict);

	/* The row outlives SPI's memory, which SPI_finish() releases. */
	old = MemoryContextSwitchTo(outer);
	sb_efficiency_row_init(&r);
	r.relation = relid;
	r.bytes = bytes;
	r.rows = rows;
	r.cache = sb_cache_name(cache);
	r.block_size = block_size;
	r.runs = runs;
	r.read_mb_s = sb_median(read_mb_s, pairs);
	r.scan_mb_s = sb_median(scan_mb_s, pairs);
	r.scan_pct = med;
	r.read_s = sb_median(read_s, pairs);
	r.scan_s = sb_median(scan_s, pairs);
	r.read_cached_pct = read_cached;
	r.scan_cached_pct = scan_cached;
	/* a cluster has no one filesystem, device, server facts or limits */
	r.citus_nodes = ct->nnodes;
	r.citus_placements = ct->nplacements;
	r.method = "cluster";
	r.pairs = pairs;
	r.coverage_pct = 100.0;
	r.scan_pct_lo = lo;
	r.scan_pct_hi = hi;
	r.scan_pct_p10 = p10;
	r.scan_pct_p90 = p90;
	r.elapsed_s = INSTR_TIME_GET_DOUBLE(now);
	r.cached_pct_start = restored.cached_pct_start;
	r.cached_pct_end = restored.cached_pct_end;
	r.restored_pct = restored.restored_pct;
	r.restore_s = restored.seconds;
	r.verdict = judged ? &verdict : NULL;
	r.settings = sb_io_settings();
	result = sb_efficiency_row(tupdesc, &r);
	MemoryContextSwitchTo(old);
	SPI_finish();

	if (req->record)
		sb_history_record(req->schema, result, tupdesc);
	return result;
}
