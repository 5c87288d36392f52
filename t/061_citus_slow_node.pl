# A node made slower stands out: one worker's placements cold and its
# reads held to 40 MiB/s by the lab, while the other's are warm,
# scan_efficiency_shards(..., 'asis') gives the cold node the lower read
# rate, and the other way round when the roles swap.  The lab's limit
# makes the cold node slow for certain: a cold read here often comes
# from the VM host's cache as fast as a warm one.
# Timing-sensitive: runs only with scanbench_slow in PG_TEST_EXTRA.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbCitus;
use SbLab;

plan skip_all => 'timing-sensitive: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
# Citus first: where it is another major's to test, the file ends before
# asking the lab, whose check waits for the lab lock behind a measuring
# run (197 s in CI).
SbCitus::require_citus();
my $why = lab_why();
plan skip_all => "no control groups here: $why" if defined $why;
my ($coord, $w1, $w2) = SbCitus::start_cluster('slow');
my %lab = map { $_->port => lab_new($_) } ($w1, $w2);

# About 45 MB per worker: large enough that reading it takes a while.
$coord->safe_psql('postgres', q{
	CREATE TABLE t (id bigint, pad text);
	SELECT create_distributed_table('t', 'id', shard_count => 4);
	INSERT INTO t SELECT g, repeat(md5(g::text), 3) FROM generate_series(1, 640000) g;
	VACUUM (FREEZE, ANALYZE) t;
});

# Each worker's placements, as arguments of scan_efficiency_node().
my %args = map { $_->port => SbCitus::placement_args($coord, $_, 't') } ($w1, $w2);

for my $case ([ $w1, $w2 ], [ $w2, $w1 ])
{
	my ($warm, $cold) = @$case;
	my ($wname, $cname) = map { $_->name } ($warm, $cold);
	$lab{ $warm->port }->limit(0, 0);
	$lab{ $cold->port }->limit(40, 0);

	$warm->safe_psql('postgres',
		"SELECT scan_efficiency_node('read', 'warm', 8192, $args{ $warm->port })");
	$cold->safe_psql('postgres',
		"SELECT scan_efficiency_node('prepare', 'cold', 8192, $args{ $cold->port })");

	my $row = $coord->safe_psql('postgres', q{
		SELECT string_agg(node || '=' || read_mb_s || '/' || read_cached_pct, ' ' ORDER BY node)
		FROM scan_efficiency_shards('t', 'asis') WHERE level = 'node'});
	my %by = map { my ($n, $v) = split /=/; $n => [ split m{/}, $v ] } split / /, $row;
	my ($wr, $wc) = @{ $by{ 'localhost:' . $warm->port } };
	my ($cr, $cc) = @{ $by{ 'localhost:' . $cold->port } };
	cmp_ok($wc, '>', 95, "$wname warm before the read ($wc % cached)");
	cmp_ok($cc, '<', 5, "$cname cold before the read ($cc % cached)");
	cmp_ok($cr, '<', $wr, "cold $cname reads slower ($cr MB/s) than warm $wname ($wr MB/s)");
	cmp_ok($cr, '<=', 40 * 1.048576 * 1.1, "cold $cname within its limit of 40 MiB/s ($cr MB/s)");
}

$_->stop for ($coord, $w1, $w2);
done_testing();
