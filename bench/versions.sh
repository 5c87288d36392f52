#!/usr/bin/env bash
# scan_efficiency on the demo lineitem across PostgreSQL majors and, on 18
# and later, across io_method values; see --help.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

usage()
{
	cat <<'USAGE'
NAME
    bench/versions.sh - the demo lineitem measured on each PostgreSQL major

SYNOPSIS
    bench/versions.sh [--pg MAJOR[,MAJOR...]|all] [--scale SF] [--runs N]
                      [--rounds N] [--port PORT] [--tmpdir DIR]

DESCRIPTION
    For each PostgreSQL major, one after another, it builds and installs
    scanbench against Debian's own server of that major, starts a
    throwaway cluster and loads the demo's DBT-3 lineitem into it: 15
    from this machine's apt, 17, 18 and 19 inside a root of the Debian
    suite that packages them (tools/pg-root.sh, the roots tools/test.sh
    tests in: 17 trixie, 18 and 19 sid), where this script runs itself
    again for that major. On 18 and later each io_method (sync, worker,
    io_uring) is a side of its own, the cluster being restarted with
    that setting before it is measured.

    Then, for a number of rounds, every side of the major is measured
    with scan_efficiency(method => 'whole') cold and then warm; the
    order of the sides is reversed every other round, so that no side
    always goes first. It prints one table: the median over the rounds
    of each figure, with the date and time each major was measured and
    the machine. Majors are measured one after another, not interleaved
    (18 and 19 share the sid root, whose runs take turns): compare
    majors with that in mind on a busy machine.

    A major that cannot be had, or an io_method the kernel refuses, is
    listed with the reason instead of figures.

    Runs as root (apt, make install, chroot). Installing replaces the
    server's copy of scanbench, so test, demo and bench runs on one
    machine take turns: each major holds its turn while it is measured.

OPTIONS
    --pg MAJOR[,MAJOR...] | all
        The majors to measure (default: all, that is 15, 17, 18, 19).

    --scale SF
        Scale of the lineitem (default 1: 946 MB).

    --runs N
        runs => N in each scan_efficiency() call (default 3).

    --rounds N
        Rounds over all sides (default 2).

    --port PORT
        First port for the throwaway clusters (default: the first free one
        from 54340).

    --tmpdir DIR
        Where the clusters and build copies are made (default: $TMPDIR or
        /tmp). Needs room for one lineitem per major. Removed at the end.

    --one MAJOR
        Measure MAJOR only and print its raw result lines instead of the
        table (what the script runs for each major, in a root or here).

    -h, --help
        Print this help.
USAGE
}

majors=$SB_MAJORS
scale=1
runs=3
rounds=2
port=""
one=""
tmpbase=${TMPDIR:-/tmp}
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--pg | --scale | --runs | --rounds | --port | --tmpdir | --one)
		[ $# -ge 2 ] || { sb_log "$1 needs a value (see --help)"; exit 2; } ;;&
	--pg) majors=${2//,/ }; [ "$majors" = all ] && majors=$SB_MAJORS; shift 2 ;;
	--scale) scale=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--port) port=$2; shift 2 ;;
	--tmpdir) tmpbase=$2; shift 2 ;;
	--one) one=$2; majors=$2; shift 2 ;;
	*) sb_log "unknown option: $1 (see --help)"; exit 2 ;;
	esac
done
sb_bench_record
for m in $majors; do (sb_check_major "$m") || exit 2; done
[[ $runs =~ ^[1-9][0-9]*$ ]] && [[ $rounds =~ ^[1-9][0-9]*$ ]] ||
	{ sb_log "--runs and --rounds take positive integers"; exit 2; }
[[ $scale =~ ^[0-9]+([.][0-9]+)?$ ]] || { sb_log "--scale takes a number"; exit 2; }

