/*
 * report.h: the table, csv and json output (report.c).
 */
#ifndef SCANBENCH_FLEET_REPORT_H
#define SCANBENCH_FLEET_REPORT_H

#include "measure.h"
#include "options.h"

extern void print_report(const Options *opt, Row *rows, int nrows);

#endif							/* SCANBENCH_FLEET_REPORT_H */
