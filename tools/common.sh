# Shared by tools/demo.sh, tools/test.sh and bench/*.sh: install what the
# build needs, find or build the PostgreSQL major asked for, build and
# install scanbench against it, and run a throwaway cluster.
# Source it; it defines functions and changes nothing by itself.

SB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The major to use; scripts set it from --pg.
SB_PGMAJOR=${SB_PGMAJOR:-15}
# The major Debian 12 packages (apt); the others come from tools/pg-build.sh.
SB_APT_MAJOR=15
# Every major the scripts know how to get, in the order --pg all runs them.
SB_MAJORS="15 17 18 19"

sb_log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
# A script may define sb_on_die to say a last word (test.sh's count line).
sb_die()
{
	sb_log "$*"
	declare -F sb_on_die >/dev/null && sb_on_die
	exit 1
}

# sb_check_major N: N is a major the scripts can get, or die.
sb_check_major()
{
	case " $SB_MAJORS " in
	*" $1 "*) ;;
	*) sb_die "PostgreSQL $1 is not supported here: --pg takes one of $SB_MAJORS (or all)" ;;
	esac
}

# sb_root_suite MAJOR: the Debian suite whose root (tools/pg-root.sh)
# packages MAJOR; fails for a major no suite here packages.  18 comes from
# sid's binary packages rather than a source build: the sid root that 19
# needs serves 18 too, for a minute of apt instead of minutes of compiling
# (doc/compatibility.md has the figures).
sb_root_suite()
{
	case $1 in
	17) echo trixie ;;
	18 | 19) echo sid ;;
	*) return 1 ;;
	esac
}

# sb_packaged MAJOR: this machine's apt has MAJOR's server and server-dev
# (installed, or to be had): Debian 12 has 15, a root of trixie 17, a root
# of sid 18 and 19.
sb_packaged()
{
	local p
	for p in "postgresql-$1" "postgresql-server-dev-$1"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' && continue
		apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]' || return 1
	done
	return 0
}

# sb_test_packages MAJOR: the Debian packages the build and every test
# need on MAJOR, its server's packages included when apt has them, one a
# line.  pg_cron where Debian has it for the major (not for 19); Citus's
# build dependencies (libicu-dev: Citus includes unicode/ucol.h); what the
# Debian package build needs (tools/package-test.sh); fincore(1)
# (util-linux-extra), which t/056 checks the page cache with; libfiu's
# fiu-run and fiu-ctrl (fiu-utils), which t/024 injects I/O errors with;
# FUSE (fuse3, libfuse3-dev, pkg-config) for the lab's disk of known
# latency (tools/lab-disk).
sb_test_packages()
{
	local p
	printf '%s\n' postgresql-common libpq-dev libipc-run-perl build-essential fio xfsprogs \
		e2fsprogs mount time iproute2 procps libxml2-utils python3 util-linux-extra \
		liblz4-dev libzstd-dev libcurl4-openssl-dev libkrb5-dev libssl-dev libicu-dev \
		debhelper dpkg-dev postgresql-server-dev-all fiu-utils fuse3 libfuse3-dev pkg-config
	if sb_packaged "$1"; then
		printf '%s\n' "postgresql-$1" "postgresql-server-dev-$1"
		apt-cache policy "postgresql-$1-cron" 2>/dev/null | grep -q 'Candidate: [0-9]' &&
			echo "postgresql-$1-cron"
	fi
	# t/121 runs the sql_exporter configuration of examples/ where Debian
	# has the exporter; once is enough, on this machine rather than in
	# each root (a daemon's package in a root brings nothing more).
	[ -z "${SB_IN_ROOT:-}" ] &&
		apt-cache policy prometheus-sql-exporter 2>/dev/null | grep -q 'Candidate: [0-9]' &&
		echo prometheus-sql-exporter
	# t/124 checks and unit-tests the alert rules of examples/ with
	# promtool and runs the dashboard's queries in a Prometheus: Debian's
	# prometheus has both (19 MB), on this machine only, as above.
	[ -z "${SB_IN_ROOT:-}" ] &&
		apt-cache policy prometheus 2>/dev/null | grep -q 'Candidate: [0-9]' &&
		echo prometheus
	return 0
}

