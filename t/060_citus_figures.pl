# A Citus distributed table is measured on its shard placements: the
# per-placement bytes add up to citus_relation_size and the rows to
# count(*), the cluster figure's bytes are their sum, and the coordinator's
# shell table (stale local rows after create_distributed_table, nothing
# after truncate_local_data_after_distributing_table) is never measured.
# Reference, Citus local and columnar tables are measured or refused
# clearly, and a plain table on a Citus cluster is still measured here.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbCitus;

SbCitus::require_citus();
my ($coord, $w1, $w2) = SbCitus::start_cluster('figures');
my ($ret, $out, $err);

# Local rows first, then distributed: the coordinator keeps the old rows
# on disk, invisible, until they are truncated.
$coord->safe_psql('postgres', q{
	CREATE TABLE t (id bigint, pad text);
	INSERT INTO t SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 120000) g;
	SELECT create_distributed_table('t', 'id', shard_count => 6);
});
my $shell = $coord->safe_psql('postgres', "SELECT pg_relation_size('t')");
my $cluster = $coord->safe_psql('postgres', "SELECT citus_relation_size('t')");
my $count = $coord->safe_psql('postgres', 'SELECT count(*) FROM t');
cmp_ok($shell, '>', 0, "the coordinator still holds stale local data ($shell bytes)");
is($count, '120000', 'count(*) through the coordinator');

sub check_figures
{
	my ($when) = @_;
	my ($bytes, $rows, $pct) = split /\|/, $coord->safe_psql('postgres',
		"SELECT bytes, rows, scan_pct FROM scan_efficiency('t', runs => 2, method => 'whole')");
	is($bytes, $cluster, "$when: cluster figure's bytes are citus_relation_size");
	is($rows, $count, "$when: cluster figure's rows are count(*)");
	cmp_ok($pct, '>', 0, "$when: the cluster figure is a figure ($pct %)");

	my ($sbytes, $srows, $nshards, $nbytes, $nrows, $nnodes) = split /\|/, $coord->safe_psql('postgres', q{
		SELECT sum(bytes) FILTER (WHERE level = 'shard'), sum(rows) FILTER (WHERE level = 'shard'),
		       count(*) FILTER (WHERE level = 'shard'),
		       sum(bytes) FILTER (WHERE level = 'node'), sum(rows) FILTER (WHERE level = 'node'),
		       count(*) FILTER (WHERE level = 'node')
		FROM scan_efficiency_shards('t')});
	is($sbytes, $cluster, "$when: placement bytes add up to citus_relation_size");
	is($srows, $count, "$when: placement rows add up to count(*)");
	is($nshards, '6', "$when: a row per placement");
	is($nnodes, '2', "$when: a row per node holding placements");
	is("$nbytes|$nrows", "$sbytes|$srows", "$when: node rows sum their placements");
	return $bytes;
}

my $before = check_figures('stale local data');
isnt($before, $shell, 'the shell table is not what was measured');

$coord->safe_psql('postgres', "SELECT truncate_local_data_after_distributing_table('t')");
is($coord->safe_psql('postgres', "SELECT pg_relation_size('t')"), '0',
	'local data truncated');
check_figures('after truncating local data');

