# What the scanbench-load TAP tests share: where the tool is, and running
# it against a node.
package ScanbenchLoad;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use IPC::Run;

our @EXPORT = qw($loader $version conn_args run_loader);

# The loader under test: the one SCANBENCH_LOAD names, such as an
# installed package's; else the one built in the tree under test (prove
# runs in the tree's top directory, with make prove_installcheck and with
# tools/test.sh); else, in a tree where it was not built, the installed one
# in the bindir of the pg_config on PATH (make prove_installcheck puts the
# server's bindir first): an installcheck tests what is installed.
our $loader = $ENV{SCANBENCH_LOAD} // built_or_installed();

sub built_or_installed
{
	my $built = File::Spec->rel2abs('bin/scanbench-load/scanbench-load');
	return $built if -x $built;
	my $bindir = `pg_config --bindir`;
	die "scanbench-load is not built in this tree ($built), and pg_config --bindir failed\n"
	  if $? || !defined $bindir;
	chomp $bindir;
	my $installed = "$bindir/scanbench-load";
	return $installed if -x $installed;
	die "scanbench-load is neither built in this tree ($built) nor installed ($installed):\n"
	  . "run make (and make install), or name one in SCANBENCH_LOAD\n";
}

# The extension's version, from the one place it is written.
our $version;
{
	open(my $fh, '<', 'scanbench.control') or die "scanbench.control: $!";
	while (<$fh>) { $version = $1 if /^default_version\s*=\s*'([^']+)'/; }
	close $fh;
	die "no default_version in scanbench.control" unless defined $version;
}

# psql-style connection options for a PostgreSQL::Test::Cluster node.
sub conn_args
{
	my ($node) = @_;
	return ('-h', $node->host, '-p', $node->port, '-d', 'postgres');
}

# Run the loader against the node; returns (exit code, stdout, stderr).
sub run_loader
{
	my ($node, @args) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $loader, conn_args($node), @args ], '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

1;
