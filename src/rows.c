/*-------------------------------------------------------------------------
 *
 * rows.c
 *	  Result rows of the SQL functions, filled by column name from the
 *	  result type the caller's SQL definition declares.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"

#include "cgroup.h"
#include "rows.h"
#include "stats.h"

/*
 * A row is filled by column name, never by position: the library serves
 * the result types of every earlier version of the extension (a database
 * not yet at ALTER EXTENSION UPDATE still has them), so a column the
 * caller's type lacks is skipped, and one a type has but nobody filled is
 * an error rather than a silent NULL or a shifted value.
 */
void
sb_row_init(SbRow *row, TupleDesc tupdesc, const SbRenamed *renamed,
			int nrenamed)
{
	int			i;

	row->tupdesc = tupdesc;
	row->renamed = renamed;
	row->nrenamed = nrenamed;
	row->values = palloc0(sizeof(Datum) * Max(tupdesc->natts, 1));
	row->nulls = palloc(sizeof(bool) * Max(tupdesc->natts, 1));
	row->filled = palloc0(sizeof(bool) * Max(tupdesc->natts, 1));
	for (i = 0; i < tupdesc->natts; i++)
		row->nulls[i] = true;
}

static int
column_named(SbRow *row, const char *name)
{
	int			i;

	for (i = 0; i < row->tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(row->tupdesc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i;
	}
	return -1;
}

/*
 * The attribute index of a column, under its old name in an older result
 * type, or -1 where this result type lacks it.
 */
static int
row_column(SbRow *row, const char *name)
{
	int			i = column_named(row, name);

	if (i >= 0)
		return i;
	for (int r = 0; r < row->nrenamed; r++)
		if (strcmp(row->renamed[r].name, name) == 0)
			return column_named(row, row->renamed[r].old_name);
	return -1;
}

bool
sb_row_has(SbRow *row, const char *name)
{
	return row_column(row, name) >= 0;
}

/* The type of a column, or InvalidOid where this result type lacks it. */
Oid
sb_row_type(SbRow *row, const char *name)
{
	int			i = row_column(row, name);

	return i < 0 ? InvalidOid : TupleDescAttr(row->tupdesc, i)->atttypid;
}

void
sb_row_datum(SbRow *row, const char *name, Datum d)
{
	int			i = row_column(row, name);

	if (i < 0)
		return;
	row->values[i] = d;
	row->nulls[i] = false;
	row->filled[i] = true;
}

void
sb_row_null(SbRow *row, const char *name)
{
	int			i = row_column(row, name);

	if (i < 0)
		return;
	row->nulls[i] = true;
	row->filled[i] = true;
}

void
sb_row_float(SbRow *row, const char *name, double v, int digits)
{
	if (isnan(v))
		sb_row_null(row, name);
	else
		sb_row_datum(row, name, Float8GetDatum(sb_round(v, digits)));
}

/* A float as computed, unrounded (a judge's figure); NaN is NULL. */
void
sb_row_exact(SbRow *row, const char *name, double v)
{
	if (isnan(v))
		sb_row_null(row, name);
	else
		sb_row_datum(row, name, Float8GetDatum(v));
}

void
sb_row_text(SbRow *row, const char *name, const char *s)
{
	if (s == NULL)
		sb_row_null(row, name);
	else
		sb_row_datum(row, name, CStringGetTextDatum(s));
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
		sb_row_float(row, "io_worker_user_s", procs->io_workers.user_s, 3);
		sb_row_float(row, "io_worker_sys_s", procs->io_workers.sys_s, 3);
	}
	else
	{
		sb_row_null(row, "io_worker_user_s");
		sb_row_null(row, "io_worker_sys_s");
	}
}

/* The row as a tuple of its type; every live column must have been filled. */
HeapTuple
sb_row_tuple(SbRow *row)
{
	int			i;

	for (i = 0; i < row->tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(row->tupdesc, i);

		if (!att->attisdropped && !row->filled[i])
			elog(ERROR, "scanbench filled no value for column \"%s\" of its result",
				 NameStr(att->attname));
	}
	return heap_form_tuple(row->tupdesc, row->values, row->nulls);
}

Datum
sb_row_result(SbRow *row)
{
	return HeapTupleGetDatum(sb_row_tuple(row));
}

/*
 * A count or a limit (bytes, IOPS, microseconds), in the column's own
 * integer type; NULL where it is negative: none applies, or none was
 * counted.
 */
void
sb_row_count(SbRow *row, const char *name, int64 v)
{
	if (v < 0)
		sb_row_null(row, name);
	else if (sb_row_type(row, name) == INT4OID)
		sb_row_datum(row, name, Int32GetDatum((int32) v));
	else
		sb_row_datum(row, name, Int64GetDatum(v));
}

/* The limits of the server's control groups, as storage_info shows them. */
void
sb_row_limits(SbRow *row, const SbCgroupLimits *l)
{
	sb_row_count(row, "cpu_quota_us", l->cpu_quota_us);
	sb_row_count(row, "cpu_period_us", l->cpu_period_us);
	sb_row_count(row, "read_bps_limit", l->read_bps);
	sb_row_count(row, "write_bps_limit", l->write_bps);
	sb_row_count(row, "read_iops_limit", l->read_iops);
	sb_row_count(row, "write_iops_limit", l->write_iops);
}
