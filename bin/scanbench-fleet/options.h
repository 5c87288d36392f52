/*
 * options.h: the command line of scanbench-fleet (options.c).
 */
#ifndef SCANBENCH_FLEET_OPTIONS_H
#define SCANBENCH_FLEET_OPTIONS_H

#include <stdbool.h>

typedef enum
{
	FORMAT_TABLE,
	FORMAT_CSV,
	FORMAT_JSON
} OutputFormat;

typedef struct Options
{
	const char *servers_file;
	const char **relations;
	int			nrelations;
	const char *history;		/* conninfo of the central history */
	OutputFormat format;
	int			jobs;
	const char *cache;
	double		max_seconds;
	double		target_pct;
	double		sample;
	bool		restore;
	double		timeout;		/* per call, seconds: statement_timeout */
	double		connect_timeout;
	double		k;				/* cohort rule: median +- k * MAD */
	double		min_spread_pct;	/* cohort rule: the least spread, points */
	double		max_drop_pct;	/* own history: the drop that alarms */
	int			history_runs;	/* own history: runs the median is of */
	int			password_prompt;	/* -1 never (-w), 1 first (-W), 0 asked */
	const char *night;			/* --night: the queue shared with other runners */
	double		lease;			/* --lease, seconds */
} Options;

extern bool parse_options(int argc, char **argv, Options *opt, int *status);

#endif							/* SCANBENCH_FLEET_OPTIONS_H */
