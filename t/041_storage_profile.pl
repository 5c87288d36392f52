# storage_profile: every test row with a rate, on the cluster's own disk,
# on each test filesystem and on tmpfs; the tablespace's directory tree is
# the same afterwards, after a statement_timeout mid-profile too; a size
# that does not fit is refused before anything is written.
use strict;
use warnings;
use File::Find;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;

my $node = PostgreSQL::Test::Cluster->new('storage_profile');
$node->init;
# The crash test below needs the server to come back by itself.
$node->append_conf('postgresql.conf', 'restart_after_crash = on');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');
my $pgdata = $node->data_dir;

# Every path under dir, with each file's size: what "the same tree" means.
sub tree
{
	my ($dir) = @_;
	my @entries;
	find({ no_chdir => 1, wanted => sub {
		my $size = -d $_ ? 'dir' : (-s _ // 0);
		push @entries, "$File::Find::name $size";
	} }, $dir);
	return join("\n", sort @entries);
}

# Space in use on the filesystem at dir, once it stops changing: xfs frees
# the blocks of a deleted file in the background, after unlink returns.
sub settled_df
{
	my ($dir) = @_;
	my $last = '';
	for (1 .. 50)
	{
		system('sync', '-f', $dir);
		my $now = (split /\s+/, `df -P -k '$dir' | tail -1`)[2];
		return $now if $now eq $last;
		$last = $now;
		select(undef, undef, undef, 0.2);
	}
	return $last;
}

my @tests = qw(seq_write rewrite seq_read random_read random_write);

sub check_profile
{
	my ($ts, $dir, $what) = @_;
	# A checkpoint first: a relation dropped earlier (the install script
	# rewrites a table) leaves an empty file until the next one, which the
	# crash restart below would make.
	$node->safe_psql('postgres', 'CHECKPOINT');
	my $before = tree($dir);
	my $out = $node->safe_psql('postgres', qq{
		SELECT test, bytes, ops, mb_s, coalesce(iops, 0), coalesce(latency_p50_us, 0),
		       coalesce(latency_p99_us, 0), cpu_pct, coalesce(cached_pct_before, -1)
		FROM storage_profile('$ts', size_mb => 16, random_ops => 300)});
	my @rows = map { [ split /\|/ ] } split /\n/, $out;
	is_deeply([ map { $_->[0] } @rows ], \@tests, "$what: one row per test, in order");
	for my $r (@rows)
	{
		my ($test, $bytes, $ops, $mb_s, $iops, $p50, $p99, $cpu, $cached) = @$r;
		cmp_ok($mb_s, '>', 0, "$what $test: $mb_s MB/s");
		if ($test =~ /^random/)
		{
			is($ops, 300, "$what $test: the operations asked for");
			is($bytes, 300 * 8192, "$what $test: 8 kB each");
			ok($iops > 0 && $p50 > 0 && $p99 >= $p50, "$what $test: $iops IOPS, p50 $p50 us, p99 $p99 us");
		}
		else
		{
			is($bytes, 16000000 - 16000000 % 8192, "$what $test: the whole scratch file");
		}
		ok($cpu >= 0, "$what $test: cpu_pct $cpu");
	}
	my %cached = map { $_->[0] => $_->[8] } @rows;
	return ($before, \%cached);
}

my ($before, $cached) = check_profile('pg_default', "$pgdata/base", 'pg_default');
cmp_ok($cached->{seq_read}, '<', 5, "pg_default: seq_read starts cold ($cached->{seq_read} %)");
is(tree("$pgdata/base"), $before, 'pg_default: base/ is exactly as before');

# Cancel mid-profile, at several points: the scratch file and a pgsql_tmp
# directory the call created are gone.
for my $ms (50, 300, 1200)
{
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SET statement_timeout = $ms;
		SELECT * FROM storage_profile(size_mb => 200, random_ops => 100000)});
	like($err, qr/statement timeout/, "statement_timeout after $ms ms stops the profile");
	is(tree("$pgdata/base"), $before, "... and base/ is exactly as before");
}

# The same in one session: no descriptor on a temporary file is left open.
{
	my $session = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $session->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\D//g;
	$session->query("SET statement_timeout = '400ms'; SELECT * FROM storage_profile(size_mb => 200, random_ops => 5000000)");
	my $stderr = $session->{stderr};
	$session->query("RESET statement_timeout");
	$stderr .= $session->{stderr};
	like($stderr, qr/canceling statement due to statement timeout/, 'in a session: cancelled');
	is(open_fds($pid, qr{/pgsql_tmp/}), 0, '... and no descriptor on a temporary file is left open');
	is(tree("$pgdata/base"), $before, '... and base/ is exactly as before');
	$session->quit;
}

# A backend killed mid-profile takes the server through crash recovery,
# whose start-up removes temporary files: nothing of the profile is left
# but, at most, the empty pgsql_tmp directory every server may have.
{
	my ($stdout, $stderr) = ('', '');
	my $h = IPC::Run::start(
		[ 'psql', '-X', '-d', $node->connstr('postgres'), '-c',
		  'SELECT * FROM storage_profile(size_mb => 200, random_ops => 5000000)' ],
		'>', \$stdout, '2>', \$stderr);
	my $pid;
	for (1 .. 100)
	{
		$pid = $node->safe_psql('postgres',
			"SELECT pid FROM pg_stat_activity WHERE query LIKE '%storage_profile(size_mb => 200%' AND pid <> pg_backend_pid()");
		last if $pid && -d "$pgdata/base/pgsql_tmp";
		select(undef, undef, undef, 0.05);
	}
	ok($pid, "the profile runs (backend $pid)");
	select(undef, undef, undef, 0.3);
	kill 'KILL', $pid;
	$h->finish;
	$node->poll_query_until('postgres', 'SELECT 1', '1');
	my @left = glob("$pgdata/base/pgsql_tmp/*");
	is(scalar(@left), 0, 'after the crash restart no scratch file is left');
	rmdir "$pgdata/base/pgsql_tmp";
	# Crash restart also drops the relcache init files, rebuilt on connect.
	my $strip = sub { join "\n", grep { !/pg_internal\.init/ } split /\n/, shift };
	is($strip->(tree("$pgdata/base")), $strip->($before),
		'... and base/ is as before but for pgsql_tmp');
}

