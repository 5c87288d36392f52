/*-------------------------------------------------------------------------
 *
 * efficiency_row.h
 *	  The scan_efficiency_result row, built in one place from what either
 *	  path measured, one server or a Citus cluster (efficiency_row.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_EFFICIENCY_ROW_H
#define SCANBENCH_EFFICIENCY_ROW_H

#include "access/tupdesc.h"
#include "utils/timestamp.h"

#include "cgroup.h"
#include "settings.h"
#include "verdict.h"

/*
 * Every column of scan_efficiency_result.  A NaN float, a NULL pointer and
 * a negative count are NULL in the row: what a path does not measure is
 * said here, field by field, so that a column added to the type and
 * forgotten by a path is an error (rows.c), never a silent NULL.
 */
typedef struct SbEfficiencyRow
{
	Oid			relation;
	int64		bytes;
	int64		rows;
	const char *cache;
	int32		block_size;
	int32		runs;
	double		read_mb_s;
	double		scan_mb_s;
	double		scan_pct;
	double		read_s;
	double		scan_s;
	double		read_cached_pct;
	double		scan_cached_pct;
	const char *filesystem;
	const char *device;
	TimestampTz measured_at;
	const char *method;
	int32		pairs;
	double		coverage_pct;
	double		scan_pct_lo;
	double		scan_pct_hi;
	double		scan_pct_p10;
	double		scan_pct_p90;
	double		elapsed_s;
	double		lock_wait_s;
	double		cached_pct_start;
	double		cached_pct_end;
	double		restored_pct;
	double		restore_s;
	const SbVerdict *verdict;	/* NULL: nothing to judge */
	Datum		settings;		/* jsonb */
	const SbServerFacts *facts; /* NULL: not one server's */
	int32		citus_nodes;	/* < 0: one server */
	int32		citus_placements;
	double		write_mb_s;
	double		cpu_wait_s;
	double		cpu_throttled_s;
	const SbCgroupLimits *limits;	/* NULL: not one server's */
	double		device_mb_s;
	double		device_pct;
	int32		device_depth;	/* < 0: not measured */
} SbEfficiencyRow;

extern void sb_efficiency_row_init(SbEfficiencyRow *r);
extern Datum sb_efficiency_row(TupleDesc tupdesc, const SbEfficiencyRow *r);

#endif							/* SCANBENCH_EFFICIENCY_ROW_H */
