#!/usr/bin/env bash
# A disk of known speed and a CPU of known size for a throwaway cluster:
# control groups that throttle its reads of one disk (cgroup v1
# blkio.throttle.read_bps_device, v2 io.max) and cap its CPU (v1
# cpu.cfs_quota_us, v2 cpu.max), and busy loops on every CPU outside them;
# where the memory controller is there, a memory of known size (v1
# memory.limit_in_bytes, v2 memory.max), which holds the page cache the
# group's reads fill as well as its processes.
#
# Sourced by bench/truth.sh (functions, nothing done by itself) and run as
# a command by the TAP tests (t/SbLab.pm):
#
#   tools/lab.sh check                  say whether groups can be made here
#   tools/lab.sh create NAME            make the group
#   tools/lab.sh limit NAME PATH MIB CPUS [IOPS]
#                                       reads of the disk under PATH at MIB
#                                       MiB/s and IOPS requests/s, CPUS of a
#                                       CPU (0: no limit)
#   tools/lab.sh memory NAME MIB        the group's memory, page cache
#                                       included, at MIB MiB (0: no limit)
#   tools/lab.sh move NAME DATADIR      the cluster's postmaster and its
#                                       children into the group
#   tools/lab.sh reads NAME PATH        "requests bytes" the group has read
#                                       from the disk under PATH
#   tools/lab.sh stat NAME              "nr_throttled throttled_s" of the group
#   tools/lab.sh weight NAME N          the group's CPU weight, N times the
#                                       default (1: back to it), and its
#                                       parent's under SB_LAB_PARENT
#   tools/lab.sh load-start FILE [N]    N busy loops (default: one per CPU),
#                                       pids written to FILE
#   tools/lab.sh load-stop FILE         stop the loops FILE names
#   tools/lab.sh remove NAME            move what is left to the parent, remove
#   tools/lab.sh lock-dir               the directory every lab on this
#                                       machine locks (flock) while it measures
#   tools/lab.sh disk-check             say whether a lab disk can be mounted
#   tools/lab.sh disk-mount BACKING MNT a lab disk (tools/lab-disk) at MNT
#                                       passing BACKING's files through
#   tools/lab.sh disk-set MNT "latency_us=N depth=N iops=N mb_s=N"
#                                       its latency, depth and caps (0: none)
#   tools/lab.sh disk-stat MNT          its numbers and counters
#   tools/lab.sh disk-time FILE BS N    microseconds per O_DIRECT read of BS
#                                       bytes of FILE, N one at a time
#   tools/lab.sh disk-ra MNT [KB]       the read-ahead window the page
#                                       cache gives files on it (its own
#                                       backing device's), or set it
#   tools/lab.sh disk-ra-file MNT       the file that holds that window
#   tools/lab.sh disk-umount MNT        unmount it, the program ended
#
# Where groups are made: under SB_LAB_PARENT (a group path such as
# /scanbench, made and handed to another user with "delegate", so that a
# non-root test can use it) or at the top of each hierarchy as root.
# Every command exits 0 on success; check exits 1 and prints why not.

