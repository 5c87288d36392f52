#!/usr/bin/env bash
# The lab disk against its known answers, read by fio: two devices of four
# numbers each, random 8 kB and sequential 1 MB reads at depths 1, 4, 16
# and 32, O_DIRECT (libaio) and buffered (io_uring, which keeps buffered
# reads in flight; the page cache dropped before each run), each cell the
# median of ROUNDS runs taken in turn with every other cell's.
#
# A reader keeping k requests of s bytes in flight on a device of latency L
# serving D at once, capped at I requests/s and B MB/s, gets
#
#     min(min(k, D) * s / L, I * s, B)
#
# A buffered sequential reader's requests are the kernel's read-ahead, not
# fio's: k and s are then what the layer counted (the most requests in
# flight and their mean size), and the answer is a check of the layer, not
# of fio's depth.
#
#   tools/lab-disk/fio-check.sh [ROUNDS] [SECONDS]     as root; takes the lab lock
set -u
rounds=${1:-3}
secs=${2:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/lab.sh"

[ "$(id -u)" = 0 ] || { echo "fio-check.sh: run as root" >&2; exit 1; }
command -v fio >/dev/null || { echo "fio-check.sh: no fio (Debian package fio)" >&2; exit 1; }
sb_lab_disk_check || { echo "fio-check.sh: $SB_LAB_WHY" >&2; exit 1; }
sb_lab_lock || { echo "fio-check.sh: no lab lock" >&2; exit 1; }

work=$(mktemp -d /dev/shm/lab-disk-check.XXXXXX)
mnt=$(mktemp -d "${TMPDIR:-/tmp}/lab-disk-mnt.XXXXXX")
trap 'sb_lab_disk_umount "$mnt"; rm -rf "$work"; rmdir "$mnt"' EXIT
# A backing file in memory: the delay is the latency set, nothing else.
head -c $((3 * 1073741824)) /dev/urandom >"$work/f" 2>/dev/null ||
	dd if=/dev/zero of="$work/f" bs=1M count=3072 status=none
sb_lab_disk_mount "$work" "$mnt" || { echo "fio-check.sh: mount failed" >&2; exit 1; }
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), $(fio --version)"
echo "# layer: $(head -1 "$mnt/.lab-disk")"

devices=("latency_us=1000 depth=32 iops=3000 mb_s=125" "latency_us=5000 depth=8 iops=0 mb_s=400")
declare -A res req

run()
{
	local dev=$1 pat=$2 mode=$3 k=$4 args out
	case $pat in
	rand8k) args=(--rw=randread --bs=8k) ;;
	seq1m) args=(--rw=read --bs=1M) ;;
	esac
	case $mode in
	direct) args+=(--direct=1 --ioengine=libaio) ;;
	buffered) args+=(--direct=0 --ioengine=io_uring --invalidate=1) ;;
	esac
	sb_lab_disk_set "$mnt" "$dev reset"
	out=$(fio --name=c --filename="$mnt/f" "${args[@]}" --iodepth="$k" \
		--runtime="$secs" --time_based --ramp_time=0.5 \
		--output-format=terse --terse-version=3 2>/dev/null)
	# field 7: read KiB/s
	echo "$out" | awk -F';' '{ printf "%.1f\n", $7 * 1.024 / 1000 }'
	awk 'NR == 2 { for (i = 1; i <= NF; i++) { split($i, kv, "="); c[kv[1]] = kv[2] }
		printf " %d %d\n", c["in_flight_max"], (c["reads"] ? c["read_bytes"] / c["reads"] : 0) }' "$mnt/.lab-disk" >&2
}

for r in $(seq "$rounds"); do
	for d in 0 1; do
		for pat in rand8k seq1m; do
			for mode in direct buffered; do
				for k in 1 4 16 32; do
					key="$d $pat $mode $k"
					v=$(run "${devices[$d]}" $pat $mode $k 2>"$work/req")
					res[$key]="${res[$key]:-} $v"
					req[$key]="${req[$key]:-}$(cat "$work/req")"
				done
			done
		done
	done
done

median()
{
	printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

printf '| device | reads | mode | fio depth | layer: in flight, request | known MB/s | fio MB/s (runs) | off |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for d in 0 1; do
	eval "$(echo "${devices[$d]}" | tr ' ' '\n' | sed 's/^/dev_/')"
	for pat in rand8k seq1m; do
		for mode in direct buffered; do
			for k in 1 4 16 32; do
				key="$d $pat $mode $k"
				m=$(median ${res[$key]})
				# the last run's counts stand for the cell's
				set -- $(echo "${req[$key]}" | awk '{ f = $1; s = $2 } END { print f, s }')
				fl=$1 rs=$2
				if [ "$pat" = seq1m ] && [ "$mode" = buffered ]; then
					kk=$fl s=$rs
				else
					kk=$k s=$([ $pat = rand8k ] && echo 8192 || echo 1048576)
				fi
				known=$(awk -v k="$kk" -v D="$dev_depth" -v s="$s" -v L="$dev_latency_us" \
					-v I="$dev_iops" -v B="$dev_mb_s" 'BEGIN {
						n = (D > 0 && D < k) ? D : k
						r = n * s / L	# bytes/us = MB/s
						if (I > 0 && I * s / 1e6 < r) r = I * s / 1e6
						if (B > 0 && B < r) r = B
						printf "%.1f", r }')
				off=$(awk -v m="$m" -v k="$known" 'BEGIN { printf "%+.1f %%", 100 * (m - k) / k }')
				printf '| L %s us, D %s, %s IOPS, %s MB/s | %s | %s | %s | %s, %s B | %s | %s (%s) | %s |\n' \
					"$dev_latency_us" "$dev_depth" "${dev_iops/#0/no}" "${dev_mb_s/#0/no}" \
					"$pat" "$mode" "$k" "$fl" "$rs" "$known" "$m" "$(echo ${res[$key]} | tr ' ' '/')" "$off"
			done
		done
	done
done
