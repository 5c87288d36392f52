/*-------------------------------------------------------------------------
 *
 * sampler.h
 *	  The samples scan_efficiency() judges, and how they are taken
 *	  (sampler.c): the caller fills in the arguments, sb_sample() sets up
 *	  and tears down what taking them needs (buffers, the CPU-cache scrub,
 *	  the scan settings, a memory context per pair) and leaves the figures.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SAMPLER_H
#define SCANBENCH_SAMPLER_H

#include "portability/instr_time.h"
#include "utils/palloc.h"

#include "argcheck.h"
#include "cgroup.h"
#include "pairs.h"
#include "relfiles.h"
#include "scan.h"
#include "stats.h"
#include "verdict.h"

/*
 * Stretch size: 8 MB (1024 blocks of 8 kB).
 *
 * - Large enough that what a pass costs besides reading, ExecutorStart and
 *   ExecutorEnd (tens of microseconds), opening the file, the kernel's
 *   read-ahead ramp (it reaches its full window within the first few
 *   hundred kB), is about 1 % of a warm 8 MB scan (about 3 ms at 2.5 GB/s)
 *   and far less of a cold one: a stretch costs the same per byte as the
 *   whole relation (bench/stretch.sh measures it).
 * - Small enough that a 1 GB table gives 128 pairs, enough for a 95 %
 *   interval of +-5 % when pair ratios spread by +-20 %, and that one pair
 *   takes tens of milliseconds, so the budget is kept to within one pair.
 * - A power of two that divides a 1 GB segment, so that a stretch never
 *   spans two files (and stretches are cut at segment ends anyway).
 */
#ifndef SB_STRETCH_BYTES		/* make COPT=-DSB_STRETCH_BYTES=... to try others */
#define SB_STRETCH_BYTES	(8 * 1024 * 1024)
#endif
#define SB_STRETCH_BLOCKS	Max(SB_STRETCH_BYTES / BLCKSZ, 1)

/*
 * O_DIRECT reads of 1 MB, one at a time: what fio --direct=1 --bs=1M
 * measures.  The kernel splits each into requests the device serves in
 * parallel, while buffered 8 kB reads rely on read-ahead of 128 kB to a
 * few hundred kB in flight, so on real storage the direct read is the
 * faster of the two.  Buffered "cold" reads that beat it came from a cache
 * below this system.
 */
#define SB_DIRECT_BLOCK		(1024 * 1024)

/*
 * The device's own rate: O_DIRECT reads of 1 MB, SB_DEVICE_DEPTH of them in
 * flight, as fio --direct=1 --bs=1M --iodepth=32 reads a device.  A
 * stretch shorter than SB_DEVICE_DEPTH MB is read with a read in flight
 * for each of its MB (8 for an 8 MB stretch): what the stretch allows, and
 * said in device_depth.  On storage with a latency per request, a reader
 * keeping k requests of s bytes in flight gets at most k * s / latency, so
 * one read at a time (the dd-like read, read_mb_s) can be a fraction of
 * what the device delivers to a reader that keeps it busy (PostgreSQL
 * 18's read streams do).
 */
#define SB_DEVICE_DEPTH		32
#define SB_DEVICE_BLOCK		SB_DIRECT_BLOCK

/*
 * A stretch at least this many read-ahead windows long.  The kernel's
 * window starts at a few times the first read and doubles with each
 * sequential hit up to read_ahead_kb: with the 128 kB default it is full
 * after a few hundred kB, but a device set to 8 MB (some virtual disks
 * are) ramps up over an 8 MB stretch, whose raw read then ran 2.6 times
 * slower per byte than a whole-file read and made the default method
 * disagree with whole passes.  Sixteen windows keep the ramp, about two
 * windows read at a fraction of the rate, a few per cent of a stretch.
 */
#define SB_RAMP_WINDOWS		16

/* A pass long enough to drain a rate limiter's allowance (sampler.c). */
#define SB_SUSTAIN_S		1.0
#define SB_SUSTAIN_PERIODS	10

/*
 * Mapping shared_buffers into the backend before the pairs (cache.c) takes
 * at most this share of max_seconds, and this long.
 */
#define SB_MAP_SHARE		0.05
#define SB_MAP_MAX_S		2.0

/* The interval may stop the call only once it rests on this many pairs. */
#define SB_MIN_PAIRS		10

