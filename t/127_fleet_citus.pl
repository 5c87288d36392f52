# A central history on Citus: scan_history_distribute() makes scan_history
# a table distributed by server, and a history with two servers' runs then
# gives each server its own judgement ("what changed" among them), one
# run at a time and as a set (scan_history_judge_runs) alike, trend,
# metrics and chart, as on one server (sql/history_checks.sql); one
# server's trend reads one shard.  scanbench-fleet records into it, with
# and without a shared night.  Its months are made, distributed,
# compressed and dropped there.  It refuses what it cannot do: a history
# holding the database's own runs, a second call.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use SbCitus;
use SbClient;

SbCitus::require_citus();

my $fleet = client_program('scanbench-fleet');

my ($coord, $w1, $w2) = SbCitus::start_cluster('fleetcitus');
my ($ret, $out, $err);

sub coord { return $coord->safe_psql('postgres', shift); }

# The database's own runs have no server to be distributed by.
coord(q{INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
		VALUES (now(), 'public', 'own', 'cold', 70, '{ok}')});
($ret, $out, $err) = $coord->psql('postgres', 'SELECT scan_history_distribute()');
isnt($ret, 0, 'a history holding this database\'s own runs is not distributed');
like($err, qr/holds 1 runs of this database's own, with no server/, '... and the message says why');
like($err, qr/HINT:  Name their server/, '... and what to do');
is(coord(q{SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'scan_history'::regclass}), '0',
	'... and it stays a local table');
coord(q{UPDATE scan_history SET server = 'coordinator' WHERE server IS NULL});

is(coord('SELECT scan_history_distribute(8)'), '1', 'distributed, with the one run it held');
is(coord(q{SELECT column_to_column_name(logicalrelid, partkey) || ' ' ||
			(SELECT count(*) FROM pg_dist_shard s WHERE s.logicalrelid = p.logicalrelid)
		   FROM pg_dist_partition p WHERE logicalrelid = 'scan_history'::regclass}), 'server 8',
	'by server, in 8 shards');
is(coord(q{SELECT string_agg(DISTINCT result, ',') FROM run_command_on_all_nodes(
			$$SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'scan_history_default_pkey'$$)}),
	'PRIMARY KEY (server, id)', 'keyed by (server, id) on every node');
is(coord(q{SELECT count(*) FROM scan_history}), '1', 'the run is in the shards');
is(coord(q{SELECT pg_relation_size('scan_history_default')}), '0', '... none left on the coordinator');
($ret, $out, $err) = $coord->psql('postgres', 'SELECT scan_history_distribute()');
like($err, qr/scan_history is distributed already/, 'a second call is refused');
($ret, $out, $err) = $coord->psql('postgres', q{
	SELECT scan_history_record(jsonb_populate_record(NULL::scan_efficiency_result,
		'{"relation": "pg_class", "cache": "cold", "scan_pct": 50}'))});
like($err, qr/cannot record a run of this database in a history distributed by server/,
	'a run of the database\'s own is refused there, by name');

# Two servers' runs of one relation: b's (on xfs, later, more of them)
# are no part of a's comparison; b's latest, back on ext4 with its tags,
# is b's change alone.
coord(q{
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, filesystem, server, kernel)
	SELECT now() - make_interval(days => 10 - g), 'public', 'two', 'cold', 50, '{ok}'::text[], 'ext4', 'a', '6.1'
	FROM generate_series(1, 3) g
	UNION ALL
	SELECT now() - make_interval(days => 5 - g), 'public', 'two', 'cold', 90, '{ok}', 'xfs', 'b', '6.12'
	FROM generate_series(1, 4) g;
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, filesystem, server, kernel)
	VALUES (now(), 'public', 'two', 'cold', 50, '{ok}', 'ext4', 'a', '6.1');
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, filesystem, server, kernel, tags)
	VALUES (now() + interval '1 second', 'public', 'two', 'cold', 60, '{ok}', 'ext4', 'b', '6.12', '{"class": "nvme"}');
});
my %last = map { $_ => coord("SELECT max(id) FROM scan_history WHERE server = '$_'") } qw(a b);

