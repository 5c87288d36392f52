#!/usr/bin/env bash
# scanbench in one command; see --help.
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT

usage()
{
	cat <<'USAGE'
NAME
    tools/demo.sh - load a DBT-3 lineitem and measure it with scanbench

SYNOPSIS
    tools/demo.sh [--pg MAJOR] [--scale SF] [--runs N] [--table NAME]
                  [--port PORT] [--tmpdir DIR] [--no-build] [--citus]
    tools/demo.sh --pgdata DIR [--replace] [other options]
    tools/demo.sh -h HOST -p PORT -U USER -d DB [--replace] [other options]

DESCRIPTION
    Installs what it needs with apt, builds and installs the extension
    and scanbench-load, loads a DBT-3 lineitem with scanbench-load, and
    prints scan_efficiency() on it cold and warm.

    With no connection option it starts a throwaway cluster (as the
    postgres user, socket in a temp directory), and stops and removes it
    at the end.

    With --pgdata DIR it uses the cluster in DIR: it connects through the
    socket directory and port the cluster really uses (postmaster.pid, or
    unix_socket_directories and port in its configuration), starts the
    cluster if it is not running and stops it again at the end. DIR may
    also be a configuration directory whose postgresql.conf names the
    data_directory (as Debian's /etc/postgresql/MAJOR/NAME is).

    With -h/-p/-U/-d it connects to a running server, on which scanbench
    must be installed (make install) for the same major.

DATA SAFETY
    The demo never drops or replaces a table it did not create. It marks
    the tables it loads with a comment, and replaces only a table that
    carries that mark. If the table exists without it, the demo stops
    before changing anything and says so; choose another name with
    --table, or pass --replace to have it dropped and loaded anew.

OPTIONS
    --pg MAJOR
        PostgreSQL major: 15 (Debian's packages, the default), 17, 18 or
        19 (built once by tools/pg-build.sh). With --pgdata, the default
        is the cluster's own major.

    --scale SF
        Scale factor of the table (default 1: about 6 million rows, 946 MB on
        disk). 0.01 is a quick try.

    --runs N
        Measure with N whole-relation passes of each side
        (scan_efficiency's method => 'whole') instead of its default,
        sampled pairs of 8 MB stretches.

    --table NAME
        Name of the table to load and measure (default lineitem).

    --replace
        Drop and load the table even if the demo did not create it.

    --port PORT
        Port of the throwaway cluster, or the port a --pgdata cluster is
        started on when it is not running. Default: the first free one
        from 54330, or the cluster's own.

    --pgdata DIR
        Use the cluster in DIR (see DESCRIPTION).

    -h HOST, -p PORT, -U USER, -d DB
        Use the running server these name (the libpq variables PGHOST,
        PGPORT, PGUSER and PGDATABASE apply too).

    --tmpdir DIR
        Where temp directories (throwaway cluster, build copy, logs) are
        made. Default: $TMPDIR or /tmp. They are removed at the end.

    --no-build
        Use the scanbench already installed for the major instead of
        building and installing it.

    --citus
        The same on a Citus cluster: builds Citus from ../shared/vendor
        for the major (16 to 18; default 18) with tools/citus-build.sh,
        starts a coordinator and two workers on loopback ports (PORT,
        PORT+1, PORT+2), loads lineitem distributed by l_orderkey in 8
        shards through the coordinator, and prints the cluster's figure
        (scan_efficiency) and a row per shard placement and per node
        (scan_efficiency_shards), cold. Throwaway clusters only.

    --help
        Print this help.

EXAMPLES
    tools/demo.sh                          throwaway cluster on 15, scale 1
    tools/demo.sh --pg 18 --scale 0.1      the same on 18, a smaller table
    tools/demo.sh --pgdata /etc/postgresql/15/main --table li_demo
    tools/demo.sh --citus --scale 0.2      a three-node Citus cluster on 18

EXIT STATUS
    0 on success; 1 on failure, including a table the demo will not
    replace; 2 on a usage error.
USAGE
}

scale=1
runs=""
table=lineitem
replace=0
build=1
pgdata=""
port=""
conn=0
pg_given=""
tmpbase=${TMPDIR:-/tmp}
citus=0
need_arg() { [ $# -ge 2 ] || { sb_log "$1 needs a value (see --help)"; exit 2; }; }
while [ $# -gt 0 ]; do
	case "$1" in
	--scale) need_arg "$@"; scale=$2; shift 2 ;;
	--runs) need_arg "$@"; runs=$2; shift 2 ;;
	--table) need_arg "$@"; table=$2; shift 2 ;;
	--replace) replace=1; shift ;;
	--pg) need_arg "$@"; pg_given=$2; shift 2 ;;
	--port) need_arg "$@"; port=$2; shift 2 ;;
	--pgdata) need_arg "$@"; pgdata=$2; shift 2 ;;
	--tmpdir) need_arg "$@"; tmpbase=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	--citus) citus=1; shift ;;
	-h) need_arg "$@"; export PGHOST=$2; conn=1; shift 2 ;;
	-p) need_arg "$@"; export PGPORT=$2; conn=1; shift 2 ;;
	-U) need_arg "$@"; export PGUSER=$2; conn=1; shift 2 ;;
	-d) need_arg "$@"; export PGDATABASE=$2; conn=1; shift 2 ;;
	--help) usage; exit 0 ;;
	*) sb_log "unknown option: $1 (see --help)"; exit 2 ;;
	esac