# Debian packages the build and the tests need (sb_test_packages).  apt
# runs only when something is missing, so a second run costs nothing.
# postgresql-common alone creates the postgres user that clusters run as.
sb_install_packages()
{
	local missing=()
	local p
	for p in $(sb_test_packages "$SB_PGMAJOR"); do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || sb_die "missing packages: ${missing[*]} (run as root, or install them)"
	sb_log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || sb_die "apt-get update failed"
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
		sb_die "apt-get install ${missing[*]} failed"
}

# sb_use_pg: find the server binaries of SB_PGMAJOR (the packaged ones
# where apt has them, else built with tools/pg-build.sh the first time)
# and set SB_PGBIN.  Returns
# pg-build.sh's status: 3 means the source could not be fetched, and
# pg-build.sh has said what and why.
sb_use_pg()
{
	local bin rc
	if sb_packaged "$SB_PGMAJOR"; then
		SB_PGBIN=/usr/lib/postgresql/$SB_PGMAJOR/bin
	else
		bin=$("$SB_TOP/tools/pg-build.sh" "$SB_PGMAJOR")
		rc=$?
		[ $rc -eq 0 ] || return $rc
		SB_PGBIN=$bin
	fi
	[ -x "$SB_PGBIN/pg_config" ] || sb_die "no pg_config in $SB_PGBIN"
	export SB_PGBIN SB_PGMAJOR
	return 0
}

sb_pgbin() { echo "${SB_PGBIN:-/usr/lib/postgresql/$SB_PGMAJOR/bin}"; }
sb_pgversion() { "$(sb_pgbin)/pg_config" --version | sed 's/^PostgreSQL //'; }

# Installing replaces a server's copy of scanbench for everyone on this
# machine, so runs that install into the same server (test, demo, bench)
# take turns: the lock is held until the script exits.  One lock per
# installation directory, so that a run on 18 need not wait for one on 15;
# Debian's 15 keeps the lock file it always had.  Each major holds its lock
# on a descriptor of its own (15: 8, 17: 7, 18: 6, 19: 5), which children
# started with sb_as_pg do not inherit, so a server left running cannot
# hold it.
sb_lock_install()
{
	local lib file fd t0
	case $SB_PGMAJOR in 17) fd=7 ;; 18) fd=6 ;; 19) fd=5 ;; *) fd=8 ;; esac
	[[ " ${SB_LOCKED:-} " == *" $fd "* ]] && return 0
	lib=$("$(sb_pgbin)/pg_config" --pkglibdir)
	# Fixed paths, whatever TMPDIR says: every run must find the same lock.
	if [ "$lib" = "/usr/lib/postgresql/$SB_APT_MAJOR/lib" ]; then
		file=/tmp/scanbench-install.lock
	else
		file=/tmp/scanbench-install-$(printf '%s' "$lib" | md5sum | cut -c1-12).lock
	fi
	eval "exec $fd>'$file'"
	SB_LOCK_WAITED=${SB_LOCK_WAITED:-0}
	if ! flock -n $fd; then
		t0=$SECONDS
		sb_log "waiting for another scanbench test, demo or bench run on PostgreSQL $SB_PGMAJOR ($lib)"
		flock $fd
		SB_LOCK_WAITED=$((SB_LOCK_WAITED + SECONDS - t0))
	fi
	SB_LOCKED="${SB_LOCKED:-} $fd"
}