# The months: made on the distributed history, distributed as they are
# made, with the runs waiting in the default partition moved into them.
ok(coord(q{SELECT scan_history_partition()}) >= 2, 'the months are made on the distributed history');
is(coord(q{SELECT count(*) FROM ONLY scan_history_default}) . ' ' .
   coord(q{SELECT count(*) FROM scan_history_default}), '0 0', '... the waiting runs moved out of the default');
is(coord(q{SELECT count(*) FROM scanbench_internal.scan_history_months() m
		   WHERE m.from_at IS NOT NULL
			 AND NOT EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = m.part)}), '0',
	'... every month distributed');
is(coord(q{SELECT string_agg(DISTINCT result, ',') FROM run_command_on_shards(
			(SELECT min(part) FROM scanbench_internal.scan_history_months() WHERE from_at IS NOT NULL),
			$$SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '%s'::regclass AND contype = 'p'$$)}),
	'PRIMARY KEY (server, id)', '... and keyed by (server, id) in every shard');
is(coord(q{SELECT count(*) FROM scan_history WHERE server IN ('a', 'b')}), '9', '... no run lost or doubled');

my $judged = coord("SELECT status, message, median_pct, earlier_runs FROM scan_history_judge($last{a})");
like($judged, qr/^ok\|two on a scan efficiency 50\.0 % is within its limits: 30-day median 50.0 % over 3 runs\|50\|3$/,
	"a's run is judged against a's three runs alone");
unlike($judged, qr/xfs|changed/, '... with nothing of b\'s in what changed');
$judged = coord("SELECT status, message, hint FROM scan_history_judge($last{b})");
like($judged, qr/^regression\|two on b scan efficiency 60\.0 % is 33 % below its 30-day median 90.0 %; filesystem changed xfs → ext4\|/,
	"b's drop is judged against b's runs, and what changed is b's");
like($judged, qr/server = 'b'/, '... and the hint names b\'s runs');
is(coord("SELECT status || ' ' || earlier_runs FROM scan_history_judge($last{a}, server => 'a')"), 'ok 3',
	'given its server, the run is judged the same');
