/*-------------------------------------------------------------------------
 *
 * compat_explain.h
 *	  What EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) is asked for and the
 *	  keys it answers with, across the majors, for planscan.c (compat.h
 *	  has the rest).  Plain constants: no server header is needed.
 *
 * The time a node waited for its reads is "I/O Read Time" until 16, and
 * "Shared I/O Read Time" plus "Local I/O Read Time" from 17 (temporary
 * files' reads, "Temp I/O Read Time" from 16, are not a relation's).  19
 * adds the IO option: a node that reads through a read stream (a
 * sequential or bitmap heap scan) then says how many of its reads were
 * in progress on average, "Average I/Os In Progress" (beside its
 * prefetch distance, its I/O count and size).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_COMPAT_EXPLAIN_H
#define SCANBENCH_COMPAT_EXPLAIN_H

#if PG_VERSION_NUM >= 190000
#define SB_EXPLAIN_OPTIONS	"ANALYZE, BUFFERS, VERBOSE, IO, FORMAT JSON"
#else
#define SB_EXPLAIN_OPTIONS	"ANALYZE, BUFFERS, VERBOSE, FORMAT JSON"
#endif

#if PG_VERSION_NUM >= 170000
#define SB_EXPLAIN_READ_TIME_KEYS	{"Shared I/O Read Time", "Local I/O Read Time"}
#else
#define SB_EXPLAIN_READ_TIME_KEYS	{"I/O Read Time"}
#endif

/*
 * The reads a node kept in flight, on average, where the server says, and
 * its count of reads (NULL before 19: a node has no such key then).
 */
#if PG_VERSION_NUM >= 190000
#define SB_EXPLAIN_IN_FLIGHT_KEY	"Average I/Os In Progress"
#define SB_EXPLAIN_IO_COUNT_KEY		"I/O Count"
#else
#define SB_EXPLAIN_IN_FLIGHT_KEY	NULL
#define SB_EXPLAIN_IO_COUNT_KEY		NULL
#endif

#endif							/* SCANBENCH_COMPAT_EXPLAIN_H */
