/*-------------------------------------------------------------------------
 *
 * planscan.h
 *	  One query given by the caller, run with EXPLAIN ANALYZE cold and
 *	  warm in a read-only subtransaction rolled back, its scan nodes'
 *	  reads, and each node judged against its access path (planscan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_PLANSCAN_H
#define SCANBENCH_PLANSCAN_H

#include "nodes/pg_list.h"

#include "verdict.h"

/* The rates of workload_references(), MB/s; NaN where none is recorded. */
typedef struct SbScanReferences
{
	double		sequential;
	double		random;
	double		random_at_depth;
	double		page_cache;
} SbScanReferences;

/* One scan node of one run: its own figures, its children's taken out. */
typedef struct SbScanNode
{
	bool		cold;
	int			node;			/* its place in the plan, 1 the top */
	const char *node_type;		/* Seq Scan, Index Scan, ... */
	Oid			relid;
	const char *alias;
	Oid			indexid;		/* InvalidOid: none, or several */
	int64		rows;			/* over all its loops */
	int64		loops;
	int64		blocks_read;
	int64		blocks_hit;
	double		read_wait_s;
	double		node_s;			/* over all its loops */
	double		in_flight;		/* NaN where the server does not say */
	double		cached_pct;		/* cold: of its relation (and index)
								 * resident after the eviction; else NaN */
	double		limit_rate;		/* 8 kB reads a second the server's read
								 * throttle allows its relation; HUGE_VAL */
} SbScanNode;

/* A scan node's reads against the reference of its access path. */
typedef struct SbScanJudged
{
	const char *reference;		/* sequential, random or random_at_depth */
	double		reference_mb_s; /* NaN where none is recorded */
	double		read_mb_s;		/* NaN: none read, or no wait timed */
	double		read_wait_pct;	/* of the node's time; NaN where none */
	SbVerdict	verdict;		/* no mark where no block was read */
} SbScanJudged;

extern void sb_planscan_check(const char *query);
extern void sb_planscan_references(Oid schema, SbScanReferences *refs);
extern List *sb_planscan_run(const char *query, bool cold, bool warm);
extern void sb_planscan_judge(const SbScanNode *s,
							  const SbScanReferences *refs, SbScanJudged *j);

#endif							/* SCANBENCH_PLANSCAN_H */
