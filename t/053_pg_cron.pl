# The pg_cron recipe of doc/monitoring.md, for real: pg_cron preloaded, the check
# scheduled, and the scheduled run in the history.  The history is staged
# so that the run alarms: the job fails with the alarm's message in
# cron.job_run_details, and the run is recorded all the same.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

# pg_cron starts jobs on the minute: the two runs, on a node each, wait
# for the same one, up to a minute.
plan skip_all => 'waits for pg_cron minutes: needs PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;

my $node = PostgreSQL::Test::Cluster->new('pg_cron');
my $pkglibdir = $node->config_data('--pkglibdir');
plan skip_all => "pg_cron is not installed for this server ($pkglibdir; Debian: postgresql-15-cron)"
  unless -e "$pkglibdir/pg_cron.so";

# pg_cron's two modes, a node each, so that both jobs wait for the same
# minute: background workers, and its default, a libpq connection (here
# to the node's socket directory).
my @modes = ('background worker', 'connection');
my %node = ('background worker' => $node,
	'connection' => PostgreSQL::Test::Cluster->new('pg_cron_connection'));
for my $mode (@modes)
{
	my $n = $node{$mode};
	$n->init;
	# Background workers: the test cluster listens on a Unix socket only.
	$n->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'pg_cron'
cron.database_name = 'postgres'
max_worker_processes = 16
});
	$n->append_conf('postgresql.conf', $mode eq 'connection'
		? "cron.use_background_workers = off\ncron.host = '" . $n->host . "'\n"
		: "cron.use_background_workers = on\n");
	$n->start;
	$n->safe_psql('postgres', q{
		CREATE EXTENSION pg_cron;
		CREATE EXTENSION scanbench;
		CREATE TABLE lineitem AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 100000) g;
		VACUUM (FREEZE, ANALYZE) lineitem;
	});

	# Earlier runs far better than anything this table can do, under every
	# set of marks a run may get here.
	$n->safe_psql('postgres', q{
		INSERT INTO scan_history (measured_at, relid, relschema, relname, cache, scan_pct, verdict, scheduler)
		SELECT now() - make_interval(days => d), 'lineitem'::regclass, 'public', 'lineitem', 'cold',
			   10000, string_to_array(m, ','), 'seeded-scheduler'
		FROM generate_series(1, 5) d,
			 unnest(ARRAY['ok', 'host_cache', 'storage_not_limiting', 'host_cache,storage_not_limiting',
						  'cpu_contended', 'host_cache,cpu_contended', 'cpu_contended,storage_not_limiting',
						  'host_cache,cpu_contended,storage_not_limiting']) m;
	});
}

# The recipe's schedule, every minute here (pg_cron's finest before 1.5).
# A test-sized table on a noisy machine rarely gets an interval within
# +-10 %: whole passes and a loose target let the run be judged.  Both
# modes' jobs are scheduled before either is waited for, and the second
# run waits for the table until the first has ended, so that neither is
# measured while the other takes the CPUs.
my $holder = $node{connection}->background_psql('postgres');
$holder->query_safe('BEGIN; LOCK TABLE lineitem IN ACCESS EXCLUSIVE MODE');
my (%before, %job, %status, %message);
for my $mode (@modes)
{
	my $n = $node{$mode};
	$before{$mode} = $n->safe_psql('postgres', q{SELECT count(*) FROM scan_history WHERE scan_pct < 10000});
	$job{$mode} = $n->safe_psql('postgres', q{SELECT cron.schedule('scanbench-lineitem', '* * * * *',
		$$CALL efficiency_check('lineitem', method => 'whole', runs => 15, target_pct => 100)$$)});
	ok($job{$mode} > 0, "$mode: scheduled as job $job{$mode}");
	($status{$mode}, $message{$mode}) = ('', '');
}

my $deadline = time + 150;
my @waiting = @modes;
while (@waiting && time < $deadline)
{
	for my $mode (@waiting)
	{
		my $row = $node{$mode}->safe_psql('postgres', qq{SELECT status || '|' || coalesce(return_message, '')
			FROM cron.job_run_details WHERE jobid = $job{$mode} AND status IN ('succeeded', 'failed')
			ORDER BY start_time LIMIT 1});
		($status{$mode}, $message{$mode}) = split /\|/, $row, 2 if $row ne '';
	}
	@waiting = grep { $status{$_} eq '' } @waiting;
	if ($holder && $status{'background worker'} ne '')
	{
		$holder->query_safe('COMMIT');
		$holder->quit;
		undef $holder;
	}
	usleep(500_000) if @waiting;
}
$holder->quit if $holder;

for my $mode (@modes)
{
	my $n = $node{$mode};
	my $sql = sub { return $n->safe_psql('postgres', shift) };
	my ($job, $status, $message) = ($job{$mode}, $status{$mode}, $message{$mode});
	$sql->("SELECT cron.unschedule($job)");
	isnt($status, '', "$mode: pg_cron ran the check") or diag($sql->('SELECT * FROM cron.job_run_details'));

	is($sql->(q{SELECT count(*) FROM scan_history WHERE scan_pct < 10000}), $before{$mode} + 1,
		"$mode: the scheduled run is in the history");
	my $verdict = $sql->(q{SELECT coalesce(array_to_string(verdict, ','), 'ok') FROM scan_history WHERE scan_pct < 10000
						ORDER BY id DESC LIMIT 1});
	# A run is judged against earlier runs of its own marks: on a busy
	# machine it can get a mark none of the seeded runs has (and then no
	# alarm, rightly), which says nothing of pg_cron.
	my $alike = $sql->(q{SELECT count(*) FROM scan_history h,
			(SELECT verdict FROM scan_history WHERE scan_pct < 10000 ORDER BY id DESC LIMIT 1) r
		WHERE h.scan_pct = 10000
		  AND scanbench_internal.scan_history_marks(h.verdict) = scanbench_internal.scan_history_marks(r.verdict)});
	SKIP:
	{
		skip "the scheduled run could not be judged ($verdict)", 2 if $verdict =~ /unstable|cached/;
		skip "no seeded run has the scheduled run's marks ($verdict), so it is judged against none", 2 if $alike == 0;
		is($status, 'failed', "$mode: an alarm fails the job");
		like($message, qr/lineitem scan efficiency [0-9.]+ % is [0-9]+ % below its 30-day median 10000\.0 %; scheduler changed seeded-scheduler → /,
			"$mode: and its message says by how much and what changed");
	}
	$n->stop;
}

done_testing();
