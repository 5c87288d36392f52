#!/usr/bin/env bash
# scanbench in one command: install what is needed, build, install the
# extension, start a throwaway cluster, load a DBT-3 lineitem and print
# scan_efficiency cold and warm.
#
#   tools/demo.sh [--scale SF] [--runs N] [--pgdata DIR | -h HOST -p PORT -U USER -d DB]
#
# With no connection option the cluster is a throwaway one, removed at the
# end.  --pgdata DIR uses the cluster in DIR (started if it is not
# running, and stopped again if the demo started it).  -h/-p/-U/-d use a
# running server where scanbench is installed (make install).
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT

scale=1
runs=3
pgdata=""
conn=0
usage()
{
	sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--pgdata) pgdata=$2; shift 2 ;;
		-h) export PGHOST=$2; conn=1; shift 2 ;;
		-p) export PGPORT=$2; conn=1; shift 2 ;;
		-U) export PGUSER=$2; conn=1; shift 2 ;;
		-d) export PGDATABASE=$2; conn=1; shift 2 ;;
		--help) usage 0 ;;
		*) sb_log "unknown option: $1"; usage 2 >&2 ;;
	esac
done

sb_install_packages
sb_build_install
pgbin=$(sb_pgbin)

if [ -n "$pgdata" ]; then
	if ! sb_as_pg pg_ctl -D "$pgdata" status >/dev/null 2>&1; then
		sb_as_pg pg_ctl -D "$pgdata" -l "$pgdata/scanbench-demo.log" -w start >/dev/null ||
			sb_die "could not start the cluster in $pgdata"
		sb_on_exit "sb_as_pg pg_ctl -D '$pgdata' -m fast stop >/dev/null 2>&1"
	fi
	export PGPORT=${PGPORT:-$(sed -n 's/^port *= *\([0-9]*\).*/\1/p' "$pgdata/postgresql.conf" | tail -1)}
	export PGUSER=${PGUSER:-postgres}
elif [ $conn -eq 0 ]; then
	dir=$(mktemp -d /tmp/scanbench-demo.XXXXXX)
	sb_on_exit "rm -rf '$dir'"
	sb_start_cluster "$dir" 54330
fi
psql=("$pgbin/psql" -X -v ON_ERROR_STOP=1)

sb_log "loading DBT-3 lineitem at scale $scale"
"$pgbin/scanbench-load" --scale "$scale" --drop || sb_die "scanbench-load failed"

"${psql[@]}" -q -c "CREATE EXTENSION IF NOT EXISTS scanbench" || sb_die "CREATE EXTENSION failed"
for cache in cold warm; do
	echo
	echo "SELECT * FROM scan_efficiency('lineitem', '$cache', runs => $runs);"
	"${psql[@]}" -x -c "SELECT * FROM scan_efficiency('lineitem', '$cache', runs => $runs)" ||
		sb_die "scan_efficiency failed"
done
