#!/usr/bin/env bash
# scan_breakdown's figures against the server's own, for the same cold
# count(1) on one lineitem, side by side and alternately:
#
#   A  backend CPU (backend_user_s + backend_sys_s)  vs  /proc/PID/stat utime + stime
#      of the backend while psql runs the statement
#   B  read wait (io_read_s)                          vs  EXPLAIN (ANALYZE, BUFFERS)
#      I/O read time under track_io_timing
#   C  read wait (io_read_s)                          vs  the backend's own read time
#      (pg_stat_get_backend_io, PostgreSQL 18 and later) around psql's plain
#      statement, the one A times
#   D  (18 and later) the read wait of one execution both ways: a cold
#      scan_rate's io_read_s (the scan scan_breakdown times) against the
#      backend's read time from pg_stat_get_backend_io around that call
#   E  what EXPLAIN ANALYZE's counting costs: the backend's CPU around the
#      EXPLAIN of B against A's plain statement.  The more CPU the executor
#      spends per block, the further read-ahead gets ahead of it, and the
#      less it waits for reads.
#
# then prints scan_breakdown (cold), scan_shapes (warm) and scan_sweep
# (cold) on the same table, the figures the README's "Why is the scan
# slower than the disk?" shows.
#
#   bench/breakdown.sh [--pg MAJOR] [--io-method M[,M...]|all] [--scale SF] [--pairs N]
#
# --io-method (18 and later) restarts the cluster with each method in turn.
# Run as root: the psql side evicts the files from the page cache itself.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=1
pairs=5
methods=""
while [ $# -gt 0 ]; do
	case "$1" in
		--pg) SB_PGMAJOR=$2; shift 2 ;;
		--io-method) methods=$2; shift 2 ;;
		--scale) scale=$2; shift 2 ;;
		--pairs) pairs=$2; shift 2 ;;
		*) sb_die "usage: bench/breakdown.sh [--pg MAJOR] [--io-method M[,M...]|all] [--scale SF] [--pairs N]" ;;
	esac
done
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root: the psql side drops the files from the page cache"
sb_check_major "$SB_PGMAJOR"
if [ -n "$methods" ] && [ "$SB_PGMAJOR" -lt 18 ]; then
	sb_die "--io-method needs PostgreSQL 18 or later"
fi
[ "$methods" = all ] && methods="sync,worker,io_uring"

sb_install_packages
sb_use_pg || sb_die "PostgreSQL $SB_PGMAJOR is not available"
sb_build_install
dir=$(mktemp -d /tmp/scanbench-breakdown.XXXXXX)
chmod 755 "$dir"
sb_on_exit "rm -rf '$dir'"
sb_start_cluster "$dir" "$(sb_free_port 54341)"
pgbin=$(sb_pgbin)
q() { "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
table() { "$pgbin/psql" -X -v ON_ERROR_STOP=1 -P footer=off -c "$1"; }

"$pgbin/scanbench-load" --scale "$scale" --drop --quiet || sb_die "scanbench-load failed"
q "CREATE EXTENSION IF NOT EXISTS scanbench" >/dev/null
mapfile -t files < <(q "SELECT '$dir/data/' || path FROM raw_read_segments('lineitem', 'asis', 8192) ORDER BY segno")
tick=$(getconf CLK_TCK)

# summary NAME LEFT RIGHT [plain]: the medians of two paired sides, their
# ratio and the median of the pairs' ratios; with "plain", no verdict (a
# comparison that shows a cost rather than checks agreement).
summary()
{
	local ml mr pr
	read -r ml mr pr <<<"$(sb_pair_medians "$2" "$3")"
	NAME=$1 awk -v l="$ml" -v r="$mr" -v p="$pr" -v plain="${4:-}" \
		'BEGIN { printf "%-58s %8.3f %8.3f   ratio %.3f   pairs %.3f", ENVIRON["NAME"], l, r, l / r, p
				 if (plain == "") printf "   (within 5 %%: %s)", (l / r >= 0.95 && l / r <= 1.05) ? "yes" : "no"
				 printf "\n" }'
}

# The steps scan_breakdown takes before its cold scan, in the same
# session as the statement: a raw read of the files (on a VM, memory just
# freed is cheaper to fill again than memory given back to the host, so
# the step before matters to what a cold read costs), then the same
# eviction: write back, POSIX_FADV_DONTNEED (dd's iflag=nocache).
# lineitem is scanned through a ring buffer, so at most a ring's worth of
# it stays in shared_buffers.
for f in "${files[@]}"; do
	printf 'sync -d %q; dd if=%q iflag=nocache count=0 status=none\n' "$f" "$f"
done >"$dir/evict.sh"
before_statement()
{
	if [ "$1" = cold ]; then
		echo "SELECT 1 FROM raw_read('lineitem') \\g /dev/null"
		echo "\\! sh $dir/evict.sh"
	fi
}

