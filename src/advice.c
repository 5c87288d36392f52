/*-------------------------------------------------------------------------
 *
 * advice.c
 *	  What would make a scan of this relation faster here, and by how
 *	  much: scan_advice()'s engine.
 *
 * First the scan is taken apart by scan_breakdown's engine (breakdown.c)
 * on the same blocks in the same call: t_read, a raw read of the files
 * 8 kB at a time; the scan itself, wall; and t_cpu, a warm scan, the
 * executor's own cost.  Cold, the files are also read in O_DIRECT reads of
 * 1 MB: what the storage gives without the kernel's read-ahead.  With
 * perfect overlap a scan takes max(t_read, t_cpu), so the slower of the
 * two is what limits it:
 *   storage-limited (t_read >= t_cpu): only what makes reading faster can
 *     help, and the scan can go no faster than the storage's best rate,
 *     nor than the warm scan: at most min(storage, warm) / scan;
 *   CPU-limited (t_cpu > t_read): what gives the executor more CPU
 *     (parallel workers where a CPU is spare; no CPU quota; no checksum
 *     verification), at most up to the storage's rate.
 * Those bounds are the model every predicted row states in its basis.
 *
 * Then every candidate a session can try itself is measured: pairs of
 * whole scans, one under the current setting (A) and one under the
 * proposed value (B), the order alternating from pair to pair so that a
 * drifting machine moves both alike, each pair giving the ratio of the
 * two rates; the gain is the median ratio, with the order-statistics
 * interval of the median (stats.c) once there are enough pairs.  The
 * pairs are scan_efficiency's (pairs.c), each scan scan_rate's with the
 * call's cache.  Each scan sets its value at a GUC nest level of its own,
 * undone after it and by transaction abort, so the session's settings
 * are the same on every exit.  The time left after the breakdown is split evenly between
 * the candidates still to measure; one that gets no pair in its share is
 * predicted instead, and says so.
 *
 * Candidates a session cannot try (settings read at server start or on
 * reload, data checksums, the host's read-ahead and scheduler, a control
 * group's limits) are predicted from the breakdown, never measured, and
 * their rows say which model gave the figure.
 *
 * Cold, the last SB_ADVICE_COSTS_SHARE of the time measures the table's
 * tablespace as page_costs does (pagecost.c): a random_page_cost row when
 * the one in force is outside the measured range, an
 * effective_io_concurrency row when it is below the depth bitmap heap
 * scans need.  Neither changes this scan's rate, only which plans the
 * planner picks and how deep a bitmap heap scan reads, so neither has a
 * gain; their basis gives the figures.
 *
 * This file takes the breakdown, measures the trials and orders the rows;
 * the candidates, and the models that predict them, are
 * advice_candidates.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <unistd.h>

#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "advice.h"
#include "advice_candidates.h"
#include "argcheck.h"
#include "breakdown.h"
#include "cgroup.h"
#include "compat.h"
#include "pagecost.h"
#include "pairs.h"
#include "seqread.h"
#include "sampler.h"
#include "scan.h"
#include "settings.h"
#include "stats.h"
#include "verdict.h"

/* O_DIRECT reads of 1 MB, as fio --direct=1 --bs=1M (sampler.h). */
#define SB_ADVICE_DIRECT_BLOCK	(1024 * 1024)

/*
 * A candidate's pairs stop once the interval of the median ratio is this
 * narrow (half-width in % of the median) on at least SB_ADVICE_MIN_PAIRS
 * pairs, or at SB_ADVICE_MAX_PAIRS: a gain of 1.30 told to +-5 % says
 * which change to make, and more pairs would only spend the budget.
 */
#define SB_ADVICE_TARGET_PCT	5.0
#define SB_ADVICE_MIN_PAIRS		10
#define SB_ADVICE_MAX_PAIRS		40

#define SB_ADVICE_BURST_RATIO	1.1		/* faster than a throttle allows */

/*
 * The share of max_seconds kept, cold, for the tablespace's page costs
 * and depths (page_costs' measurement), on a table large enough for it.
 */
#define SB_ADVICE_COSTS_SHARE	0.3

/*
 * The workers the planner gives a plain scan of this relation now, by its
 * own rule (compute_parallel_worker): none below
 * min_parallel_table_scan_size, then one more each time the size triples,
 * at most max_parallel_workers_per_gather and max_parallel_workers.  A
 * reloption parallel_workers is not read: the figure is the default's.
 */
