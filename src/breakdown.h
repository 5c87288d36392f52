/*-------------------------------------------------------------------------
 *
 * breakdown.h
 *	  Where one scan's time goes: a raw read, the scan and a warm scan of
 *	  the same blocks in one call, and the scan's time split into shares
 *	  (breakdown.c).  scan_breakdown() returns it; scan_advice() reasons
 *	  from it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_BREAKDOWN_H
#define SCANBENCH_BREAKDOWN_H

#include "cache.h"
#include "cgroup.h"
#include "seqread.h"
#include "relfiles.h"
#include "scan.h"

/*
 * The three passes and what follows from them.  For an empty relation the
 * times, rates and the overlap are NaN and there is no bottleneck.
 */
typedef struct SbBreakdown
{
	SbReadResult read;			/* t_read: raw read, 8 kB at a time */
	SbScanResult scan;			/* the scan itself */
	SbScanResult warm;			/* t_cpu: the same scan, warm */
	double		wall;
	double		t_read;
	double		t_cpu;
	double		scan_mb_s;
	double		read_mb_s;
	double		warm_mb_s;
	double		overlap_pct;	/* NaN outside 0..100 */
	/* CPU of the scan's processes: all, then parallel and I/O workers */
	double		user_s;
	double		sys_s;
	double		cpu_s;
	bool		have_parallel;	/* workers ran and their CPU is known */
	double		parallel_user_s;
	double		parallel_sys_s;
	bool		have_io_workers;
	/* bytes from storage and returned by read calls, if bytes_ok */
	bool		bytes_ok;
	uint64		storage_bytes;
	uint64		rchar;
	/* shares of the processes' time (budget: wall once a process) */
	double		budget;
	double		busy;
	double		queued;
	double		io_wait;
	const char *bottleneck;		/* "cpu", "io", "mixed" or NULL */
	/* the scan's own count of its reads against the buffers' (19 on) */
	char	   *stream_check;	/* "agree", what disagrees, or NULL */
} SbBreakdown;

/* scan_breakdown's figures: the breakdown of one relation's scan. */
typedef struct SbBreakdownCall
{
	SbBreakdown b;
	int64		pages;
	int64		bytes;
	SbCgroupLimits limits;		/* which the rates include, not leave out */
	Datum		settings;		/* jsonb */
} SbBreakdownCall;

extern void sb_breakdown(SbTarget *target, const char *query, int workers,
						 SbCacheMode cache, bool count_io, SbBreakdown *b);
extern void sb_breakdown_call(Oid relid, const char *query, int workers,
							  SbCacheMode cache, SbBreakdownCall *out);

#endif							/* SCANBENCH_BREAKDOWN_H */
