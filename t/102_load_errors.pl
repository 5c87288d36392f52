# scanbench-load's error paths: each exits with its documented code, names
# what failed, and leaves no partial table: bad arguments (2), connection
# failures (1), an existing or missing table (1), server errors mid-COPY --
# statement timeout, a terminated backend, a server restart, a full disk --
# (1), SIGINT (130), and --check against a missing or mismatched extension.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;
use Time::HiRes qw(time);

my $node = PostgreSQL::Test::Cluster->new('load_errors');
$node->init;
# A max_wal_size far above every table loaded here: each job then sends
# its rows in one COPY, as the statement-timeout cases below need.  With a
# table of a quarter of max_wal_size or more the jobs commit in steps
# (doc/loader.md), each step a statement of its own, well under a timeout
# that a whole COPY runs into (t/104 tests the steps).
$node->append_conf('postgresql.conf', "max_wal_size = 100GB\n");
$node->start;


# The loader's sessions, told apart from the test's own by application_name
# (the test framework sets PGAPPNAME, which beats the loader's fallback).
$ENV{PGAPPNAME} = 'loader-under-test';
my $loader_sessions =
  "FROM pg_stat_activity WHERE application_name = 'loader-under-test' AND pid <> pg_backend_pid()";

sub load { return run_loader($node, @_) }

sub sql { return $node->safe_psql('postgres', shift) }

sub exists_table { return sql("SELECT to_regclass('$_[0]') IS NOT NULL") eq 't' }

# Start a load in the background and return once its COPY runs in $ncopy
# backends, so that what the test does next hits it mid-COPY.
sub start_load
{
	my ($ncopy, @args) = @_;
	my %run = (out => '', err => '');
	$run{h} = IPC::Run::start([ $loader, conn_args($node), @args ], '>', \$run{out}, '2>', \$run{err});
	$node->poll_query_until('postgres', qq{
		SELECT count(*) >= $ncopy $loader_sessions AND query LIKE 'COPY%' AND state = 'active'})
	  or die "the load's COPY never started: $run{err}";
	return \%run;
}

sub finish_load
{
	my $run = shift;
	$run->{h}->finish;
	return ($run->{h}->result(0), $run->{out}, $run->{err});
}

# A base table to check that failures leave existing tables as they were.
my ($rc, $out, $err) = load('-s', '0.01', '-t', 'base');
is($rc, 0, 'base table loaded') or diag($err);
my $base_sum = sql("SELECT count(*) || md5(string_agg(l_comment, '' ORDER BY l_orderkey, l_linenumber)) FROM base");
sub base_unchanged
{
	is(sql("SELECT count(*) || md5(string_agg(l_comment, '' ORDER BY l_orderkey, l_linenumber)) FROM base"),
		$base_sum, "$_[0]: base is as it was");
}

# --- bad arguments: usage message, exit 2, nothing touched ---
for my $args (
	[ '-s', '0' ], [ '-s', '1001' ], [ '-s', 'ten' ], [ '-F', 'csv' ], [ '-j', '0' ], [ '-j', 'x' ],
	[ '--seed', '-1' ], [ '--drop', '--append' ], [ '-P', '0' ], [ '--stdout', '-j', '2' ],
	[ '--stdout', '--check' ], [ '--no-such-option' ], [ 'db1', 'db2' ], [ '-t', '' ],
	[ '-j', 'Auto' ], [ '-j', 'auto2' ], [ '--stdout', '--json' ], [ '--force-drop', '--append' ])
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, '-h', $node->host, '-p', $node->port, @$args ], '>', \$out, '2>', \$err);
	is($? >> 8, 2, "@$args: exit 2");
	like($err, qr/Try "scanbench-load --help"/, "@$args: points to --help");
}

# --- connection failures: libpq's message, exit 1 ---
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, '-h', '/nonexistent', '-p', '5432', '-s', '0.01' ], '>', \$out, '2>', \$err);
	is($? >> 8, 1, 'no server: exit 1');
	like($err, qr/connection to server on socket "\/nonexistent\/.s.PGSQL.5432" failed/, 'no server: libpq says why');
	($rc, $out, $err) = load('-s', '0.01', '-U', 'nosuchrole');
	is($rc, 1, 'unknown role: exit 1');
	like($err, qr/role "nosuchrole" does not exist/, 'unknown role: the server says why');
	($rc, $out, $err) = load('-s', '0.01', '-d', 'dbname=nosuchdb');
	is($rc, 1, 'unknown database in a conninfo string: exit 1');
	like($err, qr/database "nosuchdb" does not exist/, 'unknown database: the server says why');
}

