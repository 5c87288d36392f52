# What a caller passes bounds what the call makes the server do.
#  - max_seconds: access_paths and index_crossover end within 20 % of it
#    on a table whose runs take longer than it, the runs the time ran out
#    in stopped and said so (over_budget), nothing left open or changed.
#  - depth × block_size: the read buffers at depth are held to 256 MB,
#    refused above with 54000, the figure and what to lower.
#  - raw reads at depth open the files as they reach them: a partitioned
#    table of more partitions than max_files_per_process is read whole,
#    at depth and at random, and no descriptor is left open.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbPartitions;

# Descriptors of process $pid open read-only on a path matching $re: the
# reads' own, as the server's storage manager opens relation files
# read-write and keeps them open in its cache.
sub readonly_fds
{
	my ($pid, $re) = @_;
	opendir(my $dh, "/proc/$pid/fd") or return -1;
	my $n = 0;
	for my $fd (grep { /^\d+$/ } readdir($dh))
	{
		my $target = readlink("/proc/$pid/fd/$fd") // next;
		next unless $target =~ $re;
		open(my $fh, '<', "/proc/$pid/fdinfo/$fd") or next;
		my ($flags) = map { /^flags:\s+(\d+)/ ? oct($1) : () } <$fh>;
		$n++ if defined $flags && ($flags & 3) == 0;
	}
	closedir($dh);
	return $n;
}

my $nparts = 200;
my $node = PostgreSQL::Test::Cluster->new('limits');
$node->init;
# A backend may hold about 80 descriptors, 27 of them transient files:
# fewer than the partitions.
$node->append_conf('postgresql.conf',
	"shared_buffers = 16MB\nautovacuum = off\nmax_files_per_process = 100\nmax_locks_per_transaction = 256\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');

# ---- depth × block_size ----

$node->safe_psql('postgres', q{
	CREATE TABLE small AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 20000) g;
});
for my $call (
	"random_read('small', 'cold', 10, 67108864, 8)",
	"raw_read('small', 'cold', 67108864, 8)",
	"random_read('small', 'asis', 10, 2097152, 256)")
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT * FROM $call");
	like($err, qr/ERROR:  54000: depth \d+ with block_size \d+ would take 512 MB of read buffers, more than the 256 MB allowed/,
		"$call: refused with 54000 and the figure");
	like($err, qr/HINT:  Lower depth to \d+, or block_size to \d+\./, "$call: saying what to lower");
}
is($node->safe_psql('postgres', "SELECT reads, depth FROM random_read('small', 'asis', 64, 1048576, 4)"),
	'64|4', 'depth 4 of 1 MB reads is read');

# ---- many partitions read at depth ----

create_list_partitions($node, 'mp', $nparts);
$node->safe_psql('postgres', qq{
	INSERT INTO mp SELECT 1 + g % $nparts, repeat('x', 200) FROM generate_series(1, 40 * $nparts) g;
	VACUUM (FREEZE, ANALYZE) mp;
});
my $bytes = $node->safe_psql('postgres',
	"SELECT sum(pg_relation_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'mp'::regclass");
my $session = $node->background_psql('postgres', on_error_stop => 0);
my $pid = $session->query_safe('SELECT pg_backend_pid()');
$pid =~ s/\D//g;
my $nodes = join('|', split /\n/, $node->safe_psql('postgres',
	"SELECT pg_relation_filenode(inhrelid) FROM pg_inherits WHERE inhparent = 'mp'::regclass"));
my $leaf_files = qr{/base/\d+/(?:$nodes)(\.\d+)?$};
for my $depth (1, 8)
{
	my $out = $session->query("SELECT segments, bytes FROM raw_read('mp', 'cold', 8192, $depth)");
	like($out, qr/^$nparts\|$bytes$/m, "raw_read at depth $depth reads every one of $nparts partitions")
	  or diag($session->{stderr});
	$out = $session->query("SELECT reads FROM random_read('mp', 'cold', 2000, 8192, $depth)");
	like($out, qr/^2000$/m, "random_read at depth $depth over $nparts partitions")
	  or diag($session->{stderr});
}
is(readonly_fds($pid, $leaf_files), 0, 'no file of theirs left open');
# Cancelled at depth, in the middle: the files are closed all the same.
$session->query("SET statement_timeout = '600ms'");
$session->query("SELECT * FROM random_read('mp', 'cold', 10000000, 8192, 16)");
like($session->{stderr}, qr/canceling statement due to statement timeout/, 'statement_timeout stops random reads at depth');
$session->query('RESET statement_timeout');
is(readonly_fds($pid, $leaf_files), 0, 'and leaves no file open');
$session->quit;

