/*-------------------------------------------------------------------------
 *
 * scan.h
 *	  Executor passes over a relation, whole or by stretch, planned once and
 *	  run many times, with the settings every measured scan runs under
 *	  (scan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SCAN_H
#define SCANBENCH_SCAN_H

#include "cache.h"
#include "clock.h"
#include "procstat.h"
#include "relfiles.h"

/*
 * The executor's own count of a scan's reads, as EXPLAIN (ANALYZE, IO)
 * shows it: the seq scans' read streams, the leader's and its workers'
 * together.  Counted from 19 on, when asked for (sb_scan_counting_io);
 * otherwise ok is false and the counts zero.
 */
typedef struct SbScanIO
{
	bool		ok;
	uint64		buffers;		/* buffers the streams returned */
	uint64		distance_sum;	/* look-ahead distance at each of them */
	int			distance_max;	/* the longest look-ahead seen */
	uint64		waits;			/* times the scan waited for a read */
	uint64		ios;			/* reads issued */
	uint64		io_blocks;		/* blocks those reads brought in */
} SbScanIO;

/* One executor run of "SELECT <query> FROM <relation>". */
typedef struct SbScanResult
{
	uint64		rows;			/* tuples returned by the scan nodes */
	int			workers_planned;
	int			workers_launched;
	int64		shared_hit;
	int64		shared_read;
	double		io_read_s;		/* read wait, from track_io_timing */
	double		cached_pct_before;	/* in either cache */
	double		os_cached_pct_before;
	double		buffers_cached_pct_before;
	SbTiming	timing;			/* this backend, from getrusage */
	SbProcDelta procs;			/* every process's share, from /proc */
	SbScanIO	io;				/* the executor's count of the reads */
} SbScanResult;

/*
 * A statement planned once and run many times, each run limited to the
 * blocks the relation had at the start of the call, or to one stretch.
 */
typedef struct SbScanPlan SbScanPlan;

extern void sb_scan(SbTarget *target, const char *query, int workers,
					SbCacheMode cache, SbScanResult *result);
extern void sb_scan_where(SbTarget *target, const char *query,
						  const char *where, int workers, SbCacheMode cache,
						  SbScanResult *result);
extern void sb_scan_counting_io(SbTarget *target, const char *query,
								int workers, SbCacheMode cache,
								SbScanResult *result);
extern bool sb_scan_sets(const char *name);

extern int	sb_scan_settings_begin(int workers);
extern void sb_scan_settings_end(int nestlevel);
extern SbScanPlan *sb_scan_plan(SbTarget *target, SbLeaf *leaf,
								const char *query, const char *where,
								int workers);
extern void sb_scan_prepared(SbScanPlan *plan, SbCacheMode cache,
							 SbScanResult *result);
extern void sb_scan_run(SbScanPlan *plan, SbSegment *stretch,
						SbScanResult *result);

#endif							/* SCANBENCH_SCAN_H */