# --- the table exists, or is missing with --append ---
($rc, $out, $err) = load('-s', '0.01', '-t', 'base');
is($rc, 1, 'existing table: exit 1');
like($err, qr/table "base" already exists\nhint: use --drop/, 'existing table: says so, hints --drop/--append');
base_unchanged('existing table');
($rc, $out, $err) = load('-s', '0.01', '-t', 'missing', '--append');
is($rc, 1, '--append to a missing table: exit 1');
like($err, qr/table "missing" does not exist/, '--append to a missing table: says so');
ok(!exists_table('missing'), '--append to a missing table: not created');

# --- a server error mid-COPY: statement_timeout fires while COPY runs ---
{
	local $ENV{PGOPTIONS} = '-c statement_timeout=700';
	for my $case (
		[ 'new table, 1 job',         'st_new1', '-j', '1' ],
		[ 'new table, 3 jobs',        'st_new3', '-j', '3', '-F', 'binary' ],
		[ '--drop an old table, 1 job', 'base', '--drop', '-j', '1' ],
		[ '--append, 2 jobs',         'base',    '--append', '-j', '2' ])
	{
		my ($name, $t, @args) = @$case;
		($rc, $out, $err) = load('-s', '1', '-t', $t, @args);
		is($rc, 1, "statement timeout, $name: exit 1");
		like($err, qr/load into "$t" failed: ERROR:  canceling statement due to statement timeout/,
			"statement timeout, $name: the server's message");
		if ($t eq 'base') { base_unchanged("statement timeout, $name") }
		else { ok(!exists_table($t), "statement timeout, $name: no table left") }
	}
}

# A COPY the server failed is noticed within about a second, not after all
# the rows were generated and sent for the server to discard (SF 20 takes
# over 10 s to generate on the reference machine).
{
	local $ENV{PGOPTIONS} = '-c statement_timeout=500';
	my $t0 = time;
	($rc, $out, $err) = load('-s', '20', '-t', 'st_early', '-j', '2');
	my $took = time - $t0;
	is($rc, 1, 'statement timeout at SF 20: exit 1');
	cmp_ok($took, '<', 5, "statement timeout at SF 20: noticed early (" . sprintf("%.1f", $took) . " s)");
	ok(!exists_table('st_early'), 'statement timeout at SF 20: no table left');
}

# --- a backend terminated mid-COPY: the other job rolls back too ---
{
	my $run = start_load(2, '-s', '1', '-t', 'term2', '-j', '2');
	sql("SELECT pg_terminate_backend(min(pid)) $loader_sessions AND query LIKE 'COPY%'");
	($rc, $out, $err) = finish_load($run);
	is($rc, 1, 'terminated backend: exit 1');
	like($err, qr/load into "term2" failed: .*(terminating connection|server closed the connection)/s,
		'terminated backend: says the connection was lost');
	like($err, qr/dropped \S+scanbench_load_\d+, the table this load was filling/,
		'terminated backend: the table made for the load is dropped');
	ok(!exists_table('term2'), 'terminated backend: no table left');
	ok($node->poll_query_until('postgres', "SELECT count(*) = 0 $loader_sessions"),
		'terminated backend: no session left behind');
}

# --- a server restart mid-COPY ---
{
	my $run = start_load(1, '-s', '1', '-t', 'restart1');
	$node->restart;
	($rc, $out, $err) = finish_load($run);
	is($rc, 1, 'server restart: exit 1');
	like($err, qr/load into "restart1" failed: .*(terminating connection|server closed the connection)/s,
		'server restart: says the connection was lost');
	ok(!exists_table('restart1'), 'server restart: no table left');

	$run = start_load(2, '-s', '1', '-t', 'base', '--append', '-j', '2');
	$node->restart;
	($rc, $out, $err) = finish_load($run);
	is($rc, 1, 'server restart, --append with 2 jobs: exit 1');
	base_unchanged('server restart, --append with 2 jobs');
}

# --- SIGINT: COPY cancelled and rolled back, exit 130 ---
for my $case (
	[ 'new table, 1 job', 1, 'int_new1' ],
	[ 'new table, 2 jobs', 2, 'int_new2', '-j', '2' ],
	[ '--drop an old table', 1, 'base', '--drop' ],
	[ '--append, 2 jobs', 2, 'base', '--append', '-j', '2', '-F', 'binary' ])
{
	my ($name, $ncopy, $t, @args) = @$case;
	my $run = start_load($ncopy, '-s', '1', '-t', $t, @args);
	$run->{h}->signal('INT');
	($rc, $out, $err) = finish_load($run);
	is($rc, 130, "SIGINT, $name: exit 130");
	like($err, qr/interrupted: the load was cancelled and rolled back/, "SIGINT, $name: says so");
	if ($t eq 'base') { base_unchanged("SIGINT, $name") }
	else { ok(!exists_table($t), "SIGINT, $name: no table left") }
}
ok($node->poll_query_until('postgres', "SELECT count(*) = 0 $loader_sessions"),
	'SIGINT: no session left behind');

