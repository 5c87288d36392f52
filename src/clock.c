/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  Wall-clock and CPU time of one measured interval.
 *
 * Wall time comes from instr_time (clock_gettime(CLOCK_MONOTONIC)), the
 * clock EXPLAIN ANALYZE uses.  CPU time is getrusage(RUSAGE_SELF): this
 * backend only, so parallel workers' CPU is not in it.  The time the
 * backend spent runnable but waiting for a CPU, the run queue delay of
 * /proc/self/schedstat, is kept too: it is other processes' load, not the
 * measured work's cost (scan_efficiency leaves it out of its rates).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "measure.h"

static double
tv_seconds(const struct timeval *tv)
{
	return (double) tv->tv_sec + (double) tv->tv_usec / 1000000.0;
}

/*
 * Seconds this process has spent on a run queue, waiting for a CPU, from
 * the second field of /proc/self/schedstat (ns); NaN where the kernel does
 * not keep it.  A plain open and read: nothing in between can be
 * interrupted, and /proc reads do not block.
 */
static double
run_delay_s(void)
{
	char		buf[128];
	int			fd = open("/proc/self/schedstat", O_RDONLY);
	ssize_t		n;
	unsigned long long on_cpu,
				waited;

	if (fd < 0)
		return NAN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NAN;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &on_cpu, &waited) != 2)
		return NAN;
	return (double) waited / 1e9;
}

/*
 * The run queue delay is read inside the wall-clock interval, after its
 * start and before its end, so that a wait it counts cannot lie outside
 * the interval (a read costs a few microseconds).
 */
void
sb_clock_start(SbClock *clock)
{
	getrusage(RUSAGE_SELF, &clock->ru_start);
	INSTR_TIME_SET_CURRENT(clock->start);
	clock->run_delay_start = run_delay_s();
}

void
sb_clock_stop(SbClock *clock, SbTiming *timing)
{
	instr_time	end;
	struct rusage ru;
	double		run_delay_end = run_delay_s();

	INSTR_TIME_SET_CURRENT(end);
	getrusage(RUSAGE_SELF, &ru);

	INSTR_TIME_SUBTRACT(end, clock->start);
	timing->seconds = INSTR_TIME_GET_DOUBLE(end);
	timing->user_s = tv_seconds(&ru.ru_utime) - tv_seconds(&clock->ru_start.ru_utime);
	timing->sys_s = tv_seconds(&ru.ru_stime) - tv_seconds(&clock->ru_start.ru_stime);
	timing->cpu_wait_s = run_delay_end - clock->run_delay_start;
	if (isnan(timing->cpu_wait_s) || timing->cpu_wait_s < 0)
		timing->cpu_wait_s = 0;
	timing->cpu_wait_s = Min(timing->cpu_wait_s, timing->seconds);
}
