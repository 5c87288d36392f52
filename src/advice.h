/*-------------------------------------------------------------------------
 *
 * advice.h
 *	  What would make a scan faster here: the candidate changes of
 *	  settings, of the server and of the host, each measured against the
 *	  current setting where a session can try it, or predicted from the
 *	  scan's breakdown where it cannot (advice.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_ADVICE_H
#define SCANBENCH_ADVICE_H

#include "nodes/pg_list.h"
#include "portability/instr_time.h"

#include "cache.h"
#include "relfiles.h"

/* One candidate change.  Unknown figures are NaN. */
typedef struct SbAdvice
{
	char	   *setting;		/* a setting, or the host's knob */
	char	   *value;			/* proposed */
	char	   *current;
	double		gain;			/* scan rate with the change / without */
	double		gain_lo;		/* its interval (measured), or NaN */
	double		gain_hi;		/* measured: interval; predicted: the bound */
	bool		measured;
	int			pairs;			/* measured pairs, 0 when predicted */
	char	   *basis;			/* how the gain was found, or the model */
	char	   *cost;			/* none, CPU, memory, reload, restart, root */
	char	   *command;		/* the exact command that makes the change */
} SbAdvice;

/* What the caller asks for. */
typedef struct SbAdviceArgs
{
	SbTarget   *target;
	SbCacheMode cache;
	const char *query;			/* the select list, checked */
	double		max_seconds;
	instr_time	start;			/* when the call began */
} SbAdviceArgs;

extern List *sb_advise(SbAdviceArgs *args);

#endif							/* SCANBENCH_ADVICE_H */
