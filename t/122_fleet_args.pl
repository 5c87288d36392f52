# scanbench-fleet's command line and servers file: every bad one exits 2
# before anything connects, with a message naming what (and, in the file,
# which line) is wrong; --help and --version.  And the judgement as a unit:
# bin/scanbench-fleet/test/test_cohort.c, built from the fleet's objects
# and run without a server, each of its checks a test here.
use strict;
use warnings;
use File::Temp qw(tempdir);
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use SbClient;

my $fleet = client_program('scanbench-fleet');

my $dir = tempdir('sb-fleet-args-XXXX', TMPDIR => 1, CLEANUP => 1);

sub file { return write_file($dir, @_); }
sub fleet { return run_client($fleet, @_); }

my ($rc, $out, $err) = fleet('--help');
is($rc, 0, '--help exits 0');
like($out, qr/^Usage:/m, '--help: usage');
like($out, qr/Exit status:\n  0 .*\n.*\n  1 an alarm.*\n.*\n  2 could not run/s, '--help: the exit status');
for my $o (qw(--servers --relation --history --format --jobs --cache --max-seconds --target-pct --sample --timeout))
{
	like($out, qr/\Q$o\E/, "--help names $o");
}
unlike($out, qr/\b(issue|floor|seed|helper|lead)\b/i, '--help speaks to users');
($rc, $out) = fleet('--version');
like($out, qr/^scanbench-fleet \(scanbench\) \d+\.\d+/, '--version');

my $good = file('good', "# a comment\n\npostgresql://%2Fnowhere:1/postgres name=a class=x   # trailing\nservice=b\n");
my @ok = ('--servers', $good, '--relation', 't', '--history', 'postgresql://%2Fnowhere:1/postgres',
	'--connect-timeout', '1');

for my $case (
	[ [qw(--relation t --history h)], qr/no servers file given/ ],
	[ [ '--servers', $good, '--history', 'h' ], qr/no relation given/ ],
	[ [ '--servers', $good, '--relation', 't' ], qr/no central history given/ ],
	[ [ @ok, '--jobs', '0' ], qr/invalid number of jobs "0"/ ],
	[ [ @ok, '--jobs', '0x4' ], qr/invalid number of jobs "0x4"/ ],
	[ [ @ok, '--format', 'xml' ], qr/invalid format "xml": must be table, csv or json/ ],
	[ [ @ok, '--cache', 'bogus' ], qr/invalid cache mode "bogus"/ ],
	[ [ @ok, '--max-seconds', '0' ], qr/invalid time budget "0"/ ],
	[ [ @ok, '--sample', '1.5' ], qr/invalid sample fraction "1.5"/ ],
	[ [ @ok, '--target-pct', '-1' ], qr/invalid target "-1"/ ],
	# As efficiency_check takes it: above 0 and below 100.
	[ [ @ok, '--max-drop-pct=100' ], qr/invalid drop "100": must be a number above 0 and below 100/ ],
	[ [ @ok, '--max-drop-pct=0' ], qr/invalid drop "0"/ ],
	# Bounds printed as integers, not as 2.14748e+06.
	[ [ @ok, '--timeout', '0' ], qr/invalid timeout "0": must be a number above 0 and at most 2147483$/m ],
	[ [ @ok, '--max-seconds', '30', '--timeout', '10' ], qr/--timeout 10 is shorter than --max-seconds 30/ ],
	[ [ @ok, '--relation', '' ], qr/the relation name must not be empty/ ],
	[ [ @ok, 'extra' ], qr/too many command-line arguments \(first is "extra"\)/ ],
	[ [ @ok, '--bogus' ], qr/unrecognized option|Try "scanbench-fleet --help"/ ])
{
	my ($args, $want) = @$case;
	($rc, $out, $err) = fleet(@$args);
	is($rc, 2, "exit 2: @$args");
	like($err, $want, "... says so");
}

