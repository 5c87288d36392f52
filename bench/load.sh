#!/usr/bin/env bash
# scanbench-load against the server's own CREATE + COPY FREEZE of the same
# rows, on two throwaway clusters side by side:
#
#   stock      initdb's settings plus shared_buffers = 128MB: wal_level =
#              replica, fsync and full_page_writes on, max_wal_size = 1GB,
#              checkpoint_timeout = 5min -- the server most users have
#   bulk-load  wal_level = minimal, max_wal_senders = 0, max_wal_size = 8GB,
#              and, as the other benches' clusters, fsync and
#              full_page_writes off
#
#   bench/load.sh [SF [ROUNDS]]        defaults: SF 1, 3 rounds
#
# The rows are written once to a file with --stdout.  Then, ROUNDS times,
# on each cluster in turn (the first cluster alternating), each of these
# modes, in an order reversed every other round (so that drift of a shared
# machine hits every mode alike):
#   server    BEGIN; CREATE TABLE; COPY ... FROM 'file' (FREEZE); COMMIT;
#             ANALYZE -- what dbgen and the server's own fastest load give
#   auto      scanbench-load --jobs=auto (binary, the default format)
#   j1        scanbench-load --jobs 1, the default
#   j2        scanbench-load --jobs 2
# Every time is the whole wall time: each leaves a frozen, analyzed table.
# Before each load the previous table is dropped and a CHECKPOINT taken,
# outside the timing.  The WAL each wrote and the checkpoints during it come
# from pg_current_wal_lsn() and the checkpoint counters (the loader's own
# --json figures for its modes, the same query for the server's).
#
# Prints each cluster's settings above its table of medians and ratios.
set -euo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap sb_cleanup EXIT

SF=${1:-1}
ROUNDS=${2:-3}
PORT=${SB_BENCH_PORT:-54331}
sb_bench_record

sb_install_packages
make -C "$SB_TOP" -s PG_CONFIG="$(sb_pgbin)/pg_config" all-loader >/dev/null ||
	sb_die "building bin/scanbench-load failed"
work=$(mktemp -d /tmp/scanbench-load-bench.XXXXXX)
sb_on_exit "rm -rf '$work'"
[ "$(id -u)" = 0 ] && chown postgres: "$work"
# A copy: a build in the tree while the bench runs does not change what it measures.
loader="$work/scanbench-load"
cp "$SB_TOP/bin/scanbench-load/scanbench-load" "$loader"

# The two clusters: sb_start_cluster's settings, then each one's own (later
# lines win).
declare -A port
port[stock]=$(sb_free_port "$PORT")
sb_start_cluster "$work/stock" "${port[stock]}" "fsync = on" "full_page_writes = on" \
	"max_wal_size = 1GB" "checkpoint_timeout = 5min"
port[bulk]=$(sb_free_port $((port[stock] + 1)))
sb_start_cluster "$work/bulk" "${port[bulk]}" "wal_level = minimal" "max_wal_senders = 0" \
	"max_wal_size = 8GB"
host() { echo "$work/$1"; }

psql_c() { local c=$1; shift; PGHOST=$(host "$c") PGPORT=${port[$c]} "$(sb_pgbin)/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
value() { psql_c "$1" -At -c "$2"; }

file="$work/lineitem.tbl"
sb_log "SF $SF: writing the rows to $file"
"$loader" --stdout -s "$SF" -q >"$file"
chown postgres: "$file" 2>/dev/null || true
rows=$(wc -l <"$file")
for c in stock bulk; do
	# the server's COPY gets the loader's columns
	PGHOST=$(host $c) PGPORT=${port[$c]} "$loader" -s 0.01 -t template -q -F text
done
sb_log "SF $SF: $rows rows, $(($(stat -c %s "$file") / 1000000)) MB of text; $ROUNDS rounds"

checkpoints_sql="SELECT $(if [ "$SB_PGMAJOR" -ge 17 ]; then
	echo "num_timed + num_requested FROM pg_stat_checkpointer"
else
	echo "checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter"
fi)"

