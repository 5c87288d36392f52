/*
 * indexes.h: the indexes --index builds, checked, built and renamed in
 * (indexes.c).
 */
#ifndef SCANBENCH_LOAD_INDEXES_H
#define SCANBENCH_LOAD_INDEXES_H

#include <stdbool.h>

#include <libpq-fe.h>

#include "load_state.h"

extern bool load_check_index_names(Load *ld);
extern bool load_build_indexes(Load *ld, PGconn *conn);
extern bool load_rename_indexes(Load *ld, PGconn *conn);

#endif							/* SCANBENCH_LOAD_INDEXES_H */
