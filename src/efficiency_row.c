/*-------------------------------------------------------------------------
 *
 * efficiency_row.c
 *	  The scan_efficiency_result row, from the figures of one server
 *	  (entry/scan_efficiency.c) or of a Citus cluster (citus_cluster.c).
 *
 * One builder for the two paths: a column is added once, here, and the
 * check that every column of the caller's type was filled (rows.c) holds
 * for both.  The result types of earlier versions are served too: a
 * column the caller's type lacks is skipped, and the one difference of
 * meaning is said below (a cluster named in filesystem and device before
 * the type had citus_nodes).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <stddef.h>

#include "utils/timestamp.h"

#include "efficiency_row.h"
#include "rows.h"

/* Everything unmeasured: NULL in the row unless a path fills it. */
void
sb_efficiency_row_init(SbEfficiencyRow *r)
{
	memset(r, 0, sizeof(*r));
	r->read_mb_s = r->scan_mb_s = r->scan_pct = NAN;
	r->read_s = r->scan_s = r->read_cached_pct = r->scan_cached_pct = NAN;
	r->coverage_pct = r->scan_pct_lo = r->scan_pct_hi = NAN;
	r->scan_pct_p10 = r->scan_pct_p90 = r->elapsed_s = r->lock_wait_s = NAN;
	r->cached_pct_start = r->cached_pct_end = NAN;
	r->restored_pct = r->restore_s = NAN;
	r->write_mb_s = r->cpu_wait_s = r->cpu_throttled_s = NAN;
	r->citus_nodes = r->citus_placements = -1;
	r->device_mb_s = r->device_pct = NAN;
	r->device_depth = -1;
	r->measured_at = GetCurrentTimestamp();
	r->settings = (Datum) 0;
}

/* The float columns, and the digits each is rounded to. */
static const struct
{
	const char *name;
	size_t		offset;
	int			digits;
}			float_columns[] =
{
	{"read_mb_s", offsetof(SbEfficiencyRow, read_mb_s), 1},
	{"scan_mb_s", offsetof(SbEfficiencyRow, scan_mb_s), 1},
	{"scan_pct", offsetof(SbEfficiencyRow, scan_pct), 1},
	{"read_s", offsetof(SbEfficiencyRow, read_s), 3},
	{"scan_s", offsetof(SbEfficiencyRow, scan_s), 3},
	{"read_cached_pct", offsetof(SbEfficiencyRow, read_cached_pct), 1},
	{"scan_cached_pct", offsetof(SbEfficiencyRow, scan_cached_pct), 1},
	{"coverage_pct", offsetof(SbEfficiencyRow, coverage_pct), 1},
	{"scan_pct_lo", offsetof(SbEfficiencyRow, scan_pct_lo), 1},
	{"scan_pct_hi", offsetof(SbEfficiencyRow, scan_pct_hi), 1},
	{"scan_pct_p10", offsetof(SbEfficiencyRow, scan_pct_p10), 1},
	{"scan_pct_p90", offsetof(SbEfficiencyRow, scan_pct_p90), 1},
	{"elapsed_s", offsetof(SbEfficiencyRow, elapsed_s), 3},
	{"lock_wait_s", offsetof(SbEfficiencyRow, lock_wait_s), 3},
	{"cached_pct_start", offsetof(SbEfficiencyRow, cached_pct_start), 1},
	{"cached_pct_end", offsetof(SbEfficiencyRow, cached_pct_end), 1},
	{"restored_pct", offsetof(SbEfficiencyRow, restored_pct), 1},
	{"restore_s", offsetof(SbEfficiencyRow, restore_s), 3},
	{"write_mb_s", offsetof(SbEfficiencyRow, write_mb_s), 1},
	{"cpu_wait_s", offsetof(SbEfficiencyRow, cpu_wait_s), 3},
	{"cpu_throttled_s", offsetof(SbEfficiencyRow, cpu_throttled_s), 3},
	{"device_mb_s", offsetof(SbEfficiencyRow, device_mb_s), 1},
	{"device_pct", offsetof(SbEfficiencyRow, device_pct), 1},
};

Datum
sb_efficiency_row(TupleDesc tupdesc, const SbEfficiencyRow *r)
{
	SbRow		row;

	sb_row_init(&row, tupdesc, NULL, 0);
	sb_row_datum(&row, "relation", ObjectIdGetDatum(r->relation));
	sb_row_datum(&row, "bytes", Int64GetDatum(r->bytes));
	sb_row_datum(&row, "rows", Int64GetDatum(r->rows));
	sb_row_text(&row, "cache", r->cache);
	sb_row_datum(&row, "block_size", Int32GetDatum(r->block_size));
	sb_row_datum(&row, "runs", Int32GetDatum(r->runs));
	for (int i = 0; i < lengthof(float_columns); i++)
		sb_row_float(&row, float_columns[i].name,
					 *(const double *) ((const char *) r + float_columns[i].offset),
					 float_columns[i].digits);

	/*
	 * A cluster has no one filesystem; result types before 0.3 have no
	 * citus_nodes, and there the cluster is named in filesystem and device
	 * as it was.
	 */
	if (r->citus_nodes >= 0 && !sb_row_has(&row, "citus_nodes"))
	{
		sb_row_text(&row, "filesystem", "citus");
		sb_row_text(&row, "device", psprintf("%d nodes, %d placements",
											 r->citus_nodes, r->citus_placements));
	}
	else
	{
		sb_row_text(&row, "filesystem", r->filesystem);
		sb_row_text(&row, "device", r->device);
	}
	sb_row_datum(&row, "measured_at", TimestampTzGetDatum(r->measured_at));
	sb_row_text(&row, "method", r->method);
	sb_row_datum(&row, "pairs", Int32GetDatum(r->pairs));
	if (r->verdict)
		sb_row_verdict(&row, "verdict", r->verdict);
	else
		sb_row_null(&row, "verdict");
	if (r->settings)
		sb_row_datum(&row, "settings", r->settings);
	else
		sb_row_null(&row, "settings");

	/* Facts that move the CPU share: a figure is compared under the same. */
	if (r->facts)
	{
		sb_row_datum(&row, "data_checksums", BoolGetDatum(r->facts->data_checksums));
		sb_row_datum(&row, "jit", BoolGetDatum(r->facts->jit));
		sb_row_count(&row, "io_max_combine_limit", r->facts->io_max_combine_limit);
		sb_row_count(&row, "io_workers", r->facts->io_workers);
		sb_row_datum(&row, "server_major", Int32GetDatum(r->facts->server_major));
	}
	else
	{
		sb_row_null(&row, "data_checksums");
		sb_row_null(&row, "jit");
		sb_row_null(&row, "io_max_combine_limit");
		sb_row_null(&row, "io_workers");
		sb_row_null(&row, "server_major");
	}
	sb_row_count(&row, "citus_nodes", r->citus_nodes);
	sb_row_count(&row, "citus_placements", r->citus_placements);
	sb_row_count(&row, "device_depth", r->device_depth);
	if (r->limits)
		sb_row_limits(&row, r->limits);
	else
	{
		SbCgroupLimits none;

		memset(&none, 0, sizeof(none));
		none.cpu_quota_us = none.cpu_period_us = -1;
		none.read_bps = none.write_bps = none.read_iops = none.write_iops = -1;
		sb_row_limits(&row, &none);
	}
	return sb_row_result(&row);
}
