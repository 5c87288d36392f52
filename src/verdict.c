/*-------------------------------------------------------------------------
 *
 * verdict.c
 *	  The verdict on a scan_efficiency figure: what the figure measured
 *	  and whether it can be trusted, as a list of marks.  One function
 *	  decides, for a figure taken on this server or across a Citus
 *	  cluster; the result row carries the marks (text[] from 0.3, a
 *	  comma-separated text under 0.2's definition), and the history reads
 *	  that value, never re-derives it.
 *
 * The marks (their names in mark_table below), each with the measurement
 * that produces it in bench/truth.sh:
 *   unstable       the interval is missing or wider than the target
 *   cached         a cold pass found more than 5 % of the blocks resident
 *   host_cache     cold buffered reads outran O_DIRECT reads of the same
 *                  blocks, one at a time and with many in flight alike: a
 *                  cache below this system served them (read-ahead keeps
 *                  several requests in flight, so buffered reads beating
 *                  O_DIRECT ones one at a time is depth, not a cache)
 *   burst          the timed passes ran faster than the group's limits
 *                  allow over time: they fit in a rate limiter's allowance,
 *                  and the figure is not the rate a long scan gets
 *   cpu_contended  the backend waited for a CPU held by other processes
 *                  for more than 10 % of the timed passes; the rates
 *                  include that wait (they are what the server got)
 *   cpu_limited    the group's own CPU quota held the passes back, and
 *                  the scan ran at its warm CPU ceiling under it or the
 *                  scans used up the quota (a cold pass spends CPU in
 *                  read() as well, so it meets the quota below the warm
 *                  ceiling): the figure is right for this server, and
 *                  smaller than the machine's
 *   io_limited     the group's read throttle on the device, of bytes or
 *                  of requests a second, not the device, set the read rate
 *   depth_limited  the device, read with many requests in flight, gave
 *                  half again as much as with one and as the scan got: its
 *                  latency per request, at the depth the scan kept, set the
 *                  scan's rate
 *   storage_not_limiting  the scan ran at its warm (CPU) rate, or more
 *                  than 5 % faster than the device read at depth (where
 *                  O_DIRECT is refused: than the raw read, over its whole
 *                  interval): scan_pct then measures the CPU, not the storage
 * Time the quota held the group back is counted by the kernel as the
 * backend's run queue delay too; it is the server's own limit, not other
 * processes' load, so it is taken out of the wait before cpu_contended is
 * judged.  A storage-limited scan under a throttle runs at the throttle's
 * rate on both sides, scan_pct near 100 and, pair by pair, a few per cent
 * either side of it (seen in bench/truth.sh: intervals of 101 to 108):
 * that is the storage limiting, so storage_not_limiting needs the whole
 * interval above 105 %.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "judgerules.h"
#include "stats.h"
#include "verdict.h"

void
sb_judge_input_init(SbJudgeInput *in)
{
	memset(in, 0, sizeof(SbJudgeInput));
	in->unit = "pairs";
	in->median = in->lo = in->hi = NAN;
	in->cached_pct = in->read_mb_s = in->scan_mb_s = in->direct_mb_s = NAN;
	in->host_ratio = in->ceiling_mb_s = in->ceiling_ratio = NAN;
	in->device_mb_s = in->device_pct = NAN;
	in->read_iops = in->read_request_kb = NAN;
	in->timed_s = in->cpu_wait_s = in->throttled_s = in->cpu_busy_s = NAN;
	in->scan_timed_s = in->scan_busy_s = NAN;
	in->drift_first = in->drift_second = NAN;
}

/*
 * The marks, in the order a verdict lists them, and the one table of their
 * names and what they mean for the history: whether a run with the mark is
 * judged against earlier runs at all, whether its read rate is still the
 * storage's (the fleet compares servers' read rates on those), and whether
 * runs with it are compared only with runs with it (its figure is another
 * quantity).  scan_verdict_marks() shows the table in SQL; the history,
 * the metrics, the fleet and the documentation check read it there.  A new
 * mark is a line in each of the two, its rule a line of judgerules.c
 * (its threshold) and code in sb_judge().
 */
