/*-------------------------------------------------------------------------
 *
 * measure.h
 *	  The pieces the SQL functions are built from: the relation's files
 *	  (relfiles.c), the clock and CPU accounting (clock.c), cache control
 *	  and residency (cache.c), raw file reads (rawread.c), executor scans
 *	  (scan.c), the mount under a file (mountinfo.c), argument checks
 *	  (args.c), result rows (rows.c) and the arithmetic of figures
 *	  (stats.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_MEASURE_H
#define SCANBENCH_MEASURE_H

#include <sys/resource.h>

#include "fmgr.h"
#include "access/htup.h"
#include "access/tupdesc.h"
#include "portability/instr_time.h"
#include "storage/block.h"
#include "utils/relcache.h"

#include "compat.h"

/* lmdd's MB: 10^6 bytes. */
#define SB_MB		1000000.0

/* Largest block_size accepted by the raw readers: 64 MB. */
#define SB_MAX_BLOCK_SIZE	(64 * 1024 * 1024)
#define SB_MAX_SECONDS		(7 * 24 * 3600.0)	/* a call's budget: a week */

/* What the caller wants of the caches before the timed pass. */
typedef enum SbCacheMode
{
	SB_CACHE_COLD,				/* evict from shared_buffers and page cache */
	SB_CACHE_WARM,				/* one untimed pass first */
	SB_CACHE_DIRECT,			/* O_DIRECT: bypass the page cache */
	SB_CACHE_ASIS				/* touch nothing */
} SbCacheMode;

/* How scan_efficiency samples the relation. */
typedef enum SbMethod
{
	SB_METHOD_PAIRS,			/* stretches, each read and scanned in a pair */
	SB_METHOD_WHOLE				/* whole-relation passes */
} SbMethod;

/* Which relations a caller accepts (relfiles.c). */
typedef enum SbTargetKind
{
	SB_TARGET_FILES,			/* anything with files: raw reads */
	SB_TARGET_SCAN				/* tables and matviews: executor scans */
} SbTargetKind;

/*
 * A stretch of one segment file to read: by default the whole file up to
 * the size the relation had at the start.  Sampled measurement reads
 * chosen block ranges instead, as more, shorter stretches.
 */
typedef struct SbSegment
{
	char	   *path;			/* relative to the data directory */
	Oid			relid;			/* of the leaf the file belongs to */
	int			segno;
	off_t		offset;			/* where in the file the stretch begins */
	BlockNumber first_block;	/* relation block at that offset */
	off_t		bytes;			/* bytes to read from there */
} SbSegment;

/* A leaf relation with storage, opened with AccessShareLock. */
typedef struct SbLeaf
{
	Relation	rel;
	SbFileId	fileid;
	bool		local;			/* temp table: local buffers */
	BlockNumber nblocks;		/* at the start of the call */
	int			nsegments;
	SbSegment  *segments;
} SbLeaf;

/* What one call measures: the named relation and its leaves. */
typedef struct SbTarget
{
	Oid			relid;
	int			nleaves;
	SbLeaf	   *leaves;
	int			nsegments;		/* over all leaves */
	SbSegment **segments;		/* all leaves' segments, in leaf order */
	BlockNumber nblocks;		/* over all leaves */
	uint64		bytes;			/* nblocks * BLCKSZ */
} SbTarget;

/* Memory to read through to empty the CPU caches (cache.c). */
typedef struct SbScrub
{
	char	   *buf;
	size_t		size;
} SbScrub;

/* Wall clock and this backend's CPU time over one interval. */
typedef struct SbClock
{
	instr_time	start;
	struct rusage ru_start;
	double		run_delay_start;	/* /proc/self/schedstat, s; NaN if none */
	double		throttled_start;	/* the cgroup's cpu.stat, s; NaN if none */
} SbClock;

typedef struct SbTiming
{
	double		seconds;
	double		user_s;
	double		sys_s;
	double		cpu_wait_s;		/* runnable but waiting for a CPU; 0 if unknown */
	double		throttled_s;	/* the cgroup held back by its CPU quota;
								 * NaN if unknown */
} SbTiming;

