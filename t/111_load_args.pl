# scanbench-load's command line: --help wherever it comes, numbers only in
# plain decimal, a table name the server would cut short refused, and the
# password prompt of psql (-W first, -w never, otherwise when asked).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

sub run_tool
{
	my ($in, @args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, @args ], '<', \$in, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# --help and -? print the help and exit 0, after other options too.
for my $args ([ '--help' ], [ '-?' ], [ '-s', '2', '--help' ], [ '-j', '2', '-t', 'x', '--help' ],
	[ '--stdout', '-?' ])
{
	my ($rc, $out, $err) = run_tool('', @$args);
	is($rc, 0, "@$args: exit 0");
	like($out, qr/^Usage:$/m, "@$args: prints the help");
	is($err, '', "@$args: nothing on stderr");
}

# Numbers in plain decimal only: no sign, no blank, no hexadecimal.
for my $args ([ '--seed', ' -1' ], [ '--seed', '-1' ], [ '--seed', ' 1' ], [ '--seed', '+1' ],
	[ '--seed', '0x10' ], [ '--seed', '18446744073709551616' ],
	[ '-s', '0x1' ], [ '-s', ' 1' ], [ '-s', '1 ' ], [ '-s', '+1' ], [ '-s', '1e0' ], [ '-s', 'inf' ],
	[ '-j', ' 2' ], [ '-j', '0x2' ], [ '-j', '+2' ], [ '-P', ' 1' ])
{
	my ($rc, $out, $err) = run_tool('', '--stdout', @$args);
	is($rc, 2, "'@$args': exit 2");
	like($err, qr/invalid .*"\Q$args->[1]\E"/, "'@$args': names the bad value");
}
# ... while plain ones work.
for my $args ([ '--seed', '18446744073709551615' ], [ '-s', '0.01' ], [ '-s', '.01' ])
{
	my ($rc, $out, $err) = run_tool('', '--stdout', '-q', @$args);
	is($rc, 0, "'@$args': accepted");
}

# --index takes the table's own columns, each once, on a table the load
# creates; --toast's table has its own.  All before any connection.
for my $case ([ [ '--index=l_comment' ], qr/invalid --index column "l_comment": lineitem's indexes are on l_orderkey, l_partkey, l_suppkey, l_shipdate, l_commitdate, l_receiptdate/ ],
	[ [ '--index=l_partkey,l_partkey' ], qr/--index names column "l_partkey" twice/ ],
	[ [ '--index=l_partkey', '--index=l_partkey' ], qr/--index names column "l_partkey" twice/ ],
	[ [ '--index=' ], qr/--index needs a column name/ ],
	[ [ '--index=,' ], qr/invalid --index ",": must be column names separated by commas/ ],
	[ [ '--toast', '--index=l_partkey' ], qr/invalid --index column "l_partkey": part_doc's indexes are on pd_partkey/ ],
	[ [ '--index=pd_partkey' ], qr/invalid --index column "pd_partkey": lineitem's/ ],
	[ [ '--index=l_partkey', '--append' ], qr/--index builds indexes on the table a load creates: --append, --stdout and --distribute do not apply/ ],
	[ [ '--index=l_partkey', '--stdout' ], qr/--index builds indexes on the table a load creates/ ],
	[ [ '--index=l_partkey', '--distribute=l_orderkey' ], qr/--index builds indexes on the table a load creates/ ],
	[ [ '-t', 'x' x 46, '--index=l_receiptdate' ], qr/the index name "x{46}_l_receiptdate_idx" would be longer than 63 bytes/ ])
{
	my ($args, $says) = @$case;
	my ($rc, $out, $err) = run_tool('', '-h', '/nonexistent', @$args);
	is($rc, 2, "'@$args': exit 2");
	like($err, $says, "'@$args': says why");
}
{
	my ($rc, $out, $err) = run_tool('', '-h', '/nonexistent', '-t', 'x' x 45, '--index=l_receiptdate');
	is($rc, 1, 'an index name of 63 bytes: accepted (then no server)');
}

# A table name longer than the server keeps (63 bytes) is refused, in bytes.
{
	my ($rc, $out, $err) = run_tool('', '-t', 'x' x 64);
	is($rc, 2, '64-byte table name: exit 2');
	like($err, qr/longer than 63 bytes/, '64-byte table name: says why');
	($rc, $out, $err) = run_tool('', '--stdout', '-t', "\xc3\xa9" x 32);
	is($rc, 2, '32 two-byte characters, 64 bytes: exit 2');
	($rc, $out, $err) = run_tool('', '-h', '/nonexistent', '-t', 'x' x 63);
	is($rc, 1, '63 bytes: accepted (then no server)');
}

# The password prompt, against a role that must give one.
my $node = PostgreSQL::Test::Cluster->new('load_args');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	SET password_encryption = 'scram-sha-256';
	CREATE ROLE regress_load_pw LOGIN PASSWORD 'sekrit';
	GRANT CREATE ON SCHEMA public TO regress_load_pw;
});
# md5 or scram for that role only; everyone else as before.
my $hba = $node->data_dir . '/pg_hba.conf';
my $old = PostgreSQL::Test::Utils::slurp_file($hba);
open(my $fh, '>', $hba) or die $!;
print $fh "local all regress_load_pw scram-sha-256\n$old";
close $fh;
$node->reload;

my @conn = ('-h', $node->host, '-p', $node->port, '-d', 'postgres', '-U', 'regress_load_pw');
{
	local $ENV{PGPASSWORD};
	delete $ENV{PGPASSWORD};
	my ($rc, $out, $err) = run_tool("sekrit\n", @conn, '-s', '0.01', '-t', 'pw_asked', '-q');
	is($rc, 0, 'no -w/-W: prompts when the server asks') or diag($err);
	like($err, qr/Password for user regress_load_pw: /, '... with psql\'s prompt');

	($rc, $out, $err) = run_tool("sekrit\n", @conn, '-W', '-s', '0.01', '-t', 'pw_first', '-q', '-j', '2');
	is($rc, 0, '-W: prompts first, once for every connection') or diag($err);
	is(() = $err =~ /Password for user/g, 1, '-W: asks once');

	($rc, $out, $err) = run_tool("sekrit\n", @conn, '-w', '-s', '0.01', '-t', 'pw_never');
	is($rc, 1, '-w: fails without asking');
	unlike($err, qr/Password for user/, '-w: no prompt');
	like($err, qr/password/, '-w: libpq says a password was needed');

	($rc, $out, $err) = run_tool("wrong\n", @conn, '-s', '0.01', '-t', 'pw_wrong');
	is($rc, 1, 'a wrong password: exit 1');
	like($err, qr/password authentication failed/, 'a wrong password: the server says so');
}
is($node->safe_psql('postgres', "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relname LIKE 'pw\\_%'"),
	'pw_asked,pw_first', 'only the loads that had the password made tables');

$node->stop;
done_testing();