($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM scan_history_judge($last{a}, server => 'b')");
like($err, qr/no run $last{a} in scan_history of server b/, '... and not as another server\'s run');

is(coord(q{SELECT string_agg(concat_ws(' ', server, runs, judged_runs, latest_pct, median_pct, change_pct), '; ' ORDER BY server)
		   FROM scan_trend WHERE relation = 'public.two'}),
	'a 4 4 50 50 0; b 5 5 60 90 -33.3', 'each server has its own trend');
is(coord(q{SELECT concat_ws(' ', server, runs, median_pct) FROM scan_trend WHERE server = 'a'}),
	'a 4 50', 'one server\'s trend is that server\'s');
like(coord(q{EXPLAIN (COSTS OFF) SELECT * FROM scan_trend WHERE server = 'a'}), qr/Task Count: 1\b/,
	'... read from one shard');
like(coord(q{EXPLAIN (COSTS OFF) SELECT * FROM scan_trend}), qr/Task Count: 8\b/,
	'the whole trend is read from every shard at once');

my $metrics = coord(q{SELECT line FROM regexp_split_to_table(scanbench_metrics(), E'\n') AS line
	WHERE line LIKE 'scanbench_scan_efficiency_median_percent%two%' OR line LIKE 'scanbench_compared_runs%two%'
	ORDER BY line});
is($metrics, join("\n",
	'scanbench_compared_runs{server="a",schema="public",relation="two",cache="cold"} 3',
	'scanbench_compared_runs{server="b",schema="public",relation="two",cache="cold",cohort="class=nvme"} 4',
	'scanbench_scan_efficiency_median_percent{server="a",schema="public",relation="two",cache="cold"} 50',
	'scanbench_scan_efficiency_median_percent{server="b",schema="public",relation="two",cache="cold",cohort="class=nvme"} 90'),
	'the metrics have a series per server, each with its own median');
is(coord(q{SELECT (SELECT count(*) FROM regexp_matches(svg, 'data-relation="public.two on ', 'g'))
		   FROM scan_history_svg(NULL, 'cold') AS svg}), '2', 'the chart draws a line per server');
is(coord(q{SELECT count(*) FROM scanbench_internal.scan_history_window(} . $last{b} . q{, 30)}), '4',
	'the window of b\'s run is b\'s four earlier runs');

# The set judge, given the two servers' runs at once, gives each the
# per-run judge's answer: each server's window its own, on every shard.
my $same = q{SELECT count(*) || ' ' || count(*) FILTER (WHERE
		(s.status, s.message, s.detail, s.hint, s.median_pct, s.drop_pct, s.earlier_runs) IS NOT DISTINCT FROM
		(p.status, p.message, p.detail, p.hint, p.median_pct, p.drop_pct, p.earlier_runs))
	FROM scan_history_judge_runs(first_run => 0) s, scan_history_judge(s.run, server => s.server) p};
my $all = coord(q{SELECT count(*) FROM scan_history});
is(coord($same), "$all $all", 'the set judgement of every run is the per-run judgement');
is(coord(q{SELECT string_agg(server || ' ' || status || ' ' || earlier_runs, ', ' ORDER BY run)
		   FROM scan_history_judge_runs(} . $last{a} . q{, } . $last{b} . q{)}),
	'a ok 3, b regression 4', '... a\'s and b\'s last runs, each against its own server\'s');
is(coord(q{SELECT string_agg(status, ',') FROM scan_history_judge_runs(servers => '{b}', first_run => } . $last{b} . q{)}),
	'regression', '... and of one server, given its name');

# scanbench-fleet records into it: the two workers are the servers
# measured, a table of their own on each.
for my $w ($w1, $w2)
{
	$w->safe_psql('postgres', q{
		CREATE TABLE t AS SELECT g AS id, repeat('x', 200) AS pad FROM generate_series(1, 5000) g;
		VACUUM (FREEZE, ANALYZE) t;
	});
}
my $dir = PostgreSQL::Test::Utils::tempdir();
open my $fh, '>', "$dir/servers" or die "$dir/servers: $!";
printf $fh "postgresql://localhost:%d/postgres name=w%d class=test\n", $_->[0]->port, $_->[1]
  for ([ $w1, 1 ], [ $w2, 2 ]);
close $fh;
my @run = ($fleet, '--servers', "$dir/servers", '--relation', 't',
	'--history', sprintf('postgresql://localhost:%d/postgres', $coord->port),
	'--jobs', '2', '--max-seconds', '1', '--no-restore', '--format', 'csv');
IPC::Run::run(\@run, '>', \$out, '2>', \$err);
ok($? >> 8 < 2, 'scanbench-fleet records into the distributed history') or diag($err);
coord(q{GRANT ALL ON fleet_queue, fleet_queue_disk TO CURRENT_USER});
IPC::Run::run([ @run, '--night', 'n1' ], '>', \$out, '2>', \$err);
ok($? >> 8 < 2, '... and with a shared night') or diag($err);
is(coord(q{SELECT string_agg(server || ' ' || count, ', ' ORDER BY server) FROM
		   (SELECT server, count(*) FROM scan_history WHERE relname = 't' GROUP BY server) s}),
	'w1 2, w2 2', 'each server has its two runs');
is(coord(q{SELECT count(*) FROM fleet_queue WHERE night = 'n1' AND finished_at IS NOT NULL}), '2',
	'the night\'s queue has both finished');
is(coord(q{SELECT string_agg(server || ' ' || runs, ', ' ORDER BY server) FROM scan_trend WHERE relation = 'public.t'}),
	'w1 2, w2 2', 'the trend has a row per server');
$all = coord(q{SELECT count(*) FROM scan_history});
is(coord($same), "$all $all", 'the fleet\'s runs too are judged alike as a set and one by one');

# Old months: a year and more of runs of two servers, made into their
# months, compressed, read, then dropped whole.
coord(q{INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict, server)
		SELECT now() - make_interval(days => 420 + g * 40), 'public', 'old', 'cold', 40 + g, '{ok}', s
		FROM generate_series(1, 3) g, unnest(ARRAY['a', 'b']) s});
