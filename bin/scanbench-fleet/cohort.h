/*
 * cohort.h: the judgement, each row against its cohort and its own
 * history (cohort.c).
 */
#ifndef SCANBENCH_FLEET_COHORT_H
#define SCANBENCH_FLEET_COHORT_H

#include "measure.h"
#include "options.h"

extern void judge_rows(const Options *opt, Row *rows, int nrows);

#endif							/* SCANBENCH_FLEET_COHORT_H */
