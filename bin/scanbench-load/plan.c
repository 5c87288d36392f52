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

#include "plan.h"
#include "server.h"

#define MAX_AUTO_JOBS		4

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
 * a Citus table; given is the -j the user asked for, 0 for auto.  units
 * is the number of units of work (orders, or parts), which caps the jobs,
 * and table_mb the table's expected size (tables.c), for the cost line.
 */
void
plan_jobs(JobsPlan *plan, const ServerInfo *si, int given, bool unlogged, bool citus,
		  bool append, int64_t units, double table_mb)
{
	const char *cost = NULL;
	int			best;

	memset(plan, 0, sizeof(*plan));

	/*
	 * The step: how far the freezing trails the COPYs is a step or two of
	 * every job, so the step follows the distance between checkpoints
	 * (max_wal_size / 2): 1/64 of max_wal_size, 16 MB on a stock server,
	 * from 1 MB to 16 MB.
	 */
	plan->step_bytes = si->max_wal_size_mb * 1048576 / 64;
	if (plan->step_bytes < 1048576)
		plan->step_bytes = 1048576;
	if (plan->step_bytes > 16 * 1048576)
		plan->step_bytes = 16 * 1048576;

	/*
	 * Freezing in steps pays where a checkpoint is likely during the load:
	 * full_page_writes on and a table of a quarter of max_wal_size or more
	 * (the server checkpoints after about half of it; the rest is margin
	 * for a timed checkpoint).  Elsewhere its VACUUM passes are work for
	 * nothing.
	 */
	plan->freeze_steps = !unlogged && !citus && !append && si->full_page_writes &&
		table_mb * 4 >= si->max_wal_size_mb * 1.048576;

	if (append && !unlogged && !citus)
	{
		best = 1;
		snprintf(plan->why, sizeof(plan->why),
				 "--append with several jobs moves the rows twice (INSERT ... SELECT)");
		cost = "twice the server's work";
	}
	else if (unlogged || citus)
	{
		best = parallel_jobs(si);
		snprintf(plan->why, sizeof(plan->why), "%s: jobs add no WAL; %s",
				 unlogged ? "UNLOGGED table" : "Citus table",
				 si->cpus > 0 ? "one a server CPU" : "the server's CPUs are not known");
	}
	else if (si->wal_minimal && !(!si->fsync && si->cpus >= 2))
	{
		best = 1;
		snprintf(plan->why, sizeof(plan->why),
				 "wal_level = minimal: one job's COPY FREEZE writes no WAL for the rows");
		cost = "the jobs write the table to the WAL, which one job does not";
	}
	else if (!si->fsync && si->cpus >= 2)
	{
		best = parallel_jobs(si);
		snprintf(plan->why, sizeof(plan->why), "%sfsync off and %d server CPUs",
				 si->wal_minimal ? "wal_level = minimal, " : "", si->cpus);
	}
	else
	{
		best = 1;
		if (si->full_page_writes)
		{
			snprintf(plan->why, sizeof(plan->why),
					 "wal_level = %s, fsync and full_page_writes on%s", si->wal_level,
					 si->cpus > 0 ? "" : ", the server's CPUs not known");
			cost = plan->freeze_steps
				? "VACUUM freezes the jobs' rows in steps during the load, which adds "
				"freeze records to the WAL and a CPU's work, to keep the table from "
				"going to the WAL twice"
				: "VACUUM freezes the jobs' rows after the load";
		}
		else
		{
			snprintf(plan->why, sizeof(plan->why), "%s",
					 si->cpus == 1 ? "one server CPU" :
					 si->cpus == 0 ? "the server's CPUs are not known" : "fsync on");
			cost = "VACUUM freezes the jobs' rows after the load";
		}
	}
	if (units > 0 && best > units)
		best = 1;
	plan->automatic = given == 0;
	plan->jobs = given == 0 ? best : given;
	if (plan->jobs == 1)
		plan->freeze_steps = false;

	/* An explicit count that the rule expects to be slower than one job. */
	if (given > 1 && best == 1)
		snprintf(plan->cost, sizeof(plan->cost),
				 "%d jobs are not expected to be faster than one on this server (%s): "
				 "%s; the table will be about %.0f MB; --jobs=auto would use 1",
				 given, plan->why, cost, table_mb);
}
