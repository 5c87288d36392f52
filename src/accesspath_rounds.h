/*-------------------------------------------------------------------------
 *
 * accesspath_rounds.h
 *	  A planned access path run cold and warm, and its cold rounds against
 *	  random reads at its depth (accesspath_rounds.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_ACCESSPATH_ROUNDS_H
#define SCANBENCH_ACCESSPATH_ROUNDS_H

#include "datatype/timestamp.h"

#include "accesspath.h"
#include "randio.h"
#include "relfiles.h"
#include "verdict.h"

/*
 * One row of access_paths: a path, cold or warm, as measured.  A row the
 * time ran out in (stopped) has no figures but its verdict; a NaN is a
 * figure not measured.
 */
typedef struct SbPathFigures
{
	SbPath		path;
	bool		cold;
	int			depth;			/* the reads the path keeps in flight */
	bool		stopped;
	int			rounds;
	SbPathRun	run;			/* the runs added up, nruns of them */
	int			nruns;
	double		cached_pct_before;
	double		random_pages_s;	/* the random reads at its depth */
	double		path_pct;
	double		pct_lo;
	double		pct_hi;
	SbVerdict	verdict;
} SbPathFigures;

extern bool sb_path_cold(SbPathPlan *p, SbTarget *heap, SbTarget *index,
						 TimestampTz stop_at, SbPathRun *r, double *cached_pct);
extern bool sb_path_warm(SbPathPlan *p, TimestampTz stop_at, SbPathRun *r);
extern void sb_path_evict(SbTarget *heap, SbTarget *index);
extern double sb_path_cached_pct(SbTarget *heap, SbTarget *index);
extern SbRandomFile *sb_path_open_random(SbTarget *heap);
extern void sb_path_close_random(SbTarget *heap, SbRandomFile *files);
extern void sb_path_drain(SbTarget *heap, SbRandomFile *files, uint64 reads,
						  int depth);
extern void sb_path_rounds(SbPathPlan *p, SbTarget *heap, SbTarget *index,
						   TimestampTz stop_at, int runs_after,
						   SbPathRounds *out);
extern int	sb_path_measure(Oid relid, Oid indexid, double selectivity,
							double max_seconds, const bool *want,
							SbPathFigures *out);

#endif							/* SCANBENCH_ACCESSPATH_ROUNDS_H */
