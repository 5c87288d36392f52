/*-------------------------------------------------------------------------
 *
 * chart.h
 *	  The run history drawn as an SVG chart: scan efficiency with its
 *	  interval over time, the rates below it, the alarm limits and the
 *	  changes of storage, kernel or server between runs (chart.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CHART_H
#define SCANBENCH_CHART_H

#include "lib/stringinfo.h"

/* The facts whose change between two runs of a series is marked. */
#define SB_CHART_NFACTS 6
extern const char *const sb_chart_fact_names[SB_CHART_NFACTS];

/* One recorded run.  NaN stands for a figure the run does not have. */
typedef struct SbChartRun
{
	int64		id;				/* run number */
	double		t;				/* when it was measured, Unix epoch seconds */
	int			series;			/* index into SbChart.series */
	double		scan_pct;		/* %, NaN where not measured */
	double		scan_pct_lo;	/* the 95 % interval of scan_pct, % */
	double		scan_pct_hi;
	double		read_mb_s;		/* MB/s */
	double		scan_mb_s;
	bool		judged;			/* its verdict lets it be compared */
	const char *verdict;		/* its marks joined by commas, or NULL */
	const char *facts[SB_CHART_NFACTS]; /* as sb_chart_fact_names, or NULL */
} SbChartRun;

/* The runs of one relation and cache mode. */
typedef struct SbChartSeries
{
	const char *relation;		/* schema.name, quoted as SQL quotes it */
	const char *cache;
	double		median_pct;		/* the median its latest judged run is
								 * compared with, %, or NaN */
} SbChartSeries;

typedef struct SbChart
{
	const char *relation;		/* the one relation drawn, or NULL for all */
	const char *cache;			/* the one cache mode drawn, or NULL */
	int			days;			/* how far back the runs go */
	double		min_pct;		/* fixed alarm limit, %, or NaN */
	double		max_drop_pct;	/* alarm below the median by this much, % */
	int			nseries;
	SbChartSeries *series;
	int			nruns;
	SbChartRun *runs;			/* in order of series, time, run number */
} SbChart;

extern char *sb_chart_svg(const SbChart *chart);
extern void sb_chart_append_escaped(StringInfo buf, const char *s);
extern double sb_chart_axis_top(double highest, double *step);

#endif							/* SCANBENCH_CHART_H */
