/*-------------------------------------------------------------------------
 *
 * planscan.h
 *	  One query given by the caller, run with EXPLAIN ANALYZE cold and
 *	  warm in a read-only subtransaction rolled back, and its scan nodes'
 *	  reads (planscan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_PLANSCAN_H
#define SCANBENCH_PLANSCAN_H

#include "nodes/pg_list.h"

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

extern void sb_planscan_check(const char *query);
extern void sb_planscan_references(Oid schema, SbScanReferences *refs);
extern List *sb_planscan_run(const char *query, bool cold, bool warm);
extern const char *sb_planscan_reference_name(const char *node_type);
extern double sb_planscan_reference(const SbScanReferences *refs,
									const char *node_type);

#endif							/* SCANBENCH_PLANSCAN_H */
