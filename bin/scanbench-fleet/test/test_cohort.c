/*
 * test_cohort.c: the judgement (cohort.c) as a unit, on rows made here:
 * the cohort rule with intervals, the read rate rule and what differs, the
 * own history, failures and rows that cannot be judged.  Prints "ok - ..."
 * or "not ok - ..." a check, as TAP reads them (t/122_fleet_args.pl runs
 * it); exits 1 if any check failed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cohort.h"
#include "../../../src/cohortrule.h"
#include "../../../src/judgerules.h"
#include "../measure.h"
#include "../options.h"
#include "../servers.h"
#include "../../common/xalloc.h"

static int	failed;

static void
check(bool ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", what);
	if (!ok)
		failed++;
}

static Server *
server(const char *name, const char *class)
{
	Server	   *s = xmalloc(sizeof(Server));

	s->name = xstrdup(name);
	s->tags[0].key = xstrdup("class");
	s->tags[0].value = xstrdup(class);
	s->ntags = 1;
	return s;
}

/* A measured row: scan_pct with its interval, read rate, verdict. */
static void
measured(Row *r, Server *s, double pct, double lo, double hi, double read, const char *verdict)
{
	char		buf[64];

	memset(r, 0, sizeof(*r));
	r->server = s;
	r->relation = "t";
	r->history_pct = NAN;
	row_set(r, "relid", "16384");
	snprintf(buf, sizeof(buf), "%g", pct);
	row_set(r, "scan_pct", buf);
	snprintf(buf, sizeof(buf), "%g", lo);
	row_set(r, "scan_pct_lo", buf);
	snprintf(buf, sizeof(buf), "%g", hi);
	row_set(r, "scan_pct_hi", buf);
	snprintf(buf, sizeof(buf), "%g", read);
	row_set(r, "read_mb_s", buf);
	row_set(r, "verdict", verdict);
	/* as the server's scan_verdict_marks() says of {ok} */
	r->verdict_judged = r->verdict_reads_judged = true;
	row_set(r, "device", "/dev/nvme0n1");
	row_set(r, "scheduler", "none");
	row_set(r, "kernel", "6.1.0");
}

static Options
options(void)
{
	Options		o;

	memset(&o, 0, sizeof(o));
	o.k = 3;
	o.min_spread_pct = 5;
	o.max_drop_pct = 20;
	o.history_runs = 10;
	return o;
}