typedef enum SbMark
{
	SB_MARK_OK,
	SB_MARK_UNSTABLE,
	SB_MARK_CACHED,
	SB_MARK_HOST_CACHE,
	SB_MARK_BURST,
	SB_MARK_CPU_CONTENDED,
	SB_MARK_CPU_LIMITED,
	SB_MARK_IO_LIMITED,
	SB_MARK_DEPTH_LIMITED,
	SB_MARK_STORAGE_NOT_LIMITING,
	SB_MARK_EMPTY,
	SB_MARK_OVER_BUDGET,
	SB_MARK_NO_CROSSOVER,
	SB_MARK_CORRELATED,
	SB_MARK_MISPLANNED,
	SB_NMARKS
} SbMark;

static const SbMarkInfo mark_table[SB_NMARKS] = {
	[SB_MARK_OK] = {"ok", true, true, false,
	"the interval is within the target, nothing was cached, the storage limited the scan"},
	[SB_MARK_UNSTABLE] = {"unstable", false, true, false,
	"the interval of scan_pct is missing or wider than the target"},
	[SB_MARK_CACHED] = {"cached", false, false, false,
	"a cold pass found more than 5 % of the blocks resident after eviction"},
	[SB_MARK_HOST_CACHE] = {"host_cache", true, true, true,
	"cold buffered reads outran O_DIRECT reads of the same blocks, one at a time and many in flight alike: a cache below this system served them"},
	[SB_MARK_BURST] = {"burst", false, false, false,
	"the timed passes ran faster than the server's limits allow over time"},
	[SB_MARK_CPU_CONTENDED] = {"cpu_contended", true, true, true,
	"other processes kept the backend off a CPU for more than 10 % of the timed passes"},
	[SB_MARK_CPU_LIMITED] = {"cpu_limited", true, true, true,
	"the server's own CPU quota held the scans back"},
	[SB_MARK_IO_LIMITED] = {"io_limited", true, true, true,
	"the server's own read throttle, of bytes or of requests a second, not the device, set the read rate"},
	[SB_MARK_DEPTH_LIMITED] = {"depth_limited", true, true, true,
	"the device delivers much more with many reads in flight than the scan got: its latency per request, at the depth the scan kept, set the scan's rate"},
	[SB_MARK_STORAGE_NOT_LIMITING] = {"storage_not_limiting", true, true, true,
	"the scan ran at its warm (CPU) rate or faster than the device read at depth: scan_pct measures the CPU"},
	[SB_MARK_EMPTY] = {"empty", false, false, false,
	"the relation has no blocks: nothing was measured"},
	[SB_MARK_OVER_BUDGET] = {"over_budget", false, false, false,
	"no pair was measured within max_seconds"},
	[SB_MARK_NO_CROSSOVER] = {"no_crossover", false, false, false,
	"an index scan of every key ran no longer than a sequential scan: the index scan wins at any selectivity"},
	[SB_MARK_CORRELATED] = {"correlated", false, false, false,
	"the index's key follows the table's order (correlation 0.5 or more either way): an index scan reads the table mostly in order, and random_page_cost does not decide its crossover"},
	[SB_MARK_MISPLANNED] = {"misplanned", false, false, false,
	"under the settings in force the planner takes the slower of the sequential and the index scan at half or at twice the measured crossover"},
};

int
sb_mark_count(void)
{
	return SB_NMARKS;
}

const SbMarkInfo *
sb_mark_info(int i)
{
	Assert(i >= 0 && i < SB_NMARKS);
	return &mark_table[i];
}

static void
add(SbVerdict *v, SbMark mark)
{
	if (v->n < SB_VERDICT_MAX_MARKS)
		v->marks[v->n++] = mark_table[mark].name;
}

/*
 * The mark a rule of judgerules.c gives, where it holds: the rule names
 * it, so that its line in the table says what the judge does.
 */
static void
holds(SbVerdict *v, SbRuleId rule)
{
	const SbRule *r = sb_rule(rule);
	int			i;

	for (i = 0; i < SB_NMARKS; i++)
		if (r->mark && strcmp(mark_table[i].name, r->mark) == 0)
		{
			add(v, (SbMark) i);
			return;
		}
	elog(ERROR, "the rule \"%s\" gives no mark of the verdict", r->name);
}

/* Nothing measured, nothing to judge: the verdict says why. */
void
sb_verdict_unmeasured(SbVerdict *v, bool empty)
{
	memset(v, 0, sizeof(SbVerdict));
	add(v, empty ? SB_MARK_EMPTY : SB_MARK_OVER_BUDGET);
}

/* " of \"rel\"" where the input names the relation. */
static const char *
of_what(const SbJudgeInput *in)
{
	return in->what ? psprintf(" of \"%s\"", in->what) : "";
}

