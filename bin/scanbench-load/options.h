/*
 * options.h: the command line of scanbench-load (options.c).
 */
#ifndef SCANBENCH_LOAD_OPTIONS_H
#define SCANBENCH_LOAD_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "dbt3.h"
#include "tables.h"

/* lock_timeout is an int of milliseconds. */
#define DEFAULT_LOCK_TIMEOUT_S	10.0
#define MAX_LOCK_TIMEOUT_S		2147483.0

/* Longest identifier the server keeps whole (NAMEDATALEN - 1). */
#define MAX_IDENTIFIER_BYTES	63

typedef struct
{
	double		scale;
	uint64_t	seed;
	Dbt3Table	kind;			/* lineitem, or part_doc (--toast) */
	const char *table;
	const char *index_columns[MAX_INDEXES];	/* --index, in the order given */
	int			nindexes;
	bool		drop;
	bool		force_drop;		/* --drop a table scanbench did not make */
	bool		append;
	bool		unlogged;
	const char *distribute;		/* Citus distribution column, or NULL */
	int			shard_count;	/* 0: Citus' default */
	int			jobs;			/* 0: auto (plan.c) */
	double		lock_timeout;	/* seconds; 0 = wait without limit */
	Dbt3Format	format;
	bool		to_stdout;
	bool		quiet;
	bool		json;			/* the summary as JSON on stdout */
	bool		check;
	double		progress;		/* seconds between reports; 0 = none */
	const char *host;
	const char *port;
	const char *user;
	const char *dbname;
	int			password_prompt;	/* -1 never (-w), 0 when asked, 1 first (-W) */
} Options;

extern bool parse_options(int argc, char **argv, Options *opt, int *status);

#endif							/* SCANBENCH_LOAD_OPTIONS_H */
