#!/usr/bin/env bash
# Does scan_efficiency's figure depend on how long the call ran?  On one
# table, with one cache mode, three rounds of
#
#   short   a call with the defaults (stopped at +-5 %), as a nightly check
#           makes it
#   long    a call of --seconds / 3 with target_pct => 0.1: hundreds of
#           pairs, the relation covered several times
#
# each call in a session of its own, short and long side by side so that
# a machine whose load drifts over minutes moves both alike; then
#
#   whole   five passes of scan_rate over five of raw_read, the two
#           alternating, as the reference a sampled figure stands for
#
# and a summary of each long call's pairs (scan_pairs()): the median of its
# first and its last fifth in the order taken, with the page faults their
# scans took and the share of each stretch's blocks its scan found in
# shared_buffers, so that a figure that moves during a call shows where.  Then
# the checks: each short median within 5 % of the long one beside it, each
# inside the other's interval, and both within 10 % of the whole passes'.
#
#   bench/call-length.sh [--cache warm|cold] [--seconds S] [--table NAME]
#                        [--scale SF] [--here] [--cap MIB | --disk SPEC]
#
# Root, defaults warm, 120 s, lineitem of SF 1 in a throwaway cluster;
# --here uses the server PGHOST/PGPORT name, where scanbench and the table
# are already installed.  The figures need the machine to themselves: hold
# the lab lock (tools/lab.sh lock-dir) around it on a shared machine.
#
# Under a known limit (tools/lab.sh; the server in a group of its own at
# a CPU weight of 100, the lab lock held for the run):
#   --cap MIB    the server's reads of its data directory's disk capped at
#                MIB MiB/s: cold, every scan_mb_s (short, long, the whole
#                passes' median) must be within 10 % of the cap
#   --disk SPEC  the table copied into a tablespace on a lab disk
#                (tools/lab-disk) set to SPEC, "latency_us=N depth=N
#                iops=N mb_s=N": cold, the known rate is its mb_s (MB of
#                10^6 bytes) or, under a cap of requests, iops times its
#                read-ahead window (the request a sequential read makes),
#                the lower of the two when both are set
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
trap 'sb_cleanup' EXIT

cache=warm
seconds=120
scale=1
here=0
table=lineitem
cap=0
disk=""
sb_bench_args "bench/call-length.sh [--cache warm|cold] [--seconds S] [--table NAME] [--scale SF] [--here] [--cap MIB | --disk SPEC]" \
	"cache seconds cap disk" "$@"
[ "$cap" != 0 ] && [ -n "$disk" ] && sb_die "--cap and --disk are two limits of two disks: give one"
sb_bench_table 54333
q() { sb_bench_psql warning -F'|' "$@"; }

# The lab: the server in a group of its own, the lab lock held.
rel=$table
limit=""
if [ "$cap" != 0 ] || [ -n "$disk" ]; then
	. "$SB_TOP/tools/lab.sh"
	[ "$(id -u)" = 0 ] || sb_die "run as root: the lab's groups and disk are root's to make"
	sb_lab_check || sb_die "no lab here: $SB_LAB_WHY"
	sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"
	datadir=$(q -c "SHOW data_directory")
	lab=sb-call-length-$$
	sb_lab_create "$lab" || sb_die "could not make the group $lab"
	sb_on_exit "sb_lab_remove '$lab'"
	sb_lab_move "$lab" "$datadir" || sb_die "could not move the server into $lab"
	sb_lab_weight "$lab" 100 || sb_die "could not weigh $lab"
fi
if [ "$cap" != 0 ]; then
	sb_lab_limit "$lab" "$datadir" "$cap" 0 || sb_die "could not cap the reads of $datadir at $cap MiB/s"
	limit="reads capped at $cap MiB/s"
