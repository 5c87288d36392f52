#!/usr/bin/env bash
# access_paths against known answers, and on this machine's own disk
# beside fio.  A throwaway cluster gets a copy of lineitem with an index on
# l_partkey, whose order is not the heap's (an index scan then fetches a
# heap page a row), out of both caches before each call; each cell prints,
# for the cold index scan and the cold bitmap heap scan, the pages read a
# second and the random reads' rate at the path's depth, beside the
# answer where there is one:
#
#   cgroup N req/s, B MiB/s   the cluster's reads of its disk under a
#            control group's request limit N (no byte limit) or byte
#            limit B (no request limit): every page a cold index path
#            reads is one 8 kB request, so it reads N, or B / 8192, pages
#            a second, and so do the random reads; path_pct is 100
#   own disk   no limit: no answer, but fio's random 8 kB reads of the
#            same file, cold, at the path's depth (one at a time buffered,
#            read-ahead off; deeper, O_DIRECT with libaio)
#
# A page rate more than 10 % off its answer, or a path_pct more than 10 %
# off 100, is flagged (!).  Then index_crossover on the same index:
#
#   cgroup B MiB/s and N req/s   both limits: an index scan fetches a
#            heap page it has not read in 1 / N, and after k of the T
#            rows has read P * (1 - exp(-k / P)) of the P pages, so it
#            takes as long as a sequential scan of S seconds at k =
#            -P ln(1 - N * S / P): the crossover is k / T, S the
#            sequential scan's measured time.  S's own answer, P * 8192 /
#            B when the scan's requests are large enough for B to bind
#            before N, is beside it.  Checked with random_page_cost at the
#            page times' ratio, B / (N * 8192), the planner should take
#            the index scan at half the crossover and the sequential scan
#            at twice
#   own disk   no answer: the crossover and the setting that matches it
#
# A crossover more than 25 % off its answer, or a planner's choice not
# the faster, is flagged (!).  Each cell runs --runs times (default 2).
#
#   bench/access-paths.sh [--scale SF] [--port PORT] [--runs N]
#                         [--only paths|crossover]
#
# Root and control groups; otherwise it says why and exits 0.  SF 1 by
# default (lineitem about 900 MB, 6 million rows); about twenty minutes.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/lab.sh"

scale=1
port=56320
runs=2
only=""
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--only) only=$2; shift 2
			[ "$only" = paths ] || [ "$only" = crossover ] || sb_die "--only: paths or crossover, not $only" ;;
		*) sb_die "usage: bench/access-paths.sh [--scale SF] [--port PORT] [--runs N] [--only paths|crossover]" ;;
	esac
done
sb_bench_record

[ "$(id -u)" = 0 ] || { echo "bench/access-paths.sh: skipped: run as root"; exit 0; }
sb_lab_check || { echo "bench/access-paths.sh: skipped: $SB_LAB_WHY"; exit 0; }
command -v fio >/dev/null ||
	{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q fio >/dev/null; } ||
	sb_die "fio is needed: apt-get install fio"
sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"

