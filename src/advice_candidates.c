/*-------------------------------------------------------------------------
 *
 * advice_candidates.c
 *	  scan_advice()'s candidates: what a session can try, what the server
 *	  and the host could change, what gives a CPU-limited scan more CPU,
 *	  and the tablespace's costs, each a row measured (advice.c runs the
 *	  trials) or predicted from the breakdown by the model advice.c
 *	  describes.
 *
 * Every predicted row states its bound and the model that gave it: the
 * storage's best rate, the warm scan's and the scan's own, as the
 * breakdown measured them in the same call (SbAdviceCtx).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <unistd.h>

#include "commands/tablespace.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/checksum.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/spccache.h"

#include "advice_candidates.h"
#include "argcheck.h"
#include "compat_guc.h"
#include "breakdown.h"
#include "cgroup.h"
#include "compat.h"
#include "devices.h"
#include "judgerules.h"
#include "pagecost.h"
#include "pairs.h"
#include "seqread.h"
#include "sampler.h"
#include "scan.h"
#include "settings.h"
#include "stats.h"
#include "tablespace.h"
#include "verdict.h"
/* Below this predicted bound a server or host change is not worth a row. */
#define SB_ADVICE_WORTH			1.05

/*
 * Under a CPU quota the passes behind the quota's estimate run until each
 * kind has lasted SB_SUSTAIN_PERIODS of the quota's periods (sampler.h),
 * but no longer than this share of max_seconds each.
 */
#define SB_ADVICE_QUOTA_SHARE	0.2

/* Pages whose checksums are timed, and the least time spent doing it. */
#define SB_CHECKSUM_PAGES		1024
#define SB_CHECKSUM_MIN_S		0.02

double
sb_advice_elapsed_s(SbAdviceCtx *c)
{
	instr_time	now;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, c->args->start);
	return INSTR_TIME_GET_DOUBLE(now);
}

static SbAdvice *
advice_new(SbAdviceCtx *c, const char *setting, const char *value,
		   const char *current, const char *cost)
{
	SbAdvice   *a = palloc0(sizeof(SbAdvice));

	a->setting = pstrdup(setting);
	a->value = pstrdup(value);
	a->current = current ? pstrdup(current) : NULL;
	a->cost = pstrdup(cost);
	a->gain = a->gain_lo = a->gain_hi = NAN;
	c->out = lappend(c->out, a);
	return a;
}

/* A predicted row: the model's bound is its gain and its upper end. */
void
sb_advice_predict(SbAdvice *a, double bound, const char *basis)
{
	a->measured = false;
	a->gain = a->gain_hi = bound;
	a->gain_lo = NAN;
	a->basis = pstrdup(basis);
}

/* A setting's value as SHOW prints it, units included. */
static char *
shown(const char *name)
{
	return GetConfigOptionByName(name, NULL, false);
}

/* How a server setting takes effect: "reload" or "restart". */
static const char *
server_cost(const char *name)
{
	struct config_generic *guc = sb_find_guc(name);

	return (guc != NULL && guc->context == PGC_SIGHUP) ? "reload" : "restart";
}

static char *
alter_system(const char *name, const char *value)
{
	return strcmp(server_cost(name), "reload") == 0 ?
		psprintf("ALTER SYSTEM SET %s = '%s'; SELECT pg_reload_conf();", name, value) :
		psprintf("ALTER SYSTEM SET %s = '%s'; then restart the server", name, value);
}

/* The most an I/O-side change gives: min(storage, warm) / scan. */
static double
io_bound(SbAdviceCtx *c)
{
	return Max(1.0, Min(c->storage_mb_s, c->warm_mb_s) / c->scan_mb_s);
}

static char *
io_model(SbAdviceCtx *c, const char *what)
{
	return psprintf("predicted, storage-limited%s%s: at most min(storage %.0f MB/s, warm scan %.0f MB/s) / scan %.0f MB/s%s",
					what ? ", " : "", what ? what : "",
					c->storage_mb_s, c->warm_mb_s, c->scan_mb_s,
					c->scan_s.n > 1 ? psprintf(" (the median of %d scans under the current settings)", c->scan_s.n) : "");
}

/* ---- the candidates ---- */

