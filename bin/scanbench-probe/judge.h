/*
 * judge.h: the figures and the judgement of each pass (judge.c).
 */
#ifndef SCANBENCH_PROBE_JUDGE_H
#define SCANBENCH_PROBE_JUDGE_H

#include <stdbool.h>

#include "options.h"
#include "probe.h"
#include "profiles.h"
#include "server.h"

typedef enum
{
	COLD_UNKNOWN,				/* neither shown cold nor shown warm */
	COLD_YES,
	COLD_NO
} Coldness;

typedef struct Judged
{
	double		scanned_bytes;	/* the blocks the scan went through */
	double		scan_mb_s;		/* over the execution time, MB/s (10^6) */
	double		hit_pct;		/* blocks found in shared buffers, % */
	double		read_wait_s;	/* NAN without track_io_timing */
	double		read_wait_mb_s; /* blocks read over the read wait, MB/s */
	double		wait_us_block;
	double		request_bytes;	/* the size of a read request */
	const char *request_from;	/* where that size comes from */
	double		wait_ms_request;	/* read wait per request (18); NAN */
	double		latency_ms;		/* stated; NAN */
	double		from_volume_min_pct;	/* of the blocks, from the volume */
	double		from_volume_max_pct;
	Coldness	cold;
	char	   *why;			/* the evidence, in sentences */
	char	   *note;			/* what else the figures show; or NULL */
	/* against the volume: NAN / false without a profile */
	double		limit_mb_s;		/* baseline at the request size */
	bool		limit_by_requests;
	double		burst_limit_mb_s;
	double		volume_pct;		/* scan rate as % of limit_mb_s */
	bool		burst;			/* faster than the baseline, within a burst */
	bool		at_limit;		/* cold, within 10 % of the limit */
	const char *verdict;		/* the history's marks; NULL: none given */
} Judged;

/* What one run found, as the report and the history read it. */
typedef struct Outcome
{
	const char *server_name;	/* --name, or HOST:PORT/DBNAME */
	const ServerInfo *server;
	const TableInfo *table;
	const Profile *profile;		/* NULL without --storage */
	const Run  *run;
	const Judged *judged;		/* one a pass done */
	int			figure;			/* the pass that is the figure; -1 */
	bool		below;			/* the figure is below --min-pct */
} Outcome;

extern void judge_pass(const Pass *p, const Judged *first, const Run *run, const TableInfo *t,
					   const ServerInfo *s, const Profile *profile, const Options *opt,
					   Judged *j);
extern const char *coldness_name(Coldness c);
extern int	judge_figure(const Judged *j, int n);
extern char *size_text(double bytes);

#endif							/* SCANBENCH_PROBE_JUDGE_H */
