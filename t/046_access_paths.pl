# access_paths on a table with an index whose order is the heap's and one
# whose order is not: every path counts the same rows; a cold index scan
# reads about a heap page a row through the uncorrelated index and a page
# per page's worth of rows through the correlated one; each cold index
# path is held against random reads at its depth; warm runs read nothing.
# Cancellation leaves no descriptor open, the data is unchanged, and only
# a role granted EXECUTE and SELECT on the table may run it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;

my $node = PostgreSQL::Test::Cluster->new('access_paths');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
# About 26 MB, 3,300 pages of 30 rows; k is a permutation of id.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE a (id int, k int, pad text);
	INSERT INTO a SELECT g, (g * 7919) % 100000, repeat('x', 200) FROM generate_series(1, 100000) g;
	CREATE INDEX a_id ON a (id);
	CREATE INDEX a_k ON a (k);
	VACUUM (FREEZE, ANALYZE) a;
	CHECKPOINT;
});
my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('a') / 8192");
my $sum = $node->safe_psql('postgres', "SELECT md5(string_agg(pad || id || k, '' ORDER BY id)) FROM a");

my @cols = qw(path cache rows heap_pages_read index_pages_read run_s pages_s depth
  depth_kept random_pages_s path_pct pct_low pct_high rounds cached_pct_before verdict);

# access_paths' rows by "path cache", each a hash of the columns above.
sub rows
{
	my ($args) = @_;
	my $out = $node->safe_psql('postgres',
		'SELECT ' . join(', ', @cols) . " FROM access_paths($args)");
	my %by;
	for (split /\n/, $out)
	{
		my %r;
		@r{@cols} = split /\|/, $_, -1;
		$by{"$r{path} $r{cache}"} = \%r;
	}
	return \%by;
}

for my $case ([ 'a_k', 'uncorrelated' ], [ 'a_id', 'correlated' ])
{
	my ($idx, $what) = @$case;
	my $by = rows("'a', '$idx', selectivity => 0.002, max_seconds => 8");
	note("$what: " . join('; ', map { my $r = $by->{$_}; "$_: rows $r->{rows} heap $r->{heap_pages_read} index $r->{index_pages_read} run_s $r->{run_s} pages_s $r->{pages_s} random $r->{random_pages_s} pct $r->{path_pct} [$r->{pct_low}, $r->{pct_high}] rounds $r->{rounds} $r->{verdict}" } sort keys %$by));
	is_deeply([ sort keys %$by ],
		[ 'bitmap cold', 'bitmap warm', 'index cold', 'index warm', 'index_only cold',
		  'index_only warm', 'seq cold', 'seq warm' ], "$what: every path, cold and warm");
	my %counts = map { $_->{rows} => 1 } values %$by;
	is_deeply([ keys %counts ], [ 200 ], "$what: every path counts the 200 rows");
	cmp_ok($by->{'seq cold'}{heap_pages_read}, '>=', 0.95 * $pages, "$what: the cold seq scan reads the table");
	my $heap = $by->{'index cold'}{heap_pages_read};
	if ($what eq 'uncorrelated')
	{
		cmp_ok($heap, '>=', 190, "$what: an index scan reads a heap page about every row ($heap)");
	}
	else
	{
		cmp_ok($heap, '<=', 12, "$what: an index scan reads the rows' few pages ($heap)");
	}
	cmp_ok($by->{'index cold'}{index_pages_read}, '>=', 2, "$what: and index pages");
	# The server counts a relation's reads of every fork as its own: the
	# one page of the visibility map the scan consults is counted with the
	# heap when it was not in shared_buffers.
	cmp_ok($by->{'index_only cold'}{heap_pages_read}, '<=', 1,
		"$what: an index-only scan of a frozen table reads no heap page, its visibility map's page at most");
	for my $p ('index', 'index_only', 'bitmap')
	{
		my $c = $by->{"$p cold"};
		my $w = $by->{"$p warm"};
		cmp_ok($c->{cached_pct_before}, '<', 5, "$what, $p: cold after eviction");
		cmp_ok($c->{rounds}, '>=', 5, "$what, $p: rounds ($c->{rounds})");
		ok($c->{pct_low} <= $c->{path_pct} && $c->{path_pct} <= $c->{pct_high},
			"$what, $p: the interval holds the figure");
		my $reads = $c->{heap_pages_read} + $c->{index_pages_read};
		cmp_ok(abs($c->{pages_s} * $c->{run_s} - $reads), '<=', 0.02 * $reads + 0.5,
			"$what, $p: the page rate is the pages read over the run's time");
		is($w->{heap_pages_read} + $w->{index_pages_read}, 0, "$what, $p: warm reads nothing");
		is($w->{pages_s}, '', "$what, $p: and so has no page rate");
		is($c->{depth}, $p eq 'bitmap' ? $node->safe_psql('postgres', 'SHOW effective_io_concurrency') || 1 : 1,
			"$what, $p: the depth it keeps");
	}
	# From 19 the bitmap heap scan's read stream counts its look-ahead, as
	# EXPLAIN (ANALYZE, IO) shows it; before, nothing does.
	my $v19 = $node->safe_psql('postgres', 'SHOW server_version_num') >= 190000;
	if ($v19)
	{
		cmp_ok($by->{'bitmap cold'}{depth_kept}, '>', 0, "$what: 19 counts the bitmap heap scan's look-ahead");
	}
	else
	{
		is($by->{'bitmap cold'}{depth_kept}, '', "$what: no look-ahead counted before 19");
	}
	is($by->{'index cold'}{depth_kept}, '', "$what: an index scan has no read stream");
}