static char *
limit_cpu_text(const SbCgroupLimits *l)
{
	return psprintf("the server's CPU quota of %lld us per %lld us (%.2f CPU, cgroup v%d)",
					(long long) l->cpu_quota_us, (long long) l->cpu_period_us,
					sb_cgroup_cpus(l), l->cpu_version);
}

static char *
limit_read_text(const SbCgroupLimits *l)
{
	return psprintf("the read throttle of device %s, %lld bytes/s (%.1f MB/s, cgroup v%d)",
					l->device, (long long) l->read_bps, l->read_bps / SB_MB,
					l->io_version);
}

static char *
limit_iops_text(const SbCgroupLimits *l)
{
	return psprintf("the read throttle of device %s, %lld requests/s (cgroup v%d)",
					l->device, (long long) l->read_iops, l->io_version);
}

/*
 * Judge the figure.  With in->what set, say so once per mark: a WARNING
 * where a cold figure did not measure the storage it claims to, a NOTICE
 * where it is imprecise or measures something else than the storage.
 */
void
sb_judge(const SbJudgeInput *in, SbVerdict *v)
{
	double		target = in->target_pct > 0 ? in->target_pct : sb_threshold(SB_RULE_UNSTABLE);
	double		halfwidth = sb_halfwidth_pct(in->median, in->lo, in->hi);
	const SbCgroupLimits *l = in->limits;
	double		throttled = isnan(in->throttled_s) ? 0 : in->throttled_s;
	double		others = isnan(in->cpu_wait_s) ? NAN : Max(in->cpu_wait_s - throttled, 0);
	bool		quota = l && l->cpu_quota_us > 0;
	bool		read_limit = l && l->read_bps > 0;
	bool		iops_limit = l && l->read_iops > 0;
	bool		say = in->what != NULL;
	bool		at_read_limit;
	bool		at_iops_limit;
	bool		direct_capped;
	double		device_mb_s;
	double		device_pct;
	bool		at_ceiling = !isnan(in->ceiling_ratio) &&
		in->ceiling_ratio >= sb_threshold(SB_RULE_WARM_CEILING);
	bool		above;
	double		used;

	memset(v, 0, sizeof(SbVerdict));

	/* The interval was widened to hold both halves (sampler.c): say why. */
	if (say && !isnan(in->drift_first))
		ereport(NOTICE,
				(errmsg("scan_pct%s moved during the call: the first half of its %d %s gave %.1f, the second %.1f",
						of_what(in), in->n, in->unit, in->drift_first, in->drift_second),
				 errdetail("The two halves' %.0f %% intervals do not overlap, which chance alone seldom gives; the interval is widened to %.1f to %.1f to hold both.",
						   100 * SB_VERDICT_CONFIDENCE, in->lo, in->hi),
				 errhint("scan_pairs() shows each pair in the order it was measured.")));

	if (isnan(halfwidth) || halfwidth > target)
	{
		holds(v, SB_RULE_UNSTABLE);
		if (say && isnan(halfwidth))
			ereport(NOTICE,
					(errmsg("scan_pct%s is unstable: %d %s too few for a %.0f %% confidence interval",
							of_what(in), in->n, in->n == 1 ? "is" : "are",
							100 * SB_VERDICT_CONFIDENCE),
					 errhint(strcmp(in->unit, "pairs") == 0 ?
							 "The relation holds too few stretches; use method => 'whole' with runs => 6 or more." :
							 "Use runs => 6 or more.")));
		else if (say)
			ereport(NOTICE,
					(errmsg("scan_pct%s is unstable: its %.0f %% confidence interval is %.1f to %.1f, +-%.1f %% of the median after %d %s, wider than +-%.1f %%",
							of_what(in), 100 * SB_VERDICT_CONFIDENCE, in->lo, in->hi,
							halfwidth, in->n, in->unit, target),
					 errhint("Allow more time (max_seconds) or a larger sample, or measure when the machine is quieter.")));
	}

	if (in->cache == SB_CACHE_COLD && !isnan(in->cached_pct) &&
		in->cached_pct > sb_threshold(SB_RULE_CACHED))
	{
		holds(v, SB_RULE_CACHED);
		if (say)
			ereport(WARNING,
					(errmsg("cold measurement found %.1f %% of the blocks still cached after eviction",
							in->cached_pct),
					 errdetail("Part of the figure comes from memory, not from the storage."),
					 errhint("Another process may hold the relation's files mapped or locked in memory (a backup or cache-warming tool, for instance).")));
	}

	/*
	 * Where the read throttle set the buffered rate, the O_DIRECT reads
	 * beside it ran under the same throttle, one 1 MB request at a time,
	 * and trail it by the throttle's dispatch, not by a cache below: the
	 * figure is the throttle's (io_limited), whatever lies under it.
	 */
	at_read_limit = read_limit && !isnan(in->read_mb_s) &&
		in->read_mb_s >= sb_threshold(SB_RULE_IO_BYTES) * l->read_bps / SB_MB;
	at_iops_limit = iops_limit && !isnan(in->read_iops) &&
		in->read_iops >= sb_threshold(SB_RULE_IO_REQUESTS) * l->read_iops;

	/*
	 * Under a limit of requests a second, a read's rate is the limit times
	 * its requests' size: the O_DIRECT reads' 1 MB requests meet it at
	 * read_iops MB/s, where buffered reads with read-ahead of several MB
	 * get several times that.  Reads of different request sizes are then
	 * not compared by their bytes: the O_DIRECT reads measured the
	 * throttle, not the device.
	 */
	direct_capped = iops_limit &&
		((!isnan(in->device_mb_s) &&
		  in->device_mb_s <= sb_threshold(SB_RULE_DIRECT_CAPPED) * l->read_iops * 1048576 / SB_MB) ||
		 (!isnan(in->direct_mb_s) &&
		  in->direct_mb_s <= sb_threshold(SB_RULE_DIRECT_CAPPED) * l->read_iops * 1048576 / SB_MB));
	device_mb_s = direct_capped ? NAN : in->device_mb_s;
	device_pct = direct_capped ? NAN : in->device_pct;

	/*
	 * Read-ahead keeps several requests in flight, so cold buffered reads
	 * may beat O_DIRECT reads one at a time on any storage with a latency:
	 * that is depth.  Only buffered reads faster than O_DIRECT ones with
	 * many in flight as well came from a cache.
	 */
	if (in->cache == SB_CACHE_COLD && !isnan(in->host_ratio) &&
		in->host_ratio > sb_threshold(SB_RULE_HOST_CACHE) && !at_read_limit &&
		!at_iops_limit && !direct_capped)
	{
		holds(v, SB_RULE_HOST_CACHE);
		if (say)
			ereport(WARNING,
					(errmsg("cold reads ran %.1f times as fast as O_DIRECT reads of the same blocks",
							in->host_ratio),
					 errdetail("Median raw read %.1f MB/s; O_DIRECT 1 MB reads %.1f MB/s one at a time, %.1f MB/s with %d in flight.  Blocks evicted from this system's caches were served from a cache below it, such as a hypervisor's memory: \"cold\" is not the storage here.",
							   in->read_mb_s, in->direct_mb_s, in->device_mb_s,
							   in->device_depth),
					 errhint("Compare with raw_read(rel, 'direct', 1048576, 32), or measure on the host or on bare metal.")));
	}

	/*
	 * Faster than the limits allow over time: the passes fitted in an
	 * allowance (blk-throttle's time slice, CFS's unused quota).
	 */
	if ((read_limit && !isnan(in->read_mb_s) &&
		 in->read_mb_s > sb_threshold(SB_RULE_BURST) * l->read_bps / SB_MB) ||
		(iops_limit && !isnan(in->read_iops) &&
		 in->read_iops > sb_threshold(SB_RULE_BURST) * l->read_iops) ||
		(quota && !isnan(in->cpu_busy_s) && in->timed_s > 0 &&
		 in->cpu_busy_s / in->timed_s > sb_threshold(SB_RULE_BURST) * sb_cgroup_cpus(l)))
	{
		holds(v, SB_RULE_BURST);
		if (say)
			ereport(NOTICE,
					(errmsg("the timed passes ran faster than the server's limits allow over time"),
					 errdetail("Raw reads at %.1f MB/s under a throttle of %.1f MB/s, %.0f requests/s under one of %.0f; CPU used at %.2f CPU under a quota of %.2f.  Short passes fit in a rate limiter's allowance: a long scan gets less.",
							   in->read_mb_s, read_limit ? l->read_bps / SB_MB : NAN,
							   in->read_iops, iops_limit ? (double) l->read_iops : NAN,
							   in->timed_s > 0 ? in->cpu_busy_s / in->timed_s : NAN,
							   quota ? sb_cgroup_cpus(l) : NAN),
					 errhint("Use method => 'whole', or a larger relation.")));
	}

	if (in->timed_s > 0 && !isnan(others) && others > sb_threshold(SB_RULE_CPU_CONTENDED) * in->timed_s)
	{
		holds(v, SB_RULE_CPU_CONTENDED);
		if (say)
			ereport(NOTICE,
					(errmsg("this backend waited for a CPU held by other processes during %.0f %% of the timed passes",
							100 * others / in->timed_s),
					 errdetail("%.3f s of %.3f s runnable but not running (/proc/self/schedstat)%s.  The rates include that time: they are what the server got while the machine was busy.",
							   others, in->timed_s,
							   throttled > 0 ? psprintf(", besides %.3f s held back by its own CPU quota", throttled) : ""),
					 errhint("Compare with a figure taken when the machine is quieter.")));
	}

	/*
	 * The quota set the rate only where the scan ran at its CPU ceiling
	 * (measured warm under the same quota), or where the scans used up
	 * what the quota allows: a cold pass costs CPU in read() that a warm
	 * one does not, and meets the quota below the warm ceiling (at a
	 * quarter of a CPU in bench/truth.sh, cold scans ran at a third of
	 * it).  The scans are judged alone: the raw reads beside them, held
	 * by a read throttle, use little CPU.  A scan the disk holds back may
	 * be throttled now and then, in bursts, and still go no faster
	 * without the quota: its CPU stays well under the quota.
	 */
	used = quota && in->scan_timed_s > 0 && !isnan(in->scan_busy_s) ?
		in->scan_busy_s / in->scan_timed_s / sb_cgroup_cpus(l) : NAN;
	/*
	 * The group's own account: a group that ran out of quota in a share f
	 * of its periods used at least f of the quota.  It counts the CPU of
	 * the processes that read for the backend (18's I/O workers), which
	 * the backend's own CPU time leaves out.
	 */
	if (quota && in->scan_periods > 0)
	{
		double		spent = (double) in->scan_spent_periods / in->scan_periods;

		used = isnan(used) ? spent : Max(used, spent);
	}
	if (quota && in->timed_s > 0 && throttled > sb_threshold(SB_RULE_CPU_HELD) * in->timed_s &&
		(isnan(in->ceiling_ratio) || in->ceiling_ratio >= sb_threshold(SB_RULE_WARM_CEILING) ||
		 (!isnan(used) && used >= sb_threshold(SB_RULE_CPU_USED))))
	{
		holds(v, SB_RULE_CPU_HELD);
		if (say)
			ereport(NOTICE,
					(errmsg("%s held the timed passes back for %.0f %% of their time",
							limit_cpu_text(l), 100 * throttled / in->timed_s),
					 errdetail("%sThe figure is right for this server, and smaller than the machine's CPUs would give.",
							   isnan(used) ? "" :
							   psprintf("The scans used %.0f %% of the CPU time the quota allows (by this backend's CPU time, or by the share of the quota's periods in which the server's group ran out of it).  ", 100 * used))));
	}

	if (at_read_limit || at_iops_limit)
	{
		holds(v, at_read_limit ? SB_RULE_IO_BYTES : SB_RULE_IO_REQUESTS);
		if (say && at_read_limit)
			ereport(NOTICE,
					(errmsg("%s, not the device, set the read rate of %.1f MB/s",
							limit_read_text(l), in->read_mb_s),
					 errdetail("The figure is right for this server; the device may be faster.")));
		else if (say)
			ereport(NOTICE,
					(errmsg("%s, not the device, set the read rate of %.1f MB/s",
							limit_iops_text(l), in->read_mb_s),
					 errdetail("The raw reads sent %.0f requests a second of %.0f kB on average; %.0f kB requests at %lld a second make %.1f MB/s.  The figure is right for this server; the device may be faster, and larger requests would be.",
							   in->read_iops, in->read_request_kb, in->read_request_kb,
							   (long long) l->read_iops,
							   l->read_iops * in->read_request_kb * 1024 / SB_MB)));
	}

	/*
	 * A device with a latency per request gives a reader keeping k
	 * requests of s bytes in flight at most k * s / latency.  Where it
	 * gave half again as much with many 1 MB reads in flight as with one,
	 * latency, not bandwidth, bounds a reader; where the scan got no more
	 * than two thirds of the deep read, outside any limit, below its CPU
	 * ceiling and with a CPU of its own (a backend kept waiting for one is
	 * slowed by that, not by depth), the depth it kept set its rate.  k is then what the
	 * scan got over what one read at a time gets, in reads of 1 MB.
	 */
	if (in->cache == SB_CACHE_COLD && !isnan(device_mb_s) &&
		!isnan(in->direct_mb_s) && !isnan(in->scan_mb_s) &&
		device_mb_s >= sb_threshold(SB_RULE_DEPTH) * in->direct_mb_s &&
		device_mb_s >= sb_threshold(SB_RULE_DEPTH) * in->scan_mb_s &&
		!at_ceiling && !at_read_limit && !at_iops_limit &&
		!sb_verdict_has(v, mark_table[SB_MARK_HOST_CACHE].name) &&
		!sb_verdict_has(v, mark_table[SB_MARK_CPU_CONTENDED].name))
	{
		holds(v, SB_RULE_DEPTH);
		if (say)
			ereport(NOTICE,
					(errmsg("the device's latency at the depth the scan kept set the scan's rate of %.1f MB/s",
							in->scan_mb_s),
					 errdetail("O_DIRECT 1 MB reads of the same blocks ran at %.1f MB/s one at a time (%.2f ms a read) and at %.1f MB/s with %d in flight.  At that latency, the scan's rate is what a reader keeping about %.0f kB in flight gets.",
							   in->direct_mb_s, 1000.0 * 1048576 / (in->direct_mb_s * SB_MB),
							   in->device_mb_s, in->device_depth,
							   in->scan_mb_s / in->direct_mb_s * 1024),
					 errhint("More reads in flight would speed the scan: read-ahead before PostgreSQL 18, effective_io_concurrency, io_combine_limit and io_method from 18 on (scan_advice measures them).")));
	}

	/*
	 * Faster than the device read at depth, the scan had the storage's
	 * all; faster than one read at a time only, it may have kept more in
	 * flight (depth_limited above says when).  Where O_DIRECT is refused
	 * the raw read is all there is to compare with.
	 */
	if (!isnan(device_pct))
		above = device_pct > sb_threshold(SB_RULE_ABOVE_DEVICE);
	else
		above = !isnan(in->lo) ? in->lo > sb_threshold(SB_RULE_ABOVE_DEVICE) :
			(!isnan(in->median) && in->median > sb_threshold(SB_RULE_ABOVE_DEVICE));
	if (at_ceiling || above)
	{
		holds(v, at_ceiling ? SB_RULE_WARM_CEILING : SB_RULE_ABOVE_DEVICE);
		if (say)
			ereport(NOTICE,
					(errmsg("storage is not what limits this scan: it ran at %.0f %% of its warm rate (%.1f MB/s), at %.1f %% of the raw read rate%s",
							100 * in->ceiling_ratio, in->ceiling_mb_s, in->median,
							isnan(device_pct) ? "" :
							psprintf(" and %.1f %% of the device read with %d in flight",
									 in->device_pct, in->device_depth)),
					 errdetail("scan_pct then measures the executor's CPU cost, not how much of the storage's speed the scan gets."),
					 errhint(in->cache == SB_CACHE_WARM ?
							 "This is expected with cache => 'warm'." :
							 "Expected when reads come from memory or fast storage.")));
	}
}

