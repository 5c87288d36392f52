#!/bin/bash
# Run once by the server image's entrypoint, when it makes the data
# directory, with a server listening on its socket only: creates scanbench
# in POSTGRES_DB and, when SCANBENCH_LOAD_SCALE is set, loads a DBT-3
# lineitem of that scale with scanbench-load (SCANBENCH_LOAD_TABLE names
# it, default lineitem), then ANALYZEs it.
set -euo pipefail
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$user" --dbname "$db" \
	-c 'CREATE EXTENSION IF NOT EXISTS scanbench'
if [ -n "${SCANBENCH_LOAD_SCALE:-}" ]; then
	table=${SCANBENCH_LOAD_TABLE:-lineitem}
	echo "scanbench: loading $table at scale $SCANBENCH_LOAD_SCALE into $db"
	scanbench-load --username "$user" --dbname "$db" --scale "$SCANBENCH_LOAD_SCALE" --table "$table"
	psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$user" --dbname "$db" -c "ANALYZE $table"
fi
