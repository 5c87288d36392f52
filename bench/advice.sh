#!/usr/bin/env bash
# scan_advice's top advice applied for real: for each cell of a small lab
# (tools/lab.sh: a disk of known speed, a CPU of known size), a throwaway
# cluster with one lineitem is asked for advice, the best candidate that
# has a gain is applied as its command says (SET in the session; ALTER
# SYSTEM and a restart of the cluster; the lab group's own control files),
# and the scan is timed with scan_rate before and after, the two
# alternating where no restart is needed (a SET, the lab's own limits).
# Printed side by side: the advised gain (measured or predicted, with its
# interval or bound) and the gain scan_rate saw, and their ratio.  A candidate with no gain (a
# read throttle, whose device cannot be measured under it) is applied too,
# to show what it hid.
#
#   bench/advice.sh [--pg MAJOR] [--scale SF] [--runs N] [--max-seconds S]
#                   [--cells "CELL ..."] [--port PORT]
#
# A cell is CACHE:MIB:CPUS, 0 for no limit, or disk:MS:SERVED:MBS, the
# lab disk (tools/lab-disk) with a latency of MS per request, SERVED
# requests at once and a cap of MBS MB/s (0: none), read cold from a copy
# of lineitem in a tablespace on it.  The default cells are
#   warm:0:0      CPU-bound, the machine's CPUs free to use (the cluster
#                 without parallel workers, as the advice finds it)
#   warm:0:0.5    half a CPU
#   cold:100:0    a disk of 100 MiB/s
#   disk:2:32:200 storage with latency: 2 ms a request, 32 at once, 200 MB/s
# In a CACHE:MIB:CPUS cell the best row is applied; in a lab disk cell
# every row about reading (read-ahead, effective_io_concurrency,
# io_combine_limit, io_max_combine_limit, io_method, the I/O workers), each
# on its own, and flagged (!) where the lab disagrees: a measured gain
# whose real one is outside its interval (or, with no interval, 10 % off
# it), a predicted one more than 20 % off the real one, a row without a
# gain that made the scan slower (a loss of 5 % or more).
# The cluster's group gets a CPU weight of 100 times the default, so that
# other work on the machine does not take its CPUs.  Without a lab (not
# root, or no writable control groups) only cells without limits run.
# Host changes (read-ahead, the scheduler) are shown, never applied: they
# change the device for every user of the machine; the lab disk's own
# read-ahead is applied.  SB_PGBIN=DIR uses
# the installation whose programs are in DIR.  Default SF 0.1
# (about 75 MB), --runs 5 scan_rate runs a side, --max-seconds 40.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/lab.sh"
trap 'sb_cleanup' EXIT

scale=0.1
runs=5
maxs=40
cells="warm:0:0 warm:0:0.5 cold:100:0 disk:2:32:200"
port=56400
while [ $# -gt 0 ]; do
	case "$1" in
		--pg) SB_PGMAJOR=$2; shift 2 ;;
		--scale) scale=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--max-seconds) maxs=$2; shift 2 ;;
		--cells) cells=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		*) sb_die "usage: bench/advice.sh [--pg MAJOR] [--scale SF] [--runs N] [--max-seconds S] [--cells \"CACHE:MIB:CPUS ...\"] [--port PORT]" ;;
	esac
done
sb_bench_record
[ "$(id -u)" = 0 ] || sb_die "run as root: the cluster is made as postgres and put in control groups"
sb_check_major "$SB_PGMAJOR"
sb_install_packages
# SB_PGBIN=DIR: the installation in DIR (a private copy) instead.
if [ -n "${SB_PGBIN:-}" ]; then
	export SB_PGBIN
else
	sb_use_pg || sb_die "PostgreSQL $SB_PGMAJOR is not available"