/*
 * The small judges.  A rule named in their comments (SB_RULE_...) is a
 * line of judgerules.c, with its threshold: a judge reads it there, and
 * so does the engine that measures for the judge.
 *
 * page_costs' figure, the ratio of a random page's time to a sequential
 * page's: over_budget when fewer rounds than SB_RULE_PAGECOST_ROUNDS ran
 * (too few for an interval worth reading); unstable when the interval's
 * half-width is more than SB_RULE_PAGECOST_INTERVAL of the ratio; cached
 * when the caches held SB_RULE_CACHED_BEFORE of the table before the
 * call, so that what queries pay is the caches' speed, not the storage's.
 */
void
sb_judge_page_costs(int rounds, double median, double lo, double hi,
					double cached_pct, SbVerdict *v)
{
	v->n = 0;
	if (rounds < sb_threshold(SB_RULE_PAGECOST_ROUNDS))
		holds(v, SB_RULE_PAGECOST_ROUNDS);
	else if (isnan(lo) || isnan(hi) ||
			 sb_halfwidth_pct(median, lo, hi) > sb_threshold(SB_RULE_PAGECOST_INTERVAL))
		holds(v, SB_RULE_PAGECOST_INTERVAL);
	if (cached_pct >= sb_threshold(SB_RULE_CACHED_BEFORE))
		holds(v, SB_RULE_CACHED_BEFORE);
}

