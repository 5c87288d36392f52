/*
 * history.h: the central history (history.c).
 */
#ifndef SCANBENCH_PROBE_HISTORY_H
#define SCANBENCH_PROBE_HISTORY_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "judge.h"
#include "options.h"

extern PGconn *history_connect(const Options *opt, const char *password, char **error);
extern bool history_record(PGconn *conn, const Options *opt, const Outcome *o, char **error);

#endif							/* SCANBENCH_PROBE_HISTORY_H */
