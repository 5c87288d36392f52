# storage_info names what lies under a relation or tablespace: on the
# cluster's own filesystem, on the loop-mounted ext2 and xfs images that
# tools/test.sh names in SCANBENCH_TEST_FS (filesystem, loop device and
# its backing file, then the backing file's own filesystem), and on tmpfs.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('storage_info');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE t AS SELECT g FROM generate_series(1, 1000) g;
});

# Rows as hashes, in level order.
# The layers storage_info (or $fn) gives for $arg.
sub layers
{
	my ($arg, $fn) = @_;
	$fn //= 'storage_info';
	my @cols = qw(level kind name parent mount_point filesystem mount_options
	  backing_file scheduler read_ahead_kb logical_block_size size_bytes note data_path tablespace);
	my $out = $node->safe_psql('postgres',
		"SELECT " . join(', ', map { "coalesce(" . $_ . "::text, '')" } @cols)
		  . " FROM $fn($arg) ORDER BY level",
		extra_params => [ '-F', "\t" ]);
	my @rows;
	for my $line (split /\n/, $out)
	{
		my %r;
		@r{@cols} = split /\t/, $line, -1;
		push @rows, \%r;
	}
	return @rows;
}

# The data directory's own filesystem, as /proc/self/mountinfo says.
my @rows = layers("'t'::regclass");
ok(@rows >= 1, 'storage_info(rel) returns rows');
is($rows[0]{kind}, 'filesystem', 'level 0 is the filesystem');
is($rows[0]{tablespace}, 'pg_default', '... in pg_default');
like($rows[0]{data_path}, qr{^base/\d+/\d+$}, "... data path of the relation ($rows[0]{data_path})");
ok($rows[0]{filesystem} ne '', "... type named ($rows[0]{filesystem})");
ok($rows[0]{mount_point} =~ m{^/}, "... mount point ($rows[0]{mount_point})");
ok($rows[0]{mount_options} =~ /\br[ow]\b/, "... mount options ($rows[0]{mount_options})");
for my $r (@rows[ 1 .. $#rows ])
{
	ok($r->{name} ne '' && $r->{parent} ne '', "device $r->{name} ($r->{kind}) under $r->{parent}");
	ok($r->{size_bytes} > 0 || $r->{note} ne '', "... has a size ($r->{size_bytes}) or a note");
}

my @ts = layers("'pg_default'", 'storage_info_tablespace');
is($ts[0]{data_path}, 'base', 'storage_info_tablespace: pg_default is base/');
is($ts[0]{filesystem}, $rows[0]{filesystem}, '... on the same filesystem');
is(scalar(@ts), scalar(@rows), '... with the same layers');

my $settings = $node->safe_psql('postgres',
	"SELECT settings->>'block_size', settings->>'segment_size', settings ? 'shared_buffers', settings ? 'effective_io_concurrency' FROM storage_info(rel => 't') LIMIT 1");
is($settings, '8192|1GB|t|t', 'settings: block_size, segment_size, shared_buffers, effective_io_concurrency');

my ($ret, $out, $err) = $node->psql('postgres', "SELECT * FROM storage_info_tablespace('no_such_ts')");
like($err, qr/tablespace "no_such_ts" does not exist/, 'an unknown tablespace is an error');

# Loop-mounted images.
my @mounts = map { [ split /:/, $_, 2 ] } grep { length } split /\s+/, ($ENV{SCANBENCH_TEST_FS} // '');
for my $m (@mounts)
{
	my ($fs, $dir) = @$m;
	my $loc = "$dir/si_$$";
	mkdir $loc or BAIL_OUT("cannot create $loc: $!");
	$node->safe_psql('postgres', qq{
		CREATE TABLESPACE si_$fs LOCATION '$loc';
		CREATE TABLE on_$fs TABLESPACE si_$fs AS SELECT 1 AS x;
	});
	for my $call ([ "'on_$fs'", 'storage_info' ], [ "'si_$fs'", 'storage_info_tablespace' ])
	{
		my ($arg, $fn) = @$call;
		my @l = layers($arg, $fn);
		is($l[0]{filesystem}, $fs, "$arg: filesystem is $fs");
		is($l[0]{tablespace}, "si_$fs", "... tablespace si_$fs");
		is($l[0]{mount_point}, $dir, "... mounted at $dir");
		like($l[0]{data_path}, qr{^pg_tblspc/\d+/PG_}, "... data path under pg_tblspc ($l[0]{data_path})");
		my ($loop) = grep { $_->{kind} eq 'loop' } @l;
		ok($loop, '... a loop device below it');
		like($loop->{name} // '', qr/^loop\d+$/, "... named $loop->{name}");
		like($loop->{backing_file} // '', qr{/\Q$fs\E\.img$}, "... backed by $loop->{backing_file}");
		ok($loop->{logical_block_size} > 0 && $loop->{size_bytes} > 0,
			'... with its block size and size');
		my ($under) = grep { $_->{kind} eq 'filesystem' && $_->{level} > $loop->{level} } @l;
		ok($under && $under->{parent} eq $loop->{name} && $under->{filesystem} ne '',
			"... whose backing file's filesystem follows (" . ($under ? $under->{filesystem} : 'none') . ')');
	}
	$node->safe_psql('postgres', "DROP TABLE on_$fs; DROP TABLESPACE si_$fs");
	rmdir $loc;
}

# tmpfs: the one tools/test.sh mounted, else any tmpfs we may write to.
SKIP:
{
	my $tmpfs = $ENV{SCANBENCH_TEST_TMPFS} // '';
	if ($tmpfs eq '' && -d '/dev/shm' && -w '/dev/shm')
	{
		open(my $mi, '<', '/proc/self/mountinfo');
		$tmpfs = '/dev/shm' if grep { (split / /)[4] eq '/dev/shm' && / - tmpfs / } <$mi>;
	}
	skip 'no writable tmpfs (SCANBENCH_TEST_TMPFS is empty and /dev/shm is not one)', 4
	  if $tmpfs eq '';
	my $loc = "$tmpfs/si_tmpfs_$$";
	mkdir $loc or skip "cannot create $loc: $!", 4;
	$node->safe_psql('postgres', "CREATE TABLESPACE si_tmpfs LOCATION '$loc'");
	my @l = layers("'si_tmpfs'", 'storage_info_tablespace');
	is($l[0]{filesystem}, 'tmpfs', 'a tablespace on tmpfs says tmpfs');
	is($l[0]{mount_point}, $tmpfs, "... mounted at $tmpfs");
	is(scalar(@l), 1, '... with no block device under it');
	like($l[0]{note}, qr/no block device/, "... and says so ($l[0]{note})");
	$node->safe_psql('postgres', 'DROP TABLESPACE si_tmpfs');
	rmdir $loc;
}

$node->stop;
done_testing();
