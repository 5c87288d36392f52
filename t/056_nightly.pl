# What a nightly check on a production server needs from one call:
#  - restore => true leaves shared_buffers and the page cache holding the
#    relation's blocks as they did before (checked with pg_buffercache and
#    fincore(1), not with scanbench's own counts);
#  - a wait for the relation's lock is not measuring: the budget starts
#    once it is held, and the row and a NOTICE say how long it was;
#  - a call that measured nothing says why (empty, over_budget);
#  - what can only fail at the end (recording a run) is refused before
#    anything is measured: without the grants, in a read-only transaction.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $node = PostgreSQL::Test::Cluster->new('nightly');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 128MB\n");
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE EXTENSION pg_buffercache;
	CREATE EXTENSION pg_prewarm;
	-- No autovacuum or autoanalyze on t: either reads the table into the
	-- caches whose contents the test compares before and after.
	CREATE TABLE t (id bigint, pad text) WITH (autovacuum_enabled = off);
	INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 400000) g;
	VACUUM (ANALYZE) t;
	CREATE TABLE empty_t (id integer);
});

my $path = $node->data_dir . '/' . $node->safe_psql('postgres', q{SELECT pg_relation_filepath('t')});
my $nblocks = $node->safe_psql('postgres', q{SELECT pg_relation_size('t') / 8192});
ok($nblocks > 10000, "t has $nblocks blocks");

# Blocks of t in shared_buffers, and 4 kB pages of its file in the page cache.
sub buffers
{
	return $node->safe_psql('postgres', q{
		SELECT count(*) FROM pg_buffercache
		WHERE relfilenode = pg_relation_filenode('t') AND reldatabase =
			  (SELECT oid FROM pg_database WHERE datname = current_database())});
}

sub page_cache
{
	my $out = `fincore --bytes --noheadings --output RES '$path'`;
	die "fincore $path failed" if $?;
	$out =~ s/\s+//g;
	return $out / 8192;
}

# A state no measurement would leave: the first tenth of t in
# shared_buffers, the first half of its file (only) in the page cache.  A
# restart empties shared_buffers (its shutdown checkpoint leaves no page
# dirty), dd's nocache with count=0 drops the whole file from the page
# cache.
sub set_state
{
	$node->restart;
	# The test cluster runs with fsync off: write its pages out first, or
	# the page cache keeps them.
	system("sync -d '$path' && dd if='$path' iflag=nocache count=0 status=none") == 0
	  or die 'sync, dd nocache';
	system("dd if='$path' of=/dev/null bs=1M count=" . int($nblocks * 8192 / 2 / 1048576) . " status=none") == 0
	  or die 'dd';
	$node->safe_psql('postgres', "SELECT pg_prewarm('t', 'buffer', 'main', 0, " . int($nblocks / 10) . ")");
	# dd's last read-ahead may still be in flight, and a page under I/O is
	# not yet resident to mincore: wait until two readings agree.
	my ($last, $now) = (-1, page_cache());
	for (my $i = 0; $i < 50 && $now != $last; $i++)
	{
		select(undef, undef, undef, 0.1);
		($last, $now) = ($now, page_cache());
	}
}

set_state();
my ($buf0, $os0) = (buffers(), page_cache());
cmp_ok($buf0, '>=', int($nblocks / 10) * 0.95, "before: $buf0 blocks of t in shared_buffers");
cmp_ok($os0, '>=', $nblocks / 2 * 0.95, "before: $os0 blocks of t in the page cache");
cmp_ok($os0, '<=', $nblocks * 0.7, 'before: not all of t is in the page cache');

my $row = $node->safe_psql('postgres', q{
	SELECT pairs > 0, cached_pct_start, cached_pct_end, restored_pct, restore_s > 0
	FROM scan_efficiency('t', 'cold', max_seconds => 10, restore => true)});
my ($measured, $start_pct, $end_pct, $restored_pct, $timed) = split /\|/, $row;
is($measured, 't', 'a cold sampled call with restore measured');
my ($buf1, $os1) = (buffers(), page_cache());
cmp_ok(abs($buf1 - $buf0), '<=', 0.03 * $nblocks, "restore: shared_buffers holds $buf1 blocks of t, as before ($buf0)");
cmp_ok(abs($os1 - $os0), '<=', 0.03 * $nblocks, "restore: the page cache holds $os1 blocks of t, as before ($os0)");
cmp_ok($restored_pct, '>=', 97, "restored_pct $restored_pct");
cmp_ok(abs($end_pct - $start_pct), '<=', 3, "cached_pct_end $end_pct is cached_pct_start $start_pct");
cmp_ok(abs($start_pct - 100 * $os0 / $nblocks), '<=', 3, 'cached_pct_start agrees with fincore');
is($timed, 't', 'restore_s says how long it took');

# Without restore the same call leaves the relation evicted, and says so.
set_state();
$row = $node->safe_psql('postgres', q{
	SELECT cached_pct_start, cached_pct_end, restored_pct IS NULL, restore_s IS NULL
	FROM scan_efficiency('t', 'cold', max_seconds => 10)});
