/*
 * main.c: scanbench-load's entry: options, the generator, then the load or
 * the --stdout file.  See loader.h for where each concern lives.
 */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "dbt3.h"
#include "load.h"
#include "loader.h"
#include "options.h"
#include "progress.h"
#include "signals.h"
#include "to_stdout.h"

int
main(int argc, char **argv)
{
	Options		opt;
	Progress	progress = {0};
	Dbt3		gen;
	int			status;

	cli_progname = LOADER_NAME;
	signals_init();
	if (!parse_options(argc, argv, &opt, &status))
		return status;

	progress.tty = isatty(STDERR_FILENO);
	progress.interval = opt.progress;
	if (opt.quiet)
		progress.interval = 0;
	else if (opt.progress == 0 && progress.tty)
		progress.interval = 1;

	if (!dbt3_init(&gen, opt.kind, opt.scale, opt.seed))
	{
		log_error("out of memory");
		return EXIT_FAILURE_LOAD;
	}
	status = opt.to_stdout ? write_stdout(&opt, &gen, &progress)
		: load(&opt, &gen, &progress);
	dbt3_free(&gen);
	return status;
}