static SbTrial *
trial_new(List **trials, SbAdvice *a, const char *guc, const char *guc_value,
		  int b_workers, double bound, char *model)
{
	SbTrial    *t = palloc0(sizeof(SbTrial));

	t->a = a;
	t->guc = guc;
	t->guc_value = guc_value;
	t->b_workers = b_workers;
	t->bound = bound;
	t->model = model;
	*trials = lappend(*trials, t);
	return t;
}

static char *
blocks_kb(int blocks)
{
	return psprintf("%dkB", (int) ((int64) blocks * BLCKSZ / 1024));
}

/* What the session can try to read faster: 17 on. */
void
sb_advice_io_session(SbAdviceCtx *c, List **trials)
{
	int			eic = sb_setting_int("effective_io_concurrency");
	int			icl = sb_setting_int("io_combine_limit");
	int			cap;

	if (!SB_SEQSCAN_READ_STREAM)
		return;

	/*
	 * A tablespace's own effective_io_concurrency is what its relations'
	 * read streams use, whatever the session sets: no trial then (the
	 * tablespace's depth is measured with its costs, cost_candidates).
	 */
	if (eic >= 0 &&
		get_tablespace_io_concurrency(sb_target_tablespace(c->args->target)) == eic)
	{
		int			want = Min(Max(64, 4 * eic), SB_MAX_IO_CONCURRENCY);

		if (want > eic)
		{
			char	   *v = psprintf("%d", want);
			SbAdvice   *a = advice_new(c, "effective_io_concurrency", v,
									   shown("effective_io_concurrency"), "none");

			a->command = psprintf("SET effective_io_concurrency = %d", want);
			trial_new(trials, a, "effective_io_concurrency", v, 0, io_bound(c),
					  io_model(c, NULL));
		}
	}
	if (icl < 0)
		return;
	cap = SB_HAVE_IO_MAX_COMBINE_LIMIT ? sb_setting_int("io_max_combine_limit") :
		SB_MAX_IO_COMBINE_LIMIT;
	if (icl < cap)
	{
		char	   *v = blocks_kb(cap);
		SbAdvice   *a = advice_new(c, "io_combine_limit", v, shown("io_combine_limit"), "none");

		a->command = psprintf("SET io_combine_limit = '%s'", v);
		trial_new(trials, a, "io_combine_limit", v, 0, io_bound(c), io_model(c, NULL));
	}
}

/* What the server could do to read faster, predicted: 18 on. */
void
sb_advice_io_server(SbAdviceCtx *c)
{
	const char *method = GetConfigOption("io_method", true, false);
	int			icl = sb_setting_int("io_combine_limit");
	int			cap = sb_setting_int("io_max_combine_limit");
	int			top = SB_MAX_IO_COMBINE_LIMIT;

	/*
	 * A sequential read stream leaves its depth to the kernel's read-ahead:
	 * while the window limits it, neither more workers, another method
	 * nor longer reads keep more in flight (1.00 in the lab, 8 ms a
	 * request); the read-ahead row comes instead.
	 */
	if (!SB_HAVE_IO_METHOD || c->window_limited)
		return;
	/* Said whatever the bound: it is why io_combine_limit stops here. */
	if (SB_HAVE_IO_MAX_COMBINE_LIMIT && icl >= 0 && cap >= 0 && icl >= cap && cap < top)
	{
		char	   *v = blocks_kb(top);
		SbAdvice   *a = advice_new(c, "io_max_combine_limit", v,
								   shown("io_max_combine_limit"), "restart");

		a->command = psprintf("ALTER SYSTEM SET io_max_combine_limit = '%s'; then restart the server; then SET io_combine_limit = '%s'",
							  v, v);
		sb_advice_predict(a, io_bound(c),
				io_model(c, psprintf("io_combine_limit %s is at its cap io_max_combine_limit, which only a restart raises",
									 shown("io_combine_limit"))));
	}
	if (method == NULL || io_bound(c) < SB_ADVICE_WORTH)
		return;
	if (strcmp(method, "sync") == 0)
	{
		SbAdvice   *a = advice_new(c, "io_method", "worker", method, "restart");

		a->command = alter_system("io_method", "worker");
		sb_advice_predict(a, io_bound(c), io_model(c, "reads issued ahead of the scan instead of as it needs them"));
	}
	else if (strcmp(method, "worker") == 0)
	{
		int			pool = sb_setting_int(SB_IO_POOL_SETTING);
		int			want = Min(Max(pool + 2, 2 * pool), SB_IO_POOL_MAX);

		/* More workers than CPUs only queue for them. */
		want = Min(want, Max(pool, (int) floor(c->cpus) * 2));
		if (pool >= 0 && want > pool)
		{
			char	   *v = psprintf("%d", want);
			SbAdvice   *a = advice_new(c, SB_IO_POOL_SETTING, v,
									   shown(SB_IO_POOL_SETTING),
									   server_cost(SB_IO_POOL_SETTING));

			a->command = alter_system(SB_IO_POOL_SETTING, v);
			sb_advice_predict(a, io_bound(c),
					io_model(c, psprintf("%d I/O workers running", c->facts.io_workers)));
		}
	}
}

