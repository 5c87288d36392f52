/*-------------------------------------------------------------------------
 *
 * toastscan.h
 *	  A scan that detoasts every value of a table's TOASTed columns, as a
 *	  client fetching the rows makes the server do, against raw reads of
 *	  the table's main fork, its TOAST table and the TOAST table's index,
 *	  alternated in rounds (toastscan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_TOASTSCAN_H
#define SCANBENCH_TOASTSCAN_H

#include "nodes/plannodes.h"

#include "relfiles.h"
#include "verdict.h"
#include "seqread.h"

/*
 * Rounds of a raw read of the three relations and a scan, alternated,
 * until the interval is this narrow; the least a judgement needs is the
 * judge's (SB_RULE_TOAST_ROUNDS, judgerules.h).
 */
#define SB_TOAST_MAX_ROUNDS		100
#define SB_TOAST_TARGET_PCT		5.0

/* The table, its TOAST table and index, and the planned scan. */
typedef struct SbToast
{
	SbTarget   *main;
	SbTarget   *toast;
	SbTarget   *index;
	int			nsegs;			/* the three's files, in that order */
	SbSegment **segs;
	int			ncolumns;		/* the columns detoasted */
	char	  **columns;
	char	   *sql;
	PlannedStmt *plan;
} SbToast;

/* One timed scan. */
typedef struct SbToastRun
{
	int64		rows;
	int64		values;			/* values detoasted */
	int64		bytes;			/* their bytes, detoasted */
	double		seconds;		/* wall clock, executor start to end */
} SbToastRun;

/* Rounds of the raw reads and of the scan. */
typedef struct SbToastRounds
{
	int			rounds;
	SbToastRun	last;			/* the last scan */
	double		read_s;			/* summed over the rounds */
	uint64		read_bytes;
	double		scan_s;
	double		pct;			/* the scan's rate, % of the reads' */
	double		pct_lo;			/* its interval (NaN: too few rounds) */
	double		pct_hi;
	double		cached_pct_before;	/* the most found before a timed side */
	bool		budget_hit;
} SbToastRounds;

/* toast_efficiency's figures: the relations, the rounds, the verdict. */
typedef struct SbToastCall
{
	Oid			toast_relid;
	int			ncolumns;		/* the columns detoasted */
	char	  **columns;
	int64		main_bytes;
	int64		toast_bytes;
	int64		index_bytes;
	SbToastRounds rounds;
	double		elapsed_s;
	SbVerdict	verdict;
} SbToastCall;

extern void sb_toast_check(Oid relid);
extern SbToast *sb_toast_open(Oid relid);
extern void sb_toast_plan(SbToast *t);
extern void sb_toast_scan(SbToast *t, SbToastRun *r);
extern void sb_toast_read(SbToast *t, SbReadResult *r);
extern void sb_toast_evict(SbToast *t);
extern double sb_toast_cached_pct(SbToast *t);
extern void sb_toast_rounds(SbToast *t, bool cold, double max_seconds,
							SbToastRounds *out);
extern void sb_toast_close(SbToast *t);
extern void sb_toast_call(Oid relid, bool cold, double max_seconds,
						  SbToastCall *out);

#endif							/* SCANBENCH_TOASTSCAN_H */
