# A stretch's scan takes the 32 buffers of its ring from anywhere in
# shared_buffers, and a backend maps a page of shared memory into its own
# page tables, with a page fault, only when it first touches it: a warm
# call's first pairs paid two faults a buffer in every timed scan (23 to
# 58 us each on a small VM, a quarter of an 8 MB stretch's scan) and a long
# call's later ones did not, so a short call and a long one disagreed.
# scan_efficiency maps the shared memory before its pairs (src/cache.c):
# in a session that has touched none of shared_buffers, its timed passes
# take no page fault, as scan_pairs() counts them.  Without the mapping
# the timed scans here took 155 faults in 12 pairs, up to 64 in one (and
# the test failed); with it, 1.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('mapped');
$node->init;
# 16 MB: the 30 MB table is scanned through a ring of 32 buffers, as a
# table of more than a quarter of shared_buffers is.
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE EXTENSION pg_prewarm;
	CREATE TABLE t AS SELECT g, repeat('x', 250) AS pad FROM generate_series(1, 100000) g;
	VACUUM (FREEZE, ANALYZE) t;
});
# Every buffer used by another session: the rings' buffers are then ones
# this session has never touched.
$node->safe_psql('postgres', q{SELECT pg_prewarm('t')});

my ($pairs, $scans, $faults, $most, $reads) = split /\|/, $node->safe_psql('postgres', q{
	SELECT pairs FROM scan_efficiency('t', 'warm', target_pct => 0) \gset
	SELECT :pairs, count(*), sum(b_faults), max(b_faults), sum(a_faults) FROM scan_pairs();
});
note("$pairs pairs: $faults page faults in the timed scans (at most $most in one), $reads in the timed raw reads");
ok($pairs >= 10 && $scans == $pairs, "a warm call of $pairs pairs, each in scan_pairs()");
cmp_ok($most, '<', 8, '... whose timed scans take no page fault to speak of: the shared memory was mapped before them');
cmp_ok($reads, '<', 8 * $pairs, '... nor their raw reads');

$node->stop;
done_testing();