# The hierarchy version and the directories groups are made in.
sb_lab_dirs()
{
	local parent=${SB_LAB_PARENT:-}
	SB_LAB_WHY=
	if [ -d /sys/fs/cgroup/cpu ] && [ -d /sys/fs/cgroup/blkio ] &&
		[ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] &&
		[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
		SB_LAB_V=1
		SB_LAB_CPU_TOP=/sys/fs/cgroup/cpu$parent
		SB_LAB_IO_TOP=/sys/fs/cgroup/blkio$parent
		SB_LAB_MEM_TOP=
		[ -e /sys/fs/cgroup/memory/memory.limit_in_bytes ] && SB_LAB_MEM_TOP=/sys/fs/cgroup/memory$parent
	elif [ -e /sys/fs/cgroup/cgroup.controllers ]; then
		SB_LAB_V=2
		SB_LAB_CPU_TOP=/sys/fs/cgroup$parent
		SB_LAB_IO_TOP=$SB_LAB_CPU_TOP
		SB_LAB_MEM_TOP=
		grep -qw memory "$SB_LAB_CPU_TOP/cgroup.controllers" 2>/dev/null && SB_LAB_MEM_TOP=$SB_LAB_CPU_TOP
	else
		SB_LAB_V=
		SB_LAB_WHY="no cgroup v1 cpu and blkio hierarchies, and no cgroup v2 mount at /sys/fs/cgroup"
		return 1
	fi
	return 0
}

# sb_lab_lock_dir: the directory a lab holds an exclusive flock on while
# it measures.  A known answer needs the machine's CPUs and disk to itself:
# two labs at once (CI runs two majors side by side) would each take the
# other's second CPU and share the disk.  The top of the CPU hierarchy is
# the one place every run here sees, the package roots included (their
# /sys is the host's).
sb_lab_lock_dir()
{
	sb_lab_dirs || return 1
	if [ "$SB_LAB_V" = 1 ]; then
		echo /sys/fs/cgroup/cpu
	else
		echo /sys/fs/cgroup
	fi
}

# sb_lab_lock [-s]: wait for the lab lock on file descriptor 8, held until
# the shell exits or closes it (exec 8<&-); the seconds waited in
# SB_LAB_LOCK_WAITED.  -s takes it shared, for work that writes to the
# disk a lab measures (tools/pg-root.sh making a root): any number of
# those at once, and no lab while they run.
#
# flock serves no one first: with two runs' files holding the lock
# shared one after another, a lab would wait for ever.  So every taker
# passes a gate first (the lock directory's parent, descriptor 4): a
# shared taker holds it only while it takes the lock, a lab for as long
# as it measures, so that once a lab waits, no new shared taker gets in.
sb_lab_lock()
{
	local dir mode=-x t0=$SECONDS
	[ "${1:-}" = -s ] && mode=-s
	dir=$(sb_lab_lock_dir) || return 1
	exec 4<"$(dirname "$dir")" 8<"$dir" || return 1
	flock -x 4 || return 1
	flock "$mode" 8 || return 1
	[ "$mode" = -s ] && exec 4<&-
	SB_LAB_LOCK_WAITED=$((SECONDS - t0))
}

# sb_lab_check: 0 if a group with both limits can be made here; else 1,
# with the reason in SB_LAB_WHY (printed by the check command).
sb_lab_check()
{
	local t
	sb_lab_dirs || return 1
	if [ "$SB_LAB_V" = 2 ]; then
		if ! grep -qw cpu "$SB_LAB_CPU_TOP/cgroup.controllers" 2>/dev/null ||
			! grep -qw io "$SB_LAB_CPU_TOP/cgroup.controllers" 2>/dev/null; then
			SB_LAB_WHY="cgroup v2 at $SB_LAB_CPU_TOP offers no cpu and io controllers"
			return 1
		fi
	fi
	t=sb-lab-check-$$
	if ! mkdir "$SB_LAB_CPU_TOP/$t" 2>/dev/null; then
		SB_LAB_WHY="cannot make a group in $SB_LAB_CPU_TOP (run as root, or set SB_LAB_PARENT to a delegated group)"
		return 1
	fi
	rmdir "$SB_LAB_CPU_TOP/$t"
	if [ "$SB_LAB_IO_TOP" != "$SB_LAB_CPU_TOP" ]; then
		if ! mkdir "$SB_LAB_IO_TOP/$t" 2>/dev/null; then
			SB_LAB_WHY="cannot make a group in $SB_LAB_IO_TOP"
			return 1
		fi
		rmdir "$SB_LAB_IO_TOP/$t"
	fi
	return 0
}

sb_lab_create()
{
	local name=$1
	sb_lab_dirs || return 1
	if [ "$SB_LAB_V" = 2 ]; then
		# Children get the controllers only if the parent hands them down.
		echo "+cpu +io" >"$SB_LAB_CPU_TOP/cgroup.subtree_control" 2>/dev/null
		mkdir -p "$SB_LAB_CPU_TOP/$name" || return 1
	else
		mkdir -p "$SB_LAB_CPU_TOP/$name" "$SB_LAB_IO_TOP/$name" || return 1
		# The memory group is made only where the controller is: a lab
		# without it limits reads and CPU all the same.
		[ -z "$SB_LAB_MEM_TOP" ] || mkdir -p "$SB_LAB_MEM_TOP/$name" || return 1
	fi
}

# sb_lab_memory NAME MIB: the group's memory at MIB MiB, 0 for no limit.
# The page cache its reads fill is charged to it (and only what it reads
# itself: pages another group read stay charged there), so a file larger
# than the limit cannot stay cached for it, whatever the machine has free.
sb_lab_memory()
{
	local name=$1 mib=$2 bytes
	sb_lab_dirs || return 1
	if [ -z "$SB_LAB_MEM_TOP" ]; then
		echo "no memory controller: cgroup v1 has no memory hierarchy at /sys/fs/cgroup/memory, or v2 offers no memory controller" >&2
		return 1
	fi
	bytes=$(awk -v m="$mib" 'BEGIN { printf "%d", m * 1048576 }')
	if [ "$SB_LAB_V" = 1 ]; then
		[ "$bytes" -gt 0 ] || bytes=-1
		echo "$bytes" >"$SB_LAB_MEM_TOP/$name/memory.limit_in_bytes" || return 1
	else
		echo "+memory" >"$SB_LAB_CPU_TOP/cgroup.subtree_control" 2>/dev/null
		[ "$bytes" -gt 0 ] || bytes=max
		echo "$bytes" >"$SB_LAB_MEM_TOP/$name/memory.max" || return 1
	fi
}

# sb_lab_reads NAME PATH: "requests bytes" the group has read from the
# disk under PATH since it was made: the read requests as the throttle
# counts them (read-ahead's, not the reader's own), so their mean size is
# what a limit of requests a second works on.
sb_lab_reads()
{
	local name=$1 mm
	sb_lab_dirs || return 1
	mm=$(sb_lab_disk "$2") || return 1
	if [ "$SB_LAB_V" = 1 ]; then
		awk -v mm="$mm" 'FILENAME ~ /serviced$/ && $1 == mm && $2 == "Read" { n = $3 }
			FILENAME ~ /bytes$/ && $1 == mm && $2 == "Read" { b = $3 }
			END { printf "%d %d\n", n, b }' \
			"$SB_LAB_IO_TOP/$name/blkio.throttle.io_serviced" \
			"$SB_LAB_IO_TOP/$name/blkio.throttle.io_service_bytes"
	else
		awk -v mm="$mm" '$1 == mm { for (i = 2; i <= NF; i++) { split($i, kv, "=");
				if (kv[1] == "rios") n = kv[2]; if (kv[1] == "rbytes") b = kv[2] } }
			END { printf "%d %d\n", n, b }' "$SB_LAB_IO_TOP/$name/io.stat"
	fi
}

