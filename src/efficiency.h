/*-------------------------------------------------------------------------
 *
 * efficiency.h
 *	  scan_efficiency()'s measurement on one server, written into the
 *	  row it returns (efficiency.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_EFFICIENCY_H
#define SCANBENCH_EFFICIENCY_H

#include "efficiency_row.h"
#include "request.h"

extern void sb_efficiency(const SbEfficiencyRequest *req, SbEfficiencyRow *r);

#endif							/* SCANBENCH_EFFICIENCY_H */
