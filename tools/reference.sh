#!/usr/bin/env bash
# doc/reference.md's generated blocks, checked or written from the catalog
# of this tree's extension, built and created in a throwaway cluster.
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT

usage()
{
	cat <<'USAGE'
NAME
    tools/reference.sh - check or write doc/reference.md from the catalog

SYNOPSIS
    tools/reference.sh [--pg MAJOR] [--check | --write | --dump]

DESCRIPTION
    Builds this tree against PostgreSQL MAJOR, installs it, creates the
    extension in a throwaway cluster, and runs tools/reference.pl on the
    catalog it finds there: --check (the default) says where
    doc/reference.md or an example of README.md and doc/*.md differs from
    it; --write rewrites the page's generated blocks (signatures, result
    columns, the verdict's marks) from it; --dump prints the catalog as
    JSON.

    A major this machine's apt lacks runs in its Debian root
    (tools/pg-root.sh), as tools/test.sh does: the catalog is dumped
    there and the page written here. Installing replaces the server's
    copy of scanbench: on the machine's own server (15), hold the lock
    that the other runs on it take.

OPTIONS
    --pg MAJOR   15, 17, 18 (the default) or 19
    --check      check the pages (the default)
    --write      write doc/reference.md's blocks
    --dump       print the catalog
    -h, --help   print this help

EXIT STATUS
    0 when the check passed or the page was written; 1 when it failed;
    2 on a usage error.
USAGE
}

mode=--check
SB_PGMAJOR=18
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--check | --write | --dump) mode=$1; shift ;;
	--pg) [ $# -ge 2 ] || { sb_log "--pg needs a value"; exit 2; }
		SB_PGMAJOR=$2; shift 2 ;;
	--pg=*) SB_PGMAJOR=${1#*=}; shift ;;
	*) sb_log "unknown argument: $1 (see --help)"; exit 2 ;;
	esac
done
(sb_check_major "$SB_PGMAJOR") || exit 2

# In a root the checkout is read-only: dump the catalog there, then check
# or write here.
if [ -z "${SB_IN_ROOT:-}" ] && ! sb_packaged "$SB_PGMAJOR" && sb_root_suite "$SB_PGMAJOR" >/dev/null; then
	dump=$(mktemp "${TMPDIR:-/tmp}/scanbench-catalog.XXXXXX.json")
	sb_on_exit "rm -f '$dump'"
	"$SB_TOP/tools/pg-root.sh" "$SB_PGMAJOR" /src/scanbench/tools/reference.sh --pg "$SB_PGMAJOR" --dump >"$dump" ||
		sb_die "could not read the catalog on PostgreSQL $SB_PGMAJOR"
	if [ "$mode" = --dump ]; then
		cat "$dump"
		exit 0
	fi
	exec perl "$SB_TOP/tools/reference.pl" "$mode" --catalog "$dump" "$SB_TOP"
fi

sb_install_packages >&2
sb_use_pg >&2 || sb_die "could not get PostgreSQL $SB_PGMAJOR"
work=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-reference.XXXXXX") || sb_die "no work directory"
chmod 755 "$work"
sb_on_exit "rm -rf '$work'"
sb_build_install "$work/src" >&2
[ "$(id -u)" = 0 ] && chown -R postgres: "$work"
sb_start_cluster "$work/cluster" "$(sb_free_port)" >&2
sb_as_pg psql -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION scanbench' >&2 ||
	sb_die "CREATE EXTENSION scanbench failed"
PATH="$(sb_pgbin):$PATH" perl "$SB_TOP/tools/reference.pl" "$mode" "$SB_TOP"
