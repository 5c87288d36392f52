/*
 * progress.c: progress reports on stderr, and the clock they use.
 *
 * On a terminal one line is rewritten in place; elsewhere (a log file) each
 * report is a line of its own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "jobs.h"
#include "progress.h"

double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

long
peak_rss_mb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

/* User and system CPU seconds of this process, every thread. */
double
cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

void
report_progress(Progress *pg, const Job *jobs, int njobs, bool last)
{
	int64_t		units = 0,
				rows = 0,
				bytes = 0;
	double		elapsed = now_s() - pg->start;
	double		frac;
	char		line[200];
	int			len;

	for (int j = 0; j < njobs; j++)
	{
		units += LOAD_RELAXED(jobs[j].units_done);
		rows += LOAD_RELAXED(jobs[j].rows_done);
		bytes += LOAD_RELAXED(jobs[j].bytes_done);
	}
	frac = (double) units / jobs[0].gen->units;
	len = snprintf(line, sizeof(line),
				   "%" PRId64 " rows (%.1f%%), %.1f MB/s, %.0f rows/s, %.1f s elapsed",
				   rows, 100.0 * frac,
				   elapsed > 0 ? bytes / elapsed / 1e6 : 0.0,
				   elapsed > 0 ? rows / elapsed : 0.0, elapsed);
	if (frac > 0 && !last)
		len += snprintf(line + len, sizeof(line) - len, ", %.1f s left",
						elapsed / frac - elapsed);
	if (pg->tty)
	{
		fprintf(stderr, "\r%-*s", pg->width, line);
		pg->width = len;
		if (last)
			fputc('\n', stderr);
	}
	else
		fprintf(stderr, "%s\n", line);
}
