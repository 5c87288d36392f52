/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  The arithmetic every figure shares: rates, percentages, rounding for
 *	  display and order statistics over repeated measurements.
 *
 * NaN stands for "nothing measured" throughout (a rate over zero bytes or
 * zero seconds); result rows show it as NULL.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "stats.h"

/* amount / seconds, or NaN when nothing was measured. */
double
sb_rate(double amount, double seconds)
{
	if (amount <= 0 || seconds <= 0)
		return NAN;
	return amount / seconds;
}

/* part as a percentage of whole, or NaN for an empty whole. */
double
sb_pct(uint64 part, uint64 whole)
{
	if (whole == 0)
		return NAN;
	return 100.0 * (double) part / (double) whole;
}

/* A share of a time in percent: a zero part is 0 %, a zero whole NaN. */
double
sb_share_pct(double part, double whole)
{
	if (whole <= 0)
		return NAN;
	return 100.0 * part / whole;
}

/* Round for display: rates to 0.1, seconds to the millisecond. */
double
sb_round(double value, int digits)
{
	double		scale = pow(10.0, digits);

	if (isnan(value))
		return value;
	return rint(value * scale) / scale;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/*
 * Median of n values, sorting v in place; NaN if n is 0 or any value is
 * NaN, since a median over a missing figure would hide it.
 */
double
sb_median(double *v, int n)
{
	int			i;

	if (n <= 0)
		return NAN;
	for (i = 0; i < n; i++)
		if (isnan(v[i]))
			return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return (n % 2) ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* The highest of n values, ignoring NaN; NaN if there is none. */
double
sb_max(const double *v, int n)
{
	double		m = NAN;
	int			i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && (isnan(m) || v[i] > m))
			m = v[i];
	return m;
}

/*
 * The two bounds of a cold scan's time when it needs t_read seconds of
 * reads and t_cpu seconds of executor work: one after the other (no
 * overlap) or wholly hidden under each other (perfect overlap), each as a
 * percentage of the raw read rate, as scan_pct is.
 */
double
sb_no_overlap_pct(double t_read, double t_cpu)
{
	return sb_rate(100.0 * t_read, t_read + t_cpu);
}

double
sb_perfect_overlap_pct(double t_read, double t_cpu)
{
	return sb_rate(100.0 * t_read, Max(t_read, t_cpu));
}

/*
 * Where a scan of wall seconds falls between those bounds: 0 when it took
 * t_read + t_cpu, 100 when it took max(t_read, t_cpu).  Not clamped: below
 * 0 the scan was slower than both sides in a row, above 100 faster than
 * the slower side alone, and either says the sides were measured under
 * different conditions.
 */
double
sb_overlap_pct(double t_read, double t_cpu, double wall)
{
	double		hidden = Min(t_read, t_cpu);

	if (hidden <= 0 || wall <= 0)
		return NAN;
	return 100.0 * (t_read + t_cpu - wall) / hidden;
}

/* Sort n values in place, ascending.  NaN must not be among them. */
void
sb_sort(double *v, int n)
{
	if (n > 1)
		qsort(v, n, sizeof(double), cmp_double);
}

/*
 * The pct-th percentile of n sorted values, by nearest rank (the smallest
 * value with at least pct % of the values at or below it), as fio reports
 * its completion-latency percentiles; NaN if n is 0.
 */
double
sb_percentile_sorted(const double *v, int n, double pct)
{
	int			rank;

	if (n <= 0)
		return NAN;
	rank = (int) ceil(pct / 100.0 * n);
	rank = Max(rank, 1);
	rank = Min(rank, n);
	return v[rank - 1];
}

/*
 * Insert x into the n sorted values of v (room for n + 1), keeping them
 * sorted: a running sample stays ready for order statistics without a sort
 * per new value.
 */
void
sb_sorted_insert(double *v, int n, double x)
{
	int			lo = 0,
				hi = n;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&v[lo + 1], &v[lo], sizeof(double) * (n - lo));
	v[lo] = x;
}

/*
 * The p-quantile (0 <= p <= 1) of n sorted values, interpolated linearly
 * between the two nearest ranks (Hyndman and Fan's type 7, what R and
 * numpy do by default); NaN if n is 0.
 */
double
sb_quantile(const double *sorted, int n, double p)
{
	double		h;
	int			k;

	if (n <= 0)
		return NAN;
	h = (n - 1) * p;
	k = (int) floor(h);
	if (k >= n - 1)
		return sorted[n - 1];
	return sorted[k] + (h - k) * (sorted[k + 1] - sorted[k]);
}

