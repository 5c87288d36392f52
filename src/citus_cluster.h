/*-------------------------------------------------------------------------
 *
 * citus_cluster.h
 *	  scan_efficiency's figure for a Citus table: the cluster's, from
 *	  passes over every placement on its node (citus_cluster.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CITUS_CLUSTER_H
#define SCANBENCH_CITUS_CLUSTER_H

#include "request.h"

extern Datum sb_citus_scan_efficiency(const SbEfficiencyRequest *req);

#endif							/* SCANBENCH_CITUS_CLUSTER_H */
