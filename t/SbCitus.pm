# A three-node Citus cluster for the t/06x tests: a coordinator and two
# workers, PostgreSQL::Test::Cluster nodes with Citus preloaded, listening
# on localhost so that they can reach each other over TCP.
#
# Citus is built by tools/citus-build.sh (tools/test.sh does it) from the
# vendored sources; on a server Citus does not support, or where it was
# not built, the tests skip.
package SbCitus;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The reason to skip, or undef when a Citus cluster can be started.
sub unavailable
{
	# tools/test.sh --no-citus: Citus is another major's to test.
	return $ENV{SCANBENCH_NO_CITUS} if $ENV{SCANBENCH_NO_CITUS};
	my $version = `pg_config --version`;
	my ($major) = $version =~ /PostgreSQL (\d+)/;
	return "Citus supports PostgreSQL 16 to 18, this is $major"
	  if !$major || $major < 16 || $major > 18;
	my $pkglib = `pg_config --pkglibdir`;
	chomp $pkglib;
	return "Citus is not installed for this server (tools/citus-build.sh)"
	  unless -f "$pkglib/citus.so";
	return undef;
}

# Skips the whole file unless Citus is there.
sub require_citus
{
	my $why = unavailable();
	plan skip_all => $why if defined $why;
}

# Returns (coordinator, worker1, worker2), started, with Citus and scanbench
# created and the workers added; the coordinator holds no shards.
sub start_cluster
{
	my ($name) = @_;
	my @nodes;
	for my $role ('coord', 'w1', 'w2')
	{
		my $node = PostgreSQL::Test::Cluster->new("${name}_$role");
		$node->init;
		$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'citus'
listen_addresses = 'localhost'
shared_buffers = 32MB
max_worker_processes = 16
});
		$node->start;
		$node->safe_psql('postgres', 'CREATE EXTENSION citus');
		push @nodes, $node;
	}
	my ($coord, @workers) = @nodes;
	$coord->safe_psql('postgres',
		"SELECT citus_set_coordinator_host('localhost', " . $coord->port . ")");
	$coord->safe_psql('postgres',
		"SELECT citus_add_node('localhost', " . $_->port . ")")
	  for @workers;
	# Citus creates it on the workers too.
	$coord->safe_psql('postgres', 'CREATE EXTENSION scanbench');
	return @nodes;
}

# The placements of $table on $worker, as the shardids and shards
# arguments of scan_efficiency_node() (SQL text), so that a test can read
# or set one worker's caches of them there.
sub placement_args
{
	my ($coord, $worker, $table) = @_;
	return $coord->safe_psql('postgres', qq{
		SELECT quote_literal(array_agg(s.shardid ORDER BY s.shardid)::text) || ', ' ||
		       quote_literal(array_agg(shard_name(s.logicalrelid, s.shardid) ORDER BY s.shardid)::text)
		FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid)
		JOIN pg_dist_node n USING (groupid)
		WHERE s.logicalrelid = '$table'::regclass AND n.nodeport = @{[ $worker->port ]}});
}

1;
