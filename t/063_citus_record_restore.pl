# scan_efficiency on a Citus table does what it was asked: record => true
# records the run once, restore => true puts back what every node's
# caches held of its placements (and records nothing), and
# efficiency_check, which measures with restore => true and records the
# run itself, leaves exactly one run and the caches as they were.  A
# write test (with_write) is refused: it would measure this server, not
# the nodes.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbCitus;

SbCitus::require_citus();
my ($coord, $w1, $w2) = SbCitus::start_cluster('record');
my ($ret, $out, $err);

$coord->safe_psql('postgres', q{
	CREATE TABLE t (id bigint, pad text);
	SELECT create_distributed_table('t', 'id', shard_count => 4);
	INSERT INTO t SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 60000) g;
	VACUUM (FREEZE, ANALYZE) t;
});

# Each worker's placements, as arguments of scan_efficiency_node(), so
# that each worker's caches are read there, apart from the call tested.
my %args = map { $_->port => SbCitus::placement_args($coord, $_, 't') } ($w1, $w2);

# The share of each worker's placements in either cache, by bytes, %.
sub cached
{
	my ($w) = @_;
	return $w->safe_psql('postgres', qq{
		SELECT round(sum((e->>'cached_pct')::float8 * (e->>'bytes')::bigint)
		             / sum((e->>'bytes')::bigint))
		FROM jsonb_array_elements(scan_efficiency_node('prepare', 'asis', 8192, $args{ $w->port })) e});
}

# Worker 1 holds its placements, worker 2 none: a restore must put back
# each node's own state, not one for all.
sub set_caches
{
	$w1->safe_psql('postgres',
		"SELECT scan_efficiency_node('scan', 'warm', 8192, $args{ $w1->port })");
	$w2->safe_psql('postgres',
		"SELECT scan_efficiency_node('prepare', 'cold', 8192, $args{ $w2->port })");
	cmp_ok(cached($w1), '>', 95, "$_[0]: worker 1 holds its placements");
	cmp_ok(cached($w2), '<', 5, "$_[0]: worker 2 holds none of its");
}

sub runs
{
	return $coord->safe_psql('postgres', 'SELECT count(*) FROM scan_history');
}

# record => true: one run in the history, the one returned.
set_caches('record');
my $row = $coord->safe_psql('postgres', q{
	SELECT method, scan_pct > 0, measured_at
	FROM scan_efficiency('t', runs => 2, method => 'whole', record => true)});
my ($method, $figure, $at) = split /\|/, $row;
is("$method|$figure", 'cluster|t', 'record => true: the cluster figure');
is(runs(), '1', 'record => true records exactly one run');
is($coord->safe_psql('postgres', "SELECT relname, method, measured_at = '$at' FROM scan_history"),
	"t|cluster|t", 'the recorded run is the one returned');

# restore => true: nothing recorded, each node's caches as they were.
set_caches('restore');
$row = $coord->safe_psql('postgres', q{
	SELECT round(cached_pct_start), round(cached_pct_end), round(restored_pct), restore_s >= 0
	FROM scan_efficiency('t', runs => 2, method => 'whole', restore => true)});
my ($start, $end, $restored, $timed) = split /\|/, $row;
cmp_ok(abs($start - $end), '<=', 2, "restore => true: the cluster's cached share back ($start % then $end %)");
cmp_ok($restored, '>=', 98, "restore => true: the blocks cached at the start are back ($restored %)");
is($timed, 't', 'restore => true: the restore is timed');
cmp_ok(cached($w1), '>', 95, 'restore => true: worker 1 holds its placements again');
cmp_ok(cached($w2), '<', 5, 'restore => true: worker 2 holds none again');
is(runs(), '1', 'restore => true records nothing');

# Without restore, the row still says what the caches held before and after.
$row = $coord->safe_psql('postgres', q{
	SELECT cached_pct_start IS NOT NULL, cached_pct_end IS NOT NULL, restored_pct IS NULL
	FROM scan_efficiency('t', runs => 1, method => 'whole')});
is($row, 't|t|t', 'without restore: cached_pct_start and cached_pct_end, no restored_pct');

# efficiency_check: measures with restore => true, records once.
set_caches('efficiency_check');
$coord->safe_psql('postgres',
	"CALL efficiency_check('t', method => 'whole', runs => 2, max_drop_pct => 90)");
is(runs(), '2', 'efficiency_check records exactly one run');
cmp_ok(cached($w1), '>', 95, 'efficiency_check: worker 1 holds its placements again');
cmp_ok(cached($w2), '<', 5, 'efficiency_check: worker 2 holds none again');

# A write test on a Citus table is refused before anything is measured.
($ret, $out, $err) = $coord->psql('postgres',
	"SELECT * FROM scan_efficiency('t', with_write => true, record => true)");
like($err, qr/with_write is not supported for a Citus table/, 'with_write is refused');
is(runs(), '2', 'a refused call records nothing');

$_->stop for ($coord, $w1, $w2);
done_testing();