fi
sb_build_install
dir=$(mktemp -d /tmp/scanbench-advice.XXXXXX)
chmod 755 "$dir"
sb_on_exit "rm -rf '$dir'"
sb_start_cluster "$dir" "$(sb_free_port "$port")" "max_parallel_workers_per_gather = 0" "shared_buffers = 32MB"
pgbin=$(sb_pgbin)
q() { "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 "$@"; }
"$pgbin/scanbench-load" --scale "$scale" --drop --quiet || sb_die "scanbench-load failed"
q -c "CREATE EXTENSION IF NOT EXISTS scanbench" >/dev/null

lab=""
if sb_lab_check; then
	# One lab at a time on this machine (another would share its CPUs).
	sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"
	[ "$SB_LAB_LOCK_WAITED" -gt 0 ] && echo "waited $SB_LAB_LOCK_WAITED s for the lab lock (another lab, or a package root being made, on this machine)"
	lab=sb-advice-$$
	sb_lab_create "$lab" || sb_die "could not make the group $lab"
	sb_on_exit "sb_lab_remove '$lab'"
	sb_lab_move "$lab" "$dir/data" || sb_die "could not move the cluster into $lab"
	sb_lab_weight "$lab" 100 || sb_die "could not weigh $lab"
else
	sb_log "no lab: $SB_LAB_WHY; only cells without limits run"
fi

# The lab disk, mounted for the first disk cell: a tablespace on it and
# a copy of lineitem there.
labdisk=""
disk_setup()
{
	[ -n "$labdisk" ] && return 0
	[ -n "$lab" ] && sb_lab_disk_check || return 1
	labdisk=$dir/labdisk
	mkdir -p "$labdisk/backing" "$labdisk/mnt"
	sb_lab_disk_mount "$labdisk/backing" "$labdisk/mnt" || sb_die "could not mount the lab disk"
	sb_on_exit "sb_lab_disk_umount '$labdisk/mnt'"
	chown -R postgres: "$labdisk"
	# The page cache reads the mount through a backing device of its own,
	# whose read-ahead window is the lab's to change.
	labra_file=$(sb_lab_disk_ra_file "$labdisk/mnt")
	labra=$(sb_lab_disk_ra "$labdisk/mnt")
	q -c "CREATE TABLESPACE lab LOCATION '$labdisk/mnt'" >/dev/null
	q -c "CREATE TABLE lineitem_lab TABLESPACE lab AS SELECT * FROM lineitem" -c "VACUUM (FREEZE, ANALYZE) lineitem_lab" >/dev/null
}

# rate CACHE [SQL...]: the median of --runs scan_rate rates (MB/s) of
# $rel, each in a session that runs the SQL first.
rate()
{
	local cache=$1 i v="" w=0 pre
	shift
	pre=("$@")
	# max_parallel_workers_per_gather is scan_rate's parallel_workers
	# argument: the measured statement sets the setting itself.
	for s in "${pre[@]}"; do
		[[ $s =~ ^SET\ max_parallel_workers_per_gather\ =\ ([0-9]+) ]] && w=${BASH_REMATCH[1]}
	done
	for i in $(seq 1 "$runs"); do
		v+=" $(q "${pre[@]/#/-c}" -c "SELECT scan_mb_s FROM scan_rate('$rel', '$cache', 'count(1)', $w)" | tail -1)"
	done
	sb_median <<<"$v"
}

# alternate APPLY UNDO [SQL]: where no restart is needed, two more rounds
# of after (APPLY, then rate with SQL run first) and before (UNDO, then
# rate), alternating, since the machine's speed drifts; before and after
# become the medians of each side's rates.
alternate()
{
	local apply=$1 undo=$2 sql=("${@:3}") b=$before a="" k
	for k in 1 2; do
		"$apply" || sb_die "could not apply $command"
		a+=" $(rate "$cache" "${sql[@]}")"
		"$undo" || sb_die "could not undo $command"
		b+=" $(rate "$cache")"
	done
	before=$(sb_median <<<"$b")
	after=$(sb_median <<<"$a")
}
lift() { bash -c "$command"; }
relimit() { sb_lab_limit "$lab" "$dir/data" "$mib" "$cpus"; }
# The window is taken when a file is opened: 18's I/O workers hold theirs
# open, so the server restarts with each change.
ra_set() { bash -c "${command%%;*}" && sb_restart_cluster "$dir"; }
ra_back() { sb_lab_disk_ra "$labdisk/mnt" "$labra" && sb_restart_cluster "$dir"; }

# try ROW: apply one row of scan_advice (fields separated by \x1f), time
# the scan with it and without, undo it, and print the line.
try()
{
	local setting current value gain lo hi measured cost command estimate advised flag=""
	IFS=$'\x1f' read -r setting current value gain lo hi measured cost command estimate <<<"$1"
	# A model's bound reads "<="; the quota's figure is an estimate (its
	# basis says so), which the real gain may pass.
	if [ -z "$gain" ]; then advised="not predicted"
	elif [ "$measured" = t ]; then advised="$gain [$lo, $hi]"
	elif [ "$estimate" = t ]; then advised="~$gain estimated"
	else advised="<= $gain predicted"; fi

	# Apply, measure, undo.
	before=$(rate "$cache")
	after="" note=""
	case $command in
		SET\ *)
			# The SET is the session's own, made in each after run.
			alternate true true "$command"
			;;
		ALTER\ SYSTEM\ *)
			alter=${command%%;*}
			session=""
			[[ $command == *"then SET "* ]] && session="SET ${command##*then SET }"
			q -c "$alter" >/dev/null || sb_die "$alter failed"
			sb_restart_cluster "$dir"
			if [ -n "$session" ]; then after=$(rate "$cache" "$session"); else after=$(rate "$cache"); fi
			q -c "ALTER SYSTEM RESET ${setting}" >/dev/null
			sb_restart_cluster "$dir"
			note=" (restarted)"
			;;
		echo\ *\ /sys/fs/cgroup/*)
			# The lab's own limit, lifted and set again.
			alternate lift relimit
			;;
		"echo "*" > $labra_file"*)
			# The lab disk's own window.
			alternate ra_set ra_back
			;;
		pg_ctl\ stop*)
			sb_as_pg pg_ctl -D "$dir/data" -m fast -w stop >/dev/null
			sb_as_pg pg_checksums --disable -D "$dir/data" >/dev/null || sb_die "pg_checksums --disable failed"
			sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w start >/dev/null
			after=$(rate "$cache")
			sb_as_pg pg_ctl -D "$dir/data" -m fast -w stop >/dev/null
			sb_as_pg pg_checksums --enable -D "$dir/data" >/dev/null
			sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w start >/dev/null
			note=" (restarted)"
			;;
		*)
			printf '%-13s %-32s %-22s %-22s not applied: %s changes the host for every user\n' \
				"$cell" "$setting" "$current -> $value" "$advised" "$command"
			return
			;;
	esac
	# What the lab disk's cells hold each row to.
	if [ -n "$disk" ]; then
		flag=$(awk -v g="$gain" -v lo="$lo" -v hi="$hi" -v m="$measured" -v e="$estimate" -v b="$before" -v a="$after" \
			'BEGIN { r = a / b
				if (g == "") bad = r < 0.95
				else if (m == "t" && lo != "") bad = r < lo || r > hi
				else if (m == "t") bad = r < 0.9 * g || r > 1.1 * g
				else if (e != "t") bad = r / g < 0.8 || r / g > 1.2
				print bad ? " !" : "" }')
	fi
	awk -v c="$cell" -v s="$setting$note" -v cv="$current -> $value" -v ad="$advised" \
		-v g="$gain" -v b="$before" -v a="$after" -v f="$flag" \
		'BEGIN { r = a / b; printf "%-13s %-32s %-22s %-22s %8.1f %8.1f %6.2f  %s%s\n", c, s, cv, ad, b, a, r, g == "" ? "-" : sprintf("%.2f", r / g), f }'
	echo "              command: $command"
}

printf '%-13s %-32s %-22s %-22s %8s %8s %6s  %s\n' cell setting "current -> value" "advised gain" "before" "after" "real" "real / advised"
for cell in $cells; do
	disk=""
	rel=lineitem
	if [[ $cell == disk:* ]]; then
		IFS=: read -r _ ms served mbs <<<"$cell"
		if ! disk_setup; then
			printf '%-13s skipped: no lab disk here (%s)\n' "$cell" "${SB_LAB_WHY:-FUSE}"
			continue
		fi
		disk=$cell cache=cold mib=0 cpus=0 rel=lineitem_lab
		sb_lab_limit "$lab" "$dir/data" 0 0 || sb_die "could not lift the limits for $cell"
		sb_lab_disk_set "$labdisk/mnt" "latency_us=$(awk -v m="$ms" 'BEGIN { printf "%d", m * 1000 }') depth=$served iops=0 mb_s=$mbs" ||
			sb_die "could not set the lab disk for $cell"
	else
		IFS=: read -r cache mib cpus <<<"$cell"
		if [ -z "$lab" ] && { [ "$mib" != 0 ] || [ "$cpus" != 0 ]; }; then
			printf '%-13s skipped: no lab here\n' "$cell"
			continue
		fi
		[ -n "$lab" ] && { sb_lab_limit "$lab" "$dir/data" "$mib" "$cpus" || sb_die "could not set the limits of $cell"; }
	fi

	# Rows come best gain first, those without a gain last; a lab disk
	# cell takes every row about reading.
	where="LIMIT 1"
	[ -n "$disk" ] && where="WHERE setting IN ('read-ahead', 'effective_io_concurrency', 'io_combine_limit', 'io_max_combine_limit', 'io_method', 'io_workers', 'io_max_workers') AND command NOT LIKE 'ALTER TABLESPACE%'"
	q -F $'\x1f' -c "SELECT setting, current, value, coalesce(gain::text, ''), coalesce(gain_lo::text, ''), coalesce(gain_hi::text, ''), measured, cost, command, basis LIKE '%an estimate%'
		FROM scan_advice('$rel', '$cache', max_seconds => $maxs) $where" >"$dir/rows" ||
		sb_die "scan_advice failed in $cell"
	if [ ! -s "$dir/rows" ]; then
		printf '%-13s no candidate\n' "$cell"
		continue
	fi
	while IFS= read -r row; do
		try "$row" </dev/null
	done <"$dir/rows"
done
echo "PostgreSQL $(sb_pgversion), lineitem SF $scale, $(nproc) CPUs, scan_rate medians of $runs runs a side (MB/s)"