/*
 * index_crossover's: no_crossover when an index scan of every key beat the
 * sequential scan (nothing else is judged); over_budget below
 * SB_RULE_CROSS_ROUNDS rounds; unstable when the crossover's interval is
 * missing or its half-width more than SB_RULE_CROSS_INTERVAL of it; cached
 * when the caches held SB_RULE_CACHED_BEFORE of the table before the
 * call or an eviction left more than SB_RULE_CACHED resident (a cold
 * crossover is not what queries on it meet); correlated at
 * SB_RULE_CORRELATED or more either way; misplanned when the planner, as
 * set, takes the slower path at half or at twice the crossover.
 */
void
sb_judge_crossover(int rounds, double rows, double lo, double hi,
				   double cached_pct_call, double cached_pct_evicted,
				   double correlation, bool never_lost, bool misplanned,
				   SbVerdict *v)
{
	v->n = 0;
	if (never_lost)
		holds(v, SB_RULE_CROSS_NEVER_LOST);
	else if (rounds < sb_threshold(SB_RULE_CROSS_ROUNDS))
		holds(v, SB_RULE_CROSS_ROUNDS);
	else if (isnan(lo) || isnan(hi) ||
			 sb_halfwidth_pct(rows, lo, hi) > sb_threshold(SB_RULE_CROSS_INTERVAL))
		holds(v, SB_RULE_CROSS_INTERVAL);
	if (cached_pct_call >= sb_threshold(SB_RULE_CACHED_BEFORE) ||
		cached_pct_evicted > sb_threshold(SB_RULE_CACHED))
		holds(v, SB_RULE_CACHED);
	if (!isnan(correlation) && fabs(correlation) >= sb_threshold(SB_RULE_CORRELATED))
		holds(v, SB_RULE_CORRELATED);
	if (misplanned)
		holds(v, SB_RULE_MISPLANNED);
}

