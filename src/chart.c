/*-------------------------------------------------------------------------
 *
 * chart.c
 *	  The run history as an SVG chart, from arrays of runs (chart.h).
 *
 * Two panels share the time axis: scan efficiency (%) above, with each
 * series' 95 % interval as a band, its points (hollow where the run could
 * not be judged) and the alarm limits; raw read (solid) and executor scan
 * (dashed) rates in MB/s below.  A dotted vertical line marks a run whose
 * filesystem, device, scheduler, read-ahead, kernel or server differs
 * from the run before it in its series, since such a change moves the
 * figure as much as a regression does.  A legend and a key sit on the
 * right.
 *
 * Nothing here reads the database: the caller hands over the runs, so
 * that what is drawn can be followed from the numbers alone.  Times are
 * shown in the session's time zone, as to_char shows them.  Every text
 * that comes from the history (names, verdicts, facts) is escaped for
 * XML.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "chart.h"

const char *const sb_chart_fact_names[SB_CHART_NFACTS] = {
	"filesystem", "device", "scheduler", "read-ahead", "kernel", "server"
};

/* The picture and its two plot areas, in SVG user units. */
#define CHART_W		980
#define CHART_H		640
#define PLOT_LEFT	72
#define PLOT_RIGHT	740
#define PCT_TOP		56			/* panel 1: scan % */
#define PCT_BOTTOM	320
#define RATE_TOP	380			/* panel 2: MB/s */
#define RATE_BOTTOM 590

static const char *const series_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#8c564b", "#e377c2", "#17becf"
};

/* What maps a run's figures to the picture. */
typedef struct Scales
{
	double		tmin;			/* the time axis, epoch seconds */
	double		tmax;
	double		pct_top;		/* scan % at the top of panel 1 */
	double		pct_step;
	double		rate_top;		/* MB/s at the top of panel 2 */
	double		rate_step;
} Scales;

/* A change between two consecutive runs of a series. */
typedef struct Change
{
	double		t;
	int			series;
	int64		id;
	char	   *what;			/* "scheduler bfq → none, kernel ..." */
} Change;

/* Text for XML character data and attribute values alike. */
void
sb_chart_append_escaped(StringInfo buf, const char *s)
{
	for (; *s; s++)
	{
		switch (*s)
		{
			case '&':
				appendStringInfoString(buf, "&amp;");
				break;
			case '<':
				appendStringInfoString(buf, "&lt;");
				break;
			case '>':
				appendStringInfoString(buf, "&gt;");
				break;
			case '"':
				appendStringInfoString(buf, "&quot;");
				break;
			default:
				appendStringInfoChar(buf, *s);
		}
	}
}

/*
 * The top of an axis that shows highest with some room above it, on a
 * round step of 1, 2 or 5 times a power of ten, about five steps high.
 */
double
sb_chart_axis_top(double highest, double *step)
{
	double		top = highest * 1.05;
	double		fifth = top / 5;
	double		unit = pow(10, floor(log10(fifth)));

	if (fifth <= unit)
		*step = unit;
	else if (fifth <= 2 * unit)
		*step = 2 * unit;
	else if (fifth <= 5 * unit)
		*step = 5 * unit;
	else
		*step = 10 * unit;
	/* less a hair: 1.1 / 0.1 is 11.000000000000002, which is 11 steps */
	return ceil(top / *step - 1e-9) * *step;
}

static double
x_of(const Scales *sc, double t)
{
	return PLOT_LEFT + (t - sc->tmin) / (sc->tmax - sc->tmin) * (PLOT_RIGHT - PLOT_LEFT);
}

static double
y_pct(const Scales *sc, double pct)
{
	return PCT_BOTTOM - pct / sc->pct_top * (PCT_BOTTOM - PCT_TOP);
}

static double
y_rate(const Scales *sc, double mb_s)
{
	return RATE_BOTTOM - mb_s / sc->rate_top * (RATE_BOTTOM - RATE_TOP);
}

