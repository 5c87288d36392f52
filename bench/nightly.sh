#!/usr/bin/env bash
# Does a nightly check get an answer every night?  Consecutive default
# checks, CALL efficiency_check(TABLE), on tables of three sizes made from
# one lineitem (about 50 MB, 270 MB and the whole of it, 946 MB at SF 1),
# in one run; for each table, how many of the checks were judged (an
# alarm, a warning, ok or a first run: anything but "not judged"), with
# their median pairs and seconds, and why the others were not.  Each
# check restores the caches it found (restore => true), so the checks of
# one table start alike.
#
#   bench/nightly.sh [--scale SF] [--calls N] [--max-seconds S] [--here]
#
# Root, default SF 1 and 10 calls a table, each with efficiency_check's
# default budget (60 s).  --here uses the server PGHOST/PGPORT name, where
# scanbench and lineitem are already installed, instead of a throwaway
# cluster.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

scale=1
calls=10
max_seconds=60
here=0
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--calls) calls=$2; shift 2 ;;
		--max-seconds) max_seconds=$2; shift 2 ;;
		--here) here=1; shift ;;
		*) sb_die "usage: bench/nightly.sh [--scale SF] [--calls N] [--max-seconds S] [--here]" ;;
	esac
done
sb_bench_record

pgbin=$(sb_pgbin)
[ $here -eq 0 ] && sb_bench_lineitem "$scale" lineitem 54335
q() { "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }

# The smaller tables: the first rows of lineitem, about 50 and 270 MB.
rowbytes=$(q "SELECT pg_relation_size('lineitem') / greatest(count(*), 1) FROM lineitem")
for spec in "nightly_50:50" "nightly_270:270"; do
	name=${spec%%:*} mb=${spec##*:}
	q "DROP TABLE IF EXISTS $name" >/dev/null
	# Two statements: VACUUM cannot run in the one transaction psql -c
	# makes of a string of several.
	{ q "CREATE TABLE $name AS SELECT * FROM lineitem LIMIT $((mb * 1000000 / rowbytes))" &&
		q "VACUUM (FREEZE, ANALYZE) $name"; } >/dev/null || sb_die "could not make $name"
done
q "DELETE FROM scan_history WHERE relname IN ('nightly_50', 'nightly_270', 'lineitem')" >/dev/null

echo "bench/nightly.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(q 'SHOW server_version'), $(nproc) CPUs, $(uname -r)"
echo "$calls consecutive checks a table: CALL efficiency_check(TABLE, max_seconds => $max_seconds)"
echo
printf '%-12s %8s %6s %7s %11s %9s %11s  %s\n' table MB checks judged 'not judged' 'pairs p50' 'seconds p50' 'why not judged'
all_ok=1
failed=()
for t in nightly_50 nightly_270 lineitem; do
	for i in $(seq 1 "$calls"); do
		# An alarm (SB001) is an answer too; any other error is not, and
		# leaves no run behind: it is counted and shown below the table.
		err=$(PGOPTIONS="-c client_min_messages=error" "$pgbin/psql" -X -q -v VERBOSITY=sqlstate \
			-c "CALL efficiency_check('$t', max_seconds => $max_seconds)" 2>&1 >/dev/null)
		case $err in
		"" | *"ERROR:  SB001"*) ;;
		*) failed+=("$t check $i: $err") ;;
		esac
	done
	IFS='|' read -r mb n judged notj pairs secs why < <(q "
		SELECT round(pg_relation_size('$t') / 1e6), count(*),
			   count(*) FILTER (WHERE j.status <> 'not_judged'),
			   count(*) FILTER (WHERE j.status = 'not_judged'),
			   percentile_cont(0.5) WITHIN GROUP (ORDER BY h.pairs),
			   round(percentile_cont(0.5) WITHIN GROUP (ORDER BY h.elapsed_s)::numeric, 1),
			   coalesce(string_agg(DISTINCT array_to_string(h.verdict, ','), '; ')
						FILTER (WHERE j.status = 'not_judged'), '-')
		FROM scan_history h, scan_history_judge(h.id) j
		WHERE h.relname = '$t'")
	printf '%-12s %8s %6s %7s %11s %9s %11s  %s\n' "$t" "$mb" "$n" "$judged" "$notj" "$pairs" "$secs" "$why"
	[ "$n" -gt 0 ] && [ $((judged * 10)) -ge $((n * 9)) ] || all_ok=0
done
echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "checks that failed with an error (no run recorded):"
	printf '  %s\n' "${failed[@]}"
	all_ok=0
fi
if [ $all_ok -eq 1 ]; then
	echo "every table: at least 9 in 10 checks judged"
else
	echo "some table: fewer than 9 in 10 checks judged"
fi
[ $all_ok -eq 1 ]
