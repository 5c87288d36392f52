# random_read reads the number of blocks asked for, all inside the
# relation, aligned; cold starts cold; more reads than blocks repeat.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;
use Time::HiRes qw(time);

my $node = PostgreSQL::Test::Cluster->new('random_read');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE r AS SELECT g, md5(g::text) AS v FROM generate_series(1, 100000) g;
	CREATE TABLE p (g int) PARTITION BY RANGE (g);
	CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (1000);
	CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (1000) TO (100000);
	INSERT INTO p SELECT generate_series(0, 99999);
});
my $size = $node->safe_psql('postgres', "SELECT pg_relation_size('r')");
my $blocks = $size / 8192;

for my $bs (8192, 4096, 65536)
{
	my $n = $bs == 65536 ? 50 : 500;
	my ($reads, $bytes, $min, $max, $iops, $p50, $p99, $cached, $rep) = split /\|/,
	  $node->safe_psql('postgres', qq{
		SELECT reads, bytes, min_offset, max_offset, iops, latency_p50_us,
		       latency_p99_us, cached_pct_before, repeats
		FROM random_read('r', 'cold', $n, $bs)});
	is($reads, $n, "bs $bs: $n reads");
	is($bytes, $n * $bs, "bs $bs: $n blocks of $bs bytes");
	cmp_ok($min, '>=', 0, "bs $bs: lowest offset $min is inside");
	cmp_ok($max + $bs, '<=', $size, "bs $bs: highest read ends inside ($max + $bs <= $size)");
	is($min % $bs + $max % $bs, 0, "bs $bs: offsets are aligned");
	ok($iops > 0 && $p50 > 0 && $p99 >= $p50, "bs $bs: $iops IOPS, p50 $p50 us, p99 $p99 us");
	cmp_ok($cached, '<', 5, "bs $bs: cold ($cached % cached before)");
	is($rep, 'f', "bs $bs: no block read twice");
}

# As many reads as blocks: every block once, so the whole span.
my ($min, $max, $rep) = split /\|/, $node->safe_psql('postgres',
	"SELECT min_offset, max_offset, repeats FROM random_read('r', reads => $blocks)");
is($min, 0, 'reads = blocks: the first block is read');
is($max, $size - 8192, '... and the last');
is($rep, 'f', '... each once');
($rep) = $node->safe_psql('postgres',
	"SELECT repeats FROM random_read('r', reads => " . ($blocks * 2) . ", cache => 'warm')");
is($rep, 't', 'more reads than blocks: repeats');

# A partitioned table: reads spread over the members, each inside its own.
my $psize = $node->safe_psql('postgres',
	"SELECT max(pg_relation_size(c)) FROM unnest('{p1,p2}'::regclass[]) c");
my ($preads, $pmax) = split /\|/, $node->safe_psql('postgres',
	"SELECT reads, max_offset FROM random_read('p', reads => 200)");
is($preads, 200, 'partitioned: 200 reads');
cmp_ok($pmax + 8192, '<=', $psize, 'partitioned: inside the members');

# O_DIRECT: the reads asked for, or a clear refusal where the filesystem
# has none.
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT reads, cache FROM random_read('r', 'direct', 100, 8192)");
	if ($ret == 0)
	{
		is($out, '100|direct', 'direct: 100 reads with O_DIRECT');
	}
	else
	{
		like($err, qr/refuses O_DIRECT/, 'direct: a clear refusal on this filesystem');
	}
}

# Read-only: the relation's files are unchanged.
my $sum = $node->safe_psql('postgres', "SELECT md5(string_agg(v, '' ORDER BY g)) FROM r");
$node->safe_psql('postgres', "SELECT * FROM random_read('r', 'asis', 1000, 8192)");
is($node->safe_psql('postgres', "SELECT md5(string_agg(v, '' ORDER BY g)) FROM r"), $sum,
	'the data is unchanged');

# Empty relation: an error that says so, not a row of no reads.
$node->safe_psql('postgres', 'CREATE TABLE e (x int)');
my ($erc, $eout, $eerr) = $node->psql('postgres', "SELECT reads FROM random_read('e')");
isnt($erc, 0, 'an empty relation: refused');
like($eerr, qr/"e" is empty: there is nothing to read/, 'an empty relation: the error says so');

# Cancel: statement_timeout stops it at once, and no descriptor on the
# relation's files is left open.  A session of its own, so that its
# descriptors can be counted; the server's own file cache (md.c) keeps
# one per segment, so the baseline is taken after a complete call.
my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('r')");
my ($session, $pid) = fd_session($node);
$session->query_safe("SELECT count(*) FROM r");
$session->query_safe("SELECT reads FROM random_read('r', reads => 100)");
my $fds_before = open_fds($pid, qr{/$filenode(\.\d+)?$});
for my $cache ('asis', 'cold')
{
	my $t0 = time();
	$session->query("SET statement_timeout = '200ms'; SELECT * FROM random_read('r', reads => 10000000, cache => '$cache')");
	my $elapsed = time() - $t0;
	my $stderr = $session->{stderr};
	$session->query("RESET statement_timeout");
	$stderr .= $session->{stderr};
	like($stderr, qr/canceling statement due to statement timeout/,
		"$cache: statement_timeout stops random_read");
	SKIP:
	{
		skip 'wall-clock check: set PG_TEST_EXTRA=scanbench_slow', 1
		  unless ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;
		cmp_ok($elapsed, '<', 3, sprintf("%s: within %.2f s", $cache, $elapsed));
	}
	is(open_fds($pid, qr{/$filenode(\.\d+)?$}), $fds_before, "$cache: no descriptor left open ($fds_before before)");
}
$session->quit;

$node->stop;
done_testing();
