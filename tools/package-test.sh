#!/usr/bin/env bash
# Build the Debian packages (debian/, pg_buildext), install them with dpkg,
# create the extension in a throwaway cluster and run the loader as a user
# would: /usr/bin/scanbench-load from the package.  Then purge the packages
# and put back whatever scanbench files were installed before.
#
#   tools/package-test.sh        (as root: apt, dpkg)
#
# Prints "ok"/"not ok" lines and ends with "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
major=${SB_PGMAJOR:-15}
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }

[ -r "$top/debian/pgversions" ] || { nok "no debian/pgversions in $top"; finish; }
if ! grep -qx "$major" "$top/debian/pgversions"; then
	echo "# PostgreSQL $major has no package in debian/pgversions: nothing to test"
	finish
fi
[ "$(id -u)" = 0 ] || { nok "run as root (apt-get, dpkg)"; finish; }
pkg=postgresql-$major-scanbench
if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
	nok "$pkg is installed on this machine already: not touching it"
	finish
fi

need=()
for p in build-essential debhelper dpkg-dev postgresql-server-dev-all "postgresql-server-dev-$major" libpq-dev "postgresql-$major"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
		{ nok "apt-get install ${need[*]}"; finish; }
fi

work=$(mktemp -d /tmp/scanbench-package.XXXXXX)
chmod 755 "$work"
cleanup_cmds=("rm -rf '$work'")
cleanup() { local i; for ((i = ${#cleanup_cmds[@]} - 1; i >= 0; i--)); do eval "${cleanup_cmds[$i]}"; done; }
trap cleanup EXIT

# Installing replaces the server's copy of scanbench for everyone; runs
# take turns.  tools/test.sh holds the lock already and says so with
# SB_INSTALL_LOCKED.
if [ -z "${SB_INSTALL_LOCKED:-}" ]; then
	exec 8>"${TMPDIR:-/tmp}/scanbench-install.lock"
	flock 8
fi

bin=/usr/lib/postgresql/$major/bin
pkglib=$("$bin/pg_config" --pkglibdir)
share=$("$bin/pg_config" --sharedir)
# What a make install put in place, to put back after the purge.
saved=()
for f in "$pkglib/scanbench.so" "$share"/extension/scanbench* "$bin/scanbench-load" "$bin/scanbench-fleet" \
	"$bin/scanbench-probe" "$share/scanbench/scanbench_storage_profiles.conf" \
	"$pkglib/bitcode/scanbench.index.bc" "$pkglib/bitcode/scanbench"; do
	[ -e "$f" ] && saved+=("$f")
done
if [ ${#saved[@]} -gt 0 ]; then
	tar -cf "$work/saved.tar" -P "${saved[@]}"
	cleanup_cmds+=("tar -xf '$work/saved.tar' -P")
fi

# Build in a copy of the tree: dpkg-buildpackage writes in it.  The tests
# proper are tools/test.sh's; the package build is not asked to run them.
mkdir "$work/scanbench"
tar -C "$top" --exclude=./.git --exclude=./tmp_check --exclude=./results -cf - . |
	tar -C "$work/scanbench" -xf -
# pg_buildext builds for the majors both debian/pgversions and the
# machine's postgresql-common support: Debian 12 supports 15, trixie 17,
# sid 18.  A major installed beside the supported one (19 from experimental
# on sid) is built when it is named (PG_SUPPORTED_VERSIONS), and alone: the
# supported one has a run of its own.  debian/control lists the packages of
# the majors built here.
cd "$work/scanbench" || finish
if ! pg_buildext supported-versions 2>/dev/null | grep -qx "$major"; then
	export PG_SUPPORTED_VERSIONS=$major
fi
check "pg_buildext builds for PostgreSQL $major here" \
	grep -qx "$major" <<<"$(pg_buildext supported-versions 2>/dev/null)"
pg_buildext updatecontrol >/dev/null 2>&1
check "debian/control lists $pkg" grep -qx "Package: $pkg" debian/control
cd "$top" || finish
(cd "$work/scanbench" && make -s clean PG_CONFIG="$bin/pg_config" >/dev/null 2>&1
	DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1)
if [ $? -eq 0 ]; then ok "dpkg-buildpackage builds the packages"; else
	nok "dpkg-buildpackage builds the packages"; tail -30 "$work/build.log"; finish
fi
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$top/scanbench.control")
deb=$(ls "$work"/"$pkg"_*_*.deb 2>/dev/null | head -1)
common=$(ls "$work"/scanbench-common_*_all.deb 2>/dev/null | head -1)
check "$pkg and scanbench-common are built" test -n "$deb" -a -n "$common"
check "the package version is the extension's ($version)" \
	test "$(dpkg-deb -f "$deb" Version)" = "$version"

cleanup_cmds+=("dpkg --purge '$pkg' scanbench-common >/dev/null 2>&1")
if dpkg -i "$deb" "$common" >"$work/dpkg.log" 2>&1; then ok "dpkg -i installs them"; else
	nok "dpkg -i installs them"; cat "$work/dpkg.log"; finish
fi
files=$(dpkg -L "$pkg" scanbench-common)
for f in "$pkglib/scanbench.so" "$share/extension/scanbench.control" \
	"$share/extension/scanbench--$version.sql" "$bin/scanbench-load" /usr/bin/scanbench-load \
	"$bin/scanbench-fleet" /usr/bin/scanbench-fleet "$bin/scanbench-probe" /usr/bin/scanbench-probe \
	"$share/scanbench/scanbench_storage_profiles.conf"; do
	check "the packages hold $f" grep -qx "$f" <<<"$files"
done

# A throwaway cluster: the postgres user, a socket directory of its own.
cl="$work/cluster"
mkdir "$cl" && chown postgres: "$cl"
as_pg() { runuser -u postgres -- "$@"; }
as_pg "$bin/initdb" -D "$cl/data" -U postgres -A trust >"$work/initdb.log" 2>&1 ||
	{ nok "initdb"; cat "$work/initdb.log"; finish; }
cleanup_cmds+=("runuser -u postgres -- '$bin/pg_ctl' -D '$cl/data' -m immediate stop >/dev/null 2>&1")
as_pg "$bin/pg_ctl" -D "$cl/data" -l "$cl/server.log" -w \
	-o "-c listen_addresses='' -c unix_socket_directories='$cl' -p 5432" start >/dev/null ||
	{ nok "the cluster starts"; cat "$cl/server.log"; finish; }
psql() { as_pg "$bin/psql" -X -q -At -h "$cl" -p 5432 -d postgres -v ON_ERROR_STOP=1 "$@"; }

check "CREATE EXTENSION scanbench" psql -c 'CREATE EXTENSION scanbench'
check "the extension is version $version" \
	test "$(psql -c "SELECT extversion FROM pg_extension WHERE extname = 'scanbench'")" = "$version"
check "scanbench-load is on the PATH as /usr/bin/scanbench-load" \
	test "$(as_pg sh -c 'command -v scanbench-load')" = /usr/bin/scanbench-load
check "scanbench-load --version says $version" \
	grep -q " $version\$" <<<"$(as_pg scanbench-load --version 2>&1)"
check "scanbench-fleet is on the PATH as /usr/bin/scanbench-fleet" \
	test "$(as_pg sh -c 'command -v scanbench-fleet')" = /usr/bin/scanbench-fleet
check "scanbench-fleet --version says $version" \
	grep -q " $version\$" <<<"$(as_pg scanbench-fleet --version 2>&1)"
check "scanbench-probe is on the PATH as /usr/bin/scanbench-probe" \
	test "$(as_pg sh -c 'command -v scanbench-probe')" = /usr/bin/scanbench-probe
check "scanbench-probe --version says $version" \
	grep -q " $version\$" <<<"$(as_pg scanbench-probe --version 2>&1)"
check "scanbench-probe reads the packaged storage profiles" \
	grep -qx gp3 <<<"$(as_pg scanbench-probe --list-profiles 2>&1)"
out=$(as_pg scanbench-load -h "$cl" -p 5432 -d postgres -s 0.01 --check 2>&1)
rc=$?
check "scanbench-load loads SF 0.01 and runs --check (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || printf '%s\n' "$out" | tail -5
check "--check printed scan_efficiency" grep -q '^scan_efficiency("lineitem")' <<<"$out"
check "lineitem holds the rows" test "$(psql -c 'SELECT count(*) > 59000 FROM lineitem')" = t

as_pg "$bin/pg_ctl" -D "$cl/data" -m fast stop >/dev/null
dpkg --purge "$pkg" scanbench-common >/dev/null 2>&1
check "dpkg --purge removes every file" \
	test ! -e "$pkglib/scanbench.so" -a ! -e "$share/extension/scanbench.control" -a \
	! -e "$bin/scanbench-load" -a ! -e /usr/bin/scanbench-load -a \
	! -e "$bin/scanbench-fleet" -a ! -e /usr/bin/scanbench-fleet -a \
	! -e "$bin/scanbench-probe" -a ! -e /usr/bin/scanbench-probe -a \
	! -e "$share/scanbench/scanbench_storage_profiles.conf"
finish
