/*-------------------------------------------------------------------------
 *
 * citus.h
 *	  A Citus table's placements and nodes as the coordinator sees them,
 *	  and the steps it has every node run on its own placements (citus.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CITUS_H
#define SCANBENCH_CITUS_H

#include "utils/palloc.h"

#include "cache.h"
#include "verdict.h"

/* Pairs a cluster figure takes at most when it samples to a target. */
#define SB_CITUS_MAX_PAIRS	100

/* Above this share resident before a cold pass, the figure is RAM's. */
#define SB_CACHED_LIMIT_PCT 5.0

/* As on one server: a 95 % interval, judged against +-5 % by default. */
#define SB_CITUS_CONFIDENCE	0.95
#define SB_CITUS_TARGET		5.0

/* One shard placement, and what was measured of it, pair by pair. */
typedef struct SbPlacement
{
	int64		shardid;
	char	   *shard;			/* qualified name of the placement's table */
	int32		groupid;
	int32		nodeid;
	char	   *node;			/* host:port */
	int64		bytes;
	int64		rows;
	double	   *read_s;			/* per pair */
	double	   *scan_s;
	double		read_cached;	/* the highest over pairs */
	double		scan_cached;
	char	   *snapshot;		/* its caches before (restore => true) */
} SbPlacement;

/* A node holding placements, with its per-pair times. */
typedef struct SbNode
{
	int32		nodeid;
	char	   *node;
	double	   *read_s;			/* per pair: its placements' seconds, summed */
	double	   *scan_s;
} SbNode;

typedef struct SbCitusTable
{
	Oid			relid;
	char	   *relname;
	char		kind;			/* SB_CITUS_* */
	int			nshards;
	int			nplacements;
	SbPlacement *placements;
	int			nnodes;
	SbNode	   *nodes;
	char	   *schema;			/* where scanbench lives (quoted) */
	Oid			schema_oid;
} SbCitusTable;

#define SB_CITUS_DISTRIBUTED	'd'
#define SB_CITUS_REFERENCE		'r'
#define SB_CITUS_LOCAL			'l'

/* What one node answered for one placement in one step. */
typedef struct SbStepRow
{
	int32		nodeid;
	int64		shardid;
	int64		bytes;
	int64		rows;
	double		seconds;
	double		cached_pct;
	double		node_s;
	char	   *snapshot;		/* 'snapshot': the caches, as bytea's text */
	double		cached_pct_end; /* 'restore': after it */
	double		restored_pct;
} SbStepRow;

/* What a 'restore' step put back, over the placements. */
typedef struct SbCitusRestore
{
	double		cached_pct_start;
	double		cached_pct_end;
	double		restored_pct;
	double		seconds;
} SbCitusRestore;

extern bool sb_citus_table(Oid relid);
extern void sb_citus_refuse(Oid relid, const char *function);
extern bool sb_citus_table_kind(Oid relid, char *kind);
extern SbCitusTable *sb_citus_table_open(Oid relid, char kind, Oid schema,
										 MemoryContext outer);
extern void sb_citus_alloc_pairs(SbCitusTable *ct, int maxpairs,
								 MemoryContext outer);
extern SbStepRow *sb_citus_run_step(SbCitusTable *ct, const char *step,
									SbCacheMode cache, int block_size);
extern bool sb_citus_can_restore(SbCitusTable *ct);
extern double sb_citus_snapshot(SbCitusTable *ct);
extern void sb_citus_restore(SbCitusTable *ct, SbCitusRestore *result);
extern double sb_citus_step_cached_pct(SbCitusTable *ct, SbStepRow *rows);
extern double sb_citus_step_wall_s(SbCitusTable *ct, SbStepRow *rows);
extern void sb_citus_store_step(SbCitusTable *ct, SbStepRow *rows,
								bool is_read, int pair);
extern double sb_citus_ratio_figures(const double *ratio, int n, double *lo,
									 double *hi, double *p10, double *p90);
extern bool sb_citus_verdict(SbCacheMode cache, double cached_pct,
							 double median, double lo, double hi, int pairs,
							 double target_pct, const char *what,
							 SbVerdict *v);

#endif							/* SCANBENCH_CITUS_H */
