/*-------------------------------------------------------------------------
 *
 * request.h
 *	  What an SQL function was asked, decoded once by its entry file in
 *	  src/entry/ from whichever released definition the caller's database
 *	  has, into a plain struct: the engine reads these and never fcinfo.
 *
 * A database not yet at ALTER EXTENSION UPDATE calls the new library
 * through an older CREATE FUNCTION, with fewer arguments or others in
 * their place.  Decoding in one place means one answer to "what was
 * asked", whichever path (one server, a Citus cluster) measures it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_REQUEST_H
#define SCANBENCH_REQUEST_H

#include "access/tupdesc.h"

#include "argcheck.h"
#include "cache.h"

/* scan_efficiency(rel, cache, block_size, runs, sample, max_seconds,
 * target_pct, method, with_write, record, restore) */
typedef struct SbEfficiencyRequest
{
	Oid			relid;
	SbCacheMode cache;
	int32		block_size;
	int32		runs;
	double		sample;
	double		max_seconds;
	double		target_pct;
	SbMethod	method;
	bool		with_write;
	bool		record;
	bool		restore;
	Oid			schema;			/* the called function's: the history's too */
	TupleDesc	tupdesc;		/* the caller's result type */
} SbEfficiencyRequest;

#endif							/* SCANBENCH_REQUEST_H */