/* An epoch time as text in the session's time zone: date, or date and time. */
static void
append_time(StringInfo buf, double epoch, bool with_year, bool with_time)
{
	TimestampTz ts;
	struct pg_tm tm;
	fsec_t		fsec;
	int			tz;

	ts = (TimestampTz) rint((epoch - (double) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY)
							* USECS_PER_SEC);
	if (timestamp2tm(ts, &tz, &tm, &fsec, NULL, NULL) != 0)
	{
		appendStringInfoChar(buf, '?');
		return;
	}
	if (with_year)
		appendStringInfo(buf, "%04d-", tm.tm_year);
	appendStringInfo(buf, "%02d-%02d", tm.tm_mon, tm.tm_mday);
	if (with_time)
		appendStringInfo(buf, " %02d:%02d", tm.tm_hour, tm.tm_min);
}

/*
 * To one decimal, halves away from zero as SQL's round() does (printf
 * would round 61.25 to even), so that the figures shown are the history's.
 */
static double
round1(double v)
{
	return round(v * 10) / 10;
}

/* A figure rounded to one decimal, or the placeholder where it is NaN. */
static void
append_figure(StringInfo buf, double v, const char *missing)
{
	if (isnan(v))
		appendStringInfoString(buf, missing);
	else
		appendStringInfo(buf, "%.1f", round1(v));
}

static void
append_title(StringInfo buf, const SbChart *c)
{
	double		tmin = INFINITY,
				tmax = -INFINITY;

	appendStringInfoString(buf, "Scan efficiency");
	if (c->relation)
		appendStringInfo(buf, " of %s", c->relation);
	if (c->cache)
		appendStringInfo(buf, ", %s", c->cache);
	if (c->nruns == 0)
		return;
	for (int i = 0; i < c->nruns; i++)
	{
		tmin = Min(tmin, c->runs[i].t);
		tmax = Max(tmax, c->runs[i].t);
	}
	appendStringInfo(buf, ", %d run%s from ", c->nruns, c->nruns > 1 ? "s" : "");
	append_time(buf, tmin, true, false);
	appendStringInfoString(buf, " to ");
	append_time(buf, tmax, true, false);
}

/*
 * The scales: the time axis spans the runs with a margin so that the first
 * and last points clear the frame (an hour at least), the scan % axis the
 * highest point, interval end and fixed limit, the rate axis the highest
 * rate.
 */
static void
compute_scales(const SbChart *c, Scales *sc)
{
	double		pct_high = NAN,
				rate_high = NAN;

	sc->tmin = INFINITY;
	sc->tmax = -INFINITY;
	for (int i = 0; i < c->nruns; i++)
	{
		const SbChartRun *r = &c->runs[i];

		sc->tmin = Min(sc->tmin, r->t);
		sc->tmax = Max(sc->tmax, r->t);
		/* fmax ignores a NaN argument, as greatest() ignores NULL */
		pct_high = fmax(pct_high, fmax(r->scan_pct, r->scan_pct_hi));
		rate_high = fmax(rate_high, fmax(r->read_mb_s, r->scan_mb_s));
	}
	pct_high = fmax(pct_high, c->min_pct);
	if (sc->tmax - sc->tmin < 3600)
	{
		sc->tmin -= 1800;
		sc->tmax += 1800;
	}
	else
	{
		double		margin = (sc->tmax - sc->tmin) * 0.03;

		sc->tmin -= margin;
		sc->tmax += margin;
	}
	sc->pct_top = sb_chart_axis_top(fmax(isnan(pct_high) ? 100 : pct_high, 1),
									&sc->pct_step);
	sc->rate_top = sb_chart_axis_top(fmax(isnan(rate_high) ? 1 : rate_high, 1),
									 &sc->rate_step);
}

