# workload_check, night after night, on a server with pg_stat_statements
# loaded and track_io_timing on:
#   - A first check takes a snapshot and records no query; each later
#     one records each query's reads since, keeps one snapshot, and
#     judges the queries against their earlier checks.
#   - Four nights of the same workload (a count of part of a table by
#     its uncorrelated key, planned as a sequential scan with bitmap heap
#     scans off, and a count of
#     another table), each out of both caches; then enable_seqscan is
#     turned off, the first count becomes an index scan reading at
#     random, and the check's ERROR (SQLSTATE SB003)
#     names that query, with the settings and the plan that changed; the
#     other count is not named.  The check is recorded all the same.
#   - A role granted as doc/workload.md says runs the check; without the
#     grants it is refused before anything is taken.
#   - A check that fails, or is cancelled, while it records leaves no
#     check, no history and no snapshot of its own; the next one starts
#     from the last check that was recorded.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib $FindBin::RealBin;
use SbLab;

my $node = PostgreSQL::Test::Cluster->new('workload_check');
$node->init;
$node->append_conf('postgresql.conf', q{
shared_buffers = 16MB
shared_preload_libraries = 'pg_stat_statements'
track_io_timing = on
max_parallel_workers_per_gather = 0
autovacuum = off
enable_bitmapscan = off
});
$node->start;

# Each night's read rates are held against the earlier nights', so they
# must not move with other tests' work (CI runs two majors at once on two
# CPUs, one of them with the lab's disk): the server's processes weigh ten
# times the default CPU weight (the lab's own cells ten times more), the
# test holds the lab lock where the lab runs, and its reads of the disk
# are capped at 100 MiB/s and 2,000 requests a second, far below what
# the disk gives even when it is shared, so that the caps, not the
# neighbours, set a cold read's pace: a sequential scan
# reads at the byte cap (78 us a page), an index scan reading at random at
# the request cap (500 us a page).  The references below are those two.
my ($cap_mib, $cap_iops) = (100, 2000);
my $cap_mb_s = $cap_mib * 1.048576;
# Where this run has the lab, under its lock as well: first of the lab's
# files at the start of a whole CI run, while the package roots were
# brought up to date and the other major built beside it, the fourth
# night's count read at 39 % of the three nights before it.  The lock
# keeps the roots' writes and the lab's cells off the nights.  A
# run that leaves the lab to another major does not wait for that major's
# lab (half an hour in CI).
SbLab::lab_lock() unless lab_why();
my $favour = lab_favour($node, 10);
$favour->limit($cap_mib, 0, $cap_iops) if $favour;
my ($seq_us, $random_us) = $favour ? (8192 / $cap_mb_s, 1e6 / $cap_iops) : (8.192, 81.92);

# Two tables of 200000 rows at fillfactor 10 (about 8000 blocks, 64 MB
# each, four times shared_buffers); wl's key k is a permutation of g,
# uncorrelated with the rows' order.
$node->safe_psql('postgres', qq{
	CREATE EXTENSION scanbench;
	CREATE SCHEMA pgss;
	CREATE EXTENSION pg_stat_statements SCHEMA pgss;
	CREATE TABLE wl WITH (fillfactor = 10) AS
		SELECT g, (g::bigint * 7919 % 200000)::integer AS k FROM generate_series(1, 200000) g;
	CREATE INDEX wl_k ON wl (k);
	CREATE TABLE wl2 WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 200000) g;
	-- references recorded by hand: the judge holds a query against the
	-- one it was nearest, whatever their values
	INSERT INTO page_costs_history (measured_at, relschema, relname, tablespace,
		seq_page_us, random_page_us, cached_page_us)
	VALUES (now(), 'public', 'wl', 'pg_default', $seq_us, $random_us, 2);
});
$node->safe_psql('postgres', 'VACUUM (FREEZE, ANALYZE) wl, wl2');

