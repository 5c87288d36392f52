#!/usr/bin/env bash
# The container image of packaging/container/Containerfile, built and run
# as a user would, for each MAJOR (default: SB_PGMAJOR, else 15):
#
#   tools/container-test.sh [MAJOR...]        (as root: mmdebstrap, podman)
#
# No registry is reachable from the machines scanbench is tested on, so
# the official postgres:MAJOR image cannot be pulled.  A stand-in is made
# instead, once, from Debian's packages of the suite that has the major
# (bookworm: 15, trixie: 17, sid: 18): mmdebstrap makes a root with the
# server (and a second one with the compiler and PGXS, for the build
# stage), podman import makes it an image, and
# packaging/container/test-base/ lays it out as the official image is (its
# environment, a minimal docker-entrypoint.sh of the same contract,
# /docker-entrypoint-initdb.d, the volume).  The roots are kept in
# CACHE/container (CACHE: $SCANBENCH_PG_CACHE or /var/cache/scanbench-pg)
# and remade after a week.
#
# Then, for each major: podman build of the Containerfile with
# --build-arg BASE=... BUILD_BASE=..., podman run with POSTGRES_PASSWORD,
# SCANBENCH_LOAD_SCALE and a CPU limit, and the checks: the extension
# created by the init script, the lineitem loaded, the README's
# `psql -c "SELECT * FROM scan_efficiency('lineitem')"` giving a row with
# a verdict, and each claim of doc/container.md (the CPU limit seen, the
# page cache shared with this machine, io_uring under the default seccomp
# profile on 18).  The image's size is printed.
#
# Podman runs with runc (crun refuses the hybrid cgroup layout of these
# machines) and a containers.conf of its own that sets no ulimits
# (raising them is refused here); containers have no network.
#
# Prints ok/not ok lines and ends with "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"
trap 'sb_cleanup' EXIT
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }
sb_on_die() { nok "$*"; finish; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else nok "$what"; fi; }

majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=("${SB_PGMAJOR:-15}")
[ "$(id -u)" = 0 ] || { nok "run as root (mmdebstrap, podman)"; finish; }
[ -z "${SB_IN_ROOT:-}" ] || { nok "run on the machine, not in a package root"; finish; }
cache=${SCANBENCH_PG_CACHE:-/var/cache/scanbench-pg}/container
mkdir -p "$cache"
t_start=$SECONDS

need=()
for p in podman runc mmdebstrap util-linux-extra python3; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" ||
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"; }; } \
		>/dev/null 2>&1 || { nok "apt-get install ${need[*]}"; finish; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-container.XXXXXX")
sb_on_exit "rm -rf '$work'"
export CONTAINERS_CONF=$work/containers.conf
cat >"$CONTAINERS_CONF" <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
CONF
pm() { podman "$@"; }

