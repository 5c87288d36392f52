# A table of thousands of partitions: eviction and residency make one pass
# over shared_buffers with a sorted lookup of the leaves, not a pass (or a
# linear search) per leaf.  Every leaf still ends cold, and dirty pages of
# every leaf are written, never dropped.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::RealBin;
use SbPartitions;

my $slow = ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
my $nparts = $slow ? 4000 : 300;

my $node = PostgreSQL::Test::Cluster->new('many_leaves');
$node->init;
# Many buffers make a per-leaf pass expensive enough to see.
$node->append_conf('postgresql.conf', "shared_buffers = 1GB\nmax_locks_per_transaction = 256\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');
create_list_partitions($node, 'mp', $nparts);
$node->safe_psql('postgres', qq{
	INSERT INTO mp SELECT g, repeat('x', 100) FROM generate_series(1, $nparts) g;
	VACUUM (FREEZE, ANALYZE) mp;
});

# Warm, then cold: every leaf leaves shared_buffers and the page cache.
my $warm = $node->safe_psql('postgres',
	"SELECT buffers_cached_pct_before FROM scan_rate('mp', 'warm')");
cmp_ok($warm, '>', 95, "$nparts leaves: warm is in shared_buffers ($warm %)");
my ($rows, $c, $buf) = split /\|/, $node->safe_psql('postgres',
	"SELECT rows, cached_pct_before, buffers_cached_pct_before FROM scan_rate('mp', 'cold')");
is($rows, $nparts, 'cold: every leaf scanned');
cmp_ok($buf, '<', 5, "cold: no leaf left in shared_buffers ($buf %)");
cmp_ok($c, '<', 5, "cold: nor in the page cache ($c %)");

# Dirty pages in every leaf are written out before eviction.
$node->safe_psql('postgres', "UPDATE mp SET pad = 'dirty'");
$node->safe_psql('postgres', "SELECT * FROM scan_rate('mp', 'cold')");
is($node->safe_psql('postgres', "SELECT count(*) FROM mp WHERE pad = 'dirty'"),
	$nparts, 'updates in every leaf survive a cold call');

SKIP:
{
	skip 'timing with thousands of leaves: set PG_TEST_EXTRA=scanbench_slow', 1
	  unless $slow;

	# The buffer passes are what a cold scan_rate adds to a cold raw_read,
	# which does the same page cache work per file; the executor's share
	# is small with one row a leaf.  Looked up leaf by leaf, the passes
	# cost NBuffers × leaves and take longer than the rest.  Both calls
	# write out and drop thousands of files, whose fdatasync waits for the
	# filesystem's journal: another run on the machine (CI runs two majors
	# at once) moves either call by seconds, never down.  The fastest of
	# five alternating rounds a side is what each costs.
	my (@raw, @cold);
	for my $round (1 .. 5)
	{
		my %t;
		for my $what (
			[ raw => "SELECT * FROM raw_read('mp', cache => 'cold')" ],
			[ cold => "SELECT * FROM scan_rate('mp', 'cold')" ])
		{
			my ($name, $sql) = @$what;
			my $start = time;
			$node->safe_psql('postgres', $sql);
			$t{$name} = time - $start;
		}
		push @raw, $t{raw};
		push @cold, $t{cold};
		note sprintf("round %d: cold raw_read %.3f s, cold scan_rate %.3f s",
			$round, $t{raw}, $t{cold});
	}
	my ($raw_s) = sort { $a <=> $b } @raw;
	my ($cold_s) = sort { $a <=> $b } @cold;
	cmp_ok($cold_s / $raw_s, '<', 2.2,
		sprintf('cold scan_rate of %d leaves costs about a cold raw_read (fastest of five: %.3f s against %.3f s, ratio %.2f)',
			$nparts, $cold_s, $raw_s, $cold_s / $raw_s));
}

$node->stop;
done_testing();
