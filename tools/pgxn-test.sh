#!/usr/bin/env bash
# The PGXN distribution as a PGXN user gets it: make dist's zip, checked
# (one top directory scanbench-VERSION/, META.json's version, nothing
# built in it), installed with Debian's pgxnclient (`pgxn install
# ./scanbench-VERSION.zip`) into the server of SB_PGMAJOR, then the
# distribution's own `make installcheck` (pg_regress) run from the
# unpacked zip against a throwaway cluster.
#
#   tools/pgxn-test.sh [--zip FILE]        (as root: apt, make install)
#
# Without --zip (or SB_DIST_ZIP, which tools/release.sh sets) the zip is made here with `make dist` from the checkout's
# commit (with the changes to tracked files not yet committed, through
# `git stash create`, so that a test of a working tree tests that tree).
# A major this machine's apt lacks is tested in its Debian root
# (tools/pg-root.sh): the zip is made here, where git reads the checkout,
# and handed to this script inside the root with --zip.
#
# Prints ok/not ok lines and ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }
sb_on_die() { nok "$*"; finish; }

zip=${SB_DIST_ZIP:-}
while [ $# -gt 0 ]; do
	case $1 in
	--zip) zip=${2:-}; shift 2 ;;
	*) echo "usage: tools/pgxn-test.sh [--zip FILE]" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { nok "run as root (apt-get, pgxn install into the server)"; finish; }
version=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$SB_TOP/scanbench.control")
name=scanbench-$version

work=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-pgxn.XXXXXX")
chmod 755 "$work"
sb_on_exit "rm -rf '$work'"

if [ -z "$zip" ]; then
	ref=$(git -C "$SB_TOP" stash create 2>/dev/null)
	ref=${ref:-HEAD}
	if make -s -C "$SB_TOP" dist DIST_REF="$ref" DISTDIR="$work" \
		PG_CONFIG="${PG_CONFIG:-$(command -v pg_config || echo /usr/lib/postgresql/$SB_APT_MAJOR/bin/pg_config)}" \
		>"$work/dist.log" 2>&1 && [ -f "$work/$name.zip" ]; then
		ok "make dist makes $name.zip and $name.tar.gz"
	else
		cat "$work/dist.log"
		nok "make dist makes $name.zip"
		finish
	fi
	zip=$work/$name.zip
fi
[ -f "$zip" ] || { nok "no such zip: $zip"; finish; }

