#!/usr/bin/env bash
# Does scan_efficiency's figure depend on how long the call ran?  On one
# table, with one cache mode, three rounds of
#
#   short   a call with the defaults (stopped at +-5 %), as a nightly check
#           makes it
#   long    a call of --seconds / 3 with target_pct => 0.1: hundreds of
#           pairs, the relation covered several times
#
# each call in a session of its own, short and long side by side so that
# a machine whose load drifts over minutes moves both alike; then
#
#   whole   five passes of scan_rate over five of raw_read, the two
#           alternating, as the reference a sampled figure stands for
#
# and a summary of each long call's pairs (scan_pairs()): the median of its
# first and its last fifth in the order taken, with the page faults their
# scans took and the share of each stretch's blocks its scan found in
# shared_buffers, so that a figure that moves during a call shows where.  Then
# the checks: each short median within 5 % of the long one beside it, each
# inside the other's interval, and both within 10 % of the whole passes'.
#
#   bench/call-length.sh [--cache warm|cold] [--seconds S] [--table NAME]
#                        [--scale SF] [--here]
#
# Root, defaults warm, 120 s, lineitem of SF 1 in a throwaway cluster;
# --here uses the server PGHOST/PGPORT name, where scanbench and the table
# are already installed.  The figures need the machine to themselves: hold
# the lab lock (tools/lab.sh lock-dir) around it on a shared machine.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

cache=warm
seconds=120
scale=1
here=0
table=lineitem
sb_bench_args "bench/call-length.sh [--cache warm|cold] [--seconds S] [--table NAME] [--scale SF] [--here]" \
	"cache seconds" "$@"
sb_bench_table 54333
q() { sb_bench_psql warning -F'|' "$@"; }

cols="pairs, coverage_pct, scan_pct, scan_pct_lo, scan_pct_hi, round(scan_mb_s), array_to_string(verdict, ',')"
echo "$table: $(q -c "SELECT pg_size_pretty(pg_relation_size('$table'))"), $cache, shared_buffers $(q -c "SHOW shared_buffers")"
printf '%-6s %6s %9s %9s %-15s %9s %s\n' call pairs coverage scan_pct interval scan_mb_s verdict
fifths=()
checks=()
for i in 1 2 3; do
	IFS='|' read -r n cov pct lo hi mbs verdict <<<"$(q -c "SELECT $cols FROM scan_efficiency('$table', '$cache')")"
	printf '%-6s %6s %8s%% %9s %-15s %9s %s\n' short "$n" "$cov" "$pct" "[$lo, $hi]" "$mbs" "$verdict"
	long=$(q <<SQL
SELECT $cols FROM scan_efficiency('$table', '$cache', target_pct => 0.1, max_seconds => $((seconds / 3)));
SELECT ntile, min(pair), round((100 * percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio))::numeric, 1),
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_mb_s)), sum(b_faults),
       round(avg(b_buffers_pct)::numeric, 1)
FROM (SELECT *, ntile(5) OVER (ORDER BY pair) FROM scan_pairs()) p GROUP BY ntile HAVING ntile IN (1, 5) ORDER BY ntile;
SQL
)
	IFS='|' read -r ln lcov lpct llo lhi lmbs lverdict <<<"$(head -n 1 <<<"$long")"
	printf '%-6s %6s %8s%% %9s %-15s %9s %s\n' long "$ln" "$lcov" "$lpct" "[$llo, $lhi]" "$lmbs" "$lverdict"
	fifths+=("$(tail -n +2 <<<"$long" | awk -F'|' -v r="$i" '{ printf "  round %s, %s fifth: from pair %s, scan_pct %s, %s MB/s, %s faults, %s %% of a stretch in shared_buffers\n", r, $1 == 1 ? "first" : "last", $2, $3, $4, $5, $6 }')")
	checks+=("$pct|$lo|$hi|$lpct|$llo|$lhi")
done
ratios=()
for i in 1 2 3 4 5; do
	scan="SELECT scan_mb_s FROM scan_rate('$table', '$cache')"
	read="SELECT read_mb_s FROM raw_read('$table', '$cache')"
	if [ $((i % 2)) -eq 1 ]; then s=$(q -c "$scan"); r=$(q -c "$read"); else r=$(q -c "$read"); s=$(q -c "$scan"); fi
	ratios+=("$(awk -v s="$s" -v r="$r" 'BEGIN { printf "%.1f", 100 * s / r }')")
done
whole=$(printf '%s\n' "${ratios[@]}" | sb_median)
printf '%-6s %6s %9s %9s %-15s\n' whole 5 100% "$whole" "(${ratios[*]})"
echo "the long calls' pairs, their first and last fifth in the order taken:"
printf '%s\n' "${fifths[@]}"

ok() { if [ "$1" = 1 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
for c in "${checks[@]}"; do
	IFS='|' read -r pct lo hi lpct llo lhi <<<"$c"
	ok "$(awk -v a="$pct" -v b="$lpct" 'BEGIN { d = (a - b) / b; print (d <= 0.05 && d >= -0.05) }')" \
		"short $pct within 5 % of long $lpct"
	ok "$(awk -v m="$lpct" -v l="$lo" -v h="$hi" 'BEGIN { print (l != "" && m >= l && m <= h) }')" \
		"long $lpct inside the short call's interval [$lo, $hi]"
	ok "$(awk -v m="$pct" -v l="$llo" -v h="$lhi" 'BEGIN { print (m >= l && m <= h) }')" \
		"short $pct inside the long call's interval [$llo, $lhi]"
	ok "$(awk -v a="$pct" -v b="$whole" 'BEGIN { d = (a - b) / b; print (d <= 0.1 && d >= -0.1) }')" \
		"short $pct within 10 % of the whole passes' $whole"
	ok "$(awk -v a="$lpct" -v b="$whole" 'BEGIN { d = (a - b) / b; print (d <= 0.1 && d >= -0.1) }')" \
		"long $lpct within 10 % of the whole passes' $whole"
done