archive=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
[ -n "$archive" ] ||
	archive=$(awk '$1 == "deb" && $2 ~ /^https?:/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
archive=${archive:-http://deb.debian.org/debian}

# base_tar KIND SUITE MAJOR: the cached root (run: the server; build: and
# what compiling needs), made when missing or a week old.  Prints its path.
base_tar()
{
	local kind=$1 suite=$2 major=$3 tar pkgs
	tar=$cache/$kind-$suite-$major.tar
	# A tarball, never a directory: mmdebstrap tells the format from the
	# target's name, and "$tar.new" has none of its own, so it is said.
	if [ -f "$tar" ] && [ -s "$tar" ] && [ -z "$(find "$tar" -mtime +7)" ]; then
		echo "$tar"
		return 0
	fi
	pkgs=postgresql-$major,ca-certificates
	[ "$kind" = build ] && pkgs=$pkgs,postgresql-server-dev-$major,build-essential,libpq-dev
	# Debian's server package makes a cluster; the official image has none
	# (the entrypoint makes one in PGDATA).
	rm -rf "$tar" "$tar.new"
	if mmdebstrap --variant=minbase --format=tar --include="$pkgs" \
		--aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"' \
		--customize-hook='rm -rf "$1"/etc/postgresql/*/main "$1"/var/lib/postgresql/*/main "$1"/var/lib/apt/lists/*' \
		"$suite" "$tar.new" "deb $archive $suite main" >"$cache/$kind-$suite-$major.log" 2>&1; then
		mv "$tar.new" "$tar"
		echo "$tar"
	else
		tail -n 20 "$cache/$kind-$suite-$major.log" >&2
		rm -rf "$tar.new"
		return 1
	fi
}

for major in "${majors[@]}"; do
	case $major in
	15) suite=bookworm ;;
	*) suite=$(sb_root_suite "$major") || { nok "PostgreSQL $major: no Debian suite packages it"; continue; } ;;
	esac
	# The official image's data directory: /var/lib/postgresql/data up to
	# 17, /var/lib/postgresql/MAJOR/docker from 18 on (its volume is then
	# /var/lib/postgresql).
	if [ "$major" -ge 18 ]; then
		pgdata=/var/lib/postgresql/$major/docker volume=/var/lib/postgresql
	else
		pgdata=/var/lib/postgresql/data volume=/var/lib/postgresql/data
	fi
	t0=$SECONDS
	base=localhost/scanbench-test-postgres:$major
	build_base=localhost/scanbench-test-postgres-build:$major
	# The two roots at once: each is mostly waiting for the archive.
	declare -A tars=()
	base_tar build "$suite" "$major" >"$work/build-tar" &
	build_pid=$!
	tars[run]=$(base_tar run "$suite" "$major")
	wait $build_pid && tars[build]=$(cat "$work/build-tar")
	for kind in run build; do
		tar=${tars[$kind]:-}
		[ -n "$tar" ] || { nok "mmdebstrap a $suite root with PostgreSQL $major ($kind)"; continue 2; }
		tag=$base
		[ $kind = build ] && tag=$build_base
		# Made once from this root: the image is labelled with the root's
		# size and time, and kept while they hold.
		stamp=$(stat -c '%s-%Y' "$tar")-$(sha1sum "$SB_TOP"/packaging/container/test-base/* | sha1sum | cut -c1-12)
		[ "$(pm image inspect --format '{{index .Labels "scanbench.base"}}' "$tag" 2>/dev/null)" = "$stamp" ] && continue
		if pm import "$tar" "$tag-import" >/dev/null 2>"$work/import.log" &&
			pm build --network none --layers=false -q -f "$SB_TOP/packaging/container/test-base/Containerfile" \
				--build-arg FROM="$tag-import" --build-arg PG_MAJOR="$major" \
				--build-arg PGDATA="$pgdata" --build-arg VOLUME="$volume" --label scanbench.base="$stamp" \
				-t "$tag" "$SB_TOP/packaging/container/test-base" >/dev/null 2>"$work/import.log"; then
			pm rmi "$tag-import" >/dev/null 2>&1
		else
			cat "$work/import.log"
			nok "the stand-in base image $tag"
			continue 2
		fi
	done
	ok "PostgreSQL $major: stand-in base images from $suite's packages ($((SECONDS - t0)) s)"

	# The image, as the README builds it, on the stand-in base.
	t0=$SECONDS
	image=localhost/scanbench:$major
	# Built without a cache of its steps (the tree changes with each
	# commit, and cached steps would pile up); the image it replaces goes.
	old_id=$(pm image inspect --format '{{.Id}}' "$image" 2>/dev/null)
	if pm build --network none --layers=false -f "$SB_TOP/packaging/container/Containerfile" \
		--build-arg PG_MAJOR="$major" --build-arg BASE="$base" --build-arg BUILD_BASE="$build_base" \
		-t "$image" "$SB_TOP" >"$work/build-$major.log" 2>&1; then
		ok "PostgreSQL $major: podman build of packaging/container/Containerfile ($((SECONDS - t0)) s)"
		[ -n "$old_id" ] && [ "$old_id" != "$(pm image inspect --format '{{.Id}}' "$image")" ] &&
			pm rmi "$old_id" >/dev/null 2>&1
		# The build stage's image, left untagged: it carries the stand-in
		# base's label, which no other image here has.
		pm image prune -f --filter label=scanbench.base >/dev/null 2>&1
	else
		tail -n 40 "$work/build-$major.log"
		nok "PostgreSQL $major: podman build of packaging/container/Containerfile"
		continue
	fi
	size=$(pm image inspect --format '{{.Size}}' "$image")
	base_size=$(pm image inspect --format '{{.Size}}' "$base")
	echo "# PostgreSQL $major: image $image: $((size / 1000000)) MB, of which the base $((base_size / 1000000)) MB, scanbench $(((size - base_size) / 1000)) kB"
	[ "$(pm image inspect --format '{{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$image")" = '["docker-entrypoint.sh"] ["postgres"]' ] &&
		ok "PostgreSQL $major: the image keeps the server's entrypoint and command" ||
		nok "PostgreSQL $major: the image keeps the server's entrypoint and command"

	# Run it as the README does, with a small lineitem and a CPU limit.
	name=scanbench-test-$major-$$
	sb_on_exit "podman rm -f -v -t 0 '$name' >/dev/null 2>&1"
	t0=$SECONDS
	pm run -d --name "$name" --network none --cpus 1.5 \
		-e POSTGRES_PASSWORD=scanbench-test -e SCANBENCH_LOAD_SCALE=0.01 "$image" >/dev/null 2>"$work/run.log" ||
		{ cat "$work/run.log"; nok "PostgreSQL $major: podman run"; continue; }
	ready=0
	for i in $(seq 1 600); do
		if pm logs "$name" 2>&1 | grep 'init process complete' >/dev/null &&
			pm exec "$name" pg_isready -q -U postgres 2>/dev/null; then
			ready=1
			break
		fi
		[ "$(pm inspect --format '{{.State.Running}}' "$name")" = true ] || break
		sleep 0.5
	done
	if [ $ready -eq 1 ]; then
		ok "PostgreSQL $major: the container is up, its data made by the entrypoint ($((SECONDS - t0)) s)"
	else
		pm logs "$name" 2>&1 | tail -n 30
		nok "PostgreSQL $major: the container comes up"
		continue
	fi
	q() { pm exec "$name" psql -X -At -U postgres -v ON_ERROR_STOP=1 -c "$1"; }
	[ "$(q "SELECT extversion FROM pg_extension WHERE extname = 'scanbench'")" = \
		"$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$SB_TOP/scanbench.control")" ] &&
		ok "PostgreSQL $major: the init script created scanbench in POSTGRES_DB" ||
		nok "PostgreSQL $major: the init script created scanbench in POSTGRES_DB"
	rows=$(q "SELECT count(*) FROM lineitem" 2>/dev/null)
	[ "${rows:-0}" -gt 50000 ] && ok "PostgreSQL $major: SCANBENCH_LOAD_SCALE=0.01 loaded lineitem ($rows rows)" ||
		nok "PostgreSQL $major: SCANBENCH_LOAD_SCALE=0.01 loaded lineitem (${rows:-no table})"

	# The README's command, as a user types it.
	t0=$SECONDS
	if pm exec "$name" psql -U postgres -c "SELECT * FROM scan_efficiency('lineitem')" >"$work/figure.txt" 2>&1 &&
		grep -q '(1 row)' "$work/figure.txt"; then
		ok "PostgreSQL $major: psql -c \"SELECT * FROM scan_efficiency('lineitem')\" gives a row ($((SECONDS - t0)) s)"
	else
		cat "$work/figure.txt"
		nok "PostgreSQL $major: psql -c \"SELECT * FROM scan_efficiency('lineitem')\" gives a row"
	fi
	IFS='|' read -r pct verdict quota period fs < <(q "SELECT round(scan_pct::numeric, 1), array_to_string(verdict, ','), cpu_quota_us, cpu_period_us, filesystem FROM scan_efficiency('lineitem', max_seconds => 10)" 2>"$work/q.log")
	echo "# PostgreSQL $major: scan_pct ${pct:-?}, verdict ${verdict:-?}"
	[ -n "${verdict:-}" ] && ok "PostgreSQL $major: the row has a verdict ($verdict)" ||
		{ cat "$work/q.log"; nok "PostgreSQL $major: the row has a verdict"; }

	# doc/container.md, claim 1: a CPU limit (--cpus) is the group's
	# quota, and scan_efficiency reports it beside the figure.
	[ "${quota:-}" = 150000 ] && [ "${period:-}" = 100000 ] &&
		ok "PostgreSQL $major: --cpus 1.5 is seen: cpu_quota_us $quota per cpu_period_us $period" ||
		nok "PostgreSQL $major: --cpus 1.5 is seen (cpu_quota_us '${quota:-}', cpu_period_us '${period:-}')"

	# Claim 2: the page cache is this machine's.  Pages of the table
	# evicted here are read into it by a read in the container, and seen
	# resident from here.
	src=$(pm inspect --format "{{range .Mounts}}{{if eq .Destination \"$volume\"}}{{.Source}}{{end}}{{end}}" "$name")
	rel=$(q "SELECT pg_relation_filepath('lineitem')")
	file=$src${pgdata#"$volume"}/$rel
	if [ -n "$src" ] && [ -f "$file" ]; then
		python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$file"
		before=$(fincore -nb -o RES "$file" | tr -d ' ')
		q "SELECT read_mb_s > 0 FROM raw_read('lineitem', cache => 'asis')" >/dev/null
		after=$(fincore -nb -o RES "$file" | tr -d ' ')
		filesize=$(stat -c %s "$file")
		[ "${before:-1}" -lt $((filesize / 10)) ] && [ "${after:-0}" -gt $((filesize * 9 / 10)) ] &&
			ok "PostgreSQL $major: the container's reads fill this machine's page cache ($before then $after of $filesize bytes resident, seen from here)" ||
			nok "PostgreSQL $major: the container's reads fill this machine's page cache (${before:-?} then ${after:-?} of $filesize bytes)"
	else
		nok "PostgreSQL $major: the table's file on this machine ($file)"
	fi
	# Claim 4: the data directory is on the image's volume, the host's
	# filesystem, not in the overlay: filesystem names the host's.
	host_fs=$(findmnt -n -o FSTYPE --target "$src" 2>/dev/null)
	[ -n "$host_fs" ] && [ "${fs:-}" = "$host_fs" ] &&
		ok "PostgreSQL $major: filesystem is the volume's on this machine ($fs), not overlay" ||
		nok "PostgreSQL $major: filesystem '${fs:-}' is the volume's on this machine ('${host_fs:-?}')"

	pm rm -f -v -t 0 "$name" >/dev/null 2>&1

	# Claim 3 (18 and later): io_method = io_uring is refused by the
	# default seccomp profile, which answers io_uring_setup with ENOSYS:
	# the server does not start.  Without the profile it runs.
	if [ "$major" -ge 18 ]; then
		pm run -d --name "$name" --network none -e POSTGRES_PASSWORD=scanbench-test \
			"$image" postgres -c io_method=io_uring >/dev/null 2>&1
		# Until the server has said why it stopped, or the container ended.
		for i in $(seq 1 240); do
			pm logs "$name" 2>&1 | grep 'could not setup io_uring queue' >/dev/null && break
			[ "$(pm inspect --format '{{.State.Status}}' "$name" 2>/dev/null)" = exited ] && break
			sleep 0.5
		done
		# The server's last words come a moment before podman has the
		# container as exited: seconds, and more than 30 of them when two
		# majors' tests load the machine.  A server that said it shut
		# down has refused to start, whatever podman says yet.
		for i in $(seq 1 180); do
			[ "$(pm inspect --format '{{.State.Status}}' "$name" 2>/dev/null)" = exited ] && break
			sleep 0.5
		done
		# One reading of the logs for both questions, read again for a
		# while.  Never "podman logs | grep -q" under pipefail: grep
		# leaving at the first match kills podman with SIGPIPE when more
		# follows, and the pipeline fails though the line was there.
		refused=0
		for i in $(seq 1 20); do
			logs=$(pm logs "$name" 2>&1)
			if grep -q 'could not setup io_uring queue: Function not implemented' <<<"$logs" &&
				{ [ "$(pm inspect --format '{{.State.Status}}' "$name" 2>/dev/null)" = exited ] ||
				  sed -n '/could not setup io_uring queue/,$p' <<<"$logs" | grep 'database system is shut down' >/dev/null; }; then
				refused=1
				break
			fi
			sleep 0.5
		done
		if [ $refused -eq 1 ]; then
			ok "PostgreSQL $major: io_method = io_uring under the default seccomp profile: the server refuses to start (io_uring_setup: ENOSYS)"
		else
			printf '%s\n' "$logs" | tail -n 10
			nok "PostgreSQL $major: io_method = io_uring under the default seccomp profile is refused as doc/container.md says"
		fi
		pm rm -f -v -t 0 "$name" >/dev/null 2>&1
		pm run -d --name "$name" --network none --security-opt seccomp=unconfined -e POSTGRES_PASSWORD=scanbench-test \
			"$image" postgres -c io_method=io_uring >/dev/null 2>&1
		up=0
		for i in $(seq 1 240); do
			if pm logs "$name" 2>&1 | grep 'init process complete' >/dev/null &&
				pm exec "$name" pg_isready -q -U postgres 2>/dev/null; then
				up=1
				break
			fi
			[ "$(pm inspect --format '{{.State.Running}}' "$name")" = true ] || break
			sleep 0.5
		done
		method=$([ $up -eq 1 ] && q "SHOW io_method" 2>/dev/null)
		uring=$([ $up -eq 1 ] && q "CREATE TABLE t AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 50000) g" >/dev/null &&
			q "SELECT settings->>'io_method' FROM scan_efficiency('t', max_seconds => 5)" 2>/dev/null)
		[ "$method" = io_uring ] && [ "$uring" = io_uring ] &&
			ok "PostgreSQL $major: with --security-opt seccomp=unconfined io_method = io_uring runs, and scan_efficiency measures under it" ||
			{ pm logs "$name" 2>&1 | tail -n 10; nok "PostgreSQL $major: io_uring with seccomp=unconfined (up $up, io_method '${method:-}', measured under '${uring:-}')"; }
	fi
	pm rm -f -v -t 0 "$name" >/dev/null 2>&1
done
echo "# container tests took $((SECONDS - t_start)) s"
finish
