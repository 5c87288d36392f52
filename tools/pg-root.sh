#!/usr/bin/env bash
# A Debian root of the suite that packages a PostgreSQL major, made once in
# a cache directory, and a command run inside it.  See --help.
set -uo pipefail
. "$(dirname "$0")/common.sh"

usage()
{
	cat <<'USAGE'
NAME
    tools/pg-root.sh - run a command in a Debian root that packages a
    PostgreSQL major

SYNOPSIS
    tools/pg-root.sh [--cache DIR] MAJOR [--] [COMMAND [ARG...]]
    tools/pg-root.sh --suite MAJOR

DESCRIPTION
    Debian 12 packages PostgreSQL 15 only. The other majors come as
    Debian's own binary packages from the suite that carries them, which
    need that suite's libc:

        17    trixie
        18    sid
        19    sid, with postgresql-19 from experimental

    The first run makes a minimal root of the suite with mmdebstrap in
    CACHE/root-SUITE (about a minute) and installs the major's server,
    server-dev (PGXS, pg_regress, the PostgreSQL::Test modules), pg_cron
    where Debian has it, and what scanbench's build, tests, Citus and the
    Debian package build need (about 3 minutes). Later runs reuse the
    root; the suite's package index is refreshed once a day, and the
    packages are upgraded when the suite has a newer version. 18 and 19
    share the sid root.

    COMMAND (default: an interactive shell) then runs as root inside the
    root, with this checkout mounted read-only on /src/scanbench, the
    vendored sources (SCANBENCH_VENDOR, else ../shared/vendor) on
    /src/vendor, /proc, /sys, /dev, a private devpts and a /dev/shm. The
    root is bind-mounted onto itself first, so that /proc/self/mountinfo
    inside it shows the filesystem under the root as "/" (storage_info
    reads it). Its /tmp is emptied before each run.

    Every mount is made in a mount namespace of the command's own, with a
    PID namespace of its own: when the command ends, however it ends
    (success, failure, a signal to this script, a server or a loop mount
    a test left behind), the kernel stops every process left in it and
    drops every mount, none of which was ever visible outside. Runs that
    use one root take turns (a lock in the cache directory). While it
    makes a root or installs into one, it holds the machine's lab lock
    (tools/lab.sh lock-dir) shared: a lab measuring a throttled disk waits
    for it, and it waits for a lab that is measuring.

    Needs root, unshare and chroot (util-linux, coreutils); installs
    mmdebstrap on the first run.

OPTIONS
    --cache DIR
        The cache directory. Default: $SCANBENCH_PG_CACHE, or
        /var/cache/scanbench-pg.

    --suite MAJOR
        Print the suite whose root serves MAJOR, and exit: 0 when there
        is one, 3 when there is none.

    -h, --help
        Print this help.

EXAMPLES
    tools/pg-root.sh 17 /src/scanbench/tools/test.sh --pg 17
    tools/pg-root.sh 19 pg_lsclusters

EXIT STATUS
    The command's own exit status when it ran (128+N when a signal N ended
    it). Before it ran: 1 when the root could not be made or its packages
    installed (the log is named), 2 on a usage error, 3 when MAJOR has no
    suite or the archive does not have its packages.
USAGE
}

cache=${SCANBENCH_PG_CACHE:-/var/cache/scanbench-pg}
major=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--cache) [ $# -ge 2 ] || { sb_log "--cache needs a value"; exit 2; }; cache=$2; shift 2 ;;
	--cache=*) cache=${1#--cache=}; shift ;;
	--suite)
		[ $# -eq 2 ] || { sb_log "--suite takes one major"; exit 2; }
		s=$(sb_root_suite "$2") || exit 3
		echo "$s"
		exit 0
		;;
	--) shift; break ;;
	-*) sb_log "unknown option: $1 (see --help)"; exit 2 ;;
	*) major=$1; shift; [ "${1:-}" = -- ] && shift; break ;;
	esac
