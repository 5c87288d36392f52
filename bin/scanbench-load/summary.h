/*
 * summary.h: the table's size and the load's summary (summary.c).
 */
#ifndef SCANBENCH_LOAD_SUMMARY_H
#define SCANBENCH_LOAD_SUMMARY_H

#include <stdint.h>

#include "load_state.h"

extern int64_t load_table_pages(Load *ld, int64_t *shards);
extern void load_print_summary(Load *ld);

#endif							/* SCANBENCH_LOAD_SUMMARY_H */
