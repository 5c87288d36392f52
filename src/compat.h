/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every difference between the PostgreSQL majors scanbench builds
 *	  against (15 to 19, each tested), in one place.  The rest of the code uses only the
 *	  sb_* names below, spelled as the newest server spells them.
 *
 * The parts that need the server's internal headers live beside it, one
 * header a subsystem, each including what it needs, so that the file
 * that uses a part includes it, in any order: compat_bufmgr.h (the
 * buffer manager's internals), compat_guc.h (the settings tables),
 * compat_executor.h (a scan's I/O statistics).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_H
#define SCANBENCH_COMPAT_H

/*
 * 15 is the oldest major tested; the code for 14 was never run, so it is
 * gone rather than kept untried.
 */
#if PG_VERSION_NUM < 150000
#error "scanbench needs PostgreSQL 15 or later"
#endif

#include "common/relpath.h"
#include "executor/instrument.h"
#include "nodes/plannodes.h"
#include "pgstat.h"
#include "utils/rel.h"

/*
 * Physical identity of a relation: RelFileNode until 15, RelFileLocator
 * from 16 on.
 */
#if PG_VERSION_NUM >= 160000
typedef RelFileLocator SbFileId;
#define SbRelFileId(rel)			((rel)->rd_locator)
#define SbFileIdEquals(a, b)		RelFileLocatorEquals(a, b)
#else
typedef RelFileNode SbFileId;
#define SbRelFileId(rel)			((rel)->rd_node)
#define SbFileIdEquals(a, b)		RelFileNodeEquals(a, b)
#endif

/*
 * Path of a relation's main fork, relative to the data directory, as a
 * palloc'd string.  relpathbackend() takes a BackendId until 16 and a
 * ProcNumber from 17 (both live in rd_backend), and returns a RelPathStr
 * struct instead of a palloc'd string from 18.
 */
#if PG_VERSION_NUM >= 180000
#define sb_relation_path(rel) \
	pstrdup(relpathbackend(SbRelFileId(rel), (rel)->rd_backend, MAIN_FORKNUM).str)
#else
#define sb_relation_path(rel) \
	relpathbackend(SbRelFileId(rel), (rel)->rd_backend, MAIN_FORKNUM)
#endif

/* Relation kinds that have a table access method: named in 15. */
#ifndef RELKIND_HAS_TABLE_AM
#define RELKIND_HAS_TABLE_AM(relkind) \
	((relkind) == RELKIND_RELATION || \
	 (relkind) == RELKIND_TOASTVALUE || \
	 (relkind) == RELKIND_MATVIEW)
#endif

/* Time spent reading shared blocks: split by buffer kind in 17. */
#if PG_VERSION_NUM >= 170000
#define sb_bufusage_read_time(u)	((u)->shared_blk_read_time)
#else
#define sb_bufusage_read_time(u)	((u)->blk_read_time)
#endif

/*
 * The backend's pending statistics of a relation: tuples returned by its
 * scans so far, and its blocks asked of the buffer manager and found
 * there.  sb_pgstat_counting() attaches the counters if statistics
 * are collected (track_counts) and says whether they are.  Counters moved
 * to the cumulative statistics system in 15 and lost their t_ prefix in 16.
 */
#define sb_pgstat_counting(rel)			pgstat_should_count_relation(rel)
#if PG_VERSION_NUM >= 160000
#define sb_pgstat_tuples_returned(rel)	((rel)->pgstat_info->counts.tuples_returned)
#define sb_pgstat_blocks_fetched(rel)	((rel)->pgstat_info->counts.blocks_fetched)
#define sb_pgstat_blocks_hit(rel)		((rel)->pgstat_info->counts.blocks_hit)
#else
#define sb_pgstat_tuples_returned(rel)	((rel)->pgstat_info->t_counts.t_tuples_returned)
#define sb_pgstat_blocks_fetched(rel)	((rel)->pgstat_info->t_counts.t_blocks_fetched)
#define sb_pgstat_blocks_hit(rel)		((rel)->pgstat_info->t_counts.t_blocks_hit)
#endif

/* Parse analysis with fixed parameters (its name from 15 on). */
#define sb_parse_analyze(raw, sql) \
	parse_analyze_fixedparams(raw, sql, NULL, 0, NULL)

/*
 * tuplestore_putvalues(), which the set-returning functions fill their
 * rows with: funcapi.h brought in utils/tuplestore.h until 18, not in 19.
 */
#include "utils/tuplestore.h"

/*
 * A set-returning call in materialize mode: InitMaterializedSRF() from 16
 * on.  15.0 called it SetSingleFuncCall(); 15.1 renamed it and kept the
 * old name as a function, so every 15.x has the old name and a library
 * built against any 15.x loads on 15.0.
 */
#include "funcapi.h"
#if PG_VERSION_NUM >= 160000
#define sb_materialized_srf(call)	InitMaterializedSRF(call, 0)
#else
#define sb_materialized_srf(call)	SetSingleFuncCall(call, 0)
#endif

/*
 * The varlena macros (VARDATA, SET_VARSIZE, ...), which the caches'
 * snapshot as bytea is built and read with: in postgres.h until 15, in
 * varatt.h from 16, which postgres.h no longer brings in on 19.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * Privileges on a tablespace: pg_tablespace_aclcheck() until 15, the
 * generic object_aclcheck() from 16.  Callers include utils/acl.h and
 * catalog/pg_tablespace.h.
 */
#if PG_VERSION_NUM >= 160000
#define sb_tablespace_aclcheck(spc, role, mode) \
	object_aclcheck(TableSpaceRelationId, spc, role, mode)
#else
#define sb_tablespace_aclcheck(spc, role, mode) \
	pg_tablespace_aclcheck(spc, role, mode)
#endif

/* The same for functions: pg_proc_aclcheck() until 15. */
#if PG_VERSION_NUM >= 160000
#define sb_function_aclcheck(fn, role, mode) \
	object_aclcheck(ProcedureRelationId, fn, role, mode)
#else
#define sb_function_aclcheck(fn, role, mode) \
	pg_proc_aclcheck(fn, role, mode)
#endif

/*
 * Planning a query: pg_plan_query() takes the ExplainState of an EXPLAIN
 * in progress from 19 on (NULL: none).
 */
#if PG_VERSION_NUM >= 190000
#define sb_plan_query(q, sql, opts, params) \
	pg_plan_query(q, sql, opts, params, NULL)
#else
#define sb_plan_query(q, sql, opts, params) \
	pg_plan_query(q, sql, opts, params)
#endif

/*
 * Read streams (17 on) need nothing here: scanbench's scans read through
 * the table access method's own stream.  19 adds read_stream_pause() and
 * read_stream_resume(), which scanbench does not call, and counts each
 * scan's reads for EXPLAIN (ANALYZE, IO): with INSTRUMENT_IO a seq scan
 * begins its heap scan with SO_SCAN_INSTRUMENT, and its stream adds to
 * the scan descriptor's rs_instrument->io (IOStats); a parallel worker's
 * counts reach the leader's node in sinstrument when the workers finish
 * (ExecSeqScanRetrieveInstrumentation).  sb_seqscan_io_stats() adds the
 * leader's and the workers' counts, as EXPLAIN sums them, once the plan
 * has run and before ExecutorEnd ends the scan; before 19 there are none
 * and it adds nothing.
 */

/* ExecutorRun lost its execute_once argument in 18. */
#if PG_VERSION_NUM >= 180000
#define sb_executor_run(qd)		ExecutorRun(qd, ForwardScanDirection, 0)
#define sb_executor_run_rows(qd, n)	ExecutorRun(qd, ForwardScanDirection, n)
#else
#define sb_executor_run(qd)		ExecutorRun(qd, ForwardScanDirection, 0, true)
/* run again and again, n rows at a time: not once */
#define sb_executor_run_rows(qd, n)	ExecutorRun(qd, ForwardScanDirection, n, false)
#endif

/*
 * A plan for one member of a partitioned or inheritance tree, run after
 * SELECT was checked on the tree's root (which is all a query through the
 * root checks): drop the plan's own permission checks.  They moved from the
 * range table entries to a list of RTEPermissionInfo in 16.
 */
#if PG_VERSION_NUM >= 160000
static inline void
sb_plan_drop_permission_checks(PlannedStmt *plan)
{
	ListCell   *lc;

	foreach(lc, plan->rtable)
		lfirst_node(RangeTblEntry, lc)->perminfoindex = 0;
	plan->permInfos = NIL;
}
#else
static inline void
sb_plan_drop_permission_checks(PlannedStmt *plan)
{
	ListCell   *lc;

	foreach(lc, plan->rtable)
		lfirst_node(RangeTblEntry, lc)->requiredPerms = 0;
}
#endif

/* A seeded random stream, for drawing stretches. */
#include "common/pg_prng.h"
typedef pg_prng_state SbPrng;
#define sb_prng_seed(s, seed)		pg_prng_seed(s, seed)
#define sb_prng_range(s, lo, hi)	pg_prng_uint64_range(s, lo, hi)

/*
 * Writing back and evicting one cache line from every CPU cache, from user
 * space: CLFLUSH on x86 (SSE2, every x86-64), DC CIVAC on 64-bit ARM
 * (Linux lets user space issue it).  Elsewhere cache.c falls back to
 * reading a buffer larger than the caches.
 */
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#include <emmintrin.h>
#define SB_HAVE_FLUSH_LINE 1
#define sb_flush_line(p)		_mm_clflush(p)
#define sb_flush_fence()		_mm_mfence()
#elif defined(__aarch64__)
#define SB_HAVE_FLUSH_LINE 1
#define sb_flush_line(p)		__asm__ __volatile__("dc civac, %0" : : "r" (p) : "memory")
#define sb_flush_fence()		__asm__ __volatile__("dsb sy" : : : "memory")
#endif

/*
 * What a sequential scan's reads answer to, for scan_advice's candidates
 * (advice.c), as constants so that the code reads as plain C:
 * - from 17 a seq scan reads through a read stream, which keeps up to
 *   effective_io_concurrency I/Os of up to io_combine_limit blocks in
 *   flight; before 17 it reads 8 kB at a time and neither setting
 *   reaches it (effective_io_concurrency drove bitmap heap scans only);
 * - 18 caps io_combine_limit at io_max_combine_limit, set at server
 *   start, and adds io_method (sync, worker, io_uring); with worker the
 *   pool is io_workers (reloaded, not restarted) in 18, and from 19 the
 *   pool sizes itself up to io_max_workers;
 * - 18's initdb turns data checksums on by default, which every page
 *   read into shared buffers pays for in CPU.
 */
#define SB_SEQSCAN_READ_STREAM		(PG_VERSION_NUM >= 170000)
#define SB_HAVE_IO_MAX_COMBINE_LIMIT	(PG_VERSION_NUM >= 180000)
#define SB_HAVE_IO_METHOD			(PG_VERSION_NUM >= 180000)
/*
 * The largest values those settings take, for the files that include
 * storage/bufmgr.h and storage/proc.h (a setting's own bounds are not
 * read from its definition, whose layout 19 changed).
 */
#define SB_MAX_IO_CONCURRENCY		MAX_IO_CONCURRENCY
#if PG_VERSION_NUM >= 170000
#define SB_MAX_IO_COMBINE_LIMIT		MAX_IO_COMBINE_LIMIT
#else
#define SB_MAX_IO_COMBINE_LIMIT		1
#endif
#if PG_VERSION_NUM >= 180000
#define SB_IO_POOL_MAX				MAX_IO_WORKERS
#else
#define SB_IO_POOL_MAX				0
#endif
#if PG_VERSION_NUM >= 190000
#define SB_IO_POOL_SETTING			"io_max_workers"
#else
#define SB_IO_POOL_SETTING			"io_workers"
#endif

#endif							/* SCANBENCH_COMPAT_H */
