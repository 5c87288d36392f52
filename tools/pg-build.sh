#!/usr/bin/env bash
# Build a PostgreSQL major from Debian's source package into a cache
# directory outside the clone, once; later runs reuse it.  See --help.
#
# Exit status: 0 with the bin directory on stdout; 3 when the source could
# not be fetched (the archive does not answer, or has no such package) and
# no earlier build of the major is in the cache; 1 on any other failure;
# 2 on a usage error.
set -euo pipefail

usage()
{
	cat <<'USAGE'
NAME
    tools/pg-build.sh - build a PostgreSQL major from Debian's source package

SYNOPSIS
    tools/pg-build.sh [--cache DIR] MAJOR

DESCRIPTION
    Builds PostgreSQL MAJOR (17, 18 or 19) with contrib, TAP test support
    and io_uring into a cache directory, one directory per exact version,
    and prints that installation's bin directory. A complete build already
    in the cache is reused; the first build takes about 5 minutes on two
    cores.

    The source comes from the Debian suite that carries the major (17:
    trixie, 18: sid, 19: experimental), through the archive the machine's
    apt already uses. The machine's apt sources are not changed: a private
    apt configuration in the cache adds the suite's deb-src line. The
    suite's package index is refreshed once a day.

    If the source cannot be fetched but an earlier build of the same major
    is in the cache, that build is used and a note says so.

    Needs root to install the build packages (bison, flex, liburing-dev,
    libipc-run-perl, dpkg-dev, zlib1g-dev, libssl-dev) and to write the
    default cache. Without root, a build already in the cache is used.

OPTIONS
    --cache DIR
        The cache directory. Default: $SCANBENCH_PG_CACHE, or
        /var/cache/scanbench-pg.

    -h, --help
        Print this help.

EXIT STATUS
    0   the bin directory was printed
    1   the build failed (the logs are in the cache, named in the message)
    2   usage error
    3   the source could not be fetched and no earlier build is cached
USAGE
}

cache=${SCANBENCH_PG_CACHE:-/var/cache/scanbench-pg}
major=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--cache) [ $# -ge 2 ] || { usage >&2; exit 2; }; cache=$2; shift 2 ;;
	--cache=*) cache=${1#--cache=}; shift ;;
	-*) echo "pg-build.sh: unknown option: $1 (see --help)" >&2; exit 2 ;;
	*) [ -z "$major" ] || { usage >&2; exit 2; }; major=$1; shift ;;
	esac
done
case $major in
17) suite=trixie ;;
18) suite=sid ;;
19) suite=experimental ;;
"") usage >&2; exit 2 ;;
*) echo "pg-build.sh: PostgreSQL $major: no Debian source suite known (17, 18 or 19)" >&2; exit 2 ;;
esac
log() { printf 'pg-build.sh: %s\n' "$*" >&2; }

