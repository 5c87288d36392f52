/*-------------------------------------------------------------------------
 *
 * scanrounds.h
 *	  scan_shapes()' and scan_sweep()'s measurement, in interleaved
 *	  rounds that each open with a raw read (scanrounds.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_SCANROUNDS_H
#define SCANBENCH_SCANROUNDS_H

#include "cache.h"

#define SB_MAX_SHAPES	5
#define SB_MAX_SWEEP_VALUES	100

/* One shape's figures, the medians over the rounds. */
typedef struct SbShapeFigures
{
	const char *name;			/* what the shape is, for people */
	char	   *query;			/* the select list, and its filter */
	double		cached_pct;		/* the most seen before a scan */
	int64		rows;
	double		scan_s;
	double		scan_mb_s;
	double		user_s;
	double		sys_s;
} SbShapeFigures;

/* One value of a swept setting: checked, then measured. */
typedef struct SbSweepValue
{
	char	   *value;
	int			workers;
	double	   *seconds;		/* one per round */
	int			planned;
	int			launched;		/* the fewest seen over the rounds */
	double		cached_pct;		/* the most seen */
	Datum		settings;
	double		scan_s;			/* the median over the rounds */
	double		scan_mb_s;
} SbSweepValue;

extern int	sb_shapes(Oid relid, SbCacheMode cache, int runs,
					  SbShapeFigures *out, double *read_mb_s_median);
extern void sb_sweep_check_setting(const char *setting);
extern void sb_sweep_check_value(const char *setting, const char *value,
								 int *workers);
extern double sb_sweep(Oid relid, const char *setting, SbSweepValue *values,
					   int nvals, SbCacheMode cache, int runs);

#endif							/* SCANBENCH_SCANROUNDS_H */
