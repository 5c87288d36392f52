/*
 * progress.h: progress reports and timing (progress.c).
 */
#ifndef SCANBENCH_LOAD_PROGRESS_H
#define SCANBENCH_LOAD_PROGRESS_H

#include <stdbool.h>

/* jobs.h: what each job has done, read by report_progress */
struct Job;

typedef struct
{
	double		interval;		/* seconds between reports; 0 = none */
	bool		tty;			/* rewrite one line on a terminal */
	int			width;			/* of the line last written */
	double		start;			/* now_s() when the jobs' work began */
} Progress;

extern double now_s(void);
extern long peak_rss_mb(void);
extern double cpu_s(void);
extern void report_progress(Progress *pg, const struct Job *jobs, int njobs, bool last);

#endif							/* SCANBENCH_LOAD_PROGRESS_H */