#define SB_CONFIDENCE		SB_VERDICT_CONFIDENCE

/* A lock wait at least this long is said in a NOTICE, seconds. */
#define SB_LOCK_WAIT_NOTICE_S	1.0
#define SB_WHOLE_PROBES		8		/* stretches probed by method 'whole' */
#define SB_BUDGET_LOOKBACK	8		/* pairs whose duration predicts the next */

/*
 * The CPU ceiling (a warm scan of the pair's stretch, untimed then timed)
 * costs two passes a pair, as much as the pair's own timed ones: measured
 * on every pair, a busy machine's budget went mostly to it, and the
 * interval of scan_pct, which only the pairs' own passes narrow, missed
 * its target (bench/nightly.sh: 300 pairs in 60 s, 20 s of them timed).
 * The ceiling's median decides only whether the scans were CPU-bound,
 * which a third of the pairs tells as well: the first SB_CEILING_ALL pairs
 * measure it, then one in SB_CEILING_EVERY, each at its own pair's moment.
 */
#define SB_CEILING_ALL		20
#define SB_CEILING_EVERY	3

typedef struct SbStretchRef
{
	int			leaf;
	BlockNumber first;
	BlockNumber nblocks;
} SbStretchRef;

typedef struct SbEfficiency
{
	/* arguments */
	SbTarget   *target;
	SbCacheMode cache;
	int			block_size;
	int			runs;
	double		sample;
	double		max_seconds;
	double		target_pct;
	SbMethod	method;

	/* call state: the sampler's own (start is set by the caller) */
	instr_time	start;
	MemoryContext passcxt;		/* reset after every pair or run */
	SbPairs		pairs;			/* a raw read (a) against the scan (b) */
	char	   *dbuf;			/* SB_DIRECT_BLOCK, for O_DIRECT reads */
	bool		direct_ok;		/* the filesystem takes O_DIRECT */
	SbScanPlan *whole_plan;
	SbCgroupLimits limits;		/* of the server, for the relation's device */
	BlockNumber stretch_blocks; /* SB_STRETCH_BLOCKS, or longer under limits */

	/* one value per pair (or run) */
	SbSamples	ratio;			/* 100 * scan rate / read rate */
	SbSamples	ratio_sorted;
	SbSamples	read_mb_s;
	SbSamples	scan_mb_s;
	SbSamples	direct_mb_s;	/* O_DIRECT rate of the same blocks */
	SbSamples	device_mb_s;	/* O_DIRECT at depth, the same blocks */
	SbSamples	device_pct;		/* 100 * scan rate / device rate */
	SbSamples	host_ratio;		/* buffered read rate / the faster O_DIRECT
								 * one, at depth 1 or at device_depth */
	SbSamples	ceiling_mb_s;	/* warm scan rate of the same blocks */
	SbSamples	ceiling_ratio;	/* scan rate / warm scan rate */
	SbSamples	pair_s;			/* wall time of each pair */
	SbSamples	run_read_s;		/* 'whole': seconds of each side per run */
	SbSamples	run_scan_s;
	double		read_s;
	double		scan_s;
	double		timed_s;		/* the timed passes, wall clock */
	double		cpu_wait_s;		/* of that, waiting for a CPU */
	double		throttled_s;	/* the group held back by its quota */
	bool		throttled_known;
	double		cpu_busy_s;		/* this backend's CPU in the timed passes */
	double		scan_timed_s;	/* the timed scans alone, wall clock */
	double		scan_busy_s;	/* this backend's CPU in them */
	int64		scan_periods;	/* the quota's periods in them */
	int64		scan_spent_periods; /* of those, ones the quota ran out in */
	int			device_depth;	/* reads in flight of a full stretch's device
								 * read (0: none measured) */
	int64		read_ios;		/* requests the raw reads sent to the device,
								 * as the group's throttle counted them */
	int64		read_io_bytes;
	double		read_io_s;		/* the time of the raw reads counted */
	double		read_cached_max;
	double		scan_cached_max;
	uint64		rows;
	uint64		blocks_covered;	/* by the first round */
	uint64		pair_rows;		/* rows of the last pair's scan */
} SbEfficiency;

extern void sb_sample(SbEfficiency *e);
extern void sb_sample_drift(SbEfficiency *e, double *first, double *second);
extern double sb_efficiency_elapsed_s(SbEfficiency *e);

#endif							/* SCANBENCH_SAMPLER_H */