static int
planner_workers(BlockNumber pages)
{
	int			most = Min(sb_setting_int("max_parallel_workers_per_gather"),
						   sb_setting_int("max_parallel_workers"));
	double		threshold = Max(sb_setting_int("min_parallel_table_scan_size"), 1);
	int			workers = 1;

	if (most <= 0 || pages < threshold)
		return 0;
	while (pages >= threshold * 3 && workers < most)
	{
		workers++;
		threshold *= 3;
	}
	return Min(workers, most);
}

/* The whole relation in O_DIRECT reads of 1 MB, MB/s; NaN if refused. */
static double
direct_rate(SbTarget *target)
{
	char	   *buf = sb_aligned_buffer(SB_ADVICE_DIRECT_BLOCK);
	uint64		bytes = 0;
	double		seconds = 0;
	int			i;

	for (i = 0; i < target->nsegments; i++)
	{
		SbReadResult r;

		CHECK_FOR_INTERRUPTS();
		memset(&r, 0, sizeof(r));
		if (!sb_raw_read_stretch(target->segments[i], buf, SB_ADVICE_DIRECT_BLOCK,
								 true, &r))
			return NAN;
		bytes += r.bytes;
		seconds += r.timing.seconds;
	}
	return sb_rate(bytes / SB_MB, seconds);
}

/*
 * The whole relation in O_DIRECT reads of 1 MB with up to SB_DEVICE_DEPTH
 * in flight, as scan_efficiency reads the device, MB/s; NaN if refused.
 */
static double
device_rate(SbTarget *target)
{
	SbReadResult r;
	int			depth = (int) Max(1, Min(SB_DEVICE_DEPTH, target->bytes / SB_DEVICE_BLOCK));

	memset(&r, 0, sizeof(r));
	if (!sb_read_in_flight(target->segments, target->nsegments, SB_DEVICE_BLOCK,
						   depth, true, true, &r))
		return NAN;
	return sb_rate(r.bytes / SB_MB, r.timing.seconds);
}

static void
take_breakdown(SbAdviceCtx *c)
{
	SbAdviceArgs *args = c->args;
	SbTarget   *t = args->target;
	SbBreakdown b;

	/* Uninstrumented: the trials' scans it is set against are too. */
	sb_breakdown(t, args->query, c->cur_workers, args->cache, false, &b);
	c->direct_mb_s = args->cache == SB_CACHE_COLD ? direct_rate(t) : NAN;
	/*
	 * Under a read throttle, O_DIRECT reads faster than it ran in the
	 * throttle's allowance (one read of a whole segment after an idle
	 * gap): not what the device delivers over time, so neither shown nor
	 * used.
	 */
	if (c->limits.read_bps > 0 && !isnan(c->direct_mb_s) &&
		c->direct_mb_s > SB_ADVICE_BURST_RATIO * c->limits.read_bps / SB_MB)
		c->direct_mb_s = NAN;
	/* Under a read limit the limit, not the device, would set it. */
	c->device_mb_s = NAN;
	if (!isnan(c->direct_mb_s) && c->limits.read_bps <= 0 && c->limits.read_iops <= 0)
		c->device_mb_s = device_rate(t);

	c->wall = b.wall;
	c->t_read = b.t_read;
	c->t_cpu = b.t_cpu;
	c->scan_cpu_s = b.scan.timing.user_s + b.scan.timing.sys_s;
	c->read_cpu_s = b.read.timing.user_s + b.read.timing.sys_s;
	c->warm_cpu_s = b.warm.timing.user_s + b.warm.timing.sys_s;
	c->scan_mb_s = b.scan_mb_s;
	c->read_mb_s = b.read_mb_s;
	c->warm_mb_s = b.warm_mb_s;
	sb_samples_init(&c->scan_s);
	sb_samples_push(&c->scan_s, b.wall);
	c->storage_mb_s = c->read_mb_s;
	if (!isnan(c->direct_mb_s))
		c->storage_mb_s = Max(c->storage_mb_s, c->direct_mb_s);
	if (!isnan(c->device_mb_s))
		c->storage_mb_s = Max(c->storage_mb_s, c->device_mb_s);
	/* A throttle holds every read to it, however short the burst was. */
	if (c->limits.read_bps > 0)
		c->storage_mb_s = Min(c->storage_mb_s, c->limits.read_bps / SB_MB);
	c->cpu_limited = c->t_cpu > c->t_read;
}

