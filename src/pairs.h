/*-------------------------------------------------------------------------
 *
 * pairs.h
 *	  One pair of timed passes over the same blocks, two sides measured
 *	  back to back after the same cache preparation, the order alternating
 *	  from pair to pair; and the trace of a call's pairs (pairs.c).
 *	  scan_efficiency's pairs (a raw read against the scan) and
 *	  scan_advice's (the scan under the current settings against the scan
 *	  under the proposed one) are both taken here.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_PAIRS_H
#define SCANBENCH_PAIRS_H

#include "portability/instr_time.h"
#include "utils/palloc.h"

#include "cache.h"
#include "relfiles.h"
#include "scan.h"
#include "seqread.h"

/* What a side times. */
typedef enum SbSideKind
{
	SB_SIDE_READ,				/* a raw read of the files, block_size at a
								 * time */
	SB_SIDE_SCAN				/* the executor's scan of the same blocks */
} SbSideKind;

/*
 * One side of a pair.  A scan side with a plan runs that plan; without
 * one, over the whole relation only, it is planned and run for each pass
 * as scan_rate() plans and runs its scan (sb_scan), with its parallel
 * workers, under its setting (guc = guc_value at a GUC nest level of its
 * own, set before planning, undone after the pass and by abort).
 */
typedef struct SbSide
{
	SbSideKind	kind;
	const char *label;			/* what it is, for the trace */
	SbScanPlan *plan;			/* or NULL: planned per pass (whole only) */
	int			workers;		/* parallel workers asked for, if planned */
	const char *guc;			/* a setting for its scan, or NULL */
	const char *guc_value;
} SbSide;

/* A side's pass, as measured. */
typedef struct SbSideResult
{
	double		seconds;
	double		mb_s;
	double		cached_pct;		/* of its blocks in either cache just before */
	double		buffers_pct;	/* of them in shared buffers; NaN: a raw read */
	int			workers;		/* parallel workers launched; -1 a raw read */
	SbReadResult read;			/* a raw read's */
	SbScanResult scan;			/* a scan's */
	SbTiming	timing;			/* the one of the two that ran */
} SbSideResult;

/* The requests raw reads sent, where the group counts them (cgroup.c). */
typedef struct SbReadCount
{
	const char *device;			/* NULL: not counted */
	int64		ios;
	int64		bytes;
	double		seconds;		/* the time of the reads counted */
} SbReadCount;

/* What a call's pairs share. */
typedef struct SbPairs
{
	SbTarget   *target;
	SbCacheMode cache;			/* cold, warm or asis, for every side */
	int			block_size;		/* of raw reads */
	char	   *buf;			/* block_size, aligned, for raw reads */
	SbScrub    *scrub;			/* where no cache-line flush is known: made
								 * at the first warm stretch */
	MemoryContext cxt;			/* the call's, for the scrub */
	const char *query;			/* select list of sides planned per pass */
	SbSide		side[2];		/* a, b */
	instr_time	start;			/* when the call began */
	double		deadline_s;		/* a pair not finished by then is dropped;
								 * 0: none */
	SbReadCount count;
} SbPairs;

/* Where a pair measures: one stretch of one leaf, or (leaf NULL) all. */
typedef struct SbSpot
{
	SbLeaf	   *leaf;
	SbSegment	seg;
} SbSpot;

/* A recorded pair, as scan_pairs() shows it. */
#define SB_TRACE_EXTRAS		6
typedef struct SbPairTrace
{
	const char *label[2];
	int			pair;			/* from 1, within its comparison */
	bool		a_first;
	Oid			leaf;
	int64		first_block;
	int64		blocks;
	double		seconds[2];
	double		mb_s[2];
	double		cached_pct[2];
	double		buffers_pct[2];
	int			workers[2];		/* -1: a raw read */
	int64		faults[2];		/* page faults in the timed passes */
	double		at_s;			/* since the call began */
	double		pair_s;			/* the two sides, preparation included */
	int			nextra;
	const char *extra[SB_TRACE_EXTRAS];
} SbPairTrace;

/* The pair, as measured: rates b over a, and its place in the trace. */
typedef struct SbPairResult
{
	bool		a_first;
	SbSideResult side[2];
	double		ratio;			/* b's rate over a's */
	SbPairTrace *trace;			/* NULL when the trace is full */
} SbPairResult;

extern void sb_pairs_init(SbPairs *p, SbTarget *target, SbCacheMode cache,
						  int block_size, instr_time start, double map_s);
extern bool sb_pair_run(SbPairs *p, int index, SbSpot *spot,
						SbPairResult *out);
extern void sb_pairs_end(SbPairs *p);
extern void sb_pairs_flush_stretch(SbPairs *p, SbSpot *spot);
extern void sb_pair_note(SbPairTrace *t, const char *extra);
extern double sb_pairs_elapsed_s(SbPairs *p);
extern void sb_count_reads_begin(SbReadCount *c, int64 *ios, int64 *bytes);
extern void sb_count_reads_end(SbReadCount *c, int64 ios0, int64 bytes0,
							   double seconds);

extern void sb_trace_begin(const char *function, Oid relid);
extern const char *sb_trace_function(Oid *relid);
extern int	sb_trace_count(void);
extern SbPairTrace *sb_trace_get(int i);

#endif							/* SCANBENCH_PAIRS_H */