my $q1 = 'SELECT count(*), sum(g) FROM wl WHERE k < 20000';
my $q2 = 'SELECT count(*) FROM wl2';

# Both tables out of both caches: a restart empties shared_buffers, dd's
# nocache drops their files from the page cache.
sub cold
{
	$node->safe_psql('postgres', 'CHECKPOINT');
	my @paths = map { $node->safe_psql('postgres', "SELECT pg_relation_filepath('$_')") } qw(wl wl_k wl2);
	$node->restart;
	$favour->move if $favour;
	system('sync') == 0 or die "sync: $?";
	for my $p (@paths)
	{
		for my $f (glob($node->data_dir . "/$p"), glob($node->data_dir . "/$p.*"))
		{
			system('dd', "if=$f", 'iflag=nocache', 'count=0', 'status=none') == 0 or die "dd $f: $?";
		}
	}
}

sub check
{
	my (@opts) = @_;
	return $node->psql('postgres', "\\set VERBOSITY verbose\nCALL workload_check()", @opts);
}

sub json_rows
{
	my ($sql) = @_;
	return decode_json($node->safe_psql('postgres', "SELECT coalesce(json_agg(r), '[]') FROM ($sql) r"));
}

sub counts
{
	return $node->safe_psql('postgres', q{
		SELECT (SELECT count(*) FROM workload_checks) || ' ' ||
		       (SELECT count(*) FROM workload_history) || ' ' ||
		       (SELECT count(DISTINCT snapshot) FROM workload_snapshots)});
}

my $plan = $node->safe_psql('postgres', "EXPLAIN (COSTS OFF) $q1");
like($plan, qr/Seq Scan on wl/, 'the first count is planned as a sequential scan') or diag($plan);

# ---- the first check ----
my ($ret, $out, $err) = check();
is($ret, 0, 'the first check');
like($err, qr/snapshot \d+ taken; the first check records no query/, '... takes a snapshot and records no query');
is(counts(), '1 0 1', '... one check, no query, one snapshot');

# ---- four nights of the same workload ----
for my $night (1 .. 4)
{
	cold();
	$node->safe_psql('postgres', $_) for ($q1, $q2);
	($ret, $out, $err) = check();
	is($ret, 0, "night $night: the check passes") or diag($err);
	like($err, qr/NOTICE: .*workload check \d+: \d+ queries recorded over \d+ s, \d+ judged, none read more than 25 % slower/,
		"night $night: a NOTICE") or diag($err);
}
my ($checks, $rows, $snaps) = split / /, counts();
is($checks, 5, 'five checks recorded');
is($snaps, 1, 'one snapshot kept: the latest check\'s');
is($node->safe_psql('postgres', 'SELECT max(snapshot) = (SELECT to_snapshot FROM workload_checks ORDER BY id DESC LIMIT 1) FROM workload_snapshots'),
	't', '... the one the next check starts from');

my $queryid = $node->safe_psql('postgres', q{SELECT queryid FROM pgss.pg_stat_statements WHERE query LIKE 'SELECT count(*), sum(g) FROM wl WHERE k < $1'});
my $queryid2 = $node->safe_psql('postgres', q{SELECT queryid FROM pgss.pg_stat_statements WHERE query = 'SELECT count(*) FROM wl2'});
ok($queryid && $queryid2, "the two counts' queryids: $queryid, $queryid2");

