#!/usr/bin/env bash
# Build Citus from the vendored source tarball into a PostgreSQL
# installation, once; later runs for the same installation do nothing.
#
#   tools/citus-build.sh PG_CONFIG
#
# Exit status: 0 when Citus is installed for that PostgreSQL (built now or
# before), 77 when it cannot be had here (no tarball, or a PostgreSQL
# major Citus does not support): callers skip what needs it.  Any other
# failure is 1, with the log's tail on stderr.
#
# The tarball (citus-*.tar.gz) is looked for in SCANBENCH_VENDOR, else in
# ../shared/vendor beside the clone (for a git worktree, beside its main
# checkout too).  Citus is AGPL: it is built here only
# so that tests and demos can run on a real cluster; scanbench neither
# links to it nor ships it.
set -euo pipefail

log() { printf 'citus-build.sh: %s\n' "$*" >&2; }
usage()
{
	sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}
case ${1:-} in
-h | --help) usage 0 ;;
'') usage 2 >&2 ;;
esac
pg_config=$1
[ -x "$pg_config" ] || { log "not an executable pg_config: $pg_config"; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
vendor=${SCANBENCH_VENDOR:-$top/../shared/vendor}
if [ -z "${SCANBENCH_VENDOR:-}" ] && [ ! -d "$vendor" ]; then
	common=$(git -C "$top" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -n "$common" ] && [ -d "$(dirname "$common")/../shared/vendor" ] &&
		vendor=$(cd "$(dirname "$common")/../shared/vendor" && pwd)
fi
tarball=$(ls "$vendor"/citus-*.tar.gz 2>/dev/null | sort | tail -1 || true)
if [ -z "$tarball" ]; then
	log "no Citus source tarball (citus-*.tar.gz) in $vendor: skipping"
	exit 77
fi

major=$("$pg_config" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
case $major in
16 | 17 | 18) ;;
*) log "Citus supports PostgreSQL 16 to 18, not $major: skipping"; exit 77 ;;
esac

pkglibdir=$("$pg_config" --pkglibdir)
sharedir=$("$pg_config" --sharedir)
# The stamp names the tarball, so a new tarball is built again.
stamp="$sharedir/extension/citus.scanbench-built"
built() { [ -f "$pkglibdir/citus.so" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${tarball##*/}" ]; }

# Two callers asking at once build once.
exec 7>"${TMPDIR:-/tmp}/scanbench-citus-build.lock"
flock 7
if built; then
	echo "$pkglibdir/citus.so"
	exit 0
fi

# libicu-dev: Citus includes unicode/ucol.h.
if [ "$(id -u)" = 0 ]; then
	need=()
	for p in make gcc liblz4-dev libzstd-dev libcurl4-openssl-dev libkrb5-dev libssl-dev libicu-dev; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
	done
	if [ ${#need[@]} -gt 0 ]; then
		log "installing: ${need[*]}"
		export DEBIAN_FRONTEND=noninteractive
		# Others may be running apt on this machine: wait for its lock.
		apt=(apt-get -o DPkg::Lock::Timeout=600 -y -q)
		"${apt[@]}" install "${need[@]}" >/dev/null 2>&1 ||
			{ "${apt[@]}" update >/dev/null && "${apt[@]}" install "${need[@]}" >/dev/null; } ||
			{ log "apt-get install ${need[*]} failed"; exit 1; }
	fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-citus.XXXXXX")
trap 'rm -rf "$work"' EXIT
log "building ${tarball##*/} for PostgreSQL $major (about a minute of CPU)"
tar -xzf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
if ! (
	cd "$src"
	./configure PG_CONFIG="$pg_config" >"$work/build.log" 2>&1
	make -s -j"$(nproc)" >>"$work/build.log" 2>&1
	make -s install >>"$work/build.log" 2>&1
); then
	tail -n 30 "$work/build.log" >&2
	log "Citus build failed"
	exit 1
fi
echo "${tarball##*/}" >"$stamp"
echo "$pkglibdir/citus.so"