/*
 * The scan's rate for the predictions made after the trials: the median
 * of the breakdown's scan and every scan the trials ran under the current
 * settings.  One pass alone moves with whatever else the machine did in
 * it: under a read throttle of 52 MB/s one breakdown's scan ran at 38
 * while scan_rate's ran at 52, and a prediction of 1.39 from it said a
 * restart might lift the scan above the throttle.
 */
static void
settle_scan_rate(SbAdviceCtx *c)
{
	if (c->scan_s.n < 2)
		return;
	c->scan_mb_s = sb_rate(c->args->target->bytes / SB_MB,
						   sb_samples_median(&c->scan_s));
}

/* ---- measuring a trial ---- */

/*
 * Pairs of A (the current settings) and B (the trial's value) until the
 * interval is narrow enough, the pairs are many enough, or the next pair
 * would overrun the deadline (its length guessed from the median of the
 * pairs so far, from the breakdown's scan before the first).  Each pair is
 * taken by the pair routine scan_efficiency's pairs use (pairs.c): both
 * sides prepared for the call's cache and timed as scan_rate() times its
 * scan, planned with their own workers and under their own setting, the
 * order alternating.
 */
static void
measure_trial(SbAdviceCtx *c, SbTrial *t, double deadline)
{
	SbSamples	ratios;
	SbSamples	pair_s;
	SbAdvice   *a = t->a;
	SbCacheMode cache = c->args->cache;
	SbPairs		pairs;
	SbSpot		whole = {NULL};
	double		lo,
				hi,
				med = NAN;
	int			n;

	sb_pairs_init(&pairs, c->args->target, cache, BLCKSZ, c->args->start,
				  Min(SB_MAP_MAX_S, SB_MAP_SHARE * c->args->max_seconds));
	pairs.query = c->args->query;
	pairs.side[0].kind = pairs.side[1].kind = SB_SIDE_SCAN;
	pairs.side[0].workers = c->cur_workers;
	pairs.side[1].workers = t->guc ? c->cur_workers : t->b_workers;
	pairs.side[1].guc = t->guc;
	pairs.side[1].guc_value = t->guc_value;
	pairs.side[0].label = psprintf("%s = %s", a->setting, a->current);
	pairs.side[1].label = psprintf("%s = %s", a->setting, a->value);

	sb_samples_init(&ratios);
	sb_samples_init(&pair_s);
	for (n = 0; n < SB_ADVICE_MAX_PAIRS; n++)
	{
		/* four passes a pair warm (each side untimed first), else two */
		double		next = pair_s.n > 0 ? sb_samples_median(&pair_s) :
			1.25 * 2 * (cache == SB_CACHE_WARM ? 2 : 1) * c->wall;
		double		t0;
		MemoryContext old;
		SbPairResult pr;

		CHECK_FOR_INTERRUPTS();
		if (sb_advice_elapsed_s(c) + next > deadline)
			break;
		if (ratios.n >= SB_ADVICE_MIN_PAIRS &&
			sb_median_ci(ratios.v, ratios.n, SB_VERDICT_CONFIDENCE, &lo, &hi) &&
			sb_halfwidth_pct(sb_quantile(ratios.v, ratios.n, 0.5), lo, hi) <= SB_ADVICE_TARGET_PCT)
			break;

		t0 = sb_advice_elapsed_s(c);
		old = MemoryContextSwitchTo(c->passcxt);
		(void) sb_pair_run(&pairs, n, &whole, &pr);
		MemoryContextSwitchTo(old);
		MemoryContextReset(c->passcxt);
		sb_samples_push(&pair_s, sb_advice_elapsed_s(c) - t0);
		if (pr.side[0].seconds > 0)
			sb_samples_push(&c->scan_s, pr.side[0].seconds);
		if (!isnan(pr.ratio))
		{
			sb_samples_push(&ratios, pr.ratio);
			sb_sorted_insert(ratios.v, ratios.n - 1, pr.ratio);
		}
	}

	if (ratios.n == 0)
	{
		sb_advice_predict(a, t->bound,
				psprintf("not measured: max_seconds left no time for a pair; %s", t->model));
		return;
	}
	med = sb_quantile(ratios.v, ratios.n, 0.5);
	a->measured = true;
	a->pairs = ratios.n;
	a->gain = med;
	if (sb_median_ci(ratios.v, ratios.n, SB_VERDICT_CONFIDENCE, &lo, &hi))
	{
		a->gain_lo = lo;
		a->gain_hi = hi;
	}
	a->basis = psprintf("measured: %d interleaved pairs of %s scans, %s = %s against %s; %s",
						ratios.n, sb_cache_name(cache), t->a->setting,
						t->a->value, t->a->current,
						isnan(a->gain_lo) ? "too few pairs for an interval" :
						"95 % interval of the median ratio");
}

