/*-------------------------------------------------------------------------
 *
 * clock.h
 *	  Wall clock and this backend's CPU time over one interval, less the
 *	  time it waited for a CPU (clock.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CLOCK_H
#define SCANBENCH_CLOCK_H

#include <sys/resource.h>

#include "portability/instr_time.h"

/* Wall clock and this backend's CPU time over one interval. */
typedef struct SbClock
{
	instr_time	start;
	struct rusage ru_start;
	double		run_delay_start;	/* /proc/self/schedstat, s; NaN if none */
	double		throttled_start;	/* the cgroup's cpu.stat, s; NaN if none */
	int64		periods_start;	/* its nr_periods and nr_throttled */
	int64		spent_start;
} SbClock;

typedef struct SbTiming
{
	double		seconds;
	double		user_s;
	double		sys_s;
	double		cpu_wait_s;		/* runnable but waiting for a CPU; 0 if unknown */
	double		throttled_s;	/* the cgroup held back by its CPU quota;
								 * NaN if unknown */
	int64		periods;		/* the quota's periods in which the group
								 * ran; 0 if unknown */
	int64		spent_periods;	/* of them, those it ran out of quota in */
	int64		faults;			/* page faults this backend took */
} SbTiming;

extern void sb_clock_start(SbClock *clock);
extern void sb_clock_stop(SbClock *clock, SbTiming *timing);
extern double sb_seconds_since(instr_time start);

#endif							/* SCANBENCH_CLOCK_H */