/* The grid, the frames, the axes and their labels. */
static void
draw_axes(StringInfo buf, const Scales *sc)
{
	bool		dates_only = sc->tmax - sc->tmin > 3 * 86400;

	appendStringInfoString(buf, "<g class=\"grid\" stroke=\"#ddd\" stroke-width=\"1\">\n");
	for (int i = 0; i * sc->pct_step <= sc->pct_top + sc->pct_step / 2; i++)
		appendStringInfo(buf, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
						 PLOT_LEFT, y_pct(sc, i * sc->pct_step),
						 PLOT_RIGHT, y_pct(sc, i * sc->pct_step));
	for (int i = 0; i * sc->rate_step <= sc->rate_top + sc->rate_step / 2; i++)
		appendStringInfo(buf, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
						 PLOT_LEFT, y_rate(sc, i * sc->rate_step),
						 PLOT_RIGHT, y_rate(sc, i * sc->rate_step));
	for (int i = 0; i <= 5; i++)
	{
		double		x = PLOT_LEFT + i * (PLOT_RIGHT - PLOT_LEFT) / 5.0;

		appendStringInfo(buf, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
						 x, PCT_TOP, x, PCT_BOTTOM);
		appendStringInfo(buf, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n",
						 x, RATE_TOP, x, RATE_BOTTOM);
	}
	appendStringInfoString(buf, "</g>\n");
	appendStringInfo(buf, "<g fill=\"none\" stroke=\"#333\">"
					 "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
					 "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/></g>\n",
					 PLOT_LEFT, PCT_TOP, PLOT_RIGHT - PLOT_LEFT, PCT_BOTTOM - PCT_TOP,
					 PLOT_LEFT, RATE_TOP, PLOT_RIGHT - PLOT_LEFT, RATE_BOTTOM - RATE_TOP);

	/* The value axes, labelled at each step (%g: 0.6, not 0.6000000000000001). */
	appendStringInfoString(buf, "<g class=\"axis\" fill=\"#333\" text-anchor=\"end\">\n");
	for (int i = 0; i * sc->pct_step <= sc->pct_top + sc->pct_step / 2; i++)
		appendStringInfo(buf, "<text x=\"%d\" y=\"%.1f\">%g</text>\n",
						 PLOT_LEFT - 6, y_pct(sc, i * sc->pct_step) + 4, i * sc->pct_step);
	for (int i = 0; i * sc->rate_step <= sc->rate_top + sc->rate_step / 2; i++)
		appendStringInfo(buf, "<text x=\"%d\" y=\"%.1f\">%g</text>\n",
						 PLOT_LEFT - 6, y_rate(sc, i * sc->rate_step) + 4, i * sc->rate_step);
	appendStringInfoString(buf, "</g>\n");
	appendStringInfo(buf, "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\" fill=\"#333\">scan %% of raw read</text>\n",
					 (PCT_TOP + PCT_BOTTOM) / 2);
	appendStringInfo(buf, "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\" fill=\"#333\">MB/s</text>\n",
					 (RATE_TOP + RATE_BOTTOM) / 2);
	appendStringInfo(buf, "<text x=\"%d\" y=\"%d\" fill=\"#333\">Scan efficiency, %%, with its 95 %% interval</text>\n",
					 PLOT_LEFT + 4, PCT_TOP - 6);
	appendStringInfo(buf, "<text x=\"%d\" y=\"%d\" fill=\"#333\">Raw read (solid) and executor scan (dashed), MB/s</text>\n",
					 PLOT_LEFT + 4, RATE_TOP - 6);

	/* The time axis: dates over more than three days, else times too. */
	appendStringInfoString(buf, "<g class=\"axis\" fill=\"#333\" text-anchor=\"middle\">\n");
	for (int i = 0; i <= 5; i++)
	{
		appendStringInfo(buf, "<text x=\"%.1f\" y=\"%d\">",
						 PLOT_LEFT + i * (PLOT_RIGHT - PLOT_LEFT) / 5.0, RATE_BOTTOM + 18);
		append_time(buf, sc->tmin + i * (sc->tmax - sc->tmin) / 5.0,
					dates_only, !dates_only);
		appendStringInfoString(buf, "</text>\n");
	}
	appendStringInfoString(buf, "</g>\n");
}

/* A dashed alarm line across panel 1 at pct, labelled at its right end. */
static void
draw_limit(StringInfo buf, const Scales *sc, double pct, const char *color,
		   double width, double label_dy, const char *label)
{
	double		y = y_pct(sc, pct);

	appendStringInfo(buf, "<g class=\"limit\" paint-order=\"stroke\">"
					 "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-dasharray=\"8 4\"/>"
					 "<text x=\"%d\" y=\"%.1f\" fill=\"%s\" stroke=\"white\" stroke-width=\"3\" text-anchor=\"end\">",
					 PLOT_LEFT, y, PLOT_RIGHT, y, color, width,
					 PLOT_RIGHT - 4, y + label_dy, color);
	sb_chart_append_escaped(buf, label);
	appendStringInfoString(buf, "</text></g>\n");
}

