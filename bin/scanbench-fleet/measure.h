/*
 * measure.h: a row of the fleet's results, the SQL each server runs and
 * the history's columns (measure.c).
 */
#ifndef SCANBENCH_FLEET_MEASURE_H
#define SCANBENCH_FLEET_MEASURE_H

#include <stdbool.h>

#include "options.h"
#include "servers.h"

/*
 * Column values for the history, in the order of history_columns[]
 * (measure.c); NULL is SQL NULL.
 */
#define NCOLUMNS_MAX 64

/* One row: a server x relation, measured or not (reason says why not). */
typedef struct Row
{
	Server	   *server;
	const char *relation;		/* as given on the command line */
	char	   *values[NCOLUMNS_MAX];
	char	   *reason;			/* NULL when measured */
	char	   *measured_at;	/* client's clock when no server said */
	/* the figures, NAN when NULL */
	double		read_mb_s;
	double		scan_mb_s;
	double		scan_pct;
	double		scan_pct_lo;
	double		scan_pct_hi;
	/* what the server's scan_verdict_marks() says of the verdict */
	bool		verdict_judged; /* every mark lets scan_pct be judged */
	bool		verdict_reads_judged;	/* every mark lets read_mb_s be */
	bool		judged;			/* scan_pct with a verdict that can be judged */
	bool		reads_judged;	/* read_mb_s with a verdict that lets it be */
	/* own history */
	double		history_pct;
	int			history_runs;
	/* cohort */
	int			cohort_size;	/* judged rows in it, this one included */
	double		cohort_pct;		/* median */
	double		cohort_spread;	/* the half-width rows are flagged outside */
	double		cohort_read_mb_s;	/* median read rate */
	bool		flagged;
	char	   *remark;			/* why flagged, what differs; or NULL */
} Row;

extern const char *const history_columns[];
extern int	history_ncolumns;
extern int	history_column(const char *name);
extern const char *pinned_path_query(void);
extern const char *identity_query(void);
extern bool relation_is_qualified(const char *name);
extern char *measure_query(const char *schema);
extern char *session_setup(const Options *opt);
extern const char *row_value(const Row *row, const char *column);
extern void row_set(Row *row, const char *column, const char *value);

#endif							/* SCANBENCH_FLEET_MEASURE_H */