done
[ -n "$major" ] || { usage >&2; exit 2; }
suite=$(sb_root_suite "$major") || { sb_log "PostgreSQL $major: no Debian suite known to package it"; exit 3; }
[ "$(id -u)" = 0 ] || { sb_log "run as root (mmdebstrap, chroot, mounts)"; exit 1; }
[ $# -gt 0 ] || set -- /bin/bash -l

root=$cache/root-$suite
mkdir -p "$cache" || exit 1
# One run per root: runs install into it.
exec 9>"$cache/root-$suite.lock"
if ! flock -n 9; then
	sb_log "waiting for another run in $root"
	flock 9
fi

# Making the root or installing into it writes hundreds of MB to the disk
# a lab measures (t/SbLab.pm, bench/truth.sh): while it does, it holds the
# lab lock shared (tools/lab.sh, file descriptor 8), and a lab, which
# takes it exclusively, waits.  Taken after the root's own lock, as a test
# run in the root takes it, so that neither waits for the other in turn;
# let go before the command runs.  Where no lab can be made, no lock.
. "$SB_TOP/tools/lab.sh"
building=""
build_lock()
{
	[ -n "$building" ] && return 0
	building=1
	sb_lab_lock -s 2>/dev/null || return 0
	[ "$SB_LAB_LOCK_WAITED" -gt 0 ] &&
		sb_log "waited $SB_LAB_LOCK_WAITED s for a lab to finish measuring before writing to its disk"
	return 0
}

# The machine's own archive, as pg-build.sh finds it.
archive=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
[ -n "$archive" ] ||
	archive=$(awk '$1 == "deb" && $2 ~ /^https?:/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
archive=${archive:-http://deb.debian.org/debian}

# in_root [exec] COMMAND...: COMMAND inside the root, in namespaces of its
# own (see DESCRIPTION).  The mounts are made by a shell that is PID 1 of
# the new PID namespace; when it ends, everything in the namespace ends.
# unshare kills that shell when it dies itself (--kill-child), but holds
# SIGINT and SIGTERM while it waits for it: a signal to this script is
# turned into SIGKILL for that shell, which ends the namespace.
in_root()
{
	local src vendor
	src=$SB_TOP
	vendor=${SCANBENCH_VENDOR:-$SB_TOP/../shared/vendor}
	if [ ! -d "$vendor" ]; then
		local common
		common=$(git -C "$SB_TOP" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
		[ -n "$common" ] && vendor=$(dirname "$common")/../shared/vendor
	fi
	[ -d "$vendor" ] && vendor=$(cd "$vendor" && pwd) || vendor=""
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	mkdir -p "$root/src/scanbench" "$root/src/vendor"
	local cmd=(unshare --mount --propagation private --pid --kill-child --fork \
		env SB_ROOT_DIR="$root" SB_ROOT_SRC="$src" SB_ROOT_VENDOR="$vendor" \
		bash -c '
set -e
r=$SB_ROOT_DIR
mount --bind "$r" "$r"
mount -t proc proc "$r/proc"
mount --rbind /sys "$r/sys"
mount --rbind /dev "$r/dev"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$r/dev/pts"
mount --bind "$r/dev/pts/ptmx" "$r/dev/ptmx"
mount -t tmpfs -o mode=1777,size=50% shm "$r/dev/shm"
mount --bind "$SB_ROOT_SRC" "$r/src/scanbench"
mount -o remount,bind,ro "$r/src/scanbench"
if [ -n "$SB_ROOT_VENDOR" ]; then
	mount --bind "$SB_ROOT_VENDOR" "$r/src/vendor"
	mount -o remount,bind,ro "$r/src/vendor"
fi
set +e
chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" SCANBENCH_VENDOR=/src/vendor \
	SB_IN_ROOT="$(basename "$r")" DEBIAN_FRONTEND=noninteractive \
	${CI:+CI="$CI"} ${PG_TEST_EXTRA:+PG_TEST_EXTRA="$PG_TEST_EXTRA"} "$@"
' in_root "$@")
	local child rc
	"${cmd[@]}" <&0 &
	child=$!
	signalled=""
	for sig in TERM INT HUP; do
		trap "signalled=$sig; kill -KILL \$(pgrep -P $child) 2>/dev/null" $sig
	done
	while :; do
		wait $child
		rc=$?
		kill -0 $child 2>/dev/null || break
	done
	trap - TERM INT HUP
	[ -n "$signalled" ] && rc=$((128 + $(kill -l "$signalled")))
	return $rc
}

# Make the root, once.
apt_conf='Acquire::Check-Valid-Until "false";
APT::Install-Recommends "false";
DPkg::Lock::Timeout "600";'
if [ ! -f "$root/.scanbench-root" ]; then
	build_lock
	if ! command -v mmdebstrap >/dev/null; then
		sb_log "installing mmdebstrap"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap >/dev/null 2>&1 ||
			{ apt-get update -q >/dev/null 2>&1 &&
				DEBIAN_FRONTEND=noninteractive apt-get install -y -q mmdebstrap >/dev/null 2>&1; } ||
			{ sb_log "apt-get install mmdebstrap failed"; exit 1; }
	fi
	rm -rf "$root"
	sources="deb $archive $suite main"
	[ "$suite" = sid ] && sources="$sources
deb $archive experimental main"
	t0=$SECONDS
	sb_log "making a $suite root in $root (about a minute)"
	if ! printf '%s\n' "$sources" | mmdebstrap --variant=minbase --include=ca-certificates \
		--aptopt="$apt_conf" "$suite" "$root" - >"$cache/root-$suite.log" 2>&1; then
		tail -n 20 "$cache/root-$suite.log" >&2
		rm -rf "$root"
		if grep -q 'E: Failed to fetch\|Release.*not found\|does not have a Release file' "$cache/root-$suite.log"; then
			sb_log "the archive at $archive does not serve $suite (see $cache/root-$suite.log)"
			exit 3
		fi
		sb_log "mmdebstrap failed: see $cache/root-$suite.log"
		exit 1
	fi
	# Only 19 is taken from experimental.
	[ "$suite" = sid ] && cat >"$root/etc/apt/preferences.d/scanbench" <<'PIN'
Package: src:postgresql-19
Pin: release a=experimental
Pin-Priority: 500
PIN
	touch "$root/.scanbench-root"
	sb_log "the $suite root took $((SECONDS - t0)) s"
fi

# The major's packages: installed once, upgraded when the suite moves on.
stamp=$root/.scanbench-$major
index_age=$(find "$root/var/lib/apt/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -1)
if [ ! -f "$stamp" ] || [ -z "$index_age" ]; then
	build_lock
	t0=$SECONDS
	pkgs=$(in_root bash -c "apt-get update -q >/dev/null 2>&1 || exit 1; . /src/scanbench/tools/common.sh; sb_test_packages $major")
	[ -n "$pkgs" ] || { sb_log "could not read the $suite package index"; exit 1; }
	have=$(cat "$stamp" 2>/dev/null)
	want=$(in_root apt-cache policy "postgresql-$major" | awk '/Candidate:/ {print $2}')
	if [ -z "$want" ] || [ "$want" = "(none)" ]; then
		sb_log "the $suite archive at $archive has no postgresql-$major"
		exit 3
	fi
	if [ "$have" != "$want" ] || [ ! -f "$stamp" ]; then
		sb_log "installing PostgreSQL $major $want ($suite) and what the tests need in $root${have:+ (was $have)}"
		# The packages' own clusters are not wanted: the tests make theirs.
		mkdir -p "$root/etc/postgresql-common/createcluster.d"
		echo 'create_main_cluster = false' >"$root/etc/postgresql-common/createcluster.d/scanbench.conf"
		if ! in_root apt-get install -y -q -o Dpkg::Options::=--force-confold $pkgs >"$cache/root-$suite-$major.log" 2>&1; then
			tail -n 20 "$cache/root-$suite-$major.log" >&2
			sb_log "apt-get install in the $suite root failed: see $cache/root-$suite-$major.log"
			exit 1
		fi
		in_root apt-get clean
		echo "$want" >"$stamp"
		sb_log "PostgreSQL $major's packages took $((SECONDS - t0)) s"
	fi
fi

rm -rf "${root:?}"/tmp/* "${root:?}"/tmp/.[!.]* 2>/dev/null
[ -n "$building" ] && exec 8<&-
in_root "$@"
rc=$?
# A signal that ended the command is ours too.
exit $rc
