#!/usr/bin/env bash
# Every figure against a known answer: a throwaway cluster is given a disk
# of known speed and a CPU of known size with control groups
# (tools/lab.sh), and each cell of the matrix
#
#   disk {unlimited, 100, 200, 400 MiB/s} x CPU {unlimited, 0.25, 0.5}
#     x {idle, loaded: a busy loop on every CPU outside the cluster's group}
#     x {cold, warm}
#
# prints the known answer beside what raw_read and scan_rate (each the
# median of three calls: one call times one pass), scan_efficiency (pairs
# and whole) and scan_breakdown report, with the verdict:
#
#   raw      a cold raw read runs at the disk's limit; on the unlimited
#            disk at most at the fastest cold raw read of the cell (the
#            VM host's cache sets that rate, and it moves from one minute
#            to the next: the cell reads it before, between and after its
#            figures); a warm raw read at most at the fastest warm raw read
#            of the cell, measured the same way
#   scan     a scan runs at most at the disk's limit and at most at its CPU
#            ceiling: scan_rate(rel, 'warm') in the same cell, wall clock,
#            the fastest of those before, between and after the figures;
#            where the disk is the tighter by far (its limit under half
#            the ceiling: storage-limited), at the disk's limit
#   pct      a storage-limited scan's scan_pct is 100 * scan / disk limit,
#            the scan running at the limit: 100
#
# Under a CPU quota a pass's CPU ceiling is measured as the pass runs:
#   cold     a cold pass spends CPU in read() (page cache, copies) that a
#            warm one does not, so its ceiling under the quota is lower:
#            the same cold pass with the disk's throttle lifted, the quota
#            kept (the fastest of three, as above).  Where the disk's
#            limit is not under a ninth of that cold ceiling both limits
#            are in play (taken one after the other they would give less
#            than 90 % of the limit), and the answer is a range: at most the tighter of
#            the limit and the (warm) ceiling, at least the limit and the
#            cold ceiling taken one after the other (1 / (1/disk +
#            1/ceiling): a byte waits for the disk, then for the CPU, never
#            overlapping).  dd, 8 KB reads of a 950 MB file, cold, in such
#            a group: 414-418 MB/s under 400 MiB/s alone, 925-999 under a
#            quarter of a CPU alone, 277-344 under both.
#   warm     a warm raw read is all CPU: at q of a CPU at most q times the
#            same read with the quota lifted (a pass of a few of the
#            quota's periods moves by where in a period it starts; the
#            bound is the CPU's size, not one such pass)
#
# The ceiling column is the warm scan's and, after a slash under a quota,
# the cold scan's.  A figure is flagged (!) more than 10 % above a bound,
# more than 10 % off an answer that is exact (the raw read at a limit, a
# storage-limited scan and its scan_pct), or more than 10 % outside a
# range; a flag is "(marked)" where the figure's own verdict says it is
# not the sustained storage rate (host_cache, burst).
# Each cell reads a relation that lasts at least two seconds at the disk's
# limit (a rate limiter's allowance is a small share of such a pass):
# lineitem (SF, default 0.25) at 100 MiB/s, lineitem_mid (2 x SF) at 200,
# lineitem_big (4 x SF) at 400, on the unlimited disk and warm.
# Warm cells run once per CPU and load (the disk is not read).
#
#   bench/truth.sh [--scale SF] [--disk "0 100 200 400"] [--cpu "0 0.25 0.5"]
#                  [--load "idle loaded"] [--cache "cold warm"] [--runs N]
#                  [--max-seconds S] [--port PORT]
#
# Root, cgroup v1 (cpu, blkio) or v2 (cpu, io) writable; otherwise it says
# why and exits 0 without measuring.  Default SF 0.25 (about 240 MB, and
# 950 MB for lineitem_big), whole passes --runs 6, pairs --max-seconds 20.
# The whole matrix takes about 45 minutes.
set -uo pipefail
. "$(dirname "$0")/../tools/common.sh"
. "$(dirname "$0")/../tools/lab.sh"

