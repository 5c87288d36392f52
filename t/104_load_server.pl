# scanbench-load on the servers users have: it reads the server's settings
# before loading and refuses a standby; its summary's WAL bytes agree with
# pg_current_wal_lsn(); several jobs on a stock server (fsync and
# full_page_writes on) freeze in steps, so that the table goes to the WAL
# about once, not twice; --jobs=auto chooses what the rule says on
# wal_level = minimal; -j 2 is not slower than -j 1 or says what it costs
# (timed: PG_TEST_EXTRA=scanbench_slow); --drop replaces only a table
# scanbench made.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use JSON::PP;
use Time::HiRes qw(time);
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

my $slow = ($ENV{PG_TEST_EXTRA} // '') =~ /\bscanbench_slow\b/;

# A stock server as initdb makes it (wal_level = replica, fsync and
# full_page_writes on, no wal_log_hints), with streaming allowed for the
# standby below; max_wal_size is small so that a small load checkpoints as
# a large one does on a 1 GB max_wal_size.
my $node = PostgreSQL::Test::Cluster->new('load_stock');
$node->init(allows_streaming => 1);
$node->append_conf('postgresql.conf', qq{
fsync = on
full_page_writes = on
wal_log_hints = off
shared_buffers = 128MB
max_connections = 20
max_wal_size = 128MB
autovacuum = off
});
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION pg_visibility');

sub sql { return $node->safe_psql('postgres', shift) }
sub lsn { return sql("SELECT pg_current_wal_lsn() - '0/0'") }

# Load with --json, measuring the WAL around the loader as a script would;
# returns (exit code, summary, stderr, WAL bytes the test saw).
sub load_json
{
	my ($n, @args) = @_;
	my $before = $n->safe_psql('postgres', "SELECT pg_current_wal_lsn() - '0/0'");
	my ($rc, $out, $err) = run_loader($n, '--json', @args);
	my $after = $n->safe_psql('postgres', "SELECT pg_current_wal_lsn() - '0/0'");
	my ($line) = grep { /^\{/ } split /\n/, $out;
	my $j = defined $line ? eval { decode_json($line) } : undef;
	return ($rc, $j, $err, $after - $before);
}

# --- the summary: WAL bytes, checkpoints, what limited the load ---
my ($rc, $j, $err, $seen) = load_json($node, '-s', '0.1', '-t', 'one');
is($rc, 0, 'one job on the stock server: loaded') or diag($err);
ok($j, '--json: one object on standard output') or diag($err);
for my $k (qw(rows jobs jobs_auto wall_s copy_s post_s generation_cpu_s pages wal_bytes
	checkpoints_timed checkpoints_requested freeze_steps limit server))
{
	ok(exists $j->{$k}, "--json has $k");
}
is($j->{server}{wal_level}, 'replica', 'the server\'s wal_level read');
ok($j->{server}{fsync} && $j->{server}{full_page_writes} && !$j->{server}{wal_log_hints},
	'fsync, full_page_writes, wal_log_hints read');
is($j->{server}{max_wal_size_mb}, 128, 'max_wal_size read');
cmp_ok($j->{server}{cpus} // 0, '>', 0, 'a server on this machine: its CPUs known');
cmp_ok(abs($j->{wal_bytes} - $seen), '<=', 0.05 * $seen,
	"WAL bytes $j->{wal_bytes} within 5 % of pg_current_wal_lsn()'s $seen");
like($j->{limit}, qr/^(generation|COPY|freezing|WAL)$/, "limit: $j->{limit}");
like($err, qr/; WAL \d+ MB \([\d.]+ x the table\), \d+ checkpoints? \(\d+ timed, \d+ requested\);.* limit: \w+;/,
	'the summary line names the WAL, the checkpoints and the limit');

# --- several jobs freeze in steps: the table goes to the WAL about once ---
($rc, $j, $err, $seen) = load_json($node, '-s', '0.3', '-t', 'two', '-j', '2');
is($rc, 0, 'two jobs on the stock server: loaded') or diag($err);
like($err, qr/^scanbench-load: note: 2 jobs are not expected to be faster than one on this server \(wal_level = replica, fsync and full_page_writes on\): VACUUM freezes the jobs' rows in steps/m,
	'-j 2 on the stock server: a note says what it costs');
cmp_ok($j->{checkpoints_timed} + $j->{checkpoints_requested}, '>=', 1,
	'checkpoints came during the load');
cmp_ok($j->{freeze_steps}, '>', 0, "frozen in $j->{freeze_steps} steps during the load");
my $table_bytes = $j->{pages} * 8192;
cmp_ok($j->{wal_bytes}, '<', 1.35 * $table_bytes,
	sprintf('WAL %.2f x the table: not written twice', $j->{wal_bytes} / $table_bytes));
cmp_ok(abs($j->{wal_bytes} - $seen), '<=', 0.05 * $seen,
	"two jobs: WAL bytes $j->{wal_bytes} within 5 % of pg_current_wal_lsn()'s $seen");
# Every page that holds rows; from 16 on, COPY extends a table by several
# pages at once, and pages a job extended by and left empty stay unmarked.
is(sql("SELECT count(*) FROM pg_visibility_map('two') v "
	. "WHERE NOT v.all_frozen AND v.blkno IN (SELECT DISTINCT (ctid::text::point)[0]::bigint FROM two)"),
	'0', 'every page that holds rows is frozen');

# --- a standby is refused before anything is done ---
{
	$node->backup('b');
	my $standby = PostgreSQL::Test::Cluster->new('load_standby');
	$standby->init_from_backup($node, 'b', has_streaming => 1);
	$standby->start;
	$node->wait_for_catchup($standby);
	my ($rc2, $out2, $err2) = run_loader($standby, '-s', '0.01', '-t', 'nope');
	is($rc2, 1, 'a standby: exit 1');
	like($err2, qr/the server is a standby \(in recovery\), which takes no writes\nhint: connect to the primary/,
		'a standby: says so');
	($rc, $j, $err) = load_json($node, '-s', '0.01', '-t', 'with_standby', '-q');
	is($j->{server}{standbys}, 1, 'the primary: its standby counted');
	$standby->stop;
}

# --- --drop replaces only a table scanbench made ---
{
	sql("CREATE TABLE mine (i int); INSERT INTO mine VALUES (1)");
	my ($rc2, $out2, $err2) = run_loader($node, '-s', '0.01', '-t', 'mine', '--drop');
	is($rc2, 1, '--drop on a table the loader did not make: exit 1');
	like($err2, qr/table "mine" was not loaded by scanbench-load: --drop replaces only tables it loaded.*\nhint: .*--force-drop/,
		'--drop on a table the loader did not make: says so, with a hint');
	is(sql('SELECT count(*) FROM mine'), '1', 'the table is as it was');
	sql("COMMENT ON TABLE mine IS 'my notes'");
	($rc2, $out2, $err2) = run_loader($node, '-s', '0.01', '-t', 'mine', '--drop');
	is($rc2, 1, '--drop on a table with a comment of its own: refused');
	($rc2, $out2, $err2) = run_loader($node, '-s', '0.01', '-t', 'mine', '--force-drop');
	is($rc2, 0, '--force-drop replaces it') or diag($err2);
	like(sql("SELECT obj_description('mine'::regclass, 'pg_class')"), qr/^made by scanbench-load/,
		'the loaded table carries the mark');
	($rc2, $out2, $err2) = run_loader($node, '-s', '0.01', '-t', 'mine', '--drop', '-j', '2');
	is($rc2, 0, '--drop replaces a table the loader made') or diag($err2);
	like(sql("SELECT obj_description('mine'::regclass, 'pg_class')"), qr/^made by scanbench-load/,
		'two jobs: the mark too');
	sql("COMMENT ON TABLE mine IS 'made by scanbench tools/demo.sh; the next demo run replaces it'");
	($rc2, $out2, $err2) = run_loader($node, '-s', '0.01', '-t', 'mine', '--drop');
	is($rc2, 0, '--drop replaces a table the demo marked') or diag($err2);
}

# --- -j 2 against -j 1, timed: not slower by more than 10 %, or says so ---
SKIP:
{
	skip 'timing: set PG_TEST_EXTRA=scanbench_slow', 1 unless $slow;
	skip "timing: $ENV{SCANBENCH_VERSION_TIER}", 1 if $ENV{SCANBENCH_VERSION_TIER};
	my (@t1, @t2, $noted);
	for my $pair (1 .. 3)
	{
		for my $jobs ($pair % 2 ? (1, 2) : (2, 1))
		{
			sql('DROP TABLE IF EXISTS timed');
			sql('CHECKPOINT');
			my $t0 = time;
			my ($rc2, $out2, $err2) = run_loader($node, '-s', '0.3', '-t', 'timed', '-j', $jobs);
			my $s = time - $t0;
			die "load failed: $err2" if $rc2;
			push @{ $jobs == 1 ? \@t1 : \@t2 }, $s;
			$noted = 1 if $jobs == 2 && $err2 =~ /^scanbench-load: note: 2 jobs/m;
		}
	}
	my $median = sub { my @s = sort { $a <=> $b } @_; return $s[1] };
	my ($m1, $m2) = ($median->(@t1), $median->(@t2));
	ok($m2 <= 1.10 * $m1 || $noted,
		sprintf('-j 2 %.2f s against -j 1 %.2f s: not 10 %% slower, or its note was printed', $m2, $m1));
}

# --- --jobs=auto on wal_level = minimal picks what the rule says ---
{
	my $min = PostgreSQL::Test::Cluster->new('load_minimal');
	$min->init;    # wal_level = minimal, max_wal_senders = 0, fsync off
	$min->start;
	my ($rc2, $j2, $err2) = load_json($min, '-s', '0.01', '-t', 'a1', '-j', 'auto');
	is($rc2, 0, 'minimal, fsync off: loaded') or diag($err2);
	is($j2->{server}{wal_level}, 'minimal', 'wal_level = minimal read');
	my $cpus = $j2->{server}{cpus} // 0;
	my $parallel = $cpus >= 2 ? ($cpus < 4 ? $cpus : 4) : 1;
	is($j2->{jobs}, $parallel, "minimal, fsync off, $cpus CPUs: auto chose $parallel");
	ok($j2->{jobs_auto}, 'and says it chose');

	$min->append_conf('postgresql.conf', "fsync = on\n");
	$min->restart;
	($rc2, $j2, $err2) = load_json($min, '-s', '0.01', '-t', 'a2', '-j', 'auto');
	is($j2->{jobs}, 1, 'minimal, fsync on: auto chose one job');
	like($j2->{jobs_why}, qr/one job's COPY FREEZE writes no WAL/, 'and why');
	cmp_ok($j2->{wal_bytes}, '<', 0.1 * $j2->{pages} * 8192, 'one job on minimal: next to no WAL');
	($rc2, $j2, $err2) = load_json($min, '-s', '0.01', '-t', 'a3', '-j', 'auto', '--unlogged');
	is($j2->{jobs}, $parallel, "UNLOGGED: auto chose $parallel");
	($rc2, $j2, $err2) = load_json($min, '-s', '0.01', '-t', 'a4', '-j', '2');
	like($err2, qr/^scanbench-load: note: 2 jobs are not expected to be faster than one on this server \(wal_level = minimal/m,
		'minimal, fsync on, -j 2: a note says what it costs');
	$min->stop;
}

done_testing();