# psql's statements run with the settings scanbench gives the measured one.
scan_options="-c max_parallel_workers_per_gather=0 -c synchronize_seqscans=off -c enable_indexscan=off -c enable_indexonlyscan=off -c enable_bitmapscan=off -c track_io_timing=on"

# The backend's CPU seconds between stat.before and stat.after: fields 14
# and 15 (utime, stime) after the command name, which ends with the last
# ')'.
proc_cpu()
{
	awk -v t="$tick" 'FNR == 1 { sub(/.*\) /, ""); split($0, f, " "); cpu[FILENAME] = f[12] + f[13] }
		END { printf "%.3f", (cpu[ARGV[2]] - cpu[ARGV[1]]) / t }' "$dir/stat.before" "$dir/stat.after"
}

# The backend's read time as the server counts it per backend (18 and
# later): read_before sets :io0, read_after prints the seconds since, each
# flushing the backend's statistics first.
backend_io=$(q "SELECT to_regproc('pg_stat_get_backend_io') IS NOT NULL")
read_before="SELECT pg_stat_force_next_flush() \\g /dev/null
SELECT coalesce(sum(read_time), 0) AS io0 FROM pg_stat_get_backend_io(pg_backend_pid()) WHERE object = 'relation' \\gset"
read_after="SELECT pg_stat_force_next_flush() \\g /dev/null
SELECT round(((coalesce(sum(read_time), 0) - :io0) / 1000)::numeric, 3)
FROM pg_stat_get_backend_io(pg_backend_pid()) WHERE object = 'relation';"

# psql's side of A and C: the plain statement, with the backend's own CPU
# counters around it and, from 18 on, its read time (the raw read before
# the statement bypasses shared buffers, so it counts none).  The session
# plans the statement once first, as scan_breakdown's has by the time its
# clock starts, so that loading the catalog caches is on neither side.
# Prints CPU seconds and read seconds (empty before 18).
psql_plain()
{
	local before="" after=""
	[ "$backend_io" = t ] && before=$read_before after=$read_after
	PGOPTIONS=$scan_options "$pgbin/psql" -X -At -q -v ON_ERROR_STOP=1 >"$dir/plain.out" <<SQL || sb_die "psql failed"
EXPLAIN SELECT count(1) FROM lineitem \g /dev/null
$before
$(before_statement "$1")
SELECT pg_backend_pid() AS pid \gset
\setenv SB_PID :pid
\! cat /proc/\$SB_PID/stat > $dir/stat.before
SELECT count(1) FROM lineitem \g /dev/null
\! cat /proc/\$SB_PID/stat > $dir/stat.after
$after
SQL
	proc_cpu
	echo "|$(cat "$dir/plain.out")"
}

# EXPLAIN's side of B: the plan's read time (renamed "Shared I/O Read
# Time" in 17), in seconds, and the backend's CPU around the EXPLAIN as A
# takes it around the plain statement: what EXPLAIN's per-node counting
# costs the executor.  Prints CPU seconds and read seconds.
explain_side()
{
	PGOPTIONS=$scan_options "$pgbin/psql" -X -At -q -v ON_ERROR_STOP=1 >"$dir/explain.json" <<SQL || sb_die "EXPLAIN failed"
EXPLAIN SELECT count(1) FROM lineitem \g /dev/null
$(before_statement "$1")
SELECT pg_backend_pid() AS pid \gset
\setenv SB_PID :pid
\! cat /proc/\$SB_PID/stat > $dir/stat.before
EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) SELECT count(1) FROM lineitem;
\! cat /proc/\$SB_PID/stat > $dir/stat.after
SQL
	proc_cpu
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))[0]["Plan"]
print("|%.3f" % (p.get("Shared I/O Read Time", p.get("I/O Read Time", 0)) / 1000.0))' "$dir/explain.json"
}

# One side's figures: scan_breakdown's backend CPU and read wait.
breakdown()
{
	q "SELECT round((backend_user_s + backend_sys_s)::numeric, 3), io_read_s FROM scan_breakdown('lineitem', '$1')"
}

# same_scan: scanbench's read wait against the server's count of the same
# execution (18 and later): the backend's read time from
# pg_stat_get_backend_io around one scan_rate(..., 'cold') call, the scan
# scan_breakdown times, against that call's own io_read_s.  Prints the two,
# in seconds.
same_scan()
{
	"$pgbin/psql" -X -At -q -v ON_ERROR_STOP=1 <<SQL | paste -sd '|' || sb_die "scan_rate failed"
$read_before
SELECT io_read_s FROM scan_rate('lineitem', 'cold');
$read_after
SQL
}