fi
if [ -n "$disk" ]; then
	sb_lab_disk_check || sb_die "no lab disk here: $SB_LAB_WHY"
	labdisk=$(mktemp -d /tmp/scanbench-call-length.XXXXXX)
	chmod 755 "$labdisk"
	sb_on_exit "rm -rf '$labdisk'"
	mkdir -p "$labdisk/backing" "$labdisk/mnt"
	sb_lab_disk_mount "$labdisk/backing" "$labdisk/mnt" || sb_die "could not mount the lab disk"
	sb_on_exit "sb_lab_disk_umount '$labdisk/mnt'"
	chown -R postgres: "$labdisk"
	rel=${table}_lab
	q -c "CREATE TABLESPACE sb_call_length LOCATION '$labdisk/mnt'" \
		-c "CREATE TABLE $rel TABLESPACE sb_call_length AS SELECT * FROM $table" \
		-c "VACUUM (FREEZE, ANALYZE) $rel" >/dev/null || sb_die "could not copy $table onto the lab disk"
	sb_on_exit "q -c 'DROP TABLE $rel' -c 'DROP TABLESPACE sb_call_length' >/dev/null"
	sb_lab_disk_set "$labdisk/mnt" "$disk" || sb_die "could not set the lab disk to $disk"
	limit="on a lab disk, $disk"
	disk_reads() { sb_lab_disk_stat "$labdisk/mnt" | tr ' ' '\n' | awk -F= '$1 == "reads" { n = $2 } $1 == "read_bytes" { b = $2 } END { print n, b }'; }
	read -r reads0 bytes0 <<<"$(disk_reads)"
fi

cols="pairs, coverage_pct, scan_pct, scan_pct_lo, scan_pct_hi, round(scan_mb_s), array_to_string(verdict, ',')"
echo "$rel: $(q -c "SELECT pg_size_pretty(pg_relation_size('$rel'))"), $cache, shared_buffers $(q -c "SHOW shared_buffers")${limit:+, $limit}"
printf '%-6s %6s %9s %9s %-15s %9s %s\n' call pairs coverage scan_pct interval scan_mb_s verdict
fifths=()
checks=()
rates=()
for i in 1 2 3; do
	IFS='|' read -r n cov pct lo hi mbs verdict <<<"$(q -c "SELECT $cols FROM scan_efficiency('$rel', '$cache')")"
	printf '%-6s %6s %8s%% %9s %-15s %9s %s\n' short "$n" "$cov" "$pct" "[$lo, $hi]" "$mbs" "$verdict"
	long=$(q <<SQL
SELECT $cols FROM scan_efficiency('$rel', '$cache', target_pct => 0.1, max_seconds => $((seconds / 3)));
SELECT ntile, min(pair), round((100 * percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio))::numeric, 1),
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_mb_s)), sum(b_faults),
       round(avg(b_buffers_pct)::numeric, 1)
FROM (SELECT *, ntile(5) OVER (ORDER BY pair) FROM scan_pairs()) p GROUP BY ntile HAVING ntile IN (1, 5) ORDER BY ntile;
SQL
)
	IFS='|' read -r ln lcov lpct llo lhi lmbs lverdict <<<"$(head -n 1 <<<"$long")"
	printf '%-6s %6s %8s%% %9s %-15s %9s %s\n' long "$ln" "$lcov" "$lpct" "[$llo, $lhi]" "$lmbs" "$lverdict"
	fifths+=("$(tail -n +2 <<<"$long" | awk -F'|' -v r="$i" '{ printf "  round %s, %s fifth: from pair %s, scan_pct %s, %s MB/s, %s faults, %s %% of a stretch in shared_buffers\n", r, $1 == 1 ? "first" : "last", $2, $3, $4, $5, $6 }')")
	checks+=("$pct|$lo|$hi|$lpct|$llo|$lhi")
	rates+=("short $mbs" "long $lmbs")
