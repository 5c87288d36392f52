#!/usr/bin/env bash
# make installcheck and make prove_installcheck as doc/development.md gives
# them: in a fresh copy of the tree, never built, as the postgres user,
# against the installed scanbench and the installed scanbench-load
# (pg_config --bindir).  installcheck is pg_regress alone; the TAP files
# named run under prove_installcheck (by default those that run the loader
# and are quick); every other file of t/ is left out.
#
#   tools/installcheck-test.sh [TAP_FILE...]
#
# Needs the extension and the loader installed into the server of SB_PGBIN
# (tools/test.sh calls this after make install) and a running cluster in
# PGHOST/PGPORT for pg_regress.  Prints ok/not ok lines and ends with
# "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
major=${SB_PGMAJOR:-15}
bin=${SB_PGBIN:-/usr/lib/postgresql/$major/bin}
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }
as_pg()
{
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- env PATH="$bin:$PATH" "$@"
	else
		env PATH="$bin:$PATH" "$@"
	fi
}

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(t/051_history_survives.pl t/062_citus_load.pl t/111_load_args.pl)
bindir=$("$bin/pg_config" --bindir)
if [ -x "$bindir/scanbench-load" ]; then
	ok "scanbench-load is installed in $bindir"
else
	nok "scanbench-load is installed in $bindir"
	finish
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-installcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
tar -C "$top" --exclude=./.git --exclude=./tmp_check --exclude=./results -cf - . |
	tar -C "$work" -xf - || { nok "copy the tree"; finish; }
# What a fresh checkout has: nothing built.
make -C "$work" -s PG_CONFIG="$bin/pg_config" clean >/dev/null 2>&1
[ "$(id -u)" = 0 ] && chown -R postgres: "$work"
if [ -e "$work/bin/scanbench-load/scanbench-load" ]; then
	nok "the copy holds no built loader"
	finish
fi
ok "the copy holds no built loader"

log="$work/installcheck.log"
as_pg make -C "$work" installcheck PG_CONFIG="$bin/pg_config" >"$log" 2>&1
rc=$?
if grep -qE '^(\[[0-9:]+\] )?t/[0-9]' "$log"; then
	nok "make installcheck runs pg_regress alone, no TAP file"
else
	ok "make installcheck runs pg_regress alone, no TAP file"
fi
[ $rc -eq 0 ] && { as_pg make -C "$work" prove_installcheck PG_CONFIG="$bin/pg_config" \
	PROVE_TESTS="${tests[*]}" >>"$log" 2>&1; rc=$?; }
grep -E '^(t/|not ok|Files=|Result:|#   Failed)|file not found|\.\.\. (ok|FAILED)|^(ok|not ok) [0-9]+ +- ' "$log" |
	grep -vE '^ +ok' | head -80
if [ $rc -eq 0 ]; then
	ok "make installcheck and prove_installcheck in a fresh copy pass (pg_regress, then ${tests[*]})"
else
	nok "make installcheck and prove_installcheck in a fresh copy pass (exit $rc)"
	tail -n 40 "$log"
	[ -f "$work/regression.diffs" ] && head -n 80 "$work/regression.diffs"
fi
if grep -q 'file not found' "$log"; then
	nok "no test looked for a loader built in the tree"
else
	ok "no test looked for a loader built in the tree"
fi
if [ -e "$work/bin/scanbench-load/scanbench-load" ]; then
	nok "the installed loader was used: none was built in the copy"
else
	ok "the installed loader was used: none was built in the copy"
fi
finish