int
main(void)
{
	Options		opt = options();
	Row			rows[9];
	Server	   *s[9];
	double		v[] = {3, 1, 2};

	check(sb_cohort_median(v, 3) == 2, "median of three");
	{
		double		w[] = {4, 1, 3, 2};

		check(sb_cohort_median(w, 4) == 2.5, "median of four");
	}

	/*
	 * The rule itself (src/cohortrule.c, the library's too), at each
	 * boundary: the least spread where the figures agree, k MADs where they
	 * do not, an interval outside only when all of it is.
	 */
	{
		double		agree[] = {50, 50, 50, 60, 40};
		double		apart[] = {10, 20, 30, 40, 50};
		double		work[5];
		SbCohortBand b;

		check(!sb_cohort_band(agree, (int) sb_threshold(SB_RULE_COHORT_SIZE) - 1, 3, 5, work, &b) && isnan(b.centre),
			  "rule: two figures make no band");
		check(sb_cohort_side(&b, 0, 0) == SB_COHORT_INSIDE, "rule: ... and nothing lies outside none");
		check(sb_cohort_band(agree, 5, 3, 5, work, &b) && b.centre == 50 && b.spread == 5,
			  "rule: figures that mostly agree (MAD 0) get the least spread, 50 +- 5");
		check(sb_cohort_side(&b, 40, 44.99) == SB_COHORT_BELOW, "rule: an interval wholly under 45 is below");
		check(sb_cohort_side(&b, 40, 45) == SB_COHORT_INSIDE, "rule: one that reaches 45 is inside");
		check(sb_cohort_side(&b, 55, 70) == SB_COHORT_INSIDE, "rule: one that reaches 55 is inside");
		check(sb_cohort_side(&b, 55.01, 70) == SB_COHORT_ABOVE, "rule: one wholly over 55 is above");
		check(sb_cohort_band(apart, 5, 3, 5, work, &b) && b.centre == 30 &&
			  fabs(b.spread - 3 * sb_threshold(SB_RULE_COHORT_MAD_SCALE) * 10) < 1e-9,
			  "rule: figures apart (MAD 10) get 3 scaled MADs, 30 +- 44.5");
		check(apart[0] == 10 && apart[4] == 50, "rule: the figures are left as given");
	}

	for (int i = 0; i < 9; i++)
	{
		char		name[8];

		snprintf(name, sizeof(name), "s%d", i);
		s[i] = server(name, i < 8 ? "nvme" : "other");
	}
	/* Four peers near 60, tight. */
	measured(&rows[0], s[0], 60, 58, 62, 500, "{ok}");
	measured(&rows[1], s[1], 61, 59, 63, 510, "{ok}");
	measured(&rows[2], s[2], 59, 57, 61, 490, "{ok}");
	measured(&rows[3], s[3], 62, 60, 64, 505, "{ok}");
	/* Low, its interval wholly below the band: flagged. */
	measured(&rows[4], s[4], 30, 28, 32, 495, "{ok}");
	row_set(&rows[4], "scheduler", "mq-deadline");
	/* Low, but its interval reaches the band: not flagged. */
	measured(&rows[5], s[5], 40, 20, 70, 500, "{ok}");
	/* Throttled: scan_pct fine, reads slow; unstable scan_pct. */
	measured(&rows[6], s[6], 99, 60, 120, 8, "{unstable,io_limited}");
	rows[6].verdict_judged = false; /* unstable: its read rate stays judged */
	row_set(&rows[6], "read_bps_limit", "8388608");
	/* Not measured. */
	memset(&rows[7], 0, sizeof(Row));
	rows[7].server = s[7];
	rows[7].relation = "t";
	rows[7].history_pct = NAN;
	rows[7].reason = xstrdup("could not connect: refused");
	/* Alone in its cohort, below its own history. */
	measured(&rows[8], s[8], 60, 58, 62, 500, "{ok}");
	rows[8].history_pct = 80;
	rows[8].history_runs = 5;

	judge_rows(&opt, rows, 9);

	check(!rows[0].flagged && !rows[1].flagged && !rows[2].flagged && !rows[3].flagged,
		  "the four peers are not flagged");
	check(rows[0].cohort_size == 6, "the cohort's judged rows: six (the unstable and the failed left out)");
	check(fabs(rows[0].cohort_pct - 59.5) < 1e-9, "the cohort's median");
	check(rows[0].cohort_spread >= 5, "the spread is at least --min-spread");
	check(rows[4].flagged, "a row whose interval lies wholly below the band is flagged");
	check(rows[4].remark && strstr(rows[4].remark, "below its cohort's"), "... said below its cohort");
	check(rows[4].remark && strstr(rows[4].remark, "scheduler mq-deadline (peers: none)"),
		  "... naming the scheduler that differs");
	check(!rows[5].flagged, "a row whose wide interval reaches the band is not flagged");
	check(rows[6].flagged, "a read rate far below the cohort's is flagged, its scan_pct unstable");
	check(rows[6].remark && strstr(rows[6].remark, "read_bps_limit 8388608 (peers: none)"),
		  "... naming the read limit");
	check(rows[7].flagged, "a row that could not be measured is an alarm");
	check(rows[8].flagged && rows[8].remark && strstr(rows[8].remark, "below this server's median of 80.0"),
		  "a row more than --max-drop-pct below its own history is flagged");
	check(isnan(rows[8].cohort_pct), "... alone in its cohort, with no cohort figure");

	/* The band is k x MAD wide: with k = 100, the low row lies inside it. */
	opt.min_spread_pct = 0;
	opt.k = 100;
	judge_rows(&opt, rows, 9);
	check(!rows[4].flagged, "a wider band (k = 100): the low row is inside it");

	return failed ? 1 : 0;
}
