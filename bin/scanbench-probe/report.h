/*
 * report.h: the output, text or json (report.c).
 */
#ifndef SCANBENCH_PROBE_REPORT_H
#define SCANBENCH_PROBE_REPORT_H

#include <stdbool.h>

#include "judge.h"
#include "options.h"
#include "probe.h"
#include "profiles.h"
#include "server.h"

extern void report_print(const Options *opt, const Outcome *o);
extern void report_profiles(const ProfileSet *set);

#endif							/* SCANBENCH_PROBE_REPORT_H */
