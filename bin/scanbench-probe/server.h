/*
 * server.h: the connection and what the server is and allows (server.c).
 */
#ifndef SCANBENCH_PROBE_SERVER_H
#define SCANBENCH_PROBE_SERVER_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "options.h"

/* What the server is, and what this role may do there. */
typedef struct ServerInfo
{
	int			version_num;	/* server_version_num */
	int			major;
	char	   *version;		/* server_version */
	int			block_size;
	double		shared_buffers_bytes;
	bool		in_recovery;
	char	   *system_identifier;	/* NULL when this role may not read it */
	char	   *host;			/* as libpq reached it: no password */
	char	   *port;
	char	   *dbname;
	char	   *user;
	char	   *settings_json;	/* the I/O settings, as SHOW prints them */
	bool		io_timing_on;	/* track_io_timing is on for everyone */
	bool		io_timing_settable; /* this role may SET it */
	char	   *io_method;		/* NULL before 18 */
	double		io_combine_bytes;	/* io_combine_limit; 0 before 17 */
	bool		stat_io;		/* pg_stat_io (16 and later) */
	bool		stat_io_backend;	/* this session's own (18 and later) */
	bool		stat_io_bytes;	/* its read_bytes (18 and later) */
	bool		force_flush;	/* may call pg_stat_force_next_flush() */
	char	   *buffercache;	/* pg_buffercache's schema, quoted; NULL */
	char	   *buffercache_why;	/* why it is not used; NULL when it is */
	char	   *prewarm;		/* pg_prewarm's schema, quoted; NULL */
	char	   *prewarm_why;
} ServerInfo;

/* The table measured. */
typedef struct TableInfo
{
	char	   *oid;
	char	   *schema;
	char	   *name;
	char	   *qualified;		/* quoted, schema-qualified */
	double		bytes;			/* main fork, as the first pass found it */
	double		blocks;			/* (NAN before) */
} TableInfo;

extern PGconn *server_connect(const char *conninfo, const Options *opt, const char *password,
							  bool use_options, char **error);
extern PGresult *server_exec(PGconn *conn, const char *sql, int nparams,
							 const char *const *params, char **error);
extern char *server_error(PGconn *conn, const PGresult *r);
extern bool server_pin(PGconn *conn, const Options *opt, char **error);
extern bool server_find_table(PGconn *conn, const char *name, TableInfo *t, char **error);
extern bool server_describe(PGconn *conn, ServerInfo *s, char **error);

#endif							/* SCANBENCH_PROBE_SERVER_H */
