#!/usr/bin/env bash
# The whole test suite against one or more PostgreSQL majors; see --help.
set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/lab.sh"
trap 'sb_cleanup' EXIT

usage()
{
	cat <<'USAGE'
NAME
    tools/test.sh - build scanbench and run its tests against PostgreSQL

SYNOPSIS
    tools/test.sh [--pg MAJOR|all]... [--quick | --tier TIER[:MAJORS]]...
                  [--jobs N] [--tap-jobs N] [--port PORT] [--tmpdir DIR] [--keep]
                  [--no-slow]
                  [--lab | --no-lab | --lab-on MAJORS] [--lab-first]
                  [--citus | --no-citus | --citus-on MAJORS]
                  [--[no-]packaging] [TAP_FILE...]

DESCRIPTION
    For each PostgreSQL major asked for: installs the Debian packages the
    build needs, gets the server, builds the extension and the clients
    against it with -Werror in a copy of the tree, installs them, starts a
    throwaway cluster, and runs the tests of a tier:

    quick
        The C units (make unitcheck), pg_regress (sql/*.sql against
        expected/*.out), the layout's rules (tools/check-layout.sh), the
        documentation's checks that read the pages (tools/docs-check.pl,
        tools/reference.pl against the catalog, the tables of marks:
        tools/readme-check.sh --static) and the TAP files that show those
        checks failing (t/083_docs.pl, t/084_layout.pl). The blocks of
        README.md and doc/ marked run are left to the full tier. A few
        minutes on a 2-CPU machine (doc/development.md has the times): the
        loop to run while changing code.

    version
        The quick tier's units, pg_regress and static checks; a check
        that the library built at -O0 loads (no call to a function the
        server lacks hides behind the optimiser); and the TAP files that
        exercise what differs between majors (the list at the top of this
        script says what each covers), leaving out their parts that are
        the same on every major (SCANBENCH_VERSION_TIER tells them); with
        the lab, the lab's files stand for t/045 and t/046. For the
        majors CI does not run in the full tier.

    full (the default)
        Everything: the units, pg_regress, every TAP file of t/ (slow and
        timing-sensitive ones included: PG_TEST_EXTRA gets
        scanbench_slow), the -O0 load, make installcheck and make
        prove_installcheck in a fresh copy (tools/installcheck-test.sh),
        the Debian package for the major (tools/package-test.sh), every
        block of README.md and doc/ marked run (tools/readme-check.sh), the
        layout's rules, the clients' parsers fuzzed with libFuzzer for 10
        s each (make fuzzcheck, bin/fuzz; on this machine, not in a root),
        and, on 15 and 18, the packaging checks, made
        from this machine: on 15 tools/release.sh --dry-run (the release's
        tarball and zip, the zip installed with pgxn), on 18
        tools/pgxn-test.sh, and on both tools/container-test.sh (the
        container image built on a local base, run, scan_efficiency in
        it).

    TAP_FILEs named replace the tier's own TAP files; the tier's other
    checks still run (the packaging checks only when asked).

    The server is Debian's own packaged one wherever the machine's apt
    has the major (on Debian 12: 15). A major it lacks is tested by this
    same script inside a root of the Debian suite that packages it, made
    once by tools/pg-root.sh in /var/cache/scanbench-pg and reused: 17 in
    a trixie root, 18 and 19 in one sid root (19 from experimental). The
    first use of a root costs about 2 minutes; the tests then install into
    the root, not into this machine's servers. Two more checks follow such
    a run: no mount made for it is left, and a run ended by a signal, with
    a loop mount and a process left below the root, leaves neither. A
    major no suite packages is built from Debian's source package by
    tools/pg-build.sh, where the archive serves it.

    Root is the usual way to run it (apt, make install into the server's
    directories, loop mounts for the filesystem tests); clusters run as the
    postgres user. Installing replaces the server's copy of scanbench, so
    runs on one machine take turns.

    The last line of output is "N passed, N failed", summed over every
    major and every kind of test.

OPTIONS
    --quick
        The quick tier (see above), on 15 unless --pg says otherwise.

    --tier TIER
        The tier of every major: quick, version or full (the default).

    --tier TIER:MAJOR[,MAJOR]...
        The tier of the majors named, over --tier TIER for the others:
        --tier version --tier full:15,18 runs the full tier on 15 and 18
        and the version tier on the rest.

    --pg MAJOR
        The PostgreSQL major to test against: 15 (the default), 17, 18 or
        19. Repeat it, or give a comma-separated list (--pg 15,18), to test
        several in turn. A major named this way must be tested: if its
        packages cannot be had, that is a failure.

    --pg all
        Every major (15, 17, 18, 19) that can be had. One whose packages
        cannot be had (the archive does not serve its suite) is skipped
        with the reason; a skipped major adds nothing to the passed count.
        Majors also named one by one must still be tested: --pg 15,18,all
        tests 15 and 18 whatever happens, and 17 and 19 when they can be
        had.

    -j N, --jobs N
        With several majors, test up to N of them at once (default 1, one
        after another). Two majors that install into one place (this
        machine's servers, or one root: 18 and 19 share sid's) never run
        together. Each run's output is printed whole when it ends. The
        tests are written to hold on a busy machine, which a second run
        makes of this one; doc/development.md has the times. The tests
        that measure in the lab (t/SbLab.pm) take one machine-wide lock,
        and a run started beside one that runs them late runs them first
        (--lab-first), so that the two seldom wait for each other.

    --tap-jobs N
        Run up to N TAP files of a major at once (prove -j N; default 1).
        The lab's files run one after another as one of the N, started
        first; the files that use the run's small filesystems (one fills
        one to test a full disk) run one at a time after the others.

    --port PORT
        Port of the throwaway cluster. Default: the first free one from
        54329. (TAP tests pick ports of their own.)

    --tmpdir DIR
        Where the work directory (the copy of the tree, the cluster, the
        test filesystems' images) is made. Default: $TMPDIR or /tmp. The
        postgres user must be able to reach it. It is removed at the end.

    --keep
        Keep the work directory, to read the logs of a failure; its path
        is printed.

    --no-slow
        Leave scanbench_slow out of PG_TEST_EXTRA: the slow tests skip.

    --no-lab
        The TAP files that measure in the lab (t/SbLab.pm) skip, saying
        why; those that only use it for part of their work do the rest.

    --lab
        In the quick and version tiers, run the lab's files too (the full
        tier runs them unless --no-lab).

    --lab-on MAJOR[,MAJOR]...
        With several majors: these run the lab's files (--lab), the
        others do not (--no-lab). One lab measures at a time on a
        machine, so the lab's files of two majors run one after the
        other; CI runs them on one major (doc/development.md has the
        times).

    --citus, --no-citus, --citus-on MAJOR[,MAJOR]...
        As --lab, --no-lab and --lab-on, for the TAP files that start a
        Citus cluster (t/SbCitus.pm; Citus supports 16 to 18): with
        --no-citus Citus is not built and they skip, saying why. CI runs
        them on one major.

    --lab-first
        Run the TAP files that use the lab (t/SbLab.pm: a throttled disk,
        a capped CPU) before the others. One lab measures at a time on a
        machine, and a run beside another that has reached its lab tests
        waits for them, as it waits for a package root being made
        (tools/pg-root.sh writes hundreds of MB to the disk it measures).

    --packaging, --no-packaging
        Make the packaging checks (on 15 and 18) or leave them out. By
        default a whole run makes them and a run of named TAP_FILEs does
        not.

    -h, --help
        Print this help.

EXAMPLES
    tools/test.sh                          everything, on 15
    tools/test.sh --quick                  units, pg_regress, static checks, on 15
    tools/test.sh --quick t/001_cache.pl   the same with one TAP file
    tools/test.sh --pg 18 t/001_cache.pl   pg_regress, one TAP file and the
                                           further checks, on 18
    tools/test.sh --pg all                 everything, on every major
    tools/test.sh --pg 17 --tier version   what differs between majors, on 17
    .ci/run                                CI: every major, each in the tier
                                           doc/development.md gives it

EXIT STATUS
    0 when nothing failed; 1 when something failed; 2 on a usage error;
    3 when the one major asked for could not be had.
USAGE
}

majors=()
named=" "		# majors named one by one: these may not be skipped
port=""
tmpbase=${TMPDIR:-/tmp}
keep=0
slow=1
lab=""			# --lab 1, --no-lab 0; by default 1 in the full tier
lab_on=""
lab_first=0
citus=""		# --citus 1, --no-citus 0; by default 1 in the full tier
citus_on=""
packaging=""
tier_all=full		# --tier TIER
declare -A tier_on=()	# --tier TIER:MAJORS
jobs=1
tap_jobs=1
tests=()
pass_on=()		# options repeated for each major's run
ncpu=$(nproc 2>/dev/null || echo 2)

# The quick tier's TAP files: the documentation's and the layout's
# checks, each shown failing on a small tree (seconds).
quick_tests=(t/083_docs.pl t/084_layout.pl)
# The version tier's TAP files: those that exercise what differs between
# majors (src/compat*.h, the loader's server.c; doc/development.md lists
# the differences) beyond pg_regress, which calls every function on every
# major.  Each for what it covers; times measured on 17 under a load of
# about 7 (doc/development.md has the figures).
version_tests=(
	t/001_cache.pl		# cold is cold: eviction (by hand before 17,
				# EvictUnpinnedBuffer from 17 and its 18 form), buffer
				# tags (16), the buffer state's 64 bits (19), local
				# buffers (16); 10 s
	t/024_io_faults.pl	# read errors through each major's read path (read
				# streams from 17, io_method from 18); 39 s
	t/030_breakdown.pl	# BufferUsage's read time (17), I/O workers' CPU and
				# settings (18; 19's pool), a scan's I/O statistics
				# (19); 44 s
	t/045_page_costs.pl	# a block range read as the major's seq scan reads it
				# (read streams from 17); 33 s (t/094 stands for it
				# with the lab)
	t/046_access_paths.pl	# the planner's hook on a relation's indexes (19), a
				# scan node's I/O statistics (19); 36 s
	t/065_workload_scans.pl	# EXPLAIN's read time keys (17) and its IO
				# option (19), a query's scan nodes cold and warm
	t/051_history_survives.pl # the major's pg_dump and restore of the
				# history, ALTER EXTENSION UPDATE; 16 s
	t/080_upgrade.pl	# every released script and upgrade step on the major,
				# the old definitions served by the new library; 60 s
				# (its Citus part only with --citus: 420 s more)
	t/104_load_server.pl	# the loader's checkpoint counters (pg_stat_checkpointer
				# from 17) and the server's settings it reads; 20 to
				# 44 s (its timed loads left to the full tier)
)
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--pg | --port | --tmpdir | -j | --jobs | --tap-jobs)
		[ $# -ge 2 ] || { sb_log "$1 needs a value (see --help)"; exit 2; }
		opt=$1 val=$2
		shift 2
		;;
	--pg=* | --port=* | --tmpdir=* | --jobs=* | --tap-jobs=*) opt=${1%%=*} val=${1#*=}; shift ;;
	--keep) keep=1; pass_on+=(--keep); shift; continue ;;
	--no-slow) slow=0; pass_on+=(--no-slow); shift; continue ;;
	--no-lab) lab=0; pass_on+=(--no-lab); shift; continue ;;
	--lab) lab=1; pass_on+=(--lab); shift; continue ;;
	--lab-on=*) lab_on=" ${1#*=} "; lab_on=${lab_on//,/ }; shift; continue ;;
	--lab-on)
		[ $# -ge 2 ] || { sb_log "$1 needs a value (see --help)"; exit 2; }
		lab_on=" ${2//,/ } "; shift 2; continue ;;
	--lab-first) lab_first=1; shift; continue ;;
	--citus) citus=1; pass_on+=(--citus); shift; continue ;;
	--no-citus) citus=0; pass_on+=(--no-citus); shift; continue ;;
	--citus-on=*) citus_on=" ${1#*=} "; citus_on=${citus_on//,/ }; shift; continue ;;
	--citus-on)
		[ $# -ge 2 ] || { sb_log "$1 needs a value (see --help)"; exit 2; }
		citus_on=" ${2//,/ } "; shift 2; continue ;;
	--packaging) packaging=1; pass_on+=(--packaging); shift; continue ;;
	--no-packaging) packaging=0; pass_on+=(--no-packaging); shift; continue ;;
	--quick) tier_all=quick; shift; continue ;;
	--tier | --tier=*)
		if [ "$1" = --tier ]; then
			[ $# -ge 2 ] || { sb_log "$1 needs a value (see --help)"; exit 2; }
			val=$2; shift 2
		else
			val=${1#*=}; shift
		fi
		t=${val%%:*}
		case $t in quick | version | full) ;; *) sb_log "--tier: no tier $t: quick, version or full"; exit 2 ;; esac
		if [[ $val == *:* ]]; then
			val=${val#*:}
			[ -n "$val" ] || { sb_log "--tier $t: names no major"; exit 2; }
			for m in ${val//,/ }; do
				(sb_check_major "$m") || exit 2
				tier_on[$m]=$t
			done
		else
			tier_all=$t
		fi
		continue ;;
	--) shift; tests+=("$@"); break ;;
	-*) sb_log "unknown option: $1 (see --help)"; exit 2 ;;
	*) tests+=("$1"); shift; continue ;;
	esac
	case $opt in
	--pg)
		for m in ${val//,/ }; do
			if [ "$m" = all ]; then
				majors+=($SB_MAJORS)
			else
				(sb_check_major "$m") || exit 2
				majors+=("$m")
				named="$named$m "
			fi
		done
		;;
	--port)
		[[ $val =~ ^[0-9]+$ ]] && [ "$val" -gt 0 ] && [ "$val" -lt 65536 ] ||
			{ sb_log "--port: not a port number: $val"; exit 2; }
		port=$val
		pass_on+=(--port "$val")
		;;
	-j | --jobs)
		[[ $val =~ ^[1-9][0-9]*$ ]] || { sb_log "--jobs: not a positive number: $val"; exit 2; }
		jobs=$val
		;;
	--tap-jobs)
		[[ $val =~ ^[1-9][0-9]*$ ]] || { sb_log "--tap-jobs: not a positive number: $val"; exit 2; }
		tap_jobs=$val
		pass_on+=(--tap-jobs "$val")
		;;
	--tmpdir)
		[ -d "$val" ] || { sb_log "--tmpdir: no such directory: $val"; exit 2; }
		tmpbase=$(cd "$val" && pwd)
		pass_on+=(--tmpdir "$tmpbase")
		;;
	esac
done
[ ${#majors[@]} -eq 0 ] && majors=("$SB_APT_MAJOR")
# Each major once, in the order given.
mapfile -t majors < <(printf '%s\n' "${majors[@]}" | awk '!seen[$0]++')
for t in "${tests[@]}"; do
	[ -f "$SB_TOP/$t" ] || [ -f "$t" ] || { sb_log "no such TAP file: $t"; exit 2; }
done

# Several majors: run this script once per major and add up the counts.
if [ ${#majors[@]} -gt 1 ]; then
	total_pass=0 total_fail=0 waited=0
	summary=()
	# The roots of the majors this machine's apt lacks are made (or
	# brought up to date) while the first majors' tests run: a fresh root
	# is minutes of downloading and unpacking that need not wait.  One job
	# per suite, its majors in turn (they share the root and its lock);
	# pg-root.sh's lock makes the test run of a major wait for its root.
	# A preparation that fails is retried, and reported, by that run.
	if [ "$(id -u)" = 0 ] && [ -z "${SB_IN_ROOT:-}" ]; then
		declare -A suite_majors=()
		prep_pids=()
		for m in "${majors[@]}"; do
			sb_packaged "$m" && continue
			suite=$(sb_root_suite "$m") || continue
			suite_majors[$suite]="${suite_majors[$suite]:-} $m"
		done
		if [ ${#suite_majors[@]} -gt 0 ] && ! command -v mmdebstrap >/dev/null; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap >/dev/null 2>&1 ||
				{ apt-get update -q >/dev/null 2>&1 &&
					DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap >/dev/null 2>&1; } ||
				sb_log "could not install mmdebstrap: the roots are made when their majors' turn comes"
		fi
		for suite in "${!suite_majors[@]}"; do
			prep_log="$tmpbase/scanbench-root-prep-$suite.log"
			sb_log "preparing the $suite root for PostgreSQL${suite_majors[$suite]} in the background ($prep_log)"
			( trap 'kill $child 2>/dev/null; exit 143' TERM INT
			  for m in ${suite_majors[$suite]}; do
				"$SB_TOP/tools/pg-root.sh" "$m" true &
				child=$!
				wait $child || echo "preparing PostgreSQL $m failed"
			  done ) </dev/null >"$prep_log" 2>&1 &
			prep_pids+=($!)
		done
		[ ${#prep_pids[@]} -gt 0 ] && sb_on_exit "kill ${prep_pids[*]} 2>/dev/null"
	fi
	# tally MAJOR RC LOG: add one major's run to the summary.
	declare -A result=() failed_lines=()
	tally()
	{
		local m=$1 rc=$2 log=$3 w counts why
		w=$(sed -n 's/^test.sh: PostgreSQL [0-9]* took [0-9]* s, \([0-9]*\) s of them.*/\1/p' "$log" | tail -1)
		waited=$((waited + ${w:-0}))
		counts=$(tail -n 1 "$log" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
		if [ "$rc" -eq 3 ]; then
			why=$(grep -m1 '^pg-\(build\|root\).sh: \(could not\|no \|the .* archive\|the archive\|PostgreSQL [0-9]*: no\)' "$log" |
				sed 's/^pg-[a-z]*.sh: //')
			if [[ $named != *" $m "* ]]; then
				result[$m]="PostgreSQL $m: skipped, ${why:-its source could not be fetched}"
			else
				result[$m]="PostgreSQL $m: failed, ${why:-its source could not be fetched}"
				total_fail=$((total_fail + 1))
			fi
		elif [ -n "$counts" ]; then
			set -- $counts
			# A run that failed without counting a failure still failed.
			[ "$rc" -ne 0 ] && [ "$2" -eq 0 ] && set -- "$1" 1
			result[$m]="PostgreSQL $m: $1 passed, $2 failed"
			total_pass=$((total_pass + $1))
			total_fail=$((total_fail + $2))
		else
			result[$m]="PostgreSQL $m: failed before its tests ran (exit $rc)"
			total_fail=$((total_fail + 1))
		fi
		# What failed, again at the end: a long run's output is often
		# read from its tail alone.
		failed_lines[$m]=$(grep -E '^(not ok|t/[^ ]+ +\(Wstat)' "$log" | awk '!seen[$0]++' | head -n 20)
		rm -f "$log"
	}
	# Where a major's run installs: this machine's servers, or a root
	# (two majors of one root take turns on its lock anyway).
	place()
	{
		if sb_packaged "$1"; then echo host
		else sb_root_suite "$1" || echo host
		fi
	}
	# major_args MAJOR: the options of MAJOR's own run: its tier, and the
	# lab and Citus where --lab-on and --citus-on decide them.
	major_args()
	{
		local a=(--tier "${tier_on[$1]:-$tier_all}")
		if [ -n "$lab_on" ]; then
			[[ $lab_on == *" $1 "* ]] && a+=(--lab) || a+=(--no-lab)
		fi
		if [ -n "$citus_on" ]; then
			[[ $citus_on == *" $1 "* ]] && a+=(--citus) || a+=(--no-citus)
		fi
		echo "${a[*]}"
	}
	if [ "$jobs" -eq 1 ]; then
		for m in "${majors[@]}"; do
			log=$(mktemp "$tmpbase/scanbench-test-$m.XXXXXX.log")
			"$0" --pg "$m" "${pass_on[@]}" $(major_args "$m") "${tests[@]}" 2>&1 | tee "$log"
			tally "$m" "${PIPESTATUS[0]}" "$log"
		done
	else
		# Up to $jobs majors at once, never two in one place; each run's
		# output is printed whole when it ends.
		declare -A running=() run_log=() busy=() lab_first_of=()
		queue=("${majors[@]}")
		while [ ${#queue[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
			if [ ${#running[@]} -lt "$jobs" ]; then
				for i in "${!queue[@]}"; do
					m=${queue[$i]} where=$(place "${queue[$i]}")
					[ -n "${busy[$where]:-}" ] && continue
					log=$(mktemp "$tmpbase/scanbench-test-$m.XXXXXX.log")
					# Beside a run that reaches the lab tests late, one
					# that runs them first: the two do not queue for the
					# machine's one lab at the same moment.
					order=()
					for p in "${!running[@]}"; do
						[ -z "${lab_first_of[$p]}" ] && order=(--lab-first)
					done
					args=$(major_args "$m")
					[[ " $args " == *" --no-lab "* ]] && order=()
					sb_log "PostgreSQL $m: started ($where), $args${order:+ --lab-first}; its output follows when it ends"
					# A background job of a script starts with SIGINT and
					# SIGQUIT ignored, which every test's child would
					# inherit (pgbench would outlive its INT): the defaults
					# back.
					env --default-signal=INT,QUIT \
						"$0" --pg "$m" "${pass_on[@]}" $args "${order[@]}" "${tests[@]}" </dev/null >"$log" 2>&1 &
					running[$!]=$m run_log[$!]=$log busy[$where]=$! lab_first_of[$!]=${order[*]}
					unset "queue[$i]"
					queue=("${queue[@]}")
					continue 2
				done
			fi
			wait -n -p done_pid "${!running[@]}"
			rc=$?
			m=${running[$done_pid]} log=${run_log[$done_pid]}
			unset "running[$done_pid]" "run_log[$done_pid]" "busy[$(place "$m")]" "lab_first_of[$done_pid]"
			cat "$log"
			tally "$m" "$rc" "$log"
		done
	fi
	summary=()
	for m in "${majors[@]}"; do
		[ -n "${result[$m]:-}" ] && summary+=("${result[$m]}")
	done
	echo
	printf '%s\n' "${summary[@]}"
	for m in "${majors[@]}"; do
		[ -n "${failed_lines[$m]:-}" ] || continue
		echo "PostgreSQL $m, what failed:"
		printf '%s\n' "${failed_lines[$m]}" | sed 's/^/  /'
	done
	sb_log "all majors took $SECONDS s, $waited s of them waiting for other runs"
	echo "$total_pass passed, $total_fail failed"
	[ $total_fail -eq 0 ]
	exit
fi

# One major from here on.  A fatal error still ends with the count line.
pass=0 fail=0
sb_on_die() { echo "$pass passed, $((fail + 1)) failed"; }
SB_PGMAJOR=${majors[0]}
tier=${tier_on[$SB_PGMAJOR]:-$tier_all}
# The packaging checks (the release's dry run, PGXN, the container images)
# take minutes: the full tier makes them, a run of named TAP files or of
# another tier only when asked.
[ -z "$packaging" ] && { [ ${#tests[@]} -eq 0 ] && [ "$tier" = full ] && packaging=1 || packaging=0; }
[ -z "$lab" ] && { [ "$tier" = full ] && lab=1 || lab=0; }
[ -z "$citus" ] && { [ "$tier" = full ] && citus=1 || citus=0; }
# The TAP files of the tier, unless some are named.
if [ ${#tests[@]} -eq 0 ]; then
	case $tier in
	quick) tests=("${quick_tests[@]}") ;;
	version) tests=("${version_tests[@]}") ;;
	full) tests=($(cd "$SB_TOP" && echo t/*.pl)) ;;
	esac
	# The lab's files and those that need Citus, in the quick and version
	# tiers when asked (--lab, --citus); in the full tier they are there,
	# and skip with --no-lab, --no-citus.
	if [ "$tier" != full ]; then
		[ $lab -eq 1 ] && tests+=($(cd "$SB_TOP" && grep -l '^use SbLab;' t/*.pl))
		[ $citus -eq 1 ] && tests+=($(cd "$SB_TOP" && grep -l '^use SbCitus;' t/*.pl))
		# With the lab, page_costs and access_paths are called on this
		# major by its files against known answers (t/094, t/095), through
		# the same read paths: the version tier's own files for them
		# (t/045, t/046) are left out.
		if [ "$tier" = version ] && [ $lab -eq 1 ]; then
			mapfile -t tests < <(printf '%s\n' "${tests[@]}" | grep -vxF -e t/045_page_costs.pl -e t/046_access_paths.pl)
		fi
		mapfile -t tests < <(printf '%s\n' "${tests[@]}" | sort -u)
	fi
fi
# What the TAP files need from this machine (filesystems, the lab's disk
# and control groups): not made for the quick tier's own two files.
tap_env=1
[ "$(printf '%s\n' "${tests[@]}" | grep -cvxF -e t/083_docs.pl -e t/084_layout.pl)" -eq 0 ] && tap_env=0

# count PASSED FAILED [RUNNER_STATUS]: add to the totals; a runner that
# failed without reporting a failure still counts as one.
count()
{
	local p=$1 f=$2 rc=${3:-0}
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	pass=$((pass + p))
	fail=$((fail + f))
}

# check NAME COMMAND...: one further check, run with the throwaway cluster
# in PGHOST/PGPORT, the server in SB_PGBIN (SB_PGMAJOR) and the built tree
# in SB_BUILD.  If its last line is "N passed, N failed" those counts are
# added; otherwise its exit status counts as one test.
check()
{
	local name=$1 out rc counts t0=$SECONDS
	shift
	sb_log "$name"
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	sb_log "... $((SECONDS - t0)) s"
	counts=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
	if [ -n "$counts" ]; then
		count ${counts% *} ${counts#* } $rc
	elif [ $rc -eq 0 ]; then
		count 1 0
	else
		echo "not ok - $name (exit $rc)"
		count 0 1
	fi
}

# The distribution and the container image, tested from this machine
# (git reads the checkout here, podman runs here) on 15 and 18, in a whole
# run (or with --packaging): 15's through tools/release.sh --dry-run, which
# builds the release's tarball and zip and installs the zip with pgxn; 18's
# zip with tools/pgxn-test.sh, which installs it in the sid root.  The
# images are built once per major and run.
packaging_checks()
{
	[ $packaging -eq 1 ] && [ -z "${SB_IN_ROOT:-}" ] || return 0
	case $SB_PGMAJOR in
	"$SB_APT_MAJOR")
		# A release's own run, from its tarball: the release's zip.
		if [ -n "${SB_DIST_ZIP:-}" ]; then
			check "PGXN: the release's zip installed with pgxn, its installcheck, on $SB_PGMAJOR" \
				env SB_INSTALL_LOCKED=1 SB_PGMAJOR="$SB_PGMAJOR" "$SB_TOP/tools/pgxn-test.sh"
		else
			check "the release, dry run: papers, tarball and zip, built and installed (pgxn) on $SB_PGMAJOR" \
			env SB_INSTALL_LOCKED=1 "$SB_TOP/tools/release.sh" "$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$SB_TOP/scanbench.control")" --dry-run
		fi
		;;
	18)
		check "PGXN: make dist's zip installed with pgxn, its installcheck, on $SB_PGMAJOR" \
			env SB_PGMAJOR="$SB_PGMAJOR" "$SB_TOP/tools/pgxn-test.sh"
		;;
	*) return 0 ;;
	esac
	check "container image on PostgreSQL $SB_PGMAJOR: built on a local base, run, scan_efficiency in it" \
		"$SB_TOP/tools/container-test.sh" "$SB_PGMAJOR"
}


# A major this machine's apt lacks but a Debian suite packages: the same
# tests, run by this script inside a root of that suite (tools/pg-root.sh),
# against Debian's own server there.
if [ -z "${SB_IN_ROOT:-}" ] && ! sb_packaged "$SB_PGMAJOR" && sb_root_suite "$SB_PGMAJOR" >/dev/null; then
	inner=(--pg "$SB_PGMAJOR" --tier "$tier")
	[ -n "$port" ] && inner+=(--port "$port")
	[ $keep -eq 1 ] && inner+=(--keep)
	[ $slow -eq 0 ] && inner+=(--no-slow)
	[ $lab -eq 0 ] && inner+=(--no-lab)
	[ $lab -eq 1 ] && inner+=(--lab)
	[ $citus -eq 0 ] && inner+=(--no-citus)
	[ $citus -eq 1 ] && inner+=(--citus)
	[ $lab_first -eq 1 ] && inner+=(--lab-first)
	inner+=(--tap-jobs "$tap_jobs")
	log=$(mktemp "$tmpbase/scanbench-root-$SB_PGMAJOR.XXXXXX.log")
	sb_on_exit "rm -f '$log'"
	"$SB_TOP/tools/pg-root.sh" "$SB_PGMAJOR" /src/scanbench/tools/test.sh "${inner[@]}" "${tests[@]}" 2>&1 |
		tee "$log"
	rc=${PIPESTATUS[0]}
	# The last count line: --keep's note on the kept directory follows it.
	counts=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log" | tail -n 1)
	if [ -z "$counts" ]; then
		[ $rc -eq 3 ] && exit 3
		counts="0 1"
	fi
	pass=${counts% *} fail=${counts#* }
	[ $rc -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
	# No mount made for the run outlives it, whether it ends by itself or
	# by a signal with a loop mount and a process left below the root.
	root=${SCANBENCH_PG_CACHE:-/var/cache/scanbench-pg}/root-$(sb_root_suite "$SB_PGMAJOR")
	mounts_below() { awk -v r="$root" '$5 == r || index($5, r "/") == 1' /proc/self/mountinfo | wc -l; }
	if [ "$(mounts_below)" -eq 0 ]; then
		echo "ok - no mount below $root outlives the run"; pass=$((pass + 1))
	else
		echo "not ok - mounts below $root outlive the run:"; awk '{print $5}' /proc/self/mountinfo | grep -F "$root"
		fail=$((fail + 1))
	fi
	if [ -d "$root/usr" ]; then
		"$SB_TOP/tools/pg-root.sh" "$SB_PGMAJOR" sh -c '
			truncate -s 16M /tmp/left.img && mkfs.ext2 -q /tmp/left.img &&
			mkdir -p /tmp/left && mount -o loop /tmp/left.img /tmp/left &&
			touch /tmp/mounted && exec setsid sleep 600' </dev/null >/dev/null 2>&1 &
		killme=$!
		# Up to 10 minutes: the root may be another run's first (a
		# preparation in the background, another major of the suite).
		for i in $(seq 1 6000); do
			[ -e "$root/tmp/mounted" ] && break
			kill -0 $killme 2>/dev/null || break
			sleep 0.1
		done
		[ -e "$root/tmp/mounted" ] && loop_seen=1 || loop_seen=0
		kill -TERM $killme 2>/dev/null
		wait $killme 2>/dev/null
		# The kernel takes the namespace down after the signal: up to 10 s
		# on a busy machine.
		for i in $(seq 1 100); do
			left=$(for p in /proc/[0-9]*; do readlink "$p/root"; done 2>/dev/null | grep -cxF "$root")
			[ "$left" -eq 0 ] && [ "$(mounts_below)" -eq 0 ] && break
			sleep 0.1
		done
		if [ $loop_seen -eq 1 ] && [ "$(mounts_below)" -eq 0 ] && [ "$left" -eq 0 ] &&
			! losetup -a 2>/dev/null | grep -qF "$root/tmp/left.img"; then
			echo "ok - a run ended by a signal leaves no mount and no loop device below $root"; pass=$((pass + 1))
		else
			echo "not ok - a run ended by a signal (loop mount made: $loop_seen, processes left: $left) left mounts or a loop device below $root"
			fail=$((fail + 1))
		fi
	fi
	packaging_checks
	sb_log "PostgreSQL $SB_PGMAJOR took ${SECONDS} s, the $(sb_root_suite "$SB_PGMAJOR") root included, 0 s of them waiting for other runs"
	echo "$pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
fi

sb_install_packages
sb_use_pg
rc=$?
if [ $rc -ne 0 ]; then
	if [ $rc -eq 3 ]; then
		sb_log "PostgreSQL $SB_PGMAJOR is not available on this machine (see the reason above)"
	else
		sb_log "could not get PostgreSQL $SB_PGMAJOR"
	fi
	sb_on_die
	exit $rc
fi
sb_log "PostgreSQL $(sb_pgversion) ($(sb_pgbin))"

# The build and the tests run in a copy of the tree owned by the cluster's
# OS user, so that pg_regress and TAP can write results/ and tmp_check/
# without touching the checkout.
work=$(mktemp -d "$tmpbase/scanbench-test-$SB_PGMAJOR.XXXXXX") ||
	sb_die "could not make a work directory in $tmpbase"
chmod 755 "$work"
if [ $keep -eq 1 ]; then
	sb_on_exit "echo '${0##*/}: kept $work' >&2"
else
	sb_on_exit "rm -rf '$work'"
fi
t0=$SECONDS
sb_build_install "$work/src" COPT=-Werror -j"$ncpu"
[ -s "$work/src/build.log" ] && cat "$work/src/build.log"
sb_log "build and install took $((SECONDS - t0)) s (tier $tier)"
[ "$(id -u)" = 0 ] && chown -R postgres: "$work"
sb_as_pg test -w "$work/src" ||
	sb_die "the postgres user cannot write to $work: give --tmpdir a directory it can reach"

# The C units: no server.
t0=$SECONDS
unit_log="$work/unit.log"
sb_as_pg make -C "$work/src" -s unitcheck PG_CONFIG="$(sb_pgbin)/pg_config" >"$unit_log" 2>&1
unit_rc=$?
if [ $unit_rc -ne 0 ]; then cat "$unit_log"; else grep -E '^not ok ' "$unit_log"; fi
count "$(grep -cE '^ok ' "$unit_log")" "$(grep -cE '^not ok ' "$unit_log")" $unit_rc
sb_log "C units (make unitcheck): $(grep -cE '^ok ' "$unit_log") passed, $((SECONDS - t0)) s"

port=${port:-$(sb_free_port)}
sb_start_cluster "$work/cluster" "$port"

# A filesystem of a known type under a tablespace, where this machine lets us
# mount one: t/ tests read SCANBENCH_TEST_FS and skip when it is empty.
SCANBENCH_TEST_FS=""
setup=0
[ "$(id -u)" = 0 ] && [ $tap_env -eq 1 ] && setup=1
if [ $setup -eq 1 ] && command -v mkfs.ext2 >/dev/null; then
	for fs in ext2 xfs; do
		img="$work/$fs.img" mnt="$work/mnt-$fs"
		mkdir -p "$mnt"
		truncate -s 400M "$img"
		if "mkfs.$fs" -q "$img" >/dev/null 2>&1 &&
			mount -o loop "$img" "$mnt" 2>/dev/null; then
			sb_on_exit "umount '$mnt' 2>/dev/null"
			chown postgres: "$mnt"
			SCANBENCH_TEST_FS="$SCANBENCH_TEST_FS $fs:$mnt"
		fi
	done
fi
export SCANBENCH_TEST_FS

# A tmpfs for a tablespace, apart from the list above: tmpfs may refuse
# O_DIRECT, which t/003 asks of every filesystem there.
SCANBENCH_TEST_TMPFS=""
if [ $setup -eq 1 ]; then
	mnt="$work/mnt-tmpfs"
	mkdir -p "$mnt"
	if mount -t tmpfs -o size=256M scanbench-tmpfs "$mnt" 2>/dev/null; then
		sb_on_exit "umount '$mnt' 2>/dev/null"
		chown postgres: "$mnt"
		SCANBENCH_TEST_TMPFS=$mnt
	fi
fi
export SCANBENCH_TEST_TMPFS

# A lab disk of known latency and depth (tools/lab-disk), for the lab's
# TAP tests that read at depth (t/SbLab.pm), mounted here as root: libfuse
# opens /dev/fuse itself before it would ask fusermount3, and on machines
# like this one /dev/fuse is root's alone.  Served to every user
# (allow_other); what the tests make on it belongs to them.  Where it
# cannot be mounted, those tests skip and say why.
SB_LAB_DISK=""
if [ $setup -eq 1 ] && "$SB_TOP/tools/lab.sh" disk-check >/dev/null 2>&1; then
	mkdir -p "$work/lab-disk-backing" "$work/lab-disk"
	chown postgres: "$work/lab-disk-backing" "$work/lab-disk"
	if "$SB_TOP/tools/lab.sh" disk-mount "$work/lab-disk-backing" "$work/lab-disk" >/dev/null 2>&1; then
		sb_on_exit "'$SB_TOP/tools/lab.sh' disk-umount '$work/lab-disk'"
		SB_LAB_DISK=$work/lab-disk
		# Its read-ahead window is the tests' to change (the file goes
		# with the mount).
		chown postgres "$(sb_lab_disk_ra_file "$SB_LAB_DISK")"
		SB_LAB_DISK_RA=$(sb_lab_disk_ra "$SB_LAB_DISK")
		export SB_LAB_DISK_RA
	fi
fi
export SB_LAB_DISK

# Control groups the cluster's OS user may make below, for the lab's TAP
# tests (t/SbLab.pm): a group handed to postgres in each hierarchy, removed
# with whatever is left in it at exit.  Where groups cannot be made, the
# tests skip and say why.
if [ $setup -eq 1 ]; then
	# Named by major as well as pid: a run in a package root is pid 1 of
	# its own namespace, and two roots' runs at once share the hierarchy.
	export SB_LAB_PARENT=/scanbench-test-$SB_PGMAJOR-$$
	if "$SB_TOP/tools/lab.sh" delegate postgres; then
		sb_on_exit "SB_LAB_PARENT='$SB_LAB_PARENT' '$SB_TOP/tools/lab.sh' undelegate"
	else
		unset SB_LAB_PARENT
	fi
fi
if [ $slow -eq 1 ]; then
	export PG_TEST_EXTRA="${PG_TEST_EXTRA:+$PG_TEST_EXTRA }scanbench_slow"
fi
if [ $lab -eq 0 ]; then
	export SCANBENCH_NO_LAB="this run leaves the lab to other majors (tools/test.sh --no-lab)"
fi
if [ $citus -eq 0 ]; then
	export SCANBENCH_NO_CITUS="this run leaves Citus to other majors (tools/test.sh --no-citus)"
fi
# In the version tier a TAP file leaves out what is the same on every
# major (timings of the loader's jobs, scan_advice's rows), which the full
# tier tests once.
if [ "$tier" = version ]; then
	export SCANBENCH_VERSION_TIER="the same on every major: left to the full tier (tools/test.sh --tier version)"
fi

sb_log "pg_regress on port $PGPORT"
t0=$SECONDS
regress_log="$work/regress.log"
sb_as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres \
	make -C "$work/src" -s installcheck PG_CONFIG="$(sb_pgbin)/pg_config" \
	>"$regress_log" 2>&1
regress_rc=$?
cat "$regress_log"
[ $regress_rc -ne 0 ] && [ -f "$work/src/regression.diffs" ] && cat "$work/src/regression.diffs"
# pg_regress 15 prints "name ... ok", 16 and later print TAP ("ok 1 - name").
count "$(grep -cE '^(ok [0-9]+ |test .* \.\.\. ok| +[a-z_0-9]+ +\.\.\. ok)' "$regress_log")" \
	"$(grep -cE '(\.\.\. FAILED|^not ok [0-9]+ )' "$regress_log")" $regress_rc
sb_log "pg_regress took $((SECONDS - t0)) s"

# Citus, for the t/06x tests on a three-node cluster: built once per server
# from ../shared/vendor by tools/citus-build.sh.  Where it cannot be had
# (no tarball, a major Citus does not support) those tests skip, as they
# do with --no-citus, where it is not built.
if [ "$SB_PGMAJOR" -ge 16 ] && [ $citus -eq 1 ]; then
	t0=$SECONDS
	"$SB_TOP/tools/citus-build.sh" "$(sb_pgbin)/pg_config" >/dev/null
	case $? in
	0) sb_log "Citus installed for PostgreSQL $SB_PGMAJOR ($((SECONDS - t0)) s)" ;;
	77) sb_log "Citus not available: the Citus tests skip" ;;
	*) echo "not ok - Citus build for PostgreSQL $SB_PGMAJOR"; count 0 1 ;;
	esac
fi

if [ "$tap_jobs" -gt 1 ]; then
	sb_log "TAP tests: ${#tests[@]} files, $tap_jobs at a time"
else
	sb_log "TAP tests: ${#tests[@]} files"
fi
t0=$SECONDS
tap_log="$work/tap.log"
if [ $lab_first -eq 1 ]; then
	lab_tests=() other_tests=()
	for t in "${tests[@]}"; do
		if grep -q '^use SbLab;' "$work/src/$t" 2>/dev/null; then
			lab_tests+=("$t")
		else
			other_tests+=("$t")
		fi
	done
	tests=("${lab_tests[@]}" "${other_tests[@]}")
fi
# With --tap-jobs, the lab's files run one after another, as one job
# beside the others: a lab file waiting for the machine's lab lock would
# make its cluster and its tables while another measures, which a lab's
# known answer does not survive.  The files that share this run's small
# filesystems (one fills one to test a full disk) run one at a time after
# the others.  prove's rules, in the copy's testrules.yml.
if [ "$tap_jobs" -gt 1 ]; then
	par_tests=() seq_tests=() lab_stream=()
	for t in "${tests[@]}"; do
		if grep -qE 'SCANBENCH_TEST_(FS|TMPFS)' "$work/src/$t"; then
			seq_tests+=("$t")
		elif grep -q '^use SbLab;' "$work/src/$t"; then
			lab_stream+=("$t")
		else
			par_tests+=("$t")
		fi
	done
	{
		echo '---'
		echo 'seq:'
		if [ $((${#par_tests[@]} + ${#lab_stream[@]})) -gt 0 ]; then
			printf '  - par:\n'
			[ ${#lab_stream[@]} -gt 0 ] && printf '      - seq:\n' && printf '          - %s\n' "${lab_stream[@]}"
			# Each a one-file seq of its own: prove's scheduler starts
			# a plain file before any seq, which would leave the lab's
			# for last, alone.
			[ ${#par_tests[@]} -gt 0 ] && printf '      - seq: %s\n' "${par_tests[@]}"
		fi
		[ ${#seq_tests[@]} -gt 0 ] && printf '  - seq:\n' && printf '      - %s\n' "${seq_tests[@]}"
	} >"$work/src/testrules.yml"
fi
# The Makefile's prove_installcheck, as a user runs it, in the copy.
sb_as_pg env -u PGHOST -u PGPORT \
	make -C "$work/src" -s prove_installcheck PG_CONFIG="$(sb_pgbin)/pg_config" \
	PROVE_TESTS="${tests[*]}" PROVE_FLAGS="-v --timer -j $tap_jobs" \
	>"$tap_log" 2>&1
tap_rc=$?
# A lab file's table rows ("# table | ..."), noted as it measures, are
# printed too: bench/probe.sh makes its table of them.
grep -E '^(t/|not ok|Files=|Result:|#   Failed|# table \|)' "$tap_log"
# Each TAP file's wall-clock time, slowest first: what to look at when
# the run grows long, and what doc/development.md's tiers are made from.
# prove -v --timer ends a file that passed with its "ok N ms" line; one
# that failed or was skipped has none.  prove stamps each file's name as
# the file ends (its output is printed whole then), so in a run of one
# file at a time such a file's time is its stamp less the stamp before it;
# the first file's is not known that way, nor any under --tap-jobs.
awk -v par="$tap_jobs" '
	function flush() {
		if (cur != "" && !done && par == 1 && d >= 0) printf "%6d s  %s\n", d, cur
	}
	match($0, /^\[[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\]/) {
		flush()
		split(substr($0, 2, 8), h, ":")
		now = h[1] * 3600 + h[2] * 60 + h[3]
		d = -1
		if (seen) { d = now - prev; if (d < 0) d += 86400 }
		prev = now; seen = 1
		cur = ($2 ~ /^t\//) ? $2 : ""; done = 0; next
	}
	cur != "" && /^(ok|not ok) +[0-9]+ ms / { printf "%6d s  %s\n", $2 / 1000, cur; done = 1 }
	END { flush() }' "$tap_log" |
	sort -rn | sed 's/^/test.sh: took /'
if [ $tap_rc -ne 0 ]; then
	grep -vE "^(ok|#)" "$tap_log" | head -60
	grep -B2 -A8 "^not ok" "$tap_log" | head -100
	ls "$work/src/tmp_check/log/" 2>/dev/null && tail -n 30 "$work"/src/tmp_check/log/*.log
fi
count "$(grep -cE '^ *ok [0-9]+' "$tap_log")" "$(grep -cE '^ *not ok [0-9]+' "$tap_log")" $tap_rc
sb_log "TAP tests took $((SECONDS - t0)) s"

# The library built without optimisation loads: a call to a function this
# server lacks cannot hide behind dead-code elimination.
check_o0()
{
	local d="$work/o0" pgc
	pgc="$(sb_pgbin)/pg_config"
	mkdir -p "$d" && cp -a "$work/src/." "$d" && rm -f "$d"/*.o "$d"/src/*.o "$d"/src/entry/*.o "$d"/*.so &&
		make -C "$d" -s -j"$ncpu" PG_CONFIG="$pgc" COPT="-O0 -Werror" scanbench.so >"$d.log" 2>&1 ||
		{ cat "$d.log"; return 1; }
	[ "$(id -u)" = 0 ] && chown -R postgres: "$d"
	sb_as_pg "$(sb_pgbin)/psql" -X -q -v ON_ERROR_STOP=1 -c "LOAD '$d/scanbench.so'"
}

# The clients' parsers of untrusted input fuzzed with libFuzzer (bin/fuzz,
# make fuzzcheck), FUZZ_SECONDS each.  clang and its fuzzer runtime come
# from apt when clang is missing, as tools/pgxn-test.sh installs its
# packages.  make's own "Error" line is left out, so that the last line
# is the runs' "N passed, N failed".
fuzz_seconds=10
fuzz_check()
{
	local clang=clang need=() p out rc
	if ! command -v clang >/dev/null; then
		clang=clang-14
		for p in clang-14 libclang-rt-14-dev; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
		done
	fi
	if [ ${#need[@]} -gt 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" \
			>"$work/fuzz-apt.log" 2>&1 ||
			{ apt-get update -q >/dev/null 2>&1 &&
				DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" \
					>"$work/fuzz-apt.log" 2>&1; } ||
			{ cat "$work/fuzz-apt.log"; echo "apt-get install ${need[*]} failed"; return 1; }
	fi
	out=$(sb_as_pg make -C "$work/src/bin/fuzz" -s fuzzcheck CLANG="$clang" \
		FUZZ_SECONDS="$fuzz_seconds" PG_CONFIG="$(sb_pgbin)/pg_config" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -v '^make: \*\*\*'
	return $rc
}

# Further checks, one line each (see check above), by tier.
if [ "$tier" != quick ]; then
	check "library built at -O0 loads on $(sb_pgversion)" check_o0
fi
if [ "$tier" = full ]; then
	check "make installcheck in a fresh copy, with the installed loader" "$SB_TOP/tools/installcheck-test.sh"
	check "Debian package: build, dpkg -i, CREATE EXTENSION, the loader from it" env SB_INSTALL_LOCKED=1 "$SB_TOP/tools/package-test.sh"
	check "README and doc/: size, links, the blocks marked run" "$SB_TOP/tools/readme-check.sh"
	# On this machine's major alone: the parsers are the same on every
	# major, and a root would need clang of its own.
	if [ -z "${SB_IN_ROOT:-}" ]; then
		check "client parsers fuzzed (libFuzzer, $fuzz_seconds s each)" fuzz_check
	fi
else
	sb_log "the blocks of README.md and doc/ marked run are left to the full tier"
	check "README and doc/: size, links, the reference against the catalog (no block run)" \
		"$SB_TOP/tools/readme-check.sh" --static
fi
check "C layout: the engine in src/, entry files in src/entry/ that call no other" "$SB_TOP/tools/check-layout.sh"
packaging_checks

sb_log "PostgreSQL $SB_PGMAJOR took ${SECONDS} s, ${SB_LOCK_WAITED:-0} s of them waiting for other runs"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
