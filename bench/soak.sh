#!/usr/bin/env bash
# Everything at once for a few minutes on a throwaway cluster, then checks
# that nothing was lost, leaked or left half-done.
#
#   bench/soak.sh [SECONDS]        default 180
#
# While it runs:
#   - pgbench writers: one on pgbench_accounts, which is also measured (each
#     transaction moves a balance and logs the move), one on a table of its
#     own; both rate-limited, so the machine is busy, not saturated;
#   - two sessions calling every scanbench function in a loop, on the
#     written table, a partitioned one, a still one and the loader's
#     target, each call under a random statement_timeout;
#   - a canceller firing pg_cancel_backend at those two sessions at random;
#   - a loader in a loop (scanbench-load --drop, 1 or 2 jobs), sent SIGINT
#     or SIGTERM at a random moment of its run, or left to finish.
# At the end it prints, and fails (exit 1) unless each is as it should be:
#   - verify_heapam (amcheck) findings over every table, TOAST table and
#     materialized view, and bt_index_check errors over every index: 0;
#   - committed pgbench transactions missing (or extra) in the tables: 0,
#     and the balances add up to the logged moves;
#   - loader target left partial, or staging tables left over: 0;
#   - the two calling backends' open descriptors (other than relation
#     files) and private memory, after a first round and at the end (flat:
#     descriptors equal, memory within 10 MB);
#   - PANIC, TRAP and crash lines, and resource leak warnings, in the
#     server log: 0.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

DURATION=${1:-180}
case $DURATION in
	'' | *[!0-9]*) sb_die "usage: bench/soak.sh [SECONDS]" ;;
esac
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root (it installs scanbench and runs the cluster as postgres)"

sb_install_packages
sb_build_install
work=$(mktemp -d /tmp/scanbench-soak.XXXXXX)
sb_on_exit "rm -rf '$work'"
chown postgres: "$work"
sb_start_cluster "$work/cluster" "$(sb_free_port 54341)" \
	"log_min_messages = warning" "max_connections = 40"
pgbin=$(sb_pgbin)
loader="$pgbin/scanbench-load"
[ -x "$loader" ] || loader="$SB_BUILD/bin/scanbench-load/scanbench-load"
log=$work/cluster/server.log

