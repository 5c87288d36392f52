#!/usr/bin/env bash
# scanbench-fleet over four servers at once (--jobs 4) against each server
# measured alone, on throwaway clusters of this machine, and what a run
# costs the central history.
#
#   bench/fleet.sh [MB [MAX_SECONDS [ROUNDS]]]   defaults: 64 MB, 10 s, 3 rounds
#
# Five clusters: four servers, each with a table of about MB megabytes,
# and a fifth keeping the central history.  ROUNDS times, alternately (so
# that a shared machine's drift hits both alike): each server alone
# (scanbench-fleet --jobs 1 on a servers file of that server), then all
# four with --jobs 4.  Every time is the program's whole wall time:
# connecting, identifying, measuring (cold, default target, --max-seconds
# MAX_SECONDS), judging, the COPY into the history and the report.
#
# Prints every run, the medians, the ratio of the fleet's time to the
# slowest server's own time, and the history's cost: bytes per row on disk
# (the table and its indexes' growth over the rows added) and in COPY's
# text form (what goes over the network), rows per run.
#
# Needs the extension and scanbench-fleet installed for the server of
# SB_PGBIN (or of PostgreSQL SB_PGMAJOR, default 15): make install.
set -euo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap sb_cleanup EXIT

MB=${1:-64}
MAX_S=${2:-10}
ROUNDS=${3:-3}
sb_bench_record
SB_PGMAJOR=${SB_PGMAJOR:-15}
fleet="$(sb_pgbin)/scanbench-fleet"
[ -x "$fleet" ] || sb_die "no scanbench-fleet in $(sb_pgbin): make install first"

work=$(mktemp -d /tmp/scanbench-fleet-bench.XXXXXX)
sb_on_exit "rm -rf '$work'"
[ "$(id -u)" = 0 ] && chown postgres: "$work"

psql_q() { sb_as_pg "$(sb_pgbin)/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# Rows of about 230 bytes: MB megabytes of heap.
rows=$((MB * 1000000 / 250))
port=$(sb_free_port 54361)
servers=()
ports=()
for i in 1 2 3 4; do
	ports[$i]=$port
	sb_start_cluster "$work/s$i" "$port"
	psql_q -h "$work/s$i" -p "$port" -d postgres \
		-c "CREATE EXTENSION scanbench" \
		-c "CREATE TABLE t AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, $rows) g" \
		-c "VACUUM (FREEZE, ANALYZE) t" >/dev/null
	servers+=("postgresql://${work//\//%2F}%2Fs$i:$port/postgres name=s$i class=bench")
	echo "${servers[-1]}" >"$work/servers.s$i"
	port=$(sb_free_port $((port + 1)))
done
printf '%s\n' "${servers[@]}" >"$work/servers.all"
sb_start_cluster "$work/central" "$port"
psql_q -h "$work/central" -p "$port" -d postgres -c "CREATE EXTENSION scanbench"
history="postgresql://${work//\//%2F}%2Fcentral:$port/postgres"
chmod a+r "$work"/servers.*

size=$(psql_q -h "$work/s1" -p "${ports[1]}" -d postgres \
	-c "SELECT round(pg_relation_size('t') / 1e6, 1)")
echo "scanbench-fleet: 4 servers, table t of $size MB each, --max-seconds $MAX_S, $ROUNDS rounds, $(nproc) CPUs"

# run NAME FILE JOBS: the wall time of one fleet run, recorded under NAME.
declare -A wall
run()
{
	local name=$1 file=$2 jobs=$3 t0 t1 rc=0
	t0=$(date +%s.%N)
	sb_as_pg /usr/bin/time -f '%U %S %M' -o "$work/time.$name" "$fleet" --servers "$file" --relation t --history "$history" --jobs "$jobs" \
		--max-seconds "$MAX_S" --format csv >"$work/out.$name" 2>"$work/err.$name" || rc=$?
	t1=$(date +%s.%N)
	[ $rc -le 1 ] || { cat "$work/err.$name" >&2; sb_die "$name: scanbench-fleet exited $rc"; }
	local w
	w=$(echo "$t1 - $t0" | bc)
	wall[$name]="${wall[$name]:-} $w"
	local user sys kb
	read -r user sys kb <"$work/time.$name"
	printf '  %-6s %7.2f s  exit %d   runner CPU %.2f s, peak RSS %d MB\n' "$name" "$w" "$rc" \
		"$(echo "$user + $sys" | bc)" $((kb / 1024))
}

before_rows=$(psql_q -h "$work/central" -p "$port" -d postgres -c "SELECT count(*) FROM scan_history")
before_bytes=$(psql_q -h "$work/central" -p "$port" -d postgres -c "SELECT pg_total_relation_size('scan_history')")
for r in $(seq 1 "$ROUNDS"); do
	echo "round $r"
	for i in 1 2 3 4; do run "s$i" "$work/servers.s$i" 1; done
	run fleet "$work/servers.all" 4
done

echo
echo "medians:"
slowest=0
for name in s1 s2 s3 s4 fleet; do
	m=$(echo "${wall[$name]}" | sb_median)
	printf '  %-6s %7.2f s\n' "$name" "$m"
	if [ "$name" != fleet ] && [ "$(echo "$m > $slowest" | bc)" = 1 ]; then slowest=$m; fi
done
fleet_m=$(echo "${wall[fleet]}" | sb_median)
printf 'fleet --jobs 4 / slowest server alone: %.2f / %.2f = %.2f\n' "$fleet_m" "$slowest" \
	"$(echo "$fleet_m / $slowest" | bc -l)"

psql_q -h "$work/central" -p "$port" -d postgres -c "CHECKPOINT" >/dev/null
psql_q -h "$work/central" -p "$port" -d postgres -F ' ' -c "
	SELECT count(*) - $before_rows,
	       round(avg(pg_column_size(h.*))),
	       pg_total_relation_size('scan_history') - $before_bytes,
	       round(avg(octet_length(h::text))),
	       count(*) FILTER (WHERE reason IS NOT NULL)
	FROM scan_history h" | {
	read -r n tuple grown text failed
	echo "central history: $n rows added over $ROUNDS rounds (a row per server and relation), $failed failures;"
	echo "  a row: $tuple bytes stored (pg_column_size), about $text bytes as text (what COPY sends);"
	echo "  table and indexes grew $grown bytes (whole pages: an upper bound for so few rows)"
}