# sb_lab_disk PATH: MAJ:MIN of the whole disk holding PATH; a throttle is
# set on a disk, not a partition.
sb_lab_disk()
{
	local mm dev
	mm=$(stat -c '%Hd:%Ld' "$1") || return 1
	if [ -e "/sys/dev/block/$mm/partition" ]; then
		dev=$(cat "/sys/dev/block/$mm/../dev") || return 1
		mm=$dev
	fi
	echo "$mm"
}

# sb_lab_limit NAME PATH MIB CPUS [IOPS]: 0 for any means no limit.
sb_lab_limit()
{
	local name=$1 path=$2 mib=$3 cpus=$4 iops=${5:-0} mm bps quota period=100000
	sb_lab_dirs || return 1
	mm=$(sb_lab_disk "$path") || return 1
	bps=$(awk -v m="$mib" 'BEGIN { printf "%d", m * 1048576 }')
	quota=$(awk -v c="$cpus" -v p=$period 'BEGIN { printf "%d", c * p }')
	if [ "$SB_LAB_V" = 1 ]; then
		# v1 removes a device's rule when given 0.
		echo "$mm $bps" >"$SB_LAB_IO_TOP/$name/blkio.throttle.read_bps_device" || return 1
		echo "$mm $iops" >"$SB_LAB_IO_TOP/$name/blkio.throttle.read_iops_device" || return 1
		echo $period >"$SB_LAB_CPU_TOP/$name/cpu.cfs_period_us" || return 1
		if [ "$quota" -gt 0 ]; then
			echo "$quota" >"$SB_LAB_CPU_TOP/$name/cpu.cfs_quota_us" || return 1
		else
			echo -1 >"$SB_LAB_CPU_TOP/$name/cpu.cfs_quota_us" || return 1
		fi
	else
		[ "$bps" -gt 0 ] || bps=max
		[ "$iops" -gt 0 ] || iops=max
		echo "$mm rbps=$bps riops=$iops" >"$SB_LAB_IO_TOP/$name/io.max" || return 1
		[ "$quota" -gt 0 ] || quota=max
		echo "$quota $period" >"$SB_LAB_CPU_TOP/$name/cpu.max" || return 1
	fi
}