scale=0.25
disks="0 100 200 400"
cpus="0 0.25 0.5"
loads="idle loaded"
caches="cold warm"
runs=6
maxs=20
port=56200
while [ $# -gt 0 ]; do
	case "$1" in
		--scale) scale=$2; shift 2 ;;
		--disk) disks=$2; shift 2 ;;
		--cpu) cpus=$2; shift 2 ;;
		--load) loads=$2; shift 2 ;;
		--cache) caches=$2; shift 2 ;;
		--runs) runs=$2; shift 2 ;;
		--max-seconds) maxs=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		*) sb_die "usage: bench/truth.sh [--scale SF] [--disk \"0 100 200 400\"] [--cpu \"0 0.25 0.5\"] [--load \"idle loaded\"] [--cache \"cold warm\"] [--runs N] [--max-seconds S] [--port PORT]" ;;
	esac
done
sb_bench_record

[ "$(id -u)" = 0 ] || { echo "bench/truth.sh: skipped: control groups are written as root"; exit 0; }
sb_lab_check || { echo "bench/truth.sh: skipped: $SB_LAB_WHY"; exit 0; }
# One lab at a time on this machine (another would share its CPUs and disk).
sb_lab_lock || sb_die "could not take the lab lock on $(sb_lab_lock_dir)"
[ "$SB_LAB_LOCK_WAITED" -gt 0 ] && echo "waited $SB_LAB_LOCK_WAITED s for the lab lock (another lab, or a package root being made, on this machine)"

group=scanbench-truth-$$
loadfile=$(mktemp /tmp/scanbench-truth-load.XXXXXX)
rm -f "$loadfile"
# Last registered runs first: loops, then the cluster, then the group.
trap 'sb_cleanup' EXIT
trap 'exit 1' INT TERM
sb_on_exit "sb_lab_remove '$group'"
sb_lab_create "$group" || sb_die "could not make the group $group"
sb_bench_lineitem "$scale" lineitem "$port"
mid_scale=$(awk -v s="$scale" 'BEGIN { print 2 * s }')
big_scale=$(awk -v s="$scale" 'BEGIN { print 4 * s }')
"$(sb_pgbin)/scanbench-load" --scale "$mid_scale" --table lineitem_mid --drop --quiet ||
	sb_die "scanbench-load failed"
"$(sb_pgbin)/scanbench-load" --scale "$big_scale" --table lineitem_big --drop --quiet ||
	sb_die "scanbench-load failed"
sb_on_exit "sb_lab_load_stop '$loadfile'"
data=$PGHOST/data
sb_lab_move "$group" "$data" || sb_die "could not move the cluster into $group"

pgbin=$(sb_pgbin)
# Verdict messages go to the server log; the rows carry the verdicts.
q() { PGOPTIONS="-c client_min_messages=error" "$pgbin/psql" -X -At -v ON_ERROR_STOP=1 -c "$1"; }

echo "bench/truth.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $(sb_pgversion), $(nproc) CPUs, $(uname -r), cgroup v$SB_LAB_V"
echo "disk $(sb_lab_disk "$data") under $data; lineitem SF $scale: $(q "SELECT pg_relation_size('lineitem')") bytes; lineitem_mid SF $mid_scale: $(q "SELECT pg_relation_size('lineitem_mid')") bytes; lineitem_big SF $big_scale: $(q "SELECT pg_relation_size('lineitem_big')") bytes"
echo
echo "Known answers in [brackets]: <=X a bound, X an exact answer (within 10 %), X-Y a range; ! flags a figure outside."
hdr='%-4s %-6s %-5s %-6s | %-16s | %-16s %-9s | %-22s %-22s | %-22s %-22s | %-14s | %4s | %s\n'
printf "$hdr" cache disk cpu load "raw_read" "scan_rate" ceiling \
	"pairs read/scan" "pairs pct verdict" "whole read/scan" "whole pct verdict" "breakdown" "s" "flags"