# The newest complete build of this major in the cache, if any.
cached_build()
{
	local d best=""
	for d in "$cache/$major".* "$cache/$major"~*; do
		[ -x "$d/bin/pg_config" ] && [ -f "$d/.complete" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$d" | sed '/^$/d' | sort -V | tail -1)
	done
	echo "$best"
}

# Not root and the cache is not ours: use what is there, or explain.
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	prefix=$(cached_build)
	[ -n "$prefix" ] || {
		log "no build of PostgreSQL $major in $cache, and $cache is not writable: run as root once"
		exit 1
	}
	echo "$prefix/bin"
	exit 0
fi

# One lock per cache: two runs asking for the same build wait for one.
exec 9>"$cache/.lock"
flock 9

archive=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$archive" ] ||
	archive=$(awk '$1 == "deb" && $2 ~ /^https?:/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
archive=${archive:-http://deb.debian.org/debian}
apt_dir="$cache/apt-$suite"
mkdir -p "$apt_dir/lists/partial"
echo "deb-src $archive $suite main" >"$apt_dir/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=-
	-o Dir::State::Lists="$apt_dir/lists" -o Debug::NoLocking=1)

# Fall back on an earlier build when the archive cannot give this one.
unavailable()
{
	local prefix
	prefix=$(cached_build)
	if [ -n "$prefix" ]; then
		log "$(echo "$*" | sed 's/ *$//'); using the build already in $prefix"
		echo "$prefix/bin"
		exit 0
	fi
	log "$(echo "$*" | sed 's/ *$//')"
	exit 3
}

if ! ls "$apt_dir/lists" | grep -q Sources ||
	[ -n "$(find "$apt_dir/lists" -maxdepth 1 -name '*Sources*' -mmin +1440)" ]; then
	if ! out=$(apt-get "${apt_opts[@]}" update -q 2>&1); then
		unavailable "could not fetch the $suite source index from $archive: $(echo "$out" | grep -E '^(E|Err|W):' | head -2 | tr '\n' ' ')"
	fi
fi
version=$(apt-cache "${apt_opts[@]}" showsrc "postgresql-$major" 2>/dev/null |
	awk '/^Version:/ {print $2}' | sort -V | tail -1)
[ -n "$version" ] || unavailable "no source package postgresql-$major in $suite at $archive"
upstream=${version%%-*}
prefix="$cache/$upstream"
if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.complete" ]; then
	echo "$prefix/bin"
	exit 0
fi

src="$cache/src-$upstream"
rm -rf "$src" "$prefix"
mkdir -p "$src"
log "downloading postgresql-$major $version ($suite)"
if ! out=$(cd "$src" && apt-get "${apt_opts[@]}" source --download-only -q "postgresql-$major=$version" 2>&1); then
	rm -rf "$src"
	why=$(echo "$out" | sed -n 's/^E: Failed to fetch \([^ ]*\) *\([^[]*\).*/\1: \2/p' | sort -r | grep -m1 orig ||
		echo "$out" | grep -m1 '^E:' || true)
	unavailable "could not fetch the source of postgresql-$major $version ($suite): ${why:-apt-get source failed}"
fi

if [ "$(id -u)" = 0 ]; then
	need=()
	for p in bison flex liburing-dev libipc-run-perl dpkg-dev zlib1g-dev libssl-dev pkg-config make gcc; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
	done
	if [ ${#need[@]} -gt 0 ]; then
		log "installing: ${need[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null ||
			{ log "apt-get install ${need[*]} failed"; exit 1; }
	fi
fi

tarball=$(ls "$src"/postgresql-"$major"_*.orig.tar.* | head -1)
tar -xf "$tarball" -C "$src"
dir=$(find "$src" -mindepth 1 -maxdepth 1 -type d | head -1)
log "building PostgreSQL $upstream into $prefix (about 5 minutes)"
(
	set -e
	cd "$dir"
	./configure --prefix="$prefix" --without-icu --without-readline \
		--enable-tap-tests --with-liburing --with-openssl >"$src/configure.log" 2>&1
	make -s -j"$(nproc)" >"$src/build.log" 2>&1
	make -s install >>"$src/build.log" 2>&1
	make -s -C contrib -j"$(nproc)" >>"$src/build.log" 2>&1
	make -s -C contrib install >>"$src/build.log" 2>&1
	# pg_regress and the TAP modules, where a PGXS installation of a
	# packaged server has them (lib/postgresql/pgxs/src/test/...).
	make -s -C src/test/regress install >>"$src/build.log" 2>&1
	make -s -C src/test/perl install >>"$src/build.log" 2>&1
) || { log "build failed: see $src/configure.log and $src/build.log"; exit 1; }
[ -x "$prefix/lib/postgresql/pgxs/src/test/regress/pg_regress" ] &&
	[ -f "$prefix/lib/postgresql/pgxs/src/test/perl/PostgreSQL/Test/Cluster.pm" ] ||
	{ log "build incomplete: pg_regress or the TAP modules are missing under $prefix"; exit 1; }
touch "$prefix/.complete"
# Keep the logs, drop the sources.
rm -rf "$dir" "$tarball"
echo "$prefix/bin"
