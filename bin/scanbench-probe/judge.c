/*
 * judge.c: what a pass's figures say, and how cold it really was.
 *
 * A client cannot evict a cache, so it cannot make a pass cold; it can
 * only find out what the pass was.  Three things bound it:
 *   - shared buffers: EXPLAIN counts the blocks found there (hits);
 *   - the OS cache: it holds at most the server's memory less
 *     shared_buffers (--memory), so of a table larger than that, at least
 *     the difference came from the volume;
 *   - the volume: over the pass it can deliver at most its limit (burst
 *     included) times the pass's time, so blocks that came faster than
 *     that came from a cache.  A limit of requests a second is such a
 *     bound only at a request size that was stated: the kernel's
 *     read-ahead sends what size it likes, and no client can see it.
 * A pass is called cold only when at least 90 % of its blocks must have
 * come from the volume (hits at most 1 %), warm when anything shows a
 * cache served it (more than 5 % hits, blocks faster than the volume, a
 * pass 25 % faster than the first), and neither otherwise: then the two
 * bounds are given, never a guess between them.
 *
 * The read wait (track_io_timing) is not such a bound: with read-ahead a
 * read from the volume is often waited for less than its transfer takes,
 * so a read rate per second of wait above the volume's limit does not
 * show a cache.  It is reported, with the wait per block and per request,
 * for a person to weigh, and judged on nothing.
 *
 * Pure arithmetic: no connection.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "options.h"
#include "probe.h"
#include "profiles.h"
#include "server.h"
#include "xalloc.h"

/* A vendor's figure is a round number: a rate within 10 % of it is at it. */
#define TOLERANCE		1.10
#define WARM_HIT_PCT	5.0
#define COLD_HIT_PCT	1.0
#define COLD_MIN_PCT	90.0
#define FASTER			1.25
/* What a server on Linux sends where nothing measures it: read-ahead's default. */
#define DEFAULT_REQUEST	131072.0

const char *
coldness_name(Coldness c)
{
	switch (c)
	{
		case COLD_YES:
			return "cold";
		case COLD_NO:
			return "warm";
		default:
			return "unknown";
	}
}

/* A size as PostgreSQL prints it (1024s): malloc'd. */
char *
size_text(double bytes)
{
	const char *units[] = {"bytes", "kB", "MB", "GB", "TB"};
	int			u = 0;

	while (fabs(bytes) >= 10240 && u < 4)
	{
		bytes /= 1024;
		u++;
	}
	return xprintf("%.0f %s", bytes, units[u]);
}

static void
add(char **s, char *sentence)
{
	char	   *more = *s ? xprintf("%s; %s", *s, sentence) : xstrdup(sentence);

	free(*s);
	free(sentence);
	*s = more;
}

