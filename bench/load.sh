#!/usr/bin/env bash
# scanbench-load against the server's own COPY of the same rows, side by
# side in one run on a throwaway cluster.
#
#   bench/load.sh [SF [PAIRS]]        defaults: SF 1, 3 rounds
#
# The rows are written once to a file with --stdout.  Then, PAIRS times and
# alternately (so that drift of a shared machine hits every mode alike):
#   gen       scanbench-load --stdout > /dev/null   generation alone
#   server    COPY lineitem FROM 'file' (DELIMITER '|'), then, timed apart,
#             VACUUM (FREEZE, ANALYZE): what dbgen + COPY costs
#   j1-text   scanbench-load --jobs 1 --format text
#   j1-bin    scanbench-load --jobs 1 --format binary
#   j2-bin    scanbench-load --jobs 2 --format binary
#   j2-text   scanbench-load --jobs 2 --format text
# Every loader time is its whole wall time, including COPY FREEZE + ANALYZE
# or VACUUM (FREEZE, ANALYZE): the table it leaves is ready to measure, the
# server's COPY leaves one that is not.  Before each load the previous table
# is dropped and a CHECKPOINT taken, outside the timing.
#
# Prints every run, then medians, the ratios against the server's COPY and peak RSS.
set -euo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap sb_cleanup EXIT

SF=${1:-1}
PAIRS=${2:-3}
PORT=${SB_BENCH_PORT:-54331}

sb_install_packages
make -C "$SB_TOP" -s PG_CONFIG="$(sb_pgbin)/pg_config" all-loader >/dev/null ||
	sb_die "building bin/scanbench-load failed"
loader="$SB_TOP/bin/scanbench-load/scanbench-load"

work=$(mktemp -d /tmp/scanbench-load-bench.XXXXXX)
sb_on_exit "rm -rf '$work'"
[ "$(id -u)" = 0 ] && chown postgres: "$work"
sb_start_cluster "$work/cluster" "$PORT"

psql_q() { PGOPTIONS="-c client_min_messages=warning" "$(sb_pgbin)/psql" -X -q -v ON_ERROR_STOP=1 "$@" >/dev/null; }

# run NAME CMD...: time CMD, its standard output discarded; records wall
# seconds and peak RSS (MB).
declare -A wall rss
run()
{
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null || sb_die "$name failed"
	read -r w m <"$work/time"
	wall[$name]="${wall[$name]:-} $w"
	rss[$name]="${rss[$name]:-} $((m / 1024))"
	printf '  %-8s %7.2f s  %4d MB\n' "$name" "$w" $((m / 1024))
}

fresh()
{
	psql_q -c "DROP TABLE IF EXISTS $1" -c "CHECKPOINT"
}

maxof() { tr ' ' '\n' | grep . | sort -g | tail -1; }

file="$work/lineitem.tbl"
sb_log "SF $SF: writing the rows to $file"
"$loader" --stdout -s "$SF" -q >"$file"
chown postgres: "$file" 2>/dev/null || true
"$loader" -s 0.01 -t template -q -F text   # the server's COPY gets the same columns
rows=$(wc -l <"$file")
sb_log "SF $SF: $rows rows, $(($(stat -c %s "$file") / 1000000)) MB of text; $PAIRS rounds"

for round in $(seq 1 "$PAIRS"); do
	echo "round $round"
	run gen "$loader" --stdout -s "$SF" -q
	fresh srv
	psql_q -c "CREATE TABLE srv (LIKE template)"
	run server "$(sb_pgbin)/psql" -X -q -c "COPY srv FROM '$file' (DELIMITER '|')"
	run vacuum "$(sb_pgbin)/psql" -X -q -c "VACUUM (FREEZE, ANALYZE) srv"
	fresh lineitem
	run j1-text "$loader" -s "$SF" -q -j 1 -F text
	fresh lineitem
	run j1-bin "$loader" -s "$SF" -q -j 1 -F binary
	fresh lineitem
	run j2-bin "$loader" -s "$SF" -q -j 2 -F binary
	fresh lineitem
	run j2-text "$loader" -s "$SF" -q -j 2 -F text
done

echo
echo "medians of $PAIRS rounds, SF $SF ($rows rows):"
for k in gen server vacuum j1-text j1-bin j2-bin j2-text; do
	printf '  %-8s %7.2f s\n' "$k" "$(echo "${wall[$k]}" | sb_median)"
done
m() { echo "${wall[$1]}" | sb_median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
best=j1-bin
for k in j2-bin j2-text; do
	awk -v a="$(m $k)" -v b="$(m $best)" 'BEGIN { exit !(a < b) }' && best=$k
done
ready=$(awk -v a="$(m server)" -v b="$(m vacuum)" 'BEGIN { print a + b }')
echo
echo "ratios (targets in brackets):"
echo "  server COPY / generation alone:         $(ratio "$(m server)" "$(m gen)")x   [>= 5]"
echo "  j1-text / server COPY:                  $(ratio "$(m j1-text)" "$(m server)")    [<= 1.10]"
echo "  fastest ($best) / server COPY:          $(ratio "$(m $best)" "$(m server)")    [<= 0.75]"
echo "  j1-text / (server COPY + VACUUM):       $(ratio "$(m j1-text)" "$ready")"
echo "  fastest ($best) / (server COPY + VACUUM): $(ratio "$(m $best)" "$ready")"
peak=0
for k in gen j1-text j1-bin j2-bin j2-text; do
	r=$(echo "${rss[$k]}" | maxof)
	[ "$r" -gt "$peak" ] && peak=$r
done
echo "  peak RSS of scanbench-load:             $peak MB   [< 64 MB at SF 10]"
