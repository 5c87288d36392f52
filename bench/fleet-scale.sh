#!/usr/bin/env bash
# What a large fleet costs its central history: a synthetic year of runs,
# then one night's central work, timed.
#
#   bench/fleet-scale.sh [--servers N] [--relations N] [--days N]
#                        [--random-state N] [--host DIR] [--port PORT]
#                        [--dbname DB] [--reuse] [--small] [--citus]
#
# Defaults: 10,000 servers, 10 relations each, 365 days: 36.5 million runs
# (one a night per server and relation), then a night of 100,000.
#
# The year: bench/fleet-scale.sql makes every run from the random state
# (the same options give the same rows) and psql feeds them to COPY, as
# scanbench-fleet records its runs.  The history's indexes other than its
# key are dropped for the load and built again after it, as a restore
# would; VACUUM ANALYZE follows.
#
# The night, each step timed as a whole (wall clock, connection included):
#   - the night recorded: the night's runs in one COPY, scanbench-fleet's
#     columns in its order (bin/scanbench-fleet/central_history.c);
#   - each run against its own history: scanbench-fleet's query of the
#     median of the server's last 10 judged runs of the relation
#     (history_previous), one per run, run in the server;
#   - each run against its cohort: scanbench-fleet's rule (the median and
#     3 MADs of the cohort's scan_pct, at least 5 points; the same on the
#     logarithm of read_mb_s, at least a factor of 2), each cohort's bands
#     from scanbench_internal.judge_cohort (the library's src/cohortrule.c,
#     which the client compiles too) over the night's runs;
#   - the night judged: scan_history_judge_runs over the night's runs, in
#     one statement (the median of each server's 30 days, what changed);
#   - each run judged alone: scan_history_judge(run) once a run, as
#     efficiency_check judges a run, for comparison (not part of the
#     night's central work), and how many of its answers differ from the
#     set's (none should);
#   - the metrics scrape: scanbench_metrics() over the whole history;
#   - one server's trend: SELECT * FROM scan_trend WHERE server = ..., the
#     first call and the median of five.
# For each step: its seconds, runs per second, and the memory of the server
# process that ran it (its peak resident size, shared buffers it touched
# included, and its private memory at the end), read from /proc: this
# needs a superuser and the server on this machine.
#
# Without --port, a throwaway cluster of this machine is made (in /tmp, as
# the postgres user) and removed at the end: the extension must be
# installed for the server of SB_PGBIN (or of PostgreSQL SB_PGMAJOR,
# default 15).  With --port (and --host), the server there is used: the
# database --dbname (default scanbench_fleet_scale) is made again and left
# there; --reuse keeps its year when it was made with the same options
# (only the night is written again).  --small is --servers 20 --relations
# 3 --days 30, for a test.
#
# --citus: the same on a local Citus cluster made for the run (a
# coordinator and two workers, Citus built for the server, see
# tools/citus-build.sh), the history distributed by server
# (scan_history_distribute), the night's runs in a table distributed
# beside it: the year written, the night timed; then a third worker
# added and the shards rebalanced onto it (timed), and the same night
# timed again, with each step's ratio to the first.  The memory is the
# coordinator's backend's (the workers' is not read).  Each step's CPU
# seconds are read per node from /proc (a node's postmaster and every
# process it started), with the coordinator's share and the spread of the
# workers'; from the night's, its time on N machines is modelled
# (coordinator + workers / N), since the nodes here share this machine's
# CPUs and the wall clock cannot show scale-out.
#
# A year is about 450 bytes a run on disk with its indexes: 16 GB at the
# defaults.  Give the server a shared_buffers of a few GB, and
# wal_level = minimal for a fast load.
set -euo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap sb_cleanup EXIT

servers=10000
relations=10
days=365
state=1
host=${PGHOST:-}
port=
dbname=scanbench_fleet_scale
reuse=0
citus=0

usage()
{
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}

count()
{
	[[ $2 =~ ^[1-9][0-9]*$ ]] || sb_die "$1 must be a positive whole number, not \"$2\""
	echo "$2"
}