for my $case (
	[ "host=x port=1\n", qr/:1: "host=x" is neither a connection URI/ ],
	[ "# ok\npostgresql://a/db class\n", qr/:2: "class" is not a tag=value word/ ],
	[ "postgresql://a/db class=\n", qr/:1: "class=" is not a tag=value word/ ],
	[ "postgresql://a/db x=1 x=2\n", qr/:1: tag "x" is given twice/ ],
	[ "postgresql://a/db name=p\npostgresql://b/db name=p\n", qr/:2: server "p" is named on line 1 too/ ],
	[ "postgresql://a/db\npostgresql://a/db\n", qr/:2: server "a:5432\/db" is named on line 1 too/ ],
	[ "# nothing\n\n", qr/names no server/ ],
	[ "postgresql://a/db?nosuchoption=1\n", qr/:1: invalid connection string "postgresql:\/\/a\/db\?nosuchoption=1": .*nosuchoption/ ])
{
	my ($text, $want) = @$case;
	my $f = file('bad', $text);
	($rc, $out, $err) = fleet('--servers', $f, '--relation', 't', '--history', 'h');
	is($rc, 2, 'exit 2: servers file ' . ($text =~ s/\n/\\n/gr));
	like($err, $want, '... names the line and what is wrong');
}

# A line that cannot be used is named with its reason before anything
# connects, and the others go on (to the central history, unreachable
# here); a file with no usable line is refused.
for my $case (
	[ "postgresql://a/db name=caf\xe9\n", qr/:2: not valid UTF-8/, 'a Latin-1 byte' ],
	[ "postgresql://a/db name=\xc0\xaf\n", qr/:2: not valid UTF-8/, 'an overlong UTF-8 form' ],
	[ "postgresql://a/db\0 name=x\n", qr/:2: a NUL byte at byte 18 of the line/, 'a NUL byte' ],
	[ 'postgresql://a/db name=' . ('x' x 9000) . "\n", qr/:2: line longer than 8190 bytes/, 'a long line' ])
{
	my ($bad, $want, $what) = @$case;
	my $f = file('mixed', "postgresql://%2Fnowhere:1/postgres name=good\n$bad");
	($rc, $out, $err) = fleet('--servers', $f, '--relation', 't', '--history',
		'postgresql://%2Fnowhere:1/postgres', '--connect-timeout', '1');
	like($err, $want, "servers file with $what: the line and the reason");
	like($err, qr/could not connect to the central history/,
		'... and the other lines go on to the central history');
	unlike($err, qr/line longer/, '... not taken for a long line') unless $what eq 'a long line';
	$f = file('allbad', $bad);
	($rc, $out, $err) = fleet('--servers', $f, '--relation', 't', '--history', 'h');
	is($rc, 2, "exit 2: a servers file whose only line has $what");
	like($err, qr/names no server that can be measured/, '... said');
}
{
	my $f = file('utf8', "postgresql://%2Fnowhere:1/postgres name=caf\xc3\xa9 zone=\xe6\x9d\xb1\n");
	($rc, $out, $err) = fleet('--servers', $f, '--relation', 't', '--history',
		'postgresql://%2Fnowhere:1/postgres', '--connect-timeout', '1');
	unlike($err, qr/UTF-8/, 'valid UTF-8 in names and tags is taken');
}

($rc, $out, $err) = fleet('--servers', "$dir/missing", '--relation', 't', '--history', 'h');
is($rc, 2, 'exit 2: a servers file that does not exist');
like($err, qr/could not open servers file ".*missing": No such file/, '... named');

# A good file, an unreachable history: 2, and no server is tried.
($rc, $out, $err) = fleet(@ok);
is($rc, 2, 'the central history unreachable: exit 2');
like($err, qr/could not connect to the central history/, '... said');
is($out, '', '... before anything is measured or printed');

# The judgement, as a unit.
my $src = 'bin/scanbench-fleet';
($out, $err) = ('', '');
IPC::Run::run([ 'make', '-s', '-C', $src, 'test/test_cohort', 'PG_CONFIG=pg_config' ], '>', \$out, '2>', \$err);
is($? >> 8, 0, 'the judgement test program builds') or diag("$out$err");
if (-x "$src/test/test_cohort")
{
	($out, $err) = ('', '');
	IPC::Run::run([ "$src/test/test_cohort" ], '>', \$out, '2>', \$err);
	my $rc = $? >> 8;
	my $checks = 0;
	for my $line (split /\n/, $out)
	{
		next unless $line =~ /^(ok|not ok) - (.*)$/;
		ok($1 eq 'ok', "judgement: $2");
		$checks++;
	}
	cmp_ok($checks, '>=', 15, "judgement: $checks checks reported");
	is($rc, 0, 'the judgement test program exits 0') or diag($err);
}

done_testing();
