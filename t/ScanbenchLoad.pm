# What the scanbench-load TAP tests share: where the tool is, and running
# it against a node.
package ScanbenchLoad;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;

our @EXPORT = qw($loader conn_args run_loader);

# The binary built in the tree under test.
our $loader = "$ENV{TESTDIR}/tools/scanbench-load";

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