my $hist = json_rows("SELECT * FROM workload_history WHERE queryid = $queryid ORDER BY check_id");
is(scalar(@$hist), 4, 'the first count: four nights recorded');
for my $h (@$hist)
{
	cmp_ok($h->{blocks_read}, '>', 7000, "check $h->{check_id}: $h->{blocks_read} blocks read, its table's");
	cmp_ok($h->{read_mb_s}, '>', 0, "... at $h->{read_mb_s} MB/s, nearest $h->{reference} ($h->{reference_pct} %)");
	# The caps set the pace: each night within 15 % of the byte cap, so
	# the nights compare like with like.
	if ($favour)
	{
		# Not more than 15 % slower; up to 30 % faster: the throttle lets
		# a read after an idle gap through its slice's allowance first,
		# a tenth of a second at the cap, and a night's count of 64 MB
		# lasts 0.6 s (127 MB/s in one whole run).
		cmp_ok($h->{read_mb_s}, '>=', 0.85 * $cap_mb_s,
			sprintf("... the byte cap's pace, %.1f MB/s, not more than 15 %% slower", $cap_mb_s));
		cmp_ok($h->{read_mb_s}, '<=', 1.30 * $cap_mb_s,
			"... nor more than 30 % faster (its allowance after an idle gap)");
	}
	is($h->{calls}, 1, '... one call');
}
my $settings = decode_json($node->safe_psql('postgres', 'SELECT settings FROM workload_checks ORDER BY id DESC LIMIT 1'));
is($settings->{enable_seqscan}, 'on', 'the settings of the check are kept (enable_seqscan on)');
my $judged = json_rows("SELECT * FROM workload_history_judge() WHERE queryid = $queryid");
is($judged->[0]{earlier_checks}, 3, 'the fourth night is judged against three earlier checks');
is($judged->[0]{status}, 'ok', "... ok ($judged->[0]{message})");

# ---- the change: an index scan, reading at random ----
$node->safe_psql('postgres', q{
	ALTER SYSTEM SET enable_seqscan = off;
	SELECT pg_reload_conf();
});
cold();
like($node->safe_psql('postgres', "EXPLAIN $q1"), qr/Index Scan using wl_k/, 'the first count is now an index scan');
$node->safe_psql('postgres', $_) for ($q1, $q2);
($ret, $out, $err) = check();
isnt($ret, 0, 'night 5: the check fails');
like($err, qr/ERROR:  SB003: query $queryid \(SELECT count\(\*\), sum\(g\) FROM wl WHERE k < \$1\) read at [\d.]+ % of the \w+ reference, [\d.]+ % below the 30-day median [\d.]+ % of 4 earlier checks/,
	'... SQLSTATE SB003, naming the first count and its drop') or diag($err);
my ($line) = $err =~ /^.*?(ERROR:.*)$/m;
like($line, qr/: enable_seqscan off, before on;/, '... the settings that changed') or diag($err);
like($line, qr/it reads \d+ blocks a call, before \d+|its reads are now nearest random/, '... and the plan') or diag($err);
unlike($line, qr/query $queryid2\b/, '... not the other count');
like($err, qr/HINT:  SELECT \* FROM workload_history_judge\(\d+\) judges each query/, '... the hint says where to look');
is((split / /, counts())[0], 6, 'the check is recorded all the same');

$judged = json_rows("SELECT * FROM workload_history_judge()");
my ($j1) = grep { $_->{queryid} == $queryid } @$judged;
my ($j2) = grep { $_->{queryid} == $queryid2 } @$judged;
is($j1->{status}, 'alarm', "workload_history_judge: the first count, alarm ($j1->{drop_pct} % below)");
ok((grep { $_ eq 'settings' } @{ $j1->{changes} }) && (grep { $_ eq 'plan' } @{ $j1->{changes} }),
	'... changes: ' . join(',', @{ $j1->{changes} }));
