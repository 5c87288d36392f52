/*
 * server.c: what the server is, as far as the cost of a bulk load goes,
 * and the two counters a load's summary reads before and after: the WAL
 * position and the checkpoints.
 *
 * Why the loader asks: whether parallel jobs pay depends on the server,
 * not on the client.  With wal_level above minimal and full-page writes
 * on, every page the jobs' COPYs wrote before a checkpoint goes to the WAL
 * again as a full-page image when VACUUM freezes it; with wal_level =
 * minimal one job's COPY FREEZE into a table made in its own transaction
 * writes no WAL for the rows at all; an UNLOGGED table writes none either
 * way.  So the settings are read once, before anything is written, and
 * load.c and plan.c decide from them.
 *
 * Every difference between PostgreSQL majors that the loader sees is here:
 * the checkpoint counters moved from pg_stat_bgwriter to
 * pg_stat_checkpointer in 17.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "db.h"
#include "server.h"

static bool
is_on(const char *v)
{
	return strcmp(v, "on") == 0;
}

/*
 * The server's CPUs, where they can be known: a server reached through a
 * Unix socket or the loopback address runs on this machine, whose online
 * CPUs it shares.  Anywhere else the client cannot tell (0).
 */
static int
server_cpus(PGconn *conn)
{
	const char *host = PQhost(conn);
	long		n;

	if (host == NULL ||
		!(host[0] == '/' || host[0] == '@' || strcmp(host, "localhost") == 0 ||
		  strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0))
		return 0;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int) n : 0;
}

/*
 * Read the settings that decide a bulk load's cost, in one statement.
 * pg_stat_replication shows every role its rows (the details are hidden
 * without pg_read_all_stats), which is all the count needs.  False
 * (logged) on failure.
 */
bool
server_inspect(PGconn *conn, ServerInfo *si)
{
	PGresult   *res = query_rows(conn,
								 "SELECT pg_catalog.current_setting('server_version_num')::pg_catalog.int4, "
								 "pg_catalog.current_setting('wal_level'), "
								 "pg_catalog.current_setting('fsync'), "
								 "pg_catalog.current_setting('full_page_writes'), "
								 "pg_catalog.current_setting('wal_log_hints'), "
								 "pg_catalog.current_setting('data_checksums'), "
								 "pg_catalog.pg_size_bytes(pg_catalog.current_setting('max_wal_size')) "
								 "OPERATOR(pg_catalog./) 1048576, "
								 "pg_catalog.pg_is_in_recovery(), "
								 "(SELECT pg_catalog.count(*) FROM pg_catalog.pg_stat_replication)", NULL);

	memset(si, 0, sizeof(*si));
	if (res == NULL)
		return false;
	si->version_num = atoi(PQgetvalue(res, 0, 0));
	snprintf(si->wal_level, sizeof(si->wal_level), "%s", PQgetvalue(res, 0, 1));
	si->fsync = is_on(PQgetvalue(res, 0, 2));
	si->full_page_writes = is_on(PQgetvalue(res, 0, 3));
	si->wal_log_hints = is_on(PQgetvalue(res, 0, 4));
	si->data_checksums = is_on(PQgetvalue(res, 0, 5));
	si->max_wal_size_mb = strtoll(PQgetvalue(res, 0, 6), NULL, 10);
	si->in_recovery = PQgetvalue(res, 0, 7)[0] == 't';
	si->standbys = atoi(PQgetvalue(res, 0, 8));
	si->wal_minimal = strcmp(si->wal_level, "minimal") == 0;
	si->cpus = server_cpus(conn);
	PQclear(res);
	return true;
}

/* The settings as the summary and --json print them. */
void
server_describe(const ServerInfo *si, char *buf, size_t size)
{
	char		cpus[32] = "unknown";

	if (si->cpus > 0)
		snprintf(cpus, sizeof(cpus), "%d", si->cpus);
	snprintf(buf, size,
			 "wal_level = %s, fsync = %s, full_page_writes = %s, wal_log_hints = %s, "
			 "data checksums %s, max_wal_size = %" PRId64 " MB, %d standby%s, server CPUs %s",
			 si->wal_level, si->fsync ? "on" : "off", si->full_page_writes ? "on" : "off",
			 si->wal_log_hints ? "on" : "off", si->data_checksums ? "on" : "off",
			 si->max_wal_size_mb, si->standbys, si->standbys == 1 ? "" : "s", cpus);
}

/* The current WAL insert position in bytes, or -1 (logged). */
int64_t
server_wal_lsn(PGconn *conn)
{
	char	   *v = query_value(conn, "SELECT pg_catalog.pg_current_wal_lsn() "
								"OPERATOR(pg_catalog.-) '0/0'::pg_catalog.pg_lsn", NULL);
	int64_t		lsn = v ? strtoll(v, NULL, 10) : -1;

	free(v);
	return lsn;
}

/*
 * The checkpoints the server has made since its statistics were reset,
 * timed and requested; false (logged) on failure.  17 moved the counters
 * from pg_stat_bgwriter to pg_stat_checkpointer, under new names.
 */
bool
server_checkpoints(PGconn *conn, const ServerInfo *si, int64_t *timed, int64_t *requested)
{
	const char *sql = si->version_num >= 170000
		? "SELECT c.num_timed, c.num_requested FROM pg_catalog.pg_stat_checkpointer c"
		: "SELECT b.checkpoints_timed, b.checkpoints_req FROM pg_catalog.pg_stat_bgwriter b";
	PGresult   *res = query_rows(conn, sql, NULL);

	if (res == NULL)
		return false;
	*timed = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	*requested = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	PQclear(res);
	return true;
}