/* Share of a target's blocks resident in each cache. */
typedef struct SbResidency
{
	uint64		blocks;
	uint64		os_blocks;		/* all of the block in the page cache */
	uint64		shared_blocks;	/* in shared_buffers or local buffers */
	uint64		any_blocks;		/* in either */
} SbResidency;

/* One raw read of one segment file, or of all of them. */
typedef struct SbReadResult
{
	uint64		bytes;
	uint64		reads;
	double		cached_pct_before;
	SbTiming	timing;
} SbReadResult;

/*
 * CPU seconds and I/O bytes of a process, or of a group of them, at one
 * moment or grown over an interval (procstat.c).  cpu_ok and io_ok say
 * whether /proc could be read; when false the figures are unknown.
 */
typedef struct SbProcUsage
{
	bool		cpu_ok;
	double		user_s;
	double		sys_s;
	bool		io_ok;
	uint64		rchar;			/* returned by read calls, cache hits included */
	uint64		read_bytes;		/* fetched from storage */
} SbProcUsage;

/* I/O workers: at most 32 on PostgreSQL 18. */
#define SB_MAX_IO_WORKERS	64

/* Readings at the start of an interval. */
typedef struct SbProcSnap
{
	SbProcUsage self;
	SbProcUsage reaped;			/* the postmaster's reaped children */
	bool		io_ok;			/* I/O workers in use and found */
	int			nio;
	pid_t		io_pids[SB_MAX_IO_WORKERS];
	SbProcUsage io[SB_MAX_IO_WORKERS];
} SbProcSnap;

/* Growth over the interval. */
typedef struct SbProcDelta
{
	SbProcUsage self;			/* this backend */
	SbProcUsage parallel;		/* children the postmaster reaped meanwhile */
	SbProcUsage io_workers;		/* the I/O workers, summed */
	int			nio;
} SbProcDelta;

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
} SbScanResult;

/*
 * A statement planned once and run many times, each run limited to the
 * blocks the relation had at the start of the call, or to one stretch.
 */
typedef struct SbScanPlan SbScanPlan;

/* relfiles.c */
extern SbTarget *sb_target_open(Oid relid, SbTargetKind kind);
extern void sb_target_close(SbTarget *target);
extern char *sb_target_first_path(SbTarget *target);

/* clock.c */
extern void sb_clock_start(SbClock *clock);
extern void sb_clock_stop(SbClock *clock, SbTiming *timing);

/* cache.c */
extern void sb_evict_page_cache(SbTarget *target);
extern void sb_evict_buffers(SbTarget *target);
extern void sb_residency(SbTarget *target, SbResidency *res);
extern uint64 sb_segment_os_blocks(SbSegment *seg);
extern void sb_evict_stretch(SbLeaf *leaf, SbSegment *stretch);
extern void sb_stretch_residency(SbLeaf *leaf, SbSegment *stretch,
								 SbResidency *res);
extern SbScrub *sb_scrub_alloc(void);
extern void sb_scrub_cpu_caches(SbScrub *scrub);
extern void sb_flush_stretch(SbLeaf *leaf, SbSegment *stretch, SbScrub *scrub);

/* rawread.c */
extern int	sb_open_segment(SbSegment *seg, bool direct, bool refuse_ok);
extern void sb_raw_read(SbTarget *target, int block_size, SbCacheMode cache,
						SbReadResult *total, SbReadResult *per_segment);
extern bool sb_raw_read_stretch(SbSegment *stretch, char *buf, int block_size,
								bool direct, SbReadResult *result);
extern char *sb_aligned_buffer(int block_size);

/* scan.c */
extern void sb_scan(SbTarget *target, const char *query, int workers,
					SbCacheMode cache, SbScanResult *result);
extern void sb_scan_where(SbTarget *target, const char *query,
						  const char *where, int workers, SbCacheMode cache,
						  SbScanResult *result);
extern bool sb_scan_sets(const char *name);

/* procstat.c */
extern void sb_procstat_start(SbProcSnap *snap);
extern void sb_procstat_stop(SbProcSnap *snap, SbProcDelta *delta);
extern int	sb_scan_settings_begin(int workers);
extern void sb_scan_settings_end(int nestlevel);
extern SbScanPlan *sb_scan_plan(SbTarget *target, SbLeaf *leaf,
								const char *query, const char *where,
								int workers);
