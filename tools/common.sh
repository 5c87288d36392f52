# Shared by tools/demo.sh, tools/test.sh and bench/*.sh: install what the
# build needs, build and install scanbench, and run a throwaway cluster.
# Source it; it defines functions and changes nothing by itself.

SB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SB_PGMAJOR=${SB_PGMAJOR:-15}

sb_log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
sb_die() { sb_log "$*"; exit 1; }

# Debian packages the build and the tests need.  apt runs only when
# something is missing, so a second run costs nothing.
sb_install_packages()
{
	local pkgs=(postgresql-$SB_PGMAJOR postgresql-server-dev-$SB_PGMAJOR libpq-dev
				libipc-run-perl make gcc fio xfsprogs time)
	local missing=()
	local p
	for p in "${pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || sb_die "missing packages: ${missing[*]} (run as root, or install them)"
	sb_log "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || sb_die "apt-get update failed"
	apt-get install -y -q "${missing[@]}" >/dev/null || sb_die "apt-get install ${missing[*]} failed"
}

sb_pgbin() { echo "/usr/lib/postgresql/$SB_PGMAJOR/bin"; }

# Installing replaces the server's copy of scanbench for everyone on this
# machine, so runs that install (test, demo, bench) take turns: the lock is
# held until the script exits.  Children started with sb_as_pg do not
# inherit it, so a server left running cannot hold it.
sb_build_install()
{
	local pgc
	pgc="$(sb_pgbin)/pg_config"
	exec 8>"${TMPDIR:-/tmp}/scanbench-install.lock"
	if ! flock -n 8; then
		sb_log "waiting for another scanbench test, demo or bench run on this machine"
		flock 8
	fi
	make -C "$SB_TOP" -s PG_CONFIG="$pgc" >/dev/null || sb_die "build failed"
	make -C "$SB_TOP" -s PG_CONFIG="$pgc" install >/dev/null || sb_die "make install failed"
}

# Run a command as the cluster's OS user: initdb refuses root.
sb_as_pg()
{
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- env PATH="$(sb_pgbin):$PATH" "$@" 8>&-
	else
		env PATH="$(sb_pgbin):$PATH" "$@" 8>&-
	fi
}

# sb_start_cluster DIR PORT: initdb in DIR/data, socket in DIR, started on
# PORT.  Exports PGHOST, PGPORT, PGUSER, PGDATABASE for what follows and
# registers its own stop in SB_CLEANUP, which the caller's EXIT trap runs.
sb_start_cluster()
{
	local dir=$1 port=$2
	mkdir -p "$dir"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	sb_as_pg initdb -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 ||
		sb_die "initdb failed: see $dir/initdb.log"
	cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
shared_buffers = 128MB
max_wal_size = 4GB
checkpoint_timeout = 30min
fsync = off
full_page_writes = off
CONF
	sb_on_exit "sb_as_pg pg_ctl -D '$dir/data' -m fast stop >/dev/null 2>&1"
	sb_as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w start >/dev/null ||
		sb_die "server did not start: see $dir/server.log"
	export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres
}

# Cleanup steps run last-registered first: the cluster stops before its
# directory goes, a mount is undone before its image is removed.
sb_on_exit() { SB_CLEANUP="$1; ${SB_CLEANUP:-:}"; }
sb_cleanup() { eval "${SB_CLEANUP:-:}"; }
