# scanbench-load's rows depend on the scale, the seed and the order key only:
# one job or three, text or binary COPY, a second run, and the --stdout file
# loaded by the server's own COPY all give the same table.  Identifiers are
# escaped.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

my $node = PostgreSQL::Test::Cluster->new('load_determinism');
$node->init;
$node->start;

sub load { return run_loader($node, @_) }

sub sql { return $node->safe_psql('postgres', shift) }

# Every value of every row, in key order.
sub checksum
{
	my $t = shift;
	return sql("SELECT count(*) || ' ' || md5(string_agg(t::text, E'\\n' ORDER BY l_orderkey, l_linenumber))
				FROM $t t");
}

my @runs = (
	[ 'j1_text',   '-j', '1', '-F', 'text' ],
	[ 'j3_text',   '-j', '3', '-F', 'text' ],
	[ 'j1_binary', '-j', '1', '-F', 'binary' ],
	[ 'j3_binary', '-j', '3', '-F', 'binary' ],
	[ 'j2_again',  '-j', '2', '-F', 'text' ],
);
my %sum;
for my $r (@runs)
{
	my ($t, @args) = @$r;
	my ($rc, $out, $err) = load('-s', '0.01', '-t', $t, @args);
	is($rc, 0, "$t: loaded") or diag($err);
	$sum{$t} = checksum($t);
}
my ($count) = split / /, $sum{j1_text};
cmp_ok($count, '>', 59000, "j1_text: $count rows");
for my $t (qw(j3_text j1_binary j3_binary j2_again))
{
	is($sum{$t}, $sum{j1_text}, "$t: same rows as j1_text");
}

# A second run in the same table (--drop) gives the same rows again.
{
	my ($rc, $out, $err) = load('-s', '0.01', '-t', 'j1_text', '--drop');
	is($rc, 0, 'second run with --drop: loaded') or diag($err);
	is(checksum('j1_text'), $sum{j1_text}, 'second run: same rows');
}

# The --stdout files, text and PGCOPY, loaded by the server's own COPY.
my $dir = PostgreSQL::Test::Utils::tempdir;
for my $fmt ('text', 'binary')
{
	my $file = "$dir/lineitem.$fmt";
	IPC::Run::run([ $loader, '--stdout', '-s', '0.01', '-F', $fmt, '-q' ], '>', $file)
	  or die "--stdout -F $fmt failed";
	sql("CREATE TABLE from_$fmt (LIKE j1_text)");
	sql("COPY from_$fmt FROM '$file' (FORMAT $fmt" . ($fmt eq 'text' ? ", DELIMITER '|')" : ')'));
	is(checksum("from_$fmt"), $sum{j1_text}, "--stdout -F $fmt loaded with the server's COPY: same rows");
}

# Another seed gives other rows; the same seed the same.
{
	load('-s', '0.01', '-t', 'seed1', '--seed', '1');
	load('-s', '0.01', '-t', 'seed1b', '--seed', '1', '-j', '2', '-F', 'binary');
	isnt(checksum('seed1'), $sum{j1_text}, '--seed 1: other rows than the default seed');
	is(checksum('seed1b'), checksum('seed1'), '--seed 1: same rows with 2 jobs and binary');
}

# A table name is one identifier, always quoted: quotes, capitals, spaces and
# SQL in it stay in the name.
{
	sql('CREATE TABLE keep (i int)');
	my $name = q{Line "Item"; DROP TABLE keep; --};
	my ($rc, $out, $err) = load('-s', '0.01', '-t', $name, '-j', '2');
	is($rc, 0, 'odd table name: loaded') or diag($err);
	is(sql(q{SELECT count(*) > 0 FROM "Line ""Item""; DROP TABLE keep; --"}), 't',
		'odd table name: the table has exactly that name');
	is(sql(q{SELECT to_regclass('keep') IS NOT NULL}), 't', 'odd table name: no SQL ran from it');
	($rc, $out, $err) = load('-s', '0.01', '-t', $name, '--drop');
	is($rc, 0, 'odd table name: --drop and reload');
}

$node->stop;
done_testing();
