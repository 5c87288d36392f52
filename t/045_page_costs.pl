# page_costs on a cold table: a recommendation, a command that sets it
# (and that the next call reads back), the figures' relations, the depths
# read and the effective_io_concurrency they give, too little time said
# so, scan_advice's row for the tablespace's random_page_cost, a table
# the caches hold left without a recommendation,
# cancellation that leaves no descriptor open, the data untouched, and
# EXECUTE revoked from PUBLIC.  Host figures are never compared with
# numbers: the lab (t/094) holds them against known answers.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use FindBin;
use lib $FindBin::RealBin;
use SbCold;
use ScanbenchFds;

my $node = PostgreSQL::Test::Cluster->new('page_costs');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE p (g int, pad text);
	INSERT INTO p SELECT g, repeat('x', 400) FROM generate_series(1, 160000) g;
	VACUUM (FREEZE) p;
	CHECKPOINT;
});

sub cold { cold_table($node, 'p'); }
sub row { return expanded_row($node, @_); }

my $sum = $node->safe_psql('postgres', "SELECT md5(string_agg(pad || g, '' ORDER BY g)) FROM p");

# 18 s: 60 % of it for the rounds (ten are needed; 9 s gave 143 on a
# busy 2-CPU VM), the rest for the depths (three sweeps are needed; 6 s
# gave four there).
cold();
my ($r, $err) = row("SELECT * FROM page_costs('p', max_seconds => 18)");
note(join(', ', map { "$_ $r->{$_}" } sort keys %$r));
cmp_ok($r->{cached_pct_before}, '<', 50, "cold: the caches held little ($r->{cached_pct_before} %)");
unlike($r->{verdict}, qr/cached|over_budget/, "cold: judged ($r->{verdict})");
cmp_ok($r->{rounds}, '>=', 10, 'at least 10 rounds');
cmp_ok($r->{seq_page_us}, '>', 0, 'a sequential page took time');
cmp_ok($r->{random_page_us}, '>', 0, 'a random page took time');
cmp_ok(abs($r->{ratio} - $r->{random_page_us} / $r->{seq_page_us}), '<=', 0.01 * $r->{ratio} + 0.006,
	'the ratio is of the mean times');
ok($r->{ratio_low} <= $r->{ratio} && $r->{ratio} <= $r->{ratio_high}, 'the interval holds the ratio');
# Nothing cached before: the recommendation is the ratio in units of
# seq_page_cost.
cmp_ok(abs($r->{recommended_random_page_cost} - $r->{ratio} * $r->{seq_page_cost}), '<=',
	0.01 * $r->{ratio} + 0.006, 'with nothing cached, the recommendation is the ratio');
like($err, qr/a random page took .* us, a sequential page .* us/, 'the NOTICE gives both times');
like($r->{command},
	qr/^ALTER TABLESPACE pg_default SET \(random_page_cost = [0-9.]+, effective_io_concurrency = \d+\)$/,
	"the command: $r->{command}");
cmp_ok($r->{untimed_s}, '<=', $r->{elapsed_s}, 'untimed reads are part of the time spent');