/*
 * access_paths' figure for one cold path, its page rate as a share of
 * random reads' at its depth: over_budget below SB_RULE_PATH_ROUNDS
 * rounds; unstable when the interval's half-width is more than
 * SB_RULE_PATH_INTERVAL of the figure; cached when an eviction left more
 * than SB_RULE_CACHED of the table and index resident; io_limited when
 * the path read at SB_RULE_IO_REQUESTS of what the group's read
 * throttle allows or more, so the throttle, not the device, set both
 * sides.  rounds < 0: a path timed once (the sequential scan), with no
 * interval to judge.
 */
void
sb_judge_access_path(int rounds, double pct, double lo, double hi,
					 double cached_pct, double read_rate, double limit_rate,
					 SbVerdict *v)
{
	v->n = 0;
	if (rounds >= 0 && rounds < sb_threshold(SB_RULE_PATH_ROUNDS))
		holds(v, SB_RULE_PATH_ROUNDS);
	else if (rounds >= 0 &&
			 (isnan(lo) || isnan(hi) ||
			  sb_halfwidth_pct(pct, lo, hi) > sb_threshold(SB_RULE_PATH_INTERVAL)))
		holds(v, SB_RULE_PATH_INTERVAL);
	if (cached_pct > sb_threshold(SB_RULE_CACHED))
		holds(v, SB_RULE_CACHED);
	if (limit_rate < HUGE_VAL && read_rate >= sb_threshold(SB_RULE_IO_REQUESTS) * limit_rate)
		holds(v, SB_RULE_IO_REQUESTS);
}

