/*
 * fleet.h: scanbench-fleet, scan_efficiency on many servers at once.
 *
 * Where each concern lives:
 *   main.c      the steps in order: options, servers, history, measure,
 *               judge, record, print
 *   options.c   the command line and --help
 *   servers.c   the servers file (one server a line, tag=value words)
 *   run.c       the measurements: non-blocking libpq over every server,
 *               --jobs at a time, with deadlines and cancellation
 *   measure.c   the SQL each server runs, the history's columns and a
 *               row's values by column
 *   cohort.c    the judgement: each row against its cohort and its own
 *               history (pure arithmetic, no connections)
 *   central_history.c  the central history: its check, the earlier
 *               runs, COPY
 *   queue.c     --night: the servers taken from a queue in the central
 *               database that several runners share, with leases
 *   report.c    the table, csv and json output
 *   signals.c   SIGINT and SIGTERM: cancel every running call
 *   xalloc.c    memory that is there or ends the program (messages:
 *               ../common/cli.c)
 */
#ifndef FLEET_H
#define FLEET_H

#include <signal.h>
#include <stdbool.h>

#include "libpq-fe.h"

#include "cli.h"

#define FLEET_NAME			"scanbench-fleet"
#define FLEET_VERSION		SCANBENCH_VERSION

/* Exit status. */
#define EXIT_HEALTHY		0
#define EXIT_ALARM			1
#define EXIT_CANNOT_RUN		2

#define MAX_JOBS			1024
#define MAX_TAGS			32

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

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

typedef struct Tag
{
	char	   *key;
	char	   *value;
} Tag;

/* One line of the servers file, and what was learnt about the server. */
typedef struct Server
{
	int			line;
	char	   *invalid;		/* a line that cannot be used: the reason */
	char	   *conninfo;
	char	   *name;			/* tag name=, else host:port/dbname */
	Tag			tags[MAX_TAGS];	/* sorted by key, name= left out */
	int			ntags;
	/* identity, as the server said (NULL until known) */
	char	   *system_identifier;
	char	   *host;
	char	   *port;
	char	   *role;			/* primary or standby */
	char	   *server_version;
	char	   *schema;			/* where scanbench is, quoted */
	/* --night */
	bool		taken;			/* claimed by this runner */
	bool		recorded;		/* its rows are in the central history */
} Server;

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

/* options.c */
extern bool parse_options(int argc, char **argv, Options *opt, int *status);

/* servers.c */
extern Server *read_servers(const char *path, int *nservers, char **error);
extern char *tags_json(const Server *s);
extern bool same_tags(const Server *a, const Server *b);
extern const char *server_disk(const Server *s);

/* run.c */
extern int	run_fleet(const Options *opt, Server *servers, int nservers, Row *rows,
					  PGconn *queue);

/* measure.c */
extern const char *const history_columns[];
extern int	history_ncolumns;
extern int	history_column(const char *name);
extern const char *identity_query(void);
extern char *measure_query(const char *schema);
extern char *session_setup(const Options *opt);
extern const char *row_value(const Row *row, const char *column);
extern void row_set(Row *row, const char *column, const char *value);

/* cohort.c */
extern void judge_rows(const Options *opt, Row *rows, int nrows);
extern double median_of(double *v, int n);

/* central_history.c */
extern PGconn *history_connect(const Options *opt);
extern bool history_previous(PGconn *conn, const Options *opt, Row *rows, int nrows);
extern bool history_copy(PGconn *conn, const Options *opt, Row *rows, int nrows, long *bytes);
extern const char *history_schema_name(void);

/* queue.c */
typedef enum
{
	QUEUE_GOT,					/* a server to measure */
	QUEUE_WAIT,					/* none now; some still to finish */
	QUEUE_DONE,					/* every one of this runner's is finished */
	QUEUE_ERROR					/* said on stderr */
} QueueClaim;

extern bool queue_broken;
extern bool queue_open(PGconn *conn, const Options *opt, Server *servers, int nservers);
extern QueueClaim queue_claim(PGconn *conn, const Options *opt, Server *servers, int nservers,
							  int *index);
extern bool queue_renew(PGconn *conn, const Options *opt, Server **busy, int nbusy);
extern bool queue_finish(PGconn *conn, const Options *opt, Server *s, Row *rows, int nrows);
extern void queue_release(PGconn *conn, const Options *opt, Server **busy, int nbusy);

/* report.c */
extern void print_report(const Options *opt, Row *rows, int nrows);

/* signals.c */
extern volatile sig_atomic_t interrupted;
extern int	signal_pipe[2];
extern void signals_init(void);
extern void signals_watch(int slot, PGconn *conn);

/* xalloc.c (log_error, usage_error, one_line, the option parsers: ../common/cli.h) */
extern char *xstrdup(const char *s);
extern char *xprintf(const char *fmt,...) PRINTF_LIKE(1, 2);
extern void *xmalloc(size_t n);
extern void *xreserve(void *buf, size_t len, size_t need, size_t *cap, size_t size);

/* db.c */
extern const char *fleet_password(const Options *opt);

#endif
