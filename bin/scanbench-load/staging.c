/*
 * staging.c: the staging table a load fills, when the load did not end by
 * renaming it in: dropped by the load that made it when it fails, or by a
 * later run when its load was killed or cut off (see load.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "db.h"
#include "load_state.h"
#include "loader.h"
#include "progress.h"
#include "signals.h"
#include "staging.h"

/*
 * Drop staging tables of earlier loads that ended without dropping them:
 * killed, or cut off by a server restart.  A live load holds the advisory
 * lock keyed on its own, so a lock we can take belongs to nobody.
 */
void
load_drop_stale_staging(Load *ld)
{
	PGresult   *res = query_rows(ld->ctl,
								 "SELECT c.oid, pg_catalog.format('%I.%I', n.nspname, c.relname) "
								 "FROM pg_catalog.pg_class c "
								 "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
								 "WHERE c.relkind OPERATOR(pg_catalog.=) 'r' "
								 "AND c.relname OPERATOR(pg_catalog.~~) 'scanbench\\_load\\_%' "
								 "AND pg_catalog.obj_description(c.oid, 'pg_class'::pg_catalog.name) "
								 "OPERATOR(pg_catalog.~~) '" STAGING_COMMENT "%'", NULL);

	if (res == NULL)
		return;
	for (int r = 0; r < PQntuples(res); r++)
	{
		const char *oid = PQgetvalue(res, r, 0);
		const char *name = PQgetvalue(res, r, 1);
		char	   *got = query_value(ld->ctl, sqlf("SELECT pg_catalog.pg_try_advisory_lock("
													STAGING_KEY("%s") ")", oid), NULL);

		if (got && got[0] == 't')
		{
			if (run_sql(ld->ctl, sqlf("DROP TABLE IF EXISTS %s", name), NULL))
				fprintf(stderr, LOADER_NAME ": dropped %s, a staging table an earlier load "
						"left behind\n", name);
			run_sql(ld->ctl, sqlf("SELECT pg_catalog.pg_advisory_unlock(" STAGING_KEY("%s") ")",
								  oid), NULL);
		}
		free(got);
	}
	PQclear(res);
}

/*
 * Drop the committed staging table, reconnecting if the server restarted:
 * libpq learns that the connection is gone only when it next uses it.
 */
void
load_drop_staging(Load *ld)
{
	const char *sql = sqlf("DROP TABLE IF EXISTS %s", ld->staging);
	double		deadline = now_s() + RECONNECT_SECONDS;
	bool		dropped = false;
	char		why[1024] = "the server did not come back";

	/*
	 * Until the server answers: an error without an SQLSTATE is libpq's (the
	 * connection is gone), and a server going down may still take a
	 * connection or two, or end one with 57P01-57P03.  Any other error is
	 * the server's answer, and final.
	 */
	while (!dropped && now_s() < deadline)
	{
		PGresult   *res;
		const char *state;

		if (ld->ctl == NULL || PQstatus(ld->ctl) != CONNECTION_OK)
		{
			signals_watch_conn(0, NULL);
			PQfinish(ld->ctl);
			ld->ctl = reconnect_db(ld->opt, deadline - now_s());
			signals_watch_conn(0, ld->ctl);
			if (ld->ctl == NULL)
				break;
		}
		if (PQtransactionStatus(ld->ctl) == PQTRANS_INTRANS ||
			PQtransactionStatus(ld->ctl) == PQTRANS_INERROR)
			run_cleanup_sql(ld->ctl, "ROLLBACK");
		if (run_cleanup_sql(ld->ctl, sql))
		{
			dropped = true;
			break;
		}
		snprintf(why, sizeof(why), "%s", chomp(PQerrorMessage(ld->ctl)));
		res = PQexec(ld->ctl, "SELECT 1");
		state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		if (PQresultStatus(res) == PGRES_TUPLES_OK)
		{
			PQclear(res);
			break;				/* the server is there and refused the DROP */
		}
		if (state && strncmp(state, "57P0", 4) != 0)
		{
			PQclear(res);
			break;
		}
		PQclear(res);
		signals_watch_conn(0, NULL);
		PQfinish(ld->ctl);
		ld->ctl = NULL;
	}
	if (dropped)
		fprintf(stderr, LOADER_NAME ": dropped %s, the table this load was filling\n",
				ld->staging);
	else
		log_error("could not drop %s, the table this load was filling: %s\n"
				  "hint: the next run drops it; or drop it yourself",
				  ld->staging, why);
}
