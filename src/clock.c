/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  Wall-clock and CPU time of one measured interval.
 *
 * Wall time comes from instr_time (clock_gettime(CLOCK_MONOTONIC)), the
 * clock EXPLAIN ANALYZE uses.  CPU time is getrusage(RUSAGE_SELF): this
 * backend only, so parallel workers' CPU is not in it.
 *
 * Two waits are kept beside the wall time, never taken out of it: a rate
 * is bytes over the time the pass really took, as the server's own
 * queries see it.  While a backend waits for a CPU, read-ahead (and, on
 * 18, asynchronous I/O) keeps the device busy, so a rate net of the wait
 * would count I/O already done against a shorter interval: a rate the
 * device never delivered.
 *   cpu_wait_s   the run queue delay of /proc/self/schedstat: runnable but
 *                not running, whether other processes held the CPUs or the
 *                group's CPU quota was spent (a throttled group's tasks
 *                stay runnable);
 *   throttled_s  how long the group whose quota binds this backend was held
 *                back (cgroup.c): the part of the wait that is the server's
 *                own limit, not other processes' load.  It is the group's
 *                figure, so it counts time the group was held back while
 *                this backend was not running too.
 * With the latter come the quota's periods in which the group ran, and in
 * how many of them it ran out of quota: the group's own account of
 * whether the quota was used up, which counts the CPU of the processes
 * that read for the backend (18's I/O workers) as well as its own.
 * And the page faults the backend took (getrusage's minor and major
 * ones): a pass that maps memory it has not touched before pays for each
 * page on the way (cache.c, sb_map_shared_buffers).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "cgroup.h"
#include "clock.h"

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

/* The cgroup's throttled seconds, NaN where unknown, and its periods. */
static double
throttled_s(int64 *periods, int64 *spent)
{
	SbCgroupCpuStat s;

	sb_cgroup_cpu_stat(&s);
	*periods = s.nr_periods;
	*spent = s.nr_throttled;
	return s.ok ? s.throttled_s : NAN;
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
	clock->throttled_start = throttled_s(&clock->periods_start, &clock->spent_start);
}

void
sb_clock_stop(SbClock *clock, SbTiming *timing)
{
	instr_time	end;
	struct rusage ru;
	int64		periods_end;
	int64		spent_end;
	double		throttled_end = throttled_s(&periods_end, &spent_end);
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
	timing->throttled_s = throttled_end - clock->throttled_start;
	if (!isnan(timing->throttled_s))
		timing->throttled_s = Min(Max(timing->throttled_s, 0), timing->seconds);
	timing->periods = Max(periods_end - clock->periods_start, 0);
	timing->spent_periods = Min(Max(spent_end - clock->spent_start, 0), timing->periods);
	timing->faults = (ru.ru_minflt + ru.ru_majflt) -
		(clock->ru_start.ru_minflt + clock->ru_start.ru_majflt);
}

/* Wall-clock seconds from start to now. */
double
sb_seconds_since(instr_time start)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, start);
	return INSTR_TIME_GET_DOUBLE(now);
}