# Too large: refused, and nothing was written.
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT * FROM storage_profile(size_mb => 16000000)");
	like($err, qr/does not fit in tablespace "pg_default"/, 'a size over the free space is refused');
	like($err, qr/MB free/, '... saying how much is free');
	is(tree("$pgdata/base"), $before, '... before anything is written');
}

# The same on each mounted filesystem, where sizes are small enough to hit.
my @mounts = map { [ split /:/, $_, 2 ] } grep { length } split /\s+/, ($ENV{SCANBENCH_TEST_FS} // '');
push @mounts, [ 'tmpfs', $ENV{SCANBENCH_TEST_TMPFS} ] if ($ENV{SCANBENCH_TEST_TMPFS} // '') ne '';
for my $m (@mounts)
{
	my ($fs, $dir) = @$m;
	my $loc = "$dir/sp_$$";
	mkdir $loc or BAIL_OUT("cannot create $loc: $!");
	$node->safe_psql('postgres', "CREATE TABLESPACE sp_$fs LOCATION '$loc'");
	my ($tree_before) = check_profile("sp_$fs", $loc, $fs);
	is(tree($loc), $tree_before, "$fs: the tablespace's tree is exactly as before");
	if ($fs eq 'tmpfs')
	{
		# tmpfs keeps every page: the random rates are the page cache's.
		my ($r, $o, $e) = $node->psql('postgres',
			"SELECT count(*) FROM storage_profile('sp_$fs', size_mb => 16, random_ops => 300)");
		like($e, qr/NOTICE:  random_read: 100 % of the scratch file was still in the page cache/,
			"$fs: a NOTICE says random_read ran from the page cache");
	}

	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SET statement_timeout = 200;
		SELECT * FROM storage_profile('sp_$fs', size_mb => 100, random_ops => 5000000)});
	like($err, qr/statement timeout/, "$fs: statement_timeout stops the profile");
	is(tree($loc), $tree_before, "$fs: ... and the tree is exactly as before");

	my $df_before = settled_df($dir);
	($ret, $out, $err) = $node->psql('postgres',
		"SELECT * FROM storage_profile('sp_$fs', size_mb => 2000)");
	like($err, qr/does not fit in tablespace "sp_$fs"/, "$fs: 2 GB is refused");
	is(tree($loc), $tree_before, "$fs: ... with nothing written");
	is(settled_df($dir), $df_before, "$fs: ... and the same space in use");
	$node->safe_psql('postgres', "DROP TABLESPACE sp_$fs");
	rmdir $loc;
}

# Privileges: EXECUTE alone is not enough for another tablespace; CREATE is.
SKIP:
{
	skip 'no mounted tablespace to test CREATE on', 2 unless @mounts;
	my ($fs, $dir) = @{ $mounts[0] };
	my $loc = "$dir/spp_$$";
	mkdir $loc;
	$node->safe_psql('postgres', qq{
		CREATE TABLESPACE spp LOCATION '$loc';
		CREATE ROLE regress_sp_user;
		GRANT EXECUTE ON FUNCTION storage_profile(name, integer, integer, integer) TO regress_sp_user;
	});
	my ($ret, $out, $err) = $node->psql('postgres', q{
		SET ROLE regress_sp_user;
		SELECT count(*) FROM storage_profile('spp', size_mb => 2, random_ops => 10)});
	like($err, qr/permission denied for tablespace spp/, 'without CREATE on the tablespace: refused');
	$node->safe_psql('postgres', 'GRANT CREATE ON TABLESPACE spp TO regress_sp_user');
	is($node->safe_psql('postgres', q{
		SET ROLE regress_sp_user;
		SELECT count(*) FROM storage_profile('spp', size_mb => 2, random_ops => 10)}),
		5, 'with CREATE: all five tests');
	$node->safe_psql('postgres', q{
		REVOKE ALL ON TABLESPACE spp FROM regress_sp_user;
		DROP OWNED BY regress_sp_user; DROP ROLE regress_sp_user; DROP TABLESPACE spp});
	rmdir $loc;
}

# Random operations that touch a block twice were partly the page cache's:
# a NOTICE says so (16 MB is 1953 blocks; 5000 operations repeat some).
{
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT count(*) FROM storage_profile(size_mb => 16, random_ops => 5000)");
	is($ret, 0, 'more random operations than blocks: measured');
	like($err, qr/random_read: 5000 operations on 1953 blocks of 8192 bytes touched some blocks twice/,
		'... with a NOTICE for random_read');
	like($err, qr/random_write: 5000 operations/, '... and one for random_write');
	($ret, $out, $err) = $node->psql('postgres',
		"SELECT count(*) FROM storage_profile(size_mb => 16, random_ops => 300)");
	unlike($err, qr/touched some blocks twice/, 'fewer operations than blocks: no such NOTICE');
}

$node->stop;
done_testing();