done
ratios=()
scans=()
for i in 1 2 3 4 5; do
	scan="SELECT scan_mb_s FROM scan_rate('$rel', '$cache')"
	read="SELECT read_mb_s FROM raw_read('$rel', '$cache')"
	if [ $((i % 2)) -eq 1 ]; then s=$(q -c "$scan"); r=$(q -c "$read"); else r=$(q -c "$read"); s=$(q -c "$scan"); fi
	ratios+=("$(awk -v s="$s" -v r="$r" 'BEGIN { printf "%.1f", 100 * s / r }')")
	scans+=("$s")
done
whole=$(printf '%s\n' "${ratios[@]}" | sb_median)
whole_mbs=$(printf '%s\n' "${scans[@]}" | sb_median)
printf '%-6s %6s %9s %9s %-15s %9.0f\n' whole 5 100% "$whole" "(${ratios[*]})" "$whole_mbs"
rates+=("whole $whole_mbs")

# The limit's known rate, cold: the cap, or the lab disk's (under a cap of
# requests, at the size of its read-ahead window).
known=""
if [ "$cache" = cold ] && [ "$cap" != 0 ]; then
	known=$(awk -v m="$cap" 'BEGIN { printf "%.1f", m * 1.048576 }')
	echo "known: $known MB/s, the cap"
elif [ "$cache" = cold ] && [ -n "$disk" ]; then
	read -r reads1 bytes1 <<<"$(disk_reads)"
	ra_kb=$(sb_lab_disk_ra "$labdisk/mnt")
	known=$(awk -v spec="$disk" -v ra="$ra_kb" 'BEGIN {
		split(spec, kv, /[ =]/); for (i = 1; i in kv; i += 2) v[kv[i]] = kv[i + 1];
		k = v["mb_s"] > 0 ? v["mb_s"] : 0;
		if (v["iops"] > 0 && (k == 0 || v["iops"] * ra * 1024 / 1e6 < k)) k = v["iops"] * ra * 1024 / 1e6;
		if (k > 0) printf "%.1f", k }')
	# Both sides read through the page cache, whose read-ahead asks the
	# disk for a window at a time: under a cap of requests, the window's
	# size sets the rate.  The run's mean request is printed beside it
	# (the calls' other reads, such as the depth probe's, are larger).
	[ -n "$known" ] && echo "known: $known MB/s, the lab disk's at requests of the read-ahead window, $ra_kb kB ($((reads1 - reads0)) requests of $(awk -v n=$((reads1 - reads0)) -v b=$((bytes1 - bytes0)) 'BEGIN { printf "%.0f", n ? b / n / 1024 : 0 }') kB on average served in the run)"
fi
echo "the long calls' pairs, their first and last fifth in the order taken:"
printf '%s\n' "${fifths[@]}"

ok() { if [ "$1" = 1 ]; then echo "ok - $2"; else echo "not ok - $2"; fi; }
# within A B FRAC: 1 if A is within FRAC of B, else 0.
within() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { d = (a - b) / b; print (d <= f && d >= -f) }'; }
for c in "${checks[@]}"; do
	IFS='|' read -r pct lo hi lpct llo lhi <<<"$c"
	ok "$(within "$pct" "$lpct" 0.05)" \
		"short $pct within 5 % of long $lpct"
	ok "$(awk -v m="$lpct" -v l="$lo" -v h="$hi" 'BEGIN { print (l != "" && m >= l && m <= h) }')" \
		"long $lpct inside the short call's interval [$lo, $hi]"
	ok "$(awk -v m="$pct" -v l="$llo" -v h="$lhi" 'BEGIN { print (m >= l && m <= h) }')" \
		"short $pct inside the long call's interval [$llo, $lhi]"
	ok "$(within "$pct" "$whole" 0.1)" \
		"short $pct within 10 % of the whole passes' $whole"
	ok "$(within "$lpct" "$whole" 0.1)" \
		"long $lpct within 10 % of the whole passes' $whole"
done
if [ -n "$known" ]; then
	for r in "${rates[@]}"; do
		read -r call mbs <<<"$r"
		ok "$(within "$mbs" "$known" 0.1)" \
			"$call $mbs MB/s within 10 % of the known $known"
	done
fi