/*
 * toast_efficiency's figure, the detoasting scan's rate as a share of raw
 * reads' of the same three relations: over_budget below
 * SB_RULE_TOAST_ROUNDS rounds; unstable when the interval is missing or
 * its half-width more than SB_RULE_TOAST_INTERVAL of the figure; cached
 * when a cold side found more than SB_RULE_CACHED of the three resident
 * after the eviction; io_limited when the cold raw reads ran at
 * SB_RULE_IO_REQUESTS of what the group's read throttle allows or more
 * (read_rate and limit_rate in 8 kB reads a second), so the throttle
 * set both sides.
 */
void
sb_judge_toast(int rounds, double pct, double lo, double hi, bool cold,
			   double cached_pct, double read_rate, double limit_rate,
			   SbVerdict *v)
{
	v->n = 0;
	if (rounds < sb_threshold(SB_RULE_TOAST_ROUNDS))
		holds(v, SB_RULE_TOAST_ROUNDS);
	else if (isnan(lo) || isnan(hi) ||
			 sb_halfwidth_pct(pct, lo, hi) > sb_threshold(SB_RULE_TOAST_INTERVAL))
		holds(v, SB_RULE_TOAST_INTERVAL);
	if (cold && cached_pct > sb_threshold(SB_RULE_CACHED))
		holds(v, SB_RULE_CACHED);
	if (cold && limit_rate < HUGE_VAL && read_rate >= sb_threshold(SB_RULE_IO_REQUESTS) * limit_rate)
		holds(v, SB_RULE_IO_REQUESTS);
}