while [ $# -gt 0 ]; do
	case $1 in
		--servers) servers=$(count "$1" "${2:-}"); shift ;;
		--relations) relations=$(count "$1" "${2:-}"); shift ;;
		--days) days=$(count "$1" "${2:-}"); shift ;;
		--random-state) state=$(count "$1" "${2:-}"); shift ;;
		--host) host=${2:-}; shift ;;
		--port) port=$(count "$1" "${2:-}"); shift ;;
		--dbname) dbname=${2:-}; shift ;;
		--reuse) reuse=1 ;;
		--small) servers=20 relations=3 days=30 ;;
		--citus) citus=1 ;;
		--help | -h) usage 0 ;;
		*) echo "fleet-scale.sh: unknown option $1" >&2; usage 2 >&2 ;;
	esac
	shift
done
sb_bench_record
[ "$days" -ge 2 ] || sb_die "--days must be at least 2"

if [ "$citus" = 1 ]; then
	[ -z "$port" ] || sb_die "--citus makes a cluster of its own: leave out --port"
	[ "$reuse" = 0 ] || sb_die "--citus makes a cluster of its own: --reuse has nothing to reuse"
	. "$SB_TOP/tools/citus-common.sh"
	work=$(mktemp -d /tmp/scanbench-fleet-scale.XXXXXX)
	chmod 755 "$work"
	sb_on_exit "rm -rf '$work'"
	port=$(sb_free_port 55742)
	sb_citus_start "$(sb_pgbin)" "$work/cluster" "$port" 1
	host=localhost
	# Citus is created per database: the cluster's own is used.
	dbname=postgres
	psql() { sb_as_pg "$(sb_pgbin)/psql" "$@"; }
elif [ -z "$port" ]; then
	work=$(mktemp -d /tmp/scanbench-fleet-scale.XXXXXX)
	sb_on_exit "rm -rf '$work'"
	sb_start_cluster "$work" "$(sb_free_port 55742)" \
		"shared_buffers = 2GB" "maintenance_work_mem = 1GB" \
		"wal_level = minimal" "max_wal_senders = 0"
	host=$PGHOST
	port=$PGPORT
	psql() { sb_as_pg "$(sb_pgbin)/psql" "$@"; }
else
	psql() { "$(sb_pgbin)/psql" "$@"; }
fi
export PGHOST=$host PGPORT=$port
tmp=$(mktemp -d /tmp/scanbench-fleet-scale-files.XXXXXX)
sb_on_exit "rm -rf '$tmp'"
chmod 755 "$tmp"

q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$dbname" "$@"; }
made="servers $servers relations $relations days $days state $state"

# The fleet's columns, in the order scanbench-fleet's COPY names them.
columns=$(sed -n '/^const char \*const history_columns\[\]/,/^};/p' \
	"$SB_TOP/bin/scanbench-fleet/measure.c" | grep -o '"[a-z_0-9]*"' | tr -d '"' | paste -sd, -)
[ -n "$columns" ] || sb_die "could not read scanbench-fleet's columns"

gen()
{
	psql -X -q -v ON_ERROR_STOP=1 -d "$dbname" -v servers="$servers" -v relations="$relations" \
		-v days="$days" -v state="$state" -v day_from="$1" -v day_to="$2" \
		-f "$SB_TOP/bench/fleet-scale.sql"
}

# The server process's memory, after a step in the same session: peak
# resident size and private memory, in MB ("?" where /proc cannot be read).
mem_sql="SELECT coalesce((SELECT string_agg(round(substring(l FROM '[0-9]+')::numeric / 1024)::text, ' ' ORDER BY l ~ 'RssAnon')
		 FROM regexp_split_to_table(pg_read_file('/proc/self/status'), E'\n') AS l
		 WHERE l ~ '^(VmHWM|RssAnon):'), '? ?')"

table_rows=()
row()
{
	# step, runs, seconds, memory "peak private", and on Citus each node's
	# CPU seconds in the step ("n0 n1 n2 n3"; default the last step's)
	table_rows+=("$1|$2|$3|$4|${5-${step_cpu:-}}")
}