# A major tested in a root: the same script there, with this zip.
if [ -z "${SB_IN_ROOT:-}" ] && ! sb_packaged "$SB_PGMAJOR" && suite=$(sb_root_suite "$SB_PGMAJOR"); then
	root=${SCANBENCH_PG_CACHE:-/var/cache/scanbench-pg}/root-$suite
	# In the root's /var/tmp: pg-root.sh empties its /tmp before a run.
	[ -d "$root/var/tmp" ] || { nok "no $suite root for PostgreSQL $SB_PGMAJOR (tools/test.sh --pg $SB_PGMAJOR makes it)"; finish; }
	inner=$(mktemp -d "$root/var/tmp/scanbench-pgxn-zip.XXXXXX")
	sb_on_exit "rm -rf '$inner'"
	cp "$zip" "$inner/"
	chmod -R a+rX "$inner"
	out=$("$SB_TOP/tools/pg-root.sh" "$SB_PGMAJOR" env SB_PGMAJOR="$SB_PGMAJOR" \
		/src/scanbench/tools/pgxn-test.sh --zip "/var/tmp/${inner##*/}/${zip##*/}" 2>&1)
	printf '%s\n' "$out" | sed '$d'
	counts=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
	[ -n "$counts" ] || { nok "pgxn-test.sh in the $suite root gave no count"; finish; }
	pass=$((pass + ${counts% *})) fail=$((fail + ${counts#* }))
	finish
fi

need=()
for p in pgxnclient unzip build-essential libpq-dev "postgresql-server-dev-$SB_PGMAJOR"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	apt-get install -y -q --no-install-recommends "${need[@]}" >"$work/apt.log" 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
			apt-get install -y -q --no-install-recommends "${need[@]}" >"$work/apt.log" 2>&1; } ||
		{ cat "$work/apt.log"; nok "apt-get install ${need[*]}"; finish; }
fi

# The zip as PGXN takes it: one top directory named for the release,
# META.json at its top with the same version, nothing built (pg_regress's
# results/ at the top; bench/results/ is kept runs of the benches, source).
listing=$(unzip -Z1 "$zip") && [ -n "$listing" ] || { nok "unzip -Z1 $zip lists its files"; finish; }
tops=$(printf '%s\n' "$listing" | cut -d/ -f1 | sort -u | tr '\n' ' ')
[ "$tops" = "$name " ] && ok "the zip has one top directory, $name/" || nok "the zip's top directories: $tops (want $name/)"
meta_version=$(unzip -p "$zip" "$name/META.json" 2>/dev/null |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])' 2>/dev/null)
[ "$meta_version" = "$version" ] && ok "its META.json says version $version" ||
	nok "its META.json says version '${meta_version}', scanbench.control $version"
built=$(printf '%s\n' "$listing" | grep -E '\.(o|so|bc)$|^[^/]+/results/|/tmp_check/|/scanbench-(load|fleet|probe)$' | head -3)
[ -z "$built" ] && ok "nothing built is in the zip" || nok "built files in the zip: $built"
# The install script is made by make from surface/ (no script is built
# into the zip: git archive takes what a commit holds).
for f in scanbench.control surface/header.sql surface/assemble.pl Makefile LICENSE; do
	printf '%s\n' "$listing" | grep -qxF "$name/$f" || nok "the zip lacks $f"
done

sb_use_pg || { nok "PostgreSQL $SB_PGMAJOR's server"; finish; }
bin=$(sb_pgbin)
# pgxn install replaces the server's copy of scanbench: runs take turns
# (tools/test.sh holds the lock already).
[ -n "${SB_INSTALL_LOCKED:-}" ] || sb_lock_install
pkglib=$("$bin/pg_config" --pkglibdir)
bindir=$("$bin/pg_config" --bindir)
share=$("$bin/pg_config" --sharedir)
# Each file pgxn installs must be newer than this mark: none is left from
# an earlier install.
touch -d '1 second ago' "$work/mark"
[ "$zip" -ef "$work/${zip##*/}" ] || cp "$zip" "$work/"
if (cd "$work" && pgxn install --yes --pg_config "$bin/pg_config" "./${zip##*/}") >"$work/pgxn.log" 2>&1; then
	ok "pgxn install ./${zip##*/} with PostgreSQL $(sb_pgversion)'s pg_config"
else
	tail -n 40 "$work/pgxn.log"
	nok "pgxn install ./${zip##*/}"
	finish
fi
for f in "$pkglib/scanbench.so" "$share/extension/scanbench.control" "$share/extension/scanbench--$version.sql" \
	"$bindir/scanbench-load" "$bindir/scanbench-fleet" "$bindir/scanbench-probe" \
	"$share/scanbench/scanbench_storage_profiles.conf"; do
	[ "$f" -nt "$work/mark" ] && ok "pgxn install put $f in place" || nok "pgxn install put $f in place"
done

# make installcheck from the unpacked distribution, as its user: pg_regress
# (the TAP suite, make prove_installcheck, is tools/test.sh's) against a
# throwaway cluster.
unzip -q "$zip" -d "$work/unpacked" || { nok "unzip"; finish; }
chown -R postgres: "$work"
sb_start_cluster "$work/cluster" "$(sb_free_port 55432)"
sb_as_pg make -C "$work/unpacked/$name" installcheck PG_CONFIG="$bin/pg_config" \
	>"$work/installcheck.log" 2>&1
rc=$?
passed=$(grep -cE '^(ok [0-9]+ |test .* \.\.\. ok| +[a-z_0-9]+ +\.\.\. ok)' "$work/installcheck.log")
if [ $rc -eq 0 ] && [ "$passed" -gt 0 ]; then
	ok "make installcheck from the unpacked zip: $passed pg_regress tests passed"
else
	tail -n 30 "$work/installcheck.log"
	[ -f "$work/unpacked/$name/regression.diffs" ] && head -n 60 "$work/unpacked/$name/regression.diffs"
	nok "make installcheck from the unpacked zip (exit $rc)"
fi
finish