/*
 * workload_scans' verdict on one scan node's reads, in the marks above:
 * cached when the eviction before a cold run left more than SB_RULE_CACHED
 * of its relation (and index) resident; storage_not_limiting when its
 * reads took less than SB_RULE_NODE_BOUND of its time (its rate per second
 * of wait is then not the storage's: read-ahead or asynchronous reads had
 * the blocks ready); io_limited when it read at SB_RULE_IO_REQUESTS of
 * what the group's read throttle allows or more (read_rate and limit_rate
 * in 8 kB reads a second); and, of a node its reads held back,
 * host_cache when a cold run read faster than SB_RULE_NODE_CACHE times
 * every rate the storage was measured to give, though nothing of it
 * stayed resident (a cache below this system served it), and
 * depth_limited when it read one block at a time while the storage gives
 * SB_RULE_DEPTH times its rate with reads at depth.  A rate not measured
 * is NaN and decides nothing.
 */
void
sb_judge_scan_node(bool cold, double read_wait_pct, double read_mb_s,
				   double device_max_mb_s, double depth_mb_s,
				   bool one_at_a_time, double cached_pct, double read_rate,
				   double limit_rate, SbVerdict *v)
{
	bool		cached = cold && cached_pct > sb_threshold(SB_RULE_CACHED);
	bool		bound = read_wait_pct >= sb_threshold(SB_RULE_NODE_BOUND);

	v->n = 0;
	if (cached)
		holds(v, SB_RULE_CACHED);
	if (cold && bound && !cached && read_mb_s > sb_threshold(SB_RULE_NODE_CACHE) * device_max_mb_s)
		holds(v, SB_RULE_NODE_CACHE);
	if (limit_rate < HUGE_VAL && read_rate >= sb_threshold(SB_RULE_IO_REQUESTS) * limit_rate)
		holds(v, SB_RULE_IO_REQUESTS);
	else if (bound && one_at_a_time && depth_mb_s > sb_threshold(SB_RULE_DEPTH) * read_mb_s)
		holds(v, SB_RULE_DEPTH);
	if (!bound)
		holds(v, SB_RULE_NODE_BOUND);
}

bool
sb_verdict_has(const SbVerdict *v, const char *mark)
{
	int			i;

	for (i = 0; i < v->n; i++)
		if (strcmp(v->marks[i], mark) == 0)
			return true;
	return false;
}

/* 0.2's rendering: "ok", or the marks joined by commas. */
char *
sb_verdict_text(const SbVerdict *v)
{
	StringInfoData buf;
	int			i;

	if (v->n == 0)
		return pstrdup(mark_table[SB_MARK_OK].name);
	initStringInfo(&buf);
	for (i = 0; i < v->n; i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? "," : "", v->marks[i]);
	return buf.data;
}

/*
 * The verdict in the column the caller's result type has: text[] ({ok}
 * when there is no mark), or 0.2's text.  A NULL verdict (nothing
 * measured) is the caller's sb_row_null.
 */
void
sb_row_verdict(SbRow *row, const char *name, const SbVerdict *v)
{
	if (sb_row_type(row, name) == TEXTARRAYOID)
	{
		Datum	   *d = palloc(sizeof(Datum) * Max(v->n, 1));
		int			i;

		if (v->n == 0)
			d[0] = CStringGetTextDatum(mark_table[SB_MARK_OK].name);
		for (i = 0; i < v->n; i++)
			d[i] = CStringGetTextDatum(v->marks[i]);
		sb_row_datum(row, name,
					 PointerGetDatum(construct_array(d, Max(v->n, 1), TEXTOID, -1,
													 false, TYPALIGN_INT)));
	}
	else
		sb_row_text(row, name, sb_verdict_text(v));
}
