/*-------------------------------------------------------------------------
 *
 * citus_shards.h
 *	  scan_efficiency_shards()' measurement of a Citus table: the
 *	  figures of each placement and of each node (citus_shards.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CITUS_SHARDS_H
#define SCANBENCH_CITUS_SHARDS_H

#include "datatype/timestamp.h"
#include "nodes/pg_list.h"

#include "cache.h"
#include "verdict.h"

/* One row: a placement (level "shard") or a node's placements together. */
typedef struct SbShardFigures
{
	const char *level;			/* "shard" or "node" */
	const char *node;			/* host:port */
	int64		shardid;		/* a placement's */
	const char *shard;			/* NULL: a node's row */
	int64		bytes;
	int64		rows;
	double		read_mb_s;		/* medians over the pairs */
	double		scan_mb_s;
	double		scan_pct;
	double		scan_pct_lo;
	double		scan_pct_hi;
	double		read_s;
	double		scan_s;
	double		read_cached;	/* the highest over the pairs */
	double		scan_cached;
	int			pairs;
	bool		judged;			/* false: no verdict */
	SbVerdict	verdict;
	const char *slowest;		/* a node's slowest placement */
	TimestampTz at;
} SbShardFigures;

extern List *sb_citus_shards(Oid relid, SbCacheMode cache, int block_size,
							 int runs, Oid schema);

#endif							/* SCANBENCH_CITUS_SHARDS_H */
