/*-------------------------------------------------------------------------
 *
 * cohortrule.h
 *	  The fleet's cohort rule: one server's figure against its peers', in a
 *	  way one slow server cannot hide from by dragging the average.  Plain
 *	  C with no PostgreSQL header, so that scanbench-fleet compiles the same
 *	  file as the library (cohortrule.c) and both judge by the same
 *	  thresholds, the cohort's lines of judgerules.c (which it compiles
 *	  too).
 *
 * With n >= cohort_size figures, the band is their median m and a spread
 * of max(k * cohort_mad_scale * MAD, least), MAD being the median
 * absolute deviation from m (scaled, the standard deviation of normal
 * data); k is cohort_k and least cohort_least_pct unless the caller
 * says.  A figure with an interval [lo, hi] is outside when the whole
 * interval is: a wide interval that still reaches the band is not an
 * alarm.  Read rates are judged the same way on their logarithms, with a
 * least spread of a factor of cohort_read_factor.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COHORTRULE_H
#define SCANBENCH_COHORTRULE_H

#include <stdbool.h>

typedef struct SbCohortBand
{
	int			n;				/* the figures it was made of */
	double		centre;
	double		spread;
} SbCohortBand;

/* Where an interval lies against a band. */
typedef enum SbCohortSide
{
	SB_COHORT_INSIDE = 0,
	SB_COHORT_BELOW = -1,
	SB_COHORT_ABOVE = 1
} SbCohortSide;

extern double sb_cohort_median(double *v, int n);
extern bool sb_cohort_band(const double *x, int n, double k, double least,
						   double *work, SbCohortBand *band);
extern SbCohortSide sb_cohort_side(const SbCohortBand *band, double lo, double hi);

#endif							/* SCANBENCH_COHORTRULE_H */
