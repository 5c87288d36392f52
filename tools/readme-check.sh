#!/usr/bin/env bash
# Run the code blocks of README.md and of every page of doc/ that are
# marked safe to run, against a throwaway cluster, and fail if any of them
# fails; before that, tools/docs-check.pl checks the README's size and every
# relative link, and that each page of doc/ is linked from the README, and
# tools/reference.pl checks doc/reference.md and the pages' examples against
# the catalog of the installed extension.
#
#   tools/readme-check.sh [PAGE.md...]   (as root, or as the postgres user)
#   tools/readme-check.sh --static
#
# Without PAGEs: README.md, then doc/*.md in name order, all in one cluster
# (so a page may use what the README set up: the extension).  --static
# makes every check that reads the pages (docs-check.pl, reference.pl, the
# tables of marks) and runs no block: the quick tier's part (tools/test.sh
# --quick), a few seconds where the blocks take a minute or more.
#
# A block is marked by the word "run" after its language in the opening
# fence:
#
#     ```sql run          run with psql -v ON_ERROR_STOP=1 -d tpch
#     ```sh run           run with bash -e, from an empty directory
#
# Both run as the postgres user, in order, with PGHOST and PGPORT naming
# the throwaway cluster and the server's bin directory on PATH (where make
# install puts scanbench-load; the Debian package puts it in /usr/bin).  What
# the README's examples assume is set up first: a database tpch holding a
# scale-0.01 lineitem (without the extension: the README creates it), the
# roles monitor, checker and dba, and a tablespace fast.  The extension must
# be installed (tools/test.sh calls this after make install).
#
# Prints an ok/not ok line per check and per block and ends with
# "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
static=0
if [ "${1:-}" = --static ]; then
	static=1
	shift
	[ $# -eq 0 ] || { echo "${0##*/}: --static checks every page: name none" >&2; exit 2; }
fi
if [ $# -gt 0 ]; then
	pages=("$@")
else
	pages=("$top/README.md" "$top"/doc/*.md)
fi
major=${SB_PGMAJOR:-15}
bin=${SB_PGBIN:-/usr/lib/postgresql/$major/bin}
pass=0 fail=0
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }

work=$(mktemp -d /tmp/scanbench-readme.XXXXXX)
chmod 755 "$work"
[ "$(id -u)" = 0 ] && chown postgres: "$work"
as_pg()
{
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- env PATH="$bin:$PATH" PGHOST="$work" PGPORT=5432 "$@"
	else
		env PATH="$bin:$PATH" PGHOST="$work" PGPORT=5432 "$@"
	fi
}
trap 'as_pg pg_ctl -D "$work/data" -m immediate stop >/dev/null 2>&1; rm -rf "$work"' EXIT

# The pages as a reader meets them: size, links, every page reachable.
if [ $# -eq 0 ]; then
	out=$(perl "$top/tools/docs-check.pl" "$top")
	rc=$?
	printf '%s\n' "$out" | sed '$d'
	counts=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
	if [ -n "$counts" ]; then
		pass=$((pass + ${counts% *})) fail=$((fail + ${counts#* }))
	elif [ $rc -ne 0 ]; then
		echo "not ok - tools/docs-check.pl (exit $rc)"
		fail=$((fail + 1))
	fi
fi

# Split the marked blocks into files: NNN.sql or NNN.sh, with their page
# and line.
: >"$work/blocks"
[ $static -eq 1 ] && pages_run=() || pages_run=("${pages[@]}")
for page in "${pages_run[@]}"; do
	name=${page#"$top"/}
	awk -v dir="$work" -v page="$name" -v n="$(wc -l <"$work/blocks")" '
		/^```[a-z]+ run[ \t]*$/ && !inblock { n++; split($0, a, /[` ]+/); lang = a[2];
			file = sprintf("%s/%03d.%s", dir, n, lang); printf "" > file;
			print file " " page " " NR >> (dir "/blocks"); inblock = 1; next }
		/^```/ && inblock { inblock = 0; close(file); next }
		inblock { print >> file }
	' "$page" || { echo "not ok - $name cannot be read"; fail=$((fail + 1)); }
done
[ -s "$work/blocks" ] || [ $static -eq 1 ] ||
	{ echo "not ok - no block of ${pages[*]} is marked run"; fail=$((fail + 1)); finish; }
[ "$(id -u)" = 0 ] && chown -R postgres: "$work"

as_pg initdb -D "$work/data" -U postgres -A trust >"$work/initdb.log" 2>&1 ||
	{ cat "$work/initdb.log"; echo "not ok - initdb"; fail=$((fail + 1)); finish; }
as_pg pg_ctl -D "$work/data" -l "$work/server.log" -w \
	-o "-c listen_addresses='' -c unix_socket_directories='$work' -p 5432" start >/dev/null ||
	{ cat "$work/server.log"; echo "not ok - the cluster starts"; fail=$((fail + 1)); finish; }
mkdir "$work/ts"
[ "$(id -u)" = 0 ] && chown postgres: "$work/ts"
# What the blocks assume (none runs with --static).
if [ $static -eq 0 ]; then
	if ! as_pg psql -X -q -v ON_ERROR_STOP=1 -d postgres >"$work/setup.log" 2>&1 <<SQL ||
CREATE DATABASE tpch;
CREATE ROLE monitor;
CREATE ROLE checker;
CREATE ROLE dba;
CREATE TABLESPACE fast LOCATION '$work/ts';
SQL
		! as_pg scanbench-load -q -s 0.01 -d tpch >>"$work/setup.log" 2>&1; then
		cat "$work/setup.log"
		echo "not ok - set-up: database tpch, roles, tablespace, lineitem"
		fail=$((fail + 1))
		finish
	fi
fi

# doc/reference.md's generated blocks and the pages' examples against the
# catalog of the extension installed here (tools/reference.pl), in a
# database of their own.
if [ $# -eq 0 ]; then
	if as_pg psql -X -q -v ON_ERROR_STOP=1 -d postgres -c 'CREATE DATABASE reference' >"$work/reference.log" 2>&1 &&
		as_pg psql -X -q -v ON_ERROR_STOP=1 -d reference -c 'CREATE EXTENSION scanbench' >>"$work/reference.log" 2>&1; then
		out=$(env PATH="$bin:$PATH" PGHOST="$work" PGPORT=5432 PGUSER=postgres \
			perl "$top/tools/reference.pl" --check -d reference "$top" 2>&1)
		rc=$?
		printf '%s\n' "$out" | sed '$d'
		counts=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
		if [ -n "$counts" ]; then
			pass=$((pass + ${counts% *})) fail=$((fail + ${counts#* }))
		else
			printf '%s\n' "$out" | sed 's/^/#   /'
			echo "not ok - tools/reference.pl (exit $rc)"
			fail=$((fail + 1))
		fi
	else
		sed 's/^/#   /' "$work/reference.log"
		echo "not ok - a database with the extension for tools/reference.pl"
		fail=$((fail + 1))
	fi
fi

while read -r file page line; do
	mkdir -p "$work/cwd"
	[ "$(id -u)" = 0 ] && chown postgres: "$work/cwd"
	case $file in
	*.sql) (cd "$work/cwd" && as_pg psql -X -q -v ON_ERROR_STOP=1 -d tpch -f "$file") >"$work/out" 2>&1 ;;
	*.sh) (cd "$work/cwd" && as_pg bash -e "$file") >"$work/out" 2>&1 ;;
	*) echo "# $page line $line: no runner for ${file##*.}" >"$work/out"; false ;;
	esac
	rc=$?
	first=$(grep -m1 -v '^\s*\(#\|--\|$\)' "$file" | cut -c1-60)
	if [ $rc -eq 0 ]; then
		echo "ok - $page line $line: $first"
		pass=$((pass + 1))
	else
		echo "not ok - $page line $line: $first"
		sed 's/^/#   /' "$work/out" | tail -15
		fail=$((fail + 1))
	fi
done <"$work/blocks"

# The verdict's marks: each table of them in the pages (a header row
# "| verdict | means |") names exactly the marks the library's table has,
# which scan_verdict_marks() shows.
as_pg psql -X -q -v ON_ERROR_STOP=1 -d postgres -c 'CREATE DATABASE marks' >/dev/null &&
	as_pg psql -X -q -v ON_ERROR_STOP=1 -d marks -c 'CREATE EXTENSION scanbench' >/dev/null &&
	as_pg psql -X -At -v ON_ERROR_STOP=1 -d marks -c 'SELECT mark FROM scan_verdict_marks() ORDER BY 1' \
		>"$work/marks" 2>&1 || { cat "$work/marks"; echo "not ok - scan_verdict_marks()"; fail=$((fail + 1)); finish; }
for page in "${pages[@]}"; do
	awk '/^\| verdict \| means/ { intable = 1; next }
		intable && !/^\|/ { intable = 0 }
		intable && match($0, /^\| `[a-z_]+` \|/) { m = substr($0, 4, RLENGTH - 6); print m }' "$page" |
		sort -u >"$work/documented"
	[ -s "$work/documented" ] || continue
	if diff -u "$work/marks" "$work/documented" >"$work/out"; then
		echo "ok - $page: its table of marks names every mark of scan_verdict_marks(), and no other"
		pass=$((pass + 1))
	else
		echo "not ok - $page: its table of marks differs from scan_verdict_marks() (-library +page)"
		sed 's/^/#   /' "$work/out"
		fail=$((fail + 1))
	fi
done
finish
