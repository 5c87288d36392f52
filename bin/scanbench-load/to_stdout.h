/*
 * to_stdout.h: --stdout, the rows on standard output (to_stdout.c).
 */
#ifndef SCANBENCH_LOAD_TO_STDOUT_H
#define SCANBENCH_LOAD_TO_STDOUT_H

#include "dbt3.h"
#include "options.h"
#include "progress.h"

extern int	write_stdout(const Options *opt, const Dbt3 *gen, Progress *pg);

#endif							/* SCANBENCH_LOAD_TO_STDOUT_H */