static int
by_gain(const ListCell *a, const ListCell *b)
{
	SbAdvice   *x = lfirst(a);
	SbAdvice   *y = lfirst(b);
	double		gx = isnan(x->gain) ? -1 : x->gain;
	double		gy = isnan(y->gain) ? -1 : y->gain;

	if (x->measured != y->measured && fabs(gx - gy) < 1e-9)
		return x->measured ? -1 : 1;
	return gx > gy ? -1 : (gx < gy ? 1 : 0);
}

/*
 * The candidates for args' relation, each measured or predicted, best
 * gain first (a candidate with no figure last).
 */
List *
sb_advise(SbAdviceArgs *args)
{
	SbAdviceCtx c;
	List	   *trials = NIL;
	ListCell   *lc;
	int			left;
	double		trials_end;
	int			nestlevel;
	long		online = sysconf(_SC_NPROCESSORS_ONLN);
	char	   *path = sb_target_first_path(args->target);

	memset(&c, 0, sizeof(c));
	c.args = args;
	c.passcxt = AllocSetContextCreate(CurrentMemoryContext, "scanbench advice pair",
									  ALLOCSET_DEFAULT_SIZES);
	sb_server_facts(&c.facts);
	sb_cgroup_limits(path ? path : ".", &c.limits);
	sb_cgroup_limit_dirs(path ? path : ".", c.cpu_dir, c.io_dir, sizeof(c.cpu_dir));
	c.quota_cpus = sb_cgroup_cpus(&c.limits);
	c.cpus = online > 0 ? (double) online : 1.0;
	if (!isnan(c.quota_cpus))
		c.cpus = Min(c.cpus, c.quota_cpus);
	c.cur_workers = planner_workers(args->target->nblocks);

	/*
	 * What the caches hold of the table before this call's scans bring it
	 * in: what its queries find there, for the tablespace's costs.
	 */
	c.costs = args->cache == SB_CACHE_COLD && args->target->nleaves == 1 &&
		args->target->nblocks >= sb_page_costs_min_blocks(args->target);
	if (c.costs)
		c.cached_pct = sb_page_costs_cached_pct(args->target);

	/* The select list is checked (by planning it) before anything is read. */
	nestlevel = sb_scan_settings_begin(0);
	(void) sb_scan_plan(args->target, NULL, args->query, NULL, 0);
	sb_scan_settings_end(nestlevel);

	take_breakdown(&c);
	ereport(NOTICE,
			(errmsg("the scan is %s: %.0f MB/s, with raw reads at %.0f MB/s%s and a warm scan at %.0f MB/s",
					c.cpu_limited ? "CPU-limited" : "storage-limited",
					c.scan_mb_s, c.read_mb_s,
					isnan(c.direct_mb_s) ? "" : psprintf(" (O_DIRECT 1 MB reads %.0f MB/s)", c.direct_mb_s),
					c.warm_mb_s),
			 errdetail("%d parallel workers, as the planner gives this scan now; %.1f CPUs%s.",
					   c.cur_workers, c.cpus,
					   isnan(c.quota_cpus) ? "" : " under the server's CPU quota")));

	if (c.cpu_limited)
		sb_advice_cpu(&c, &trials);
	else
		sb_advice_io_session(&c, &trials);

	/*
	 * The time left, split between the trials still to measure, but for
	 * the share kept for the tablespace's costs.
	 */
	trials_end = args->max_seconds;
	if (c.costs)
		trials_end -= SB_ADVICE_COSTS_SHARE * args->max_seconds;
	left = list_length(trials);
	foreach(lc, trials)
	{
		SbTrial    *t = lfirst(lc);
		double		now = sb_advice_elapsed_s(&c);

		measure_trial(&c, t, now + Max(0.0, trials_end - now) / left);
		left--;
	}

	/* What cannot be tried is predicted from every scan the trials ran. */
	if (!c.cpu_limited)
		settle_scan_rate(&c);
	sb_advice_find_device(&c);
	if (!c.cpu_limited)
		sb_advice_io_server(&c);
	sb_advice_io_host(&c);
	if (c.costs)
		sb_advice_costs(&c);

	MemoryContextDelete(c.passcxt);
	list_sort(c.out, by_gain);
	return c.out;
}
