# Cache control: cold is cold, warm is warm, for a table larger than
# shared_buffers/4 (scanned through a ring buffer) and one smaller (kept in
# shared_buffers); eviction never loses a dirty page nor takes a pinned one.
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
