/*
 * measure.c: what each server is asked, and the history's columns.
 *
 * A server's measurement comes back as one row whose columns are named as
 * scan_history's, computed on the server measured (its storage_info, its
 * kernel, its settings) exactly as scan_history_record computes them there,
 * so that a run kept centrally reads like a run kept locally.  The fleet
 * adds the server's identity and, for a row that could not be measured,
 * the reason.  Columns are copied by name, so the history can gain columns
 * without this program changing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "measure.h"
#include "options.h"
#include "xalloc.h"

/* The columns the fleet writes, measured first, then the identity. */
const char *const history_columns[] = {
	"measured_at", "relid", "relschema", "relname", "cache", "bytes", "rows",
	"block_size", "runs", "read_mb_s", "scan_mb_s", "scan_pct", "scan_pct_lo",
	"scan_pct_hi", "scan_pct_p10", "scan_pct_p90", "read_s", "scan_s",
	"read_cached_pct", "scan_cached_pct", "method", "pairs", "coverage_pct",
	"elapsed_s", "verdict", "write_mb_s", "filesystem", "device", "scheduler",
	"read_ahead_kb", "kernel", "server_version", "settings", "cpu_wait_s",
	"cpu_throttled_s", "cpu_quota_us", "cpu_period_us", "read_bps_limit",
	"write_bps_limit", "read_iops_limit", "write_iops_limit",
	/* who measured it: the fleet's own */
	"server", "system_identifier", "server_host", "server_port", "server_role",
	"tags", "reason",
	NULL
};
int			history_ncolumns = (int) (sizeof(history_columns) / sizeof(history_columns[0])) - 1;

int
history_column(const char *name)
{
	for (int i = 0; i < history_ncolumns; i++)
		if (strcmp(history_columns[i], name) == 0)
			return i;
	return -1;
}

/*
 * Who the server is.  Needs no extension: a server without scanbench, or
 * with another version, still says who it is, and its row says why it was
 * not measured.
 */
const char *
identity_query(void)
{
	return
		"SELECT (SELECT system_identifier FROM pg_catalog.pg_control_system()) AS system_identifier,\n"
		"       CASE WHEN pg_catalog.pg_is_in_recovery() THEN 'standby' ELSE 'primary' END AS server_role,\n"
		"       pg_catalog.current_setting('server_version') AS server_version,\n"
		"       (SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e\n"
		"          JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace\n"
		"         WHERE e.extname = 'scanbench') AS schema,\n"
		"       (SELECT e.extversion FROM pg_catalog.pg_extension e\n"
		"         WHERE e.extname = 'scanbench') AS extversion";
}

/*
 * The session's limits: a measurement that takes longer than --timeout is
 * ended by the server itself (statement_timeout), so that a client that
 * dies leaves no call running for long either.  The notices and warnings
 * scan_efficiency raises are in its verdict, which the report shows: for
 * forty servers they would only bury the errors on stderr.
 */
char *
session_setup(const Options *opt)
{
	return xprintf("SET statement_timeout = %.0f; SET lock_timeout = %.0f; "
				   "SET client_min_messages = error",
				   opt->timeout * 1000.0, opt->timeout * 1000.0);
}

/*
 * scan_efficiency on $1 with the options, record => false (the fleet
 * records centrally, and a standby could not), as a history row.  $1 rel,
 * $2 cache, $3 sample, $4 max_seconds, $5 target_pct, $6 restore.
 */
char *
measure_query(const char *s)
{
	/*
	 * The comment first: pg_stat_activity shows the start of a query, and
	 * says so which sessions are this program's measurements.
	 */
	return xprintf(
		"/* " FLEET_NAME ": scan_efficiency */\n"
		"SELECT pg_catalog.statement_timestamp() AS measured_at, c.oid AS relid,\n"
		"       n.nspname AS relschema, c.relname, r.cache, r.bytes, r.rows, r.block_size,\n"
		"       r.runs, r.read_mb_s, r.scan_mb_s, r.scan_pct, r.scan_pct_lo, r.scan_pct_hi,\n"
		"       r.scan_pct_p10, r.scan_pct_p90, r.read_s, r.scan_s, r.read_cached_pct,\n"
		"       r.scan_cached_pct, r.method, r.pairs, r.coverage_pct, r.elapsed_s,\n"
		"       r.verdict, r.write_mb_s, r.filesystem, r.device, st.scheduler,\n"
		"       st.read_ahead_kb, scanbench_internal.scan_history_kernel() AS kernel,\n"
		"       pg_catalog.current_setting('server_version') AS server_version,\n"
		"       coalesce(r.settings,\n"
		"                (SELECT pg_catalog.jsonb_object_agg(g.name, pg_catalog.current_setting(g.name))\n"
		"                   FROM pg_catalog.pg_settings g\n"
		"                  WHERE g.name IN ('io_method', 'io_workers', 'io_combine_limit',\n"
		"                                   'effective_io_concurrency', 'track_io_timing',\n"
		"                                   'shared_buffers'))) AS settings,\n"
		"       r.cpu_wait_s, r.cpu_throttled_s, r.cpu_quota_us, r.cpu_period_us,\n"
		"       r.read_bps_limit, r.write_bps_limit, r.read_iops_limit, r.write_iops_limit,\n"
		/*
		 * Whether the verdict lets the figure, and the read rate, be
		 * judged: the server's own table of marks says, so that this
		 * program keeps no copy of it.
		 */
		"       coalesce((SELECT pg_catalog.bool_and(k.judged) AND pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.cardinality(r.verdict)\n"
		"                   FROM %s.scan_verdict_marks() AS k WHERE k.mark OPERATOR(pg_catalog.=) ANY (r.verdict)), false) AS verdict_judged,\n"
		"       coalesce((SELECT pg_catalog.bool_and(k.reads_judged) AND pg_catalog.count(*) OPERATOR(pg_catalog.=) pg_catalog.cardinality(r.verdict)\n"
		"                   FROM %s.scan_verdict_marks() AS k WHERE k.mark OPERATOR(pg_catalog.=) ANY (r.verdict)), false) AS verdict_reads_judged\n"
		"FROM %s.scan_efficiency($1::pg_catalog.regclass, $2, sample => $3::float8,\n"
		"                        max_seconds => $4::float8, target_pct => $5::float8,\n"
		"                        record => false, restore => $6::boolean) AS r\n"
		"JOIN pg_catalog.pg_class c ON c.oid = r.relation\n"
		"JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace\n"
		/*
		 * The device layers under the relation's first file, as
		 * scan_history_record reads them: every scheduler top down, and
		 * the read-ahead of the device the filesystem is on.
		 */
		"CROSS JOIN LATERAL (\n"
		"   SELECT string_agg(i.scheduler, '/' ORDER BY i.level)\n"
		"            FILTER (WHERE i.scheduler IS NOT NULL) AS scheduler,\n"
		"          (array_agg(i.read_ahead_kb ORDER BY i.level)\n"
		"            FILTER (WHERE i.read_ahead_kb IS NOT NULL))[1] AS read_ahead_kb\n"
		"     FROM %s.storage_info(r.relation) AS i WHERE i.level > 0) AS st",
		s, s, s, s);
}

/* A row's value by column name: NULL where it has none. */
const char *
row_value(const Row *row, const char *column)
{
	int			i = history_column(column);

	return i < 0 ? NULL : row->values[i];
}

/* Set a row's value by column name (a copy; NULL for SQL NULL). */
void
row_set(Row *row, const char *column, const char *value)
{
	int			i = history_column(column);

	if (i < 0)
		return;
	free(row->values[i]);
	row->values[i] = xstrdup(value);
}