/* A run's tooltip: its number, time, figure, interval, verdict and rates. */
static void
append_run_title(StringInfo buf, const SbChartRun *r)
{
	StringInfoData t;

	initStringInfo(&t);
	appendStringInfo(&t, "run " INT64_FORMAT ", ", r->id);
	append_time(&t, r->t, true, true);
	appendStringInfoString(&t, ": ");
	append_figure(&t, r->scan_pct, "not measured");
	appendStringInfoString(&t, " % (");
	append_figure(&t, r->scan_pct_lo, "?");
	appendStringInfoString(&t, "–");
	append_figure(&t, r->scan_pct_hi, "?");
	appendStringInfo(&t, "), %s, read ", r->verdict ? r->verdict : "no verdict");
	append_figure(&t, r->read_mb_s, "?");
	appendStringInfoString(&t, " MB/s, scan ");
	append_figure(&t, r->scan_mb_s, "?");
	appendStringInfoString(&t, " MB/s");
	sb_chart_append_escaped(buf, t.data);
	pfree(t.data);
}

/*
 * A polyline through those of a series' n runs that have the figure: read
 * by get, placed by y.  Nothing when no run has it.
 */
static void
draw_line(StringInfo buf, const Scales *sc, const SbChartRun *runs, int n,
		  double (*get) (const SbChartRun *), double (*y) (const Scales *, double),
		  const char *attrs)
{
	bool		any = false;

	for (int i = 0; i < n; i++)
	{
		double		v = get(&runs[i]);

		if (isnan(v))
			continue;
		appendStringInfoString(buf, any ? " " : "<polyline points=\"");
		appendStringInfo(buf, "%.1f,%.1f", x_of(sc, runs[i].t), y(sc, v));
		any = true;
	}
	if (any)
		appendStringInfo(buf, "\" %s/>\n", attrs);
}

static double
get_scan_pct(const SbChartRun *r)
{
	return r->scan_pct;
}

static double
get_read_mb_s(const SbChartRun *r)
{
	return r->read_mb_s;
}

static double
get_scan_mb_s(const SbChartRun *r)
{
	return r->scan_mb_s;
}

