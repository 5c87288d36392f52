/*
 * to_stdout.c: --stdout, the rows as a file on standard output, made by one
 * job with no connection.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "dbt3.h"
#include "dbt3_copy.h"
#include "jobs.h"
#include "loader.h"
#include "options.h"
#include "progress.h"
#include "signals.h"
#include "to_stdout.h"

int
write_stdout(const Options *opt, const Dbt3 *gen, Progress *pg)
{
	Job			job = {0};
	double		elapsed;

	/* A signal ends the program at once, saying what it means for the file. */
	signals_set_phase(false, LOADER_NAME ": error: interrupted: the output is incomplete\n");
	split_units(&job, 1, gen, opt->format);
	pg->start = now_s();
	run_jobs(&job, 1, NULL, NULL, pg);
	elapsed = now_s() - pg->start;
	if (job.state != JOB_COPIED)
	{
		log_error("%s", job.error);
		return EXIT_FAILURE_LOAD;
	}
	if (!opt->quiet)
		fprintf(stderr, LOADER_NAME ": wrote %" PRId64 " rows (SF %g, seed %" PRIu64
				", %s) in %.2f s: %.0f MB/s, %.0f rows/s; peak RSS %ld MB\n",
				job.rows_copied, opt->scale, opt->seed, dbt3_format_name(opt->format),
				elapsed, job.bytes_done / elapsed / 1e6, job.rows_copied / elapsed,
				peak_rss_mb());
	return 0;
}
