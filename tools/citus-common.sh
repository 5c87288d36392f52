# A throwaway Citus cluster on loopback ports, for tools/demo.sh --citus and
# bench/citus.sh.  Source it after common.sh; it defines functions only.

# sb_citus_start PGBIN DIR PORT [SPARE]: a coordinator on PORT and two
# workers on PORT+1 and PORT+2, data directories under DIR, Citus preloaded
# and the workers added; with SPARE 1, a third worker on PORT+3, started
# but not added (to add later, as a cluster grows).  CREATE EXTENSION
# scanbench on the coordinator afterwards creates it on the workers too
# (and on the spare when it is added).  Each
# server's stop is registered with sb_on_exit.  Exports PGHOST, PGPORT,
# PGUSER and PGDATABASE for the coordinator.
sb_citus_start()
{
	local pgbin=$1 dir=$2 port=$3 spare=${4:-0}
	local i p
	mkdir -p "$dir"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	for i in $(seq 0 $((2 + spare))); do
		p=$((port + i))
		sb_as_pg "$pgbin/initdb" -D "$dir/n$i" -U postgres -A trust --no-sync \
			>"$dir/initdb-$i.log" 2>&1 || sb_die "initdb failed: see $dir/initdb-$i.log"
		cat >>"$dir/n$i/postgresql.conf" <<CONF
shared_preload_libraries = 'citus'
listen_addresses = 'localhost'
unix_socket_directories = '$dir'
port = $p
shared_buffers = 128MB
max_wal_size = 4GB
fsync = off
full_page_writes = off
CONF
		sb_on_exit "sb_as_pg '$pgbin/pg_ctl' -D '$dir/n$i' -m fast stop >/dev/null 2>&1"
		sb_as_pg "$pgbin/pg_ctl" -D "$dir/n$i" -l "$dir/n$i.log" -w start >/dev/null ||
			sb_die "server $i did not start: see $dir/n$i.log"
		sb_as_pg "$pgbin/psql" -X -q -h localhost -p "$p" -U postgres -d postgres \
			-c "CREATE EXTENSION citus" >/dev/null || sb_die "CREATE EXTENSION citus failed on port $p"
	done
	export PGHOST=localhost PGPORT=$port PGUSER=postgres PGDATABASE=postgres
	sb_as_pg "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL || sb_die "Citus cluster set-up failed"
SELECT citus_set_coordinator_host('localhost', $port);
SELECT citus_add_node('localhost', $((port + 1)));
SELECT citus_add_node('localhost', $((port + 2)));
SQL
}