# run CLUSTER MODE: one load, timed; records wall seconds, WAL MB, checkpoints.
declare -A wall wal ckpt chosen
run()
{
	local c=$1 mode=$2 t0 t1 w0 w1 k0 k1 json
	psql_c "$c" -c "DROP TABLE IF EXISTS lineitem" -c "CHECKPOINT" 2>/dev/null
	w0=$(value "$c" "SELECT pg_current_wal_lsn() - '0/0'")
	k0=$(value "$c" "$checkpoints_sql")
	t0=$(date +%s.%N)
	case $mode in
		server)
			psql_c "$c" -c "BEGIN" -c "CREATE TABLE lineitem (LIKE template)" \
				-c "COPY lineitem FROM '$file' (DELIMITER '|', FREEZE)" -c "COMMIT" \
				-c "ANALYZE lineitem" || sb_die "the server's COPY failed on $c"
			;;
		auto) json=$(PGHOST=$(host "$c") PGPORT=${port[$c]} "$loader" -s "$SF" -q --json -j auto) ;;
		j1) json=$(PGHOST=$(host "$c") PGPORT=${port[$c]} "$loader" -s "$SF" -q --json -j 1) ;;
		j2) json=$(PGHOST=$(host "$c") PGPORT=${port[$c]} "$loader" -s "$SF" -q --json -j 2) ;;
	esac
	t1=$(date +%s.%N)
	w1=$(value "$c" "SELECT pg_current_wal_lsn() - '0/0'")
	k1=$(value "$c" "$checkpoints_sql")
	local k="$c/$mode" s mb
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	mb=$(awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.0f", (b - a) / 1e6 }')
	wall[$k]="${wall[$k]:-} $s"
	wal[$k]="${wal[$k]:-} $mb"
	ckpt[$k]="${ckpt[$k]:-} $((k1 - k0))"
	[ "$mode" = auto ] && chosen[$c]=$(sed -n 's/.*"jobs":\([0-9]*\).*/\1/p' <<<"$json")
	printf '  %-6s %-7s %7.2f s  WAL %6s MB  %s checkpoint(s)\n' "$c" "$mode" "$s" "$mb" $((k1 - k0))
}

modes=(server auto j1 j2)
for round in $(seq 1 "$ROUNDS"); do
	echo "round $round"
	if [ $((round % 2)) = 1 ]; then clusters=(stock bulk); order=("${modes[@]}")
	else clusters=(bulk stock); order=(j2 j1 auto server); fi
	for c in "${clusters[@]}"; do
		for mode in "${order[@]}"; do
			run "$c" "$mode"
		done
	done
done

m() { echo "${wall[$1]}" | sb_median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
label()
{
	case $1 in
		server) echo "server CREATE + COPY FREEZE (text file) + ANALYZE" ;;
		auto) echo "scanbench-load --jobs=auto (chose ${chosen[$2]:-?})" ;;
		j1) echo "scanbench-load -j 1 (the default)" ;;
		j2) echo "scanbench-load -j 2" ;;
	esac
}
for c in stock bulk; do
	echo
	echo "$c cluster: $(value "$c" "SELECT string_agg(name || ' = ' || current_setting(name), ', ' ORDER BY name)
		FROM unnest(ARRAY['wal_level', 'fsync', 'full_page_writes', 'wal_log_hints', 'data_checksums',
		'max_wal_size', 'checkpoint_timeout', 'max_wal_senders', 'shared_buffers']) AS name")"
	echo "server CPUs: $(nproc); SF $SF ($rows rows), medians of $ROUNDS rounds"
	echo "| load | wall | vs server | WAL | checkpoints |"
	echo "|---|---|---|---|---|"
	for mode in "${modes[@]}"; do
		k="$c/$mode"
		printf '| %s | %.2f s | %s | %s MB | %s |\n' "$(label "$mode" "$c")" "$(m "$k")" \
			"$(ratio "$(m "$k")" "$(m "$c/server")")" "$(echo "${wal[$k]}" | sb_median)" \
			"$(echo "${ckpt[$k]}" | sb_median)"
	done
done
echo
best=j1
for mode in auto j2; do
	awk -v a="$(m bulk/$mode)" -v b="$(m bulk/$best)" 'BEGIN { exit !(a < b) }' && best=$mode
done
echo "targets:"
echo "  stock: default (-j 1) / server:    $(ratio "$(m stock/j1)" "$(m stock/server)")   [<= 0.80]"
echo "  stock: --jobs=auto / -j 1:         $(ratio "$(m stock/auto)" "$(m stock/j1)")   [not slower than one job]"
echo "  bulk-load: --jobs=auto / -j 1:     $(ratio "$(m bulk/auto)" "$(m bulk/j1)")   [not slower than one job]"
echo "  bulk-load: fastest ($best) / server: $(ratio "$(m bulk/$best)" "$(m bulk/server)")   [<= 0.55]"