done
[ -z "$runs" ] || [[ $runs =~ ^[1-9][0-9]*$ ]] || { sb_log "--runs: not a positive integer: $runs"; exit 2; }
[[ $scale =~ ^[0-9]+(\.[0-9]+)?$ ]] || { sb_log "--scale: not a number: $scale"; exit 2; }
[ -z "$port" ] || [[ $port =~ ^[0-9]+$ ]] || { sb_log "--port: not a port number: $port"; exit 2; }
[ -n "$pgdata" ] && [ $conn -eq 1 ] &&
	{ sb_log "--pgdata and -h/-p/-U/-d do not go together: the cluster says where to connect"; exit 2; }
[ -d "$tmpbase" ] || { sb_log "--tmpdir: no such directory: $tmpbase"; exit 2; }
[ -n "$pg_given" ] && { (sb_check_major "$pg_given") || exit 2; }
if [ $citus -eq 1 ]; then
	[ -n "$pgdata" ] || [ $conn -eq 1 ] &&
		{ sb_log "--citus starts a throwaway cluster of its own: --pgdata and -h/-p/-U/-d do not apply"; exit 2; }
	pg_given=${pg_given:-18}
	[ "$pg_given" -ge 16 ] && [ "$pg_given" -le 18 ] ||
		{ sb_log "--citus: Citus supports PostgreSQL 16 to 18, not $pg_given"; exit 2; }
fi

# --pgdata: the data directory, the cluster's major and whether it runs.
if [ -n "$pgdata" ]; then
	[ -d "$pgdata" ] || sb_die "--pgdata: no such directory: $pgdata"
	datadir=$pgdata
	if [ ! -f "$datadir/PG_VERSION" ] && [ -f "$pgdata/postgresql.conf" ]; then
		datadir=$(sed -n "s/^[[:space:]]*data_directory[[:space:]]*=[[:space:]]*'\([^']*\)'.*/\1/p" \
			"$pgdata/postgresql.conf" | tail -1)
	fi
	[ -n "$datadir" ] && [ -f "$datadir/PG_VERSION" ] ||
		sb_die "--pgdata: $pgdata is not a PostgreSQL data directory (no PG_VERSION), nor a configuration directory naming one"
	cluster_major=$(cat "$datadir/PG_VERSION")
	[ -n "$pg_given" ] && [ "$pg_given" != "$cluster_major" ] &&
		sb_die "the cluster in $pgdata is PostgreSQL $cluster_major, not $pg_given: leave --pg out or give --pg $cluster_major"
	pg_given=$cluster_major
	(sb_check_major "$pg_given") || exit 1
