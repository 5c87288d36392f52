/*
 * options.h: the command line of scanbench-probe (options.c).
 */
#ifndef SCANBENCH_PROBE_OPTIONS_H
#define SCANBENCH_PROBE_OPTIONS_H

#include <stdbool.h>

typedef enum
{
	FORMAT_TEXT,
	FORMAT_JSON
} OutputFormat;

typedef struct Options
{
	const char *table;			/* as given: found on the role's search_path */
	int			passes;
	bool		prewarm;		/* pg_prewarm the table first */
	/* the server's volume and memory */
	const char *storage;		/* --storage NAME[:KEY=VALUE,...] */
	const char **profiles_files;	/* --profiles, in order */
	int			nprofiles_files;
	bool		list_profiles;
	double		memory_bytes;	/* --memory; NAN when not given */
	double		request_kib;	/* --request-kib; NAN */
	double		latency_ms;		/* --latency-ms; NAN */
	double		min_pct;		/* --min-pct; NAN */
	/* the central history */
	const char *history;		/* conninfo */
	const char *name;			/* the server's name there */
	const char **tags;			/* KEY=VALUE */
	int			ntags;
	/* output */
	OutputFormat format;
	/* connection */
	const char *dbname;			/* a database name or a conninfo */
	const char *host;
	const char *port;
	const char *username;
	int			password_prompt;	/* -1 never (-w), 1 first (-W), 0 asked */
	double		timeout;		/* statement_timeout of a pass, s */
	double		lock_timeout;	/* s */
	double		connect_timeout;	/* s */
} Options;

extern bool parse_options(int argc, char **argv, Options *opt, int *status);
extern bool memory_size(const char *arg, double *bytes);

#endif							/* SCANBENCH_PROBE_OPTIONS_H */
