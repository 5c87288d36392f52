#!/usr/bin/env bash
# storage_profile against the tools people use by hand, on the same
# filesystem, with the same scratch size, measured side by side and
# alternately in one run:
#
#   A  seq_write          vs  dd if=/dev/zero bs=8k conv=fdatasync
#   B  rewrite (cold)     vs  dd if=F of=F bs=8k conv=notrunc,fdatasync after
#                             the same eviction (each block read, then written
#                             back in place)
#   C  seq_read (cold)    vs  dd bs=8k after the same eviction
#   D  random_read IOPS   vs  fio --rw=randread --bs=8k --iodepth=1 on a cold file
#
# Both sides run the same steps in the same order on a fresh file, so that
# each read finds the storage below in the same state (a host still writing
# back what the guest just wrote slows the reads that follow).
#
#   bench/storage.sh [--size-mb MB] [--random-ops N] [--pairs N]
#                    (root; default 512 MB, 10000 reads, 5 pairs)
#
# Prints every pair and, per comparison, the medians, the ratio of the
# medians and the median of the pairs' own ratios.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

size_mb=512
random_ops=10000
pairs=5
while [ $# -gt 0 ]; do
	case "$1" in
		--size-mb) size_mb=$2; shift 2 ;;
		--random-ops) random_ops=$2; shift 2 ;;
		--pairs) pairs=$2; shift 2 ;;
		*) sb_die "usage: bench/storage.sh [--size-mb MB] [--random-ops N] [--pairs N]" ;;
	esac
done
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root: dd and fio write beside the cluster's files"

sb_install_packages
sb_use_pg || sb_die "could not get PostgreSQL $SB_PGMAJOR"
sb_build_install
dir=$(mktemp -d /tmp/scanbench-bench.XXXXXX)
sb_on_exit "rm -rf '$dir'"
sb_start_cluster "$dir" "$(sb_free_port 54331)"
pgbin=$(sb_pgbin)
q() { "$pgbin/psql" -X -At -F ' ' -v ON_ERROR_STOP=1 -c "$1"; }
q "CREATE EXTENSION IF NOT EXISTS scanbench" >/dev/null

# The reference file sits beside the cluster's pgsql_tmp, on the same
# filesystem, and is as large as storage_profile's scratch file.
bs=8192
bytes=$(( size_mb * 1000000 / bs * bs ))
count=$(( bytes / bs ))
ref="$dir/reference.tmp"
sb_on_exit "rm -f '$ref'"
echo "scratch: $bytes bytes in $bs-byte blocks on $(q "SELECT filesystem || ' (' || name || ')' FROM storage_info_tablespace('pg_default') WHERE level = 0"); $random_ops random reads; $pairs pairs, alternating"


# scanbench's side: one storage_profile call, three of its rows.
sb_side()
{
	q "SELECT string_agg(coalesce(CASE WHEN test = 'random_read' THEN iops ELSE mb_s END::text, 'NULL'), ' ' ORDER BY test)
	   FROM storage_profile(size_mb => $size_mb, block_size => $bs, random_ops => $random_ops)
	   WHERE test IN ('seq_write', 'rewrite', 'seq_read', 'random_read')"
}

# The eviction storage_profile does: write back, then POSIX_FADV_DONTNEED.
evict()
{
	sb_evict "$ref"
}

# The tools' side, on a fresh file each time as storage_profile's is.
ref_side()
{
	local t0 t1 w rw r iops out
	rm -f "$ref"
	t0=$(sb_now)
	dd if=/dev/zero of="$ref" bs=$bs count=$count conv=fdatasync status=none || sb_die "dd failed"
	t1=$(sb_now)
	w=$(sb_mb_s "$bytes" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")

	evict
	t0=$(sb_now)
	dd if="$ref" of="$ref" bs=$bs conv=notrunc,fdatasync status=none || sb_die "dd failed"
	t1=$(sb_now)
	rw=$(sb_mb_s "$bytes" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")

	evict
	t0=$(sb_now)
	dd if="$ref" of=/dev/null bs=$bs status=none
	t1=$(sb_now)
	r=$(sb_mb_s "$bytes" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")

	# fio drops the file from the page cache first (--invalidate=1) and
	# turns read-ahead off for random jobs, as storage_profile does.
	out=$(fio --name=scanbench --filename="$ref" --readonly --rw=randread --bs=$bs \
		--iodepth=1 --ioengine=psync --invalidate=1 --size="$bytes" \
		--number_ios="$random_ops" --output-format=json 2>/dev/null) || sb_die "fio failed"
	iops=$(python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["read"]; print("%.0f" % (j["total_ios"] / (j["runtime"] / 1000.0)) if j["runtime"] else j["iops"])' <<<"$out")
	# in the order of storage_profile's string_agg: random_read, rewrite, seq_read, seq_write
	echo "$iops $rw $r $w"
}

# An untimed round first: file system metadata, the cluster's first temp
# file and fio's start-up are not what is compared.
sb_side >/dev/null
ref_side >/dev/null

A_sb="" A_ref="" B_sb="" B_ref="" C_sb="" C_ref="" D_sb="" D_ref=""
for ((i = 1; i <= pairs; i++)); do
	if ((i % 2)); then
		s=$(sb_side); r=$(ref_side)
	else
		r=$(ref_side); s=$(sb_side)
	fi
	read -r s_rr s_rw s_sr s_sw <<<"$s"
	read -r r_rr r_rw r_sr r_sw <<<"$r"
	printf 'pair %d: seq_write %s vs dd %s MB/s | rewrite %s vs dd %s MB/s | seq_read %s vs dd %s MB/s | random_read %s vs fio %s IOPS\n' \
		"$i" "$s_sw" "$r_sw" "$s_rw" "$r_rw" "$s_sr" "$r_sr" "$s_rr" "$r_rr"
	A_sb+=" $s_sw" A_ref+=" $r_sw" B_sb+=" $s_rw" B_ref+=" $r_rw"
	C_sb+=" $s_sr" C_ref+=" $r_sr" D_sb+=" $s_rr" D_ref+=" $r_rr"
done

echo
printf '%-44s %10s %10s\n' '' 'scanbench' 'tool'
sb_pair_summary 'seq_write vs dd conv=fdatasync (MB/s)' "$A_sb" "$A_ref" 'want >= 0.95' 1
sb_pair_summary 'rewrite vs dd of=same conv=notrunc (MB/s)' "$B_sb" "$B_ref" 'for reference' 1
sb_pair_summary 'seq_read cold vs dd after eviction (MB/s)' "$C_sb" "$C_ref" 'want >= 0.95' 1
sb_pair_summary 'random_read cold vs fio randread qd1 (IOPS)' "$D_sb" "$D_ref" 'want >= 0.95' 1