/* The bracketed word of a scheduler list: "[mq-deadline] none". */
static char *
active_scheduler(const char *list)
{
	const char *open = list ? strchr(list, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	if (close == NULL)
		return list ? pstrdup(list) : NULL;
	return pnstrdup(open + 1, close - open - 1);
}

/* The best rate O_DIRECT reads got, one at a time or at depth; 0 if none. */
static double
device_best(SbAdviceCtx *c)
{
	return Max(isnan(c->direct_mb_s) ? 0 : c->direct_mb_s,
			   isnan(c->device_mb_s) ? 0 : c->device_mb_s);
}

/*
 * The device under the data (for a partition, its disk) and the read-ahead
 * window buffered reads of the relation get, its block device's or, where
 * none stands under the data (FUSE, NFS), the mount's own backing
 * device's.  Buffered reads that trail O_DIRECT reads on the same blocks
 * are then held back by the window, the bytes a sequential reader keeps
 * in flight; past 1 MB a window rarely helps, so the window is said to
 * limit only below that.
 */
void
sb_advice_find_device(SbAdviceCtx *c)
{
	char	   *path = sb_target_first_path(c->args->target);
	List	   *layers = path ? sb_storage_layers(path) : NIL;
	SbLayer    *dev = NULL;
	double		best;
	ListCell   *lc;

	foreach(lc, layers)
	{
		SbLayer    *l = lfirst(lc);

		if (l->level == 1 && dev == NULL)
			dev = l;
	}
	if (dev && dev->kind && strcmp(dev->kind, "partition") == 0)
		foreach(lc, layers)
		{
			SbLayer    *l = lfirst(lc);

			if (l->level == 2 && l->name)
			{
				dev = l;
				break;
			}
		}
	c->dev = dev;
	c->ra_dev = NULL;
	c->ra_block = false;
	c->ra_kb = -1;
	if (dev && dev->name && dev->read_ahead_kb >= 0)
	{
		c->ra_kb = dev->read_ahead_kb;
		c->ra_dev = psprintf("/dev/%s", dev->name);
		c->ra_block = true;
	}
	else if (path && (c->ra_kb = sb_file_read_ahead_kb(path)) >= 0)
		c->ra_dev = sb_file_bdi_dir(path);
	best = device_best(c);
	c->window_limited = c->ra_dev && c->ra_kb >= 0 && c->ra_kb < 1024 &&
		best > SB_ADVICE_WORTH * c->read_mb_s && io_bound(c) >= SB_ADVICE_WORTH;
}

/* The host: read-ahead, the scheduler, the control group's throttle. */
void
sb_advice_io_host(SbAdviceCtx *c)
{
	SbLayer    *dev = c->dev;

	if (c->window_limited)
	{
		int64		kb = Max(4 * c->ra_kb, 1024);
		SbAdvice   *a = advice_new(c, "read-ahead", psprintf(INT64_FORMAT "kB", kb),
								   psprintf(INT64_FORMAT "kB", c->ra_kb), "root");
		double		best = device_best(c);
		double		wider = best;
		const char *method = SB_HAVE_IO_METHOD ? GetConfigOption("io_method", true, false) : NULL;
		bool		workers = method && strcmp(method, "worker") == 0;
		double		now;
		char	   *why = psprintf("no read-ahead now");

		/*
		 * blockdev counts 512-byte sectors.  A file takes the window in
		 * force when it is opened: the I/O workers hold theirs open until
		 * the server restarts.
		 */
		a->command = c->ra_block ?
			psprintf("blockdev --setra " INT64_FORMAT " %s", 2 * kb, c->ra_dev) :
			psprintf("echo " INT64_FORMAT " > %s/read_ahead_kb", kb, c->ra_dev);
		if (workers)
			a->command = psprintf("%s; then restart the server", a->command);

		/*
		 * A window k times as wide keeps at most k times the bytes in
		 * flight, which where latency sets the rate is k times the rate; no
		 * more than the device gives O_DIRECT reads, nor than the warm scan.
		 */
		if (c->ra_kb > 0)
		{
			wider = c->read_mb_s * kb / c->ra_kb;
			why = psprintf("a window " INT64_FORMAT " times as wide keeps at most as many times the bytes in flight, %.0f MB/s",
						   kb / c->ra_kb, wider);
		}
		/*
		 * The scan rides on the same window as the buffered reads.
		 * Before 17 it reads the same way, 8 kB at a time, so their rate
		 * is its own, better measured than by the one scan timed (which a
		 * busy machine or a page left in a cache moves either way); from
		 * 17 its read stream may keep more in flight, and the faster of
		 * the two is taken.
		 */
		now = SB_SEQSCAN_READ_STREAM ? Max(c->scan_mb_s, c->read_mb_s) : c->read_mb_s;
		sb_advice_predict(a, Max(1.0, Min(Min(wider, best), c->warm_mb_s) / now),
				psprintf("predicted, read-ahead: buffered reads %.0f MB/s; %s; O_DIRECT reads of 1 MB %.0f MB/s one at a time%s: min(%.0f, %.0f, warm scan %.0f) / %s %.0f MB/s. A file reads with the window in force when it was opened: sessions open now keep theirs%s. While the window sets what a sequential scan keeps in flight, the server's I/O settings are not proposed",
						 c->read_mb_s, why, c->direct_mb_s,
						 isnan(c->device_mb_s) ? "" : psprintf(", %.0f MB/s at depth", c->device_mb_s),
						 wider, best, c->warm_mb_s,
						 now == c->scan_mb_s ? "scan" : "buffered reads",
						 now, workers ? ", and the I/O workers theirs until a restart" : ""));
	}
	if (dev && dev->name && dev->scheduler)
	{
		char	   *sched = active_scheduler(dev->scheduler);

		/* bfq spends CPU per request that a sequential reader does not need. */
		if (sched && strcmp(sched, "bfq") == 0 && io_bound(c) >= SB_ADVICE_WORTH)
		{
			const char *want = dev->rotational == 0 ? "none" : "mq-deadline";
			SbAdvice   *a = advice_new(c, "scheduler", want, sched, "root");

			a->command = psprintf("echo %s > /sys/block/%s/queue/scheduler", want, dev->name);
			sb_advice_predict(a, io_bound(c), io_model(c, "bfq's per-request cost on a sequential reader"));
		}
	}

	if (c->limits.read_bps > 0 && c->io_dir[0] != '\0')
	{
		bool		v1 = c->limits.io_version == 1;
		SbAdvice   *a = advice_new(c, v1 ? "blkio.throttle.read_bps_device" : "io.max rbps",
								   v1 ? "0" : "max",
								   psprintf(INT64_FORMAT, c->limits.read_bps), "root");

		a->command = v1 ?
			psprintf("echo '%s 0' > %s/blkio.throttle.read_bps_device", c->limits.device, c->io_dir) :
			psprintf("echo '%s rbps=max' > %s/io.max", c->limits.device, c->io_dir);
		/* Nothing measured here says what the device does unthrottled. */
		sb_advice_predict(a, NAN,
				psprintf("not predicted: the server's control group throttles reads of %s to %.0f MB/s, and the device's own rate cannot be measured under it",
						 c->limits.device, c->limits.read_bps / SB_MB));
	}
}

/*
 * CPU a page's checksum costs, seconds: the first pages of the relation
 * read once, then checksummed over and over until the time is long
 * enough to read on the clock.
 */
static double
checksum_s_per_page(SbTarget *target)
{
	SbSegment	s;
	char	   *buf;
	SbReadResult r;
	instr_time	t0,
				t1;
	volatile uint32 sink = 0;
	uint64		done = 0;
	int			npages;
	int			i;

	if (target->nsegments == 0)
		return NAN;
	s = *target->segments[0];
	npages = (int) Min((uint64) SB_CHECKSUM_PAGES, s.bytes / BLCKSZ);
	if (npages == 0)
		return NAN;
	s.bytes = (off_t) npages * BLCKSZ;
	buf = sb_aligned_buffer((int) s.bytes);
	memset(&r, 0, sizeof(r));
	(void) sb_raw_read_stretch(&s, buf, (int) s.bytes, false, &r);

	INSTR_TIME_SET_CURRENT(t0);
	for (;;)
	{
		CHECK_FOR_INTERRUPTS();
		for (i = 0; i < npages; i++)
		{
			char	   *page = buf + (size_t) i * BLCKSZ;

			if (PageIsNew((Page) page))
				continue;
			sink += pg_checksum_page(page, s.first_block + i);
			done++;
		}
		INSTR_TIME_SET_CURRENT(t1);
		INSTR_TIME_SUBTRACT(t1, t0);
		if (done == 0 || INSTR_TIME_GET_DOUBLE(t1) >= SB_CHECKSUM_MIN_S)
			break;
	}
	(void) sink;
	return done > 0 ? INSTR_TIME_GET_DOUBLE(t1) / done : NAN;
}

/* Passes of one kind, summed: see quota_passes. */
typedef struct SbPasses
{
	int			n;
	double		wall;
	double		cpu;
} SbPasses;

static void
add_pass(SbPasses *p, SbTiming *t)
{
	p->n++;
	p->wall += t->seconds;
	p->cpu += t->user_s + t->sys_s;
}

/*
 * The scan, the raw read and the warm scan again, each until its passes
 * (the breakdown's first one included) have lasted SB_SUSTAIN_PERIODS of
 * the quota's periods.  A pass of one or two periods takes u / quota of
 * wall time only on average: one that starts with the period's quota
 * unspent runs at full speed until it is spent, and the estimate from
 * single passes of a small relation moved from 1.18 to 2.06 for one
 * cell.  Each kind stops early at SB_ADVICE_QUOTA_SHARE of max_seconds.
 */
static void
quota_passes(SbAdviceCtx *c, SbPasses *scan, SbPasses *read, SbPasses *warm)
{
	SbAdviceArgs *args = c->args;
	double		want = SB_SUSTAIN_PERIODS * c->limits.cpu_period_us / 1e6;
	double		most = SB_ADVICE_QUOTA_SHARE * args->max_seconds;
	int			kind;

	for (kind = 0; kind < 3; kind++)
	{
		SbPasses   *p = kind == 0 ? scan : (kind == 1 ? read : warm);
		double		start = sb_advice_elapsed_s(c);

		while (p->wall < want && sb_advice_elapsed_s(c) - start < most)
		{
			MemoryContext old = MemoryContextSwitchTo(c->passcxt);

			CHECK_FOR_INTERRUPTS();
			if (kind == 1)
			{
				SbReadResult r;

				sb_raw_read(args->target, BLCKSZ, args->cache, &r, NULL);
				add_pass(p, &r.timing);
			}
			else
			{
				SbScanResult r;

				sb_scan(args->target, args->query, c->cur_workers,
						kind == 0 ? args->cache : SB_CACHE_WARM, &r);
				add_pass(p, &r.timing);
			}
			MemoryContextSwitchTo(old);
			MemoryContextReset(c->passcxt);
		}
	}
}

/* What gives the executor more CPU, for a CPU-limited scan. */
void
sb_advice_cpu(SbAdviceCtx *c, List **trials)
{
	SbTarget   *target = c->args->target;
	double		storage_gain = Max(1.0, c->storage_mb_s / c->scan_mb_s);

	if (!isnan(c->quota_cpus) && c->quota_cpus < 1.0 && c->cpu_dir[0] != '\0')
	{
		/*
		 * Under the quota a pass's CPU time u takes u / quota of wall
		 * time; without it, u.  So each reference pass would take
		 * t - u (1 / quota - 1), and no less than u: the raw read, which
		 * is mostly CPU when the blocks come from the page cache, as
		 * much as the warm scan.  Workers share the same quota.  The
		 * figures are means over passes long enough for the quota's
		 * periods to even out.
		 */
		bool		v1 = c->limits.cpu_version == 1;
		double		stretch = 1.0 / c->quota_cpus - 1.0;
		SbPasses	scan = {1, c->wall, c->scan_cpu_s};
		SbPasses	read = {1, c->t_read, c->read_cpu_s};
		SbPasses	warm = {1, c->t_cpu, c->warm_cpu_s};
		double		read_free,
					cpu_free,
					bound;
		SbAdvice   *a;

		quota_passes(c, &scan, &read, &warm);
		read_free = Max(read.cpu, read.wall - read.cpu * stretch) / read.n;
		cpu_free = Max(warm.cpu, warm.wall - warm.cpu * stretch) / warm.n;
		bound = (scan.wall / scan.n) / Max(read_free, cpu_free);
		a = advice_new(c, v1 ? "cpu.cfs_quota_us" : "cpu.max",
								   v1 ? "-1" : psprintf("max " INT64_FORMAT, c->limits.cpu_period_us),
								   psprintf(INT64_FORMAT " " INT64_FORMAT,
											c->limits.cpu_quota_us, c->limits.cpu_period_us),
								   "root");

		a->command = v1 ? psprintf("echo -1 > %s/cpu.cfs_quota_us", c->cpu_dir) :
			psprintf("echo 'max " INT64_FORMAT "' > %s/cpu.max",
					 c->limits.cpu_period_us, c->cpu_dir);
		sb_advice_predict(a, Max(1.0, bound),
				psprintf("predicted, CPU-limited: the server's CPU quota of %.2f CPU is the limit, not the worker count (workers share the quota); without it the raw read would take %.3f s and the warm scan %.3f s (each pass's CPU time at full speed): about wall %.3f s / max of the two, an estimate from CPU time measured under the quota, means of %d scans in %.2f s, %d raw reads in %.2f s and %d warm scans in %.2f s (its period is %.2f s)",
						 c->quota_cpus, read_free, cpu_free, scan.wall / scan.n,
						 scan.n, scan.wall, read.n, read.wall, warm.n, warm.wall,
						 c->limits.cpu_period_us / 1e6));
	}
	else if (c->cpus >= 2 &&
			 target->bytes >= (uint64) Max(sb_setting_int("min_parallel_table_scan_size"), 0) * BLCKSZ)
	{
		int			want = Min((int) floor(c->cpus) - 1,
							   Min(sb_setting_int("max_parallel_workers"),
								   sb_setting_int("max_worker_processes") - 1));

		if (want > c->cur_workers)
		{
			char	   *v = psprintf("%d", want);
			double		procs = Min((double) want + 1, c->cpus) / (c->cur_workers + 1);
			SbAdvice   *a = advice_new(c, "max_parallel_workers_per_gather", v,
									   psprintf("%d", c->cur_workers), "CPU");

			a->command = psprintf("SET max_parallel_workers_per_gather = %d", want);
			trial_new(trials, a, NULL, NULL, want,
					  Max(1.0, Min(storage_gain, c->warm_mb_s * procs / c->scan_mb_s)),
					  psprintf("predicted, CPU-limited: %d processes on %.1f CPUs: at most min(storage %.0f MB/s, warm scan %.0f MB/s x %.2f) / scan %.0f MB/s",
							   want + 1, c->cpus, c->storage_mb_s, c->warm_mb_s, procs,
							   c->scan_mb_s));
		}
	}

	if (c->facts.data_checksums && c->args->cache != SB_CACHE_ASIS)
	{
		double		per_page = checksum_s_per_page(target);

		if (!isnan(per_page))
		{
			double		cpu_s = per_page * target->nblocks;
			double		bound = Min(storage_gain,
									c->wall / Max(c->t_read, Max(c->wall - cpu_s, 1e-9)));
			SbAdvice   *a = advice_new(c, "data_checksums", "off", "on", "restart");

			a->command = psprintf("pg_ctl stop -D '%s'; pg_checksums --disable -D '%s'; pg_ctl start -D '%s' (pages are then no longer verified on read)",
								  DataDir, DataDir, DataDir);
			sb_advice_predict(a, Max(1.0, bound),
					psprintf("predicted, CPU-limited: verifying a page's checksum measured at %.2f us, %.3f s for the relation: at most min(storage %.0f MB/s / scan %.0f MB/s, scan_s / max(read_s, scan_s - %.3f s))",
							 1e6 * per_page, cpu_s, c->storage_mb_s, c->scan_mb_s, cpu_s));
		}
	}
}

/*
 * The tablespace's random_page_cost and effective_io_concurrency,
 * measured in the time left: a row for each the figures say to change.
 */
void
sb_advice_costs(SbAdviceCtx *c)
{
	SbTarget   *target = c->args->target;
	Oid			spc = sb_target_tablespace(target);
	char	   *spcname = get_tablespace_name(spc);
	const char *qspc = quote_identifier(spcname);
	double		cur_random;
	double		cur_seq;
	int			cur_eic;
	SbCostAdvice ca;
	SbDepthSweep *ds = &ca.ds;

	get_tablespace_page_costs(spc, &cur_random, &cur_seq);
	cur_eic = get_tablespace_io_concurrency(spc);
	sb_page_costs_advise(target, Max(c->args->max_seconds - sb_advice_elapsed_s(c), 0.0),
						 cur_seq, c->cached_pct, &ca);

	if (ca.recommend)
	{
		/* without an interval, the widest one worth a setting */
		double		lo = isnan(ca.rec_lo) ? ca.rec * (1 - sb_threshold(SB_RULE_PAGECOST_INTERVAL) / 100) : ca.rec_lo;
		double		hi = isnan(ca.rec_hi) ? ca.rec * (1 + sb_threshold(SB_RULE_PAGECOST_INTERVAL) / 100) : ca.rec_hi;
		char	   *v = float8out_internal(sb_round(ca.rec, 2));

		if (cur_random < lo || cur_random > hi)
		{
			SbAdvice   *a = advice_new(c, "random_page_cost", v,
									   float8out_internal(cur_random), "none");

			a->measured = true;
			a->pairs = ca.pc.rounds;
			a->command = psprintf("ALTER TABLESPACE %s SET (random_page_cost = %s)",
								  qspc, v);
			a->basis = psprintf("measured as page_costs measures it, cold: a random page %.1f us, a sequential page %.1f us over %d rounds, %.2f times as long (%.2f to %.2f); with %.0f%% of the table in the caches before, random_page_cost %.2f (%.2f to %.2f) for tablespace %s, %.2f now; it moves where the planner switches from index to sequential scans (index_crossover measures where it should), not this scan's rate",
								ca.t_random * 1e6, ca.t_seq * 1e6, ca.pc.rounds,
								ca.pc.ratio, ca.pc.ratio_lo, ca.pc.ratio_hi,
								ca.cached_pct, ca.rec, lo, hi, spcname, cur_random);
		}
	}
	/* a depth is proposed from three sweeps or more, with its range */
	if (ca.recommend_eic && ds->knee_low > 0)
	{
		int			low = ds->knee_low;
		double		now = sb_depth_rate(ds, cur_eic);
		double		then = sb_depth_rate(ds, ds->knee);

		if (cur_eic < low && then >= SB_ADVICE_WORTH * now)
		{
			char	   *v = psprintf("%d", ds->knee);
			SbAdvice   *a = advice_new(c, "effective_io_concurrency", v,
									   psprintf("%d", cur_eic), "none");

			a->measured = true;
			a->pairs = ds->sweeps;
			a->command = psprintf("ALTER TABLESPACE %s SET (effective_io_concurrency = %d)",
								  qspc, ds->knee);
			a->basis = psprintf("measured as page_costs measures it, cold: random reads of the table got %.0f pages/s at depth %d (effective_io_concurrency %d now) and %.0f at depth %d, where they came within %.0f%% of the best depth's rate (the median of %d sweeps, %d to %d); a bitmap heap scan of a table in tablespace %s keeps that many reads in flight, so its reads could go up to %.2f times as fast; this scan's rate does not change",
								now, Max(cur_eic, 1), cur_eic, then, ds->knee,
								SB_DEPTH_KNEE_PCT, ds->sweeps, low, ds->knee_high,
								spcname, then / now);
		}
	}
}

