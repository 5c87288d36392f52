#!/usr/bin/env bash
# Known answers on storage as most servers have it: a latency per request,
# a number of requests served at once, and caps of requests and bytes a
# second.  A throwaway cluster gets a tablespace on the lab disk
# (tools/lab-disk, a FUSE layer of those four numbers) and a copy of
# lineitem in it; each cell sets the disk and prints, beside the answer
# its numbers give:
#
#   device   scan_efficiency's device_mb_s: O_DIRECT reads of 1 MB with
#            device_depth (d) in flight get min(d, served) MB per latency,
#            and no more than iops MB or mb_s
#   rand1    random_read at depth 1: 1 / latency reads a second, at most
#            iops
#   rand16   random_read at depth 16: min(16, served) / latency, at most
#            iops; read only where that is at most 3000 a second, what
#            the layer itself serves with room to spare
#   verdict  the marks a cell must have and must not have: depth_limited
#            where the device serves more at depth than one at a time and
#            the scan keeps fewer reads in flight, never
#            storage_not_limiting nor host_cache on this disk (no cache
#            below it: the layer's own reads are of files evicted with
#            everything else)
#
# and one cell on the machine's own disk under a control group's
# read_iops limit (tools/lab.sh limit), where io_limited must name it and
# random_read must get the limit: 100 a second, which this VM's disk
# beats at depth 1 even when the host's cache does not hold the blocks
# (at 400 it read 235 to 401 a second one at a time, from minute to
# minute).  A figure more than 10 % off its answer,
# or a verdict without a mark it must have or with one it must not, is
# flagged (!).
#
#   bench/truth-depth.sh [--scale SF] [--port PORT] [--io-method METHOD]
#                        [--only TEXT]
#
# --only TEXT: only the cells whose name holds TEXT ("own disk", "2 ms").
# --io-method (18 and later): the server's io_method, worker (with 16 I/O
# workers, as many as effective_io_concurrency) or io_uring.
#
# Root, FUSE and cgroups; otherwise it says why and exits 0.  SF 0.1 by
# default (about 100 MB); a few minutes.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/lab.sh"

scale=0.1
port=56300
iomethod=
only=
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		--io-method) iomethod=$2; shift 2 ;;
		--only) only=$2; shift 2 ;;
		*) sb_die "usage: bench/truth-depth.sh [--scale SF] [--port PORT] [--io-method METHOD] [--only TEXT]" ;;
	esac
done
sb_bench_record

[ "$(id -u)" = 0 ] || { echo "bench/truth-depth.sh: skipped: run as root"; exit 0; }
sb_lab_check || { echo "bench/truth-depth.sh: skipped: $SB_LAB_WHY"; exit 0; }
sb_lab_disk_check || { echo "bench/truth-depth.sh: skipped: no lab disk here"; exit 0; }
sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"

