/*
 * locks.h: the steps of a load that take ACCESS EXCLUSIVE, and what would
 * make the DROP of the old table fail (locks.c).
 */
#ifndef SCANBENCH_LOAD_LOCKS_H
#define SCANBENCH_LOAD_LOCKS_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "load_state.h"

extern bool load_check_dependents(Load *ld);
extern bool load_set_lock_timeout(Load *ld, PGconn *conn);
extern bool load_locked_step(Load *ld, PGconn *conn, const char *sql, const char *table);

#endif							/* SCANBENCH_LOAD_LOCKS_H */