# ---- max_seconds ----

# A table whose cold runs, every row through an uncorrelated index, take
# longer than the budget: k is a permutation of the rows.
$node->safe_psql('postgres', q{
	CREATE TABLE big (id integer, k integer, pad text);
	INSERT INTO big SELECT g, (g::bigint * 7919 % 400000)::integer, repeat('x', 60) FROM generate_series(1, 400000) g;
	CREATE INDEX big_k ON big (k);
	VACUUM (FREEZE, ANALYZE) big;
	CHECKPOINT;
});
my $sum = $node->safe_psql('postgres', "SELECT md5(string_agg(pad || id || k, '' ORDER BY id)) FROM big");

# The call and its wall clock in the server, from the statement's start.
sub timed
{
	my ($sql, $budget) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SELECT string_agg(r, ';'), extract(epoch FROM clock_timestamp() - statement_timestamp())
		FROM ($sql) s(r)});
	my ($rows, $s) = split /\|/, $out;
	note("$sql: $s s (budget $budget s): " . ($rows // '') . "\n$err");
	return ($s, $rows // '', $err);
}

my $budget = 3;
my ($s, $rows, $err) = timed(
	"SELECT path || ' ' || cache || ' ' || rounds || ' ' || verdict::text FROM access_paths('big', 'big_k', selectivity => 1, max_seconds => $budget)",
	$budget);
cmp_ok($s, '<=', 1.2 * $budget, "access_paths of every row kept max_seconds $budget ($s s)");
like($rows, qr/over_budget/, 'the runs the time ran out in say so');
like($err, qr/max_seconds \(3 s\) ran out before \d+ of the runs asked for ended/, 'and a NOTICE counts them');
is(scalar(() = $rows =~ /;/g) + 1, 8, 'every path has its rows, cold and warm');

$budget = 1.5;
($s, $rows, $err) = timed(
	"SELECT rounds || ' ' || verdict::text FROM index_crossover('big', 'big_k', max_seconds => $budget)",
	$budget);
cmp_ok($s, '<=', 1.2 * $budget, "index_crossover kept max_seconds $budget ($s s)");
like($rows, qr/over_budget|^\d+ \{/, 'and returned its row');

# A budget the first rounds fit in is used, not cut short.
($s, $rows, $err) = timed(
	"SELECT path || ' ' || cache || ' ' || rounds FROM access_paths('big', 'big_k', selectivity => 0.0005, max_seconds => 8, paths => '{index}')",
	8);
cmp_ok($s, '<=', 1.2 * 8, "a small share of the rows within max_seconds 8 ($s s)");
like($rows, qr/index cold [1-9]/, 'its cold rounds were measured');

# Stopped at the deadline, the call leaves nothing behind: the session's
# settings are as they were, no descriptor is open, the data unchanged.
$session = $node->background_psql('postgres', on_error_stop => 0);
$pid = $session->query_safe('SELECT pg_backend_pid()');
$pid =~ s/\D//g;
my $filenode = $node->safe_psql('postgres', "SELECT pg_relation_filenode('big')");
my $settings = "SELECT current_setting('enable_seqscan') || current_setting('jit') || current_setting('max_parallel_workers_per_gather') || current_setting('transaction_read_only')";
my $was = $session->query_safe($settings);
$session->query_safe("SET client_min_messages = warning");
$session->query("SELECT count(*) FROM access_paths('big', 'big_k', selectivity => 1, max_seconds => 1)");
is($session->query_safe($settings), $was, 'the session\'s settings are as they were');
is(readonly_fds($pid, qr{/$filenode(\.\d+)?$}), 0, 'no descriptor of the table left open');
# A cancel that is not the deadline's still ends the call.
$session->query("SET statement_timeout = '700ms'; SELECT * FROM access_paths('big', 'big_k', selectivity => 1, max_seconds => 60)");
like($session->{stderr}, qr/canceling statement due to statement timeout/, 'statement_timeout is not taken for the deadline');
$session->quit;
is($node->safe_psql('postgres', "SELECT md5(string_agg(pad || id || k, '' ORDER BY id)) FROM big"), $sum,
	'the data is unchanged');

$node->stop;
done_testing();
