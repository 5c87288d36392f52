/*
 * db.h: connecting and running statements (db.c).
 */
#ifndef SCANBENCH_LOAD_DB_H
#define SCANBENCH_LOAD_DB_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "cli.h"
#include "options.h"

extern PGconn *connect_db(const Options *opt);
extern PGconn *connect_db_for_table(const Options *opt, const char *table, char **schema);
extern PGconn *reconnect_db(const Options *opt, double seconds);
extern bool run_sql(PGconn *conn, const char *sql, const char *what);
extern bool run_cleanup_sql(PGconn *conn, const char *sql);
extern char *query_value(PGconn *conn, const char *sql, const char *qname);
extern PGresult *query_rows(PGconn *conn, const char *sql, const char *param);
extern char *sqlf(const char *fmt,...) PRINTF_LIKE(1, 2);

#endif							/* SCANBENCH_LOAD_DB_H */
