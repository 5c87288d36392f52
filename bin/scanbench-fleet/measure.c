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
 * Why every name below is qualified, and the session's path pinned.
 *
 * The fleet connects as whoever runs it, often a superuser, to databases
 * where other roles may be able to CREATE in a schema on the path (public,
 * up to PostgreSQL 14 and in databases upgraded from it).  A function,
 * aggregate, operator or type such a role makes there is found by a name
 * left to the path: an exact-type match (array_agg(integer),
 * percentile_cont(numeric ORDER BY float8), an operator over text and
 * integer) beats pg_catalog's polymorphic or casting one wherever public
 * is on the path, and a copy of pg_catalog's own wins where public comes
 * before pg_catalog, which a database's owner can set.  Its code would run
 * as the fleet's login.  So every function, operator and type the fleet's
 * SQL names is written pg_catalog.X, OPERATOR(pg_catalog.X) or of the
 * extension's schema (read from the catalog, quoted once), and no
 * construct that looks an operator up by the path is used (LIKE, IN (...),
 * NULLIF, BETWEEN, IS DISTINCT FROM, CASE x WHEN): = ANY, CASE WHEN.
 *
 * Right after connecting, the session's path is then set to pg_catalog
 * alone, pg_temp last (pinned_path_query): pg_temp would otherwise be
 * searched first for relations and types, where any session can make
 * them, and functions and operators are never looked up in it.  The one
 * thing the user's own path is for, what an unqualified --relation names,
 * is recorded before (current_schemas(true) in identity_query) and
 * looked up in those schemas, in that order (measure_query).
 */
const char *
pinned_path_query(void)
{
	return "SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false)";
}

/*
 * Who the server is.  Needs no extension: a server without scanbench, or
 * with another version, still says who it is, and its row says why it was
 * not measured.  search_path is the session's own, as the schemas a
 * relation's name is looked for in.
 */
const char *
identity_query(void)
{
	return
		"SELECT (SELECT s.system_identifier FROM pg_catalog.pg_control_system() AS s) AS system_identifier,\n"
		"       CASE WHEN pg_catalog.pg_is_in_recovery() THEN 'standby' ELSE 'primary' END AS server_role,\n"
		"       pg_catalog.current_setting('server_version') AS server_version,\n"
		"       (SELECT pg_catalog.quote_ident(n.nspname::pg_catalog.text) FROM pg_catalog.pg_extension e\n"
		"          JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace\n"
		"         WHERE e.extname OPERATOR(pg_catalog.=) 'scanbench') AS schema,\n"
		"       (SELECT e.extversion FROM pg_catalog.pg_extension e\n"
		"         WHERE e.extname OPERATOR(pg_catalog.=) 'scanbench') AS extversion,\n"
		"       pg_catalog.current_schemas(true) AS search_path";
}

/*
 * Whether a relation's name is schema-qualified: a dot outside double
 * quotes.  An unqualified one is looked for in the session's own schemas.
 */
bool
relation_is_qualified(const char *name)
{
	bool		quoted = false;

	for (const char *c = name; *c; c++)
	{
		if (*c == '"')
			quoted = !quoted;
		else if (*c == '.' && !quoted)
			return true;
	}
	return false;
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
 * $2 cache, $3 sample, $4 max_seconds, $5 target_pct, $6 restore, $7 the
 * schemas an unqualified $1 is looked for in, in order (the session's own
 * path, recorded before it was pinned; empty for a qualified $1).  A name
 * found in none is read as regclass reads it, and fails as it would.
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
		"                  WHERE g.name OPERATOR(pg_catalog.=) ANY ('{io_method,io_workers,io_combine_limit,"
		"effective_io_concurrency,track_io_timing,shared_buffers}'::pg_catalog.text[]))) AS settings,\n"
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
		"FROM %s.scan_efficiency(\n"
		"       (SELECT coalesce((SELECT q.rel\n"
		"                           FROM pg_catalog.unnest($7::pg_catalog.name[]) WITH ORDINALITY AS p(nspname, i)\n"
		"                          CROSS JOIN LATERAL pg_catalog.to_regclass(pg_catalog.quote_ident(p.nspname::pg_catalog.text)\n"
		"                                OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) $1::pg_catalog.text) AS q(rel)\n"
		"                          WHERE q.rel IS NOT NULL ORDER BY p.i LIMIT 1),\n"
		"                        $1::pg_catalog.text::pg_catalog.regclass)),\n"
		"       $2::pg_catalog.text, sample => $3::pg_catalog.float8,\n"
		"       max_seconds => $4::pg_catalog.float8, target_pct => $5::pg_catalog.float8,\n"
		"       record => false, restore => $6::pg_catalog.bool) AS r\n"
		"JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) r.relation\n"
		"JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace\n"
		/*
		 * The device layers under the relation's first file, as
		 * scan_history_record reads them: every scheduler top down, and
		 * the read-ahead of the device the filesystem is on.
		 */
		"CROSS JOIN LATERAL (\n"
		"   SELECT pg_catalog.string_agg(i.scheduler, '/' ORDER BY i.level)\n"
		"            FILTER (WHERE i.scheduler IS NOT NULL) AS scheduler,\n"
		"          (pg_catalog.array_agg(i.read_ahead_kb ORDER BY i.level)\n"
		"            FILTER (WHERE i.read_ahead_kb IS NOT NULL))[1] AS read_ahead_kb\n"
		"     FROM %s.storage_info(r.relation) AS i WHERE i.level OPERATOR(pg_catalog.>) 0) AS st",
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
