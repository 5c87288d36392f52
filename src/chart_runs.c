/*-------------------------------------------------------------------------
 *
 * chart_runs.c
 *	  The runs scan_history_svg() draws, read from the history with SPI:
 *	  the limits checked by the history's own check, each run's figures
 *	  and facts, and the median each series' latest judged run is held
 *	  against (chart.c draws them).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "chart.h"
#include "chart_runs.h"
#include "history_record.h"

/* A float8 column of the SPI result, NaN where NULL. */
static double
spi_float8(HeapTuple tup, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, SPI_tuptable->tupdesc, col, &isnull);

	return isnull ? NAN : DatumGetFloat8(d);
}

/*
 * The runs the chart draws, in order of series (server, relation and cache
 * mode), time and run number, read from the history in schema nsp (the
 * helpers are scanbench_internal's).  A fleet's runs in a central history
 * are a series per server, named with it, as the judge names them; a
 * history from before the fleet's columns (a 0.2 definition) has this
 * server's runs only.  The strings are allocated in the caller's context
 * (SPI_getvalue allocates in the current one, which is switched to it
 * here).
 */
static void
read_chart_runs(SbChart *c, const char *nsp, bool by_server, const char *want_schema,
				const char *want_name, int days, MemoryContext outer)
{
	const char *server = by_server ? "h.server" : "NULL::text";

	Oid			argtypes[4] = {TEXTOID, TEXTOID, TEXTOID, INT4OID};
	Datum		args[4];
	char		nulls[4] = {' ', ' ', ' ', ' '};
	char	   *query;
	MemoryContext spi;

	args[0] = want_schema ? CStringGetTextDatum(want_schema) : (Datum) 0;
	args[1] = want_name ? CStringGetTextDatum(want_name) : (Datum) 0;
	args[2] = c->cache ? CStringGetTextDatum(c->cache) : (Datum) 0;
	args[3] = Int32GetDatum(days);
	nulls[0] = want_schema ? ' ' : 'n';
	nulls[1] = want_name ? ' ' : 'n';
	nulls[2] = c->cache ? ' ' : 'n';

	/* Columns 13-18 are the facts, in sb_chart_fact_names' order. */
	query = psprintf("SELECT h.id, extract(epoch FROM h.measured_at)::float8,"
					 " dense_rank() OVER (ORDER BY %s NULLS FIRST, h.relschema, h.relname, h.cache)::int4,"
					 " quote_ident(h.relschema) || '.' || quote_ident(h.relname)"
					 " || coalesce(' on ' || %s, ''), h.cache,"
					 " h.scan_pct, h.scan_pct_lo, h.scan_pct_hi, h.read_mb_s, h.scan_mb_s,"
					 " array_to_string(h.verdict, ','),"
					 " scanbench_internal.scan_history_marks(h.verdict) IS NOT NULL,"
					 " h.filesystem, h.device, h.scheduler, h.read_ahead_kb::text, h.kernel,"
					 " split_part(h.server_version, ' ', 1)"
					 " FROM %s.scan_history h"
					 " WHERE ($1 IS NULL OR (h.relschema = $1 AND h.relname = $2))"
					 " AND ($3 IS NULL OR h.cache = $3)"
					 " AND h.measured_at > now() - make_interval(days => $4)"
	/*
	 * Rows kept from before the history checked its figures may hold an
	 * infinite time or a NaN or 1e308: one of them would put every point
	 * of the chart at NaN, so they are not drawn (the CHECK constraints
	 * keep any new one out).  The ranges are the constraints', written
	 * here so that a 0.3 definition, without the helpers, draws too.
	 */
					 " AND isfinite(h.measured_at)"
					 " AND (h.scan_pct IS NULL OR (h.scan_pct >= 0 AND h.scan_pct <= 10000))"
					 " AND (h.scan_pct_lo IS NULL OR (h.scan_pct_lo >= 0 AND h.scan_pct_lo <= 10000))"
					 " AND (h.scan_pct_hi IS NULL OR (h.scan_pct_hi >= 0 AND h.scan_pct_hi <= 10000))"
					 " AND (h.read_mb_s IS NULL OR (h.read_mb_s >= 0 AND h.read_mb_s <= 1e9))"
					 " AND (h.scan_mb_s IS NULL OR (h.scan_mb_s >= 0 AND h.scan_mb_s <= 1e9))"
					 " ORDER BY 3, h.measured_at, h.id", server, server, nsp);
	if (SPI_execute_with_args(query, 4, argtypes, args, nulls, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "scan_history_svg: reading the history failed");

	spi = MemoryContextSwitchTo(outer);
	c->nruns = (int) SPI_processed;
	c->runs = palloc0(sizeof(SbChartRun) * Max(c->nruns, 1));
	c->series = palloc0(sizeof(SbChartSeries) * Max(c->nruns, 1));
	c->nseries = 0;
	for (int i = 0; i < c->nruns; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		TupleDesc	td = SPI_tuptable->tupdesc;
		SbChartRun *r = &c->runs[i];
		bool		isnull;
		char	   *verdict;

		CHECK_FOR_INTERRUPTS();
		r->id = DatumGetInt64(SPI_getbinval(tup, td, 1, &isnull));
		r->t = spi_float8(tup, 2);
		r->series = DatumGetInt32(SPI_getbinval(tup, td, 3, &isnull)) - 1;
		if (r->series >= c->nseries)
		{
			c->series[r->series].relation = SPI_getvalue(tup, td, 4);
			c->series[r->series].cache = SPI_getvalue(tup, td, 5);
			c->series[r->series].median_pct = NAN;
			c->nseries = r->series + 1;
		}
		r->scan_pct = spi_float8(tup, 6);
		r->scan_pct_lo = spi_float8(tup, 7);
		r->scan_pct_hi = spi_float8(tup, 8);
		r->read_mb_s = spi_float8(tup, 9);
		r->scan_mb_s = spi_float8(tup, 10);
		verdict = SPI_getvalue(tup, td, 11);
		r->verdict = verdict;
		r->judged = DatumGetBool(SPI_getbinval(tup, td, 12, &isnull));
		for (int f = 0; f < SB_CHART_NFACTS; f++)
			r->facts[f] = SPI_getvalue(tup, td, 13 + f);
	}
	MemoryContextSwitchTo(spi);
}

/*
 * Each series' alarm line is drawn at the median its latest judged run is
 * compared with: the one median the judge, the trend and the metrics show
 * (scan_history_median).
 */
static void
read_chart_medians(SbChart *c)
{
	const char *query = "SELECT median_pct FROM scanbench_internal.scan_history_median($1)";
	SPIPlanPtr	plan;
	Oid			argtypes[1] = {INT8OID};

	plan = SPI_prepare(query, 1, argtypes);
	if (plan == NULL)
		elog(ERROR, "scan_history_svg: preparing the median failed");
	for (int s = 0; s < c->nseries; s++)
	{
		const SbChartRun *latest = NULL;
		Datum		arg;

		for (int i = 0; i < c->nruns; i++)
		{
			const SbChartRun *r = &c->runs[i];

			/* in time order within a series: the last one wins */
			if (r->series == s && r->judged && !isnan(r->scan_pct))
				latest = r;
		}
		if (latest == NULL)
			continue;
		arg = Int64GetDatum(latest->id);
		if (SPI_execute_plan(plan, &arg, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "scan_history_svg: reading the median failed");
		if (SPI_processed == 1)
			c->series[s].median_pct = spi_float8(SPI_tuptable->vals[0], 1);
	}
}

/*
 * The chart's runs and medians, from the history in schema nsp (quoted),
 * of want_schema.want_name (NULL: every relation); the chart's limits
 * checked first.  Allocated in the caller's context.
 */
void
sb_chart_read(SbChart *chart, const char *nsp, const char *want_schema,
			  const char *want_name)
{
	MemoryContext outer = CurrentMemoryContext;

	SPI_connect();
	{
		Oid			argtypes[3] = {FLOAT8OID, FLOAT8OID, INT4OID};
		Datum		args[3];
		char		nulls[3] = {' ', ' ', ' '};

		args[0] = Float8GetDatum(chart->min_pct);
		nulls[0] = isnan(chart->min_pct) ? 'n' : ' ';
		args[1] = Float8GetDatum(chart->max_drop_pct);
		args[2] = Int32GetDatum(chart->days);
		if (SPI_execute_with_args("SELECT scanbench_internal.scan_history_check_limits($1, $2, NULL, NULL, $3)",
								  3, argtypes, args, nulls, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "scan_history_svg: checking the limits failed");
	}
	{
		Oid			history = get_relname_relid("scan_history", sb_history_schema());
		bool		by_server = OidIsValid(history) &&
			get_attnum(history, "server") != InvalidAttrNumber;

		read_chart_runs(chart, nsp, by_server, want_schema, want_name, chart->days, outer);
	}
	read_chart_medians(chart);
	SPI_finish();
}
