/*-------------------------------------------------------------------------
 *
 * scan_history.c
 *	  What the run history needs from C: the kernel release
 *	  (scan_history_kernel), the refusal to run efficiency_check inside
 *	  a transaction block (scan_history_outside_block), the chart
 *	  (scan_history_svg) and the verdict's marks (scan_verdict_marks).
 *	  Recording a row is the engine's (history_record.c), and so are
 *	  reading the chart's runs (chart_runs.c) and drawing it (chart.c).
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
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "argcheck.h"
#include "chart.h"
#include "chart_runs.h"
#include "fnargs.h"
#include "history_record.h"
#include "verdict.h"

PG_FUNCTION_INFO_V1(scan_history_kernel);
PG_FUNCTION_INFO_V1(scan_history_outside_block);
PG_FUNCTION_INFO_V1(scan_history_in_block);
PG_FUNCTION_INFO_V1(scan_history_svg);
PG_FUNCTION_INFO_V1(scan_verdict_marks);
PG_FUNCTION_INFO_V1(scan_history_marks);
PG_FUNCTION_INFO_V1(scan_history_usable);

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

	sb_chart_read(&chart, nsp, want_schema, want_name);

	svg = sb_chart_svg(&chart);
	PG_RETURN_TEXT_P(cstring_to_text(svg));
}

/*
 * scanbench_internal.scan_history_usable(scan_pct float8) -> boolean: true
 * for a figure a judgement can use, finite and from 0 to 10000 %; false
 * for NULL.  It runs for every run the judges, the series and the
 * metrics read (a night's window is 30 runs a series): in SQL it was a
 * call of its own for each, about 3 us a run, a second of a night of
 * 10,000 runs.
 */
Datum
scan_history_usable(PG_FUNCTION_ARGS)
{
	float8		pct;

	if (PG_ARGISNULL(0))
		PG_RETURN_BOOL(false);
	pct = PG_GETARG_FLOAT8(0);
	PG_RETURN_BOOL(pct >= 0.0 && pct <= 10000.0);
}
