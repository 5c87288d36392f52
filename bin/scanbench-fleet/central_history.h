/*
 * central_history.h: the central history (central_history.c).
 */
#ifndef SCANBENCH_FLEET_CENTRAL_HISTORY_H
#define SCANBENCH_FLEET_CENTRAL_HISTORY_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "measure.h"
#include "options.h"

extern PGconn *history_connect(const Options *opt);
extern bool history_previous(PGconn *conn, const Options *opt, Row *rows, int nrows);
extern bool history_copy(PGconn *conn, const Options *opt, Row *rows, int nrows, long *bytes);
extern const char *history_schema_name(void);

#endif							/* SCANBENCH_FLEET_CENTRAL_HISTORY_H */
