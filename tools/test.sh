#!/usr/bin/env bash
# Everything from a clean clone: packages, build, install, a throwaway
# cluster, then pg_regress (sql/, expected/) and the TAP tests (t/).
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
#
#   tools/test.sh [TAP test files...]
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT

sb_install_packages
sb_build_install

# The tests run as the cluster's OS user in a copy of the tree, so that
# pg_regress and TAP can write results/ and tmp_check/ without touching the
# checkout's ownership.
work=$(mktemp -d /tmp/scanbench-test.XXXXXX)
sb_on_exit "rm -rf '$work'"
cp -a "$SB_TOP/." "$work/src"
[ "$(id -u)" = 0 ] && chown -R postgres: "$work"
sb_start_cluster "$work/cluster" 54329

# A filesystem of a known type under a tablespace, where this machine lets us
# mount one: t/ tests read SCANBENCH_TEST_FS and skip when it is empty.
SCANBENCH_TEST_FS=""
if [ "$(id -u)" = 0 ] && command -v mkfs.ext2 >/dev/null; then
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

regress_log="$work/regress.log"
tap_log="$work/tap.log"

sb_log "pg_regress on port $PGPORT"
sb_as_pg env PGHOST="$PGHOST" PGPORT="$PGPORT" PGUSER=postgres \
	make -C "$work/src" -s installcheck TAP_TESTS= PG_CONFIG="$(sb_pgbin)/pg_config" \
	>"$regress_log" 2>&1
regress_rc=$?
cat "$regress_log"
[ $regress_rc -ne 0 ] && [ -f "$work/src/regression.diffs" ] && cat "$work/src/regression.diffs"

sb_log "TAP tests"
# .../lib/pgxs/src/makefiles/pgxs.mk -> .../lib/pgxs
pgxs_dir=$(dirname "$(dirname "$(dirname "$("$(sb_pgbin)/pg_config" --pgxs)")")")
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(t/*.pl)
(cd "$work/src" && sb_as_pg env TESTDIR="$work/src" PGPORT=55432 \
	PG_REGRESS="$pgxs_dir/src/test/regress/pg_regress" \
	SCANBENCH_TEST_FS="$SCANBENCH_TEST_FS" \
	prove -v -I "$pgxs_dir/src/test/perl" -I . "${tests[@]}") >"$tap_log" 2>&1
tap_rc=$?
grep -E '^(t/|not ok|Files=|Result:|#   Failed)' "$tap_log"
if [ $tap_rc -ne 0 ]; then
	grep -vE "^(ok|#)" "$tap_log" | head -60
	grep -B2 -A8 "^not ok" "$tap_log" | head -100
	ls "$work/src/tmp_check/log/" 2>/dev/null && tail -n 30 "$work"/src/tmp_check/log/*.log
fi

# pg_regress 15 prints "name ... ok", 16 and later print TAP ("ok 1 - name").
r_pass=$(grep -cE '^(ok [0-9]+ |test .* \.\.\. ok|     [a-z_0-9]+ +\.\.\. ok| +[a-z_0-9]+ +\.\.\. ok)' "$regress_log")
r_fail=$(grep -cE '(\.\.\. FAILED|^not ok [0-9]+ )' "$regress_log")
t_pass=$(grep -cE '^ *ok [0-9]+' "$tap_log")
t_fail=$(grep -cE '^ *not ok [0-9]+' "$tap_log")
pass=$((r_pass + t_pass))
fail=$((r_fail + t_fail))
# A runner that died before reporting still fails the run.
if [ $fail -eq 0 ] && { [ $regress_rc -ne 0 ] || [ $tap_rc -ne 0 ]; }; then
	fail=1
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
