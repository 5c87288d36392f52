# What the scanbench-load TAP tests share: where the tool is, and running
# it against a node.
package ScanbenchLoad;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use IPC::Run;

our @EXPORT = qw($loader $version conn_args run_loader);

# The binary built in the tree under test (prove runs in the tree's top
# directory, with make installcheck and with tools/test.sh), or the one
# SCANBENCH_LOAD names, such as an installed package's.
our $loader = $ENV{SCANBENCH_LOAD}
  // File::Spec->rel2abs('tools/scanbench-load/scanbench-load');

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
