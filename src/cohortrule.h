/*-------------------------------------------------------------------------
 *
 * cohortrule.h
 *	  The fleet's cohort rule: one server's figure against its peers', in a
 *	  way one slow server cannot hide from by dragging the average.  Plain
 *	  C with no PostgreSQL header, so that scanbench-fleet compiles the same
 *	  file as the library (cohortrule.c) and both judge by the same
 *	  thresholds, kept here.
 *
 * With n >= SB_COHORT_MIN figures, the band is their median m and a
 * spread of max(k * SB_COHORT_MAD_SCALE * MAD, least), MAD being the
 * median absolute deviation from m (scaled, the standard deviation of
 * normal data).  A figure with an interval [lo, hi] is outside when the
 * whole interval is: a wide interval that still reaches the band is not
 * an alarm.  Read rates are judged the same way on their logarithms,
 * with a least spread of a factor of SB_COHORT_READ_FACTOR.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COHORTRULE_H
#define SCANBENCH_COHORTRULE_H

#include <stdbool.h>

#define SB_COHORT_MIN			3		/* figures a cohort needs */
#define SB_COHORT_MAD_SCALE		1.4826	/* MAD to a normal standard
										 * deviation */
#define SB_COHORT_K				3.0		/* spreads, by default */
#define SB_COHORT_LEAST_PCT		5.0		/* least spread of scan_pct, in
										 * points, by default */
#define SB_COHORT_READ_FACTOR	2.0		/* least spread of read rates */

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
