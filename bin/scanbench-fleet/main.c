/*
 * main.c: scanbench-fleet's steps, in order: the options and the servers
 * file (bad ones exit 2 before anything connects), the central history
 * (unreachable: exit 2 before any server is measured), the measurements,
 * each row's own history, the judgement, the rows into the history, the
 * report, and the exit status.  See fleet.h for where each concern lives.
 *
 * With --night the servers come from the queue the runners share, each
 * server's rows are recorded as it ends (queue.c), and the report and the
 * judgement are of the servers this runner measured.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libpq-fe.h>

#include "central_history.h"
#include "cli.h"
#include "cohort.h"
#include "db.h"
#include "fleet.h"
#include "measure.h"
#include "options.h"
#include "queue.h"
#include "report.h"
#include "run.h"
#include "servers.h"
#include "signals.h"
#include "xalloc.h"

int
main(int argc, char **argv)
{
	Options		opt;
	Server	   *servers;
	int			nservers = 0;
	Row		   *rows;
	int			nrows;
	int			status;
	char	   *error;
	PGconn	   *history;
	long		bytes = 0;
	bool		kept;

	cli_progname = FLEET_NAME;
	signals_init();
	if (!parse_options(argc, argv, &opt, &status))
		return status;
	servers = read_servers(opt.servers_file, &nservers, &error);
	if (servers == NULL)
	{
		log_error("%s", error);
		return EXIT_CANNOT_RUN;
	}
	(void) fleet_password(&opt);
	history = history_connect(&opt);
	if (history == NULL)
		return EXIT_CANNOT_RUN;
	if (opt.night && !queue_open(history, &opt, servers, nservers))
	{
		PQfinish(history);
		return EXIT_CANNOT_RUN;
	}

	nrows = nservers * opt.nrelations;
	rows = xmalloc(sizeof(Row) * (size_t) nrows);
	for (int i = 0; i < nrows; i++)
	{
		rows[i].server = &servers[i / opt.nrelations];
		rows[i].relation = opt.relations[i % opt.nrelations];
	}
	run_fleet(&opt, servers, nservers, rows, opt.night ? history : NULL);

	if (opt.night)
	{
		/* This runner's rows only, recorded already, server by server. */
		int			n = 0;

		for (int i = 0; i < nrows; i++)
			if (rows[i].server->taken)
				rows[n++] = rows[i];
		nrows = n;
		judge_rows(&opt, rows, nrows);
		kept = !queue_broken;
	}
	else
	{
		kept = history_previous(history, &opt, rows, nrows);
		judge_rows(&opt, rows, nrows);
		kept = kept && history_copy(history, &opt, rows, nrows, &bytes);
	}
	PQfinish(history);
	print_report(&opt, rows, nrows);
	if (!kept)
	{
		log_error(opt.night ? "not every run was recorded in the central history"
				  : "the runs were not recorded in the central history");
		return EXIT_CANNOT_RUN;
	}
	if (interrupted)
		return 128 + interrupted;
	status = EXIT_HEALTHY;
	for (int i = 0; i < nrows; i++)
		if (rows[i].flagged)
			status = EXIT_ALARM;
	return status;
}
