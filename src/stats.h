/*-------------------------------------------------------------------------
 *
 * stats.h
 *	  The arithmetic every figure shares: rates, rounding, medians,
 *	  percentiles and the median's confidence interval, and a growing
 *	  array of samples (stats.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_STATS_H
#define SCANBENCH_STATS_H

/* lmdd's MB: 10^6 bytes. */
#define SB_MB		1000000.0

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
extern bool sb_ratio_ci(const double *num, const double *den, int n,
						double confidence, double *ratio, double *lo,
						double *hi);
extern double sb_halfwidth_pct(double median, double lo, double hi);

#endif							/* SCANBENCH_STATS_H */
