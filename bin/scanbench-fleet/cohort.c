/*
 * cohort.c: each row against its cohort and its own history.
 *
 * A cohort is the rows of one relation (as named on the command line) on
 * servers with the same tags.  Only judged rows count: measured, with a
 * scan_pct and a verdict that can be judged, as the measured server's
 * scan_verdict_marks() says of each of its marks (run.c reads it with the
 * row).
 *
 * The rule is the library's (src/cohortrule.c, compiled in here too, with
 * its thresholds): robust, so that one slow server cannot hide itself by
 * dragging the average.  With at least three judged rows, m is the median
 * of their scan_pct and the spread is max(k * MAD, --min-spread), MAD being
 * the median absolute deviation scaled to the standard deviation of
 * normal data.  A row is flagged only when its whole 95 % interval
 * (scan_pct_lo..scan_pct_hi; the figure alone if it has none) lies outside
 * m +- spread: a wide interval that still reaches the cohort is not an
 * alarm.  The same rule on the logarithm of read_mb_s, with a least spread
 * of a factor of two, flags a server whose storage reads far slower (or
 * faster) than its peers' even when its scan keeps up with it (a throttled
 * disk makes scans I/O-bound, so its scan_pct looks fine).  Its rows are
 * those whose reads are the storage's (reads_judged in
 * scan_verdict_marks(): an unstable scan_pct counts there, a cached or
 * burst read does not).
 *
 * A flagged row names what differs from its peers: for each storage and
 * server fact, the value most of its peers share, when the row's is not it.
 *
 * Its own history: the median of the server's last --history-runs judged
 * runs of the relation in the central history; a row whose interval lies
 * wholly below it by more than --max-drop-pct is flagged too.
 *
 * Nothing here connects or prints: plain arithmetic over the rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cohort.h"
#include "../../src/cohortrule.h"
#include "../../src/judgerules.h"
#include "measure.h"
#include "options.h"
#include "servers.h"
#include "xalloc.h"

/* The facts a flagged row is compared with its peers on, and their labels. */
static const char *const facts[] = {
	"device", "filesystem", "scheduler", "read_ahead_kb", "kernel",
	"server_version", "read_bps_limit", "read_iops_limit", "write_bps_limit",
	"write_iops_limit", "cpu_quota_us", "settings", NULL
};

static double
num(const Row *r, const char *column)
{
	const char *v = row_value(r, column);

	return v ? strtod(v, NULL) : NAN;
}

static bool
same_cohort(const Row *a, const Row *b)
{
	return strcmp(a->relation, b->relation) == 0 && same_tags(a->server, b->server);
}

static void
append(char **s, const char *piece)
{
	char	   *joined = xprintf("%s%s%s", *s ? *s : "", *s ? "; " : "", piece);

	free(*s);
	*s = joined;
}

static const char *
shown(const char *v)
{
	return v ? v : "none";
}

/* What differs from the peers: "read_bps_limit 20971520 (peers: none)". */
static char *
differences(const Row *row, Row *rows, int nrows)
{
	char	   *out = NULL;

	for (int f = 0; facts[f]; f++)
	{
		const char *mine = row_value(row, facts[f]);
		const char *mode = NULL;
		int			best = 0,
					peers = 0;

		for (int i = 0; i < nrows; i++)
		{
			const char *v;
			int			count = 0;

			if (&rows[i] == row || rows[i].reason || !same_cohort(&rows[i], row))
				continue;
			peers++;
			v = row_value(&rows[i], facts[f]);
			for (int j = 0; j < nrows; j++)
			{
				const char *w;

				if (&rows[j] == row || rows[j].reason || !same_cohort(&rows[j], row))
					continue;
				w = row_value(&rows[j], facts[f]);
				if ((v == NULL && w == NULL) || (v && w && strcmp(v, w) == 0))
					count++;
			}
			if (count > best)
			{
				best = count;
				mode = v;
			}
		}
		if (peers == 0 || best * 2 <= peers)
			continue;			/* the peers do not agree among themselves */
		if ((mine == NULL && mode == NULL) || (mine && mode && strcmp(mine, mode) == 0))
			continue;
		{
			char	   *piece = xprintf("%s %s (peers: %s)", facts[f], shown(mine), shown(mode));

			if (out == NULL)
				out = xprintf("differs from its peers in %s", piece);
			else
			{
				char	   *joined = xprintf("%s, %s", out, piece);

				free(out);
				out = joined;
			}
			free(piece);
		}
	}
	return out ? out : xstrdup("no storage, limit, kernel, version or setting differs from its peers");
}

