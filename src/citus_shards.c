/*-------------------------------------------------------------------------
 *
 * citus_shards.c
 *	  scan_efficiency_shards()' measurement of a Citus table: runs pairs
 *	  of a raw read and a scan on every node at once (citus.c drives
 *	  them), the order alternating from pair to pair, then the figures of
 *	  each placement and of each node's placements together, with the
 *	  node's slowest placement.
 *
 * The nodes are driven through SPI; the figures are kept in the caller's
 * memory context, which outlives it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "citus.h"
#include "citus_shards.h"
#include "stats.h"

/*
 * A row's figures from its bytes and its per-pair times, judged as a
 * Citus figure is; allocated in cxt.
 */
static SbShardFigures *
shard_figures(MemoryContext cxt, const char *level, const char *node,
			  int64 shardid, const char *shard, int64 bytes, int64 rows,
			  double *read_s, double *scan_s, int pairs, SbCacheMode cache,
			  double read_cached, double scan_cached, const char *slowest,
			  TimestampTz at)
{
	SbShardFigures *f = MemoryContextAllocZero(cxt, sizeof(SbShardFigures));
	double	   *read_mb_s = palloc(sizeof(double) * pairs);
	double	   *scan_mb_s = palloc(sizeof(double) * pairs);
	double	   *ratio = palloc(sizeof(double) * pairs);
	int			i;

	for (i = 0; i < pairs; i++)
	{
		read_mb_s[i] = sb_rate(bytes / SB_MB, read_s[i]);
		scan_mb_s[i] = sb_rate(bytes / SB_MB, scan_s[i]);
		ratio[i] = sb_rate(100.0 * scan_mb_s[i], read_mb_s[i]);
	}
	f->scan_pct = sb_citus_ratio_figures(ratio, pairs, &f->scan_pct_lo,
										 &f->scan_pct_hi, NULL, NULL);
	f->level = level;
	f->node = node;
	f->shardid = shardid;
	f->shard = shard;
	f->bytes = bytes;
	f->rows = rows;
	f->read_mb_s = sb_median(read_mb_s, pairs);
	f->scan_mb_s = sb_median(scan_mb_s, pairs);
	f->read_s = sb_median(read_s, pairs);
	f->scan_s = sb_median(scan_s, pairs);
	f->read_cached = read_cached;
	f->scan_cached = scan_cached;
	f->pairs = pairs;
	f->judged = sb_citus_verdict(cache, sb_max((double[]) {read_cached, scan_cached}, 2),
								 f->scan_pct, f->scan_pct_lo, f->scan_pct_hi,
								 pairs, 0, NULL, &f->verdict);
	f->slowest = slowest;
	f->at = at;
	return f;
}

/*
 * relid's placements and nodes measured in runs pairs: a list of
 * SbShardFigures, each node's placements followed by the node's own.
 */
List *
sb_citus_shards(Oid relid, SbCacheMode cache, int block_size, int runs,
				Oid schema)
{
	MemoryContext outer = CurrentMemoryContext;
	List	   *out = NIL;
	SbCitusTable *ct;
	TimestampTz at;
	char		kind;
	int			pair,
				n,
				i;

	SPI_connect();
	if (!sb_citus_table_kind(relid, &kind))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a Citus table", get_rel_name(relid)),
				 errhint("scan_efficiency('%s') measures a table on this server.",
						 get_rel_name(relid))));
	ct = sb_citus_table_open(relid, kind, schema, outer);
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
		SbShardFigures *f;
		MemoryContext old;

		for (i = 0; i < ct->nplacements; i++)
		{
			SbPlacement *p = &ct->placements[i];
			double	   *tmp;
			double		mb_s;

			if (p->nodeid != node->nodeid)
				continue;
			f = shard_figures(outer, "shard", p->node, p->shardid, p->shard,
							  p->bytes, p->rows, p->read_s, p->scan_s, runs,
							  cache, p->read_cached, p->scan_cached, NULL, at);
			old = MemoryContextSwitchTo(outer);
			out = lappend(out, f);
			MemoryContextSwitchTo(old);
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
		f = shard_figures(outer, "node", node->node, 0, NULL, bytes, rows,
						  node->read_s, node->scan_s, runs, cache, read_cached,
						  scan_cached, slowest, at);
		old = MemoryContextSwitchTo(outer);
		out = lappend(out, f);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	return out;
}
