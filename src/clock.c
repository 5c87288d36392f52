/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  Wall-clock and CPU time of one measured interval.
 *
 * Wall time comes from instr_time (clock_gettime(CLOCK_MONOTONIC)), the
 * clock EXPLAIN ANALYZE uses.  CPU time is getrusage(RUSAGE_SELF): this
 * backend only, so parallel workers' CPU is not in it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "measure.h"

static double
tv_seconds(const struct timeval *tv)
{
	return (double) tv->tv_sec + (double) tv->tv_usec / 1000000.0;
}

void
sb_clock_start(SbClock *clock)
{
	getrusage(RUSAGE_SELF, &clock->ru_start);
	INSTR_TIME_SET_CURRENT(clock->start);
}

void
sb_clock_stop(SbClock *clock, SbTiming *timing)
{
	instr_time	end;
	struct rusage ru;

	INSTR_TIME_SET_CURRENT(end);
	getrusage(RUSAGE_SELF, &ru);

	INSTR_TIME_SUBTRACT(end, clock->start);
	timing->seconds = INSTR_TIME_GET_DOUBLE(end);
	timing->user_s = tv_seconds(&ru.ru_utime) - tv_seconds(&clock->ru_start.ru_utime);
	timing->sys_s = tv_seconds(&ru.ru_stime) - tv_seconds(&clock->ru_start.ru_stime);
}
