/*
 * staging.h: dropping the staging table a load fills (staging.c).
 */
#ifndef SCANBENCH_LOAD_STAGING_H
#define SCANBENCH_LOAD_STAGING_H

#include "load_state.h"

extern void load_drop_stale_staging(Load *ld);
extern void load_drop_staging(Load *ld);

#endif							/* SCANBENCH_LOAD_STAGING_H */
