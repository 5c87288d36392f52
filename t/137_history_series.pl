# scan_history_series, the series kept as runs are recorded, against the
# history itself: after each way runs come and go (a night's COPY, runs
# one at a time and out of order, deletes of a series' latest run and of
# a whole series, a run moved to another server, the months made and
# pruned, TRUNCATE, two recordings of one series at once, a recording
# killed mid-statement, pg_dump and restore, the update from 0.4.0), the
# metrics scrape read from the series gives the text it gives read from
# the history (its path where the series are not kept, as on Citus), and
# the series equal those scan_history_series_rebuild() makes.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('history_series');
$node->init;
$node->append_conf('postgresql.conf', "autovacuum = off\nrestart_after_crash = on\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');

sub sql { return $node->safe_psql($_[1] // 'postgres', $_[0]); }

# Runs at random over 3 servers (one of them this server, NULL), 2
# schemas (one needing quotes; a few runs with none, as a server that
# could not be asked), 2 relations and 2 cache modes; a few unreachable,
# unstable, compared apart (cpu_limited) or without a figure.
sub runs_sql
{
	my ($n, $days, $seed) = @_;
	return qq{
		SELECT setseed($seed);
		INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server, reason)
		SELECT now() - make_interval(days => (random() * $days)::int, mins => (random() * 1400)::int),
			   CASE WHEN random() < 0.05 THEN NULL ELSE (ARRAY['public', 's"x'])[1 + (random() * 1)::int] END,
			   (ARRAY['a', 'b'])[1 + (random() * 1)::int],
			   (ARRAY['cold', 'warm'])[1 + (random() * 1)::int],
			   CASE WHEN random() < 0.05 THEN NULL ELSE round((30 + random() * 40)::numeric, 1)::float8 END,
			   (ARRAY['{ok}', '{ok}', '{ok}', '{unstable}', '{host_cache}', '{ok,cpu_limited}'])[1 + (random() * 5)::int]::text[],
			   (ARRAY[NULL, 'db1', 'db2'])[1 + (random() * 2)::int],
			   CASE WHEN random() < 0.03 THEN 'unreachable' END
		FROM generate_series(1, $n);
	};
}

# The series as rows, in key order.
my $series_sql = q{
	SELECT coalesce(string_agg(format('%s|%s|%s|%s|%s|%s|%s|%s|%s', server, relschema, relname, cache,
									  recorded, last_id, last_at, median_pct, compared_runs), E'\n'
							   ORDER BY server NULLS FIRST, relschema NULLS FIRST, relname, cache), '')
	FROM scan_history_series};

# check(what[, db]): the scrape from the series equals the scrape from the
# history, and the series equal those made again from scratch; neither
# comparison leaves a trace (each in a transaction rolled back).
sub check
{
	my ($what, $db) = @_;
	$db //= 'postgres';
	my $runs = sql('SELECT count(*) FROM scan_history', $db);
	is(sql('SELECT scanbench_internal.scan_history_series_kept()', $db), 't', "$what: the series are kept");
	my $kept = sql('SELECT scanbench_metrics()', $db);
	my $read = sql(q{
		BEGIN;
		ALTER TABLE scan_history DISABLE TRIGGER scan_history_series_insert;
		SELECT scanbench_internal.scan_history_series_kept();
		SELECT scanbench_metrics();
		ROLLBACK;
	}, $db);
	$read =~ s/\A(\S*)\n//;
	is($1, 'f', "$what: the scrape reads the history once a trigger is disabled");
	is($kept, $read, "$what: the scrape from the series is the scrape from the history ($runs runs)");
	my $series = sql($series_sql, $db);
	my $rebuilt = sql("BEGIN; SELECT scan_history_series_rebuild(); $series_sql; ROLLBACK;", $db);
	$rebuilt =~ s/\A\d+\n//;
	is($series, $rebuilt, "$what: the series are those made again from the history");
	is(sql('SELECT coalesce(sum(recorded), 0) FROM scan_history_series', $db), $runs,
		"$what: they count every run");
}

check('empty');
sql(runs_sql(400, 60, 0.42));
like(sql('SELECT count(*) FROM scan_history_series'), qr/^[1-9]\d+$/, 'a statement of 400 runs makes the series');
check('400 runs in one statement');

# One at a time, older than the series' latest and newer.
for my $i (1 .. 30)
{
	sql(runs_sql(1, $i % 2 ? 59 : 0, 0.01 * $i));
}
check('30 runs one statement each, in and out of order');

# A night of many series at once, as a fleet's COPY records it: where the
# series touched are many (100 or more, a quarter of those kept), each is
# read in one pass over the window's runs, not one series at a time (no
# call of scan_history_series_latest, which reads a series alone).  Its
# servers, schemas and relations include NULLs, unjudged and unusable
# runs, and marks compared apart.
my $night = q{
	BEGIN;
	SET LOCAL track_functions = 'all';
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server, reason)
	SELECT now() - make_interval(days => d, mins => s),
		   CASE WHEN s % 17 = 0 THEN NULL ELSE 'public' END, 'r' || (s % 3), 'cold',
		   CASE WHEN (s + d) % 11 = 0 THEN NULL ELSE 40 + (s * 7 + d * 3) % 30 END,
		   (ARRAY['{ok}', '{ok}', '{unstable}', '{ok,cpu_limited}'])[1 + (s + d) % 4]::text[],
		   CASE WHEN s % 50 = 0 THEN NULL ELSE 'n' || s END,
		   CASE WHEN (s * (d + 1)) % 37 = 0 THEN 'unreachable' END
	FROM generate_series(1, SERVERS) s, generate_series(FIRST_DAY, LAST_DAY) d;
	SELECT coalesce(sum(f.calls), 0) FROM pg_stat_xact_user_functions f
	WHERE f.funcname = 'scan_history_series_latest';
	COMMIT;
};
sub night
{
	my ($servers, $first, $last) = @_;
	(my $q = $night) =~ s/SERVERS/$servers/;
	$q =~ s/FIRST_DAY/$first/;
	$q =~ s/LAST_DAY/$last/;
	return sql($q);
}
is(night(200, 1, 40), '0', 'a year of 200 series in one statement: the series read in one pass');
check('200 series made in one statement');
is(night(200, 0, 0), '0', 'a night of 200 series: the series read in one pass');
check('a night of 200 series');
cmp_ok(night(20, 0, 0), '>=', 20, 'a night of 20 of them: each series read alone');
check('a night of 20 series');

# The latest run of each series of db1 deleted: each series' latest and
# window read again.
sql(q{
	DELETE FROM scan_history h USING scan_history_series s
	WHERE h.id = s.last_id AND s.server = 'db1'});
check('the latest runs of a server deleted');

# A series wholly deleted goes.
sql(q{DELETE FROM scan_history WHERE server = 'db2' AND relname = 'a' AND cache = 'cold'});
is(sql(q{SELECT count(*) FROM scan_history_series WHERE server = 'db2' AND relname = 'a' AND cache = 'cold'}),
	'0', 'a series with no run left goes');
check('a series deleted');

# A run's server named, as a DBA does before distributing the history:
# the runs move from this server's series to another's.
sql(q{UPDATE scan_history SET server = 'coordinator' WHERE server IS NULL AND relname = 'a'});
check('runs moved to another server');

# The months: the runs waiting in the default partition are moved into
# theirs, through the parent, then old months dropped and old runs
# deleted.
cmp_ok(sql(q{SELECT scan_history_partition(since => now() - interval '75 days')}), '>=', 3,
	'the months are made');
is(sql('SELECT count(*) FROM scan_history_default'), '0', 'no run waits in the default partition');
check('the months made, the runs moved into them');
sql(runs_sql(50, 3, 0.5));
my $before = sql('SELECT count(*) FROM scan_history');
my $gone = sql(q{SELECT scan_history_prune(older_than => interval '40 days')});
cmp_ok($gone, '>', 0, "scan_history_prune: $gone runs gone");
is(sql('SELECT count(*) FROM scan_history'), $before - $gone, '... and the history has the rest');
check('old months dropped and old runs deleted');

# A role that records a fleet's runs, granted INSERT on the history and
# nothing on the series: its runs are counted all the same.
sql(q{
	CREATE ROLE recorder LOGIN;
	GRANT USAGE ON SEQUENCE scan_history_id_seq TO recorder;
	GRANT INSERT ON scan_history TO recorder;
});
my ($ret, $out, $err) = $node->psql('postgres', runs_sql(20, 1, 0.6), extra_params => [ '-U', 'recorder' ]);
is($ret, 0, "a role with INSERT on the history alone records ($err)");
($ret, $out, $err) = $node->psql('postgres', 'DELETE FROM scan_history_series', extra_params => [ '-U', 'recorder' ]);
like($err, qr/permission denied for table scan_history_series/, '... and cannot write the series itself');
check('runs of a role with INSERT alone');

# Two recordings of one series at once: the second waits for the first's
# series, then reads its runs.
my $s1 = $node->background_psql('postgres');
my $s2 = $node->background_psql('postgres', on_error_stop => 0);
$s1->query_safe(q{BEGIN; INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server)
	VALUES (now(), 'public', 'a', 'cold', 55, '{ok}', 'db1')});