extern void sb_scan_prepared(SbScanPlan *plan, SbCacheMode cache,
							 SbScanResult *result);
extern void sb_scan_run(SbScanPlan *plan, SbSegment *stretch,
						SbScanResult *result);

/* mountinfo.c */
extern void sb_mount_of(const char *path, char **fstype, char **device);

/* history.c */
extern void sb_history_record(FunctionCallInfo fcinfo, Datum result,
							  TupleDesc tupdesc);

/* settings.c */
extern Datum sb_io_settings(void);

/* stats.c: the arithmetic every figure shares */
extern double sb_rate(double amount, double seconds);
extern double sb_round(double value, int digits);
extern double sb_pct(uint64 part, uint64 whole);
extern double sb_share_pct(double part, double whole);
extern double sb_median(double *v, int n);
extern double sb_max(const double *v, int n);

/* A growing array of samples. */
typedef struct SbSamples
{
	int			n;
	int			cap;
	double	   *v;
} SbSamples;

extern void sb_samples_init(SbSamples *s);
extern void sb_samples_push(SbSamples *s, double x);
extern double sb_samples_median(SbSamples *s);
extern double sb_no_overlap_pct(double t_read, double t_cpu);
extern double sb_perfect_overlap_pct(double t_read, double t_cpu);
extern double sb_overlap_pct(double t_read, double t_cpu, double wall);
extern void sb_sort(double *v, int n);
extern double sb_percentile_sorted(const double *v, int n, double pct);
extern void sb_sorted_insert(double *v, int n, double x);
extern double sb_quantile(const double *sorted, int n, double p);
extern bool sb_median_ci(const double *sorted, int n, double confidence,
						 double *lo, double *hi);
extern double sb_halfwidth_pct(double median, double lo, double hi);

/* citus.c: Citus tables, measured on the nodes where their rows live */
extern bool sb_citus_table(Oid relid);
extern void sb_citus_refuse(Oid relid, const char *function);
extern Datum sb_citus_scan_efficiency(FunctionCallInfo fcinfo);

/* args.c: argument checks, run at the top of each SQL function */
extern SbCacheMode sb_parse_cache(text *arg, bool allow_direct);
extern const char *sb_cache_name(SbCacheMode cache);
extern void sb_check_block_size(int32 block_size);
extern void sb_check_runs(int32 runs);
extern void sb_check_workers(int32 workers);
extern void sb_check_query(const char *query);
extern void sb_check_sample(double sample);
extern void sb_check_max_seconds(double max_seconds);
extern void sb_check_target_pct(double target_pct);
extern SbMethod sb_parse_method(text *arg);
extern const char *sb_method_name(SbMethod method);

/*
 * rows.c: result rows filled by column name; a column the result type
 * lacks (an earlier version's type) is skipped, a NaN float becomes NULL.
 */
typedef struct SbRow
{
	TupleDesc	tupdesc;
	Datum	   *values;
	bool	   *nulls;
	bool	   *filled;
} SbRow;

extern void sb_row_init(SbRow *row, TupleDesc tupdesc);
extern bool sb_row_has(SbRow *row, const char *name);
extern Oid	sb_row_type(SbRow *row, const char *name);
extern void sb_row_datum(SbRow *row, const char *name, Datum d);
extern void sb_row_null(SbRow *row, const char *name);
extern void sb_row_float(SbRow *row, const char *name, double v, int digits);
extern void sb_row_text(SbRow *row, const char *name, const char *s);
extern void sb_row_rest_null(SbRow *row);
extern void sb_row_io_workers(SbRow *row, SbProcDelta *procs);
struct SbCgroupLimits;
extern void sb_row_limits(SbRow *row, const struct SbCgroupLimits *l);
extern TupleDesc sb_result_tupdesc(FunctionCallInfo fcinfo);
extern HeapTuple sb_row_tuple(SbRow *row);
extern Datum sb_row_result(SbRow *row);

#endif							/* SCANBENCH_MEASURE_H */