# The depths: 1, 2, 4, ... a rate each; the recommendation one of them,
# inside the range of the sweeps' own, and in the command.
my @depths = $r->{depths} =~ /(\d+)/g;
my @rates = $r->{depth_pages_s} =~ /([0-9.e+]+)/g;
is($depths[0], 1, 'the depths begin at 1');
is_deeply([ @depths[ 1 .. $#depths ] ], [ map { 2 * $_ } @depths[ 0 .. $#depths - 1 ] ],
	"each depth doubles the last ($r->{depths})");
cmp_ok(scalar(@depths), '>=', 3, 'at least three depths read');
is(scalar(@rates), scalar(@depths), "a rate for each depth ($r->{depth_pages_s})");
ok(!(grep { $_ <= 0 } @rates), 'every rate is positive');
cmp_ok($r->{sweeps}, '>=', 3, "three sweeps or more in the time left ($r->{sweeps})");
my $eic = $r->{recommended_effective_io_concurrency};
ok((grep { $_ == $eic } @depths), "the recommended depth $eic is one read");
ok($r->{recommended_eic_low} <= $eic && $eic <= $r->{recommended_eic_high},
	"... inside the sweeps' range ($r->{recommended_eic_low} to $r->{recommended_eic_high})");
like($r->{command}, qr/effective_io_concurrency = $eic\)$/, '... and in the command');
like($err, qr/random reads got \d+ pages\/s one at a time and \d+ at depth $eic/,
	'the NOTICE gives the rates at depth 1 and at the recommendation');

# The command runs, and the next call reports the settings in force.
$node->safe_psql('postgres', $r->{command});
my $set = $node->safe_psql('postgres', q{
	SELECT string_agg(option_name || '=' || option_value, ' ' ORDER BY option_name)
	FROM pg_tablespace, pg_options_to_table(spcoptions) WHERE spcname = 'pg_default'});
my ($rec) = $r->{command} =~ /random_page_cost = ([0-9.]+)/;
is($set, "effective_io_concurrency=$eic random_page_cost=$rec",
	'the command sets both on the tablespace');
my ($again) = row("SELECT random_page_cost, effective_io_concurrency FROM page_costs('p', max_seconds => 2)");
is($again->{random_page_cost} + 0, $rec + 0, 'the next call reads the random_page_cost in force');
is($again->{effective_io_concurrency}, $eic, '... and the effective_io_concurrency');
$node->safe_psql('postgres',
	'ALTER TABLESPACE pg_default RESET (random_page_cost, effective_io_concurrency)');

# scan_advice's rows read the same measurement on every major: the full
# tier tests them once.
SKIP:
{
	skip "scan_advice: $ENV{SCANBENCH_VERSION_TIER}", 8 if $ENV{SCANBENCH_VERSION_TIER};
	# scan_advice, cold, measures the tablespace's costs as page_costs does,
	# in the last 30 % of its time, and proposes a random_page_cost where the
	# one in force is outside the measured range (1000 is, anywhere).
	$node->safe_psql('postgres', 'ALTER TABLESPACE pg_default SET (random_page_cost = 1000)');
	cold();
	my $rows = decode_json($node->safe_psql('postgres',
		"SELECT coalesce(json_agg(a), '[]') FROM scan_advice('p', 'cold', max_seconds => 15) a"));
	note(join("\n", map { "$_->{setting} " . ($_->{current} // '') . " -> $_->{value}: $_->{basis}" } @$rows));
	my ($rpc) = grep { $_->{setting} eq 'random_page_cost' } @$rows;
	ok($rpc, 'scan_advice: a row for the tablespace\'s random_page_cost, 1000 in force');
	SKIP:
	{
		skip 'no random_page_cost row', 6 unless $rpc;
		is($rpc->{current}, 1000, '... the value in force');
		cmp_ok($rpc->{value}, '<', 200, "... a measured one far below it ($rpc->{value})");
		ok($rpc->{measured} && $rpc->{pairs} >= 10, "... measured, over $rpc->{pairs} rounds");
		ok(!defined $rpc->{gain}, '... with no gain for this scan');
		is($rpc->{cost}, 'none', '... costing nothing to apply');
		like($rpc->{command}, qr/^ALTER TABLESPACE pg_default SET \(random_page_cost = [0-9.]+\)$/,
			"... and the command: $rpc->{command}");
	}
	$node->safe_psql('postgres', 'ALTER TABLESPACE pg_default RESET (random_page_cost)');
	# Warm, the costs are not measured: the call is about the warm scan.
	$node->safe_psql('postgres', 'ALTER TABLESPACE pg_default SET (random_page_cost = 1000)');
	$rows = decode_json($node->safe_psql('postgres',
		"SELECT coalesce(json_agg(a), '[]') FROM scan_advice('p', 'warm', max_seconds => 3) a"));
	ok(!(grep { $_->{setting} eq 'random_page_cost' } @$rows), 'scan_advice, warm: no random_page_cost row');
	$node->safe_psql('postgres', 'ALTER TABLESPACE pg_default RESET (random_page_cost)');
}

# Too little time: too few rounds to judge, said so, nothing recommended.
cold();
($r, $err) = row("SELECT * FROM page_costs('p', max_seconds => 0.001)");
is($r->{verdict}, '{over_budget}', 'no time: over_budget');
is($r->{recommended_random_page_cost}, '', 'no time: nothing recommended');
like($err, qr/too few to judge/, 'no time: the NOTICE says so');
like($err, qr/max_seconds => \d+/, 'no time: the hint gives a budget');
is($r->{sweeps}, 0, 'no time: no sweep over the depths');
is($r->{recommended_effective_io_concurrency}, '', 'no time: no depth recommended');
is($r->{depth_pages_s}, '', 'no time: no rate shown for a depth');
like($err, qr/no time was left to read it at depth/, 'no time: the NOTICE says so');

# Held by the caches: measured cold all the same, nothing recommended.
$node->safe_psql('postgres', "SELECT count(*) FROM p");
$node->safe_psql('postgres', "SELECT * FROM raw_read('p', 'warm')");
($r, $err) = row("SELECT * FROM page_costs('p', max_seconds => 5)");
cmp_ok($r->{cached_pct_before}, '>=', 90, "warm: the caches held it ($r->{cached_pct_before} %)");
like($r->{verdict}, qr/cached/, 'warm: the mark cached');
is($r->{command}, '', 'warm: no command');
is($r->{recommended_effective_io_concurrency}, '', 'warm: no depth recommended');
like($err, qr/the caches held \d+% of it/, 'warm: the NOTICE says why');

# Too small: the detail gives the size needed and the read-ahead window.
$node->safe_psql('postgres', "CREATE TABLE s AS SELECT g FROM generate_series(1, 1000) g");
my ($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM page_costs('s')");
like($serr, qr/needs at least \d+ \(\d+ MB\).*read-ahead windows \(\d+ kB each\)/,
	'too small: the size needed, from the storage\'s read-ahead');

# Cancel: statement_timeout stops it, and no descriptor on the table's
# files is left open (md.c keeps one a segment: the baseline is taken
# after a complete call).
my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('p')");
my ($session, $pid) = fd_session($node);
$session->query_safe("SELECT rounds FROM page_costs('p', max_seconds => 1)");
my $fds_before = open_fds($pid, qr{/$filenode(\.\d+)?$});
# In the page times, then (the last 40 % of max_seconds) in the depths,
# whose reads run in threads of their own.
for my $case (['300ms', 600, 'in the page times'], ['1700ms', 2, 'in the depths'])
{
	my ($timeout, $budget, $where) = @$case;
	$session->query("SET statement_timeout = '$timeout'; SELECT * FROM page_costs('p', max_seconds => $budget)");
	my $stderr = $session->{stderr};
	$session->query("RESET statement_timeout");
	$stderr .= $session->{stderr};
	like($stderr, qr/canceling statement due to statement timeout/, "statement_timeout stops it $where");
	is(open_fds($pid, qr{/$filenode(\.\d+)?$}), $fds_before,
		"... and no descriptor is left open ($fds_before before)");
}
$session->quit;

is($node->safe_psql('postgres', "SELECT md5(string_agg(pad || g, '' ORDER BY g)) FROM p"), $sum,
	'the data is unchanged');

# Revoked from PUBLIC; a GRANT lets a role measure what it may SELECT.
$node->safe_psql('postgres', 'CREATE ROLE m LOGIN');
($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM page_costs('p')",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for function page_costs/, 'PUBLIC may not run it');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION page_costs(regclass, float8) TO m');
($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM page_costs('p', max_seconds => 1)",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for table p/, 'granted, it still needs SELECT on the table');

$node->stop;
done_testing();
