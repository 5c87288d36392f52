/*
 * dbt3_text.h: the generator's calendar and comment pool (dbt3_text.c).
 */
#ifndef DBT3_TEXT_H
#define DBT3_TEXT_H

#include <stdint.h>

#include "dbt3.h"

extern void dbt3_build_calendar(Dbt3 *g);
extern void dbt3_build_pool(char *pool, uint64_t key);

#endif							/* DBT3_TEXT_H */
