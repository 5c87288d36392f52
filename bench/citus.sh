#!/usr/bin/env bash
# scanbench on a three-node Citus cluster (a coordinator and two workers on
# this machine): what the cluster gets against what its nodes get alone,
# measured side by side and alternately in one run, cold.
#
#   A  the nodes' raw read at the same time   vs  the sum of each node's
#      (scan_efficiency's read_mb_s)               raw read alone
#   B  count(1) through the coordinator        vs  the sum of each worker's
#      (scan_efficiency's scan_mb_s)               local count(1) alone
#   C  the cluster figure (scan_pct)           vs  each node's figure alone
#                                                  (its count(1) / its read)
#
#   bench/citus.sh [--pg 16|17|18] [--scale SF] [--pairs N] [--shard-count N]
#                                          (root; default 18, SF 1, 5 pairs, 8 shards)
#
# "Alone" is one node measured with nothing else running: its placements
# one after another, through scan_efficiency_node() on that node, which is
# the step the coordinator runs on every node at once.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/citus-common.sh"
trap 'sb_cleanup' EXIT

SB_PGMAJOR=18
scale=1
pairs=5
shards=8
while [ $# -gt 0 ]; do
	case "$1" in
	--pg) SB_PGMAJOR=$2; shift 2 ;;
	--scale) scale=$2; shift 2 ;;
	--pairs) pairs=$2; shift 2 ;;
	--shard-count) shards=$2; shift 2 ;;
	*) sb_die "usage: bench/citus.sh [--pg 16|17|18] [--scale SF] [--pairs N] [--shard-count N]" ;;
	esac
done
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root: it installs Citus and scanbench into the server's directories"

sb_install_packages
sb_use_pg || sb_die "PostgreSQL $SB_PGMAJOR is not available on this machine"
pgbin=$(sb_pgbin)
sb_build_install
"$SB_TOP/tools/citus-build.sh" "$pgbin/pg_config" >/dev/null ||
	sb_die "Citus is not available for PostgreSQL $SB_PGMAJOR"
dir=$(mktemp -d /tmp/scanbench-bench-citus.XXXXXX)
chmod 755 "$dir"
sb_on_exit "rm -rf '$dir'"
port=$(sb_free_port 54340)
sb_citus_start "$pgbin" "$dir/cluster" "$port"
q() { sb_as_pg "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -h localhost -p "${2:-$port}" -U postgres -d postgres -c "$1"; }
q "CREATE EXTENSION scanbench" >/dev/null || sb_die "CREATE EXTENSION scanbench failed"

sb_as_pg "$pgbin/scanbench-load" -h localhost -p "$port" -U postgres -d postgres --quiet \
	--scale "$scale" --distribute l_orderkey --shard-count "$shards" -j 2 ||
	sb_die "scanbench-load failed"
workers=($((port + 1)) $((port + 2)))
# Each worker's placements, as scan_efficiency_node()'s last two arguments.
declare -A args
for w in "${workers[@]}"; do
	args[$w]=$(q "SELECT quote_literal(array_agg(s.shardid ORDER BY s.shardid)::text) || ', ' ||
		quote_literal(array_agg(shard_name(s.logicalrelid, s.shardid) ORDER BY s.shardid)::text)
		FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n USING (groupid)
		WHERE s.logicalrelid = 'lineitem'::regclass AND n.nodeport = $w")
done
bytes=$(q "SELECT citus_relation_size('lineitem')")
echo "lineitem: SF $scale, $bytes bytes in $shards shards on 2 workers; $pairs pairs, alternating, cold"

# One worker alone: MB/s of a step over its placements, one after another.
alone()
{
	local w=$1 step=$2
	q "SELECT sum((e->>'bytes')::bigint) / max((e->>'node_s')::float8) / 1e6
	   FROM jsonb_array_elements(scan_efficiency_node('$step', 'cold', 8192, ${args[$w]})) e" "$w"
}

cluster_read=() cluster_scan=() cluster_pct=()
alone_read=() alone_scan=()
declare -A node_pct
measure_cluster()
{
	local row
	row=$(q "SELECT read_mb_s || ' ' || scan_mb_s || ' ' || scan_pct
	         FROM scan_efficiency('lineitem', 'cold', runs => 1, method => 'whole')" 2>/dev/null)
	set -- $row
	cluster_read+=("$1") cluster_scan+=("$2") cluster_pct+=("$3")
	printf '  cluster: read %s MB/s, count(1) %s MB/s, scan_pct %s\n' "$1" "$2" "$3"
}
measure_alone()
{
	local w r s sum_r=0 sum_s=0
	for w in "${workers[@]}"; do
		r=$(alone "$w" read)
		s=$(alone "$w" scan)
		sum_r=$(awk -v a="$sum_r" -v b="$r" 'BEGIN { print a + b }')
		sum_s=$(awk -v a="$sum_s" -v b="$s" 'BEGIN { print a + b }')
		node_pct[$w]="${node_pct[$w]:-} $(awk -v r="$r" -v s="$s" 'BEGIN { printf "%.1f", 100 * s / r }')"
		printf '  worker %s alone: read %.1f MB/s, count(1) %.1f MB/s\n' "$w" "$r" "$s"
	done
	alone_read+=("$sum_r") alone_scan+=("$sum_s")
}

for i in $(seq 1 "$pairs"); do
	echo "pair $i"
	if [ $((i % 2)) -eq 1 ]; then
		measure_cluster
		measure_alone
	else
		measure_alone
		measure_cluster
	fi
done

row()
{
	local name=$1 left right
	left=$(echo "$2" | sb_median)
	right=$(echo "$3" | sb_median)
	awk -v n="$name" -v l="$left" -v r="$right" -v w="$4" \
		'BEGIN { printf "%-34s %12.1f %12.1f %8.2f   %s\n", n, l, r, l / r, w }'
}
echo
printf '%-34s %12s %12s %8s   %s\n' "median of $pairs pairs" "cluster" "alone" "ratio" "alone is"
row "raw read, MB/s" "${cluster_read[*]}" "${alone_read[*]}" "the sum of the workers' rates"
row "count(1), MB/s" "${cluster_scan[*]}" "${alone_scan[*]}" "the sum of the workers' local rates"
for w in "${workers[@]}"; do
	row "scan_pct vs worker $w" "${cluster_pct[*]}" "${node_pct[$w]}" "that worker's count(1) / its read"
done
