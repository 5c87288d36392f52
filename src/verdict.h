/*-------------------------------------------------------------------------
 *
 * verdict.h
 *	  One judge of a scan_efficiency figure, for the server path and the
 *	  Citus path alike (verdict.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_VERDICT_H
#define SCANBENCH_VERDICT_H

#include "cache.h"
#include "cgroup.h"
#include "rows.h"

#define SB_VERDICT_CONFIDENCE	0.95


/*
 * What a figure is judged on.  A figure a path does not have is NaN (or,
 * for limits, NULL): its mark is then never given.
 */
typedef struct SbJudgeInput
{
	const char *what;			/* the relation, named in the messages;
								 * NULL: judge silently */
	const char *unit;			/* "pairs" or "runs" */
	SbCacheMode cache;
	int			n;				/* pairs or runs */
	double		median;			/* scan_pct */
	double		lo;				/* its interval */
	double		hi;
	double		target_pct;
	double		cached_pct;		/* most resident after eviction */
	double		read_mb_s;
	double		scan_mb_s;
	double		direct_mb_s;
	double		host_ratio;		/* buffered over the faster O_DIRECT read */
	double		device_mb_s;	/* O_DIRECT reads at device_depth */
	int			device_depth;
	double		device_pct;		/* scan over it */
	double		read_iops;		/* requests a second the raw reads sent */
	double		read_request_kb;	/* their mean size */
	double		ceiling_mb_s;	/* warm scan of the same blocks */
	double		ceiling_ratio;	/* scan over it */
	double		timed_s;		/* the timed passes, wall clock */
	double		cpu_wait_s;		/* of them, waiting for a CPU */
	double		throttled_s;	/* the group held back by its quota */
	double		cpu_busy_s;		/* CPU the timed passes used */
	double		scan_timed_s;	/* the timed scans alone, wall clock */
	double		scan_busy_s;	/* CPU they used */
	int64		scan_periods;	/* the quota's periods in them */
	int64		scan_spent_periods; /* of those, ones the quota ran out in */
	double		drift_first;	/* the first half's median and the second's */
	double		drift_second;	/* where they differ (sampler.c); else NaN */
	const SbCgroupLimits *limits;
} SbJudgeInput;

/* The marks, in a fixed order; none means ok. */
#define SB_VERDICT_MAX_MARKS	12

typedef struct SbVerdict
{
	int			n;
	const char *marks[SB_VERDICT_MAX_MARKS];
} SbVerdict;

/* A mark's name and what it means for the history (verdict.c's table). */
typedef struct SbMarkInfo
{
	const char *name;
	bool		judged;			/* a run with it is judged against others */
	bool		reads_judged;	/* its read rate is the storage's */
	bool		apart;			/* compared only with runs that have it */
	const char *meaning;
} SbMarkInfo;

extern int	sb_mark_count(void);
extern const SbMarkInfo *sb_mark_info(int i);
extern void sb_verdict_unmeasured(SbVerdict *v, bool empty);
extern void sb_judge_input_init(SbJudgeInput *in);
extern void sb_judge(const SbJudgeInput *in, SbVerdict *v);
extern void sb_judge_page_costs(int rounds, double median, double lo,
								double hi, double cached_pct, SbVerdict *v);
extern void sb_judge_access_path(int rounds, double pct, double lo,
								 double hi, double cached_pct,
								 double read_rate, double limit_rate,
								 SbVerdict *v);
extern void sb_judge_crossover(int rounds, double rows, double lo, double hi,
							   double cached_pct_call,
							   double cached_pct_evicted, double correlation,
							   bool never_lost, bool misplanned, SbVerdict *v);
extern void sb_judge_toast(int rounds, double pct, double lo, double hi,
						   bool cold, double cached_pct, double read_rate,
						   double limit_rate, SbVerdict *v);
extern void sb_judge_scan_node(bool cold, double read_wait_pct,
							   double read_mb_s, double device_max_mb_s,
							   double depth_mb_s, bool one_at_a_time,
							   double cached_pct, double read_rate,
							   double limit_rate, SbVerdict *v);
extern bool sb_verdict_has(const SbVerdict *v, const char *mark);
extern char *sb_verdict_text(const SbVerdict *v);
extern void sb_row_verdict(SbRow *row, const char *name, const SbVerdict *v);

#endif							/* SCANBENCH_VERDICT_H */
