# scanbench-load never blocks others silently: the statements of its last
# transaction that take ACCESS EXCLUSIVE (--drop's DROP, the rename) wait at
# most --lock-timeout, say on stderr which lock they wait for and who holds
# it, and on the timeout roll back, naming the table and the holder, with
# exit 3; a SELECT queued behind the waiting loader waits no longer than
# that.  Objects that would make the DROP fail are found before any row is
# written.  --append's summary gives the pages the appended rows took.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;
use Time::HiRes qw(time usleep);

my $node = PostgreSQL::Test::Cluster->new('load_locks');
$node->init;
$node->append_conf('postgresql.conf',
	"max_wal_size = 2GB\nautovacuum = off\nlog_statement = all\n");
$node->start;

$ENV{PGAPPNAME} = 'loader-under-test';
my $loader_sessions =
  "FROM pg_stat_activity WHERE application_name = 'loader-under-test' AND pid <> pg_backend_pid()";

sub load { return run_loader($node, @_) }
sub sql { return $node->safe_psql('postgres', shift) }
# A session that holds a lock on base, named so that the loader's message
# can be checked; returns it and its pid.
sub holder
{
	my ($lock) = @_;
	local $ENV{PGAPPNAME} = 'lock-holder';
	my $session = $node->background_psql('postgres');
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\D//g;
	$session->query_safe("BEGIN; $lock");
	return ($session, $pid);
}

sub staging_left
{
	return sql("SELECT count(*) FROM pg_class WHERE relname LIKE 'scanbench\\_load\\_%'");
}

# --help documents the option and the exit code.
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, '--help' ], '>', \$out, '2>', \$err);
	like($out, qr/--lock-timeout=SEC .*\(default 10; 0 waits without limit\)/s,
		'--help: --lock-timeout and its default');
	like($out, qr/^  3 gave up waiting for a lock/m, '--help: exit status 3');
	for my $bad ('-1', 'x', '1e3', '2147484')
	{
		IPC::Run::run([ $loader, '--lock-timeout', $bad ], '>', \$out, '2>', \$err);
		is($? >> 8, 2, "--lock-timeout $bad: exit 2");
	}
}

my ($rc, $out, $err) = load('-s', '0.01', '-t', 'base');
is($rc, 0, 'base table loaded') or diag($err);
my $sum_sql = "SELECT count(*) || md5(string_agg(l_comment, '' ORDER BY l_orderkey, l_linenumber)) FROM base";
my $base_sum = sql($sum_sql);
sub base_unchanged { is(sql($sum_sql), $base_sum, "$_[0]: base is as it was") }

# --- another session holds ACCESS EXCLUSIVE: the loader waits, says so, gives up ---
# One job runs the DROP in the load's own transaction and looks through the
# control connection; two jobs run it on the control connection and look
# through a connection of their own.
for my $case ([ '1 job', '-j', '1' ], [ '2 jobs', '-j', '2' ])
{
	my ($name, @args) = @$case;
	my ($holder, $holder_pid) = holder('LOCK TABLE base IN ACCESS EXCLUSIVE MODE');
	my $t0 = time;
	($rc, $out, $err) = load('-s', '0.01', '-t', 'base', '--drop', '--lock-timeout', '3', @args);
	my $took = time - $t0;
	is($rc, 3, "ACCESS EXCLUSIVE held, $name: exit 3") or diag($err);
	like($err, qr/waiting 1 s for AccessExclusiveLock on table public\.base, held by pid $holder_pid \(lock-holder, idle in transaction for \d+ s, transaction open \d+ s\); giving up after 3 s \(--lock-timeout\)/,
		"ACCESS EXCLUSIVE held, $name: says on which lock it waits and who holds it");
	like($err, qr/error: load into "base" gave up after 3 s \(--lock-timeout\) waiting for AccessExclusiveLock on table public\.base, held by pid $holder_pid\b/,
		"ACCESS EXCLUSIVE held, $name: the error names the table and the holder");
	like($err, qr/table "base" is as it was before/, "ACCESS EXCLUSIVE held, $name: says the table is unchanged");
	cmp_ok($took, '<', 3 + 8, sprintf("ACCESS EXCLUSIVE held, %s: gave up in time (%.1f s)", $name, $took));
	$holder->query_safe('COMMIT');
	$holder->quit;
	base_unchanged("ACCESS EXCLUSIVE held, $name");
	is(staging_left(), 0, "ACCESS EXCLUSIVE held, $name: no staging table left");
}

