/*-------------------------------------------------------------------------
 *
 * rows.h
 *	  Result rows filled by column name; a column the result type lacks (an
 *	  earlier version's type) is skipped, a NaN float becomes NULL
 *	  (rows.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_ROWS_H
#define SCANBENCH_ROWS_H

#include "access/htup.h"
#include "access/tupdesc.h"

#include "procstat.h"

/*
 * A column of a result type that an earlier version of the extension
 * named otherwise: a database not yet at ALTER EXTENSION UPDATE has the
 * type under the old name, and gets the value there.  Each row builder
 * keeps its type's list beside it.
 */
typedef struct SbRenamed
{
	const char *name;
	const char *old_name;
} SbRenamed;

typedef struct SbRow
{
	TupleDesc	tupdesc;
	const SbRenamed *renamed;	/* this result type's, or NULL */
	int			nrenamed;
	Datum	   *values;
	bool	   *nulls;
	bool	   *filled;
} SbRow;

extern void sb_row_init(SbRow *row, TupleDesc tupdesc,
						const SbRenamed *renamed, int nrenamed);
extern bool sb_row_has(SbRow *row, const char *name);
extern Oid	sb_row_type(SbRow *row, const char *name);
extern void sb_row_datum(SbRow *row, const char *name, Datum d);
extern void sb_row_null(SbRow *row, const char *name);
extern void sb_row_float(SbRow *row, const char *name, double v, int digits);
extern void sb_row_exact(SbRow *row, const char *name, double v);
extern void sb_row_text(SbRow *row, const char *name, const char *s);
extern void sb_row_count(SbRow *row, const char *name, int64 v);
extern void sb_row_io_workers(SbRow *row, SbProcDelta *procs);
struct SbCgroupLimits;
extern void sb_row_limits(SbRow *row, const struct SbCgroupLimits *l);
extern HeapTuple sb_row_tuple(SbRow *row);
extern Datum sb_row_result(SbRow *row);

#endif							/* SCANBENCH_ROWS_H */
