#!/usr/bin/env bash
# scanbench-probe against known answers, as a table: doc/lab.md's "A
# client's figure" section is one run of this script.
#
#   bench/probe.sh [--pg MAJOR[,MAJOR...]]      (default: 15,18)
#
# For each major it runs t/097_lab_probe.pl through tools/test.sh (its
# quick tier, the lab on): a cluster without the extension's help in a
# control group whose reads are capped (bytes a second; requests a second
# on a lab disk) and whose memory, page cache included, is limited,
# measured by the probe,
# and by scan_efficiency on the same server.  The cells are that file's,
# defined there once; on 18 and later under io_method worker and sync.
# A row per cell:
#
#   cap          the group's read cap, MiB/s; or the lab disk's requests
#                a second and the mean size of the requests it served
#                (the kernel's read-ahead sets that size, not the server)
#   memory       the group's memory limit, also given as --memory
#   known        the rate the cap allows, MB/s: the byte cap, or the
#                requests a second times their mean size
#   scan         the probe's scan rate of pass 1, MB/s
#   wait         its read rate per second of read wait, MB/s
#   volume       pass 1 as a % of the volume stated (gp3's 125 MiB/s; for
#                the request cap a volume of that many IOPS, at the size
#                the probe assumes, the read-ahead's), and what the limit
#                counts (bytes or requests a second)
#   pass 1/2     what the probe called each pass; pass 2's share read
#                from the disk, by the group's counters, beside it
#   efficiency   scan_efficiency's scan_mb_s, cold, on the same server
#
# The test asserts each row against its known answer (its failures are
# counted at the end).  It takes the machine's lab lock itself while it
# measures (t/SbLab.pm), so this script does not: a lab that waited for
# it would wait for ever.  Root (tools/test.sh installs and makes control
# groups); 6 to 8 minutes a major.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"

sb_bench_lab_table t/097_lab_probe.pl "scanbench-probe in the lab" \
	'| PostgreSQL | cell | cap | memory | known MB/s | scan MB/s | wait MB/s | % of volume | pass 1 | pass 2 | scan_efficiency MB/s |' \
	"$@"
