/*
 * step.h: one statement of a load, its error kept (step.c).
 */
#ifndef SCANBENCH_LOAD_STEP_H
#define SCANBENCH_LOAD_STEP_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "load_state.h"

extern bool load_step(Load *ld, PGconn *conn, const char *sql);

#endif							/* SCANBENCH_LOAD_STEP_H */