# check FIGURE KIND KNOWN [LOW]: KIND "max" (a bound), "eq" (an answer) or
# "range" (from LOW to KNOWN); prints " !" when the figure is off by more
# than 10 %.
check()
{
	awk -v f="$1" -v k="$2" -v a="$3" -v lo="${4:-}" 'BEGIN {
		if (f == "" || a == "" || a <= 0) exit
		if (f > 1.1 * a || (k == "eq" && f < 0.9 * a) ||
			(k == "range" && f < 0.9 * lo)) printf " !"
	}'
}
minof() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || (b != "" && b < a)) a = b; print a }'; }
maxof() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || (b != "" && b > a)) a = b; print a }'; }
fmt() { awk -v v="$1" 'BEGIN { if (v == "") print "-"; else printf "%.0f", v }'; }
# shown KIND KNOWN LOW: the known answer as printed in brackets.
shown()
{
	case "$1" in
		max) echo "<=$(fmt "$2")" ;;
		range) echo "$(fmt "$3")-$(fmt "$2")" ;;
		*) fmt "$2" ;;
	esac
}
# answer LIMIT CEILING [COLD]: where a disk's LIMIT and a pass's CPU
# ceiling under a quota meet, sets kind, known and low.  COLD is the cold
# pass's own ceiling (CEILING where not given): the limit, exact, when it
# is under a ninth of COLD (the two one after the other then give at
# least 90 % of the limit, the tolerance of an exact answer); otherwise
# the range from the limit and COLD one after the other up to the tighter
# of the limit and CEILING.
answer()
{
	local cold=${3:-$2}
	low=
	if awk -v l="$1" -v c="$cold" 'BEGIN { exit !(c == "" || l < c / 9) }'; then
		kind=eq
		known=$1
	else
		kind=range
		known=$(minof "$1" "$2")
		low=$(awk -v l="$1" -v c="$cold" 'BEGIN { printf "%.1f", 1 / (1 / l + 1 / c) }')
	fi
}

# reference: the rates the lab does not set, read once more into $refs
# (the cell's relation, cache and limit): the warm scan (the CPU ceiling),
# the warm raw read and, cold on the unlimited disk, the cold raw read.
# Under a quota, also what the quota alone allows: cold with the disk's
# throttle lifted, the cold scan and raw read (their CPU ceilings); warm,
# the raw read with the quota lifted.  The cell's limits are set again
# after.
reference()
{
	refs+=" ceil=$(q "SELECT scan_mb_s FROM scan_rate('$rel', 'warm')")"
	refs+=" warm=$(q "SELECT read_mb_s FROM raw_read('$rel', 'warm', 8192)")"
	if [ "$cache" = cold ] && [ -z "$limit" ]; then
		refs+=" cold=$(q "SELECT read_mb_s FROM raw_read('$rel', 'cold', 8192)")"
	fi
	[ "$cpu" = 0 ] && return
	if [ "$cache" = cold ] && [ -n "$limit" ]; then
		sb_lab_limit "$group" "$data" 0 "$cpu" || sb_die "could not lift the throttle"
		refs+=" cscan=$(q "SELECT scan_mb_s FROM scan_rate('$rel', 'cold')")"
		refs+=" craw=$(q "SELECT read_mb_s FROM raw_read('$rel', 'cold', 8192)")"
	elif [ "$cache" = warm ]; then
		sb_lab_limit "$group" "$data" 0 0 || sb_die "could not lift the quota"
		refs+=" wfree=$(q "SELECT read_mb_s FROM raw_read('$rel', 'warm', 8192)")"
	fi
	sb_lab_limit "$group" "$data" "$disk" "$cpu" || sb_die "could not set the limits"
}
# fastest KIND: the fastest of $refs' KIND.
fastest() { tr ' ' '\n' <<<"$refs" | sed -n "s/^$1=//p" | sort -g | tail -1; }

