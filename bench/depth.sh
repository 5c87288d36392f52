#!/usr/bin/env bash
# raw_read and random_read at depth against fio at the same depth and
# request size, on the same file (the table's own segment), O_DIRECT on
# both sides, measured side by side and alternately in one run (the side
# that goes first alternating from pair to pair):
#
#   A  raw_read(t, 'direct', 1048576, 32)       vs  fio --rw=read --bs=1M --iodepth=32
#   B  raw_read(t, 'direct', 1048576, 1)        vs  fio --rw=read --bs=1M --iodepth=1
#   C  random_read(t, 'direct', N, 8192, 16)    vs  fio --rw=randread --bs=8k --iodepth=16
#   D  random_read(t, 'direct', N, 8192, 1)     vs  fio --rw=randread --bs=8k --iodepth=1
#
# fio runs with --direct=1 --ioengine=libaio over the segment's whole
# length (random: N reads, no block twice).  A throwaway cluster holds a
# table of about --size-mb MB on the machine's own disk; with --lab-disk
# it sits in a tablespace on the lab disk (tools/lab-disk) set to
# "latency_us=L depth=P" (--lab-disk "2000 32"), whose numbers give each
# figure a known answer as well.
#
#   bench/depth.sh [--size-mb MB] [--reads N] [--pairs N] [--port PORT]
#                  [--lab-disk "LATENCY_US SERVED"]
#                  (root; default 480 MB, 4000 reads, 5 pairs)
#
# Prints every pair and, per comparison, the medians, the ratio of the
# medians and the median of the pairs' own ratios.  On a VM the host's
# cache serves what it holds, and single runs of either side spread by
# two to four times: the pairs' own ratios are what to read.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/lab.sh"
trap 'sb_cleanup' EXIT
trap 'exit 1' INT TERM

size_mb=480
reads=4000
pairs=5
port=56420
labdisk=
while [ $# -gt 0 ]; do
	case "$1" in
		--size-mb) size_mb=$2; shift 2 ;;
		--reads) reads=$2; shift 2 ;;
		--pairs) pairs=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		--lab-disk) labdisk=$2; shift 2 ;;
		*) sb_die "usage: bench/depth.sh [--size-mb MB] [--reads N] [--pairs N] [--port PORT] [--lab-disk \"LATENCY_US SERVED\"]" ;;
	esac
done
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root: the cluster is made as postgres, and fio reads its files"
sb_install_packages
command -v fio >/dev/null || { apt-get install -y -qq fio >/dev/null 2>&1 || sb_die "fio is not installed and could not be"; }
sb_use_pg || sb_die "PostgreSQL $SB_PGMAJOR is not available"
sb_build_install
dir=$(mktemp -d /tmp/scanbench-depth.XXXXXX)
chmod 755 "$dir"
sb_on_exit "rm -rf '$dir'"
sb_start_cluster "$dir" "$(sb_free_port "$port")" "autovacuum = off"
pgbin=$(sb_pgbin)
q() { "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
# One lab at a time on this machine: another would share its disk.
sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"

space=""
if [ -n "$labdisk" ]; then
	sb_lab_disk_check || sb_die "no lab disk here"
	mkdir -p "$dir/labdisk/backing" "$dir/labdisk/mnt"
	sb_lab_disk_mount "$dir/labdisk/backing" "$dir/labdisk/mnt" || sb_die "could not mount the lab disk"
	sb_on_exit "sb_lab_disk_umount '$dir/labdisk/mnt'"
	chown -R postgres: "$dir/labdisk"
	q "CREATE TABLESPACE lab LOCATION '$dir/labdisk/mnt'" >/dev/null
	space="TABLESPACE lab"
fi
# Rows of about 230 bytes: 35 a page.
rows=$((size_mb * 1048576 / 8192 * 35))
q "CREATE EXTENSION scanbench" >/dev/null
q "CREATE TABLE t (g int, pad text) $space" >/dev/null
q "INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, $rows) g" >/dev/null
q "VACUUM (FREEZE, ANALYZE) t" >/dev/null
q "CHECKPOINT" >/dev/null
file=$(q "SELECT current_setting('data_directory') || '/' || pg_relation_filepath('t')")
[ -f "$file.1" ] && sb_die "the table is over one segment: take a smaller --size-mb"
bytes=$(stat -c %s "$file")
if [ -n "$labdisk" ]; then
	read -r lat served <<<"$labdisk"
	sb_lab_disk_set "$dir/labdisk/mnt" "latency_us=$lat depth=$served iops=0 mb_s=0" || sb_die "could not set the lab disk"
fi

# fio_side RW BS DEPTH: MB/s for reads in order, reads a second at random.
fio_side()
{
	local rw=$1 bs=$2 depth=$3 extra=() out
	[ "$rw" = randread ] && extra=(--number_ios="$reads")
	out=$(fio --name=scanbench --filename="$file" --readonly --rw="$rw" --bs="$bs" \
		--iodepth="$depth" --ioengine=libaio --direct=1 --size="$bytes" \
		"${extra[@]}" --output-format=json 2>/dev/null) || sb_die "fio failed"
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]["read"]
s = j["runtime"] / 1000.0
print("%.1f" % (j["io_bytes"] / s / 1e6) if sys.argv[1] == "read" else "%.0f" % (j["total_ios"] / s))' "$rw" <<<"$out"
}
sb_side()
{
	case $1 in
		read) q "SELECT read_mb_s FROM raw_read('t', 'direct', $2, $3)" ;;
		randread) q "SELECT round(iops) FROM random_read('t', 'direct', $reads, $2, $3)" ;;
	esac
}

# An untimed round first: the files' metadata and fio's start-up.
sb_side read 1048576 32 >/dev/null
fio_side read 1M 32 >/dev/null

cases=("read 1048576 1M 32" "read 1048576 1M 1" "randread 8192 8k 16" "randread 8192 8k 1")
declare -A S R
echo "bench/depth.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(sb_pgversion), $(nproc) CPUs, $(uname -r)"
echo "table t: $bytes bytes in $file${labdisk:+ (lab disk: latency_us $lat, $served served)}"
for ((i = 1; i <= pairs; i++)); do
	line="pair $i:"
	for c in "${cases[@]}"; do
		read -r rw sbs fbs depth <<<"$c"
		if ((i % 2)); then
			s=$(sb_side "$rw" "$sbs" "$depth"); r=$(fio_side "$rw" "$fbs" "$depth")
		else
			r=$(fio_side "$rw" "$fbs" "$depth"); s=$(sb_side "$rw" "$sbs" "$depth")
		fi
		S[$c]+=" $s" R[$c]+=" $r"
		line+=" $rw $fbs x$depth $s vs $r |"
	done
	echo "${line% |}"
done

echo
printf '%-46s %10s %10s\n' '' 'scanbench' 'fio'
sb_pair_summary 'raw_read direct 1 MB, depth 32 (MB/s)' "${S[${cases[0]}]}" "${R[${cases[0]}]}" 'want 0.95 to 1.05' 1
sb_pair_summary 'raw_read direct 1 MB, depth 1 (MB/s)' "${S[${cases[1]}]}" "${R[${cases[1]}]}" 'want 0.95 to 1.05' 1
sb_pair_summary 'random_read direct 8 kB, depth 16 (reads/s)' "${S[${cases[2]}]}" "${R[${cases[2]}]}" 'want 0.95 to 1.05' 0
sb_pair_summary 'random_read direct 8 kB, depth 1 (reads/s)' "${S[${cases[3]}]}" "${R[${cases[3]}]}" 'want 0.95 to 1.05' 0