void
judge_rows(const Options *opt, Row *rows, int nrows)
{
	double	   *pct = xmalloc(sizeof(double) * (size_t) (nrows + 1));
	double	   *lread = xmalloc(sizeof(double) * (size_t) (nrows + 1));
	double	   *work = xmalloc(sizeof(double) * (size_t) (nrows + 1));

	for (int i = 0; i < nrows; i++)
	{
		Row		   *r = &rows[i];

		r->read_mb_s = num(r, "read_mb_s");
		r->scan_mb_s = num(r, "scan_mb_s");
		r->scan_pct = num(r, "scan_pct");
		r->scan_pct_lo = num(r, "scan_pct_lo");
		r->scan_pct_hi = num(r, "scan_pct_hi");
		r->judged = r->reason == NULL && !isnan(r->scan_pct) && r->verdict_judged;
		r->reads_judged = r->reason == NULL && r->read_mb_s > 0 &&
			r->verdict_reads_judged;
		r->cohort_pct = r->cohort_spread = r->cohort_read_mb_s = NAN;
	}

	for (int i = 0; i < nrows; i++)
	{
		Row		   *r = &rows[i];
		int			n = 0,
					nr = 0;
		double		lo,
					hi;
		SbCohortBand band,
					rband;
		bool		outside = false;
		char	   *what = NULL;

		if (r->reason)
		{
			r->flagged = true;
			continue;
		}
		for (int j = 0; j < nrows; j++)
			if (same_cohort(&rows[j], r))
			{
				if (rows[j].judged)
					pct[n++] = rows[j].scan_pct;
				if (rows[j].reads_judged)
					lread[nr++] = log(rows[j].read_mb_s);
			}
		r->cohort_size = n;
		lo = isnan(r->scan_pct_lo) ? r->scan_pct : r->scan_pct_lo;
		hi = isnan(r->scan_pct_hi) ? r->scan_pct : r->scan_pct_hi;
		if (r->judged && sb_cohort_band(pct, n, opt->k, opt->min_spread_pct, work, &band))
		{
			SbCohortSide side = sb_cohort_side(&band, lo, hi);

			r->cohort_pct = band.centre;
			r->cohort_spread = band.spread;
			if (side != SB_COHORT_INSIDE)
			{
				outside = true;
				what = xprintf("scan_pct %.1f %% (95 %% interval %.1f-%.1f) is %s its cohort's %.1f +- %.1f %% (%d servers)",
							   r->scan_pct, lo, hi, side == SB_COHORT_BELOW ? "below" : "above",
							   band.centre, band.spread, n);
			}
		}
		if (r->reads_judged &&
			sb_cohort_band(lread, nr, opt->k, log(sb_threshold(SB_RULE_COHORT_READ_FACTOR)), work, &rband))
		{
			double		lr = log(r->read_mb_s);
			SbCohortSide side = sb_cohort_side(&rband, lr, lr);

			r->cohort_read_mb_s = exp(rband.centre);
			if (side != SB_COHORT_INSIDE)
			{
				char	   *piece = xprintf("read_mb_s %.1f is %s its cohort's %.1f (outside a factor of %.1f)",
											r->read_mb_s, side == SB_COHORT_BELOW ? "below" : "above",
											exp(rband.centre), exp(rband.spread));

				outside = true;
				append(&what, piece);
				free(piece);
			}
		}
		if (outside)
		{
			char	   *diff = differences(r, rows, nrows);

			append(&what, diff);
			free(diff);
		}
		if (r->judged && r->history_runs >= sb_threshold(SB_RULE_COHORT_SIZE) && !isnan(r->history_pct) &&
			hi < r->history_pct * (1.0 - opt->max_drop_pct / 100.0))
		{
			char	   *piece = xprintf("scan_pct %.1f %% (interval up to %.1f) is more than %g %% below this server's median of %.1f %% over its last %d runs",
										r->scan_pct, hi, opt->max_drop_pct, r->history_pct, r->history_runs);

			outside = true;
			append(&what, piece);
			free(piece);
		}
		r->flagged = outside;
		if (what == NULL && !r->judged)
			what = xprintf("scan_pct not judged (verdict %s)", shown(row_value(r, "verdict")));
		r->remark = what;
	}
	free(pct);
	free(lread);
	free(work);
}