/* One series: band, drop limit, line, points, rates, legend entry. */
static void
draw_series(StringInfo buf, const SbChart *c, const Scales *sc, int s,
			const SbChartRun *runs, int n)
{
	const SbChartSeries *ser = &c->series[s];
	const char *color = series_colors[s % lengthof(series_colors)];
	StringInfoData attrs;
	bool		band = false;

	appendStringInfoString(buf, "<g class=\"series\" data-relation=\"");
	sb_chart_append_escaped(buf, ser->relation);
	appendStringInfoString(buf, "\" data-cache=\"");
	sb_chart_append_escaped(buf, ser->cache);
	appendStringInfoString(buf, "\">\n");

	/* The interval: along the upper ends, back along the lower ones. */
	for (int i = 0; i < n; i++)
	{
		if (isnan(runs[i].scan_pct_lo) || isnan(runs[i].scan_pct_hi))
			continue;
		appendStringInfoString(buf, band ? " " : "<polygon class=\"band\" points=\"");
		appendStringInfo(buf, "%.1f,%.1f", x_of(sc, runs[i].t), y_pct(sc, runs[i].scan_pct_hi));
		band = true;
	}
	for (int i = n - 1; band && i >= 0; i--)
	{
		if (isnan(runs[i].scan_pct_lo) || isnan(runs[i].scan_pct_hi))
			continue;
		appendStringInfo(buf, " %.1f,%.1f", x_of(sc, runs[i].t), y_pct(sc, runs[i].scan_pct_lo));
	}
	if (band)
		appendStringInfo(buf, "\" fill=\"%s\" fill-opacity=\"0.18\" stroke=\"%s\" stroke-opacity=\"0.35\"/>\n",
						 color, color);

	if (!isnan(ser->median_pct))
	{
		char	   *label = psprintf("alarm: %g %% below median %.1f %%",
									 c->max_drop_pct, round1(ser->median_pct));

		draw_limit(buf, sc, ser->median_pct * (1 - c->max_drop_pct / 100),
				   color, 1.2, 14, label);
		pfree(label);
	}

	initStringInfo(&attrs);
	appendStringInfo(&attrs, "fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"", color);
	draw_line(buf, sc, runs, n, get_scan_pct, y_pct, attrs.data);

	/* A point per run; one not measured sits on the axis, hollow. */
	for (int i = 0; i < n; i++)
	{
		const SbChartRun *r = &runs[i];

		CHECK_FOR_INTERRUPTS();
		appendStringInfo(buf, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" data-run=\"" INT64_FORMAT "\"",
						 x_of(sc, r->t), y_pct(sc, isnan(r->scan_pct) ? 0 : r->scan_pct),
						 !isnan(r->scan_pct) && r->judged ? color : "white", color, r->id);
		if (!isnan(r->scan_pct))
		{
			appendStringInfoString(buf, " data-scan-pct=\"");
			append_figure(buf, r->scan_pct, "");
			appendStringInfoChar(buf, '"');
		}
		appendStringInfoString(buf, "><title>");
		append_run_title(buf, r);
		appendStringInfoString(buf, "</title></circle>\n");
	}

	resetStringInfo(&attrs);
	appendStringInfo(&attrs, "class=\"read\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"", color);
	draw_line(buf, sc, runs, n, get_read_mb_s, y_rate, attrs.data);
	resetStringInfo(&attrs);
	appendStringInfo(&attrs, "class=\"scan\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"6 4\"", color);
	draw_line(buf, sc, runs, n, get_scan_mb_s, y_rate, attrs.data);
	for (int i = 0; i < n; i++)
	{
		double		x = x_of(sc, runs[i].t);

		if (isnan(runs[i].read_mb_s) || isnan(runs[i].scan_mb_s))
			continue;
		appendStringInfo(buf, "<circle class=\"rate\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>"
						 "<circle class=\"rate\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"white\" stroke=\"%s\"/>\n",
						 x, y_rate(sc, runs[i].read_mb_s), color,
						 x, y_rate(sc, runs[i].scan_mb_s), color);
	}
	appendStringInfoString(buf, "</g>\n");
	pfree(attrs.data);

	appendStringInfo(buf, "<g class=\"legend\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
					 PLOT_RIGHT + 16, PCT_TOP + s * 22, color,
					 PLOT_RIGHT + 36, PCT_TOP + s * 22 + 12);
	sb_chart_append_escaped(buf, ser->relation);
	appendStringInfoString(buf, " (");
	sb_chart_append_escaped(buf, ser->cache);
	appendStringInfoString(buf, ")</text></g>\n");
}

static int
change_cmp(const void *a, const void *b)
{
	const Change *x = a;
	const Change *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return x->id < y->id ? -1 : (x->id > y->id);
}

/*
 * The changes of facts between consecutive runs of each series, in order
 * of time, drawn over the series so that they stay legible.
 */
static void
draw_changes(StringInfo buf, const SbChart *c, const Scales *sc)
{
	Change	   *changes = palloc(sizeof(Change) * Max(c->nruns, 1));
	int			n = 0;

	for (int i = 1; i < c->nruns; i++)
	{
		const SbChartRun *before = &c->runs[i - 1];
		const SbChartRun *after = &c->runs[i];
		StringInfoData what;

		if (before->series != after->series)
			continue;
		initStringInfo(&what);
		for (int f = 0; f < SB_CHART_NFACTS; f++)
		{
			if (!before->facts[f] || !after->facts[f] ||
				strcmp(before->facts[f], after->facts[f]) == 0)
				continue;
			appendStringInfo(&what, "%s%s %s → %s", what.len ? ", " : "",
							 sb_chart_fact_names[f], before->facts[f], after->facts[f]);
		}
		if (what.len == 0)
		{
			pfree(what.data);
			continue;
		}
		changes[n].t = after->t;
		changes[n].series = after->series;
		changes[n].id = after->id;
		changes[n].what = what.data;
		n++;
	}
	qsort(changes, n, sizeof(Change), change_cmp);

	appendStringInfoString(buf, "<g class=\"changes\" font-size=\"11\" fill=\"#444\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">\n");
	for (int i = 0; i < n; i++)
	{
		double		x = x_of(sc, changes[i].t);

		appendStringInfo(buf, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#777\" stroke-width=\"1\" stroke-dasharray=\"2 3\"/>\n",
						 x, PCT_TOP, x, RATE_BOTTOM);
		appendStringInfo(buf, "<text transform=\"translate(%.1f %d) rotate(90)\">",
						 x + 4, PCT_TOP + 6);
		sb_chart_append_escaped(buf, changes[i].what);
		appendStringInfoString(buf, "</text>\n");
	}
	appendStringInfoString(buf, "</g>\n");
	pfree(changes);
}

static void
draw_key(StringInfo buf)
{
	appendStringInfo(buf, "<g class=\"key\" fill=\"#333\" font-size=\"11\" transform=\"translate(%d %d)\">\n",
					 PLOT_RIGHT + 16, RATE_TOP);
	appendStringInfoString(buf,
						   "<circle cx=\"7\" cy=\"0\" r=\"3.5\" fill=\"#333\"/><text x=\"20\" y=\"4\">a run</text>\n"
						   "<circle cx=\"7\" cy=\"18\" r=\"3.5\" fill=\"white\" stroke=\"#333\" stroke-width=\"1.5\"/><text x=\"20\" y=\"22\">a run not judged</text>\n"
						   "<rect x=\"0\" y=\"30\" width=\"14\" height=\"10\" fill=\"#333\" fill-opacity=\"0.18\"/><text x=\"20\" y=\"40\">95 % interval</text>\n"
						   "<line x1=\"0\" y1=\"54\" x2=\"14\" y2=\"54\" stroke=\"#333\" stroke-dasharray=\"8 4\"/><text x=\"20\" y=\"58\">alarm limit</text>\n"
						   "<line x1=\"0\" y1=\"72\" x2=\"14\" y2=\"72\" stroke=\"#333\" stroke-width=\"1.8\"/><text x=\"20\" y=\"76\">raw read MB/s</text>\n"
						   "<line x1=\"0\" y1=\"90\" x2=\"14\" y2=\"90\" stroke=\"#333\" stroke-width=\"1.8\" stroke-dasharray=\"6 4\"/><text x=\"20\" y=\"94\">scan MB/s</text>\n"
						   "<line x1=\"7\" y1=\"102\" x2=\"7\" y2=\"116\" stroke=\"#777\" stroke-dasharray=\"2 3\"/><text x=\"20\" y=\"112\">storage, kernel or</text><text x=\"20\" y=\"126\">server changed</text>\n"
						   "</g>\n");
}

/* The whole chart as an SVG document, palloc'd. */
char *
sb_chart_svg(const SbChart *c)
{
	StringInfoData buf;
	StringInfoData title;
	Scales		sc;
	int			first;

	initStringInfo(&buf);
	initStringInfo(&title);
	append_title(&title, c);

	appendStringInfo(&buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
					 CHART_W, CHART_H, CHART_W, CHART_H);
	appendStringInfoString(&buf, "<title>");
	sb_chart_append_escaped(&buf, title.data);
	appendStringInfoString(&buf, "</title>\n");
	appendStringInfo(&buf, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", CHART_W, CHART_H);
	appendStringInfo(&buf, "<text x=\"%d\" y=\"28\" font-size=\"17\" font-weight=\"bold\">", PLOT_LEFT);
	sb_chart_append_escaped(&buf, title.data);
	appendStringInfoString(&buf, "</text>\n");

	if (c->nruns == 0)
	{
		appendStringInfo(&buf, "<text x=\"%d\" y=\"%d\" font-size=\"15\" fill=\"#555\">No recorded runs in the last %d days.</text>\n</svg>",
						 PLOT_LEFT, (PCT_TOP + PCT_BOTTOM) / 2, c->days);
		return buf.data;
	}

	compute_scales(c, &sc);
	draw_axes(&buf, &sc);
	if (!isnan(c->min_pct))
	{
		char	   *label = psprintf("alarm below %g %%", c->min_pct);

		draw_limit(&buf, &sc, c->min_pct, "#c00", 1.5, -4, label);
		pfree(label);
	}
	/* The runs come grouped by series: draw each group. */
	first = 0;
	for (int i = 1; i <= c->nruns; i++)
	{
		if (i < c->nruns && c->runs[i].series == c->runs[first].series)
			continue;
		draw_series(&buf, c, &sc, c->runs[first].series, &c->runs[first], i - first);
		first = i;
	}
	draw_changes(&buf, c, &sc);
	draw_key(&buf);
	appendStringInfoString(&buf, "</svg>");
	return buf.data;
}