# The table: each major measured by this script again (--one), here for
# a major this machine's apt has, else inside a root of the suite that
# packages it, as tools/test.sh runs its tests there.  Each session
# prints lines "version V", "at TIME", "facts STORAGE", "side SIDE",
# "failed SIDE WHY", "row SIDE CACHE READ SCAN PCT CACHED", or "none WHY"
# when it measured nothing, which this run puts in one table.
if [ -z "$one" ]; then
	raw=$(mktemp "$tmpbase/scanbench-versions.XXXXXX") || sb_die "could not make a file in $tmpbase"
	sb_on_exit "rm -f '$raw'"
	pass=(--scale "$scale" --runs "$runs" --rounds "$rounds")
	[ -n "$port" ] && pass+=(--port "$port")
	for m in $majors; do
		sb_log "PostgreSQL $m: measuring"
		sb_on_exit "rm -f '$raw.$m'"
		if [ -z "${SB_IN_ROOT:-}" ] && ! sb_packaged "$m" && sb_root_suite "$m" >/dev/null; then
			"$SB_TOP/tools/pg-root.sh" "$m" /src/scanbench/bench/versions.sh --one "$m" "${pass[@]}" </dev/null >"$raw.$m"
		else
			"$SB_TOP/bench/versions.sh" --one "$m" "${pass[@]}" --tmpdir "$tmpbase" </dev/null >"$raw.$m"
		fi
		rc=$?
		grep -q '^\(side\|none\) ' "$raw.$m" ||
			echo "none the measurement failed (exit $rc; its messages are above)" >>"$raw.$m"
		sed "s/^/$m /" "$raw.$m" >>"$raw"
	done

	# median MAJOR SIDE CACHE FIELD: the median over the rounds (field 1:
	# read_mb_s, 2: scan_mb_s, 3: scan_pct, 4: cached %).
	median()
	{
		awk -v m="$1" -v s="$2" -v c="$3" -v f="$4" '$1 == m && $2 == "row" && $3 == s && $4 == c {print $(f + 4)}' "$raw" |
			sort -g | awk '{v[NR] = $1} END {
				if (NR == 0) exit
				x = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
				printf "%.1f", x
			}'
	}
	field() { awk -v m="$1" -v k="$2" '$1 == m && $2 == k {$1 = ""; $2 = ""; sub(/^ +/, ""); print; exit}' "$raw"; }

	mem_gb=$(awk '/^MemTotal/ {printf "%.0f", $2 / 1048576}' /proc/meminfo)
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	echo
	echo "Measured on ${cpu:-an unknown CPU}, $(nproc) vCPUs, $mem_gb GB RAM, Linux $(uname -r), shared_buffers 128MB;"
	echo "lineitem scale $scale; median of $rounds rounds, sides in alternating order, each figure from"
	echo "scan_efficiency(method => 'whole', runs => $runs); majors one after another."
	echo
	echo "| PostgreSQL | from | measured | storage | io_method | cold read MB/s | cold scan MB/s | cold scan_pct | cold cached % | warm scan MB/s | warm scan_pct |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for m in $majors; do
		if [ -z "${SB_IN_ROOT:-}" ] && ! sb_packaged "$m" && suite=$(sb_root_suite "$m"); then
			from="Debian $suite root"
		else
			from="this machine's apt"
		fi
		why=$(field "$m" none)
		if [ -n "$why" ]; then
			echo "| $m | $from | | | | not measured: $why | | | | | |"
			continue
		fi
		v=$(field "$m" version)
		at=$(field "$m" at)
		st=$(field "$m" facts)
		for side in $(awk -v m="$m" '$1 == m && $2 == "side" {print $3}' "$raw"); do
			io=${side#*:}
			label=$io
			[ "$io" = - ] && label="(sync reads)"
			f=$(awk -v m="$m" -v s="$side" '$1 == m && $2 == "failed" && $3 == s {$1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit}' "$raw")
			if [ -n "$f" ]; then
				echo "| $v | $from | $at | $st | $io | not measured: $f | | | | | |"
				continue
			fi
			echo "| $v | $from | $at | $st | $label | $(median "$m" "$side" cold 1) | $(median "$m" "$side" cold 2) | $(median "$m" "$side" cold 3) | $(median "$m" "$side" cold 4) | $(median "$m" "$side" warm 2) | $(median "$m" "$side" warm 3) |"
		done
	done
	exit 0
fi

# --one MAJOR from here on: this major, measured, as raw lines on stdout;
# everything else on stderr.
exec 3>&1 1>&2

work=$(mktemp -d "$tmpbase/scanbench-versions.XXXXXX") || sb_die "could not make a directory in $tmpbase"
chmod 755 "$work"
sb_on_exit "rm -rf '$work'"
port=${port:-$(sb_free_port 54340)}

declare -A bin host version io_now
sides=()
for m in $majors; do
	SB_PGMAJOR=$m
	sb_install_packages
	if ! sb_use_pg 2> >(tee "$work/pg-build-$m.log" >&2); then
		sleep 0.2		# let tee finish
		# "could not fetch the source of P V (suite): URL: 404 Not Found"
		# -> "the source of P V (suite) could not be fetched: 404 Not Found"
		why=$(sed -n 's/^pg-build.sh: //p' "$work/pg-build-$m.log" | tail -1 | tr -s ' ' |
			sed 's/^could not fetch \(the source of [^)]*)\): [^ ]*: \(.*\)$/\1 could not be fetched: \2/')
		echo "none ${why:-could not get PostgreSQL $m}" >&3
		exit 0
	fi
	bin[$m]=$SB_PGBIN
	version[$m]=$(sb_pgversion | awk '{print $1}')
	sb_build_install "$work/build-$m"
	p=$(sb_free_port "$port")
	port=$((p + 1))
	sb_start_cluster "$work/pg$m" "$p"
	host[$m]="$PGHOST $PGPORT"
	sb_log "PostgreSQL ${version[$m]}: loading lineitem at scale $scale"
	sb_as_pg scanbench-load --scale "$scale" --quiet || sb_die "scanbench-load failed on $m"
	sb_as_pg psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION scanbench" ||
		sb_die "CREATE EXTENSION failed on $m"
	if [ "$m" -ge 18 ]; then
		io_now[$m]=$(sb_as_pg psql -X -At -c "SHOW io_method")
		for io in sync worker io_uring; do sides+=("$m:$io"); done
	else
		sides+=("$m:-")
	fi
done
[ ${#sides[@]} -gt 0 ] || sb_die "no PostgreSQL major could be had: nothing measured"

# use MAJOR: point the client and sb_as_pg at that major's cluster.
use()
{
	SB_PGMAJOR=$1 SB_PGBIN=${bin[$1]}
	read -r PGHOST PGPORT <<<"${host[$1]}"
	export PGHOST PGPORT
}

# set_io MAJOR IO: restart the major's cluster with io_method = IO unless it
# runs with it already.  Fails, with the reason in $why, when the server
# will not start with it (io_uring where the kernel refuses it); the
# cluster is then started again as it was.
set_io()
{
	local m=$1 io=$2 dir="$work/pg$1"
	[ "${io_now[$m]}" = "$io" ] && return 0
	use "$m"
	echo "io_method = $io" >>"$dir/data/postgresql.conf"
	if sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -m fast -w restart >/dev/null 2>&1; then
		io_now[$m]=$io
		return 0
	fi
	why=$(grep -E 'FATAL|ERROR' "$dir/server.log" | tail -1 | sed 's/^.*\(FATAL\|ERROR\): *//')
	sed -i '$d' "$dir/data/postgresql.conf"
	sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w start >/dev/null ||
		sb_die "the $m cluster does not start again: see $dir/server.log"
	why=${why:-the server did not start with io_method = $io}
	return 1
}

declare -A failed
results="$work/results"
: >"$results"
for ((r = 1; r <= rounds; r++)); do
	order=("${sides[@]}")
	if [ $((r % 2)) -eq 0 ]; then
		order=()
		for ((i = ${#sides[@]} - 1; i >= 0; i--)); do order+=("${sides[$i]}"); done
	fi
	for side in "${order[@]}"; do
		m=${side%%:*} io=${side#*:}
		[ -n "${failed[$side]:-}" ] && continue
		if [ "$io" != - ]; then
			if ! set_io "$m" "$io"; then
				failed[$side]=$why
				sb_log "PostgreSQL $m, io_method $io: $why"
				continue
			fi
		fi
		use "$m"
		sb_log "round $r/$rounds: PostgreSQL ${version[$m]}, io_method ${io/#-/sync (before 18)}"
		for cache in cold warm; do
			row=$(sb_as_pg psql -X -At -F ' ' -v ON_ERROR_STOP=1 -c \
				"SELECT read_mb_s, scan_mb_s, scan_pct, greatest(read_cached_pct, scan_cached_pct)
				   FROM scan_efficiency('lineitem', '$cache', method => 'whole', runs => $runs)") ||
				sb_die "scan_efficiency failed on $side"
			echo "$side $cache $row" >>"$results"
		done
	done
done

fsdev=$(use "${sides[0]%%:*}"; sb_as_pg psql -X -At -F ' ' -c \
	"SELECT filesystem, device FROM scan_efficiency('lineitem', 'warm', method => 'whole')" 2>/dev/null)
size=$(use "${sides[0]%%:*}"; sb_as_pg psql -X -At -c "SELECT round(pg_relation_size('lineitem') / 1e6) || ' MB'")
{
	echo "version ${version[$m]}"
	echo "at $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "facts ${fsdev% *} on ${fsdev#* }, lineitem $size"
	for side in "${sides[@]}"; do
		echo "side $side"
		[ -n "${failed[$side]:-}" ] && echo "failed $side ${failed[$side]}"
	done
	sed 's/^/row /' "$results"
} >&3
