/*
 * plan.c: how many jobs a load runs, and why: the one place that decides.
 *
 * One job creates the table and fills it with COPY FREEZE in one
 * transaction: the rows are written frozen, once, and no VACUUM follows.
 * Several jobs COPY in transactions of their own into a committed table,
 * which COPY FREEZE cannot take, so VACUUM (FREEZE) must visit every page
 * afterwards.  What that costs depends on the server:
 *
 *   - logged table, full_page_writes on, wal_level replica or logical:
 *     a load of any size makes the server checkpoint, and the first change
 *     to a page after a checkpoint writes the whole page to the WAL.  The
 *     freeze is that change for every page the COPYs wrote before the last
 *     checkpoint, so the table goes to the WAL twice.  On the 2-CPU machine
 *     this made two jobs slower than one (doc/loader.md).  Unless the pages
 *     are frozen while they are still newer than the last checkpoint
 *     (freezing in steps, load.c), one job.
 *   - wal_level = minimal: one job's COPY FREEZE into the table made in its
 *     own transaction writes no WAL for the rows at all; the jobs' COPYs in
 *     other transactions must.  Several jobs gain only where the server
 *     has cores to spare and fsync is off, so that the WAL they add costs
 *     little.
 *   - UNLOGGED table: no WAL either way; several jobs gain with cores.
 *   - a Citus table: COPY goes to the shards, which VACUUM freezes with one
 *     job as with several; jobs gain with cores.
 *   - --append: several jobs fill a staging table and move the rows with
 *     INSERT ... SELECT, twice the server's work: one job.
 *
 * "Cores to spare": a server known to have two CPUs or more (server.c);
 * one job a CPU, up to MAX_AUTO_JOBS, past which the WAL insertion and the
 * relation extension lock take the gain.
 */
#include <stdio.h>
#include <string.h>

#include "loader.h"

#define MAX_AUTO_JOBS		4

/*
 * For the cost line's size: bytes a row takes on disk (doc/loader.md), and
 * the lines of an order, four on average.
 */
#define TABLE_BYTES_PER_ROW	157.7
#define ROWS_PER_ORDER		4.0

/* Jobs where parallel loading gains: one a server CPU, or 2 if not known. */
static int
parallel_jobs(const ServerInfo *si)
{
	if (si->cpus == 0)
		return 2;
	return si->cpus < MAX_AUTO_JOBS ? si->cpus : MAX_AUTO_JOBS;
}

/*
 * Decide the jobs of a load into a table that is (or will be) unlogged or
 * a Citus table; given is the -j the user asked for, 0 for auto.  orders
 * is the number of orders, which caps the jobs and sizes the cost line.
 */
void
plan_jobs(JobsPlan *plan, const ServerInfo *si, int given, bool unlogged, bool citus,
		  bool append, int64_t orders)
{
	double		table_mb = orders * ROWS_PER_ORDER * TABLE_BYTES_PER_ROW / 1e6;
	bool		double_write = false;
	int			best;

	memset(plan, 0, sizeof(*plan));
	if (append && !unlogged && !citus)
	{
		best = 1;
		snprintf(plan->why, sizeof(plan->why),
				 "--append with several jobs moves the rows twice (INSERT ... SELECT)");
	}
	else if (unlogged || citus)
	{
		best = parallel_jobs(si);
		snprintf(plan->why, sizeof(plan->why), "%s: jobs add no WAL; %s",
				 unlogged ? "UNLOGGED table" : "Citus table",
				 si->cpus > 0 ? "one a server CPU" : "the server's CPUs are not known");
	}
	else if (si->wal_minimal)
	{
		if (!si->fsync && si->cpus >= 2)
		{
			best = parallel_jobs(si);
			snprintf(plan->why, sizeof(plan->why),
					 "wal_level = minimal, fsync off and %d server CPUs", si->cpus);
		}
		else
		{
			best = 1;
			snprintf(plan->why, sizeof(plan->why),
					 "wal_level = minimal: one job's COPY FREEZE writes no WAL for the rows");
		}
	}
	else if (si->full_page_writes)
	{
		best = 1;
		double_write = true;
		snprintf(plan->why, sizeof(plan->why),
				 "wal_level = %s and full_page_writes on: several jobs' VACUUM FREEZE "
				 "writes the table to the WAL a second time", si->wal_level);
	}
	else if (!si->fsync && si->cpus >= 2)
	{
		best = parallel_jobs(si);
		snprintf(plan->why, sizeof(plan->why),
				 "full_page_writes and fsync off and %d server CPUs", si->cpus);
	}
	else
	{
		best = 1;
		snprintf(plan->why, sizeof(plan->why),
				 "%s", si->cpus == 1 ? "one server CPU" :
				 si->cpus == 0 ? "the server's CPUs are not known" : "fsync on");
	}
	if (orders > 0 && best > orders)
		best = 1;
	plan->automatic = given == 0;
	plan->jobs = given == 0 ? best : given;

	/* An explicit count that the rule expects to be slower than one job. */
	if (given > 1 && best == 1)
	{
		if (double_write)
			snprintf(plan->cost, sizeof(plan->cost),
					 "%d jobs on this server write the table to the WAL twice "
					 "(%s): about %.0f MB more WAL than one job, and expect a slower load; "
					 "--jobs=auto would use 1", given, plan->why, table_mb);
		else
			snprintf(plan->cost, sizeof(plan->cost),
					 "%d jobs are expected to be slower than one on this server (%s); "
					 "--jobs=auto would use 1", given, plan->why);
	}
}
