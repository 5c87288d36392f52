#!/usr/bin/env bash
# Does a stretch cost the same per byte as the whole relation?  scan_efficiency
# measures 8 MB stretches and stands for the whole relation only if it does.
# Warm, on one lineitem, alternately, in one run:
#
#   whole   method => 'whole': one pass over the relation, each side
#   pairs   method => 'pairs', target_pct => 0: every stretch, each side
#
# and, for each side (executor scan, raw read), the seconds of the pairs
# summed over every stretch against the seconds of the whole pass: the same
# bytes, so the ratio is the cost per byte of a stretch against the whole.
#
#   bench/stretch.sh [--scale SF] [--rounds N] [--table NAME] [--here]
#
# Root, default SF 1 and 7 rounds; --here uses the server PGHOST/PGPORT
# name, where scanbench and the table (--table, default lineitem) are
# already installed, instead of a throwaway cluster.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=1
rounds=7
here=0
table=lineitem
sb_bench_args "bench/stretch.sh [--scale SF] [--rounds N] [--table NAME] [--here]" "rounds" "$@"
sb_bench_table 54332
q() { sb_bench_psql warning -c "$1"; }


whole="SELECT scan_s, read_s FROM scan_efficiency('$table', 'warm', method => 'whole')"
pairs="SELECT scan_s, read_s, pairs FROM scan_efficiency('$table', 'warm', target_pct => 0, max_seconds => 3600)"

echo "$table: $(q "SELECT pg_size_pretty(pg_relation_size('$table'))"), warm; $rounds rounds, the side going first alternating"
q "$whole" >/dev/null	# untimed: both start from the same warm cache
scan_ratios="" read_ratios=""
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		w=$(q "$whole"); p=$(q "$pairs")
	else
		p=$(q "$pairs"); w=$(q "$whole")
	fi
	IFS='|' read -r ws wr <<<"$w"
	IFS='|' read -r ps pr np <<<"$p"
	sr=$(awk -v a="$ps" -v b="$ws" 'BEGIN { printf "%.3f", a / b }')
	rr=$(awk -v a="$pr" -v b="$wr" 'BEGIN { printf "%.3f", a / b }')
	printf 'round %d: scan %s s whole, %s s in %s stretches (%s) | raw read %s s whole, %s s in stretches (%s)\n' \
		"$i" "$ws" "$ps" "$np" "$sr" "$wr" "$pr" "$rr"
	scan_ratios+=" $sr" read_ratios+=" $rr"
done
echo
printf 'executor scan, stretches / whole, seconds per byte: median %s (want 0.97-1.03)\n' \
	"$(tr ' ' '\n' <<<"$scan_ratios" | grep . | sb_median)"
printf 'raw read,      stretches / whole, seconds per byte: median %s\n' \
	"$(tr ' ' '\n' <<<"$read_ratios" | grep . | sb_median)"
