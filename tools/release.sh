#!/usr/bin/env bash
# Make a release; see --help.
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT

usage()
{
	cat <<'USAGE'
NAME
    tools/release.sh - check, build and test a release of scanbench

SYNOPSIS
    tools/release.sh VERSION [--dry-run] [--out DIR]

DESCRIPTION
    Makes release VERSION (MAJOR.MINOR.PATCH) from the last commit:

      1. checks that the papers agree: scanbench.control's
         default_version, META.json's version (and its provides'),
         debian/changelog's newest entry and CHANGELOG.md's newest section
         all name VERSION, make writes the install script
         scanbench--VERSION.sql from surface/, and CHANGELOG.md's
         section is dated with the date of the debian/changelog entry;
      2. builds scanbench-VERSION.tar.gz (for packagers) and
         scanbench-VERSION.zip (PGXN) with make dist (git archive of
         HEAD: a clean tree, nothing built, nothing uncommitted) and
         checks that both hold the same files;
      3. builds and tests them on every major: tools/test.sh --jobs 2
         --pg 15,18,17,19 run from the unpacked tarball (every test, the
         PGXN zip installed with pgxn on 15 and 18, the container images
         of 15 and 18), about 45 minutes;
      4. prints the commit to tag and the command that tags it, with the
         files' SHA-256.

    The release itself refuses a tree with uncommitted changes and a
    CHANGELOG.md section still "unreleased": date it (the same day as
    the debian/changelog entry), commit, and run this again.

OPTIONS
    --dry-run
        Check and build as above, but test on PostgreSQL 15 only (this
        machine's server): the tarball and the zip unpacked and compared
        byte for byte, then the zip installed with pgxn and its
        installcheck run (tools/pgxn-test.sh), which tests what the
        tarball holds too. It says what the release would test on the
        other majors. A section "unreleased" is accepted, and the changes
        to tracked files not yet committed are archived with HEAD (the
        release archives HEAD alone). A few minutes; tools/test.sh runs
        it on 15.

    --out DIR
        Where the tarball and the zip are written. Default: dist/ in the
        tree (a release), a temporary directory removed at the end (a
        dry run).

    -h, --help
        Print this help.

EXIT STATUS
    0 when every check and test passed; 1 otherwise; 2 on a usage error.
    The last line is "N passed, N failed".
USAGE
}

version="" dry=0 out=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--dry-run) dry=1; shift ;;
	--out) [ $# -ge 2 ] || { sb_log "--out needs a directory"; exit 2; }; out=$2; shift 2 ;;
	-*) sb_log "unknown option: $1 (see --help)"; exit 2 ;;
	*) [ -z "$version" ] || { sb_log "one VERSION only (see --help)"; exit 2; }; version=$1; shift ;;
	esac
done
[ -n "$version" ] || { sb_log "no VERSION given (see --help)"; exit 2; }
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
	{ sb_log "VERSION must be MAJOR.MINOR.PATCH, as PGXN wants it: $version"; exit 2; }

pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }
sb_on_die() { nok "$*"; finish; }
# counted COMMAND...: a script that ends with "N passed, N failed"; its
# counts are added (its status counts as one failure if it gave none).
counted()
{
	local o rc c
	o=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$o"
	c=$(printf '%s\n' "$o" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
	if [ -n "$c" ]; then
		pass=$((pass + ${c% *})) fail=$((fail + ${c#* }))
		[ $rc -ne 0 ] && [ "${c#* }" -eq 0 ] && fail=$((fail + 1))
	elif [ $rc -ne 0 ]; then
		nok "$* (exit $rc)"
	fi
}
cd "$SB_TOP" || exit 1
git rev-parse --git-dir >/dev/null 2>&1 || { nok "$SB_TOP is not a git checkout: a release is made from one"; finish; }

# ---- 1. the papers agree ----
control=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" scanbench.control)
[ "$control" = "$version" ] && ok "scanbench.control: default_version $version" ||
	nok "scanbench.control says default_version '$control', not $version"
make -s scanbench--"$version".sql >/dev/null 2>&1 && [ -s "scanbench--$version.sql" ] &&
	ok "make writes the install script scanbench--$version.sql from surface/" ||
	nok "make does not write scanbench--$version.sql from surface/"
read -r meta_v meta_pv meta_status < <(python3 -c '
import json
m = json.load(open("META.json"))
print(m.get("version"), m.get("provides", {}).get("scanbench", {}).get("version"), m.get("release_status"))' 2>/dev/null)
[ "${meta_v:-}" = "$version" ] && [ "${meta_pv:-}" = "$version" ] && ok "META.json: version $version, provides scanbench $version" ||
	nok "META.json says version '${meta_v:-}', provides scanbench '${meta_pv:-}', not $version"
[ "${meta_status:-}" = stable ] && ok "META.json: release_status stable (pgxn install takes it without --testing)" ||
	nok "META.json: release_status '${meta_status:-}', not stable"
deb=$(sed -n '1s/^scanbench (\([^)]*\)).*/\1/p' debian/changelog)
[ "$deb" = "$version" ] && ok "debian/changelog's newest entry: $version" ||
	nok "debian/changelog's newest entry is '$deb', not $version"
deb_date=$(awk '/^ -- / { sub(/^.*>  /, ""); print; exit }' debian/changelog)
deb_date=$(date -u -d "$deb_date" +%F 2>/dev/null)
section=$(sed -n 's/^## \(.*\)$/\1/p' CHANGELOG.md | head -n 1)
case $section in
"$version ($deb_date)")
	ok "CHANGELOG.md's newest section: $section, as debian/changelog" ;;
"$version (unreleased)")
	if [ $dry -eq 1 ]; then
		ok "CHANGELOG.md's newest section: $section (the release needs it dated $deb_date, as debian/changelog)"
	else
		nok "CHANGELOG.md's $version is unreleased: date it $deb_date (debian/changelog's date), commit, and run again"
	fi ;;
*)
	nok "CHANGELOG.md's newest section is '$section', not '$version (${deb_date:-DATE})'" ;;
esac

# ---- 2. the tarball and the zip, from a commit ----
ref=HEAD
dirty=$(git status --porcelain --untracked-files=no)
if [ -n "$dirty" ]; then
	if [ $dry -eq 1 ]; then
		sb_log "uncommitted changes to tracked files: the dry run archives them with HEAD (a release refuses them)"
		ref=$(git stash create)
	else
		nok "the tree has uncommitted changes: commit them first"
		finish
	fi
fi
commit=$(git rev-parse HEAD)
if [ -z "$out" ]; then
	if [ $dry -eq 1 ]; then
		out=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-release.XXXXXX")
		sb_on_exit "rm -rf '$out'"
	else
		out=$SB_TOP/dist
	fi
fi
mkdir -p "$out" && out=$(cd "$out" && pwd) || { nok "cannot make $out"; finish; }
chmod 755 "$out"
name=scanbench-$version
pgc=$(command -v pg_config || echo "/usr/lib/postgresql/$SB_APT_MAJOR/bin/pg_config")
rm -f "$out/$name.zip" "$out/$name.tar.gz"
if make -s dist DIST_REF="$ref" DISTDIR="$out" PG_CONFIG="$pgc" >"$out/dist.log" 2>&1 &&
	[ -s "$out/$name.zip" ] && [ -s "$out/$name.tar.gz" ]; then
	ok "make dist: $out/$name.tar.gz and $out/$name.zip from ${ref:0:12}"
else
	cat "$out/dist.log"
	nok "make dist"
	finish
fi
rm -f "$out/dist.log"
if [ "$(tar -tzf "$out/$name.tar.gz" | grep -v '/$' | sort)" = "$(unzip -Z1 "$out/$name.zip" | grep -v '/$' | sort)" ]; then
	ok "the tarball and the zip hold the same $(tar -tzf "$out/$name.tar.gz" | grep -vc '/$') files"
else
	nok "the tarball and the zip hold different files"
fi
unpacked=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-release-tree.XXXXXX")
sb_on_exit "rm -rf '$unpacked'"
chmod 755 "$unpacked"
tar -C "$unpacked" -xzf "$out/$name.tar.gz" || { nok "unpack the tarball"; finish; }
tree=$unpacked/$name

# ---- 3. built and tested on every major ----
# Citus's tarball, which the Citus tests build, is found beside the
# checkout, not in the tarball.
vendor=${SCANBENCH_VENDOR:-$SB_TOP/../shared/vendor}
if [ ! -d "$vendor" ]; then
	common=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
	[ -n "$common" ] && vendor=$(dirname "$common")/../shared/vendor
fi
if [ $dry -eq 0 ]; then
	sb_log "testing the tarball on every major: tools/test.sh --jobs 2 --pg 15,18,17,19 in $tree"
	chown -R root: "$tree"
	counted env SCANBENCH_VENDOR="$vendor" SB_DIST_ZIP="$out/$name.zip" "$tree/tools/test.sh" --jobs 2 --pg 15,18,17,19
else
	echo "# the release would run, from the unpacked tarball: tools/test.sh --jobs 2 --pg 15,18,17,19"
	echo "#   (every test on 15, 17, 18 and 19; pgxn install of the zip and the container images on 15 and 18)"
	echo "# this dry run tests on PostgreSQL $SB_APT_MAJOR: the zip with pgxn, which holds what the tarball holds"
	SB_PGMAJOR=$SB_APT_MAJOR
	sb_use_pg || { nok "PostgreSQL $SB_PGMAJOR's server"; finish; }
	[ -n "${SB_INSTALL_LOCKED:-}" ] || sb_lock_install
	# One build and one installcheck, of the zip: the two archives are
	# compared byte for byte first, so that a build of the tarball would
	# test the same bytes a second time (a few minutes of CI).
	mkdir "$unpacked/zip" && unzip -q -d "$unpacked/zip" "$out/$name.zip" ||
		{ nok "unpack the zip"; finish; }
	if diff -r "$tree" "$unpacked/zip/$name" >"$unpacked/diff.log" 2>&1; then
		ok "the tarball and the zip hold the same bytes"
	else
		head -n 20 "$unpacked/diff.log"
		nok "the tarball and the zip hold the same bytes"
	fi
	counted env SB_INSTALL_LOCKED=1 SB_PGMAJOR="$SB_PGMAJOR" "$SB_TOP/tools/pgxn-test.sh" --zip "$out/$name.zip"
fi

# ---- 4. what to tag ----
echo "# release $version: commit $commit"
(cd "$out" && sha256sum "$name.tar.gz" "$name.zip") | sed 's/^/#   sha256 /'
if [ $fail -eq 0 ]; then
	if [ $dry -eq 1 ]; then
		echo "# a release would then tag: git tag -a v$version -m 'scanbench $version' $commit"
	else
		echo "# to tag and publish:"
		echo "#   git tag -a v$version -m 'scanbench $version' $commit && git push origin v$version"
		echo "#   upload $out/$name.zip to PGXN (https://manager.pgxn.org/upload)"
	fi
else
	echo "# not ready: nothing to tag"
fi
finish
