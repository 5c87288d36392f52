/*
 * check.h: --check against the scanbench extension (check.c).
 */
#ifndef SCANBENCH_LOAD_CHECK_H
#define SCANBENCH_LOAD_CHECK_H

#include <stdbool.h>

#include <libpq-fe.h>

extern bool check_extension(PGconn *conn, char **schema);
extern bool run_check(PGconn *conn, const char *qname, const char *target, const char *schema);

#endif							/* SCANBENCH_LOAD_CHECK_H */