group=scanbench-depth-$$
trap 'sb_cleanup' EXIT
trap 'exit 1' INT TERM
sb_on_exit "sb_lab_remove '$group'"
sb_lab_create "$group" || sb_die "could not make the group $group"
sb_bench_lineitem "$scale" lineitem "$port"
data=$PGHOST/data
# No autovacuum: its reads of the new tables would land inside a cell's
# measurement, and under a request limit they share the cell's budget
# (or bring pages into the page cache that a cold read then finds).
settings=("autovacuum = off")
[ -n "$iomethod" ] && settings+=("io_method = '$iomethod'" "io_workers = 16")
sb_restart_cluster "$PGHOST" "${settings[@]}" || sb_die "could not restart with ${settings[*]}"
disk=$(mktemp -d /tmp/scanbench-depth-disk.XXXXXX)
mkdir -p "$disk/backing" "$disk/mnt"
sb_on_exit "rm -rf '$disk'"
sb_lab_disk_mount "$disk/backing" "$disk/mnt" || sb_die "could not mount the lab disk"
sb_on_exit "sb_lab_disk_umount '$disk/mnt'"
chown -R postgres: "$disk"
pgbin=$(sb_pgbin)
q() { PGOPTIONS="-c client_min_messages=error" "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
q "CREATE TABLESPACE lab LOCATION '$disk/mnt'" >/dev/null
q "CREATE UNLOGGED TABLE lineitem_lab TABLESPACE lab AS SELECT * FROM lineitem" >/dev/null
q "VACUUM (FREEZE) lineitem_lab" >/dev/null
q "CHECKPOINT" >/dev/null
sb_lab_move "$group" "$data" || sb_die "could not move the cluster into $group"

echo "bench/truth-depth.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(sb_pgversion), $(nproc) CPUs, $(uname -r), cgroup v$SB_LAB_V"
iom=$(q "SELECT current_setting('io_method', true)")
echo "lineitem_lab on the lab disk: $(q "SELECT pg_relation_size('lineitem_lab')") bytes${iom:+; io_method $iom}"
echo
echo "Known answers in [brackets], MB/s and reads/s; ! flags a figure more than 10 % off, or a verdict without a mark it needs or with one it must not have."
hdr='%-34s | %-14s | %-16s | %-16s | %-16s | %-7s | %-30s | %s\n'
printf "$hdr" cell "read / scan" "device (depth)" rand1 rand16 "dev_pct" verdict flags

# off FIGURE KNOWN: " !" when more than 10 % off
off() { awk -v f="$1" -v k="$2" 'BEGIN { if (f == "" || k <= 0 || (f - k) / k > 0.10 || (k - f) / k > 0.10) print " !" }'; }
mb() { awk -v v="$1" 'BEGIN { printf "%.0f", v * 1048576 / 1e6 }'; }

# cell NAME REL LATENCY_US SERVED IOPS MB_S MUST MUSTNOT [CGROUP_IOPS]
cell()
{
	local name=$1 rel=$2 lat=$3 served=$4 iops=$5 mbs=$6 must=$7 mustnot=$8 cg_iops=${9:-0}
	local row read scan dev depth pct verdict r1 r16 kdev k1 k16 flags=""
	[[ $name == *"$only"* ]] || return 0
	if [ "$rel" = lineitem_lab ]; then
		sb_lab_disk_set "$disk/mnt" "latency_us=$lat depth=$served iops=$iops mb_s=$mbs"
	fi
	sb_lab_limit "$group" "$data" 0 0 "$cg_iops" || sb_die "could not set the limits"
	row=$(q "SELECT read_mb_s, scan_mb_s, device_mb_s, device_depth, device_pct, verdict::text
		FROM scan_efficiency('$rel', max_seconds => 30)")
	# '|'-separated: the device's columns are empty under a read limit
	IFS='|' read -r read scan dev depth pct verdict <<<"$row"
	r1=$(q "SELECT iops FROM random_read('$rel', 'cold', 400, 8192, 1)")
	if [ "$rel" = lineitem_lab ]; then
		# min(d, served) MB per latency, capped by iops MB and mb_s
		kdev=$(awk -v d="$depth" -v s="$served" -v l="$lat" -v i="$iops" -v m="$mbs" 'BEGIN {
			k = (s > 0 && s < d ? s : d) * 1048576 / (l / 1e6) / 1e6;
			if (i > 0 && i * 1.048576 < k) k = i * 1.048576;
			if (m > 0 && m < k) k = m;
			printf "%.0f", k }')
		k1=$(awk -v l="$lat" -v i="$iops" 'BEGIN { k = 1e6 / l; if (i > 0 && i < k) k = i; printf "%.0f", k }')
		k16=$(awk -v s="$served" -v l="$lat" -v i="$iops" 'BEGIN { d = (s > 0 && s < 16 ? s : 16); k = d * 1e6 / l; if (i > 0 && i < k) k = i; printf "%.0f", k }')
		flags+=$(off "$dev" "$kdev")
	else
		kdev="-"
		k1=$cg_iops
		k16=$cg_iops
	fi
	# The layer serves a few thousand requests a second of its own (two
	# CPUs, FUSE): a known answer above that would measure the layer.
	if [ "$k16" -le 3000 ]; then
		r16=$(q "SELECT iops FROM random_read('$rel', 'cold', 2000, 8192, 16)")
		flags+=$(off "$r16" "$k16")
	else
		r16="-"
		k16="above the layer's"
	fi
	flags+=$(off "$r1" "$k1")
	for m in $must; do [[ "$verdict" == *"$m"* ]] || flags+=" !$m missing"; done
	for m in $mustnot; do [[ "$verdict" == *"$m"* ]] && flags+=" !$m"; done
	printf "$hdr" "$name" "$read / $scan" "$dev [$kdev] ($depth)" "$r1 [$k1]" "$r16 [$k16]" \
		"$pct" "$verdict" "${flags:-ok}"
}

# Latency {0.5, 2 ms} x served {1, 32} x IOPS {none, 1000}: the cells that
# exercise each rule.  A byte cap keeps the deep read's answer below what
# the layer itself passes (about 2-3 GB/s here).
cell "2 ms, 32 served, 800 MB/s cap" lineitem_lab 2000 32 0 800 depth_limited "storage_not_limiting host_cache"
cell "0.5 ms, 32 served, 800 MB/s cap" lineitem_lab 500 32 0 800 "" "storage_not_limiting host_cache"
cell "2 ms, 1 served" lineitem_lab 2000 1 0 0 "" "depth_limited storage_not_limiting host_cache"
cell "0.5 ms, 32 served, 1000 IOPS" lineitem_lab 500 32 1000 0 "" "storage_not_limiting host_cache"
cell "2 ms, 32 served, 1000 IOPS" lineitem_lab 2000 32 1000 0 "" "storage_not_limiting host_cache"
cell "own disk, cgroup 100 requests/s" lineitem 0 0 0 0 io_limited "storage_not_limiting host_cache" 100
