#!/usr/bin/env bash
# page_costs against known answers, and on this machine's own disk beside
# fio.  A throwaway cluster gets a copy of lineitem, out of both caches
# before each call; each cell prints the page times, the ratio and the
# recommended random_page_cost, beside the answer where there is one:
#
#   cgroup B MiB/s, N requests/s   the cluster's reads of its disk under a
#            control group's byte limit B and request limit N: a
#            sequential page takes 8192 / B (the read-ahead's requests are
#            a few MB, far under N a second), a random page read alone
#            1 / N (8 kB, far under B); the ratio is B / (8192 N) and,
#            with nothing cached, so is random_page_cost
#   own disk   no limit: no answer, but fio's on the same file, cold:
#            --rw=randread --bs=8k --iodepth=1 (read-ahead off, as
#            page_costs' random pages) for the random page, and
#            --rw=read --bs=8k (buffered, the kernel's read-ahead, as a
#            sequential scan until 16) for the sequential one
#
# Each row is followed by the random reads at depth: the pages a second
# page_costs got at each depth and the effective_io_concurrency it
# recommends, beside the answer (under a request limit N, N at every
# depth and a depth of 1) or, on the own disk, fio's --rw=randread
# --bs=8k with as many threads (--numjobs, one read each in flight, as
# page_costs reads), cold, a quarter of the file a depth.
#
# A page time more than 10 % off its answer, or a ratio more than 15 %, is
# flagged (!).  Each cell runs --runs times (default 2), so that the
# spread shows.
#
#   bench/page-costs.sh [--scale SF] [--port PORT] [--runs N] [--only cgroup|own]
#
# Root and control groups; otherwise it says why and exits 0.  SF 1 by
# default (lineitem about 900 MB: two rounds a pass at 40 MiB/s); about
# fifteen minutes.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/lab.sh"

scale=1
port=56310
runs=2
only=
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--only) only=$2; shift 2 ;;
		*) sb_die "usage: bench/page-costs.sh [--scale SF] [--port PORT] [--runs N] [--only cgroup|own]" ;;
	esac
done
sb_bench_record

[ "$(id -u)" = 0 ] || { echo "bench/page-costs.sh: skipped: run as root"; exit 0; }
sb_lab_check || { echo "bench/page-costs.sh: skipped: $SB_LAB_WHY"; exit 0; }
command -v fio >/dev/null ||
	{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q fio >/dev/null; } ||
	sb_die "fio is needed: apt-get install fio"
sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"

