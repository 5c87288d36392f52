#!/usr/bin/env bash
# Can a scan_efficiency figure be trusted, and afforded?  Two measurements
# on one lineitem, in one run:
#
#   repeat   N consecutive default calls (cold, pairs, target 5 %, 60 s):
#            each call's scan_pct, 95 % interval, pairs, coverage, seconds
#            and verdict; the median of the N; and for every call whose
#            verdict is ok, whether its figure lies within +-10 % of it.
#   sample   warm, alternately: a sampled call that reads at most 10 % of
#            the relation (sample => 0.1) against a full-coverage call
#            (target_pct => 0): their medians, the difference in % of the
#            full figure, and the time the sampled call took in % of the
#            full one's.
#
#   bench/trust.sh [--scale SF] [--calls N] [--rounds N] [--only repeat|sample] [--table NAME] [--here]
#
# Root, default SF 1, 5 calls and 3 rounds; the sample comparison is meant
# for SF 10 (about 9.5 GB).  --here uses the server PGHOST/PGPORT name,
# where scanbench and the table (--table, default lineitem) are already
# installed, instead of a throwaway cluster.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=1
calls=5
rounds=3
only=""
here=0
table=lineitem
sb_bench_args "bench/trust.sh [--scale SF] [--calls N] [--rounds N] [--only repeat|sample] [--table NAME] [--here]" \
	"calls rounds only" "$@"
sb_bench_table 54333
# The verdict's messages go to the server log; the row carries the verdict.
q() { sb_bench_psql error -c "$1"; }

echo "$table: $(q "SELECT pg_size_pretty(pg_relation_size('$table'))")"

if [ "$only" != sample ]; then
	echo
	echo "$calls consecutive default calls: SELECT * FROM scan_efficiency('$table')"
	printf '%-5s %9s %19s %6s %9s %8s  %s\n' call scan_pct '95 % interval' pairs coverage seconds verdict
	figs="" verdicts=""
	for i in $(seq 1 "$calls"); do
		IFS='|' read -r pct lo hi pairs cov secs verdict < <(q "SELECT scan_pct, scan_pct_lo, scan_pct_hi, pairs, coverage_pct, elapsed_s, verdict FROM scan_efficiency('$table')")
		printf '%-5s %9s %9s – %-7s %6s %8s%% %8s  %s\n' "$i" "$pct" "${lo:-none}" "${hi:-none}" "$pairs" "$cov" "$secs" "$verdict"
		figs+=" $pct" verdicts+=" $verdict"
	done
	med=$(tr ' ' '\n' <<<"$figs" | grep . | sb_median)
	echo "median of the $calls calls: $med"
	paste <(tr ' ' '\n' <<<"$figs" | grep .) <(tr ' ' '\n' <<<"$verdicts" | grep .) |
		awk -v m="$med" '
			$2 == "ok" { n++; d = 100 * ($1 - m) / m; bad += (d > 10 || d < -10)
						 printf "call %d: ok, %+.1f %% from the median%s\n", NR, d, (d > 10 || d < -10) ? "  OUTSIDE +-10 %" : "" }
			{ d = 100 * ($1 - m) / m; if (d < 0) d = -d; if (d > worst) worst = d }
			END { printf "%d of %d calls ok; %d of them outside +-10 %% of the median\n", n, NR, bad
				  printf "every call, whatever its verdict, within +-%.1f %% of the median\n", worst }'
fi

if [ "$only" != repeat ]; then
	echo
	echo "warm, sampled (sample => 0.1) against full coverage (target_pct => 0), $rounds rounds alternating"
	sampled="SELECT scan_pct, elapsed_s, coverage_pct, pairs, verdict FROM scan_efficiency('$table', 'warm', sample => 0.1)"
	full="SELECT scan_pct, elapsed_s, coverage_pct, pairs, verdict FROM scan_efficiency('$table', 'warm', target_pct => 0, max_seconds => 3600)"
	q "SELECT read_mb_s FROM raw_read('$table', 'warm', 1048576)" >/dev/null	# the page cache holds it from here on
	diffs="" times=""
	for i in $(seq 1 "$rounds"); do
		if [ $((i % 2)) -eq 1 ]; then s=$(q "$sampled"); f=$(q "$full"); else f=$(q "$full"); s=$(q "$sampled"); fi
		IFS='|' read -r sp st sc sn sv <<<"$s"
		IFS='|' read -r fp ft fc fn fv <<<"$f"
		d=$(awk -v a="$sp" -v b="$fp" 'BEGIN { printf "%+.1f", 100 * (a - b) / b }')
		t=$(awk -v a="$st" -v b="$ft" 'BEGIN { printf "%.1f", 100 * a / b }')
		printf 'round %d: sampled %s (%s %% in %s pairs, %s s, %s) | full %s (%s %% in %s pairs, %s s) | difference %s %% | time %s %%\n' \
			"$i" "$sp" "$sc" "$sn" "$st" "$sv" "$fp" "$fc" "$fn" "$ft" "$d" "$t"
		diffs+=" $d" times+=" $t"
	done
	echo "median difference of the sampled figure from the full one: $(tr ' ' '\n' <<<"$diffs" | grep . | sb_median) % (want within +-5 %)"
	echo "median time of the sampled call, in % of the full one's: $(tr ' ' '\n' <<<"$times" | grep . | sb_median) % (want <= 15 %)"
fi
