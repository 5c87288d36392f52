/*-------------------------------------------------------------------------
 *
 * compat_executor.h
 *	  A sequential scan begun by hand and scans' I/O statistics across the
 *	  majors, for scan.c and accesspath.c
 *	  (compat.h has the rest); it includes what it needs, so the file
 *	  that uses it may include it in any order.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_EXECUTOR_H
#define SCANBENCH_COMPAT_EXECUTOR_H

#include "nodes/execnodes.h"

/*
 * scanbench begins a seq scan itself, to bound it (scan.c), as SeqNext()
 * would with table_beginscan_strat(); on 19 that passes no flags of the
 * caller's, so the scan that counts its reads is begun with
 * SO_SCAN_INSTRUMENT through table_beginscan_common(), which
 * table_beginscan_strat() calls.
 */
#if PG_VERSION_NUM >= 190000
#define sb_beginscan_strat(rel, snapshot, count_io) \
	table_beginscan_common(rel, snapshot, 0, NULL, NULL, \
						   SO_TYPE_SEQSCAN | SO_ALLOW_PAGEMODE | SO_ALLOW_STRAT, \
						   (count_io) ? SO_SCAN_INSTRUMENT : SO_NONE)
#else
#define sb_beginscan_strat(rel, snapshot, count_io) \
	table_beginscan_strat(rel, snapshot, 0, NULL, true, false)
#endif

#if PG_VERSION_NUM >= 190000
#include "access/relscan.h"
#include "executor/instrument_node.h"

#define SB_HAVE_SCAN_IO			true
#define SB_INSTRUMENT_SCAN_IO	INSTRUMENT_IO
typedef IOStats SbIOStats;

static inline void
sb_seqscan_io_stats(SeqScanState *node, SbIOStats *sum)
{
	TableScanDesc scan = node->ss.ss_currentScanDesc;
	int			i;

	if (scan != NULL && scan->rs_instrument != NULL)
		AccumulateIOStats(sum, &scan->rs_instrument->io);
	if (node->sinstrument != NULL)
		for (i = 0; i < node->sinstrument->num_workers; i++)
			AccumulateIOStats(sum, &node->sinstrument->sinstrument[i].stats.io);
}

/*
 * Any scan node's count of the reads of its table scan, the leader's alone
 * (accesspath.c plans no workers): false where the scan did not count.
 */
static inline bool
sb_scannode_io_stats(ScanState *ss, SbIOStats *sum)
{
	TableScanDesc scan = ss->ss_currentScanDesc;

	if (scan == NULL || scan->rs_instrument == NULL)
		return false;
	AccumulateIOStats(sum, &scan->rs_instrument->io);
	return true;
}
#else
#define SB_HAVE_SCAN_IO			false
#define SB_INSTRUMENT_SCAN_IO	0
typedef struct SbIOStats
{
	uint64		prefetch_count;
	uint64		distance_sum;
	int16		distance_max;
	uint64		wait_count;
	uint64		io_count;
	uint64		io_nblocks;
} SbIOStats;

static inline void
sb_seqscan_io_stats(SeqScanState *node, SbIOStats *sum)
{
}

static inline bool
sb_scannode_io_stats(ScanState *ss, SbIOStats *sum)
{
	return false;
}
#endif

#endif							/* SCANBENCH_COMPAT_EXECUTOR_H */