# compare_same: D, pairs of same_scan.
compare_same()
{
	local i r a="" b=""
	echo "cold, one execution: pair  scan_rate io_read_s  backend I/O stats read_s"
	for i in $(seq 1 "$pairs"); do
		r=$(same_scan)
		printf '%26d  %18s  %24s\n' "$i" "${r%|*}" "${r#*|}"
		a+=" ${r%|*}" b+=" ${r#*|}"
	done
	summary "D  cold read wait s: one scan_rate vs backend I/O stats" "$a" "$b"
}

# compare CACHE: pairs of scan_breakdown against psql and EXPLAIN, the
# order of the sides alternating from one pair to the next.
compare()
{
	local cache=$1 i bd pp ex cpu wait pc pw ec ew
	local a_cpu="" b_cpu="" e_cpu="" a_wait="" b_wait="" c_wait=""
	echo "$cache: pair  breakdown cpu_s  psql cpu_s  EXPLAIN cpu_s  breakdown io_read_s  EXPLAIN read_s  psql backend read_s"
	# One untimed round first: the first read after a load is unlike the
	# rest on a VM.
	breakdown "$cache" >/dev/null
	for i in $(seq 1 "$pairs"); do
		if [ $((i % 2)) = 1 ]; then
			bd=$(breakdown "$cache")
			pp=$(psql_plain "$cache")
			ex=$(explain_side "$cache")
		else
			ex=$(explain_side "$cache")
			pp=$(psql_plain "$cache")
			bd=$(breakdown "$cache")
		fi
		cpu=${bd%|*} wait=${bd#*|} pc=${pp%|*} pw=${pp#*|} ec=${ex%|*} ew=${ex#*|}
		printf '%10d  %15s  %10s  %13s  %19s  %14s  %19s\n' "$i" "$cpu" "$pc" "$ec" "$wait" "$ew" "${pw:--}"
		a_cpu+=" $cpu" b_cpu+=" $pc" e_cpu+=" $ec" a_wait+=" $wait" b_wait+=" $ew" c_wait+=" $pw"
	done
	summary "A  $cache CPU s: scan_breakdown vs /proc around psql" "$a_cpu" "$b_cpu"
	if [ "$cache" = cold ]; then
		summary "B  $cache read wait s: scan_breakdown vs EXPLAIN" "$a_wait" "$b_wait"
		if [ "$backend_io" = t ]; then
			summary "C  $cache read wait s: scan_breakdown vs backend I/O stats" "$a_wait" "$c_wait"
			compare_same
		fi
	fi
	summary "E  $cache CPU s: EXPLAIN ANALYZE vs the plain statement" "$e_cpu" "$b_cpu" plain
}

report()
{
	echo
	table "SELECT scan_s, read_s, cpu_s, scan_pct, no_overlap_pct, perfect_overlap_pct, overlap_pct,
		user_s, sys_s, round((backend_user_s + backend_sys_s)::numeric, 3) AS backend_cpu_s,
		round((io_worker_user_s + io_worker_sys_s)::numeric, 3) AS io_worker_cpu_s, io_read_s,
		round(storage_read_bytes / 1e6) AS storage_mb, round(page_cache_bytes / 1e6) AS page_cache_mb,
		cpu_ns_per_row, bottleneck, cpu_pct, cpu_wait_pct, io_wait_pct, other_pct
		FROM scan_breakdown('lineitem')" | sed 's/^/    /'
	table "SELECT shape, query, scan_s, scan_mb_s, ns_per_row, scan_pct FROM scan_shapes('lineitem', runs => 3)" | sed 's/^/    /'
	local sweep="SELECT setting, value, workers_launched, scan_s, scan_mb_s, speedup, scan_pct FROM scan_sweep('lineitem', 'cold', "
	table "$sweep 'parallel_workers', '{0,1,2}', runs => 3)" | sed 's/^/    /'
	if [ "$SB_PGMAJOR" -ge 18 ]; then
		table "$sweep 'io_combine_limit', '{8kB,32kB,128kB}', runs => 3)" | sed 's/^/    /'
		table "$sweep 'effective_io_concurrency', '{1,16,64}', runs => 3)" | sed 's/^/    /'
	fi
}

bytes=$(q "SELECT pg_relation_size('lineitem')")
echo "PostgreSQL $(sb_pgversion), lineitem SF $scale: $bytes bytes; $pairs pairs, sides alternating; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs"
if [ -z "$methods" ]; then
	[ "$SB_PGMAJOR" -ge 18 ] && echo "io_method = $(q 'SHOW io_method')"
	compare cold
	compare warm
	report
else
	for m in ${methods//,/ }; do
		sb_restart_cluster "$dir" "io_method = $m"
		echo
		echo "== io_method = $(q 'SHOW io_method')"
		compare cold
		compare warm
		report
	done
fi
