/*
 * load.h: the load, step by step (load.c).
 */
#ifndef SCANBENCH_LOAD_LOAD_H
#define SCANBENCH_LOAD_LOAD_H

#include "dbt3.h"
#include "options.h"
#include "progress.h"

extern int	load(const Options *opt, const Dbt3 *gen, Progress *pg);

#endif							/* SCANBENCH_LOAD_LOAD_H */
