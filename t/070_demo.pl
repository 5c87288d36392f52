# tools/demo.sh on a cluster of the user's (--pgdata): it connects through
# the cluster's own socket directory and port, never drops or replaces a
# table it did not create unless --replace says so, replaces its own, and
# leaves a cluster it had to start stopped again.  Also its --help and its
# refusal of bad options.  It runs with --no-build: the installation under
# test is the one the demo uses.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use File::Spec;
use JSON::PP;
use Time::HiRes;

my $demo = File::Spec->rel2abs('tools/demo.sh');
my $mark = 'made by scanbench tools/demo.sh; the next demo run replaces it';

# Run the demo; returns (exit code, stdout, stderr).
sub demo
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $demo, @_ ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

my ($rc, $out, $err) = demo('--help');
is($rc, 0, '--help exits 0');
like($out, qr/^NAME\n.*^SYNOPSIS\n.*^DATA SAFETY\n.*^OPTIONS\n/ms,
	'--help is a manual page: name, synopsis, data safety, options');
like($out, qr/^    $_\b/m, "--help explains $_") for ('--pg MAJOR', '--port PORT', '--replace', '--pgdata DIR');
unlike($out, qr/^\s*(if|fi|case|esac|done)\b/m, '--help prints no lines of the script');

($rc, undef, $err) = demo('--bogus');
is($rc, 2, 'an unknown option exits 2');
like($err, qr/unknown option: --bogus/, 'and names it');
($rc, undef, $err) = demo('--runs', '0');
is($rc, 2, '--runs 0 is refused');

my $node = PostgreSQL::Test::Cluster->new('demo');
$node->init;
$node->start;
my $major = $node->safe_psql('postgres', 'SHOW server_version_num') / 10000;
$major = int($major);
# The socket is where the cluster's unix_socket_directories says: not one
# of the usual directories, so a demo that guessed would not connect.
my $sockdir = $node->safe_psql('postgres', 'SHOW unix_socket_directories');
unlike($sockdir, qr{^(/tmp|/var/run/postgresql|/run/postgresql)$},
	"the cluster's socket is in a directory of its own ($sockdir)");

$node->safe_psql('postgres', q{
	CREATE TABLE lineitem (mine text);
	INSERT INTO lineitem VALUES ('a'), ('b'), ('c');
	COMMENT ON TABLE lineitem IS 'the user''s own';
});
my $oid = $node->safe_psql('postgres', "SELECT 'lineitem'::regclass::oid");
my @quick = ('--pgdata', $node->data_dir, '--no-build', '--scale', '0.01', '--runs', '1');

($rc, $out, $err) = demo(@quick);
is($rc, 1, 'an existing table the demo did not make: refused');
like($err, qr/table lineitem already exists and was not made by this demo: nothing was changed/,
	'the refusal says why and that nothing changed');
like($err, qr/--table.*--replace/, 'and how to go on');
is($node->safe_psql('postgres', "SELECT 'lineitem'::regclass::oid || ' ' || string_agg(mine, '' ORDER BY mine) FROM lineitem"),
	"$oid abc", "the user's table is untouched (same relation, same rows)");

($rc, $out, $err) = demo(@quick, '--table', 'demo_li');
is($rc, 0, 'a new table name: loaded and measured') or diag($err);
like($out, qr/scan_pct.*scan_pct/s, 'scan_efficiency printed cold and warm');
like($out, qr/^cold: scan_pct [\d.]+ %, 95 % interval \S+ to \S+, \d+ pairs, verdict [a-z_,]+\n.*^warm: scan_pct /ms,
	'each with a line of its figure, interval and verdict');
like($err, qr/socket directory \Q$sockdir\E, port ${\ $node->port}/,
	"the demo connected through the cluster's own socket directory and port");
is($node->safe_psql('postgres', "SELECT count(*) > 50000 FROM demo_li"), 't', 'demo_li has the rows of scale 0.01');
is($node->safe_psql('postgres', "SELECT obj_description('demo_li'::regclass, 'pg_class')"),
	$mark, "the demo's table carries its mark");

my $old = $node->safe_psql('postgres', "SELECT 'demo_li'::regclass::oid");
($rc, $out, $err) = demo(@quick, '--table', 'demo_li');
is($rc, 0, "the demo's own table: replaced without asking") or diag($err);
like($err, qr/replacing table demo_li, made by an earlier demo run/, 'and it says so');
isnt($node->safe_psql('postgres', "SELECT 'demo_li'::regclass::oid"), $old, 'demo_li is a new relation');