/*
 * Confidence interval of the median of n sorted values by order
 * statistics, which assumes nothing about their distribution: the number
 * of values below the true median is Binomial(n, 1/2), so [x(l), x(n+1-l)]
 * (1-based ranks) covers it with probability 1 - 2 P(B <= l - 1).  l is the
 * largest rank that keeps that at or above the confidence asked for; the
 * interval's true coverage is therefore at least that, never less.  With
 * too few values (n < 6 for 95 %) no rank does, and false is returned.
 */
bool
sb_median_ci(const double *sorted, int n, double confidence,
			 double *lo, double *hi)
{
	double		tail = (1.0 - confidence) / 2.0;
	double		logp = -n * log(2.0);	/* log P(B = 0) */
	double		cdf = 0.0;
	int			l = 0;
	int			k;

	*lo = *hi = NAN;
	for (k = 0; k < n; k++)
	{
		cdf += exp(logp);		/* P(B <= k) */
		if (cdf > tail)
			break;
		l = k + 1;
		logp += log((double) (n - k)) - log((double) (k + 1));
	}
	if (l < 1)
		return false;
	*lo = sorted[l - 1];
	*hi = sorted[n - l];
	return true;
}

/*
 * The ratio of two means, sum(num) / sum(den) over n paired samples, and
 * its interval at the given confidence (0.95 or 0.99; others are taken as
 * 0.95): the jackknife's standard error (each sample left out in turn)
 * times Student's t for n - 1 degrees of freedom (Cornish-Fisher's
 * expansion, within 1 % from 5 on).  False, with the interval NaN, below
 * 3 samples.  A mean is what a cost is, so the ratio is of the means, not
 * a median of the samples' ratios; the jackknife keeps the pairing.
 */
bool
sb_ratio_ci(const double *num, const double *den, int n, double confidence,
			double *ratio, double *lo, double *hi)
{
	double		sn = 0.0;
	double		sd = 0.0;
	double		mean = 0.0;
	double		var = 0.0;
	double		z = confidence >= 0.99 ? 2.5758 : 1.96;
	double		nu = n - 1;
	double		t;
	int			i;

	*ratio = *lo = *hi = NAN;
	for (i = 0; i < n; i++)
	{
		sn += num[i];
		sd += den[i];
	}
	if (n < 1 || sd <= 0)
		return false;
	*ratio = sn / sd;
	if (n < 3)
		return false;
	for (i = 0; i < n; i++)
		mean += (sn - num[i]) / (sd - den[i]);
	mean /= n;
	for (i = 0; i < n; i++)
	{
		double		d = (sn - num[i]) / (sd - den[i]) - mean;

		var += d * d;
	}
	var *= (double) (n - 1) / n;
	t = z + (pow(z, 3) + z) / (4 * nu) +
		(5 * pow(z, 5) + 16 * pow(z, 3) + 3 * z) / (96 * nu * nu);
	*lo = *ratio - t * sqrt(var);
	*hi = *ratio + t * sqrt(var);
	return true;
}

/*
 * Half-width of an interval around a median, in % of the median: the
 * farther of its two ends, since order-statistic intervals are not
 * symmetric.  NaN if there is no interval.
 */
double
sb_halfwidth_pct(double median, double lo, double hi)
{
	if (isnan(lo) || isnan(hi) || isnan(median) || median <= 0)
		return NAN;
	return 100.0 * Max(median - lo, hi - median) / median;
}

/* Allocated in the call's context; repalloc keeps them there. */
void
sb_samples_init(SbSamples *s)
{
	s->n = 0;
	s->cap = 64;
	s->v = palloc(sizeof(double) * s->cap);
}

/* Add a value; NaN (nothing measured) is left out. */
void
sb_samples_push(SbSamples *s, double x)
{
	if (isnan(x))
		return;
	if (s->n == s->cap)
	{
		s->cap *= 2;
		s->v = repalloc(s->v, sizeof(double) * s->cap);
	}
	s->v[s->n++] = x;
}

/* Median of a sample, leaving it in its order. */
double
sb_samples_median(SbSamples *s)
{
	double	   *copy;
	double		m;

	if (s->n == 0)
		return NAN;
	copy = palloc(sizeof(double) * s->n);
	memcpy(copy, s->v, sizeof(double) * s->n);
	m = sb_median(copy, s->n);
	pfree(copy);
	return m;
}
