/*
 * plan.h: how many jobs (--jobs=auto), and what an explicit count costs
 * (plan.c).
 */
#ifndef SCANBENCH_LOAD_PLAN_H
#define SCANBENCH_LOAD_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "server.h"

typedef struct
{
	int			jobs;
	bool		automatic;		/* chosen by --jobs=auto */
	bool		freeze_steps;	/* several jobs: freeze while loading (load.c) */
	int64_t		step_bytes;		/* a job commits, and the freezer runs, this often */
	char		why[256];		/* what the rule saw */
	char		cost[512];		/* an explicit count expected slower than one job */
} JobsPlan;

extern void plan_jobs(JobsPlan *plan, const ServerInfo *si, int given, bool unlogged,
					  bool citus, bool append, int64_t units, double table_mb);

#endif							/* SCANBENCH_LOAD_PLAN_H */
