/*
 * main.c: scanbench-probe's steps, in order: the options and the
 * profiles (bad ones exit 2 before anything connects), the central
 * history (unusable: exit 2 before anything is measured), the server and
 * the table (exit 2), the passes, the judgement, the report, the history,
 * and the exit status.  See program.h for where each concern lives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cli.h"
#include "history.h"
#include "judge.h"
#include "options.h"
#include "probe.h"
#include "profiles.h"
#include "program.h"
#include "report.h"
#include "server.h"
#include "signals.h"
#include "xalloc.h"

/* The profiles: the installed file, then each --profiles in order. */
static bool
read_profiles(const Options *opt, ProfileSet *set)
{
	char	   *error = NULL;

	if (!profiles_read(set, PROFILES_FILE, true, &error))
	{
		log_error("%s", error);
		return false;
	}
	for (int i = 0; i < opt->nprofiles_files; i++)
		if (!profiles_read(set, opt->profiles_files[i], false, &error))
		{
			log_error("%s", error);
			return false;
		}
	return true;
}

static int
cannot_run(PGconn *conn, PGconn *history, const char *what, char *error)
{
	log_error("%s%s", what, error);
	free(error);
	PQfinish(conn);
	PQfinish(history);
	return EXIT_CANNOT_RUN;
}

int
main(int argc, char **argv)
{
	Options		opt;
	int			status;
	ProfileSet	profiles = {0};
	Profile    *profile = NULL;
	char	   *error = NULL;
	char	   *password = NULL;
	PGconn	   *history = NULL;
	PGconn	   *conn;
	ServerInfo	server = {0};
	TableInfo	table = {0};
	Run			run;
	Judged	   *judged;
	Outcome		o = {0};

	cli_progname = PROBE_NAME;
	signals_init();
	if (!parse_options(argc, argv, &opt, &status))
		return status;
	if (!read_profiles(&opt, &profiles))
		return EXIT_CANNOT_RUN;
	if (opt.list_profiles)
	{
		report_profiles(&profiles);
		return EXIT_MEASURED;
	}
	if (opt.storage)
	{
		profile = profile_from_spec(&profiles, opt.storage, &error);
		if (profile == NULL || !profile_check(profile, &error))
		{
			log_error("%s", error);
			return EXIT_CANNOT_RUN;
		}
	}
	if (opt.password_prompt > 0)
		password = prompt_password("Password: ");

	if (opt.history && (history = history_connect(&opt, password, &error)) == NULL)
		return cannot_run(NULL, NULL, "", error);
	conn = server_connect(opt.dbname, &opt, password, true, &error);
	if (conn == NULL)
		return cannot_run(NULL, history, "could not connect to the server: ", error);
	if (!server_find_table(conn, opt.table, &table, &error) ||
		!server_pin(conn, &opt, &error) ||
		!server_describe(conn, &server, &error))
		return cannot_run(conn, history, "", error);
	if (opt.prewarm && server.prewarm == NULL)
		return cannot_run(conn, history, "",
						  xprintf("--prewarm needs pg_prewarm: %s", server.prewarm_why));
	if (!isnan(opt.memory_bytes) && opt.memory_bytes <= server.shared_buffers_bytes)
	{
		char	   *m = size_text(opt.memory_bytes);
		char	   *sb = size_text(server.shared_buffers_bytes);

		return cannot_run(conn, history, "",
						  xprintf("--memory %s is not more than the server's shared_buffers (%s): give the server's whole memory",
								  m, sb));
	}

	table.bytes = table.blocks = NAN;
	probe_run(conn, &server, &table, &opt, &run);
	PQfinish(conn);
	if (run.npasses > 0)
	{
		table.bytes = run.passes[0].table_bytes;
		table.blocks = floor(table.bytes / server.block_size);
	}
	if (interrupted)
	{
		PQfinish(history);
		return 128 + interrupted;
	}

	judged = xmalloc(sizeof(Judged) * (size_t) (run.npasses + 1));
	for (int i = 0; i < run.npasses; i++)
		judge_pass(&run.passes[i], i ? &judged[0] : NULL, &run, &table, &server, profile,
				   &opt, &judged[i]);
	o.server_name = opt.name ? opt.name
		: xprintf("%s:%s/%s", *server.host ? server.host : "localhost",
				  *server.port ? server.port : "5432", server.dbname);
	o.server = &server;
	o.table = &table;
	o.profile = profile;
	o.run = &run;
	o.judged = judged;
	o.figure = judge_figure(judged, run.npasses);
	o.below = o.figure >= 0 && !isnan(opt.min_pct) && judged[o.figure].volume_pct < opt.min_pct;
	report_print(&opt, &o);

	if (history)
	{
		bool		kept = history_record(history, &opt, &o, &error);

		PQfinish(history);
		if (!kept)
		{
			log_error("the runs were not recorded in the central history: %s", error);
			return EXIT_NOT_RECORDED;
		}
	}
	if (run.failed)
	{
		log_error("%s%s", run.lost ? "the server went away: " : "", run.failed);
		return EXIT_LOST;
	}
	return o.below ? EXIT_BELOW : EXIT_MEASURED;
}
