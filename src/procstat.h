/*-------------------------------------------------------------------------
 *
 * procstat.h
 *	  CPU seconds and I/O bytes of this backend, its parallel workers and
 *	  the I/O workers over an interval, from /proc (procstat.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_PROCSTAT_H
#define SCANBENCH_PROCSTAT_H

#include <sys/types.h>

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

extern void sb_procstat_start(SbProcSnap *snap);
extern void sb_procstat_stop(SbProcSnap *snap, SbProcDelta *delta);

extern bool sb_read_small_file(const char *path, char *buf, size_t size);

#endif							/* SCANBENCH_PROCSTAT_H */