ok(coord(q{SELECT scan_history_partition()}) >= 3, 'the old runs\' months are made');
is(coord(q{SELECT count(*) FROM scan_history_default}), '0', '... and the old runs moved into them');
coord(q{CREATE EXTENSION IF NOT EXISTS citus_columnar});
ok(coord(q{SELECT scan_history_compress('90 days')}) >= 3, 'the months past 90 days are compressed');
is(coord(q{SELECT count(*) FROM scanbench_internal.scan_history_months()
		   WHERE access_method = 'columnar' AND from_at > now() - interval '90 days'}), '0',
	'... not the recent ones');
is(coord(q{SELECT string_agg(server || ' ' || runs || ' ' || latest_pct, ', ' ORDER BY server)
		   FROM scan_trend WHERE relation = 'public.old'}),
	'a 3 41, b 3 41', 'the compressed months are read as before');
$all = coord(q{SELECT count(*) FROM scan_history});
is(coord($same), "$all $all", '... and judged alike as a set and one by one, compressed');
is(coord(q{SELECT scan_history_compress('90 days')}), '0', 'a second call finds nothing to compress');
is(coord(q{SELECT scan_history_prune()}), '6', 'scan_history_prune drops the months past');
is(coord(q{SELECT count(*) FROM scan_history WHERE relname = 'old'}) . ' ' .
   coord(q{SELECT count(*) FROM scanbench_internal.scan_history_months() WHERE to_at <= now() - interval '400 days'}),
	'0 0', '... their runs gone from every shard, and the months with them');

# On one server (a database without Citus, beside it), the months are
# compressed in place with citus_columnar.
$coord->safe_psql('postgres', 'CREATE DATABASE one');
$coord->safe_psql('one', q{
	CREATE EXTENSION citus_columnar;
	CREATE EXTENSION scanbench;
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	SELECT now() - make_interval(days => 30 + g * 100), 'public', 'old', 'cold', 40 + g, '{ok}'
	FROM generate_series(1, 3) g;
	SELECT scan_history_partition()});
# The series kept on one server (scan_history_series) equal those made
# again from the history, as the months are compressed and pruned.
my $one_series = q{SELECT string_agg(format('%s|%s|%s|%s|%s|%s|%s', relname, cache, recorded, last_id, last_at,
											median_pct, compared_runs), E'\n' ORDER BY relname, cache)
	FROM scan_history_series};
sub one_series_rebuilt
{
	my $rebuilt = $coord->safe_psql('one', "BEGIN; SELECT scan_history_series_rebuild(); $one_series; ROLLBACK;");
	$rebuilt =~ s/\A\d+\n//;
	return $rebuilt;
}
$coord->safe_psql('one', q{
	INSERT INTO scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	SELECT now() - make_interval(days => g), 'public', 'new', 'cold', 40 + g % 7, '{ok}'
	FROM generate_series(1, 10) g});
like($coord->safe_psql('one', $one_series), qr/^new\|cold\|10\|/m, 'one server: the series are kept');
is($coord->safe_psql('one', q{SELECT scan_history_compress('90 days')}), '3',
	'one server: the months past 90 days are compressed');
is($coord->safe_psql('one', $one_series), one_series_rebuilt(),
	'... the series kept equal those made again from the compressed history');
is($coord->safe_psql('one', q{SELECT string_agg(m.access_method || ' ' || (SELECT count(*) FROM scan_history h
		WHERE h.measured_at >= m.from_at AND h.measured_at < m.to_at), ', ' ORDER BY m.from_at)
	FROM scanbench_internal.scan_history_months() m
	WHERE m.from_at < now() - interval '90 days'}),
	'columnar 1, columnar 1, columnar 1', '... each in columnar storage, its run read from it');
is($coord->safe_psql('one', q{SELECT scan_history_prune('190 days')}), '2',
	'... and the prune drops the compressed months wholly past');
is($coord->safe_psql('one', $one_series), one_series_rebuilt(),
	'... the series kept equal those made again after the prune');
like($coord->safe_psql('one', $one_series), qr/^old\|cold\|1\|/m, '... one old run left in its series');

$_->stop for ($coord, $w1, $w2);
done_testing();
