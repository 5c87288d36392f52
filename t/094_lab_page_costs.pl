# page_costs against known answers: the cluster's reads of its disk under
# a control group's byte limit B and request limit N.  A sequential page
# then takes 8192 / B (the read-ahead's requests are a few MB, far under
# N a second), a random page read alone 1 / N (its 8 kB are far under B),
# so the ratio is B / (8192 N) and, with nothing cached, so is the
# recommended random_page_cost.  Random pages at any depth come at N a
# second, so the depth recommended is 1.  Each page time within 10 % of its
# answer, the ratio and the recommendation within 15 %, the verdict
# judged.  Skips, saying why, where control groups are missing; runs with
# PG_TEST_EXTRA=scanbench_slow (it times reads, and takes the lab lock).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbCold;
use SbLab;

plan skip_all => 'times reads in the lab: set PG_TEST_EXTRA=scanbench_slow'
  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
my $why = lab_why();
plan skip_all => "no control groups here: $why" if defined $why;

my $node = PostgreSQL::Test::Cluster->new('lab_page_costs');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
# About 460 MB: two rounds a pass at 40 MiB/s, each side a second long.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE UNLOGGED TABLE p (g int, pad text);
	INSERT INTO p SELECT g, repeat('x', 200) FROM generate_series(1, 2000000) g;
	VACUUM (FREEZE) p;
	CHECKPOINT;
});
sub row { my ($r) = expanded_row($node, @_); return $r; }

sub within
{
	my ($got, $known, $pct, $what) = @_;
	cmp_ok(abs($got - $known) / $known * 100, '<=', $pct,
		sprintf('%s: %s, known %.1f (within %d %%)', $what, $got, $known, $pct));
}

for my $cell ([40, 100], [20, 400])
{
	my ($mib, $iops) = @$cell;
	my $seq_us = 8192 / ($mib * 1048576) * 1e6;
	my $random_us = 1e6 / $iops;
	my $ratio = $random_us / $seq_us;
	my $name = "$mib MiB/s, $iops requests/s";

	# The restart starts a new postmaster: the group is made after it.
	cold_table($node, 'p');
	my $lab = lab_new($node);
	$lab->limit($mib, 0, $iops);
	my $r = row("SELECT * FROM page_costs('p', max_seconds => 200)");
	note("$name: " . join(', ', map { "$_ $r->{$_}" } sort keys %$r));
	cmp_ok($r->{cached_pct_before}, '<', 5, "$name: cold before the call");
	within($r->{seq_page_us}, $seq_us, 10, "$name: a sequential page, us");
	within($r->{random_page_us}, $random_us, 10, "$name: a random page, us");
	within($r->{ratio}, $ratio, 15, "$name: the ratio");
	within($r->{recommended_random_page_cost}, $ratio, 15, "$name: random_page_cost");
	is($r->{verdict}, '{ok}', "$name: judged");
	# At any depth the request limit is the rate: the depth needed is 1.
	my @depths = $r->{depths} =~ /(\d+)/g;
	my @rates = $r->{depth_pages_s} =~ /([0-9.e+]+)/g;
	for my $i (grep { $depths[$_] <= 16 } 0 .. $#depths)
	{
		within($rates[$i], $iops, 10, "$name: random pages/s at depth $depths[$i]");
	}
	is($r->{recommended_effective_io_concurrency}, 1, "$name: effective_io_concurrency 1");
	$lab->limit(0, 0, 0);
}

$node->stop;
done_testing();