q() { sb_as_pg "$pgbin/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

sb_log "setting up (pgbench scale 2, a partitioned table, lineitems of scale 0.05 and 0.2)"
sb_as_pg "$pgbin/pgbench" -i -q -s 2 >/dev/null 2>&1 || sb_die "pgbench -i failed"
q <<'SQL' || sb_die "set-up failed"
CREATE EXTENSION scanbench;
CREATE EXTENSION amcheck;
CREATE TABLE soak_log (id bigserial PRIMARY KEY, aid integer, delta integer);
CREATE TABLE soak_other (id bigserial PRIMARY KEY, client integer, note text);
CREATE TABLE soak_part (id integer, pad text) PARTITION BY RANGE (id);
CREATE TABLE soak_part_1 PARTITION OF soak_part FOR VALUES FROM (0) TO (50000);
CREATE TABLE soak_part_2 PARTITION OF soak_part FOR VALUES FROM (50000) TO (100000);
INSERT INTO soak_part SELECT g, md5(g::text) FROM generate_series(0, 99999) g;
VACUUM (FREEZE, ANALYZE) soak_part;
SQL
sb_as_pg "$loader" -q -s 0.05 -t soak_still || sb_die "scanbench-load failed"
sb_as_pg "$loader" -q -s 0.2 -t soak_li || sb_die "scanbench-load failed"
li_rows=$(q -c "SELECT count(*) FROM soak_li")
li_sum=$(q -c "SELECT md5(string_agg(l_comment, '' ORDER BY l_orderkey, l_linenumber)) FROM soak_li")

cat >"$work/accounts.sql" <<'SQL'
\set aid random(1, 200000)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
INSERT INTO soak_log (aid, delta) VALUES (:aid, :delta);
END;
SQL
cat >"$work/other.sql" <<'SQL'
INSERT INTO soak_other (client, note) VALUES (:client_id, repeat('x', 200));
SQL
chown postgres: "$work"/*.sql

# The calls, one is picked at random each time; @T is a measured table.
calls=(
	"SELECT * FROM raw_read('@T', cache => 'cold')"
	"SELECT * FROM raw_read('@T', cache => 'warm')"
	"SELECT * FROM raw_read('@T', 'direct', 1048576)"
	"SELECT * FROM raw_read_segments('@T', cache => 'asis')"
	"SELECT * FROM scan_rate('@T', 'cold')"
	"SELECT * FROM scan_rate('@T', 'warm', 'count(1)', 2)"
	"SELECT * FROM scan_efficiency('@T', 'cold', max_seconds => 3)"
	"SELECT * FROM scan_efficiency('@T', 'warm', runs => 2, method => 'whole', max_seconds => 3)"
	"SELECT * FROM scan_breakdown('@T')"
	"SELECT * FROM scan_shapes('@T')"
	"SELECT * FROM scan_sweep('@T', 'asis', 'effective_io_concurrency', ARRAY['1', '16'])"
	"SELECT * FROM storage_info('@T'::regclass)"
	"SELECT * FROM storage_info_tablespace('pg_default')"
	"SELECT * FROM storage_profile('pg_default', 8, 8192, 200)"
	"SELECT * FROM random_read('@T', reads => 500)"
	"CALL efficiency_check('@T', runs => 1)"
	"SELECT * FROM scan_trend"
	"SELECT scanbench_metrics()"
	"SELECT length(scan_history_svg())"
	"SELECT scan_history_prune('400 days')"
)
tables=(pgbench_accounts soak_part soak_still soak_li)

# caller N: one long-lived session running random calls until the end;
# reports its backend's pid, then its descriptors and RSS after the first
# round and at the end.
# Descriptors other than relation files and WAL segments (which the server
# keeps open by design: its file cache, up to max_files_per_process, and
# the WAL segment last written): sockets, pipes,
# scratch files, /proc and /sys files.  Private memory: RssAnon, since
# VmRSS grows with every page of shared_buffers the backend touches.
backend_stat()
{
	local pid=$1 data
	data=$(readlink -f "$work/cluster/data")
	for f in /proc/"$pid"/fd/*; do readlink "$f"; done 2>/dev/null |
		grep -vE "^$data/((base|global|pg_tblspc)/[0-9]|pg_wal/)" | sed -E 's/[0-9]+/N/g' | sort >"$2.fds"
	printf '%s %s' "$(wc -l <"$2.fds")" \
		"$(awk '/^RssAnon/ {print int($2 / 1024)}' "/proc/$pid/status" 2>/dev/null)" >"$2"
}
caller()
{
	local n=$1 end=$2 pid i=0 line
	coproc PSQL { sb_as_pg "$pgbin/psql" -X -q -At -v ON_ERROR_STOP=0 \
		-c "SET application_name = 'soak_caller'" -f - 2>>"$work/caller$n.err"; }
	echo "SELECT pg_backend_pid();" >&"${PSQL[1]}"
	read -r pid <&"${PSQL[0]}"
	echo "$pid" >"$work/caller$n.pid"
	while [ "$(date +%s)" -lt "$end" ]; do
		local call=${calls[RANDOM % ${#calls[@]}]}
		call=${call//@T/${tables[RANDOM % ${#tables[@]}]}}
		# The first round runs every call once, untimed, so the session's
		# caches are warm before the first descriptor and RSS reading.
		if [ $i -lt ${#calls[@]} ]; then
			call=${calls[$i]}
			call=${call//@T/soak_still}
			echo "SET statement_timeout = 0;" >&"${PSQL[1]}"
		else
			echo "SET statement_timeout = $((RANDOM % 3000 + 200));" >&"${PSQL[1]}"
		fi
		printf '%s;\n\\echo soak-done\n' "$call" >&"${PSQL[1]}"
		while read -r line <&"${PSQL[0]}"; do
			[ "$line" = soak-done ] && break
		done
		i=$((i + 1))
		[ $i -eq ${#calls[@]} ] && backend_stat "$pid" "$work/caller$n.first"
		echo $i >"$work/caller$n.calls"
	done
	backend_stat "$pid" "$work/caller$n.last"
	echo '\q' >&"${PSQL[1]}"
	wait "$PSQL_PID" 2>/dev/null
}

# The canceller: pg_cancel_backend at a random caller every 0.2-2 s.
canceller()
{
	local end=$1 n=0
	while [ "$(date +%s)" -lt "$end" ]; do
		sleep "0.$((RANDOM % 9 + 1))$((RANDOM % 10))"
		[ $((RANDOM % 3)) -eq 0 ] && sleep 1
		# a random moment inside a call, not always its start
		q -c "SELECT count(pg_cancel_backend(pid)) FROM (SELECT pid FROM pg_stat_activity
			WHERE application_name = 'soak_caller' AND state = 'active'
			ORDER BY random() LIMIT 1) s" >/dev/null 2>&1 && n=$((n + 1))
	done
	echo $n >"$work/cancels"
}

# The loader loop: --drop into soak_li, interrupted at a random moment, and
# after each run soak_li is either the whole table or absent, never partial.
loader_loop()
{
	local end=$1 runs=0 int=0 term=0 done_ok=0 partial=0 other=0 sent=0 rows
	while [ "$(date +%s)" -lt "$end" ]; do
		local jobs=$((RANDOM % 2 + 1)) sig
		# runuser itself, not a subshell, so that its child is the loader
		runuser -u postgres -- "$loader" -q -s 0.2 -j $jobs -t soak_li --drop \
			2>>"$work/loader.err" 8>&- &
		local lpid=$!
		case $((RANDOM % 4)) in
			0) sig= ;;
			1) sig=INT ;;
			*) sig=$([ $((RANDOM % 2)) -eq 0 ] && echo INT || echo TERM) ;;
		esac
		if [ -n "$sig" ]; then
			sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
			# to the loader itself, not to runuser, its parent
			pkill -"$sig" -P "$lpid" -x scanbench-load && sent=$((sent + 1))
		fi
		wait "$lpid"
		case $? in
			0) done_ok=$((done_ok + 1)) ;;
			130) int=$((int + 1)) ;;
			143) term=$((term + 1)) ;;
			*) other=$((other + 1)) ;;
		esac
		runs=$((runs + 1))
		rows=$(q -c "SELECT CASE WHEN to_regclass('soak_li') IS NULL THEN -1
			ELSE (SELECT count(*) FROM soak_li) END" 2>/dev/null)
		if [ "$rows" != "$li_rows" ] && [ "$rows" != -1 ]; then
			partial=$((partial + 1))
			sb_log "soak_li has $rows rows after a run, not $li_rows"
		fi
	done
	echo "$runs $done_ok $int $term $other $partial $sent" >"$work/loader"
}

sb_log "soaking for $DURATION s"
start=$(date +%s)
end=$((start + DURATION))
sb_as_pg "$pgbin/pgbench" -n -c 1 -R 100 -T "$DURATION" -f "$work/accounts.sql" \
	>"$work/pgbench_accounts.out" 2>&1 &
pgb1=$!
sb_as_pg "$pgbin/pgbench" -n -c 1 -R 100 -T "$DURATION" -f "$work/other.sql" \
	>"$work/pgbench_other.out" 2>&1 &
pgb2=$!
caller 1 "$end" &
c1=$!
caller 2 "$end" &
c2=$!
canceller "$end" &
cn=$!
loader_loop "$end" &
ll=$!
wait $pgb1 $pgb2 $c1 $c2 $cn $ll

sb_log "checking"
processed() { sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$1"; }
acc_tx=$(processed "$work/pgbench_accounts.out")
other_tx=$(processed "$work/pgbench_other.out")
[ -n "$acc_tx" ] && [ -n "$other_tx" ] || { cat "$work"/pgbench_*.out; sb_die "pgbench did not report"; }
acc_missing=$((acc_tx - $(q -c "SELECT count(*) FROM soak_log")))
other_missing=$((other_tx - $(q -c "SELECT count(*) FROM soak_other")))
balance_off=$(q -c "SELECT (SELECT sum(abalance) FROM pgbench_accounts) - (SELECT coalesce(sum(delta), 0) FROM soak_log)")
heap_findings=$(q -c "SELECT count(*) FROM pg_class c, LATERAL verify_heapam(c.oid) v
	WHERE c.relkind IN ('r', 'm', 't') AND c.relpersistence <> 't'")
heap_relations=$(q -c "SELECT count(*) FROM pg_class WHERE relkind IN ('r', 'm', 't') AND relpersistence <> 't'")
index_errors=0
index_count=0
for idx in $(q -c "SELECT c.oid FROM pg_class c JOIN pg_am a ON a.oid = c.relam
		WHERE c.relkind = 'i' AND a.amname = 'btree' AND c.relpersistence <> 't'"); do
	index_count=$((index_count + 1))
	q -c "SELECT bt_index_check($idx, true)" >/dev/null 2>&1 || index_errors=$((index_errors + 1))
done
read -r l_runs l_ok l_int l_term l_other l_partial l_sent <"$work/loader"
staging_left=$(q -c "SELECT count(*) FROM pg_class WHERE relname LIKE 'scanbench\_load\_%'")
li_now=$(q -c "SELECT CASE WHEN to_regclass('soak_li') IS NULL THEN 'absent'
	WHEN (SELECT md5(string_agg(l_comment, '' ORDER BY l_orderkey, l_linenumber)) FROM soak_li) = '$li_sum'
	THEN 'complete' ELSE 'partial' END")
# A backend that exits with a code other than 0 or 1 is a crash to the
# postmaster, which logs it and restarts everything.
crashes=$(grep -cE 'PANIC|TRAP|terminated by signal|exited with exit code [2-9]|all server processes terminated' "$log")
# What the server says of files or resources a call did not give back.
leaks=$(grep -cE 'not closed at end-of-transaction|leak' "$log")

echo
echo "soak: $DURATION s, PostgreSQL $(sb_pgversion)"
printf '  %-44s %s\n' \
	"calls (session 1, session 2)" "$(cat "$work/caller1.calls") $(cat "$work/caller2.calls")" \
	"cancels fired" "$(cat "$work/cancels")" \
	"call errors (timeouts, cancels, refusals)" "$(cat "$work"/caller*.err | grep -c '^ERROR\|ERROR:')" \
	"pgbench transactions committed (acc, other)" "$acc_tx $other_tx" \
	"  of them missing from the tables" "$acc_missing $other_missing" \
	"  balance minus logged moves" "$balance_off" \
	"verify_heapam findings over $heap_relations relations" "$heap_findings" \
	"bt_index_check errors over $index_count indexes" "$index_errors" \
	"loader runs, signals sent" "$l_runs, $l_sent" \
	"  exits: 0, 130 (SIGINT), 143 (SIGTERM), other" "$l_ok, $l_int, $l_term, $l_other" \
	"  target left partial after a run" "$l_partial" \
	"  target at the end" "$li_now" \
	"  staging tables left" "$staging_left"
for n in 1 2; do
	read -r fd0 rss0 <"$work/caller$n.first"
	read -r fd1 rss1 <"$work/caller$n.last"
	printf '  %-44s %s\n' "session $n descriptors, first round -> end" "$fd0 -> $fd1" \
		"session $n RSS MB, first round -> end" "$rss0 -> $rss1"
	[ "$fd0" = "$fd1" ] || {
		flat_fail=1
		diff "$work/caller$n.first.fds" "$work/caller$n.last.fds" | grep '^[<>]' | sed 's/^/    /'
	}
	[ $((rss1 - rss0)) -le 10 ] || flat_fail=1
done
printf '  %-44s %s\n' "PANIC/TRAP/crash lines in the server log" "$crashes" \
	"resource leak warnings in the server log" "$leaks"
echo "  call errors, most frequent first:"
cat "$work"/caller*.err | grep -E '^(psql:.*)?ERROR:' | sed 's/^psql:[^E]*ERROR: */ERROR: /' |
	sed -E 's/[0-9]+/N/g' | sort | uniq -c | sort -rn | head -n 8 | sed 's/^/    /'

fail=0
[ "$acc_missing" = 0 ] && [ "$other_missing" = 0 ] && [ "$balance_off" = 0 ] || fail=1
[ "$heap_findings" = 0 ] && [ "$index_errors" = 0 ] || fail=1
[ "$l_partial" = 0 ] && [ "$staging_left" = 0 ] && [ "$li_now" != partial ] || fail=1
[ -z "${flat_fail:-}" ] || fail=1
[ "$crashes" = 0 ] && [ "$leaks" = 0 ] || fail=1
if [ $fail -eq 0 ]; then
	echo "soak: all checks passed"
else
	echo "soak: FAILED"
	tail -n 20 "$work/loader.err" 2>/dev/null
fi
exit $fail
