# A segment file changed under a call by something outside PostgreSQL (an
# operator's truncate, a restore tool, a file system fault), which
# PostgreSQL's locks cannot prevent: every reading function stops with an
# ERROR naming the file (SQLSTATE XX001 for a file that shrank), never
# counts a short read as complete, never faults (a SIGBUS from a mapping
# past the new end would make the postmaster restart every session), and
# leaves no descriptor open.  A file that grows or disappears once opened
# is read as it was at the start, or reported.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;
use Time::HiRes qw(usleep time);

my $node = PostgreSQL::Test::Cluster->new('files_changed');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\nautovacuum = off\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');

# Another session, which must outlive every case: a backend that dies of a
# signal takes every session with it.
my $watcher = $node->background_psql('postgres');

# A fresh table of about 48 MB; its file path, relative and absolute, and
# its size.
sub fresh_victim
{
	$node->safe_psql('postgres', q{
		DROP TABLE IF EXISTS victim;
		CREATE TABLE victim WITH (fillfactor = 10) AS
			SELECT g FROM generate_series(1, 150000) g;
		VACUUM (ANALYZE) victim;
		CHECKPOINT;
	});
	my $rel = $node->safe_psql('postgres', "SELECT pg_relation_filepath('victim')");
	my $size = $node->safe_psql('postgres', "SELECT pg_relation_size('victim')");
	return ($rel, $node->data_dir . "/$rel", $size);
}

# Run $call in a session of its own; as soon as its backend has the
# table's file open (its size is then fixed), stop the backend, apply
# $change to the file, and let it go on.  Returns the SQLSTATE (empty on
# success), the output and stderr of the call, whether the file was seen
# open, the file's path and size, and the backend's descriptors to it
# after the table was dropped.
sub call_under_change
{
	my ($call, $change) = @_;
	my ($rel, $file, $size) = fresh_victim();
	my $caller = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $caller->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\s+//g;
	my $base = $rel;
	$base =~ s{.*/}{};

	$caller->query_until(qr/started/, "\\echo started\n$call;\n\\echo done\n");
	my $deadline = time + 60;
	my $seen = 0;
	while (time < $deadline)
	{
		if (open_fds($pid, qr{/\Q$base\E$}) > 0)
		{
			$seen = 1;
			last;
		}
		usleep(200);
	}
	# Nothing may ask about the stopped backend meanwhile: a reader of
	# pg_stat_activity waits for a status it was in the middle of writing.
	kill 'STOP', $pid;
	$change->($file, $size);
	kill 'CONT', $pid;

	my $out = $caller->query("\\echo :LAST_ERROR_SQLSTATE");
	my $err = $caller->{stderr};
	$out =~ s/\s+$//;
	my @lines = split /\n/, $out;
	my $state = $lines[-1] // '';
	$state = '' if $state eq '00000';

	# The table is damaged: drop it; the caller's descriptors to it go with
	# the invalidation its next statement takes in.
	$node->safe_psql('postgres', 'DROP TABLE victim');
	$caller->query('SELECT 1');
	my $fds = open_fds($pid, qr{/\Q$base\E(\.\d+)?$});
	$caller->quit;
	return ($state, $out, $err, $seen, $rel, $size, $fds);
}

sub survived
{
	my ($what) = @_;
	my $ok = eval { $watcher->query_safe('SELECT 1') =~ /1/ };
	ok($ok, "$what: the other session survived");
	$watcher = $node->background_psql('postgres') unless $ok;
}

# Each call, and what it returns when it read the table whole (given its
# size at the start).
my $bytes = sub { $_[0] };
my @calls = (
	[ raw_read => "SELECT bytes FROM raw_read('victim', 'cold', 8192)", $bytes ],
	[ raw_read_segments => "SELECT bytes FROM raw_read_segments('victim', 'cold', 8192)", $bytes ],
	[ random_read => "SELECT reads FROM random_read('victim', 'cold', reads => 20000)", sub { 20000 } ],
	# bytes is the size at the start however many pairs were read: a
	# budget of its own, not the default minute a busy machine's pairs
	# spent before their interval narrowed.
	[ 'scan_efficiency pairs' => "SELECT bytes FROM scan_efficiency('victim', 'cold', max_seconds => 5)", $bytes ],
	[ 'scan_efficiency whole' => "SELECT bytes FROM scan_efficiency('victim', 'cold', method => 'whole')", $bytes ],
	[ scan_rate => "SELECT bytes FROM scan_rate('victim', 'cold')", $bytes ],
	[ scan_breakdown => "SELECT bytes FROM scan_breakdown('victim', 'cold')", $bytes ],
);

my $truncate = sub { truncate($_[0], 8192) or die "truncate $_[0]: $!" };
my $remove = sub { unlink($_[0]) or die "unlink $_[0]: $!" };
my $grow = sub {
	open(my $fh, '>>', $_[0]) or die "open $_[0]: $!";
	binmode $fh;
	print $fh "\0" x 81920;
	close $fh;
};

foreach my $c (@calls)
{
	my ($name, $call, $full) = @$c;

	# Shrunk: an ERROR naming the file, whatever step the call was at.  A
	# stop that came after the call's last read (a machine too slow to
	# catch it) gets another try; a success that counted every byte of a
	# file cut to one block is what must never happen.
	my ($state, $out, $err, $in_time, $rel, $size, $fds);
	for my $try (1 .. 3)
	{
		($state, $out, $err, $in_time, $rel, $size, $fds) =
		  call_under_change($call, $truncate);
		last if $state ne '' || !$in_time;
		note "$name: the stop came after the call's last read, trying again";
	}
	is($state, 'XX001', "$name, file truncated: SQLSTATE XX001 (data corrupted)")
	  or diag("output: $out\nstderr: $err");
	like($err, qr/\Q$rel\E/, "$name, file truncated: the error names the file");
	like($err, qr/shrank|read only \d+ of \d+ bytes|truncated/,
		"$name, file truncated: ... and says what changed");
	my $whole = $full->($size);
	unlike($out, qr/^$whole$/m, "$name, file truncated: no complete read reported");
	is($fds, 0, "$name, file truncated: no descriptor left open");
	survived("$name, file truncated");

	# Grown: the blocks fixed at the start, every one of them.
	($state, $out, $err, $in_time, $rel, $size, $fds) = call_under_change($call, $grow);
	is($state, '', "$name, file grown: no error") or diag("stderr: $err");
	$whole = $full->($size);
	like($out, qr/^$whole$/m, "$name, file grown: the size at the start measured");
	survived("$name, file grown");

	# Removed: the open descriptor still reads the file, or the next open
	# fails naming it.
	($state, $out, $err, $in_time, $rel, $size, $fds) = call_under_change($call, $remove);
	if ($state eq '')
	{
		$whole = $full->($size);
		like($out, qr/^$whole$/m, "$name, file removed: read whole through the open descriptor");
	}
	else
	{
		like($err, qr/could not open file "\Q$rel\E/,
			"$name, file removed: the error names the file ($state)");
	}
	is($fds, 0, "$name, file removed: no descriptor left open");
	survived("$name, file removed");
}

my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal/, 'no backend was terminated by a signal');
unlike($log, qr/all server processes terminated; reinitializing/, 'the server never restarted');

$watcher->quit;
$node->stop;
done_testing();
