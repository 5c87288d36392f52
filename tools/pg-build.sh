#!/usr/bin/env bash
# Build a PostgreSQL major from Debian's source package into a cache
# directory outside the clone, once; later runs reuse it.
#
#   tools/pg-build.sh MAJOR         prints the installation's bin directory
#
# The cache is SCANBENCH_PG_CACHE (default /var/cache/scanbench-pg), one
# directory per exact version.  The machine's apt sources are not changed:
# a private apt configuration adds the deb-src line of the Debian suite
# that carries the major.
set -euo pipefail

usage()
{
	cat <<USAGE
Usage: tools/pg-build.sh MAJOR

Builds PostgreSQL MAJOR (17, 18 or 19) with contrib and TAP support from
Debian's source package into \$SCANBENCH_PG_CACHE (default
/var/cache/scanbench-pg) and prints its bin directory.  A build that is
already there is reused.  Needs root for apt, or the build packages
installed (bison flex liburing-dev libipc-run-perl dpkg-dev).
USAGE
}

[ $# -eq 1 ] || { usage >&2; exit 2; }
case $1 in
-h | --help) usage; exit 0 ;;
17) suite=trixie ;;
18) suite=sid ;;
19) suite=experimental ;;
*) echo "pg-build.sh: no source suite known for PostgreSQL $1" >&2; exit 2 ;;
esac
major=$1
cache=${SCANBENCH_PG_CACHE:-/var/cache/scanbench-pg}
log() { printf 'pg-build.sh: %s\n' "$*" >&2; }

apt_dir="$cache/apt-$suite"
mkdir -p "$apt_dir/lists/partial" "$cache"
echo "deb-src $(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null ||
	echo http://deb.debian.org/debian) $suite main" >"$apt_dir/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$apt_dir/sources.list" -o Dir::Etc::sourceparts=-
	-o Dir::State::Lists="$apt_dir/lists" -o Debug::NoLocking=1)

# One lock per cache: two runs asking for the same build wait for one.
exec 9>"$cache/.lock"
flock 9

if [ -z "$(ls "$apt_dir/lists" 2>/dev/null | grep -v partial)" ] ||
	[ -n "$(find "$apt_dir/lists" -maxdepth 1 -name '*Sources*' -mmin +1440)" ]; then
	apt-get "${apt_opts[@]}" update -q >/dev/null || { log "apt-get update for $suite failed"; exit 1; }
fi
version=$(apt-cache "${apt_opts[@]}" showsrc "postgresql-$major" |
	awk '/^Version:/ {print $2}' | sort -V | tail -1)
[ -n "$version" ] || { log "no source package postgresql-$major in $suite"; exit 1; }
upstream=${version%%-*}
prefix="$cache/$upstream"
if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.complete" ]; then
	echo "$prefix/bin"
	exit 0
fi

if [ "$(id -u)" = 0 ]; then
	need=()
	for p in bison flex liburing-dev libipc-run-perl dpkg-dev zlib1g-dev libssl-dev; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
	done
	if [ ${#need[@]} -gt 0 ]; then
		log "installing: ${need[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
	fi
fi

src="$cache/src-$upstream"
rm -rf "$src" "$prefix"
mkdir -p "$src"
log "downloading postgresql-$major $version ($suite)"
(cd "$src" && apt-get "${apt_opts[@]}" source --download-only -q "postgresql-$major=$version" >/dev/null)
tarball=$(ls "$src"/postgresql-"$major"_*.orig.tar.* | head -1)
tar -xf "$tarball" -C "$src"
dir=$(find "$src" -mindepth 1 -maxdepth 1 -type d | head -1)
log "building PostgreSQL $upstream into $prefix (about 5 minutes)"
(
	cd "$dir"
	./configure --prefix="$prefix" --without-icu --without-readline \
		--enable-tap-tests --with-liburing --with-openssl >"$src/configure.log" 2>&1
	make -s -j"$(nproc)" >"$src/build.log" 2>&1
	make -s install >>"$src/build.log" 2>&1
	make -s -C contrib -j"$(nproc)" >>"$src/build.log" 2>&1
	make -s -C contrib install >>"$src/build.log" 2>&1
	# The TAP modules and pg_regress, as a PGXS installation of a
	# packaged server provides them.
	make -s -C src/test/regress install >>"$src/build.log" 2>&1 || true
	make -s -C src/test/perl install >>"$src/build.log" 2>&1 || true
) || { log "build failed: see $src/*.log"; exit 1; }
touch "$prefix/.complete"
# Keep the logs, drop the sources.
rm -rf "$dir" "$tarball"
echo "$prefix/bin"
