/*-------------------------------------------------------------------------
 *
 * accesspath.h
 *	  One question answered through each access path the planner has for
 *	  it: a sequential scan, an index scan, an index-only scan and a bitmap
 *	  heap scan of one index, each planned on its own and timed, cold and
 *	  warm (accesspath.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_ACCESSPATH_H
#define SCANBENCH_ACCESSPATH_H

#include "datatype/timestamp.h"
#include "nodes/plannodes.h"
#include "utils/relcache.h"

#include "randio.h"
#include "relfiles.h"

typedef enum SbPath
{
	SB_PATH_SEQ,
	SB_PATH_INDEX,
	SB_PATH_INDEX_ONLY,
	SB_PATH_BITMAP,
	SB_NPATHS
} SbPath;

/*
 * Rounds of a cold path and of random reads at its depth, alternated,
 * until the interval is this narrow; the least a judgement needs is the
 * judge's (SB_RULE_PATH_ROUNDS, judgerules.h).
 */
#define SB_PATH_MAX_ROUNDS	100
#define SB_PATH_TARGET_PCT	5.0

/* One run of one path. */
typedef struct SbPathRun
{
	int64		rows;			/* count(*)'s answer */
	int64		heap_read;		/* blocks read, -1 where not counted */
	int64		heap_hit;
	int64		index_read;
	int64		index_hit;
	int64		pages_read;		/* every relation's, from buffer usage */
	int64		pages_hit;
	double		seconds;		/* wall clock, executor start to end */
	bool		io_ok;			/* the scan counted its reads (19 on) */
	double		distance_mean;	/* its mean look-ahead, in buffers */
	int			distance_max;
} SbPathRun;

/* The cold rounds of one path against random reads at its depth. */
typedef struct SbPathRounds
{
	int			rounds;
	SbPathRun	sum;			/* the path's runs, added up */
	double		random_s;		/* the random reads' wall clock, added up */
	uint64		random_reads;
	double		pct;			/* the path's page rate, % of the reads' */
	double		pct_lo;			/* its interval (NaN: too few rounds) */
	double		pct_hi;
	double		cached_pct_before;	/* the most found after an eviction */
	bool		budget_hit;
} SbPathRounds;

typedef struct SbPathPlan SbPathPlan;

/* A step of a measurement, run until a deadline (sb_path_until). */
typedef void (*SbPathStep) (void *arg);

extern TimestampTz sb_path_deadline(double seconds);
extern double sb_path_seconds_left(TimestampTz stop_at);
extern bool sb_path_until(TimestampTz stop_at, SbPathStep step, void *arg);
extern const char *sb_path_name(SbPath path);
extern int	sb_path_settings_begin(void);
extern PlannedStmt *sb_plan_catalog_sql(const char *sql, const char *what);
extern SbTarget *sb_path_open_table(Oid relid, const char *analyzed_detail);
extern char *sb_path_bound(Relation heap, Relation index, double selectivity,
						   TimestampTz stop_at, double *reltuples);
extern SbPathPlan *sb_path_plan(Relation heap, Relation index, SbPath path,
								const char *bound);
extern SbPathPlan *sb_path_plan_rows(Relation heap, Relation index,
									 SbPath path, const char *bound);
extern double sb_path_cost(Relation heap, Relation index, SbPath path,
						   const char *bound, double random_page_cost);
extern int	sb_path_depth(SbPathPlan *p);
extern void sb_path_run(SbPathPlan *p, SbPathRun *r);
extern void sb_path_run_until(SbPathPlan *p, double limit_s, SbPathRun *r,
							  int64 *rows_at_limit);

#endif							/* SCANBENCH_ACCESSPATH_H */
