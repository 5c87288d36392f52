/*
 * step.c: one statement of a load, run on the control connection or a
 * job's, its error kept in the load's state for the message that ends a
 * failed load.  load.c and locks.c both run their steps through it, so it
 * lives below them.
 */
#include <stdio.h>

#include <libpq-fe.h>

#include "cli.h"
#include "load_state.h"
#include "step.h"

/* Run one step of the load; on failure keep the server's message. */
bool
load_step(Load *ld, PGconn *conn, const char *sql)
{
	PGresult   *res = PQexec(conn, sql);
	ExecStatusType st = PQresultStatus(res);
	bool		ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;

	if (!ok && !ld->error[0])
		snprintf(ld->error, sizeof(ld->error), "%s", chomp(PQerrorMessage(conn)));
	PQclear(res);
	return ok;
}
