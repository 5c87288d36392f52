/*-------------------------------------------------------------------------
 *
 * advice_candidates.h
 *	  scan_advice()'s candidates, each measured or predicted from the
 *	  call's breakdown (advice_candidates.c), and the call's context they
 *	  and advice.c share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCANBENCH_ADVICE_CANDIDATES_H
#define SCANBENCH_ADVICE_CANDIDATES_H

#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "advice.h"
#include "cgroup.h"
#include "devices.h"
#include "settings.h"
#include "stats.h"


typedef struct SbAdviceCtx
{
	SbAdviceArgs *args;
	int			cur_workers;	/* what the planner gives this scan now */
	/* the breakdown */
	double		wall;
	double		t_read;
	double		t_cpu;
	double		scan_cpu_s;		/* CPU time of the scan */
	double		read_cpu_s;		/* CPU time of the raw read */
	double		warm_cpu_s;		/* CPU time of the warm scan */
	double		scan_mb_s;
	double		read_mb_s;
	double		warm_mb_s;
	double		direct_mb_s;	/* NaN unless cold and O_DIRECT works */
	double		device_mb_s;	/* O_DIRECT at depth; NaN as direct_mb_s, and
								 * under a read limit */
	double		storage_mb_s;	/* the best the storage gave */
	/* the device under the data, and its read-ahead window */
	SbLayer    *dev;			/* the disk (NULL: none, as under FUSE) */
	char	   *ra_dev;			/* /dev/X, else the backing device's sysfs */
	bool		ra_block;		/* ra_dev is a block device */
	int64		ra_kb;			/* the window, kB; -1 unknown */
	bool		window_limited; /* the window, not the device, sets the
								 * rate: a read-ahead row is given */
	bool		costs;			/* the tablespace's costs are measured: cold,
								 * on one table page_costs can measure */
	double		cached_pct;		/* of the table before the call, if costs */
	bool		cpu_limited;
	/* seconds of every scan under the current settings, as args->cache */
	SbSamples	scan_s;
	/* the machine */
	SbCgroupLimits limits;
	char		cpu_dir[1024];
	char		io_dir[1024];
	double		quota_cpus;		/* NaN: no quota */
	double		cpus;			/* online, under the quota */
	SbServerFacts facts;
	MemoryContext passcxt;		/* reset after every pair */
	List	   *out;
} SbAdviceCtx;

/* One candidate a session can try: B is the proposed value. */
typedef struct SbTrial
{
	SbAdvice   *a;
	const char *guc;			/* set for B; NULL: B is b_workers */
	const char *guc_value;
	int			b_workers;
	double		bound;			/* the model's, if it cannot be measured */
	char	   *model;
} SbTrial;

extern double sb_advice_elapsed_s(SbAdviceCtx *c);
extern void sb_advice_predict(SbAdvice *a, double bound, const char *basis);
extern void sb_advice_io_session(SbAdviceCtx *c, List **trials);
extern void sb_advice_io_server(SbAdviceCtx *c);
extern void sb_advice_find_device(SbAdviceCtx *c);
extern void sb_advice_io_host(SbAdviceCtx *c);
extern void sb_advice_cpu(SbAdviceCtx *c, List **trials);
extern void sb_advice_costs(SbAdviceCtx *c);

#endif							/* SCANBENCH_ADVICE_CANDIDATES_H */
