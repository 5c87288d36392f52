# The DBT-3 generator of scanbench-load as a unit: its test program
# (bin/scanbench-load/test/test_dbt3.c) is built from the generator's
# objects alone and run without a server; each of its checks is a test here.
use strict;
use warnings;
use Test::More;
use IPC::Run;

my $dir = 'bin/scanbench-load';
my ($out, $err) = ('', '');

# pg_config on PATH is the one of the server under test (make
# prove_installcheck and tools/test.sh put its bindir first).
IPC::Run::run([ 'make', '-s', '-C', $dir, 'test/test_dbt3', 'PG_CONFIG=pg_config' ],
	'>', \$out, '2>', \$err);
is($? >> 8, 0, 'the generator test program builds') or diag("$out$err");
unless (-x "$dir/test/test_dbt3")
{
	done_testing();
	exit;
}

($out, $err) = ('', '');
IPC::Run::run([ "$dir/test/test_dbt3" ], '>', \$out, '2>', \$err);
my $rc = $? >> 8;
my $checks = 0;
for my $line (split /\n/, $out)
{
	next unless $line =~ /^(ok|not ok) - (.*)$/;
	ok($1 eq 'ok', "generator: $2");
	$checks++;
}
cmp_ok($checks, '>=', 15, "generator: $checks checks reported");
is($rc, 0, 'generator test program exits 0') or diag($err);

done_testing();