# sb_lab_move NAME DATADIR: the postmaster of DATADIR and every process it
# has started; backends started later inherit the group.
sb_lab_move()
{
	local name=$1 data=$2 pm pid d
	sb_lab_dirs || return 1
	pm=$(head -1 "$data/postmaster.pid") || return 1
	for pid in $pm $(ps -o pid= --ppid "$pm"); do
		for d in "$SB_LAB_CPU_TOP/$name" "$SB_LAB_IO_TOP/$name" ${SB_LAB_MEM_TOP:+"$SB_LAB_MEM_TOP/$name"}; do
			echo "$pid" >"$d/cgroup.procs" 2>/dev/null ||
				{ [ -d "/proc/$pid" ] && return 1; }
		done
	done
	return 0
}

# sb_lab_weight NAME N: a CPU of known size on a busy machine.  A quota
# caps the group but does not keep other work off its CPU: under the
# scheduler's fair shares every group (and on v1 every process of the root
# group) weighs the same, so a test's scans get what the rest leaves.  N
# times the default weight (v1 cpu.shares 1024, v2 cpu.weight 100) lets
# them run first; it takes nothing from an idle machine.
sb_lab_weight()
{
	local name=$1 n=$2 d
	sb_lab_dirs || return 1
	for d in "$SB_LAB_CPU_TOP/$name" ${SB_LAB_PARENT:+"$SB_LAB_CPU_TOP"}; do
		if [ "$SB_LAB_V" = 1 ]; then
			echo $((1024 * n)) >"$d/cpu.shares" || return 1
		else
			echo $((n * 100 > 10000 ? 10000 : n * 100)) >"$d/cpu.weight" || return 1
		fi
	done
}

# sb_lab_stat NAME: "nr_throttled throttled_s" of the group's cpu.stat.
sb_lab_stat()
{
	sb_lab_dirs || return 1
	awk '$1 == "nr_throttled" { n = $2 }
		 $1 == "throttled_time" { s = $2 / 1e9 }
		 $1 == "throttled_usec" { s = $2 / 1e6 }
		 END { printf "%d %.3f\n", n, s }' "$SB_LAB_CPU_TOP/$1/cpu.stat"
}

# sb_lab_load_start FILE [N]: N busy loops (one per CPU by default) in this
# shell's group, outside the lab's; their pids go to FILE.
sb_lab_load_start()
{
	local file=$1 n=${2:-$(nproc)} i
	# Each loop ends by itself after SB_LAB_LOAD_MAX_S, should nothing
	# stop it.
	for ((i = 0; i < n; i++)); do
		bash -c 'end=$((SECONDS + $1)); while [ $SECONDS -lt $end ]; do :; done' \
			loop "${SB_LAB_LOAD_MAX_S:-1800}" </dev/null >/dev/null 2>&1 &
		echo $! >>"$file"
	done
}

sb_lab_load_stop()
{
	local file=$1 pid
	[ -f "$file" ] || return 0
	while read -r pid; do
		kill "$pid" 2>/dev/null
	done <"$file"
	while read -r pid; do
		wait "$pid" 2>/dev/null || while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
	done <"$file"
	rm -f "$file"
}

