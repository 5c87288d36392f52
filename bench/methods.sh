#!/usr/bin/env bash
# One answer from both methods: on one lineitem, cold, N default calls
# (pairs of stretches) and N calls with method => 'whole' (alternated
# passes over the whole relation), the two alternating, the side going
# first alternating too; then each method's median scan_pct and
# device_pct, the ratio of the two medians, and the verdicts.  The two
# methods measure the same quantity and must agree within 10 % with the
# same verdict; where they cannot, the verdict must say why.
#
#   bench/methods.sh [--scale SF] [--rounds N] [--runs N] [--table NAME] [--here]
#
# Root, default SF 1, 5 rounds, whole calls of 6 runs; --here uses the
# server PGHOST/PGPORT name, where scanbench and the table are installed.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=1
rounds=5
runs=6
here=0
table=lineitem
sb_bench_args "bench/methods.sh [--scale SF] [--rounds N] [--runs N] [--table NAME] [--here]" \
	"rounds runs" "$@"
sb_bench_table 54342
q() { sb_bench_psql error -c "$1"; }

cols="scan_pct, device_pct, read_mb_s, scan_mb_s, device_mb_s, pairs, verdict::text"
pairs="SELECT $cols FROM scan_efficiency('$table')"
whole="SELECT $cols FROM scan_efficiency('$table', method => 'whole', runs => $runs)"

echo "bench/methods.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(sb_pgversion), $(nproc) CPUs, $(uname -r)"
echo "$table: $(q "SELECT pg_size_pretty(pg_relation_size('$table'))"), cold; $rounds rounds, the method going first alternating"
printf '%-6s %-6s | %8s %8s | %8s %8s %8s | %5s | %s\n' round method scan_pct dev_pct read scan device n verdict
p_pct="" w_pct="" p_dev="" w_dev="" p_v="" w_v=""
show() { IFS='|' read -r a b c d e f g <<<"$3"; printf '%-6s %-6s | %8s %8s | %8s %8s %8s | %5s | %s\n' "$1" "$2" "$a" "$b" "$c" "$d" "$e" "$f" "$g"; }
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		p=$(q "$pairs"); w=$(q "$whole")
	else
		w=$(q "$whole"); p=$(q "$pairs")
	fi
	show "$i" pairs "$p"
	show "$i" whole "$w"
	p_pct+=" $(cut -d'|' -f1 <<<"$p")"; p_dev+=" $(cut -d'|' -f2 <<<"$p")"; p_v+="$(cut -d'|' -f7 <<<"$p")"$'\n'
	w_pct+=" $(cut -d'|' -f1 <<<"$w")"; w_dev+=" $(cut -d'|' -f2 <<<"$w")"; w_v+="$(cut -d'|' -f7 <<<"$w")"$'\n'
done
mp=$(sb_median <<<"$p_pct"); mw=$(sb_median <<<"$w_pct")
dp=$(sb_median <<<"$p_dev"); dw=$(sb_median <<<"$w_dev")
echo
awk -v a="$mp" -v b="$mw" 'BEGIN { printf "scan_pct: pairs %.1f, whole %.1f: pairs / whole %.3f%s\n", a, b, a / b, (a / b > 1.1 || a / b < 0.9) ? " (more than 10 % apart)" : "" }'
awk -v a="$dp" -v b="$dw" 'BEGIN { if (a > 0 && b > 0) printf "device_pct: pairs %.1f, whole %.1f: pairs / whole %.3f\n", a, b, a / b }'
# The marks besides unstable (an interval's width, not what was measured).
marks() { sed 's/[{}]//g; s/unstable,\?//; s/,$//' | sort | uniq -c | sed 's/^ *//' | paste -sd';' -; }
echo "verdicts: pairs $(marks <<<"${p_v%$'\n'}"), whole $(marks <<<"${w_v%$'\n'}") (count mark-set, unstable left out)"
