#!/usr/bin/env bash
# The workload's reads against known answers, as a table: doc/workload.md's
# "In the lab" section is one run of this script.
#
#   bench/workload-lab.sh [--pg MAJOR[,MAJOR...]]      (default: 15,18)
#
# For each major it runs t/097_lab_workload.pl through tools/test.sh (its
# quick tier, the lab on): statements between two workload snapshots on a
# cluster whose reads are held to a known rate, and workload_reads' rows
# for them.  The cells are that file's, defined there once; from 18 each
# runs under io_method worker and again under io_uring:
#
#   cold, 64 MiB/s     a count of a table out of both caches under a cap of
#                      64 MiB/s; known: the cap
#   page cache         counts of a table the page cache holds: far above
#                      every reference, page_cache
#   index scan         a count by an index that follows no order of the
#                      heap under a cap of 400 requests a second; known:
#                      400 x 8 kB a second
#   bitmap heap scan   the same kind of count as a bitmap heap scan on the
#                      lab disk (8 reads at once, 8 ms each,
#                      effective_io_concurrency 8); known: the law of its
#                      look-ahead (t/096 holds access_paths to the same)
#
# A row per cell: the major, the cell, the statement as
# pg_stat_statements keeps it, calls, blocks read, read wait (s) and its
# share of the statement's time (%), the rate per second of wait (MB/s)
# and the known one, the nearest reference and the rate as a % of it, the
# verdict.  The test asserts each row against its known answer (its
# failures are counted at the end).  Root (tools/test.sh installs and
# makes control groups and the lab disk); 3 to 5 minutes a major.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"

sb_bench_lab_table t/097_lab_workload.pl "the workload's reads in the lab" \
	'| major | cell | statement | calls | blocks_read | read_wait_s | read_wait_pct | read_mb_s | known MB/s | reference | reference_pct | verdict |' \
	"$@"