# sb_lab_remove NAME: what is still in the group goes to its parent (or,
# on v2, where the parent may hold no process, to the top), then the
# group goes.
sb_lab_remove()
{
	local name=$1 d to pid
	sb_lab_dirs || return 0
	for d in "$SB_LAB_CPU_TOP/$name" "$SB_LAB_IO_TOP/$name" ${SB_LAB_MEM_TOP:+"$SB_LAB_MEM_TOP/$name"}; do
		[ -d "$d" ] || continue
		to=$(dirname "$d")
		[ "$SB_LAB_V" = 2 ] && to=/sys/fs/cgroup
		while read -r pid; do
			echo "$pid" >"$to/cgroup.procs" 2>/dev/null
		done <"$d/cgroup.procs"
		rmdir "$d" 2>/dev/null
	done
	return 0
}

# sb_lab_delegate USER: as root, make SB_LAB_PARENT (in each hierarchy)
# and hand it to USER, so that USER's tests can make groups below it.
sb_lab_delegate()
{
	local user=$1 d
	[ -n "${SB_LAB_PARENT:-}" ] || return 1
	sb_lab_dirs || return 1
	for d in "$SB_LAB_CPU_TOP" "$SB_LAB_IO_TOP" ${SB_LAB_MEM_TOP:+"$SB_LAB_MEM_TOP"}; do
		mkdir -p "$d" && chown -R "$user" "$d" || return 1
	done
	[ "$SB_LAB_V" = 2 ] && echo "+cpu +io${SB_LAB_MEM_TOP:+ +memory}" >"$SB_LAB_CPU_TOP/cgroup.subtree_control" 2>/dev/null
	return 0
}