# On Citus, the CPU seconds each node has used so far, "n0 n1 n2 n3" (the
# coordinator, then the workers, the spare one last): its postmaster's,
# its live processes' and those that ended (reaped by the postmaster,
# counted in its cutime and cstime), from /proc.  Each node's processes
# are the postmaster and its children alone.
node_cpu()
{
	local i pm hz
	hz=$(getconf CLK_TCK)
	for i in 0 1 2 3; do
		pm=$(head -n 1 "$work/cluster/n$i/postmaster.pid" 2>/dev/null) || { printf '0 '; continue; }
		{ echo "$pm"; pgrep -P "$pm"; } | while read -r p; do
			# the fields after "pid (comm) ": utime is the 12th
			sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | awk '{ print $12 + $13 + $14 + $15 }'
		done | awk -v hz="$hz" '{ t += $1 } END { printf "%.2f ", t / hz }'
	done
	echo
}

# One step: its SQL through one session, timed; the last output line of the
# session is the memory.  Sets step_out to the step's own output.
step()
{
	local t0 t1 out cpu0
	[ "$citus" = 1 ] && cpu0=$(node_cpu)
	t0=$(sb_now)
	out=$(q "$@" -c "$mem_sql" 2>&1) || { echo "$out" >&2; sb_die "a step failed"; }
	t1=$(sb_now)
	step_cpu=
	[ "$citus" = 1 ] && step_cpu=$(paste <(tr ' ' '\n' <<<"$cpu0") <(node_cpu | tr ' ' '\n') |
		awk 'NF == 2 { printf "%.2f ", $2 - $1 }')
	step_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	step_mem=$(tail -n 1 <<<"$out")
	step_out=$(sed '$d' <<<"$out")
}

# ---- the year ----
have=
if [ "$reuse" = 1 ]; then
	have=$(q -c "SELECT made FROM fleet_scale_made" 2>/dev/null || true)
fi
if [ "$have" = "$made" ]; then
	echo "The year: kept from an earlier run ($made)."
	q -c "DELETE FROM scan_history WHERE measured_at >= current_date" \
		-c "DROP TABLE IF EXISTS fleet_scale_night, fleet_scale_judged, fleet_scale_judged_alone"