fi
SB_PGMAJOR=${pg_given:-$SB_APT_MAJOR}

[ $build -eq 1 ] && sb_install_packages
sb_use_pg || sb_die "PostgreSQL $SB_PGMAJOR is not available on this machine (see the reason above)"
pgbin=$(sb_pgbin)
work=$(mktemp -d "$tmpbase/scanbench-demo.XXXXXX") || sb_die "could not make a temp directory in $tmpbase"
chmod 755 "$work"
sb_on_exit "rm -rf '$work'"
if [ $build -eq 1 ]; then
	sb_build_install "$work/build"
else
	[ -f "$("$pgbin/pg_config" --sharedir)/extension/scanbench.control" ] ||
		sb_die "--no-build: scanbench is not installed for PostgreSQL $SB_PGMAJOR ($pgbin)"
fi
[ -x "$pgbin/scanbench-load" ] || sb_die "no scanbench-load in $pgbin"
if [ $citus -eq 1 ]; then
	. "$SB_TOP/tools/citus-common.sh"
	"$SB_TOP/tools/citus-build.sh" "$pgbin/pg_config" >/dev/null ||
		sb_die "Citus is not available for PostgreSQL $SB_PGMAJOR (see the reason above)"
fi

# Clients run as the cluster's OS user for the clusters the demo runs or
# finds (peer authentication on their socket), as the caller otherwise.
as_client=(sb_as_pg)

# postmaster.pid lines 4 and 5: the port and the first socket directory.
cluster_conn()
{
	local pid="$datadir/postmaster.pid" dir
	export PGPORT=$(sed -n 4p "$pid")
	dir=$(sed -n 5p "$pid")
	export PGHOST=${dir:-localhost}
	# The bootstrap superuser is named after the OS user that ran initdb.
	export PGUSER=${PGUSER:-$(stat -c %U "$datadir")}
}

if [ -n "$pgdata" ]; then
	if ! sb_as_pg pg_ctl -D "$pgdata" status >/dev/null 2>&1; then
		[ "$(id -u)" = 0 ] && chown postgres: "$work"
		opts=()
		[ -n "$port" ] && opts=(-o "-p $port")
		sb_log "starting the cluster in $pgdata (log: $work/server.log; stopped again at the end)"
		sb_as_pg pg_ctl -D "$pgdata" -l "$work/server.log" "${opts[@]}" -w start >/dev/null ||
			{ cat "$work/server.log" >&2; sb_die "could not start the cluster in $pgdata"; }
		sb_on_exit "sb_as_pg pg_ctl -D '$pgdata' -m fast -w stop >/dev/null 2>&1"
	fi
	cluster_conn
	sb_log "using the cluster in $pgdata: socket directory $PGHOST, port $PGPORT"
elif [ $citus -eq 1 ]; then
	sb_citus_start "$pgbin" "$work/cluster" "${port:-$(sb_free_port 54330)}"
	sb_log "Citus cluster: coordinator on port $PGPORT, workers on $((PGPORT + 1)) and $((PGPORT + 2))"
elif [ $conn -eq 0 ]; then
	sb_start_cluster "$work/cluster" "${port:-$(sb_free_port 54330)}"
else
	as_client=(env)
fi
psql=("${as_client[@]}" "$pgbin/psql" -X -v ON_ERROR_STOP=1)

# sql [PSQL_OPTION...]: run the SQL on stdin, with the table name in :t.
sql() { "${psql[@]}" -v t="$table" "$@" -f -; }

