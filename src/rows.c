/*-------------------------------------------------------------------------
 *
 * rows.c
 *	  Result rows of the SQL functions, built column by column in the
 *	  order of the result type; the count is checked against the type so
 *	  that a column added to one and not the other fails loudly.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "measure.h"

void
sb_row_datum(SbRow *row, Datum d)
{
	if (row->n >= SB_ROW_MAX_COLUMNS)
		elog(ERROR, "scanbench result row has more than %d columns",
			 SB_ROW_MAX_COLUMNS);
	row->values[row->n] = d;
	row->nulls[row->n] = false;
	row->n++;
}

void
sb_row_null(SbRow *row)
{
	sb_row_datum(row, (Datum) 0);
	row->nulls[row->n - 1] = true;
}

void
sb_row_float(SbRow *row, double v, int digits)
{
	if (isnan(v))
		sb_row_null(row);
	else
		sb_row_datum(row, Float8GetDatum(sb_round(v, digits)));
}

void
sb_row_text(SbRow *row, const char *s)
{
	if (s == NULL)
		sb_row_null(row);
	else
		sb_row_datum(row, CStringGetTextDatum(s));
}

void
sb_row_timing(SbRow *row, SbTiming *t)
{
	sb_row_float(row, t->user_s, 3);
	sb_row_float(row, t->sys_s, 3);
}

/*
 * The I/O workers' CPU over a scan, user then system; NULL where there
 * are none (before PostgreSQL 18, io_method other than worker) or /proc
 * could not be read.
 */
void
sb_row_io_workers(SbRow *row, SbProcDelta *procs)
{
	if (procs->io_workers.cpu_ok)
	{
		sb_row_float(row, procs->io_workers.user_s, 3);
		sb_row_float(row, procs->io_workers.sys_s, 3);
	}
	else
	{
		sb_row_null(row);
		sb_row_null(row);
	}
}

TupleDesc
sb_result_tupdesc(FunctionCallInfo fcinfo)
{
	TupleDesc	tupdesc;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	return BlessTupleDesc(tupdesc);
}

Datum
sb_row_result(TupleDesc tupdesc, SbRow *row)
{
	if (row->n != tupdesc->natts)
		elog(ERROR, "scanbench built %d columns for a %d-column result",
			 row->n, tupdesc->natts);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, row->values, row->nulls));
}

/*
 * Rows filled by column name: see SbNamedRow in measure.h.
 */
void
sb_named_row_init(SbNamedRow *row, TupleDesc tupdesc)
{
	int			i;

	row->tupdesc = tupdesc;
	row->values = palloc0(sizeof(Datum) * tupdesc->natts);
	row->nulls = palloc(sizeof(bool) * tupdesc->natts);
	for (i = 0; i < tupdesc->natts; i++)
		row->nulls[i] = true;
}

void
sb_named_row_set(SbNamedRow *row, const char *name, Datum value)
{
	int			i;

	for (i = 0; i < row->tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(row->tupdesc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
		{
			row->values[i] = value;
			row->nulls[i] = false;
			return;
		}
	}
}

void
sb_named_row_float(SbNamedRow *row, const char *name, double v, int digits)
{
	if (!isnan(v))
		sb_named_row_set(row, name, Float8GetDatum(sb_round(v, digits)));
}