# The cluster figure carries the single-server figure's interval and
# verdict: six pairs give an interval around the median.
my ($method, $pairs, $lo, $pct, $hi, $verdict, $coverage) = split /\|/, $coord->safe_psql('postgres',
	"SELECT method, pairs, scan_pct_lo, scan_pct, scan_pct_hi, verdict, coverage_pct
	 FROM scan_efficiency('t', 'warm', runs => 6, method => 'whole')");
is("$method|$pairs|$coverage", 'cluster|6|100', 'six pairs of whole-cluster passes');
# The cluster's own columns; filesystem and device are one server's.
is($coord->safe_psql('postgres',
	"SELECT citus_nodes, citus_placements = (SELECT count(*) FROM pg_dist_placement p JOIN pg_dist_shard s USING (shardid) WHERE s.logicalrelid = 't'::regclass),
			filesystem IS NULL AND device IS NULL
	 FROM scan_efficiency('t', 'warm', runs => 1, method => 'whole')"),
	'2|t|t', 'the cluster row: citus_nodes 2, citus_placements every placement, no filesystem or device');
ok($lo ne '' && $lo <= $pct && $pct <= $hi, "interval $lo <= $pct <= $hi");
like($verdict, qr/^\{(ok|unstable|storage_not_limiting|unstable,storage_not_limiting)\}$/,
	"a warm verdict ($verdict)");
# Sampling to a target stops within the time budget.
my ($elapsed, $npairs) = split /\|/, $coord->safe_psql('postgres',
	"SELECT elapsed_s, pairs FROM scan_efficiency('t', max_seconds => 2, target_pct => 0.01)");
SKIP:
{
	skip 'wall-clock check: set PG_TEST_EXTRA=scanbench_slow', 1
	  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
	cmp_ok($elapsed, '<=', 2.5, "the budget is honoured ($elapsed s, $npairs pairs)");
}
($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM scan_efficiency('t', sample => 0.5)");
like($err, qr/sample is not supported for a Citus table/, 'a sample of the cluster is refused');

# Each placement row names the node and shard that Citus names, with that
# placement's size there.
my $sizes = $coord->safe_psql('postgres', q{
	SELECT count(*) FROM scan_efficiency_shards('t', 'warm') s
	JOIN run_command_on_placements('t', 'SELECT pg_relation_size(''%s'')') r
	  ON r.shardid = s.shardid AND r.nodename || ':' || r.nodeport = s.node
	WHERE s.level = 'shard' AND r.result::bigint = s.bytes});
is($sizes, '6', "each placement's bytes are its table's size on its node");

my $slowest = $coord->safe_psql('postgres', q{
	SELECT bool_and(slowest_shard IS NOT NULL AND scan_mb_s > 0 AND read_mb_s > 0)
	FROM scan_efficiency_shards('t') WHERE level = 'node'});
is($slowest, 't', 'node rows name their slowest placement and have rates');

# The single-server functions refuse the shell with a pointer to these.
for my $f ("raw_read('t')", "raw_read_segments('t')", "scan_rate('t')")
{
	($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM $f");
	like($err, qr/cannot measure "t": it is a Citus distributed table.*HINT:.*scan_efficiency_shards/s,
		"$f refuses the coordinator's shell table");
}

# A plain table on the same coordinator is measured here, as without Citus.
$coord->safe_psql('postgres',
	'CREATE TABLE plain AS SELECT g AS id FROM generate_series(1, 10000) g');
is($coord->safe_psql('postgres', "SELECT rows FROM scan_efficiency('plain', method => 'whole')"),
	'10000', 'a plain table on a Citus coordinator is measured locally');
($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM scan_efficiency_shards('plain')");
like($err, qr/"plain" is not a Citus table/, 'scan_efficiency_shards refuses a plain table');

# Columnar (its own extension in recent Citus): refused by name, by both
# functions.
$coord->safe_psql('postgres', q{
	CREATE EXTENSION IF NOT EXISTS citus_columnar;
	CREATE TABLE col (id bigint, v text) USING columnar;
	INSERT INTO col SELECT g, 'x' FROM generate_series(1, 1000) g;
	SELECT create_distributed_table('col', 'id', shard_count => 2);
});
for my $f ("scan_efficiency('col')", "scan_efficiency_shards('col')")
{
	($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM $f");
	like($err, qr/tables with the columnar access method are not supported/,
		"$f refuses a columnar table");
}

# Reference table: one copy per node; the cluster figure is refused (count
# reads one copy), each copy is measured where it lives.
$coord->safe_psql('postgres', q{
	CREATE TABLE ref (id bigint, pad text);
	SELECT create_reference_table('ref');
	INSERT INTO ref SELECT g, md5(g::text) FROM generate_series(1, 5000) g;
});
($ret, $out, $err) = $coord->psql('postgres', "SELECT * FROM scan_efficiency('ref')");
like($err, qr/cluster figure of reference table "ref" is not supported.*HINT:.*scan_efficiency_shards/s,
	'scan_efficiency refuses a reference table with a pointer');
my ($copies, $allrows, $nodes) = split /\|/, $coord->safe_psql('postgres', q{
	SELECT count(*), bool_and(rows = 5000), count(DISTINCT node)
	FROM scan_efficiency_shards('ref') WHERE level = 'shard'});
my $placements = $coord->safe_psql('postgres', q{
	SELECT count(*) FROM pg_dist_placement JOIN pg_dist_shard USING (shardid)
	WHERE logicalrelid = 'ref'::regclass});
is($copies, $placements, "a row per copy of the reference table ($copies)");
is($allrows, 't', 'each copy holds every row');
is($nodes, $copies, 'each copy on its own node');

# Citus local table: its one placement is on the coordinator.
$coord->safe_psql('postgres', q{
	CREATE TABLE loc (id bigint, pad text);
	INSERT INTO loc SELECT g, md5(g::text) FROM generate_series(1, 7000) g;
	SELECT citus_add_local_table_to_metadata('loc');
});
my ($lbytes, $lrows) = split /\|/,
  $coord->safe_psql('postgres', "SELECT bytes, rows FROM scan_efficiency('loc', method => 'whole')");
is($lrows, '7000', 'Citus local table: the rows of its placement');
is($lbytes, $coord->safe_psql('postgres', "SELECT citus_relation_size('loc')"),
	'Citus local table: the bytes of its placement');

$_->stop for ($coord, $w1, $w2);
done_testing();