# Refuse, before anything changes, a table the demo did not make.
mark="made by scanbench tools/demo.sh; the next demo run replaces it"
found=$(sql -At <<'SQL'
SELECT CASE WHEN to_regclass(quote_ident(:'t')) IS NULL THEN 'none'
	ELSE coalesce(obj_description(to_regclass(quote_ident(:'t')), 'pg_class'), '') END
SQL
) || sb_die "could not connect to the server (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-})"
server_major=$("${psql[@]}" -At -c "SELECT current_setting('server_version_num')::int / 10000")
[ "$server_major" = "$SB_PGMAJOR" ] ||
	sb_die "the server is PostgreSQL $server_major, and the demo was set up for $SB_PGMAJOR: pass --pg $server_major"
drop=()
if [ "$found" != none ]; then
	if [ "$found" = "$mark" ]; then
		sb_log "replacing table $table, made by an earlier demo run"
		drop=(--drop)
	elif [ $replace -eq 1 ]; then
		sb_log "replacing table $table (--replace)"
		drop=(--force-drop)
	else
		sb_die "table $table already exists and was not made by this demo: nothing was changed. Name another table with --table, or pass --replace to drop it and load it anew"
	fi
fi

distribute=()
[ $citus -eq 1 ] && distribute=(--distribute l_orderkey --shard-count 8)
sb_log "loading DBT-3 lineitem at scale $scale into $table"
"${as_client[@]}" "$pgbin/scanbench-load" --scale "$scale" --table "$table" "${drop[@]}" "${distribute[@]}" ||
	sb_die "scanbench-load failed"
sql -q -v m="$mark" <<'SQL' || sb_die "could not mark table $table as the demo's"
SELECT format('COMMENT ON TABLE %I IS %L', :'t', :'m') \gexec
SQL

"${psql[@]}" -q -c "CREATE EXTENSION IF NOT EXISTS scanbench" || sb_die "CREATE EXTENSION failed"
whole=${runs:+, runs => $runs, method => 'whole'}
if [ $citus -eq 1 ]; then
	echo
	echo "SELECT * FROM scan_efficiency('$table'$whole);"
	sql -x -v r="${runs:-1}" -v m="${runs:+whole}" <<'SQL' || sb_die "scan_efficiency failed"
SELECT * FROM scan_efficiency(quote_ident(:'t')::regclass, runs => :r,
							  method => coalesce(nullif(:'m', ''), 'pairs'));
SQL
	echo
	echo "SELECT level, node, shard, bytes, rows, read_mb_s, scan_mb_s, scan_pct, verdict, slowest_shard"
	echo "FROM scan_efficiency_shards('$table', runs => ${runs:-1}) ORDER BY node, level DESC, shardid;"
	sql -v r="${runs:-1}" <<'SQL' || sb_die "scan_efficiency_shards failed"
SELECT level, node, shard, bytes, rows, read_mb_s, scan_mb_s, scan_pct, verdict, slowest_shard
FROM scan_efficiency_shards(quote_ident(:'t')::regclass, runs => :r)
ORDER BY node, level DESC, shardid;
SQL
	exit 0
fi
for cache in cold warm; do
	echo
	echo "SELECT * FROM scan_efficiency('$table', '$cache'$whole);"
	out=$(sql -x -v c="$cache" -v r="${runs:-1}" -v m="${runs:+whole}" <<'SQL'
SELECT * FROM scan_efficiency(quote_ident(:'t')::regclass, :'c', runs => :r,
							  method => coalesce(nullif(:'m', ''), 'pairs'));
SQL
	) || sb_die "scan_efficiency failed"
	echo "$out"
	# The figure, how sure it is, and whether to believe it, in one line
	# (the verdict's marks without the braces of the array).
	awk -F ' *[|] *' '{ v[$1] = $2 }
		END { gsub(/[{}]/, "", v["verdict"])
			  printf "%s: scan_pct %s %%, 95 %% interval %s to %s, %s pairs, verdict %s\n",
				  v["cache"], v["scan_pct"], v["scan_pct_lo"] == "" ? "none" : v["scan_pct_lo"],
				  v["scan_pct_hi"] == "" ? "none" : v["scan_pct_hi"], v["pairs"], v["verdict"] }' <<<"$out"
done
