/*-------------------------------------------------------------------------
 *
 * scan_history.c
 *	  What the run history needs from C: the kernel release
 *	  (scan_history_kernel), the refusal to run efficiency_check inside
 *	  a transaction block (scan_history_outside_block), the chart
 *	  (scan_history_svg) and the verdict's marks (scan_verdict_marks).
 *	  Recording a row is the engine's (history_record.c), and so is
 *	  drawing the chart (chart.c).
 *
 * The history itself (table, checks, trend, metrics) is SQL in the
 * install script; the device facts of a run come from storage_info().
 * Only what SQL cannot reach or does not read well in lives here: a
 * kernel upgrade moves scan efficiency like a scheduler change does, and
 * a role that runs the check cannot read /proc through pg_read_file; a
 * picture is geometry, which reads better as C than as string
 * concatenation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/utsname.h>

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "argcheck.h"
#include "chart.h"
#include "fnargs.h"
#include "history_record.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(scan_history_kernel);
PG_FUNCTION_INFO_V1(scan_history_outside_block);
PG_FUNCTION_INFO_V1(scan_history_in_block);
PG_FUNCTION_INFO_V1(scan_history_svg);
PG_FUNCTION_INFO_V1(scan_verdict_marks);
PG_FUNCTION_INFO_V1(scan_history_marks);

/*
 * scan_verdict_marks() -> (mark, judged, reads_judged, compared_apart,
 * meaning): the verdict's marks from the one table of them (verdict.c),
 * which the history's SQL, the fleet and the documentation check read
 * instead of a copy of the list.
 */
Datum
scan_verdict_marks(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			i;

	sb_init_srf(fcinfo);
	for (i = 0; i < sb_mark_count(); i++)
	{
		const SbMarkInfo *m = sb_mark_info(i);
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};

		values[0] = CStringGetTextDatum(m->name);
		values[1] = BoolGetDatum(m->judged);
		values[2] = BoolGetDatum(m->reads_judged);
		values[3] = BoolGetDatum(m->apart);
		values[4] = CStringGetTextDatum(m->meaning);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * scanbench_internal.scan_history_marks(verdict text[]) -> text: NULL for a
 * verdict with a mark that is not judged, else the marks runs are compared
 * apart under, in the verdict's order, joined by commas ('' for none; a
 * NULL verdict is ''); names not in the table are left out.  It runs for
 * every row the judge, the trend and the metrics read: from verdict.c's
 * table directly, without the set of scan_verdict_marks() for each row.
 */
Datum
scan_history_marks(PG_FUNCTION_ARGS)
{
	ArrayType  *a;
	Datum	   *elems;
	bool	   *enulls;
	int			n;
	StringInfoData out;
	bool		any = false;

	if (PG_ARGISNULL(0))
		PG_RETURN_TEXT_P(cstring_to_text(""));
	a = PG_GETARG_ARRAYTYPE_P(0);
	deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &n);
	initStringInfo(&out);
	for (int i = 0; i < n; i++)
	{
		char	   *v;

		if (enulls[i])
			continue;
		v = TextDatumGetCString(elems[i]);
		for (int k = 0; k < sb_mark_count(); k++)
		{
			const SbMarkInfo *m = sb_mark_info(k);

			if (strcmp(m->name, v) != 0)
				continue;
			if (!m->judged)
				PG_RETURN_NULL();
			if (m->apart)
			{
				if (any)
					appendStringInfoChar(&out, ',');
				appendStringInfoString(&out, v);
				any = true;
			}
		}
		pfree(v);
	}
	PG_RETURN_TEXT_P(cstring_to_text(out.data));
}

/* scan_history_kernel() -> text: uname -r, or NULL where it fails. */
Datum
scan_history_kernel(PG_FUNCTION_ARGS)
{
	struct utsname u;

	if (uname(&u) != 0)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(u.release));
}

/*
 * scan_history_outside_block() -> void: efficiency_check commits the run it
 * recorded before it judges it, so that an alarm does not roll the run
 * back; inside a transaction block that COMMIT would fail after the whole
 * measurement with "invalid transaction termination".  Say it first, and
 * plainly.
 */
