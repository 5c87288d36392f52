# What the tests of scanbench-fleet and scanbench-probe share: where the
# program under test is, running it on a command line alone, and the
# files its options name.  (scanbench-load's tests have ScanbenchLoad.pm.)
package SbClient;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use IPC::Run;
use Test::More;

our @EXPORT = qw(client_program run_client write_file);

# client_program($name): the client $name (scanbench-fleet, ...) under
# test: the one its variable names (SCANBENCH_FLEET, ...), such as an
# installed package's; else the one built in the tree under test (prove
# runs in the tree's top directory); else the one installed in the bindir
# of the pg_config on PATH.  The test bails out when there is none, as
# every later test would fail for that one reason.
sub client_program
{
	my ($name) = @_;
	(my $var = uc $name) =~ tr/-/_/;
	my $program = $ENV{$var} // do {
		my $built = File::Spec->rel2abs("bin/$name/$name");
		my $bindir = `pg_config --bindir`;
		chomp $bindir;
		-x $built ? $built : "$bindir/$name";
	};
	-x $program or BAIL_OUT("$name is neither built in this tree nor installed ($program)");
	return $program;
}

# run_client($program, @args): the program run with nothing on standard
# input; returns (exit code, stdout, stderr).
sub run_client
{
	my ($program, @args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $program, @args ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# write_file($dir, $name, $text): $dir/$name holding $text; returns its path.
sub write_file
{
	my ($dir, $name, $text) = @_;
	open my $fh, '>', "$dir/$name" or die "$dir/$name: $!";
	print $fh $text;
	close $fh;
	return "$dir/$name";
}

1;
