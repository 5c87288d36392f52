# On a hot standby (a streaming replica made with pg_basebackup), every
# function measures a permanent table, refuses an unlogged one as SELECT
# does, and what cannot be done there (recording a run) is refused before
# anything is measured.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE t AS SELECT g AS id, repeat('x', 100) AS pad FROM generate_series(1, 50000) g;
	CREATE UNLOGGED TABLE u AS SELECT g AS id FROM generate_series(1, 1000) g;
	CREATE TABLE p (id integer) PARTITION BY RANGE (id);
	CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (1) TO (1001);
	CREATE UNLOGGED TABLE p2 PARTITION OF p FOR VALUES FROM (1001) TO (2001);
	INSERT INTO p SELECT generate_series(1, 2000);
	VACUUM t;
	CHECKPOINT;
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 't', 'the standby is in recovery');

# Permanent tables: every function measures them.
for my $call (
	q{SELECT rows = 50000 FROM scan_rate('t', 'cold')},
	q{SELECT bytes > 0 FROM raw_read('t')},
	q{SELECT count(*) > 0 FROM raw_read_segments('t')},
	q{SELECT pairs > 0 AND scan_pct > 0 FROM scan_efficiency('t', 'cold', max_seconds => 5)},
	q{SELECT rows = 50000 FROM scan_breakdown('t', 'warm')},
	q{SELECT count(*) = 5 FROM scan_shapes('t')},
	q{SELECT reads = 100 FROM random_read('t', reads => 100)},
	q{SELECT count(*) > 0 FROM storage_info('t'::regclass)},
	q{SELECT count(*) = 5 FROM storage_profile('pg_default', 1, 8192, 10)})
{
	my ($rc, $out, $err) = $standby->psql('postgres', $call);
	is("$rc $out", '0 t', "standby: $call") or diag($err);
}

# Unlogged tables have no data on a standby: the executor's own error.
for my $call (
	q{SELECT * FROM scan_rate('u')},
	q{SELECT * FROM raw_read('u')},
	q{SELECT * FROM scan_efficiency('u')},
	q{SELECT * FROM random_read('u', reads => 10)},
	q{SELECT * FROM scan_rate('p')})
{
	my ($rc, $out, $err) = $standby->psql('postgres', $call);
	like($err, qr/cannot access temporary or unlogged relations during recovery/,
		"standby: $call is refused as SELECT refuses it");
	unlike($err, qr/could not open file/, "standby: $call ... not a missing file");
}
my ($rc, $out, $err) = $standby->psql('postgres', 'SELECT count(*) FROM u');
like($err, qr/cannot access temporary or unlogged relations during recovery/, 'the same words as SELECT');

# Recording a run cannot be done on a standby: said at once.
for my $call (
	q{SELECT * FROM scan_efficiency('t', 'cold', max_seconds => 30, record => true)},
	q{CALL efficiency_check('t', max_seconds => 30)})
{
	my $t0 = time;
	($rc, $out, $err) = $standby->psql('postgres', $call);
	my $took = time - $t0;
	like($err, qr/cannot record a run during recovery/, "standby: $call is refused");
	like($err, qr/HINT:.*scanbench-fleet --history=CONNINFO/, "standby: ... the hint names the fleet's central history");
	cmp_ok($took, '<', 5, sprintf('standby: ... before measuring (%.2f s)', $took));
}

$standby->stop;
$primary->stop;
done_testing();