# sb_build_install [DIR [MAKE_ARGS...]]: build scanbench against the
# current major in DIR, a fresh copy of the tree (made in a temp directory,
# removed at exit, when DIR is not given), and install it.  Building in a
# copy keeps the checkout untouched and never mixes objects of two majors.
# The compiler's output is in DIR/build.log; on failure it is printed.
sb_build_install()
{
	local dir=${1:-} pgc
	[ $# -gt 0 ] && shift
	pgc="$(sb_pgbin)/pg_config"
	if [ -z "$dir" ]; then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-build.XXXXXX")
		sb_on_exit "rm -rf '$dir'"
	fi
	mkdir -p "$dir"
	tar -C "$SB_TOP" --exclude=./.git --exclude=./tmp_check --exclude=./results -cf - . |
		tar -C "$dir" -xf - || sb_die "could not copy the tree to $dir"
	sb_lock_install
	{
		make -C "$dir" -s PG_CONFIG="$pgc" clean &&
			make -C "$dir" -s PG_CONFIG="$pgc" "$@" &&
			make -C "$dir" -s PG_CONFIG="$pgc" "$@" install
	} >"$dir/build.log" 2>&1
	local rc=$?
	if [ $rc -ne 0 ]; then
		cat "$dir/build.log" >&2
		sb_die "building or installing scanbench against PostgreSQL $(sb_pgversion) failed"
	fi
	SB_BUILD=$dir
}

# Run a command as the cluster's OS user: initdb refuses root.
sb_as_pg()
{
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- env PATH="$(sb_pgbin):$PATH" "$@" 5>&- 6>&- 7>&- 8>&-
	else
		env PATH="$(sb_pgbin):$PATH" "$@" 5>&- 6>&- 7>&- 8>&-
	fi
}

# sb_free_port [FIRST]: the first port from FIRST (default 54329) that no
# server listens on, over TCP or on a socket in the usual directories.
sb_free_port()
{
	local p=${1:-54329}
	while [ "$p" -lt 65535 ]; do
		if [ ! -e "/tmp/.s.PGSQL.$p" ] && [ ! -e "/var/run/postgresql/.s.PGSQL.$p" ] &&
			! { command -v ss >/dev/null && ss -Hltn "sport = :$p" 2>/dev/null | grep -q .; }; then
			echo "$p"
			return 0
		fi
		p=$((p + 1))
	done
	sb_die "no free port from ${1:-54329} up"
}

# sb_start_cluster DIR PORT [SETTING...]: initdb in DIR/data, socket in DIR,
# started on PORT, with each SETTING ("name = value") added to its
# configuration.  Exports PGHOST, PGPORT, PGUSER, PGDATABASE for what
# follows and registers its own stop in SB_CLEANUP, which the caller's EXIT
# trap runs.
sb_start_cluster()
{
	local dir=$1 port=$2 s
	shift 2
	mkdir -p "$dir"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	sb_as_pg test -w "$dir" ||
		sb_die "the postgres user cannot write to $dir: choose a directory it can reach"
	sb_as_pg initdb -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 ||
		sb_die "initdb failed: see $dir/initdb.log"
	cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
shared_buffers = 128MB
max_wal_size = 4GB
checkpoint_timeout = 30min
fsync = off
full_page_writes = off
CONF
	for s in "$@"; do
		echo "$s" >>"$dir/data/postgresql.conf"
	done
	sb_on_exit "sb_as_pg pg_ctl -D '$dir/data' -m fast stop >/dev/null 2>&1"
	sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w start >/dev/null ||
		sb_die "server did not start: see $dir/server.log"
	export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
}

# sb_restart_cluster DIR [SETTING...]: add the settings (later lines win)
# and restart the cluster that sb_start_cluster made in DIR.
sb_restart_cluster()
{
	local dir=$1 s
	shift
	for s in "$@"; do
		echo "$s" >>"$dir/data/postgresql.conf"
	done
	sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -m fast -w restart >/dev/null ||
		sb_die "server did not restart: see $dir/server.log"
}

# sb_evict FILE...: each file and its further segments (FILE.1, FILE.2,
# ...) out of the page cache as the extension evicts them: each written
# back (fdatasync: a dirty page is not dropped), then dropped with
# POSIX_FADV_DONTNEED, which dd's iflag=nocache issues.  Name a relation's
# first segment only.  A name that is not a file is passed over.
sb_evict()
{
	local f s
	for f in "$@"; do
		for s in "$f" "$f".*; do
			[ -f "$s" ] || continue
			sync -d "$s" && dd if="$s" iflag=nocache count=0 status=none
		done
	done
	return 0
}

# Cleanup steps run last-registered first: the cluster stops before its
# directory goes, a mount is undone before its image is removed.
# The command line of the script that sourced this file ("." passes its
# arguments on), for sb_bench_record.
SB_ARGV=("$@")

# sb_bench_record: from here on, the bench's standard output also goes to a
# result file of its own, bench/results/NAME-YYYYMMDDTHHMMSSZ.txt, headed by
# the command line, the time, the commit and the machine.  A page quotes a
# run's current table and reasons about it; the run itself, with what a
# reader needs to repeat it, is kept here rather than in the page.
# SB_BENCH_RESULTS names another directory, or "none" for no file (a test
# running a bench at a test's size).  Call it once the arguments are read,
# so that a mistyped command leaves no file behind.
sb_bench_record()
{
	local dir=${SB_BENCH_RESULTS:-$SB_TOP/bench/results} name file
	[ "$dir" = none ] && return 0
	name=$(basename "$0" .sh)
	mkdir -p "$dir" || sb_die "cannot make the results directory $dir"
	file=$dir/$name-$(date -u +%Y%m%dT%H%M%SZ).txt
	{
		echo "# bench/$name.sh${SB_ARGV[*]:+ ${SB_ARGV[*]}}"
		echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(git -C "$SB_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
		echo "# $(sb_machine)"
		echo
	} >"$file" || sb_die "cannot write $file"
	exec > >(tee -a "$file")
	sb_log "the figures also go to ${file#"$SB_TOP"/}"
}

# sb_bench_lab_table FILE TITLE HEADER [--pg MAJOR[,MAJOR...]]: the whole
# of a bench script whose table is one lab TAP file's: the file through
# tools/test.sh's quick tier on each major (default 15,18), as root, the
# figures also in a results file (sb_bench_record).  Prints TITLE with the
# machine, a line a major (when it measured, its checks' counts), then the
# table: HEADER, a markdown row of the columns, and the "# table | ..."
# lines the file noted, each once (a failed file's output is printed
# twice).  Returns 1 when a check failed, after printing the failures on
# stderr.  The file takes the machine's lab lock itself while it measures
# (t/SbLab.pm), so the caller must not hold it.
sb_bench_lab_table()
{
	local file=$1 title=$2 header=$3 majors=15,18 log m when counts failed=0 summary= rows=
	shift 3
	while [ $# -gt 0 ]; do
		case "$1" in
			--pg) [ $# -ge 2 ] || sb_die "--pg needs a value"; majors=$2; shift 2 ;;
			*) sb_die "usage: ${0#"$SB_TOP"/} [--pg MAJOR[,MAJOR...]]" ;;
		esac
	done
	for m in ${majors//,/ }; do (sb_check_major "$m") || exit 2; done
	[ "$(id -u)" = 0 ] || sb_die "run as root: tools/test.sh installs the extension and makes control groups"
	sb_bench_record

	log=$(mktemp /tmp/scanbench-tap-bench.XXXXXX) || sb_die "mktemp failed"
	for m in ${majors//,/ }; do
		sb_log "PostgreSQL $m: $file in the lab"
		when=$(date -u '+%Y-%m-%dT%H:%MZ')
		"$SB_TOP/tools/test.sh" --quick --lab --pg "$m" "$file" >"$log" 2>&1
		counts=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log" | tail -n 1)
		if [ -z "$counts" ]; then
			tail -n 20 "$log" >&2
			rm -f "$log"
			sb_die "PostgreSQL $m: tools/test.sh gave no count"
		fi
		set -- $counts
		failed=$((failed + $2))
		[ "$2" -eq 0 ] || grep -E '^(not ok|#   Failed)' "$log" >&2
		summary+="PostgreSQL $m: measured $when; checks: $1 passed, $2 failed"$'\n'
		rows+=$(sed -n 's/^# table \(|.*\)$/\1/p' "$log" | awk '!seen[$0]++')$'\n'
	done
	rm -f "$log"

	echo "$title: $(uname -n), $(nproc) CPUs, $(uname -r)"
	printf '%s\n' "$summary"
	echo "$header"
	# As many columns of dashes as the header has.
	printf '%s' "$header" | sed -e 's/[^|]//g' -e 's/|/---|/g' -e 's/^---//'
	echo
	printf '%s' "$rows" | sed '/^$/d'
	[ $failed -eq 0 ]
}

# One line on the machine: CPUs and their model, memory, kernel, system,
# load average: what a figure measured here needs beside it.
sb_machine()
{
	local model mem os
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	mem=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
	os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")
	echo "$(nproc) CPUs (${model:-unknown}), $mem GiB, Linux $(uname -r), ${os:-unknown system}, load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

sb_on_exit() { SB_CLEANUP="$1; ${SB_CLEANUP:-:}"; }
sb_cleanup() { eval "${SB_CLEANUP:-:}"; }

# sb_bench_lineitem SCALE TABLE PORT: for a bench, a throwaway cluster on a
# free port from PORT on, with this tree installed and a lineitem of SCALE
# loaded as TABLE.  Stopped and removed by the caller's EXIT trap.
sb_bench_lineitem()
{
	local dir
	[ "$(id -u)" = 0 ] || sb_die "run as root, or with --here against a running server"
	sb_install_packages
	sb_build_install
	dir=$(mktemp -d /tmp/scanbench-bench.XXXXXX)
	sb_on_exit "rm -rf '$dir'"
	sb_start_cluster "$dir" "$(sb_free_port "$3")"
	"$(sb_pgbin)/scanbench-load" --scale "$1" --table "$2" --drop --quiet ||
		sb_die "scanbench-load failed"
	"$(sb_pgbin)/psql" -X -q -c "CREATE EXTENSION IF NOT EXISTS scanbench" ||
		sb_die "CREATE EXTENSION failed"
}

# sb_bench_args USAGE OWN ARG...: the command line of a bench on one
# lineitem.  --scale SF, --table NAME and --here (the server PGHOST/PGPORT
# name, where scanbench and the table are installed) go into scale, table
# and here; OWN names the bench's own options, each with a value, as their
# variables are named but with '-' for '_' ("rounds max-seconds": --rounds
# into rounds, --max-seconds into max_seconds).  The bench sets each
# variable to its default first.  Any other word ends it with USAGE.
sb_bench_args()
{
	local usage=$1 own=" $2 " name
	shift 2
	while [ $# -gt 0 ]; do
		case "$1" in
			--scale) scale=$2; shift 2 ;;
			--table) table=$2; shift 2 ;;
			--here) here=1; shift ;;
			--*)
				name=${1#--}
				[[ "$own" == *" $name "* ]] || sb_die "usage: $usage"
				printf -v "${name//-/_}" '%s' "$2"
				shift 2 ;;
			*) sb_die "usage: $usage" ;;
		esac
	done
	sb_bench_record
}

# sb_bench_table PORT: after sb_bench_args, the bench's table: with --here
# the server's own, otherwise lineitem of SF scale, loaded as table into a
# throwaway cluster on a free port from PORT on (sb_bench_lineitem).
sb_bench_table()
{
	[ "$here" -eq 1 ] || sb_bench_lineitem "$scale" "$table" "$1"
}

# sb_bench_psql LEVEL ARG...: psql on the bench's server, unaligned and
# without headers, stopping at the first error; the server's messages
# below LEVEL (warning, error) stay off the bench's output, which is its
# figures.
sb_bench_psql()
{
	PGOPTIONS="-c client_min_messages=$1" "$(sb_pgbin)/psql" -X -At -v ON_ERROR_STOP=1 "${@:2}"
}

# The median of the numbers on standard input, one or more to a line.
sb_median()
{
	tr ' ' '\n' | grep . | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# sb_pair_medians LEFT RIGHT: for two sides measured in pairs (the values
# space-separated, in pair order), prints the median of each side and the
# median of the pairs' own ratios left / right, separated by spaces.
sb_pair_medians()
{
	local ml mr pr
	ml=$(sb_median <<<"$1")
	mr=$(sb_median <<<"$2")
	pr=$(paste <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) |
		awk '$2 > 0 { print $1 / $2 }' | sb_median)
	echo "$ml $mr $pr"
}

# sb_pair_summary NAME LEFT RIGHT WANT [DIGITS]: one line of a bench's
# side-by-side table: NAME, the medians of the two paired sides with DIGITS
# decimals (default 3), their ratio, the median of the pairs' own ratios,
# and WANT, what the comparison should show.
sb_pair_summary()
{
	local ml mr pr
	read -r ml mr pr <<<"$(sb_pair_medians "$2" "$3")"
	NAME=$1 WANT=$4 awk -v l="$ml" -v r="$mr" -v p="$pr" -v d="${5:-3}" \
		'BEGIN { printf "%-46s %10." d "f %10." d "f   ratio %.3f   pairs %.3f   (%s)\n",
				 ENVIRON["NAME"], l, r, l / r, p, ENVIRON["WANT"] }'
}

# The wall clock in seconds, for a reference side a bench times itself;
# sb_mb_s BYTES SECONDS: its rate in MB/s (10^6 bytes), one decimal.
sb_now() { date +%s.%N; }
sb_mb_s() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.1f", b / s / 1e6 }'; }
