#!/usr/bin/env bash
# A disk of known speed and a CPU of known size for a throwaway cluster:
# control groups that throttle its reads of one disk (cgroup v1
# blkio.throttle.read_bps_device, v2 io.max) and cap its CPU (v1
# cpu.cfs_quota_us, v2 cpu.max), and busy loops on every CPU outside them.
#
# Sourced by bench/truth.sh (functions, nothing done by itself) and run as
# a command by the TAP tests (t/SbLab.pm):
#
#   tools/lab.sh check                  say whether groups can be made here
#   tools/lab.sh create NAME            make the group
#   tools/lab.sh limit NAME PATH MIB CPUS
#                                       reads of the disk under PATH at MIB
#                                       MiB/s, CPUS of a CPU (0: no limit)
#   tools/lab.sh move NAME DATADIR      the cluster's postmaster and its
#                                       children into the group
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
	elif [ -e /sys/fs/cgroup/cgroup.controllers ]; then
		SB_LAB_V=2
		SB_LAB_CPU_TOP=/sys/fs/cgroup$parent
		SB_LAB_IO_TOP=$SB_LAB_CPU_TOP
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
sb_lab_lock()
{
	local dir mode=-x t0=$SECONDS
	[ "${1:-}" = -s ] && mode=-s
	dir=$(sb_lab_lock_dir) || return 1
	exec 8<"$dir" || return 1
	flock "$mode" 8 || return 1
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

# sb_lab_limit NAME PATH MIB CPUS: 0 for either means no limit.
sb_lab_limit()
{
	local name=$1 path=$2 mib=$3 cpus=$4 mm bps quota period=100000
	sb_lab_dirs || return 1
	mm=$(sb_lab_disk "$path") || return 1
	bps=$(awk -v m="$mib" 'BEGIN { printf "%d", m * 1048576 }')
	quota=$(awk -v c="$cpus" -v p=$period 'BEGIN { printf "%d", c * p }')
	if [ "$SB_LAB_V" = 1 ]; then
		# v1 removes a device's rule when given 0.
		echo "$mm $bps" >"$SB_LAB_IO_TOP/$name/blkio.throttle.read_bps_device" || return 1
		echo $period >"$SB_LAB_CPU_TOP/$name/cpu.cfs_period_us" || return 1
		if [ "$quota" -gt 0 ]; then
			echo "$quota" >"$SB_LAB_CPU_TOP/$name/cpu.cfs_quota_us" || return 1
		else
			echo -1 >"$SB_LAB_CPU_TOP/$name/cpu.cfs_quota_us" || return 1
		fi
	else
		[ "$bps" -gt 0 ] || bps=max
		echo "$mm rbps=$bps" >"$SB_LAB_IO_TOP/$name/io.max" || return 1
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
		for d in "$SB_LAB_CPU_TOP/$name" "$SB_LAB_IO_TOP/$name"; do
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
	for d in "$SB_LAB_CPU_TOP/$name" "$SB_LAB_IO_TOP/$name"; do
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
	for d in "$SB_LAB_CPU_TOP" "$SB_LAB_IO_TOP"; do
		mkdir -p "$d" && chown -R "$user" "$d" || return 1
	done
	[ "$SB_LAB_V" = 2 ] && echo "+cpu +io" >"$SB_LAB_CPU_TOP/cgroup.subtree_control" 2>/dev/null
	return 0
}

# sb_lab_undelegate: remove SB_LAB_PARENT and whatever groups are left in it.
sb_lab_undelegate()
{
	local d g
	[ -n "${SB_LAB_PARENT:-}" ] || return 0
	sb_lab_dirs || return 0
	for d in "$SB_LAB_CPU_TOP" "$SB_LAB_IO_TOP"; do
		[ -d "$d" ] || continue
		for g in "$d"/*/; do
			[ -d "$g" ] && sb_lab_remove "$(basename "$g")"
		done
		rmdir "$d" 2>/dev/null
	done
	return 0
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
	move) sb_lab_move "$@" ;;
	stat) sb_lab_stat "$@" ;;
	weight) sb_lab_weight "$@" ;;
	load-start) sb_lab_load_start "$@" ;;
	load-stop) sb_lab_load_stop "$@" ;;
	remove) sb_lab_remove "$@" ;;
	delegate) sb_lab_delegate "$@" ;;
	undelegate) sb_lab_undelegate ;;
	lock-dir) sb_lab_lock_dir ;;
	*)
		echo "usage: tools/lab.sh check|create|limit|move|stat|weight|load-start|load-stop|remove|delegate|undelegate|lock-dir ..." >&2
		exit 2
		;;
	esac
fi