group=scanbench-paths-$$
trap 'sb_cleanup' EXIT
trap 'exit 1' INT TERM
sb_on_exit "sb_lab_remove '$group'"
sb_lab_create "$group" || sb_die "could not make the group $group"
sb_bench_lineitem "$scale" lineitem "$port"
data=$PGHOST/data
pgbin=$(sb_pgbin)
q() { PGOPTIONS="-c client_min_messages=error" "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
q "CREATE INDEX IF NOT EXISTS i_l_partkey ON lineitem (l_partkey)" >/dev/null
q "VACUUM (FREEZE, ANALYZE) lineitem" >/dev/null
q "CHECKPOINT" >/dev/null
file=$data/$(q "SELECT pg_relation_filepath('lineitem')")
rows=$(q "SELECT reltuples::bigint FROM pg_class WHERE oid = 'lineitem'::regclass")
pages=$(q "SELECT relpages FROM pg_class WHERE oid = 'lineitem'::regclass")
eic=$(q "SHOW effective_io_concurrency")

# Out of both caches, the new postmaster in the group (see page-costs.sh).
cold()
{
	sb_restart_cluster "$PGHOST" || sb_die "could not restart the cluster"
	sb_evict "$file"
	sb_lab_move "$group" "$data" || sb_die "could not move the cluster into $group"
}

echo "bench/access-paths.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(sb_pgversion), $(nproc) CPUs, $(uname -r), cgroup v$SB_LAB_V"
echo "lineitem: $(q "SELECT pg_relation_size('lineitem')") bytes, $rows rows; index on l_partkey, correlation $(q "SELECT round(correlation::numeric, 3) FROM pg_stats WHERE tablename = 'lineitem' AND attname = 'l_partkey'"); effective_io_concurrency $eic"
# A figure more than P % off its answer: " !".
off() { awk -v f="$1" -v k="$2" -v p="$3" 'BEGIN { if (f == "" || k <= 0 || (f - k) / k * 100 > p || (k - f) / k * 100 > p) print " !" }'; }

paths_part()
{
echo
echo "Pages a second, known answers in [brackets]; ! flags a rate more than 10 % off, a path_pct more than 10 % off 100."
hdr='%-24s | %-6s | %-5s | %-6s | %-18s | %-20s | %-20s | %-24s | %s\n'
printf "$hdr" cell path depth rows "pages_s" "random_pages_s" "path_pct" verdict flags


# measure SELECTIVITY: a line per cold index path
measure()
{
	q "SELECT path, depth, rows, pages_s, random_pages_s, path_pct, pct_low, pct_high,
		verdict::text, rounds
		FROM access_paths('lineitem', 'i_l_partkey', selectivity => $1, max_seconds => 120,
		                  paths => '{index,bitmap}')
		WHERE cache = 'cold'"
}

# A run of about 1.5 s: the rows a limit of R pages a second reads in it.
selectivity_for() { awk -v r="$1" -v n="$rows" 'BEGIN { printf "%.6f", 1.5 * r / n }'; }

# cgroup_cell MIB IOPS
cgroup_cell()
{
	local mib=$1 iops=$2 known name sel line path depth nrows ps rs pct lo hi verdict rounds flags
	if [ "$iops" -gt 0 ]; then known=$iops; name="cgroup $iops req/s"
	else known=$(awk -v b="$mib" 'BEGIN { printf "%.0f", b * 1048576 / 8192 }'); name="cgroup $mib MiB/s"; fi
	sel=$(selectivity_for "$known")
	for _ in $(seq "$runs"); do
		cold
		sb_lab_limit "$group" "$data" "$mib" 0 "$iops" || sb_die "could not set the limits"
		while IFS='|' read -r path depth nrows ps rs pct lo hi verdict rounds; do
			flags=$(off "$ps" "$known" 10)$(off "$rs" "$known" 10)$(off "$pct" 100 10)
			printf "$hdr" "$name" "$path" "$depth" "$nrows" "$ps [$known]" "$rs [$known]" \
				"$pct ($lo-$hi)" "$verdict" "${flags:-ok} ($rounds rounds)"
		done < <(measure "$sel")
		sb_lab_limit "$group" "$data" 0 0 0
	done
}

# fio_iops DEPTH: random 8 kB reads a second of the file, cold, for at
# most 5 s: one at a time buffered with read-ahead off, as an index scan
# reads; at a depth, DEPTH in flight with O_DIRECT and libaio (fio's
# jobs would share the page cache, each finding blocks another read)
fio_iops()
{
	local io=(--ioengine=psync --fadvise_hint=random)
	[ "$1" -gt 1 ] && io=(--ioengine=libaio --direct=1 --iodepth="$1")
	sb_evict "$file"
	fio --name=ap --filename="$file" --readonly --rw=randread --bs=8k "${io[@]}" \
		--invalidate=1 --runtime=5 \
		--size="$(stat -c %s "$file")" --output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '{ printf "%.0f", $8 }'	# field 8: read IOPS
}

own_disk()
{
	local sel line path depth nrows ps rs pct lo hi verdict rounds
	sel=$(selectivity_for 10000)
	for _ in $(seq "$runs"); do
		cold
		while IFS='|' read -r path depth nrows ps rs pct lo hi verdict rounds; do
			printf "$hdr" "own disk (fio)" "$path" "$depth" "$nrows" "$ps" "$rs (fio $(fio_iops "$depth"))" \
				"$pct ($lo-$hi)" "$verdict" "($rounds rounds)"
		done < <(measure "$sel")
	done
}

cgroup_cell 0 200
cgroup_cell 8 0
own_disk
}

crossover_part()
{
echo
echo "index_crossover: the share of the rows up to which the index scan is the faster, cold, known answer in [brackets]"
echo "(the sequential scan's, and the crossover's given the sequential scan's measured time);"
echo "the planner's choice at half and twice it under random_page_cost at the page times' ratio; ! flags a crossover"
echo "more than 25 % off, a choice not the faster."
xhdr='%-28s | %-16s | %-30s | %-8s | %-8s | %-22s | %-24s | %s\n'
printf "$xhdr" cell seq_s crossover "planner" matching "checked (half, twice)" verdict flags

# crossover MAX_SECONDS [RANDOM_PAGE_COST]: index_crossover's figures
crossover()
{
	q "SELECT rounds, seq_s, crossover_selectivity, crossover_low, crossover_high,
		planner_crossover, matching_random_page_cost, checked_random_page_cost,
		checked_at_half, checked_at_twice, verdict::text
		FROM index_crossover('lineitem', 'i_l_partkey', max_seconds => $1${2:+, random_page_cost => $2})"
}

# crossover_cell MIB IOPS
crossover_cell()
{
	local mib=$1 iops=$2 known seq_known ratio flags
	local rounds seq x lo hi planner matching checked half twice verdict
	seq_known=$(awk -v p="$pages" -v b="$mib" 'BEGIN { printf "%.3f", p * 8192 / (b * 1048576) }')
	ratio=$(awk -v n="$iops" -v b="$mib" 'BEGIN { printf "%.2f", b * 1048576 / (n * 8192) }')
	for _ in $(seq "$runs"); do
		cold
		sb_lab_limit "$group" "$data" "$mib" 0 "$iops" || sb_die "could not set the limits"
		IFS='|' read -r rounds seq x lo hi planner matching checked half twice verdict < <(crossover 600 "$ratio")
		known=$(awk -v p="$pages" -v t="$rows" -v n="$iops" -v s="$seq" \
			'BEGIN { f = n * s / p; if (f < 1) printf "%.6f", -p * log(1 - f) / t; else print "none" }')
		flags=$(off "$x" "$known" 25)
		[ "$half/$twice" = "index/seq" ] || flags="$flags !"
		printf "$xhdr" "cgroup $mib MiB/s, $iops req/s" "$seq [$seq_known]" "$x [$known] ($lo-$hi)" "$planner" \
			"$matching" "$checked: $half, $twice" "$verdict" "${flags:-ok} ($rounds rounds)"
		sb_lab_limit "$group" "$data" 0 0 0
	done
}

crossover_own_disk()
{
	local rounds seq x lo hi planner matching checked half twice verdict
	for _ in $(seq "$runs"); do
		cold
		IFS='|' read -r rounds seq x lo hi planner matching checked half twice verdict < <(crossover 120)
		printf "$xhdr" "own disk" "$seq" "$x ($lo-$hi)" "$planner" "$matching" \
			"$checked: $half, $twice" "$verdict" "($rounds rounds)"
	done
}

crossover_cell 64 1600
crossover_cell 64 800
crossover_own_disk
}

[ "$only" = crossover ] || paths_part
[ "$only" = paths ] || crossover_part