# Another index of the table is hidden from the planner: a path of the
# index asked for, not of one it prefers.
$node->safe_psql('postgres', 'CREATE INDEX a_k_id ON a (k, id)');
my $by = rows("'a', 'a_k', selectivity => 0.001, max_seconds => 5");
ok(exists $by->{'index cold'}, 'with a second index on k, the index scan is still a_k\'s');
$node->safe_psql('postgres', 'DROP INDEX a_k_id');

# Only the paths asked for.
$by = rows("'a', 'a_k', selectivity => 0.001, max_seconds => 5, paths => '{bitmap,index}'");
is_deeply([ sort keys %$by ], [ 'bitmap cold', 'bitmap warm', 'index cold', 'index warm' ],
	'paths: only those asked for');

# Cancelled in the middle: no descriptor of the table's left open.
my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('a')");
my ($session, $pid) = fd_session($node);
$session->query_safe("SELECT count(*) FROM access_paths('a', 'a_k', max_seconds => 1)");
my $fds_before = open_fds($pid, qr{/$filenode(\.\d+)?$});
$session->query("SET statement_timeout = '400ms'; SELECT * FROM access_paths('a', 'a_k', selectivity => 0.01, max_seconds => 600)");
my $stderr = $session->{stderr};
$session->query("RESET statement_timeout");
$stderr .= $session->{stderr};
like($stderr, qr/canceling statement due to statement timeout/, 'statement_timeout stops it');
is(open_fds($pid, qr{/$filenode(\.\d+)?$}), $fds_before, "no descriptor left open ($fds_before before)");
# The planner's settings it changed are back.
my $settings = $session->query("SELECT current_setting('enable_seqscan') || current_setting('jit') || current_setting('max_parallel_workers_per_gather')");
$settings =~ s/\s+$//;
is($settings,
	$node->safe_psql('postgres', "SELECT current_setting('enable_seqscan') || current_setting('jit') || current_setting('max_parallel_workers_per_gather')"),
	'the session\'s settings are as they were');
$session->quit;

is($node->safe_psql('postgres', "SELECT md5(string_agg(pad || id || k, '' ORDER BY id)) FROM a"), $sum,
	'the data is unchanged');

$node->safe_psql('postgres', 'CREATE ROLE m LOGIN');
my ($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM access_paths('a', 'a_k')",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for function access_paths/, 'PUBLIC may not run it');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION access_paths(regclass, regclass, float8, float8, text[]) TO m');
($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM access_paths('a', 'a_k', max_seconds => 1)",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for table a/, 'granted, it still needs SELECT on the table');
$node->safe_psql('postgres', 'GRANT SELECT ON a TO m');
($ret, $out, $serr) = $node->psql('postgres', "SELECT count(*) FROM access_paths('a', 'a_k', max_seconds => 2)",
	extra_params => ['-U', 'm']);
is($out, '8', 'with SELECT on the table, its index is measured too');

$node->stop;
done_testing();