$s2->query_until(qr/started/, q{\echo started
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server)
	VALUES (now() + interval '1 second', 'public', 'a', 'cold', 56, '{ok}', 'db1');
	\echo done
});
ok($node->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO scan_history%'}),
	'a second recording of the series waits for the first');
$s1->query_safe('COMMIT');
$s2->query_until(qr/done/, '');
$s1->quit;
$s2->quit;
check('two recordings of one series at once');

# A recording killed in the middle of its statement (SIGKILL: the server
# restarts): the series are as the history is, without its runs.
$before = sql('SELECT count(*) FROM scan_history');
my $victim = $node->background_psql('postgres', on_error_stop => 0);
my $pid = $victim->query_safe('SELECT pg_backend_pid()');
$pid =~ s/\D//g;
$victim->query_until(qr/started/, q{\echo started
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server)
	SELECT now(), 'public', 'b', 'warm', 40 + g, '{ok}', 'db2' FROM generate_series(1, 20) g, LATERAL pg_sleep(0.5);
});
ok($node->poll_query_until('postgres', qq{SELECT wait_event = 'PgSleep' FROM pg_stat_activity WHERE pid = $pid}),
	'the recording is in its statement');
kill 'KILL', $pid;
eval { $victim->quit; };
ok($node->poll_query_until('postgres', 'SELECT 1', '1'), 'the server is back after the kill');
is(sql('SELECT count(*) FROM scan_history'), $before, 'the killed recording left no run');
check('a recording killed mid-statement');