else
	if [ "$citus" = 1 ]; then
		q -c "CREATE EXTENSION scanbench" -c "SELECT scan_history_distribute()" \
			-c "CREATE TABLE fleet_scale_made (made text)" >/dev/null
	else
		psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $dbname" \
			-c "CREATE DATABASE $dbname"
		q -c "CREATE EXTENSION scanbench" \
			-c "CREATE TABLE fleet_scale_made (made text)"
	fi
	# The year's months (and the night's), made as the nightly job makes
	# them, before the year is written into them.
	q -c "SELECT scan_history_partition(current_date - $days)" >/dev/null
	# The months' indexes other than their keys, to build again after the
	# load.
	parts="SELECT h.inhrelid FROM pg_inherits h WHERE h.inhparent = 'scan_history'::regclass"
	q -c "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
		  WHERE i.indrelid IN ($parts) AND NOT i.indisprimary ORDER BY 1" >"$tmp/indexes.sql"
	sed -i 's/$/;/' "$tmp/indexes.sql"
	q -c "SELECT 'DROP INDEX ' || i.indexrelid::regclass || ';' FROM pg_index i
		  WHERE i.indrelid IN ($parts) AND NOT i.indisprimary" | q
	# The series (scan_history_series) are made after the load too, as
	# scan_history_series_rebuild makes them: kept run by run, a year's
	# COPY would hold its 36 million runs for the trigger at its end.
	# Where they are not kept (Citus) there is no trigger to stop.
	keep_off=() keep_on=()
	if [ "$(q -c "SELECT scanbench_internal.scan_history_series_kept()")" = t ]; then
		keep_off=(-c "ALTER TABLE scan_history DISABLE TRIGGER scan_history_series_insert")
		keep_on=(-c "ALTER TABLE scan_history ENABLE TRIGGER scan_history_series_insert")
	fi
	t0=$(sb_now)
	# In the transaction that empties the table, so that wal_level = minimal
	# skips writing the rows to the WAL.
	gen 0 $((days - 1)) | q -c "BEGIN" -c "TRUNCATE scan_history" "${keep_off[@]}" \
		-c "COPY scan_history ($columns) FROM STDIN" "${keep_on[@]}" -c "COMMIT"
	t1=$(sb_now)
	n=$((servers * relations * days))
	row "the year written (COPY)" "$n" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" "- -"
	step -c "SET maintenance_work_mem = '1GB'" -f "$tmp/indexes.sql"
	row "its indexes built again" "$n" "$step_s" "$step_mem"
	step -c "VACUUM ANALYZE scan_history"
	row "VACUUM ANALYZE" "$n" "$step_s" "$step_mem"
	if [ ${#keep_on[@]} -gt 0 ]; then
		step -c "SELECT scan_history_series_rebuild()"
		row "the series made (scan_history_series_rebuild)" "$n" "$step_s" "$step_mem"
	fi
	q -c "INSERT INTO fleet_scale_made VALUES ('$made')"
fi

# ---- the night ----
nightly=$((servers * relations))
gen "$days" "$days" >"$tmp/night.tsv"
chmod 644 "$tmp/night.tsv"
size_fn=pg_total_relation_size
[ "$citus" = 1 ] && size_fn=citus_total_relation_size

# One night's steps, each a row of the table; the sanity of the results.
the_night()
{
	# The night's runs, kept apart as scanbench-fleet holds them in memory
	# before it records them: its own history and cohort are read first.
	# On Citus, distributed beside the history (by server, in the same shards),
	# so that each run's own history is read in the shard that holds both.
	q -c "DROP TABLE IF EXISTS fleet_scale_night, fleet_scale_judged, fleet_scale_judged_alone" \
		-c "CREATE UNLOGGED TABLE fleet_scale_night (LIKE scan_history INCLUDING DEFAULTS)" \
		-c "ALTER TABLE fleet_scale_night DROP COLUMN id" >/dev/null
	[ "$citus" = 1 ] &&
		q -c "SELECT create_distributed_table('fleet_scale_night', 'server', colocate_with => 'scan_history')" >/dev/null
	q -c "\\copy fleet_scale_night ($columns) FROM '$tmp/night.tsv'" \
		-c "ANALYZE fleet_scale_night"
	hist_id=$(q -c "SELECT coalesce(max(id), 0) FROM scan_history")

	# scanbench-fleet asks it in one query a server, each too small for
	# JIT; as one statement over the night, its estimate is far above
	# jit_above_cost and compiling it took longer than the reads (10.9 s
	# against 2.4 at 10,000 runs, PostgreSQL 15), so it runs without.
	step -c "SET jit = off" -c "SELECT count(*), count(p.median) FROM fleet_scale_night n, LATERAL (
		SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY h.scan_pct)::numeric, 1) AS median, count(*) AS runs
		FROM (SELECT h.scan_pct FROM scan_history h
			  WHERE h.server = n.server AND h.relschema = n.relschema AND h.relname = n.relname AND h.cache = n.cache
				AND h.reason IS NULL AND h.scan_pct IS NOT NULL
				AND scanbench_internal.scan_history_marks(h.verdict) = coalesce(scanbench_internal.scan_history_marks(n.verdict), '')
			  ORDER BY h.measured_at DESC LIMIT 10) h) p
		WHERE n.reason IS NULL"
	row "each run against its own history" "$nightly" "$step_s" "$step_mem"
	own=$step_s
	own_cpu=$step_cpu

	step -c "WITH j AS (
		SELECT n.*, n.reason IS NULL AND n.scan_pct IS NOT NULL
					AND scanbench_internal.scan_history_marks(n.verdict) IS NOT NULL AS judged,
			   n.reason IS NULL AND n.read_mb_s > 0
					AND coalesce((SELECT bool_and(k.reads_judged) AND count(*) = cardinality(n.verdict)
								  FROM scan_verdict_marks() k WHERE k.mark = ANY (n.verdict)), false) AS reads_judged
		FROM fleet_scale_night n
	), c AS (
		-- Each cohort's bands, by the library's rule (scanbench-fleet's own).
		SELECT a.relname, a.tags, p.n, p.centre, p.spread, r.n AS rn, r.centre AS rcentre, r.spread AS rspread
		FROM (SELECT relname, tags,
					 coalesce(array_agg(scan_pct) FILTER (WHERE judged), '{}') AS pcts,
					 coalesce(array_agg(ln(read_mb_s)) FILTER (WHERE reads_judged), '{}') AS lreads
			  FROM j GROUP BY relname, tags) a,
			 scanbench_internal.judge_cohort(a.pcts) p,
			 scanbench_internal.judge_cohort(a.lreads, min_spread => ln(2)) r
	)
	SELECT count(*) FILTER (WHERE j.reason IS NULL),
		   count(*) FILTER (WHERE (j.judged AND (coalesce(j.scan_pct_hi, j.scan_pct) < c.centre - c.spread
												 OR coalesce(j.scan_pct_lo, j.scan_pct) > c.centre + c.spread))
							   OR (j.reads_judged AND abs(ln(j.read_mb_s) - c.rcentre) > c.rspread)),
		   count(DISTINCT j.server) FILTER (WHERE j.reads_judged AND abs(ln(j.read_mb_s) - c.rcentre) > c.rspread)
	FROM j JOIN c ON c.relname = j.relname AND c.tags = j.tags"
	row "each run against its cohort" "$nightly" "$step_s" "$step_mem"
	cohort=$step_s
	cohort_cpu=$step_cpu
	IFS='|' read -r c_measured c_flagged c_slow <<<"$step_out"

	# Where the series are kept, the night's COPY keeps them too; the same
	# COPY without them, rolled back, first, to show what they cost.
	kept=$(q -c "SELECT scanbench_internal.scan_history_series_kept()")
	if [ "$kept" = t ]; then
		step -c "BEGIN" -c "ALTER TABLE scan_history DISABLE TRIGGER scan_history_series_insert" \
			-c "\\copy scan_history ($columns) FROM '$tmp/night.tsv'" -c "ROLLBACK"
		row "the night recorded, no series kept" "$nightly" "$step_s" "$step_mem"
	fi
	step -c "\\copy scan_history ($columns) FROM '$tmp/night.tsv'"
	row "the night recorded (COPY)" "$nightly" "$step_s" "$step_mem"
	record=$step_s
	record_cpu=$step_cpu

	# The night judged as a set: every run from the first of the night, in
	# one statement (on Citus, each worker judges its own servers' runs).
	step -c "CREATE UNLOGGED TABLE fleet_scale_judged AS
		SELECT j.run AS id, j.server, j.status, j.message, j.detail, j.hint, j.median_pct, j.drop_pct, j.earlier_runs
		FROM scan_history_judge_runs(first_run => $((hist_id + 1))) j" \
		-c "SELECT string_agg(status || ' ' || n, ', ' ORDER BY status) FROM
			(SELECT status, count(*) AS n FROM fleet_scale_judged GROUP BY status) s"
	row "the night judged (scan_history_judge_runs)" "$nightly" "$step_s" "$step_mem"
	judge=$step_s
	judge_cpu=$step_cpu
	judged=$step_out
	night=$(awk -v a="$record" -v b="$own" -v c="$cohort" -v d="$judge" 'BEGIN { printf "%.2f", a + b + c + d }')
	night_cpu=
	if [ "$citus" = 1 ]; then
		night_cpu=$(printf '%s\n' "$own_cpu" "$cohort_cpu" "$record_cpu" "$judge_cpu" |
			awk '{ for (i = 1; i <= NF; i++) t[i] += $i; if (NF > n) n = NF }
				 END { for (i = 1; i <= n; i++) printf "%.2f ", t[i] }')
	fi
	row "a night's central work (the four above)" "$nightly" "$night" "- -" "$night_cpu"

	# The same runs judged one call a run, as before the set judge: the
	# runs' numbers and servers first, then each judged, given its server
	# (read from its shard alone): a judgement called inside a query on a
	# distributed history would run on a node.
	step -c "CREATE UNLOGGED TABLE fleet_scale_judged_alone AS
		WITH r AS MATERIALIZED (SELECT h.id, h.server FROM scan_history h WHERE h.id > $hist_id)
		SELECT r.id, r.server, j.* FROM r, LATERAL scan_history_judge(r.id, server => r.server) j"
	row "each run judged alone (scan_history_judge)" "$nightly" "$step_s" "$step_mem"
	alone=$step_s
	differ=$(q -c "SELECT count(*) FROM fleet_scale_judged_alone a FULL JOIN fleet_scale_judged s USING (id)
		WHERE (a.status, a.message, a.detail, a.hint, a.median_pct, a.drop_pct, a.earlier_runs)
			  IS DISTINCT FROM (s.status, s.message, s.detail, s.hint, s.median_pct, s.drop_pct, s.earlier_runs)")

	# The samples, and the text's md5 (the same history scraped another
	# way, or after a rebalance, gives the same text).
	scrape="SELECT (SELECT count(*) FROM regexp_split_to_table(m.t, E'\n') l WHERE l !~ '^#') || ' samples (md5 ' || md5(m.t) || ')'
		FROM scanbench_metrics() AS m(t)"
	step -c "$scrape"
	row "the metrics scrape (scanbench_metrics)" "$((servers * relations * (days + 1)))" "$step_s" "$step_mem"
	samples=$step_out
	# The same scrape reading the history, as where the series are not
	# kept: a trigger disabled for it, rolled back.
	if [ "$kept" = t ]; then
		step -c "BEGIN" -c "ALTER TABLE scan_history DISABLE TRIGGER scan_history_series_insert" \
			-c "$scrape" -c "ROLLBACK"
		row "the metrics scrape, from the history" "$((servers * relations * (days + 1)))" "$step_s" "$step_mem"
		[ "$step_out" = "$samples" ] || sb_die "the scrape from the history gives $step_out, from the series $samples"
	fi

	# One server's trend: timed in the session (\timing), without connecting.
	one=$(printf 'db%05d' $(((servers + 1) / 2)))
	step -c "\\timing on" -c "SELECT count(*) FROM scan_trend WHERE server = '$one'" \
		-c "SELECT count(*) FROM scan_trend WHERE server = '$one'" \
		-c "SELECT count(*) FROM scan_trend WHERE server = '$one'" \
		-c "SELECT count(*) FROM scan_trend WHERE server = '$one'" \
		-c "SELECT count(*) FROM scan_trend WHERE server = '$one'" \
		-c "SELECT count(*) FROM scan_trend WHERE server = '$one'" -c "\\timing off"
	trend_ms=$(grep -o '^Time: [0-9.]*' <<<"$step_out" | awk '{ print $2 }')
	trend_first=$(head -n 1 <<<"$trend_ms")
	trend_median=$(tail -n +2 <<<"$trend_ms" | sb_median)
	trend_rows=$(grep -v '^Time' <<<"$step_out" | tail -n 1)
	trend_mem=$step_mem

	# ---- the sanity of the results, per server ----
	trend_servers=$(q -c "SELECT count(*) || ' ' || count(*) FILTER (WHERE server = '$one') || ' ' ||
							 count(*) FILTER (WHERE runs = $((days + 1)))
						  FROM scan_trend WHERE server = '$one'")
	own_judged=$(q -c "SELECT count(*) FILTER (WHERE message LIKE '% on ' || server || ' %')
							|| ' ' || count(*) FILTER (WHERE earlier_runs > 30)
						 FROM fleet_scale_judged")
	changed=$(q -c "SELECT count(*) FROM fleet_scale_judged WHERE message LIKE '%kernel changed%'")
	# The months hold the rows: the parent has none of its own.
	size=$(q -c "SELECT pg_size_pretty(sum($size_fn(t.relid))) FROM pg_partition_tree('scan_history') t WHERE t.isleaf")
}

# On Citus: each node's CPU seconds in each step, the coordinator's share
# and the spread of the workers' (W of them); then the night's time on N
# machines from its CPU seconds.
cpu_report()
{
	local w=$1 r name cpu c work
	echo
	echo "Each node's CPU seconds in each step, from /proc (its postmaster and every process it started):"
	printf '%-42s %11s' "step" "coordinator"
	for i in $(seq 1 "$w"); do printf ' %9s' "worker $i"; done
	printf ' %14s %16s\n' "coordinator %" "workers' spread"
	for r in "${table_rows[@]}"; do
		IFS='|' read -r name _ _ _ cpu <<<"$r"
		[ -n "$cpu" ] || continue
		awk -v name="$name" -v w="$w" -v cpu="$cpu" 'BEGIN {
			split(cpu, c, " ")
			printf "%-42s %11.2f", name, c[1]
			tot = c[1]; sum = 0; lo = -1; hi = 0
			for (i = 2; i <= w + 1; i++) {
				printf " %9.2f", c[i]; tot += c[i]; sum += c[i]
				if (lo < 0 || c[i] < lo) lo = c[i]
				if (c[i] > hi) hi = c[i]
			}
			printf " %14s %16s\n", (tot > 0 ? sprintf("%.1f %%", 100 * c[1] / tot) : "-"),
				(sum > 0 ? sprintf("%.1f %%", 100 * (hi - lo) / (sum / w)) : "-")
		}'
	done
	echo "The workers' spread: the most busy worker's CPU seconds less the least busy one's, over their mean."
	# The model: the coordinator's part runs on one machine, the workers'
	# part divides among N; each node a machine with a CPU of its own, the
	# shards even, I/O and the network not counted.
	read -r c work <<<"$(awk -v w="$w" -v cpu="$night_cpu" 'BEGIN {
		split(cpu, x, " "); s = 0; for (i = 2; i <= w + 1; i++) s += x[i]; printf "%.2f %.2f", x[1], s }')"
	echo
	echo "The night's central work on N workers, modelled from its CPU seconds as coordinator + workers / N"
	echo "(each node a machine of its own, its work all CPU, the shards even; I/O and the network not counted):"
	echo "  the coordinator $c s, the workers $work s together; this machine has $(nproc) CPUs for the $((w + 1)) nodes, so its wall clock ($night s) shows no scale-out."
	for n in 1 2 3 8; do
		awk -v n="$n" -v c="$c" -v w="$work" 'BEGIN { printf "  N = %d: %.2f s\n", n, c + w / n }'
	done
	awk -v c="$c" -v w="$work" -v k="$(awk -v s="$servers" -v r="$relations" 'BEGIN { print 1000000 / (s * r) }')" 'BEGIN {
		printf "  100,000 servers x 10 relations on 8 workers: %.0f s (these figures x %.1f: the night and each server'"'"'s history grow with the servers)\n", k * (c + w / 8), k }'
}

# The table of the night's steps, and what the results say.
report()
{
	echo
	echo "A night of a fleet's central history: $servers servers, $relations relations each,"
	echo "a year of $days days ($((servers * relations * days)) runs, $size with its indexes), PostgreSQL $(q -c 'SHOW server_version' | cut -d' ' -f1)$1."
	echo
	printf '%-42s %10s %10s %10s %10s %10s\n' "step" "runs" "seconds" "runs/s" "peak MB" "private MB"
	for r in "${table_rows[@]}"; do
		IFS='|' read -r name n s mem _ <<<"$r"
		read -r peak priv <<<"$mem"
		printf '%-42s %10s %10s %10s %10s %10s\n' "$name" "$n" "$s" \
			"$(awk -v n="$n" -v s="$s" 'BEGIN { if (s > 0) printf "%.0f", n / s; else print "-" }')" "$peak" "$priv"
	done
	read -r peak priv <<<"$trend_mem"
	printf '%-42s %10s %10s %10s %10s %10s\n' "one server's trend (scan_trend), first" "$trend_rows" \
		"$(awk -v m="$trend_first" 'BEGIN { printf "%.3f", m / 1000 }')" "-" "$peak" "$priv"
	printf '%-42s %10s %10s %10s %10s %10s\n' "one server's trend, median of five" "$trend_rows" \
		"$(awk -v m="$trend_median" 'BEGIN { printf "%.3f", m / 1000 }')" "-" "-" "-"
	echo
	echo "The night's runs judged: $judged."
	echo "Judgements of the set that differ from the run's own: $differ of $nightly (one call a run: $alone s)."
	read -r all_one n_judged_msg <<<"$own_judged"
	echo "Judgements naming their own server: $all_one of $nightly; compared with more than 30 earlier runs: $n_judged_msg (30 days of one server at most)."
	echo "Judgements naming a kernel change: $changed."
	echo "Cohorts: $c_measured runs measured, $c_flagged flagged, $c_slow servers reading far slower or faster than their peers."
	echo "The trend of $one: $(cut -d' ' -f1 <<<"$trend_servers") rows, $(cut -d' ' -f2 <<<"$trend_servers") of $one, $(cut -d' ' -f3 <<<"$trend_servers") with its $((days + 1)) runs."
	echo "The metrics: $samples."
	echo "A night's central work: $night s for $nightly runs; one server's trend: $trend_median ms."
	echo "Times are wall clock on a shared machine: other work on it moves them."
}

if [ "$citus" = 0 ]; then
	the_night
	report ""
	exit 0
fi

# On Citus: the night on two workers, then on three, the shards
# rebalanced onto the third in between.
workers()
{
	q -c "SELECT count(DISTINCT n.nodeid) FROM pg_dist_placement p JOIN pg_dist_node n USING (groupid)
		  JOIN pg_dist_shard s USING (shardid) WHERE s.logicalrelid = 'scan_history'::regclass"
}
the_night
report ", on Citus: $(workers) workers, $(q -c "SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = 'scan_history'::regclass") shards"
cpu_report "$(workers)"
first_rows=("${table_rows[@]}")
first_trend=$trend_median
table_rows=()

# The night's runs out again (a date, not current_date: Citus evaluates
# no function against a column in a change to a distributed table).
q -c "DROP TABLE fleet_scale_night, fleet_scale_judged, fleet_scale_judged_alone" \
	-c "DELETE FROM scan_history WHERE measured_at >= '$(q -c "SELECT current_date")'" >/dev/null
t0=$(sb_now)
q -c "SELECT citus_add_node('localhost', $((port + 3)))" \
	-c "SELECT rebalance_table_shards('scan_history', shard_transfer_mode => 'block_writes')" >/dev/null 2>&1 ||
	sb_die "adding a worker and rebalancing failed"
t1=$(sb_now)
moved=$(q -c "SELECT count(*) FROM pg_dist_placement p JOIN pg_dist_node n USING (groupid)
		  JOIN pg_dist_shard s USING (shardid)
		  WHERE s.logicalrelid = 'scan_history'::regclass AND n.nodeport = $((port + 3))")
rebalance_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo
echo "A worker added: $moved shards of the history moved onto it in $rebalance_s s (rebalance_table_shards, block_writes)."
# A shard moved to a new worker arrives without its statistics, and each
# worker plans its own shards' part of the night: without them a join of
# the night with the history is planned for an empty table.  ANALYZE, as
# doc/fleet.md tells a user to after a rebalance (timed: what it costs).
step -c "ANALYZE scan_history"
echo "The history analyzed after the move (ANALYZE scan_history): $step_s s."

the_night
report ", on Citus: $(workers) workers, after the rebalance"
cpu_report "$(workers)"

echo
echo "Each step on 3 workers against 2 (seconds; ratio below 1: faster):"
printf '%-42s %10s %10s %10s\n' "step" "2 workers" "3 workers" "ratio"
for k in "${!table_rows[@]}"; do
	IFS='|' read -r name _ s2 _ _ <<<"${table_rows[$k]}"
	for r in "${first_rows[@]}"; do
		IFS='|' read -r name1 _ s1 _ _ <<<"$r"
		[ "$name1" = "$name" ] || continue
		printf '%-42s %10s %10s %10s\n' "$name" "$s1" "$s2" \
			"$(awk -v a="$s1" -v b="$s2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')"
	done
done
printf '%-42s %10s %10s %10s\n' "one server's trend, median of five (ms)" "$first_trend" "$trend_median" \
	"$(awk -v a="$first_trend" -v b="$trend_median" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }')"