# A timeout shorter than the first look: the holder is still named.
{
	my ($holder, $holder_pid) = holder('LOCK TABLE base IN ACCESS EXCLUSIVE MODE');
	($rc, $out, $err) = load('-s', '0.01', '-t', 'base', '--drop', '--lock-timeout', '0.3');
	is($rc, 3, '--lock-timeout 0.3: exit 3');
	like($err, qr/gave up after 0\.3 s \(--lock-timeout\) waiting for AccessExclusiveLock on table public\.base, held by pid $holder_pid\b/,
		'--lock-timeout 0.3: names the holder');
	$holder->query_safe('COMMIT');
	$holder->quit;
	base_unchanged('--lock-timeout 0.3');
}

# --- a reader holds ACCESS SHARE: a SELECT queued behind the loader's wait ---
# A SELECT does not conflict with the reader's lock, only with the loader's
# pending ACCESS EXCLUSIVE; it may wait no longer than --lock-timeout.
{
	my ($reader, $reader_pid) = holder('SELECT count(*) FROM base');
	my %run = (out => '', err => '');
	my $h = IPC::Run::start([ $loader, conn_args($node), '-s', '0.01', '-t', 'base', '--drop',
			'--lock-timeout', '4' ], '>', \$run{out}, '2>', \$run{err});
	$node->poll_query_until('postgres', "SELECT count(*) > 0 $loader_sessions AND wait_event_type = 'Lock'")
	  or die "the load never waited: $run{err}";
	my ($sout, $serr) = ('', '');
	local $ENV{PGAPPNAME} = 'queued-select';
	my $t0 = time;
	my $sel = IPC::Run::start([ 'psql', '-X', '-A', '-t', '-d', $node->connstr('postgres'),
			'-c', 'SELECT count(*) FROM base' ], '>', \$sout, '2>', \$serr);
	ok($node->poll_query_until('postgres',
			"SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'queued-select' AND wait_event_type = 'Lock'"),
		'reader: a plain SELECT queues behind the waiting loader');
	$h->finish;
	$sel->finish;
	my $took = time - $t0;
	is($h->result(0), 3, 'reader: the loader gives up, exit 3');
	like($run{err}, qr/waiting \d+ s for AccessExclusiveLock on table public\.base, held by pid $reader_pid \(lock-holder, idle in transaction/,
		'reader: the loader says whom it waits for');
	is($sel->result(0), 0, 'reader: the queued SELECT ends well');
	chomp $sout;
	is($sout, (split /\D/, $base_sum)[0], 'reader: ... with every row');
	cmp_ok($took, '<', 4 + 2, sprintf('reader: the SELECT waited no longer than the timeout (%.1f s)', $took));
	$reader->query_safe('COMMIT');
	$reader->quit;
	base_unchanged('reader');
}

# --- --lock-timeout 0 waits without limit, and the load goes through ---
{
	my ($holder) = holder('LOCK TABLE base IN ACCESS EXCLUSIVE MODE');
	my %run = (out => '', err => '');
	my $h = IPC::Run::start([ $loader, conn_args($node), '-s', '0.01', '-t', 'base', '--drop',
			'--lock-timeout', '0', '--seed', '7' ], '>', \$run{out}, '2>', \$run{err});
	my $deadline = time + 60;
	$h->pump_nb, usleep(100_000) while $run{err} !~ /waiting \d+ s for/ && time < $deadline;
	like($run{err}, qr/waiting 1 s for AccessExclusiveLock on table public\.base, held by pid \d+ .*; waiting without limit \(--lock-timeout 0\)/,
		'--lock-timeout 0: says it waits without limit');
	usleep(1_500_000);
	ok($h->pumpable, '--lock-timeout 0: still waiting after the default timeout would have passed');
	$holder->query_safe('COMMIT');
	$holder->quit;
	$h->finish;
	is($h->result(0), 0, '--lock-timeout 0: loaded once the lock was free') or diag($run{err});
	isnt(sql($sum_sql), $base_sum, '--lock-timeout 0: the table was replaced');
	($rc, $out, $err) = load('-s', '0.01', '-t', 'base', '--drop');
	is($rc, 0, 'base loaded again') or diag($err);
	is(sql($sum_sql), $base_sum, 'base as it was');
}

# --- objects that make the DROP fail are found before any row is written ---
{
	sql('CREATE VIEW base_view AS SELECT l_orderkey FROM base');
	sql('CREATE TABLE ref_parent (k bigint PRIMARY KEY)');
	sql('CREATE TABLE ref_child (k bigint REFERENCES ref_parent)');
	my $offset = -s $node->logfile;
	($rc, $out, $err) = load('-s', '0.01', '-t', 'base', '--drop');
	is($rc, 1, 'a view on the table: exit 1');
	like($err, qr/cannot replace table "base": another object depends on it \(view public\.base_view\)\nhint: drop it first/,
		'a view on the table: named, with a hint');
	ok(!$node->log_contains(qr/statement: (COPY|CREATE (UNLOGGED )?TABLE|BEGIN)/, $offset),
		'a view on the table: refused before any table was made or row written');
	base_unchanged('a view on the table');
	($rc, $out, $err) = load('-s', '0.01', '-t', 'ref_parent', '--force-drop');
	is($rc, 1, 'a foreign key to the table: exit 1');
	like($err, qr/cannot replace table "ref_parent": another object depends on it \(constraint ref_child_k_fkey on table public\.ref_child\)/,
		'a foreign key to the table: named');
	sql('DROP VIEW base_view');

	# The table's own parts do not count: an index, a foreign key to itself.
	sql('CREATE TABLE own_parts (k bigint PRIMARY KEY, up bigint REFERENCES own_parts)');
	sql('CREATE INDEX ON own_parts (up)');
	($rc, $out, $err) = load('-s', '0.01', '-t', 'own_parts', '--force-drop');
	is($rc, 0, 'the table\'s own index and foreign key to itself do not stop --drop') or diag($err);
}

# --- --append: the bytes per row are the appended rows' ---
for my $jobs (1, 2)
{
	($rc, $out, $err) = load('-s', '0.01', '-t', "app$jobs", '-j', $jobs);
	is($rc, 0, "app$jobs loaded") or diag($err);
	my ($fresh) = $err =~ /([\d.]+) bytes\/row/;
	my $pages0 = sql("SELECT pg_relation_size('app$jobs') / 8192");
	($rc, $out, $err) = load('-s', '0.01', '-t', "app$jobs", '--append', '--seed', '2', '-j', $jobs);
	is($rc, 0, "--append, $jobs job(s): exit 0") or diag($err);
	my ($added, $all, $per_row) = $err =~ /(\d+) pages added \((\d+) in all\), ([\d.]+) bytes\/row/;
	ok(defined $per_row, "--append, $jobs job(s): the summary gives the pages added") or diag($err);
	is($all, sql("SELECT pg_relation_size('app$jobs') / 8192"), "--append, $jobs job(s): and the table's pages in all");
	is($added, $all - $pages0, "--append, $jobs job(s): added = after - before");
	# Not equal: a fresh load's COPYs each leave the pages they extended
	# the table by and did not fill (up to 64 a COPY from PostgreSQL 16),
	# and an append fills those first, so its rows take fewer new pages
	# (19 with two jobs: 145.5 bytes/row against a fresh 169.9).  The
	# figure this guards against counts the whole table over the appended
	# rows: twice or more.
	cmp_ok(abs($per_row / $fresh - 1), '<', 0.25,
		"--append, $jobs job(s): $per_row bytes/row, as a fresh load's $fresh");
}

done_testing();