# --- a full disk: a tablespace on a small loop-mounted filesystem ---
SKIP:
{
	my ($fs) = grep { length } split ' ', ($ENV{SCANBENCH_TEST_FS} // '');
	skip 'no small filesystem mounted (SCANBENCH_TEST_FS is empty)', 6 unless $fs;
	my ($type, $mnt) = split /:/, $fs, 2;
	my $dir = "$mnt/load_full_$$";
	mkdir $dir or die "mkdir $dir: $!";
	sql("CREATE TABLESPACE load_full LOCATION '$dir'");
	local $ENV{PGOPTIONS} = '-c default_tablespace=load_full';
	for my $jobs (1, 2)
	{
		($rc, $out, $err) = load('-s', '1', '-t', "full$jobs", '-j', $jobs);
		is($rc, 1, "disk full ($type), $jobs job(s): exit 1");
		like($err, qr/No space left on device/, "disk full ($type), $jobs job(s): the server's message");
		ok(!exists_table("full$jobs"), "disk full ($type), $jobs job(s): no table left");
	}
	sql('DROP TABLESPACE load_full');
	rmdir $dir;
}

# --- --check: refused before loading when the extension is missing or of
# another version; prints scan_efficiency() when it matches ---
($rc, $out, $err) = load('-s', '0.01', '-t', 'chk', '--check');
is($rc, 1, '--check without the extension: exit 1');
like($err, qr/--check needs the scanbench extension, which is not installed in database "postgres"/,
	'--check without the extension: says so');
ok(!exists_table('chk'), '--check without the extension: refused before loading');
SKIP:
{
	my ($ret, $o, $e) = $node->psql('postgres', 'CREATE EXTENSION scanbench');
	skip "the scanbench extension does not install here: $e", 11 if $ret != 0;

	sql("UPDATE pg_extension SET extversion = '0.0' WHERE extname = 'scanbench'");
	($rc, $out, $err) = load('-s', '0.01', '-t', 'chk', '--check');
	is($rc, 1, '--check with extension 0.0: exit 1');
	like($err, qr/the scanbench extension in database "postgres" is version 0\.0, but scanbench-load was built for version \Q$version\E/,
		'--check with extension 0.0: names both versions');
	ok(!exists_table('chk'), '--check with extension 0.0: refused before loading');
	sql("UPDATE pg_extension SET extversion = '$version' WHERE extname = 'scanbench'");

	($rc, $out, $err) = load('-s', '0.01', '-t', 'chk', '--check');
	is($rc, 0, "--check with extension $version: exit 0") or diag($err);
	like($out, qr/^scan_efficiency\("chk"\)\n(  \S+ +\| .*\n)+scan_pct [\d.]+ %, 95 % interval \S+ to \S+, \d+ pairs, verdict [a-z_,]+\n(  \S+ +[\d.]+ %  \S.*\n){3}$/,
		'--check prints scan_efficiency, a line a column, then the figure, its interval and its verdict, and what makes its figures agree');
	# A reader divides scan_mb_s by read_mb_s and expects scan_pct: each
	# ratio a reader can form from the columns is printed, labelled with
	# how it is computed, and is what the columns give.
	my %col = $out =~ /^  (\w+) +\| (.*)$/mg;
	my %ratio = $out =~ m{^  (scan_pct|scan_mb_s/read_mb_s|read_s/scan_s) +([\d.]+) %  \S}mg;
	is($ratio{scan_pct}, sprintf('%.1f', $col{scan_pct}), '--check: scan_pct labelled as the median of the pairs\' own ratios');
	like($out, qr{^  scan_pct +[\d.]+ %  the median of each pair's own scan rate / read rate}m, '--check: says how scan_pct is computed');
	cmp_ok(abs($ratio{'scan_mb_s/read_mb_s'} - 100 * $col{scan_mb_s} / $col{read_mb_s}), '<=', 0.06,
		'--check: the ratio of the two medians is scan_mb_s / read_mb_s');
	like($out, qr{^  scan_mb_s/read_mb_s +[\d.]+ %  a ratio of two medians}m, '--check: and is labelled a ratio of medians');
	cmp_ok(abs($ratio{'read_s/scan_s'} - 100 * $col{read_s} / $col{scan_s}), '<=', 0.06,
		'--check: the ratio of the pairs\' time together is read_s / scan_s');
	ok(exists_table('chk'), '--check with extension 0.1: table loaded');
}

$node->stop;
done_testing();
