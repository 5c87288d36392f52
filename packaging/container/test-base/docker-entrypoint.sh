#!/bin/bash
# A minimal stand-in for the official postgres image's entrypoint, for
# tools/container-test.sh's local base image: no registry is reachable
# from the machines scanbench is tested on, so the official image (and
# its docker-entrypoint.sh) cannot be pulled.  It keeps the contract the
# scanbench image relies on, as the official script defines it: run as
# root, it makes PGDATA and /var/run/postgresql the postgres user's and
# runs itself again as that user; on an empty PGDATA it runs initdb with
# POSTGRES_USER and POSTGRES_PASSWORD (required), starts a server on the
# socket only, creates POSTGRES_DB, runs /docker-entrypoint-initdb.d/*
# (*.sh sourced unless executable, *.sql with psql) with POSTGRES_USER
# and POSTGRES_DB exported, stops it, and execs the command (postgres),
# listening on every address with scram-sha-256 for remote hosts.  What
# it leaves out: POSTGRES_INITDB_ARGS and the other variables, *_FILE
# secrets, *.sql.gz, the checks of a data directory of another major.
set -Eeuo pipefail

if [ "${1:0:1}" = - ]; then
	set -- postgres "$@"
fi
if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
	mkdir -p "$PGDATA" /var/run/postgresql
	chown postgres: "$PGDATA" /var/run/postgresql
	chmod 700 "$PGDATA"
	chmod 3777 /var/run/postgresql
	exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
	if [ -z "${POSTGRES_PASSWORD:-}" ]; then
		echo "error: database is uninitialized and superuser password is not specified (-e POSTGRES_PASSWORD=...)" >&2
		exit 1
	fi
	export POSTGRES_USER=${POSTGRES_USER:-postgres}
	export POSTGRES_DB=${POSTGRES_DB:-$POSTGRES_USER}
	initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") -D "$PGDATA"
	printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
	printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
	pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
	export PGPASSWORD=$POSTGRES_PASSWORD
	if [ "$POSTGRES_DB" != postgres ]; then
		psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
			-c "CREATE DATABASE \"$POSTGRES_DB\""
	fi
	for f in /docker-entrypoint-initdb.d/*; do
		case $f in
		*.sh)
			if [ -x "$f" ]; then
				echo "$0: running $f"; "$f"
			else
				echo "$0: sourcing $f"; . "$f"
			fi ;;
		*.sql) echo "$0: running $f"; psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -f "$f" ;;
		esac
	done
	unset PGPASSWORD
	pg_ctl -D "$PGDATA" -m fast -w stop
	echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