nflags=0
nwrong=0
ncells=0
for load in $loads; do
	if [ "$load" = loaded ]; then sb_lab_load_start "$loadfile"; fi
	for cpu in $cpus; do
		for cache in $caches; do
			dlist=$disks
			[ "$cache" = warm ] && dlist=0
			for disk in $dlist; do
				sb_lab_limit "$group" "$data" "$disk" "$cpu" || sb_die "could not set the limits"
				limit=$(awk -v m="$disk" 'BEGIN { if (m > 0) printf "%.1f", m * 1.048576 }')
				rel=lineitem_big
				[ "$cache" = cold ] && [ "$disk" -gt 0 ] && [ "$disk" -le 200 ] && rel=lineitem_mid
				[ "$cache" = cold ] && [ "$disk" -gt 0 ] && [ "$disk" -le 100 ] && rel=lineitem
				# What the lab does not set (the CPU ceiling under the quota, the
				# host's cache on the unlimited disk, a warm copy's rate) is read
				# before, between and after the figures: a busy shared machine
				# moves single passes by 10-40 %, and the bound is the fastest.
				refs=""
				t0=$SECONDS
				reference
				reference
				# raw_read and scan_rate time one pass each: the median of
				# three calls, as scan_efficiency's figures are medians of
				# its passes.
				raws=$(for i in 1 2 3; do q "SELECT read_mb_s FROM raw_read('$rel', '$cache', 8192)"; done)
				raw=$(sb_median <<<"$raws")
				# A cold raw read on the unlimited disk is more readings of it.
				[ "$cache" = cold ] && [ -z "$limit" ] && refs+=" $(sed 's/^/cold=/' <<<"$raws" | tr '\n' ' ')"
				scan=$(for i in 1 2 3; do q "SELECT scan_mb_s FROM scan_rate('$rel', '$cache')"; done | sb_median)
				IFS='|' read -r pr ps pp pv < <(q "SELECT read_mb_s, scan_mb_s, scan_pct, verdict FROM scan_efficiency('$rel', '$cache', max_seconds => $maxs)")
				reference
				IFS='|' read -r wr ws wp wv < <(q "SELECT read_mb_s, scan_mb_s, scan_pct, verdict FROM scan_efficiency('$rel', '$cache', runs => $runs, method => 'whole')")
				IFS='|' read -r bs bb < <(q "SELECT scan_mb_s, bottleneck FROM scan_breakdown('$rel', '$cache')")
				reference
				ceil=$(fastest ceil)
				raw_ceil=$(fastest warm)

				# The known answers.
				raw_low=
				scan_low=
				if [ "$cache" = cold ] && [ -n "$limit" ] && [ "$cpu" != 0 ]; then
					# A throttle and a quota: each pass against its own cold
					# CPU ceiling under the quota.
					answer "$limit" "$(fastest craw)"
					raw_kind=$kind raw_known=$known raw_low=$low
					answer "$limit" "$ceil" "$(minof "$(fastest cscan)" "$ceil")"
					scan_kind=$kind scan_known=$known scan_low=$low
					pct_known=
					[ "$scan_kind" = eq ] && pct_known=100.0
				elif [ "$cache" = cold ]; then
					unlimited=$(fastest cold)
					raw_known=$(minof "${limit:-$unlimited}" "$raw_ceil")
					raw_kind=max
					[ -n "$limit" ] && [ "$raw_known" = "$limit" ] && raw_kind=eq
					scan_known=$(minof "${limit:-$unlimited}" "$ceil")
					scan_kind=max
					pct_known=
					# Storage-limited: the disk's limit under half the CPU ceiling.
					if [ -n "$limit" ] && awk -v l="$limit" -v c="$ceil" 'BEGIN { exit !(l < 0.5 * c) }'; then
						scan_kind=eq
						# Both sides run at the limit: 100 * scan / limit is
						# 100.  (Not the cell's scan_rate, whose single pass
						# moves with the machine as the figure's own do.)
						pct_known=$(awk -v s="$scan_known" -v l="$raw_known" 'BEGIN { printf "%.1f", 100 * s / l }')
					fi
				else
					# A warm raw read is all CPU: under a quota, at most the
					# quota's share of it unlimited.
					raw_known=$raw_ceil
					[ "$cpu" != 0 ] && raw_known=$(maxof "$raw_known" \
						"$(awk -v c="$cpu" -v r="$(fastest wfree)" 'BEGIN { printf "%.1f", c * r }')")
					raw_kind=max
					scan_known=$ceil
					scan_kind=max
					pct_known=
				fi
				# A figure its own verdict marks host_cache or burst says it is
				# not the sustained storage rate: off, but not wrong.
				pm=""
				wm=""
				[[ "$pv" =~ host_cache|burst ]] && pm="(marked)"
				[[ "$wv" =~ host_cache|burst ]] && wm="(marked)"
				flags=""
				for fig in "raw:$raw:$raw_kind:$raw_known:$raw_low:" "pairs.read:$pr:$raw_kind:$raw_known:$raw_low:$pm" \
					"whole.read:$wr:$raw_kind:$raw_known:$raw_low:$wm" "scan:$scan:$scan_kind:$scan_known:$scan_low:" \
					"pairs.scan:$ps:$scan_kind:$scan_known:$scan_low:$pm" "whole.scan:$ws:$scan_kind:$scan_known:$scan_low:$wm" \
					"breakdown:$bs:$scan_kind:$scan_known:$scan_low:"; do
					IFS=: read -r name f k a lo m <<<"$fig"
					[ -n "$(check "$f" "$k" "$a" "$lo")" ] && flags+=" $name$m"
				done
				if [ -n "$pct_known" ]; then
					[ -n "$(check "$pp" eq "$pct_known")" ] && flags+=" pairs.pct$pm"
					[ -n "$(check "$wp" eq "$pct_known")" ] && flags+=" whole.pct$wm"
				fi
				unmarked=$(tr ' ' '\n' <<<"$flags" | grep -v '(marked)' | grep -c .)
				[ -n "$flags" ] && nflags=$((nflags + 1))
				[ "$unmarked" -gt 0 ] && nwrong=$((nwrong + 1))
				ncells=$((ncells + 1))
				rk=$(shown "$raw_kind" "$raw_known" "$raw_low")
				sk=$(shown "$scan_kind" "$scan_known" "$scan_low")
				printf "$hdr" "$cache" "$([ "$disk" = 0 ] && echo '-' || echo "$disk")" \
					"$([ "$cpu" = 0 ] && echo '-' || echo "$cpu")" "$load" \
					"$(fmt "$raw")$(check "$raw" "$raw_kind" "$raw_known" "$raw_low") [$rk]" \
					"$(fmt "$scan")$(check "$scan" "$scan_kind" "$scan_known" "$scan_low") [$sk]" \
					"$(fmt "$ceil")$(c=$(fastest cscan); [ -n "$c" ] && echo "/$(fmt "$c")")" \
					"$(fmt "$pr")$(check "$pr" "$raw_kind" "$raw_known" "$raw_low")/$(fmt "$ps")$(check "$ps" "$scan_kind" "$scan_known" "$scan_low")" \
					"${pp:--}$(check "$pp" eq "$pct_known")${pct_known:+ [$pct_known]} ${pv:-none}" \
					"$(fmt "$wr")$(check "$wr" "$raw_kind" "$raw_known" "$raw_low")/$(fmt "$ws")$(check "$ws" "$scan_kind" "$scan_known" "$scan_low")" \
					"${wp:--}$(check "$wp" eq "$pct_known") ${wv:-none}" \
					"$(fmt "$bs")$(check "$bs" "$scan_kind" "$scan_known" "$scan_low") ${bb:-}" $((SECONDS - t0)) "${flags# }"
			done
		done
	done
	if [ "$load" = loaded ]; then sb_lab_load_stop "$loadfile"; fi
done
echo
echo "$ncells cells in $((SECONDS / 60)) minutes, $nflags with a figure off its known answer by more than 10 %, $nwrong of them with such a figure its verdict does not mark (host_cache, burst)"