# pg_dump and restore: the months are restored one by one, which fires no
# trigger of the parent; the series come back from the dump.
my $dump = $node->basedir . '/history.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('postgres'), '-f', $dump ], 'pg_dump');
sql('CREATE DATABASE restored');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('restored'), '-f', $dump ],
	'restored');
is(sql($series_sql, 'restored'), sql($series_sql), 'the restored series are the dumped ones');
check('restored', 'restored');

# Rows written around the parent (straight into a month) are not seen;
# scan_history_series_rebuild() makes the series again.
my $month = sql(q{SELECT m.part FROM scanbench_internal.scan_history_months() m
	WHERE now() >= m.from_at AND now() < m.to_at});
sql(qq{INSERT INTO $month (measured_at, relschema, relname, cache, scan_pct, verdict, server)
	VALUES (now(), 'public', 'c', 'cold', 50, '{ok}', 'db9')});
is(sql(q{SELECT count(*) FROM scan_history_series WHERE server = 'db9'}), '0',
	'a run written straight into its month is not counted');
like(sql('SELECT scan_history_series_rebuild()'), qr/^[1-9]\d*$/, 'scan_history_series_rebuild() makes them again');
check('rebuilt after a run written into its month');

sql('TRUNCATE scan_history');
is(sql('SELECT count(*) FROM scan_history_series'), '0', 'TRUNCATE empties the series');
check('truncated');

# The update from 0.4.0 makes the series of the runs it moves.
sql('CREATE DATABASE old');
sql(q{CREATE EXTENSION scanbench VERSION '0.4.0'}, 'old');
sql(q{
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	SELECT now() - make_interval(days => g), 'public', 'a', 'cold', 50 + g % 7, '{ok}'
	FROM generate_series(1, 40) g;
}, 'old');
sql(q{ALTER EXTENSION scanbench UPDATE TO '0.5.0'}, 'old');
is(sql(q{SELECT recorded || ' ' || compared_runs FROM scan_history_series}, 'old'), '40 29',
	'the update from 0.4.0 makes the series of its runs');
check('updated from 0.4.0', 'old');

$node->stop;
done_testing();
