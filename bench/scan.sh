#!/usr/bin/env bash
# scanbench's own figures against the tools people use by hand, measured
# side by side and alternately in one run on one lineitem:
#
#   A  raw_read cold 8 kB     vs  dd bs=8k after the same eviction
#   B  raw_read direct 1 MB   vs  fio --direct=1 --bs=1M --rw=read
#   C  scan_rate warm seconds vs  psql \timing of the same count(1)
#
#   bench/scan.sh [--scale SF] [--pairs N]      (root; default SF 1, 5 pairs)
#
# Prints every pair and, per comparison, the medians and their ratio.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=1
pairs=5
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--pairs) pairs=$2; shift 2 ;;
		*) sb_die "usage: bench/scan.sh [--scale SF] [--pairs N]" ;;
	esac
done
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root: dd and fio read the cluster's files directly"

sb_install_packages
sb_build_install
dir=$(mktemp -d /tmp/scanbench-bench.XXXXXX)
sb_on_exit "rm -rf '$dir'"
sb_start_cluster "$dir" 54331
pgbin=$(sb_pgbin)
q() { "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }

"$pgbin/scanbench-load" --scale "$scale" --drop --quiet || sb_die "scanbench-load failed"
q "CREATE EXTENSION IF NOT EXISTS scanbench" >/dev/null
mapfile -t files < <(q "SELECT '$dir/data/' || path FROM raw_read_segments('lineitem', 'asis', 8192) ORDER BY segno")
bytes=$(q "SELECT pg_relation_size('lineitem')")
echo "lineitem: SF $scale, $bytes bytes in ${#files[@]} file(s); $pairs pairs each, alternating"


# dd's side of the cold comparison: the same eviction raw_read does
# (write back, then POSIX_FADV_DONTNEED, which dd's iflag=nocache issues).
dd_cold()
{
	local f t0 t1
	sb_evict "${files[0]}"
	t0=$(sb_now)
	for f in "${files[@]}"; do dd if="$f" of=/dev/null bs=8k status=none; done
	t1=$(sb_now)
	sb_mb_s "$bytes" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}

fio_direct()
{
	local f total_bytes=0 total_ms=0 out
	for f in "${files[@]}"; do
		out=$(fio --name=scanbench --readonly --rw=read --direct=1 --bs=1M \
			--ioengine=psync --filename="$f" --output-format=json 2>/dev/null) || sb_die "fio failed"
		read -r b ms < <(python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["read"]; print(j["io_bytes"], j["runtime"])' <<<"$out")
		total_bytes=$((total_bytes + b))
		total_ms=$((total_ms + ms))
	done
	sb_mb_s "$total_bytes" "$(awk -v ms="$total_ms" 'BEGIN { print ms / 1000 }')"
}

psql_timing()
{
	"$pgbin/psql" -X -At -c "SET max_parallel_workers_per_gather = 0" \
		-c "SET synchronize_seqscans = off" \
		-c "SELECT count(1) FROM lineitem" -c '\timing on' \
		-c "SELECT count(1) FROM lineitem" |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ printf "%.4f", $1 / 1000 }'
}

# One untimed round first: the first cold reads after a load fault the
# guest's memory back in and would count against whichever side went first.
q "SELECT read_mb_s FROM raw_read('lineitem', 'cold', 8192)" >/dev/null
dd_cold >/dev/null
psql_timing >/dev/null

A_sb="" A_dd="" B_sb="" B_fio="" C_sb="" C_psql=""
for i in $(seq 1 "$pairs"); do
	# Which side goes first alternates from pair to pair.
	if [ $((i % 2)) -eq 1 ]; then
		a1=$(q "SELECT read_mb_s FROM raw_read('lineitem', 'cold', 8192)"); a2=$(dd_cold)
		b1=$(q "SELECT read_mb_s FROM raw_read('lineitem', 'direct', 1048576)"); b2=$(fio_direct)
		c1=$(q "SELECT scan_s FROM scan_rate('lineitem', 'warm')"); c2=$(psql_timing)
	else
		a2=$(dd_cold); a1=$(q "SELECT read_mb_s FROM raw_read('lineitem', 'cold', 8192)")
		b2=$(fio_direct); b1=$(q "SELECT read_mb_s FROM raw_read('lineitem', 'direct', 1048576)")
		c2=$(psql_timing); c1=$(q "SELECT scan_s FROM scan_rate('lineitem', 'warm')")
	fi
	printf 'pair %d: raw_read cold %s vs dd %s MB/s | direct %s vs fio %s MB/s | scan_rate %s vs psql %s s\n' \
		"$i" "$a1" "$a2" "$b1" "$b2" "$c1" "$c2"
	A_sb+=" $a1" A_dd+=" $a2" B_sb+=" $b1" B_fio+=" $b2" C_sb+=" $c1" C_psql+=" $c2"
done

echo
printf '%-46s %10s %10s\n' "median of $pairs" scanbench reference
sb_pair_summary 'raw_read cold 8 kB vs dd bs=8k (MB/s)' "$A_sb" "$A_dd" 'want >= 0.95'
sb_pair_summary 'raw_read direct 1 MB vs fio direct 1M (MB/s)' "$B_sb" "$B_fio" 'want >= 0.95'
sb_pair_summary 'scan_rate warm vs psql \timing (s)' "$C_sb" "$C_psql" 'want 0.97-1.03'