Datum
scan_history_outside_block(PG_FUNCTION_ARGS)
{
	if (IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("efficiency_check cannot run inside a transaction block"),
				 errdetail("It commits the run it recorded before judging it, so that an alarm does not undo the record."),
				 errhint("CALL it on its own, as psql -c and pg_cron do.")));
	/* Nor can it record on a standby or without the grants: say so now. */
	sb_history_check_record(sb_history_schema(), "efficiency_check");
	PG_RETURN_VOID();
}

/*
 * scan_history_in_block() -> boolean: whether the caller is inside a
 * transaction block, where a procedure cannot commit.  page_costs_check
 * asks it before it measures, and says so in its own words; the rest of
 * what it checks first (a standby, a read-only transaction, its grants)
 * SQL can ask.
 */
Datum
scan_history_in_block(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(IsTransactionBlock());
}

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
 * scan_history_svg(rel regclass, cache text, days integer, min_pct float8,
 * max_drop_pct float8) -> text: the history of one relation (or all) in
 * one cache mode (or all) over the last days, as an SVG document.  The
 * arguments are checked before the history is read; the limits by the
 * check efficiency_check and scan_history_judge use, so that all three
 * refuse the same values.
 */
Datum
scan_history_svg(PG_FUNCTION_ARGS)
{
	/* The history's schema: the extension's, where this function is too. */
	const char *nsp = quote_identifier(get_namespace_name(sb_history_schema()));
	MemoryContext outer = CurrentMemoryContext;
	SbChart		chart = {0};
	char	   *want_schema = NULL;
	char	   *want_name = NULL;
	char	   *svg;

	if (PG_ARGISNULL(2) || PG_GETARG_INT32(2) < 1 || PG_GETARG_INT32(2) > 36600)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("days must be from 1 to 36600, not %s",
						PG_ARGISNULL(2) ? "NULL" : psprintf("%d", PG_GETARG_INT32(2)))));
	chart.days = PG_GETARG_INT32(2);
	if (!PG_ARGISNULL(1))
		chart.cache = sb_parse_history_cache(PG_GETARG_TEXT_PP(1));
	chart.min_pct = PG_ARGISNULL(3) ? NAN : PG_GETARG_FLOAT8(3);
	chart.max_drop_pct = PG_ARGISNULL(4) ? 20 : PG_GETARG_FLOAT8(4);

	if (!PG_ARGISNULL(0))
	{
		Oid			relid = PG_GETARG_OID(0);

		want_name = get_rel_name(relid);
		if (want_name == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", relid)));
		want_schema = get_namespace_name(get_rel_namespace(relid));
		chart.relation = psprintf("%s.%s", quote_identifier(want_schema),
								  quote_identifier(want_name));
	}

	SPI_connect();
	{
		Oid			argtypes[3] = {FLOAT8OID, FLOAT8OID, INT4OID};
		Datum		args[3];
		char		nulls[3] = {' ', ' ', ' '};

		args[0] = Float8GetDatum(chart.min_pct);
		nulls[0] = isnan(chart.min_pct) ? 'n' : ' ';
		args[1] = Float8GetDatum(chart.max_drop_pct);
		args[2] = Int32GetDatum(chart.days);
		if (SPI_execute_with_args("SELECT scanbench_internal.scan_history_check_limits($1, $2, NULL, NULL, $3)",
								  3, argtypes, args, nulls, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "scan_history_svg: checking the limits failed");
	}
	{
		Oid			history = get_relname_relid("scan_history", sb_history_schema());
		bool		by_server = OidIsValid(history) &&
			get_attnum(history, "server") != InvalidAttrNumber;

		read_chart_runs(&chart, nsp, by_server, want_schema, want_name, chart.days, outer);
	}
	read_chart_medians(&chart);
	SPI_finish();

	svg = sb_chart_svg(&chart);
	PG_RETURN_TEXT_P(cstring_to_text(svg));
}
