# scan_efficiency(with_write => true): the write rate in the relation's own
# tablespace, capped by free space, with CREATE on that tablespace needed;
# the tablespace's tree is the same afterwards.
use strict;
use warnings;
use File::Find;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('with_write');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE w AS SELECT g, md5(g::text) AS v FROM generate_series(1, 50000) g;
	VACUUM (FREEZE, ANALYZE) w;
});
my $pgdata = $node->data_dir;

sub tree
{
	my ($dir) = @_;
	my @entries;
	find({ no_chdir => 1, wanted => sub {
		push @entries, "$File::Find::name " . (-d $_ ? 'dir' : (-s _ // 0));
	} }, $dir);
	return join("\n", sort @entries);
}

my $before = tree("$pgdata/base");
my ($w, $scan) = split /\|/, $node->safe_psql('postgres',
	"SELECT write_mb_s, scan_pct FROM scan_efficiency('w', with_write => true, max_seconds => 5)");
cmp_ok($w, '>', 0, "with_write: write_mb_s $w MB/s");
cmp_ok($scan, '>', 0, "... beside scan_pct $scan");
is(tree("$pgdata/base"), $before, '... and base/ is exactly as before');
is($node->safe_psql('postgres',
	"SELECT write_mb_s IS NULL FROM scan_efficiency('w', max_seconds => 5)"),
	't', 'without with_write: write_mb_s is NULL');

my @mounts = map { [ split /:/, $_, 2 ] } grep { length } split /\s+/, ($ENV{SCANBENCH_TEST_FS} // '');
push @mounts, [ 'tmpfs', $ENV{SCANBENCH_TEST_TMPFS} ] if ($ENV{SCANBENCH_TEST_TMPFS} // '') ne '';
for my $m (@mounts)
{
	my ($fs, $dir) = @$m;
	my $loc = "$dir/ww_$$";
	mkdir $loc or BAIL_OUT("cannot create $loc: $!");
	$node->safe_psql('postgres', qq{
		CREATE TABLESPACE ww_$fs LOCATION '$loc';
		CREATE TABLE w_$fs TABLESPACE ww_$fs AS SELECT * FROM w;
		VACUUM (FREEZE, ANALYZE) w_$fs;
	});
	my $t0 = tree($loc);
	my $w = $node->safe_psql('postgres',
		"SELECT write_mb_s FROM scan_efficiency('w_$fs', with_write => true, max_seconds => 5)");
	cmp_ok($w, '>', 0, "$fs: write_mb_s $w MB/s in the relation's tablespace");
	is(tree($loc), $t0, "$fs: ... and its tree is exactly as before");

	# Only roles that may create files there may write there.
	$node->safe_psql('postgres', qq{
		CREATE ROLE regress_ww;
		GRANT EXECUTE ON FUNCTION scan_efficiency(regclass, text, integer, integer, float8, float8, float8, text, boolean, boolean, boolean) TO regress_ww;
		GRANT SELECT ON w_$fs TO regress_ww;
	});
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		SET ROLE regress_ww;
		SELECT write_mb_s FROM scan_efficiency('w_$fs', with_write => true, max_seconds => 5)});
	like($err, qr/permission denied for tablespace ww_$fs/, "$fs: without CREATE on the tablespace, refused");
	is($node->safe_psql('postgres', qq{
		SET ROLE regress_ww;
		SELECT write_mb_s IS NULL FROM scan_efficiency('w_$fs', max_seconds => 5)}),
		't', "$fs: ... while without with_write it needs no CREATE");
	$node->safe_psql('postgres', qq{
		DROP OWNED BY regress_ww; DROP ROLE regress_ww;
		DROP TABLE w_$fs; DROP TABLESPACE ww_$fs});
	rmdir $loc;
}

# A relation larger than the free space: the write is capped, not refused.
SKIP:
{
	my $tmpfs = $ENV{SCANBENCH_TEST_TMPFS} // '';
	skip 'no small tmpfs mounted (SCANBENCH_TEST_TMPFS)', 9 if $tmpfs eq '';
	my $loc = "$tmpfs/wbig_$$";
	mkdir $loc;
	# fillfactor 10: about 150 MB on a 256 MB tmpfs.
	$node->safe_psql('postgres', qq{
		CREATE TABLESPACE wbig LOCATION '$loc';
		CREATE TABLE big WITH (fillfactor = 10) TABLESPACE wbig AS
			SELECT g FROM generate_series(1, 400000) g;
		VACUUM (FREEZE, ANALYZE) big;
	});
	my $size = $node->safe_psql('postgres', "SELECT pg_relation_size('big')");
	my $t0 = tree($loc);
	my ($ret, $out, $err) = $node->psql('postgres',
		"SELECT write_mb_s FROM scan_efficiency('big', with_write => true, max_seconds => 5)");
	is($ret, 0, "a $size-byte relation on a tmpfs with less free space: no error ($err)");
	cmp_ok($out, '>', 0, "... write_mb_s $out MB/s, from a smaller file");
	like($err, qr/NOTICE:  write_mb_s is from a \d+ MB file, not \d+ MB/, '... which a NOTICE names');
	is(tree($loc), $t0, '... and the tree is exactly as before');

	# Less room than a write rate needs: NULL, and a NOTICE; and
	# storage_profile's refusal, with no room for 1 MB, hints at no size.
	my $filler = "$tmpfs/filler_$$";
	my $fill = sub {
		my ($leave) = @_;
		unlink $filler;
		my ($total, $avail) = split ' ', `df -B1 --output=size,avail $tmpfs | tail -1`;
		my $bytes = $avail - int($total / 20) - $leave;
		open(my $fh, '>', $filler) or die "open $filler: $!";
		my $chunk = "\x55" x (1024 * 1024);
		for (my $done = 0; $done < $bytes; $done += length $chunk)
		{
			my $n = $bytes - $done < length $chunk ? $bytes - $done : length $chunk;
			print $fh substr($chunk, 0, $n) or die "write $filler: $!";
		}
		close($fh) or die "close $filler: $!";
	};
	$fill->(30 * 1000 * 1000);
	($ret, $out, $err) = $node->psql('postgres',
		"SELECT write_mb_s IS NULL FROM scan_efficiency('big', with_write => true, max_seconds => 5)");
	is($out, 't', 'room for 30 MB only: write_mb_s is NULL');
	like($err, qr/NOTICE:  write_mb_s is NULL: tablespace "wbig" has room for \d+ MB, less than the 64 MB/,
		'... and a NOTICE says why');
	$fill->(500 * 1000);
	($ret, $out, $err) = $node->psql('postgres',
		"SELECT * FROM storage_profile('wbig', size_mb => 16)");
	like($err, qr/does not fit in tablespace "wbig"/, 'room for less than 1 MB: storage_profile refuses');
	unlike($err, qr/at most 0/, '... without hinting at a size of 0');
	like($err, qr/HINT:  Not even 1 MB can be spared/, '... and says that nothing fits');
	unlink $filler;
	$node->safe_psql('postgres', 'DROP TABLE big; DROP TABLESPACE wbig');
	rmdir $loc;
}

$node->stop;
done_testing();