($start_pct, $end_pct, my $no_pct, my $no_s) = split /\|/, $row;
cmp_ok(abs($end_pct - $start_pct), '>', 10,
	"without restore the caches stay as the measurement left them: cached $start_pct % before, $end_pct % after");
is("$no_pct $no_s", 't t', 'without restore: restored_pct and restore_s are NULL');

# efficiency_check restores by itself.
set_state();
($buf0, $os0) = (buffers(), page_cache());
$node->safe_psql('postgres', q{CALL efficiency_check('t', max_seconds => 10, target_pct => 50)});
($buf1, $os1) = (buffers(), page_cache());
cmp_ok(abs($os1 - $os0), '<=', 0.03 * $nblocks, "efficiency_check: the page cache holds $os1 blocks of t, as before ($os0)");
cmp_ok(abs($buf1 - $buf0), '<=', 0.03 * $nblocks, "efficiency_check: shared_buffers holds $buf1 blocks of t, as before ($buf0)");

# A short call ends on few stretches, read with a large read-ahead: the
# page cache holds them in large folios (2 MB), and a drop of part of one
# drops nothing.  The restore must leave none of them behind (one is 2 %
# of t): the call's own residency, taken at once, says so.
for my $i (1 .. 3)
{
	set_state();
	my ($s, $e) = split /\|/, $node->safe_psql('postgres', q{
		SELECT cached_pct_start, cached_pct_end
		FROM scan_efficiency('t', 'cold', max_seconds => 10, target_pct => 50, restore => true)});
	cmp_ok(abs($e - $s), '<=', 0.5, "a short call ($i): cached_pct_end $e is cached_pct_start $s");
}

# A lock held by another session for 3 s: the call waits, then measures
# for its own budget, and says how long it waited.
my $holder = $node->background_psql('postgres');
my $caller = $node->background_psql('postgres', on_error_stop => 0);
$holder->query_safe('BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE;');
$caller->query_until(qr/started/, "\\echo started\n" .
	"SELECT pairs > 0, lock_wait_s FROM scan_efficiency('t', 'warm', max_seconds => 2);\n");
$node->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
	WHERE NOT l.granted AND c.relname = 't'}) or die 'no lock wait';
sleep 3;
$holder->query_safe('COMMIT');
my $out = $caller->query("\\echo done");
my ($pairs_ok, $waited) = split /\|/, (grep { /\|/ } split /\n/, $out)[0];
is($pairs_ok, 't', 'after a lock wait longer than max_seconds the call still measures');
cmp_ok($waited, '>=', 2.5, "lock_wait_s $waited");
like($caller->{stderr}, qr/waited \d+\.\d s for a lock on "t"/, 'a NOTICE says how long the call waited');
$caller->quit;
$holder->quit;

# Nothing measured: the reason, in the verdict and a NOTICE.
my ($rc, $stdout, $stderr) = $node->psql('postgres', q{SELECT pairs, verdict FROM scan_efficiency('empty_t')});
is($stdout, '0|{empty}', 'an empty relation: verdict {empty}');
like($stderr, qr/"empty_t" is empty/, 'an empty relation: a NOTICE says so');
($rc, $stdout, $stderr) = $node->psql('postgres', q{SELECT pairs, verdict FROM scan_efficiency('t', max_seconds => 0.001)});
is($stdout, '0|{over_budget}', 'a budget too small for one pair: verdict {over_budget}');
like($stderr, qr/no pair of "t" was measured within max_seconds/, 'a budget too small: a NOTICE says so');

my $recorded = $node->safe_psql('postgres', 'SELECT count(*) FROM scan_history');
# Recording is refused before measuring: a role without INSERT on the
# history, and a read-only transaction, get their error at once.
$node->safe_psql('postgres', q{
	CREATE ROLE regress_nightly LOGIN;
	GRANT EXECUTE ON FUNCTION scan_efficiency TO regress_nightly;
	GRANT SELECT ON t TO regress_nightly;
	GRANT EXECUTE ON FUNCTION scan_history_record TO regress_nightly;
});
for my $case (
	[ 'a role without INSERT on scan_history', 'SET ROLE regress_nightly;', qr/permission denied for table scan_history/ ],
	[ 'a read-only transaction', 'SET default_transaction_read_only = on;', qr/cannot record a run in a read-only transaction/ ])
{
	my ($what, $set, $re) = @$case;
	my $t0 = time;
	($rc, $stdout, $stderr) = $node->psql('postgres',
		"$set SELECT * FROM scan_efficiency('t', 'cold', max_seconds => 30, record => true)");
	my $took = time - $t0;
	like($stderr, $re, "record => true, $what: refused");
	cmp_ok($took, '<', 5, "record => true, $what: refused before measuring (${\ sprintf('%.2f', $took)} s)");
}
is($node->safe_psql('postgres', 'SELECT count(*) FROM scan_history'), $recorded, 'nothing more was recorded');

$node->stop;
done_testing();
