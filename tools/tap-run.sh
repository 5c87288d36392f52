#!/bin/sh
# One TAP file of t/, as prove runs it (prove --exec tools/tap-run.sh),
# kept off the CPUs while a lab measures.
#
#   tools/tap-run.sh t/NNN_name.pl
#
# A lab's known answer needs the machine to itself (t/SbLab.pm takes the
# machine's lab lock, tools/lab.sh lock-dir, exclusively while it
# measures).  A file that makes no lab holds that lock shared while it
# runs, so that a lab in another run (CI tests two majors at once) waits
# for the files running beside it to end and no new one starts until it
# is done.  The lab's own files (those that use SbLab) take the lock
# themselves.  Where there is no lab lock (no control groups here), the
# file just runs.
#
# prove gives a file run through --exec none of its -I directories:
# PostgreSQL's test modules (beside the pg_config first on PATH) and the
# tree's own (the current directory, where prove runs) are put on
# PERL5LIB here.
set -u
file=$1
pgxs=$(pg_config --pgxs) || { echo "tap-run.sh: pg_config --pgxs failed" >&2; exit 2; }
PERL5LIB="${pgxs%/src/makefiles/pgxs.mk}/src/test/perl:$PWD${PERL5LIB:+:$PERL5LIB}"
export PERL5LIB
lock=$("$(dirname "$0")/lab.sh" lock-dir 2>/dev/null) || lock=
if [ -z "$lock" ] || [ ! -d "$lock" ] || grep -q '^use SbLab;' "$file"; then
	exec perl "$file"
fi
# Through the gate a waiting lab holds (tools/lab.sh, sb_lab_lock), then
# the lock shared, kept on descriptor 8 by the test while it runs.
exec 4<"$(dirname "$lock")" 8<"$lock" || exit 2
flock -x 4 && flock -s 8 || { echo "tap-run.sh: could not lock $lock" >&2; exit 2; }
exec 4<&-
exec perl "$file"
