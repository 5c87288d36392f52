/*-------------------------------------------------------------------------
 *
 * cohortrule.c
 *	  The fleet's cohort rule (cohortrule.h): the band of a cohort's
 *	  figures and where an interval lies against it.  Compiled into the
 *	  library (scanbench_internal.judge_cohort) and into scanbench-fleet;
 *	  so it allocates nothing and reports nothing: the caller gives the
 *	  room and words the result.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cohortrule.h"
#include "judgerules.h"

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1], which it reorders; NaN when n is 0. */
double
sb_cohort_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t) n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/*
 * The band of x[0..n-1]: false, and the band's figures NaN, when there are
 * fewer than cohort_size (judgerules.c).  work has room for n figures.
 */
bool
sb_cohort_band(const double *x, int n, double k, double least,
			   double *work, SbCohortBand *band)
{
	double		m;
	int			i;

	band->n = n;
	band->centre = band->spread = NAN;
	if (n < sb_threshold(SB_RULE_COHORT_SIZE))
		return false;
	memcpy(work, x, sizeof(double) * (size_t) n);
	m = sb_cohort_median(work, n);
	for (i = 0; i < n; i++)
		work[i] = fabs(x[i] - m);
	band->centre = m;
	band->spread = fmax(k * sb_threshold(SB_RULE_COHORT_MAD_SCALE) * sb_cohort_median(work, n), least);
	return true;
}

/*
 * Below when the whole of [lo, hi] is under centre - spread, above when
 * it is over centre + spread; inside otherwise, and for a band not made.
 */
SbCohortSide
sb_cohort_side(const SbCohortBand *band, double lo, double hi)
{
	if (band->n < sb_threshold(SB_RULE_COHORT_SIZE))
		return SB_COHORT_INSIDE;
	if (hi < band->centre - band->spread)
		return SB_COHORT_BELOW;
	if (lo > band->centre + band->spread)
		return SB_COHORT_ABOVE;
	return SB_COHORT_INSIDE;
}