# sb_lab_undelegate: remove SB_LAB_PARENT and whatever groups are left in it.
sb_lab_undelegate()
{
	local d g
	[ -n "${SB_LAB_PARENT:-}" ] || return 0
	sb_lab_dirs || return 0
	for d in "$SB_LAB_CPU_TOP" "$SB_LAB_IO_TOP" ${SB_LAB_MEM_TOP:+"$SB_LAB_MEM_TOP"}; do
		[ -d "$d" ] || continue
		for g in "$d"/*/; do
			[ -d "$g" ] && sb_lab_remove "$(basename "$g")"
		done
		rmdir "$d" 2>/dev/null
	done
	return 0
}

# ---- the lab disk: latency, depth, IOPS and bytes (tools/lab-disk) ----
#
# A control group throttles bytes and requests, but no group gives a disk
# latency, and a reader's depth only matters where there is latency.  The
# lab disk is a FUSE file system passing a backing directory through, each
# read request served as a device of four numbers would
# (tools/lab-disk/lab-disk.c says how).  It is built here, when first
# asked for, into SB_LAB_DISK_BUILD.

SB_LAB_DISK_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/lab-disk" 2>/dev/null && pwd)

sb_lab_disk_bin()
{
	echo "${SB_LAB_DISK_BUILD:-${TMPDIR:-/tmp}/scanbench-lab-disk-$(id -u)}/lab-disk"
}

# sb_lab_disk_check: 0 if a lab disk can be built and mounted here; else 1,
# the reason in SB_LAB_WHY.
sb_lab_disk_check()
{
	local bin dir
	SB_LAB_WHY=
	if [ ! -c /dev/fuse ]; then
		SB_LAB_WHY="no /dev/fuse (FUSE is not available here)"
		return 1
	fi
	if [ "$(id -u)" != 0 ] && ! command -v fusermount3 >/dev/null; then
		SB_LAB_WHY="no fusermount3 (Debian package fuse3), which a user other than root mounts FUSE with"
		return 1
	fi
	bin=$(sb_lab_disk_bin)
	dir=$(dirname "$bin")
	if [ ! -x "$bin" ] || [ "$SB_LAB_DISK_SRC/lab-disk.c" -nt "$bin" ]; then
		if ! pkg-config --exists fuse3 2>/dev/null; then
			SB_LAB_WHY="no libfuse 3 to build the lab disk with (Debian packages libfuse3-dev and pkg-config)"
			return 1
		fi
		mkdir -p "$dir" || { SB_LAB_WHY="cannot make $dir"; return 1; }
		if ! make -s -C "$SB_LAB_DISK_SRC" O="$dir" >"$dir/build.log" 2>&1; then
			SB_LAB_WHY="the lab disk does not build: $(tail -3 "$dir/build.log")"
			return 1
		fi
	fi
	return 0
}

sb_lab_disk_set()
{
	local mnt=$1
	shift
	echo "$*" >"$mnt/.lab-disk"
}

sb_lab_disk_stat()
{
	cat "$1/.lab-disk"
}

# sb_lab_disk_time FILE BS COUNT: microseconds per O_DIRECT read of BS
# bytes, one at a time, from FILE (on a lab disk: the time a reader sees).
sb_lab_disk_time()
{
	local file=$1 bs=$2 count=$3
	LC_ALL=C dd if="$file" of=/dev/null bs="$bs" count="$count" iflag=direct 2>&1 |
		awk -v n="$count" '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") printf "%d\n", $(i - 1) * 1e6 / n }'
}

# sb_lab_disk_mount BACKING MNT: mount, then take the layer's own time per
# request off the latency.  The kernel hands each request over and copies
# its reply outside the program (on a 2-vCPU VM about 0.1 ms a request and
# 0.3 ms more a MB): read one at a time at a latency of 1 ms, in 8 KB and
# in 1 MB requests, what is above 1 ms is that time, a part per request
# and a part per MB.  The fastest of five: other work on the machine only
# ever adds to it (a compiler on both CPUs made one run's 3 ms), and what
# it adds is not the layer's.  Capped at 0.3 ms and 1 ms a MB, the most
# seen on an idle machine several times over.
sb_lab_disk_mount()
{
	local backing=$1 mnt=$2 bin opts t8 t1m i a b o8 slope
	sb_lab_disk_check || return 1
	bin=$(sb_lab_disk_bin)
	# One thread serves one request, held for its latency: more threads
	# than any depth set, read-ahead and O_DIRECT requests in flight.
	opts=max_threads=256,fsname=lab-disk,subtype=lab-disk
	# A root daemon serves every user (PostgreSQL's), and its files belong
	# to whoever made them.
	[ "$(id -u)" = 0 ] && opts=$opts,allow_other,default_permissions
	"$bin" "$backing" "$mnt" -o "$opts" || return 1
	for i in $(seq 50); do
		[ -e "$mnt/.lab-disk" ] && break
		sleep 0.1
	done
	head -c $((64 * 1048576)) /dev/zero >"$backing/.lab-disk-calibrate" || return 1
	cat "$backing/.lab-disk-calibrate" >/dev/null
	sb_lab_disk_set "$mnt" "latency_us=1000 depth=0 iops=0 mb_s=0 overhead_us=0 overhead_us_mb=0" || return 1
	t8=() t1m=()
	for i in 1 2 3 4 5; do
		t8+=($(sb_lab_disk_time "$mnt/.lab-disk-calibrate" 8192 300))
		t1m+=($(sb_lab_disk_time "$mnt/.lab-disk-calibrate" 1048576 50))
	done
	a=$(printf '%s\n' "${t8[@]}" | sort -n | head -1)
	b=$(printf '%s\n' "${t1m[@]}" | sort -n | head -1)
	rm -f "$backing/.lab-disk-calibrate"
	[ -n "$a" ] && [ -n "$b" ] || return 1
	slope=$(((b - a) > 0 ? (b - a) * 1024 / 1016 : 0))
	o8=$(((a - 1000) - slope / 128))
	[ $o8 -gt 0 ] || o8=0
	[ $o8 -le 300 ] || o8=300
	[ $slope -le 1000 ] || slope=1000
	sb_lab_disk_set "$mnt" "latency_us=0 reset overhead_us=$o8 overhead_us_mb=$slope" || return 1
	sb_lab_disk_favour "$bin $backing $mnt -o $opts" "$mnt"
}

# The group a lab disk's daemon runs in, named after its mount point.
sb_lab_disk_group() { echo "sb-lab-disk-$(printf '%s' "$1" | md5sum | cut -c1-12)"; }

# sb_lab_disk_favour CMDLINE MNT: the daemon at the weight of the lab's
# cells (sb_lab_weight).  Each read of the disk waits for the daemon to
# get a CPU and sleep its latency: at the default weight, the other
# tests a machine runs beside a lab keep it waiting, and a cell of 800
# requests a second then gets fewer.  Where no group can be made the
# daemon keeps the default weight, and the cells' tolerances still hold
# on a quiet machine.
sb_lab_disk_favour()
{
	local cmdline=$1 mnt=$2 name pid
	sb_lab_dirs 2>/dev/null || return 0
	pid=$(pgrep -x -f -- "$cmdline" | head -1)
	[ -n "$pid" ] || return 0
	name=$(sb_lab_disk_group "$mnt")
	mkdir -p "$SB_LAB_CPU_TOP/$name" 2>/dev/null || return 0
	sb_lab_weight "$name" 100 2>/dev/null &&
		echo "$pid" >"$SB_LAB_CPU_TOP/$name/cgroup.procs" 2>/dev/null ||
		rmdir "$SB_LAB_CPU_TOP/$name" 2>/dev/null
	return 0
}

# sb_lab_disk_ra MNT [KB]: the mount's read-ahead window, kB, printed or
# set.  A FUSE mount has a backing device of its own (no block device),
# /sys/class/bdi/MAJ:MIN, gone with the mount.
sb_lab_disk_ra_file() { echo "/sys/class/bdi/$(stat -c '%Hd:%Ld' "$1")/read_ahead_kb"; }
sb_lab_disk_ra()
{
	local f
	f=$(sb_lab_disk_ra_file "$1") || return 1
	if [ $# -gt 1 ]; then
		echo "$2" >"$f"
	else
		cat "$f"
	fi
}

sb_lab_disk_umount()
{
	local mnt=$1 i
	mountpoint -q "$mnt" || return 0
	if [ "$(id -u)" = 0 ]; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt"
	else
		fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -u -z "$mnt"
	fi
	for i in $(seq 50); do
		if ! mountpoint -q "$mnt"; then
			sb_lab_remove "$(sb_lab_disk_group "$mnt")"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cmd=${1:-}
	[ $# -gt 0 ] && shift
	case $cmd in
	check)
		if sb_lab_check; then
			echo "cgroup v$SB_LAB_V: $SB_LAB_CPU_TOP${SB_LAB_IO_TOP:+ $SB_LAB_IO_TOP}"
		else
			echo "$SB_LAB_WHY"
			exit 1
		fi
		;;
	create) sb_lab_create "$@" ;;
	limit) sb_lab_limit "$@" ;;
	memory) sb_lab_memory "$@" ;;
	reads) sb_lab_reads "$@" ;;
	move) sb_lab_move "$@" ;;
	stat) sb_lab_stat "$@" ;;
	weight) sb_lab_weight "$@" ;;
	load-start) sb_lab_load_start "$@" ;;
	load-stop) sb_lab_load_stop "$@" ;;
	remove) sb_lab_remove "$@" ;;
	delegate) sb_lab_delegate "$@" ;;
	undelegate) sb_lab_undelegate ;;
	lock-dir) sb_lab_lock_dir ;;
	disk-check)
		if sb_lab_disk_check; then
			echo "lab disk: $(sb_lab_disk_bin)"
		else
			echo "$SB_LAB_WHY"
			exit 1
		fi
		;;
	disk-mount) sb_lab_disk_mount "$@" ;;
	disk-set) sb_lab_disk_set "$@" ;;
	disk-stat) sb_lab_disk_stat "$@" ;;
	disk-time) sb_lab_disk_time "$@" ;;
	disk-ra) sb_lab_disk_ra "$@" ;;
	disk-ra-file) sb_lab_disk_ra_file "$@" ;;
	disk-umount) sb_lab_disk_umount "$@" ;;
	*)
		echo "usage: tools/lab.sh check|create|limit|memory|reads|move|stat|weight|load-start|load-stop|remove|delegate|undelegate|lock-dir|disk-check|disk-mount|disk-set|disk-stat|disk-time|disk-ra|disk-ra-file|disk-umount ..." >&2
		exit 2
		;;
	esac
fi