ok((grep { ($_->{reference} // '') eq $j1->{compared_reference} } @$hist),
	"... held against a reference it was nearest before ($j1->{compared_reference})");
isnt($j2->{status}, 'alarm', "the other count is not an alarm ($j2->{status}, $j2->{drop_pct} %)");

# The metrics carry the judgement.
my $metrics = $node->safe_psql('postgres', 'SELECT scanbench_metrics()');
like($metrics, qr/^scanbench_workload_status_info\{queryid="$queryid",database="postgres",role="\w+",toplevel="true",status="alarm",changes="[a-z,]*plan[a-z,]*"\} 1$/m,
	'scanbench_metrics: the first count\'s alarm') or diag($metrics);
like($metrics, qr/^scanbench_workload_drop_percent\{queryid="$queryid",[^}]*\} [\d.]+$/m, '... and its drop');

$node->safe_psql('postgres', q{
	ALTER SYSTEM RESET enable_seqscan;
	SELECT pg_reload_conf();
});

# ---- a role granted as documented ----
$node->safe_psql('postgres', 'CREATE ROLE checker LOGIN');
($ret, $out, $err) = check(extra_params => [ '-U', 'checker' ]);
isnt($ret, 0, 'a role without the grants: refused');
like($err, qr/permission denied for procedure workload_check/, '... saying so');
is((split / /, counts())[0], 6, '... nothing recorded');
$node->safe_psql('postgres', q{
	GRANT pg_monitor TO checker;
	GRANT EXECUTE ON PROCEDURE workload_check TO checker;
	GRANT EXECUTE ON FUNCTION workload_snapshot(), scanbench_internal.workload_check_record,
	                          scanbench_internal.scan_history_in_block() TO checker;
	GRANT INSERT, DELETE ON workload_snapshots, workload_io_snapshots TO checker;
	GRANT INSERT ON workload_checks, workload_history TO checker;
	GRANT USAGE ON SEQUENCE workload_snapshot_id_seq, workload_checks_id_seq TO checker;
	GRANT USAGE ON SCHEMA pgss TO checker;
});
$node->safe_psql('postgres', $q2);
($ret, $out, $err) = check(extra_params => [ '-U', 'checker' ]);
is($ret, 0, 'granted: the check runs') or diag($err);
is($node->safe_psql('postgres', 'SELECT recorded_by FROM workload_checks ORDER BY id DESC LIMIT 1'), 'checker',
	'... recorded by checker');

# ---- a check that fails or is cancelled while it records ----
my $before = counts();
my $last = $node->safe_psql('postgres', 'SELECT max(id) FROM workload_checks');
$node->safe_psql('postgres', q{
	CREATE FUNCTION wl_fail() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF current_setting('wl.mode', true) = 'sleep' THEN
			PERFORM pg_sleep(60);
		END IF;
		RAISE EXCEPTION 'the disk is full';
	END $$;
	CREATE TRIGGER wl_fail BEFORE INSERT ON workload_history
		FOR EACH STATEMENT EXECUTE FUNCTION wl_fail();
});
$node->safe_psql('postgres', $q2);
($ret, $out, $err) = check();
isnt($ret, 0, 'a check whose record fails');
like($err, qr/the disk is full/, '... fails with the error');
is(counts(), $before, '... and leaves no check, no history and no snapshot');
$node->safe_psql('postgres', $q2);
($ret, $out, $err) = $node->psql('postgres', "SET wl.mode = 'sleep'; SET statement_timeout = '2s'; CALL workload_check()");
isnt($ret, 0, 'a check cancelled while it records');
like($err, qr/canceling statement due to statement timeout/, '... is cancelled');
is(counts(), $before, '... and leaves nothing of itself');
$node->safe_psql('postgres', 'DROP TRIGGER wl_fail ON workload_history');
($ret, $out, $err) = check();
is($ret, 0, 'the next check passes') or diag($err);
is($node->safe_psql('postgres', "SELECT from_snapshot = (SELECT to_snapshot FROM workload_checks WHERE id = $last) FROM workload_checks ORDER BY id DESC LIMIT 1"),
	't', '... starting from the last check recorded');
cmp_ok($node->safe_psql('postgres', "SELECT calls FROM workload_history WHERE queryid = $queryid2 ORDER BY check_id DESC LIMIT 1"),
	'>=', 2, '... its figures count the calls of the failed checks\' intervals');

$node->stop;
done_testing();
