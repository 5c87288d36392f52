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

#endif							/* SCANBENCH_ACCESSPATH_ROUNDS_H */