group=scanbench-pagecost-$$
trap 'sb_cleanup' EXIT
trap 'exit 1' INT TERM
sb_on_exit "sb_lab_remove '$group'"
sb_lab_create "$group" || sb_die "could not make the group $group"
sb_bench_lineitem "$scale" lineitem "$port"
data=$PGHOST/data
pgbin=$(sb_pgbin)
q() { PGOPTIONS="-c client_min_messages=error" "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
q "CHECKPOINT" >/dev/null
file=$data/$(q "SELECT pg_relation_filepath('lineitem')")

# Out of both caches: a restart empties shared_buffers, then the page
# cache drops the files' pages (written back first); the new postmaster
# goes into the group.
cold()
{
	sb_restart_cluster "$PGHOST" || sb_die "could not restart the cluster"
	sb_evict "$file"
	sb_lab_move "$group" "$data" || sb_die "could not move the cluster into $group"
}

echo "bench/page-costs.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(sb_pgversion), $(nproc) CPUs, $(uname -r), cgroup v$SB_LAB_V"
echo "lineitem: $(q "SELECT pg_relation_size('lineitem')") bytes; read-ahead $(q "SELECT read_ahead_kb FROM storage_info('lineitem') WHERE level = 1" 2>/dev/null) kB"
echo
echo "Microseconds a page, known answers in [brackets]; ! flags a page time more than 10 % off, a ratio more than 15 %."
hdr='%-32s | %-18s | %-20s | %-16s | %-22s | %-12s | %s\n'
printf "$hdr" cell "seq_page_us" "random_page_us" "ratio" "random_page_cost" verdict flags

# off FIGURE KNOWN PCT: " !" when more than PCT % off
off() { awk -v f="$1" -v k="$2" -v p="$3" 'BEGIN { if (f == "" || k <= 0 || (f - k) / k * 100 > p || (k - f) / k * 100 > p) print " !" }'; }

# The page times, then (after a tab) the depths: "depth:rate ..." and the
# recommended depth with its range.  The page times get 60 % of
# max_seconds, the depths the rest.
measure()
{
	q "SELECT seq_page_us, random_page_us, ratio, ratio_low, ratio_high,
		coalesce(recommended_random_page_cost::text, '-'), verdict::text, rounds
		|| E'\t' || coalesce((SELECT string_agg(d || ':' || round(r::numeric), ' ')
							  FROM unnest(depths, depth_pages_s) AS u(d, r)), '-')
		|| E'\t' || coalesce(recommended_effective_io_concurrency::text, '-')
		|| ' (' || coalesce(recommended_eic_low::text, '-') || '-'
		|| coalesce(recommended_eic_high::text, '-') || ', ' || sweeps || ' sweeps)'
		FROM page_costs('lineitem', max_seconds => 250)"
}

# depth_line DEPTHS EIC KNOWN: the depths' rates, each beside KNOWN (a
# rate, or "fio" for fio's at that depth), flagged more than 10 % off
depth_line()
{
	local depths=$1 eic=$2 known=$3 out="" d r k
	for pair in $depths; do
		d=${pair%%:*} r=${pair#*:}
		if [ "$known" = fio ]; then
			k=$(fio_depth "$d")
			out+=" $d: $r (fio $k)"
		else
			out+=" $d: $r [$known]$(off "$r" "$known" 10)"
		fi
	done
	printf '%-32s | depths%s; effective_io_concurrency %s\n' "" "$out" "$eic"
}

# cgroup_cell MIB IOPS
cgroup_cell()
{
	local mib=$1 iops=$2 row seq rnd ratio lo hi rec verdict rounds kseq krnd kratio flags
	kseq=$(awk -v b="$mib" 'BEGIN { printf "%.1f", 8192 / (b * 1048576) * 1e6 }')
	krnd=$(awk -v n="$iops" 'BEGIN { printf "%.1f", 1e6 / n }')
	kratio=$(awk -v s="$kseq" -v r="$krnd" 'BEGIN { printf "%.2f", r / s }')
	for _ in $(seq "$runs"); do
		cold
		sb_lab_limit "$group" "$data" "$mib" 0 "$iops" || sb_die "could not set the limits"
		row=$(measure)
		sb_lab_limit "$group" "$data" 0 0 0
		IFS=$'\t' read -r times depths eic <<<"$row"
		IFS='|' read -r seq rnd ratio lo hi rec verdict rounds <<<"$times"
		flags=$(off "$seq" "$kseq" 10)$(off "$rnd" "$krnd" 10)$(off "$ratio" "$kratio" 15)
		[ "${eic%% *}" = 1 ] || flags+=" ! depth"
		printf "$hdr" "cgroup $mib MiB/s, $iops req/s" "$seq [$kseq]" "$rnd [$krnd]" \
			"$ratio [$kratio]" "$rec ($lo-$hi)" "$verdict" "${flags:-ok} ($rounds rounds)"
		depth_line "$depths" "$eic [1]" "$iops"
	done
}

# fio_us RW: wall-clock microseconds per 8 kB read of the file, cold, one
# at a time (1 / fio's IOPS), for at most 5 s
fio_us()
{
	local rw=$1 extra=()
	[ "$rw" = randread ] && extra=(--fadvise_hint=random)
	sb_evict "$file"
	fio --name=pc --filename="$file" --readonly --rw="$rw" --bs=8k --iodepth=1 \
		--ioengine=psync --invalidate=1 --runtime=5 \
		--size="$(stat -c %s "$file")" "${extra[@]}" --output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '$8 > 0 { printf "%.1f", 1e6 / $8 }'	# field 8: read IOPS
}

# fio_depth K: 8 kB random reads a second of the file, cold, K threads
# each with one read in flight in a part of the file of its own, a
# quarter of it between them, no block twice (fio's random map; a
# time-based run would go round the file again and read what the page
# cache now holds), for at most 5 s
fio_depth()
{
	local size
	size=$(stat -c %s "$file")
	sb_evict "$file"
	fio --name=pd --filename="$file" --readonly --rw=randread --bs=8k --iodepth=1 \
		--ioengine=psync --thread --numjobs="$1" --group_reporting --invalidate=1 \
		--fadvise_hint=random --runtime=5 --size=$((size / $1 / 8192 * 8192)) \
		--offset_increment=$((size / $1 / 8192 * 8192)) \
		--io_size=$((size / 4 / $1 / 8192 * 8192)) --output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '$8 > 0 { printf "%.0f", $8 }'
}

own_disk()
{
	local row seq rnd ratio lo hi rec verdict rounds fseq frnd
	for _ in $(seq "$runs"); do
		cold
		row=$(measure)
		IFS=$'\t' read -r times depths eic <<<"$row"
		IFS='|' read -r seq rnd ratio lo hi rec verdict rounds <<<"$times"
		fseq=$(fio_us read)
		frnd=$(fio_us randread)
		printf "$hdr" "own disk (fio)" "$seq (fio $fseq)" "$rnd (fio $frnd)" \
			"$ratio (fio $(awk -v s="$fseq" -v r="$frnd" 'BEGIN { if (s > 0) printf "%.1f", r / s }'))" \
			"$rec ($lo-$hi)" "$verdict" "($rounds rounds)"
		depth_line "$depths" "$eic" fio
	done
}

if [ "$only" != own ]; then
	cgroup_cell 40 100
	cgroup_cell 20 400
fi
[ "$only" = cgroup ] || own_disk
