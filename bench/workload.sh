#!/usr/bin/env bash
# The workload report on this machine's own disk: pgbench's built-in
# scripts on a throwaway cluster with pg_stat_statements loaded and
# track_io_timing on, each run between two workload snapshots, and
# workload_reads' rows for them against the references this storage was
# measured to give (workload_references_measure: page_costs of
# pgbench_accounts).  Each script starts with pgbench's tables out of both
# caches (a restart empties shared_buffers, dd's nocache drops their
# files from the page cache), so the first reads are the disk's.
#
#   bench/workload.sh [--scale N] [--seconds S] [--clients C]
#
# Root; default scale 50 (pgbench_accounts about 640 MB, five times
# shared_buffers' 128 MB, so a run reads from outside it), 60 s a script,
# one client.  The scripts: select-only (-S: a row by its key, an index
# scan), simple-update (-N) and tpcb-like (the default).
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=50
seconds=60
clients=1
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--seconds) seconds=$2; shift 2 ;;
		--clients) clients=$2; shift 2 ;;
		*) sb_die "usage: bench/workload.sh [--scale N] [--seconds S] [--clients C]" ;;
	esac
done
for v in "$scale" "$seconds" "$clients"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || sb_die "--scale, --seconds and --clients take a positive whole number, not $v"
done
[ "$(id -u)" = 0 ] || sb_die "run as root: the bench makes its own cluster and evicts its files"
sb_bench_record

sb_install_packages
sb_build_install
pgbin=$(sb_pgbin)
dir=$(mktemp -d /tmp/scanbench-bench.XXXXXX)
sb_on_exit "rm -rf '$dir'"
sb_start_cluster "$dir" "$(sb_free_port 54336)" \
	"shared_preload_libraries = 'pg_stat_statements'" "track_io_timing = on" "autovacuum = off"
q() { "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }
table() { "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 -P footer=off -c "$1"; }

"$pgbin/pgbench" -i -q -s "$scale" >"$dir/init.log" 2>&1 || sb_die "pgbench -i failed: $(tail -n 3 "$dir/init.log")"
for ext in pg_stat_statements scanbench; do
	q "CREATE EXTENSION $ext" >/dev/null || sb_die "CREATE EXTENSION $ext failed"
done
q "VACUUM (FREEZE, ANALYZE)" >/dev/null
q "CHECKPOINT" >/dev/null
# Written back (the cluster runs with fsync off): a dirty page cannot be
# dropped from the page cache, and page_costs would find it there.
sync

# pgbench's tables and indexes out of both caches.
cold()
{
	q "CHECKPOINT" >/dev/null
	sb_restart_cluster "$dir"
	local rels
	mapfile -t rels < <(q "SELECT pg_relation_filepath(c.oid) FROM pg_class c
						   WHERE c.relname LIKE 'pgbench%' AND c.relkind IN ('r', 'i')")
	sb_evict "${rels[@]/#/$dir/data/}"
}

echo "bench/workload.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(q 'SHOW server_version'), $(nproc) CPUs, $(uname -r)"
echo "pgbench scale $scale: pgbench_accounts $(q "SELECT pg_size_pretty(pg_relation_size('pgbench_accounts'))"), its key index $(q "SELECT pg_size_pretty(pg_relation_size('pgbench_accounts_pkey'))"); shared_buffers $(q 'SHOW shared_buffers'), effective_io_concurrency $(q 'SHOW effective_io_concurrency'); $clients client(s), $seconds s a script"
echo
echo "The storage's references (workload_references_measure, page_costs of pgbench_accounts):"
table "SELECT reference, mb_s, block_us, depth, source FROM workload_references_measure(rel => 'pgbench_accounts', max_seconds => 60, max_age => '0')"

for spec in "select-only:-S" "simple-update:-N" "tpcb-like:"; do
	name=${spec%%:*} flag=${spec#*:}
	cold
	from=$(q "SELECT workload_snapshot()")
	# shellcheck disable=SC2086 # $flag is one option or none
	"$pgbin/pgbench" -n $flag -T "$seconds" -c "$clients" >"$dir/$name.log" 2>&1 ||
		sb_die "pgbench $name failed: $(tail -n 3 "$dir/$name.log")"
	to=$(q "SELECT workload_snapshot()")
	echo
	echo "$name (statements that ran more than once: pgbench's own at its start are left out): $(grep -E '^(tps|latency average)' "$dir/$name.log" | sed 's/ (without initial connection time)//' | paste -sd ';' | sed 's/;/; /g')"
	table "SELECT left(regexp_replace(query, '\s+', ' ', 'g'), 48) AS query, calls, blocks_read, blocks_hit,
				  round(read_wait_s::numeric, 2) AS read_wait_s, read_wait_pct, read_mb_s, block_wait_us,
				  reference, reference_pct, array_to_string(verdict, ',') AS verdict
		   FROM workload_reads($from, $to)
		   WHERE blocks_read > 0 AND calls > 1
		   ORDER BY read_wait_s DESC NULLS LAST, blocks_read DESC
		   LIMIT 6"
done
