# Cache control: cold is cold, warm is warm, for a table larger than
# shared_buffers/4 (scanned through a ring buffer: warm is the page cache
# alone) and one smaller (kept in shared_buffers); eviction never loses a
# dirty page nor takes a pinned one.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('cache');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE small AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 20000) g;
	CREATE TABLE large AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 600000) g;
	VACUUM (FREEZE, ANALYZE) small, large;
});
my $sb_pages = 32 * 1024 * 1024 / 8192;
for my $t ([ 'small', '<' ], [ 'large', '>' ])
{
	my ($tab, $cmp) = @$t;
	my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('$tab') / 8192");
	ok($cmp eq '<' ? $pages < $sb_pages / 4 : $pages > $sb_pages / 4,
		"$tab: $pages pages $cmp shared_buffers/4");

	# Alternate warm and cold so that each cold call follows a warm pass.
	for my $round (1 .. 2)
	{
		my $warm = $node->safe_psql('postgres',
			"SELECT cached_pct_before FROM raw_read('$tab', cache => 'warm')");
		cmp_ok($warm, '>', 95, "$tab round $round: raw_read warm is warm ($warm %)");
		my $cold = $node->safe_psql('postgres',
			"SELECT cached_pct_before FROM raw_read('$tab', cache => 'cold')");
		cmp_ok($cold, '<', 5, "$tab round $round: raw_read cold is cold ($cold %)");

		$warm = $node->safe_psql('postgres',
			"SELECT cached_pct_before FROM scan_rate('$tab', 'warm')");
		cmp_ok($warm, '>', 95, "$tab round $round: scan_rate warm is warm ($warm %)");
		my ($c, $os, $buf, $read) = split /\|/, $node->safe_psql('postgres',
			"SELECT cached_pct_before, os_cached_pct_before, buffers_cached_pct_before, shared_read
			 FROM scan_rate('$tab', 'cold')");
		cmp_ok($c, '<', 5, "$tab round $round: scan_rate cold is cold ($c %)");
		cmp_ok($buf, '<', 5, "$tab round $round: not in shared_buffers ($buf %)");
		cmp_ok($read, '>=', $pages * 0.95, "$tab round $round: the cold scan read its pages from outside");
	}
}

# Warm, a table scanned through a ring is read from the page cache, none
# of it from shared_buffers, whatever earlier passes left there: each
# stretch's own ring leaves its last blocks in the pool, and a long call's
# later stretches would otherwise find more of their blocks there than its
# first ones (the warm figure rose 12 % in a call).  A table that fits
# keeps its blocks in shared_buffers, where the untimed pass put them.
for my $t ([ 'large', 0 ], [ 'small', 1 ])
{
	my ($tab, $fits) = @$t;
	my ($pairs, $bufs) = split /\|/, $node->safe_psql('postgres', qq{
		SELECT pairs FROM scan_efficiency('$tab', 'warm', target_pct => 0);
		SELECT count(*) || '|' || string_agg(DISTINCT coalesce(b_buffers_pct::text, 'null'), ',')
		FROM scan_pairs() WHERE a_buffers_pct IS NULL});
	my ($n) = split /\n/, $pairs;
	if ($fits)
	{
		like($bufs, qr/^(9[5-9](\.\d)?|100)(,(9[5-9](\.\d)?|100))*$/,
			"$tab, warm pairs: each stretch in shared_buffers before its scan ($bufs %)");
	}
	else
	{
		is($bufs, '0', "$tab, warm pairs: no stretch in shared_buffers before its scan ($bufs %)");
	}
	my $asis = $node->safe_psql('postgres',
		"SELECT buffers_cached_pct_before FROM scan_rate('$tab', 'asis')");
	cmp_ok($asis, '>', 0, "$tab: the pairs left some of it in shared_buffers ($asis %)");
	my $warm = $node->safe_psql('postgres',
		"SELECT buffers_cached_pct_before FROM scan_rate('$tab', 'warm')");
	cmp_ok($warm, $fits ? '>' : '==', $fits ? 95 : 0,
		"$tab: scan_rate warm finds " . ($fits ? 'all' : 'none') . " of it in shared_buffers ($warm %)");
}

# A small table stays in shared_buffers after a scan: asis sees it there.
$node->safe_psql('postgres', "SELECT count(*) FROM small");
my $buf = $node->safe_psql('postgres',
	"SELECT buffers_cached_pct_before FROM scan_rate('small', 'asis')");
cmp_ok($buf, '>', 95, "asis: small table found in shared_buffers ($buf %)");

# Dirty buffers are written, never dropped: the update survives eviction.
$node->safe_psql('postgres', "UPDATE small SET v = 'updated' WHERE id % 10 = 0");
$node->safe_psql('postgres', "SELECT * FROM scan_rate('small', 'cold')");
is($node->safe_psql('postgres', "SELECT count(*) FROM small WHERE v = 'updated'"),
	'2000', 'updated rows are still there after a cold scan evicted them');
$node->safe_psql('postgres', "SELECT * FROM raw_read('small', cache => 'cold')");
is($node->safe_psql('postgres', "SELECT count(*) FROM small WHERE v = 'updated'"),
	'2000', 'and after the page cache was dropped');

# A pinned buffer is left alone, and its holder goes on undisturbed.
my $holder = $node->background_psql('postgres');
$holder->query_safe("BEGIN; DECLARE c CURSOR FOR SELECT * FROM small; FETCH 1 FROM c;");
my ($after, $rows) = split /\|/, $node->safe_psql('postgres',
	"SELECT buffers_cached_pct_before, rows FROM scan_rate('small', 'cold')");
cmp_ok($after, '>', 0, "a pinned page stays in shared_buffers ($after %)");
is($rows, '20000', 'the scan still counts every row');
my @rest = split /\n/, $holder->query_safe("FETCH 5 FROM c");
is(scalar(@rest), 5, 'the cursor reads on after the eviction');
$holder->query_safe("COMMIT");

# Other sessions' temp tables are refused; our own work.
$holder->query_safe("CREATE TEMP TABLE theirs AS SELECT 1 AS x");
my $oid = $holder->query_safe("SELECT 'theirs'::regclass::oid");
$oid =~ s/\s+//g;
my ($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM raw_read($oid)");
isnt($ret, 0, 'raw_read of another session\'s temp table fails');
like($err, qr/cannot measure temporary tables of other sessions/, '... with a clear message');
($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM scan_rate($oid)");
like($err, qr/cannot measure temporary tables of other sessions/, 'scan_rate refuses it too');
$holder->quit;

$node->stop;
done_testing();