# A table whose mark the user changed is the user's.
$node->safe_psql('postgres', "COMMENT ON TABLE demo_li IS 'mine now'");
($rc, undef, $err) = demo(@quick, '--table', 'demo_li');
is($rc, 1, 'a demo table whose comment the user replaced: refused');

($rc, $out, $err) = demo(@quick, '--replace');
is($rc, 0, '--replace: the user\'s table is replaced') or diag($err);
like($err, qr/replacing table lineitem \(--replace\)/, 'and it says so');
is($node->safe_psql('postgres', "SELECT count(*) > 50000 FROM lineitem"), 't', 'lineitem now has the demo rows');

# scan_advice on the demo's table returns its rows within its budget, cold
# and warm, in a session without parallel workers as the README's figures
# are taken: every row says how its gain was found (measured in pairs, or
# the model it was predicted from) and the command that makes the change.
# Warm, the scan is CPU-limited and a worker is a candidate to measure.
for my $cache ('cold', 'warm')
{
	my $budget = 3;
	my ($stdout, $stderr) = ('', '');
	my $t0 = [ Time::HiRes::gettimeofday() ];
	$node->psql('postgres',
		"SET max_parallel_workers_per_gather = 0; "
		  . "SELECT coalesce(json_agg(a), '[]') FROM scan_advice('lineitem', '$cache', max_seconds => $budget) a",
		stdout => \$stdout, stderr => \$stderr, on_error_die => 1);
	my $secs = Time::HiRes::tv_interval($t0);
	my @rows = @{ JSON::PP::decode_json($stdout) };
	note("$cache, ${secs} s:\n$stderr\n" . join("\n", map {
		"$_->{setting} $_->{current} -> $_->{value}: gain " . ($_->{gain} // 'NULL')
		  . ($_->{measured} ? " measured, $_->{pairs} pairs" : ' predicted')
		  . "; $_->{basis}; $_->{command}" } @rows));
	# The budget covers the whole call; the slack is psql's start and the
	# last scan, which may end a little past the deadline on a busy host.
	cmp_ok($secs, '<=', $budget + 2, "scan_advice $cache: returned within its budget of $budget s");
	like($stderr, qr/NOTICE:  the scan is (CPU|storage)-limited: \d+ MB\/s/,
		"scan_advice $cache: says what limits the scan");
	ok(@rows > 0, "scan_advice $cache: has advice for a CPU-limited scan") if $stderr =~ /CPU-limited/;
	for my $r (@rows)
	{
		my $name = "scan_advice $cache: $r->{setting}";
		ok(length($r->{command} // '') && length($r->{value} // '') && length($r->{basis} // ''),
			"$name: has a value, a basis and a command");
		like($r->{cost}, qr/^(none|CPU|memory|reload|restart|root)$/, "$name: cost $r->{cost}");
		if ($r->{measured})
		{
			ok($r->{pairs} > 0 && defined $r->{gain} && $r->{basis} =~ /^measured: $r->{pairs} interleaved pairs/,
				"$name: measured in $r->{pairs} pairs, and its basis says so");
		}
		else
		{
			ok($r->{pairs} == 0 && $r->{basis} =~ /^(predicted|not predicted|not measured)/,
				"$name: predicted, and its basis says from what");
		}
	}
}

# --pg of another major than the cluster's: refused before anything runs.
my $other = $major == 15 ? 18 : 15;
($rc, undef, $err) = demo(@quick, '--table', 'demo_x', '--pg', $other);
is($rc, 1, "--pg $other on a $major cluster: refused");
like($err, qr/is PostgreSQL $major, not $other/, 'naming both majors');

# A cluster that is not running: started (socket where it says), measured,
# stopped again.
$node->stop;
($rc, $out, $err) = demo(@quick, '--table', 'demo_li2');
is($rc, 0, 'a stopped cluster: started and used') or diag($err);
like($err, qr/starting the cluster in/, 'it says it starts the cluster');
like($err, qr/socket directory \Q$sockdir\E/, "through the cluster's own socket directory");
my $status = system('pg_ctl -D ' . $node->data_dir . ' status >/dev/null 2>&1') >> 8;
is($status, 3, 'and stopped it again at the end');
$node->start;
is($node->safe_psql('postgres', "SELECT obj_description('demo_li2'::regclass, 'pg_class')"),
	$mark, 'the table it loaded while it ran the cluster is there');
$node->stop;

done_testing();
