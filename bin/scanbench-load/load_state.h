/*
 * load_state.h: the state of one load, which its steps share: load.c,
 * step.c, locks.c, staging.c, indexes.c and summary.c.  Types and names only.
 */
#ifndef SCANBENCH_LOAD_LOAD_STATE_H
#define SCANBENCH_LOAD_LOAD_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "jobs.h"
#include "options.h"
#include "plan.h"
#include "progress.h"
#include "server.h"
#include "tables.h"

/* Advisory lock key of a staging table: a constant high half, its OID low. */
#define STAGING_KEY(oid)	"((1396850001::pg_catalog.int8 OPERATOR(pg_catalog.<<) 32) " \
	"OPERATOR(pg_catalog.|) " oid "::pg_catalog.int8)"
#define STAGING_COMMENT		"scanbench-load staging table"
/*
 * The mark of a table scanbench made, as a comment: --drop replaces only a
 * table whose comment begins with MADE_BY (the loader's own, or the demo's,
 * tools/demo.sh, which marks the tables it loads the same way), unless
 * --force-drop.
 */
#define MADE_BY				"made by scanbench"
#define LOADED_COMMENT		MADE_BY "-load; scanbench-load --drop replaces it"
/* How long a failed load waits for a restarting server to drop its table. */
#define RECONNECT_SECONDS	60.0

/* An index --index builds: on the staging table, then renamed in. */
typedef struct
{
	const char *column;
	char		name[128];		/* once in place: TABLE_COLUMN_idx */
	char	   *qname;			/* the same, quoted */
	char		staging[300];	/* schema-qualified, while on the staging table */
	int64_t		bytes;
	double		seconds;
} LoadIndex;

typedef struct
{
	const Options *opt;
	Progress   *pg;
	PGconn	   *ctl;			/* the main thread's connection */
	Job		   *jobs;
	Freezer		freezer;		/* freezing in steps, if freezer.conn */
	char	   *qname;			/* the table's quoted name */
	char	   *extschema;		/* --check: scanbench's schema, quoted */
	char		target[300];	/* schema-qualified */
	char		staging[300];	/* schema-qualified */
	char		staging_name[64];
	ServerInfo	server;
	JobsPlan	plan;
	bool		target_unlogged;	/* the table the rows end in */
	bool		target_citus;
	bool		exists;			/* before the load */
	bool		one_transaction;	/* one job does it all in its transaction */
	bool		staging_committed;	/* to be dropped if the load fails */
	bool		lock_timed_out; /* the last transaction gave up on a lock */
	int64_t		pages_before;	/* --append: the table's, before the load */
	int64_t		rows;
	int64_t		bytes;
	int64_t		wal_before;		/* pg_current_wal_lsn() in bytes */
	int64_t		wal_after;
	int64_t		timed_before;	/* checkpoints */
	int64_t		requested_before;
	int64_t		timed_after;
	int64_t		requested_after;
	double		cpu_start;		/* this process's CPU seconds */
	double		generation_cpu_s;	/* the jobs' CPU seconds during the COPYs */
	double		copy_s;
	double		post_s;
	const char *post_what;
	LoadIndex	indexes[MAX_INDEXES];	/* opt->nindexes of them */
	double		index_s;		/* building them all */
	char		error[1024];	/* a failed step's message */
	char		copy_sql[1024];
} Load;

#endif							/* SCANBENCH_LOAD_LOAD_STATE_H */
