# index_crossover on a table with an index whose order is the heap's and
# one whose order is not: through the uncorrelated one the crossover is
# found, within its interval, and the planner's choices at half and twice
# it agree with its own crossover; the correlated one is marked and given
# no setting.  A tablespace's own random_page_cost is in force for the
# planner's figures, and a setting tried is costed past it.  Cancellation
# leaves no descriptor open and the session's settings as they were, the
# data is unchanged, and only a role granted EXECUTE and SELECT on the
# table may run it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;

my $node = PostgreSQL::Test::Cluster->new('index_crossover');
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
my $sum = $node->safe_psql('postgres', "SELECT md5(string_agg(pad || id || k, '' ORDER BY id)) FROM a");

my @cols = qw(rounds seq_s correlation crossover_rows crossover_selectivity crossover_low crossover_high
  planner_crossover random_page_cost planned_at_half planned_at_twice matching_random_page_cost
  matching_low matching_high checked_random_page_cost checked_crossover checked_at_half
  checked_at_twice command verdict);

sub crossover
{
	my ($args) = @_;
	my %r;
	@r{@cols} = split /\|/,
	  $node->safe_psql('postgres', 'SELECT ' . join(', ', @cols) . " FROM index_crossover($args)"), -1;
	note("index_crossover($args): " . join(', ', map { "$_ $r{$_}" } @cols));
	return \%r;
}

# The uncorrelated index: a crossover between no row and every row.
my $r = crossover("'a', 'a_k', max_seconds => 20");
cmp_ok($r->{rounds}, '>=', 1, 'rounds were run');
cmp_ok($r->{crossover_selectivity}, '>', 0, 'a crossover above no row');
cmp_ok($r->{crossover_selectivity}, '<', 1, 'and below every row');
ok(abs($r->{crossover_rows} / 100000 - $r->{crossover_selectivity}) < 1e-5,
	'the crossover is its rows over the table\'s');
ok($r->{crossover_low} eq '' || ($r->{crossover_low} <= $r->{crossover_selectivity}
	  && $r->{crossover_selectivity} <= $r->{crossover_high}), 'within its interval');
cmp_ok(abs($r->{correlation}), '<', 0.1, 'the key is uncorrelated with the heap');
unlike($r->{verdict}, qr/correlated/, 'not marked correlated');
is($r->{random_page_cost}, '4', 'the setting in force is given');

# The planner's choices at half and at twice the measured crossover are
# those its own crossover implies, under the setting in force and under
# the one checked.
for my $which (['planned', 'planner_crossover'], ['checked', 'checked_crossover'])
{
	my ($prefix, $col) = @$which;
	next if $r->{$col} eq '';
	is($r->{"${prefix}_at_half"}, $r->{$col} > $r->{crossover_selectivity} / 2 ? 'index' : 'seq',
		"$prefix: the choice at half the crossover follows $col $r->{$col}");
	is($r->{"${prefix}_at_twice"}, $r->{$col} > 2 * $r->{crossover_selectivity} ? 'index' : 'seq',
		"$prefix: the choice at twice the crossover follows $col");
}
is($r->{verdict} =~ /misplanned/ ? 1 : 0,
	($r->{planned_at_half} ne 'index' || $r->{planned_at_twice} ne 'seq') ? 1 : 0,
	"misplanned exactly when a choice is the slower ($r->{verdict})");
# A setting given is the one checked; a higher one makes the planner
# switch earlier.  The table is out of the caches by now (the first call
# found it there, as loaded): the setting that matches the crossover is
# given, and puts the planner's crossover on it.
my $lo = crossover("'a', 'a_k', max_seconds => 5, random_page_cost => 1.5");
my $hi = crossover("'a', 'a_k', max_seconds => 5, random_page_cost => 50");
is($lo->{checked_random_page_cost}, '1.5', 'the setting given is checked');
cmp_ok($hi->{checked_crossover}, '<', $lo->{checked_crossover},
	'a higher random_page_cost moves the planner\'s crossover down');
my $m = crossover("'a', 'a_k', max_seconds => 10");
unlike($m->{verdict}, qr/cached|over_budget/, "out of the caches, judged ($m->{verdict})");
isnt($m->{matching_random_page_cost}, '', 'a setting matches the crossover');
is($m->{checked_random_page_cost}, $m->{matching_random_page_cost}, 'and is the one checked');
# Within the halving's 1 %, a rounding of the setting, and the crossover's
# own rounding to six places.
cmp_ok(abs($m->{checked_crossover} / $m->{crossover_selectivity} - 1), '<', 0.05,
	'the matching setting moves the planner\'s crossover onto the measured one');