void
judge_pass(const Pass *p, const Judged *first, const Run *run, const TableInfo *t,
		   const ServerInfo *s, const Profile *profile, const Options *opt, Judged *j)
{
	const ExplainFigures *e = &p->explain;
	double		bs = s->block_size;
	double		blocks = e->hit_blocks + e->read_blocks;
	double		read_bytes = e->read_blocks * bs;
	double		exec_s = e->execution_ms / 1000.0;
	double		scan_bytes_s;
	double		min_frac,
				max_frac;
	double		burst_limit = NAN,
				limit = NAN,
				ceiling = NAN;	/* what the volume can deliver at most */
	char	   *warm = NULL;

	memset(j, 0, sizeof(*j));
	j->scanned_bytes = blocks * bs;
	scan_bytes_s = exec_s > 0 ? j->scanned_bytes / exec_s : NAN;
	j->scan_mb_s = scan_bytes_s / 1e6;
	j->hit_pct = blocks > 0 ? 100.0 * e->hit_blocks / blocks : 0;
	j->read_wait_s = j->read_wait_mb_s = j->wait_us_block = j->wait_ms_request = NAN;
	if (run->io_timing && !isnan(e->read_ms))
	{
		j->read_wait_s = e->read_ms / 1000.0;
		if (e->read_ms > 0)
			j->read_wait_mb_s = read_bytes / j->read_wait_s / 1e6;
		if (e->read_blocks > 0)
			j->wait_us_block = e->read_ms * 1000.0 / e->read_blocks;
	}

	/*
	 * The size of a request, as the volume sees it.  The server's reads
	 * are buffered: the kernel's read-ahead asks the volume for its window
	 * (Linux's default, 128 kB) however small the server's own reads are
	 * (on 18 they came to 32 kB on average through a scan's ring), so the
	 * server's size counts only where it is the larger.
	 */
	j->request_bytes = DEFAULT_REQUEST;
	j->request_from = "the Linux default read-ahead, assumed";
	if (!isnan(opt->request_kib))
	{
		j->request_bytes = opt->request_kib * 1024;
		j->request_from = "--request-kib";
	}
	else if (s->stat_io_backend && p->io_reads > 0 && p->io_read_bytes > DEFAULT_REQUEST * p->io_reads)
	{
		j->request_bytes = p->io_read_bytes / p->io_reads;
		j->request_from = "pg_stat_io, this pass";
	}
	else if (s->io_combine_bytes > DEFAULT_REQUEST)
	{
		j->request_bytes = s->io_combine_bytes;
		j->request_from = "io_combine_limit";
	}
	if (profile && !isnan(profile->fig[PF_REQUEST_KIB]) &&
		profile->fig[PF_REQUEST_KIB] * 1024 < j->request_bytes)
	{
		j->request_bytes = profile->fig[PF_REQUEST_KIB] * 1024;
		j->request_from = "the largest request the volume counts as one";
	}
	if (s->stat_io_backend && p->io_reads > 0 && !isnan(p->io_read_ms))
		j->wait_ms_request = p->io_read_ms / p->io_reads;
	j->latency_ms = !isnan(opt->latency_ms) ? opt->latency_ms
		: profile ? profile->fig[PF_LATENCY_MS] : NAN;

	/*
	 * The volume's limits at that size.  A limit of requests a second is a
	 * ceiling on bytes only at a size someone stated (--request-kib, or the
	 * largest request the volume counts as one): at a size assumed or read
	 * from the server, the kernel's read-ahead may have sent the volume
	 * larger requests than that, and a pass above the limit shows that as
	 * well as it shows a cache.  Then only the bytes a second bound what
	 * can have come from the volume.
	 */
	j->limit_mb_s = j->burst_limit_mb_s = j->volume_pct = NAN;
	if (profile)
	{
		bool		by;
		bool		stated = !isnan(opt->request_kib) || !isnan(profile->fig[PF_REQUEST_KIB]);

		limit = profile_limit(profile_baseline(profile), j->request_bytes, &j->limit_by_requests);
		burst_limit = profile_limit(profile_burst(profile), j->request_bytes, &by);
		j->limit_mb_s = limit / 1e6;
		j->burst_limit_mb_s = burst_limit / 1e6;
		j->volume_pct = 100.0 * scan_bytes_s / limit;
		ceiling = (by && !stated) ? profile_burst(profile).bytes_s : burst_limit;
		if (by && !stated && exec_s > 0 && read_bytes / exec_s > TOLERANCE * burst_limit)
			j->note = xprintf("its blocks from outside shared buffers came at %.1f MB/s, above the volume's %.0f requests a second at %.0f kB (%s): either a cache served some of them or the volume was sent larger requests; give --request-kib for a limit that can tell",
							  read_bytes / exec_s / 1e6, profile_burst(profile).iops,
							  j->request_bytes / 1024, j->request_from);
	}

	/* How much can have come from the volume: the bounds. */
	max_frac = blocks > 0 ? e->read_blocks / blocks : 0;
	if (!isnan(ceiling) && exec_s > 0 && j->scanned_bytes > 0)
		max_frac = fmin(max_frac, TOLERANCE * ceiling * exec_s / j->scanned_bytes);
	min_frac = 0;
	if (!isnan(opt->memory_bytes) && j->scanned_bytes > 0)
	{
		double		os = fmax(0, opt->memory_bytes - s->shared_buffers_bytes);

		min_frac = fmin(max_frac, fmax(0, read_bytes - os) / j->scanned_bytes);
	}
	j->from_volume_min_pct = 100 * min_frac;
	j->from_volume_max_pct = 100 * max_frac;

	/* What shows a cache served the pass. */
	if (j->hit_pct > WARM_HIT_PCT)
		add(&warm, xprintf("%.1f %% of its blocks were in shared buffers", j->hit_pct));
	if (p->number == 1 && !isnan(run->buffered_before) && t->blocks > 0 &&
		100.0 * run->buffered_before / t->blocks > WARM_HIT_PCT)
		add(&warm, xprintf("pg_buffercache found %.1f %% of the table in shared buffers before it%s",
						   100.0 * run->buffered_before / t->blocks,
						   run->prewarmed ? " (--prewarm)" : ""));
	if (!isnan(ceiling) && exec_s > 0 && read_bytes / exec_s > TOLERANCE * ceiling)
		add(&warm, xprintf("its blocks from outside shared buffers came at %.1f MB/s, faster than the volume's %.1f MB/s%s: at most %.0f %% of them can have come from it",
						   read_bytes / exec_s / 1e6, ceiling / 1e6,
						   profile_has_burst(profile) ? " (burst included)" : "",
						   100.0 * TOLERANCE * ceiling * exec_s / read_bytes));
	if (first && first->scan_mb_s > 0 && j->scan_mb_s > FASTER * first->scan_mb_s)
		add(&warm, xprintf("it ran %.1f times as fast as pass 1: a cache held what pass 1 read",
						   j->scan_mb_s / first->scan_mb_s));

	if (warm)
	{
		j->cold = COLD_NO;
		j->why = warm;
	}
	else if (j->hit_pct <= COLD_HIT_PCT && 100 * min_frac >= COLD_MIN_PCT)
	{
		j->cold = COLD_YES;
		{
			char	   *os = size_text(fmax(0, opt->memory_bytes - s->shared_buffers_bytes));
			char	   *tb = size_text(read_bytes);

			j->why = xprintf("at least %.0f %% of its blocks came from the volume: %s were read from outside shared buffers, and the OS can cache at most %s (--memory less shared_buffers)",
							 100 * min_frac, tb, os);
			free(os);
			free(tb);
		}
	}
	else
	{
		char	   *why = xprintf("not shown cold: between %.0f %% and %.0f %% of its blocks can have come from the volume",
								  100 * min_frac, 100 * max_frac);

		j->cold = COLD_UNKNOWN;
		if (j->hit_pct > COLD_HIT_PCT)
			add(&why, xprintf("%.1f %% of its blocks were in shared buffers", j->hit_pct));
		if (t->bytes <= s->shared_buffers_bytes)
		{
			char	   *sb = size_text(s->shared_buffers_bytes);

			add(&why, xprintf("the table fits in shared buffers (%s)", sb));
			free(sb);
		}
		if (isnan(opt->memory_bytes))
			add(&why, xstrdup("without --memory, the OS cache could have held all of it"));
		else if (100 * min_frac < COLD_MIN_PCT)
		{
			char	   *os = size_text(fmax(0, opt->memory_bytes - s->shared_buffers_bytes));
			char	   *tb = size_text(t->bytes);

			add(&why, xprintf("the OS can cache %s (--memory less shared_buffers) of the table's %s",
							  os, tb));
			free(os);
			free(tb);
		}
		j->why = why;
	}

	if (profile && j->cold != COLD_NO && profile_has_burst(profile) &&
		scan_bytes_s > TOLERANCE * limit && scan_bytes_s <= TOLERANCE * burst_limit)
		j->burst = true;
	j->at_limit = profile && j->cold == COLD_YES &&
		j->volume_pct >= 100 / TOLERANCE && j->volume_pct <= 100 * TOLERANCE;
	if (j->cold == COLD_NO)
		j->verdict = "{cached}";
	else if (j->burst)
		j->verdict = "{burst}";
	else if (j->cold == COLD_YES)
		j->verdict = j->at_limit ? "{io_limited}" : "{ok}";
	else
		j->verdict = NULL;

	if (blocks > 0 && e->dirtied_blocks > 0.01 * blocks)
	{
		char	   *dirtied = xprintf("it dirtied %.0f blocks (hint bits, set by the first scan after a load or a bulk change): its time includes writing them; VACUUM the table first",
									  e->dirtied_blocks);

		add(&j->note, dirtied);
	}
}

/* The pass that is the figure: the first cold one; -1 when none is. */
int
judge_figure(const Judged *j, int n)
{
	for (int i = 0; i < n; i++)
		if (j[i].cold == COLD_YES)
			return i;
	return -1;
}
