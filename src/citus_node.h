/*-------------------------------------------------------------------------
 *
 * citus_node.h
 *	  One step of a Citus measurement on a node's own placements
 *	  (citus_node.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_CITUS_NODE_H
#define SCANBENCH_CITUS_NODE_H

#include "cache.h"

typedef enum SbNodeStep
{
	SB_STEP_READ,
	SB_STEP_SCAN,
	SB_STEP_PREPARE,
	SB_STEP_SNAPSHOT,
	SB_STEP_RESTORE
} SbNodeStep;

extern SbNodeStep sb_citus_node_step_parse(const char *step);
extern char *sb_citus_node_step(SbNodeStep step, SbCacheMode cache,
								int block_size, Datum *ids, Datum *names,
								Datum *snaps, int nids);

#endif							/* SCANBENCH_CITUS_NODE_H */