ok($m->{matching_low} <= $m->{matching_random_page_cost}
	  && $m->{matching_random_page_cost} <= $m->{matching_high},
	'the matching setting is within its range');
is("$m->{checked_at_half} $m->{checked_at_twice}", 'index seq',
	'under it the planner takes the faster path at half and at twice');
like($m->{command}, qr/^ALTER TABLESPACE pg_default SET \(random_page_cost = [0-9.]+\)$/,
	'the command sets it for the table\'s tablespace');

# The correlated index: marked, no setting matched.
$r = crossover("'a', 'a_id', max_seconds => 5");
cmp_ok($r->{correlation}, '>', 0.99, 'the key follows the heap');
like($r->{verdict}, qr/correlated/, 'marked correlated');
is($r->{matching_random_page_cost} . $r->{command}, '', 'no setting matched, no command');

# A tablespace with its own random_page_cost: in force for the planner's
# crossover, and a setting tried is costed past it.
my $dir = PostgreSQL::Test::Utils::tempdir_short();
$node->safe_psql('postgres', qq{
	CREATE TABLESPACE slow LOCATION '$dir';
	ALTER TABLESPACE slow SET (random_page_cost = 400);
	ALTER TABLE a SET TABLESPACE slow;
	ALTER INDEX a_k SET TABLESPACE slow;
});
my $in_slow = crossover("'a', 'a_k', max_seconds => 5, random_page_cost => 1.5");
is($in_slow->{random_page_cost}, '400', 'the tablespace\'s own setting is the one in force');
cmp_ok($in_slow->{planner_crossover}, '<', $lo->{planner_crossover},
	'and the planner\'s crossover follows it');
is($in_slow->{checked_crossover}, $lo->{checked_crossover},
	'a setting tried costs the table as in a tablespace without its own');
$node->safe_psql('postgres', q{
	ALTER TABLE a SET TABLESPACE pg_default;
	ALTER INDEX a_k SET TABLESPACE pg_default;
	DROP TABLESPACE slow;
});

# Cancelled in the middle: no descriptor of the table's left open, the
# session's settings as they were.
my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('a')");
my ($session, $pid) = fd_session($node);
$session->query_safe("SELECT count(*) FROM index_crossover('a', 'a_k', max_seconds => 1)");
my $fds_before = open_fds($pid, qr{/$filenode(\.\d+)?$});
my $show = "SELECT current_setting('enable_seqscan') || current_setting('random_page_cost') || current_setting('seq_page_cost') || current_setting('jit') || current_setting('search_path')";
my $settings_before = $session->query($show);
# A call on this table can end within a few hundred milliseconds on a
# quiet machine: shorter timeouts until one falls inside it.
my $stderr = '';
for my $timeout ('300ms', '100ms', '40ms', '15ms')
{
	$session->query("SET statement_timeout = '$timeout'; SELECT * FROM index_crossover('a', 'a_k', max_seconds => 600)");
	$stderr = $session->{stderr};
	$session->query("RESET statement_timeout");
	$stderr .= $session->{stderr};
	last if $stderr =~ /canceling statement due to statement timeout/;
}
like($stderr, qr/canceling statement due to statement timeout/, 'statement_timeout stops it');
is(open_fds($pid, qr{/$filenode(\.\d+)?$}), $fds_before, "no descriptor left open ($fds_before before)");
is($session->query($show), $settings_before, 'the session\'s settings are as they were');
# The planner sees every index again.
like($session->query("EXPLAIN SELECT * FROM a WHERE id = 5"), qr/a_id/,
	'the other indexes are back in the planner\'s view');
$session->quit;

is($node->safe_psql('postgres', "SELECT md5(string_agg(pad || id || k, '' ORDER BY id)) FROM a"), $sum,
	'the data is unchanged');

$node->safe_psql('postgres', 'CREATE ROLE m LOGIN');
my ($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM index_crossover('a', 'a_k')",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for function index_crossover/, 'PUBLIC may not run it');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION index_crossover(regclass, regclass, float8, float8) TO m');
($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM index_crossover('a', 'a_k', max_seconds => 1)",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for table a/, 'granted, it still needs SELECT on the table');
$node->safe_psql('postgres', 'GRANT SELECT ON a TO m');
($ret, $out, $serr) = $node->psql('postgres', "SELECT rounds >= 1 FROM index_crossover('a', 'a_k', max_seconds => 2)",
	extra_params => ['-U', 'm']);
is($out, 't', 'with SELECT on the table, its index is measured too');

$node->stop;
done_testing();
