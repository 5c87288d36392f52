# scanbench-probe against a server without scanbench, as a role that is
# no superuser: the command line and the storage profiles (every bad one
# exits 2, named, before anything connects); the passes' figures against
# EXPLAIN's own buffers; a warm pass never called cold (a table smaller
# than shared buffers, a second pass that finds it there, a pass faster
# than the volume allows), a cold one called cold when the table is out of
# both caches and larger than the memory stated; the figure against a
# profile, overridden on the command line, in bytes or in requests a
# second, with a burst; track_io_timing where the role may set it and not
# where it may not; pg_stat_io from 16; pg_buffercache once readable; code
# planted in public never run; the exit statuses (1 below --min-pct, 2 for
# what cannot be measured, 3 a lock timeout and a server that goes away
# mid-run, 130 on SIGINT with nothing left running); and the passes in a
# central history beside the extension's own runs, marked method 'client'.
use strict;
use warnings;
use File::Spec;
use File::Temp qw(tempdir);
use FindBin;
use lib $FindBin::RealBin;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(sleep time);
use SbCold;
use SbClient;

my ($bindir, $sharedir) = map { my $v = `pg_config $_`; chomp $v; $v } qw(--bindir --sharedir);
my $probe = client_program('scanbench-probe');
# The tree's profiles, read after the installed ones (the same names):
# the figures tested are these, whichever copy is installed.
my $tree_profiles = File::Spec->rel2abs('bin/scanbench-probe/scanbench_storage_profiles.conf');

my $dir = tempdir('sb-probe-XXXX', TMPDIR => 1, CLEANUP => 1);

sub file { return write_file($dir, @_); }
sub run_probe { return run_client($probe, @_); }

# ---- the command line and the profiles: nothing connects ----

my ($rc, $out, $err) = run_probe('--help');
is($rc, 0, '--help exits 0');
like($out, qr/^NAME\n.*^SYNOPSIS\n.*^DESCRIPTION\n.*^OPTIONS\n.*^EXIT STATUS\n.*^EXAMPLES\n/ms,
	'--help reads like a manual page');
for my $o (qw(--table --passes --prewarm --storage --profiles --list-profiles --memory --request-kib
	--latency-ms --min-pct --history --name --tag --format --timeout --lock-timeout))
{
	like($out, qr/\Q$o\E/, "--help names $o");
}
like($out, qr/^    0  measured.*^    1 .*^    2 .*^    3 .*^    4 /ms, '--help: every exit status');
unlike($out, qr/\b(issue|floor|seed|helper|lead)\b/i, '--help speaks to users');
($rc, $out) = run_probe('--version');
like($out, qr/^scanbench-probe \(scanbench\) \d+\.\d+/, '--version');

# Nothing listens here: an error about the profiles proves they were
# checked before connecting.
my @nowhere = ('-h', '/nonexistent', '-p', '1', '-d', 'postgres', '--profiles', $tree_profiles);
for my $case (
	[ [qw(-d postgres)], qr/no table given \(--table\)/ ],
	[ [ @nowhere, qw(-t t --passes 0) ], qr/invalid number of passes "0"/ ],
	[ [ @nowhere, qw(-t t --memory 16) ], qr/invalid memory size "16": a number above 0 and a unit/ ],
	[ [ @nowhere, qw(-t t --min-pct 50) ], qr/--min-pct is a share of the volume's limit: give --storage/ ],
	[ [ @nowhere, qw(-t t --tag nokey) ], qr/invalid tag "nokey"/ ],
	[ [ @nowhere, qw(-t t --name x) ], qr/--name and --tag name the server in the central history/ ],
	[ [ @nowhere, qw(-t t --format xml) ], qr/invalid format "xml"/ ],
	[ [ @nowhere, qw(-t t --storage nosuch) ], qr/unknown storage profile "nosuch" \(known: gp3, / ],
	[ [ @nowhere, qw(-t t --storage gp3:speed=9) ], qr/invalid storage "gp3:speed=9": unknown key "speed"/ ],
	[ [ @nowhere, qw(-t t --storage gp3:mib_s=fast) ], qr/mib_s = "fast": must be a number above 0/ ],
	[ [ @nowhere, qw(-t t --storage gp3:iops=20000) ], qr/"gp3": 20000 IOPS is above the 16000 the volume can be given/ ],
	[ [ @nowhere, '-t', 't', '--storage', 'gp3:iops=3000,mib_s=1000' ], qr/"gp3": 1000 MiB\/s needs at least 4000 IOPS \(0.25 MiB\/s per IOPS at most\), not 3000/ ],
	[ [ @nowhere, '-t', 't', '--storage', 'gp3:iops=6000,mib_s=1200' ], qr/1200 MiB\/s is above the 1000 MiB\/s the volume can be given/ ],
	[ [ @nowhere, qw(-t t --storage gp2) ], qr/"gp2" states its baseline per GiB: give the volume's size/ ],
	[ [ @nowhere, qw(-t t --storage aurora) ], qr/"aurora" states no limit for this volume: give its figures/ ],
	[ [ @nowhere, qw(-t t --storage gp3:source=x) ], qr/source can be given in a profiles file, not in --storage/ ],
	[ [ @nowhere, qw(-t t --storage), 'bad name' ], qr/invalid storage "bad name"/ ])
{
	my ($args, $re) = @$case;
	($rc, $out, $err) = run_probe(@$args);
	is($rc, 2, "exit 2: @$args");
	like($err, $re, '... named');
	unlike($err, qr/could not connect/, '... before connecting');
}

# A profiles file's errors name its line.
for my $case (
	[ "[a]\nsource = s\nspeed = 3\n", qr/bad:3: profile "a": unknown key "speed" \(known: iops, mib_s, / ],
	[ "[a]\nsource = s\niops = -1\n", qr/bad:3: profile "a": iops = "-1": must be a number above 0/ ],
	[ "[a]\nsource = s\niops = 0x10\n", qr/bad:3: profile "a": iops = "0x10"/ ],
	[ "[a]\niops = 100\n[b]\nsource = s\n", qr/bad:1: profile "a" has no source/ ],
	[ "[a]\nsource = s\n[b]\nsource = s\n[a]\nsource = t\n", qr/bad:5: profile "a" is given twice in this file/ ],
	[ "iops = 100\n[a]\nsource = s\n", qr/bad:1: "iops = 100" before the first \[NAME\]/ ],
	[ "[a]\nsource = s\nmib_s = 100\nmb_s = 100\n", qr/bad:4: profile "a": mb_s: baseline MB\/s \(10\^6 bytes\) given twice/ ],
	[ "[a]\nsource = s\nburst = none\nburst_iops = 9\n", qr/bad:1: profile "a" says burst = none and gives a burst's figures/ ],
	[ "[a b]\nsource = s\n", qr/bad:1: invalid profile name "a b"/ ],
	[ "[a]\nsource = s\njust words\n", qr/bad:3: expected \[NAME\] or KEY = VALUE, found "just words"/ ],
	[ "[a]\nsource = s\nstatus = maybe\n", qr/bad:3: profile "a": status = "maybe": must be check/ ],
	[ "[a]\nsource = s\niops = 1\0\n", qr/bad:3: a NUL byte: not a text file/ ])
{
	my ($text, $re) = @$case;
	my $f = file('bad', $text);
	($rc, $out, $err) = run_probe('-h', '/nonexistent', '-p', '1', '-t', 't', '--profiles', $f);
	is($rc, 2, 'a bad profiles file: exit 2');
	like($err, $re, '... its line named: ' . ($text =~ s/\n/\\n/gr =~ s/\0/\\0/gr));
}
($rc, $out, $err) = run_probe('-t', 't', '--profiles', "$dir/none");
is($rc, 2, 'a profiles file that does not exist: exit 2');
like($err, qr/could not open the profiles file ".*none": No such file/, '... named');

# A user's file adds a profile and replaces one; --list-profiles shows them.
my $mine = file('mine', "# mine\n[fast]\ndescription = our array\niops = 50000\nmb_s = 2000\n"
	  . "source = measured by us\n\n[gp3]\niops = 4000\nmib_s = 200\nsource = our contract\n");
($rc, $out, $err) = run_probe('--list-profiles', '--profiles', $tree_profiles, '--profiles', $mine);
is($rc, 0, '--list-profiles exits 0');
like($out, qr/^fast\n  our array\n  50000 IOPS, 2000 MB\/s; burst: not stated\n  source: measured by us\n/m,
	'... a profile of the user\'s file');
like($out, qr/^gp3\n  4000 IOPS, 200 MiB\/s; burst: not stated\n  source: our contract\n/m,
	'... a profile of the same name replaced by the later file');
like($out, qr/^io1\n.*\n.*\n  source: .* \(stated by the vendor, check the source\)/m,
	'... a profile whose figures are to be checked says so');
for my $name (qw(gp3 rds-gp3-400 gp2 io2 io1 aurora azure-premium-v2 azure-ultra supabase-16xl supabase cloudsql))
{
	($rc, $out) = run_probe('--list-profiles', '--profiles', $tree_profiles);
	like($out, qr/^\Q$name\E\n(  .*\n)*  source: \S/m, "the profiles file has $name, with its source");
}
($rc, $out) = run_probe('--list-profiles', '--profiles', $tree_profiles);
like($out, qr/^gp3\n.*\n  3000 IOPS, 125 MiB\/s; burst: none\n/m, 'gp3: 3000 IOPS and 125 MiB/s, no burst');
like($out, qr/^rds-gp3-400\n.*\n  12000 IOPS, 500 MiB\/s; burst: none\n/m, 'RDS gp3 of 400 GiB: 12000 IOPS and 500 MiB/s');
like($out, qr/^supabase-16xl\n.*\n  80000 IOPS, 2375 MB\/s/m, 'Supabase 16XL: 2375 MB/s and 80000 IOPS');
SKIP:
{
	skip 'the profiles file is not installed', 1
	  unless -e "$sharedir/scanbench/scanbench_storage_profiles.conf";
	($rc, $out) = run_probe('--list-profiles');
	like($out, qr/^gp3\n/m, 'the profiles installed are read without --profiles');
}

# ---- a server without scanbench ----

my $node = PostgreSQL::Test::Cluster->new('probe');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
my $major = $node->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});
# big: about 40 MB, more than a quarter of shared buffers, so a scan reads
# it through a ring and leaves little there; small: 1 MB, kept there.
$node->safe_psql('postgres', q{
	CREATE ROLE probe LOGIN;
	CREATE TABLE big WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 120000) g;
	CREATE TABLE small AS SELECT g FROM generate_series(1, 30000) g;
	CREATE TABLE hidden AS SELECT 1 AS g;
	CREATE TABLE parted (g int) PARTITION BY RANGE (g);
	VACUUM (FREEZE, ANALYZE) big, small;
	GRANT SELECT ON big, small, parted TO probe;
	CREATE EXTENSION pg_buffercache;
	CHECKPOINT;
});
my $big_blocks = $node->safe_psql('postgres', q{SELECT pg_relation_size('big') / 8192});
my $small_blocks = $node->safe_psql('postgres', q{SELECT pg_relation_size('small') / 8192});
cmp_ok($big_blocks * 8192, '>', 16 * 1048576, "big ($big_blocks blocks) is larger than shared buffers");
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_extension WHERE extname = 'scanbench'}), '0',
	'the server measured has no scanbench');
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'probe'}), 'f',
	'the role measuring is no superuser');

# Code a role with CREATE on public could plant, where an unqualified
# call or operator would find it: every one raises.
$node->safe_psql('postgres', q{
	CREATE FUNCTION public.quote_ident(name) RETURNS text LANGUAGE plpgsql AS
		$$BEGIN RAISE EXCEPTION 'planted quote_ident ran'; END$$;
	CREATE FUNCTION public.planted_eq(oid, regclass) RETURNS boolean LANGUAGE plpgsql AS
		$$BEGIN RAISE EXCEPTION 'planted = ran'; END$$;
	CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = public.planted_eq);
	CREATE FUNCTION public.pg_relation_size(regclass, name) RETURNS bigint LANGUAGE plpgsql AS
		$$BEGIN RAISE EXCEPTION 'planted pg_relation_size ran'; END$$;
});

my @conn = ('-h', $node->host, '-p', $node->port, '-d', 'postgres', '-U', 'probe',
	'--profiles', $tree_profiles);

sub probe_json
{
	my ($want_rc, $what, @args) = @_;
	my ($rc, $out, $err) = run_probe(@conn, '--format', 'json', @args);
	is($rc, $want_rc, "$what: exit $want_rc") or diag("stderr: $err\nstdout: $out");
	my $j = eval { decode_json($out) };
	ok($j, "$what: json") or diag("not json: $@\n$out");
	return ($j // { passes => [] }, $err);
}

# A role that may not set track_io_timing, on a server with it off; the
# table in the page cache, not in shared buffers.
$node->restart;
my ($j) = probe_json(0, 'small, two passes', '-t', 'small', '--memory', '1GB');
my @p = @{ $j->{passes} };
is(scalar @p, 2, 'two passes');
is($j->{relation}, 'public.small', 'the table found on the role\'s search_path, named schema-qualified');
is($j->{blocks}, $small_blocks, 'the table\'s blocks');
is($j->{track_io_timing}, JSON::PP::false, 'track_io_timing: off, and this role may not set it');
is($p[0]{read_wait_s}, undef, '... so no read wait');
if ($major >= 16)
{
	isnt($j->{pg_stat_io}, undef, "pg_stat_io is read on $major");
}
else
{
	is($j->{pg_stat_io}, undef, "no pg_stat_io on $major");
	is($p[0]{io_reads}, undef, '... no requests counted');
}
is($j->{pg_buffercache}, JSON::PP::false, 'pg_buffercache installed but not readable by the role: not used');
for my $p (@p)
{
	cmp_ok($p->{scan_mb_s}, '>', 0, "pass $p->{pass}: a scan rate above 0");
	is($p->{hit_blocks} + $p->{read_blocks}, $small_blocks, "pass $p->{pass}: EXPLAIN's hits and reads are the table's blocks");
	is($p->{scanned_bytes}, 8192 * ($p->{hit_blocks} + $p->{read_blocks}), "pass $p->{pass}: the bytes scanned are those blocks");
	my $rate = $p->{scanned_bytes} / $p->{scan_s} / 1e6;
	cmp_ok(abs($p->{scan_mb_s} - $rate), '<=', 0.001 * $rate + 0.1,
		"pass $p->{pass}: scan_mb_s is those bytes over the execution time ($p->{scan_mb_s}, $rate)");
	is($p->{rows}, 30000, "pass $p->{pass}: the scan counted the rows");
	cmp_ok($p->{shared_hit_pct}, '>=', 0, "pass $p->{pass}: shared_hit_pct");
	isnt($p->{cache}, 'cold', "pass $p->{pass} of a table smaller than shared buffers is not called cold");
	is($p->{volume_pct}, undef, "pass $p->{pass}: no volume without --storage");
}
like($p[0]{why}, qr/the table fits in shared buffers \(16 MB\)/, 'pass 1: why it is not shown cold');
cmp_ok($p[1]{shared_hit_pct}, '>=', 90, 'pass 2 found the small table in shared buffers');
is($p[1]{cache}, 'warm', '... and is called warm');
like($p[1]{why}, qr/% of its blocks were in shared buffers/, '... saying why');
is($p[1]{verdict}, '{cached}', '... its verdict for the history: cached');
is($j->{figure_pass}, undef, 'no pass was shown cold: no figure');

# The text report says the same.
($rc, $out, $err) = run_probe(@conn, '-t', 'small');
is($rc, 0, 'the text report: exit 0');
like($out, qr/^scanbench-probe \S+: public\.small on .*, PostgreSQL /, '... its first line names the table and server');
like($out, qr/^pass 2: warm\n  scan_mb_s +\d/m, '... a block a pass');
like($out, qr/^figure +none: no pass was shown cold/m, '... and no figure');
unlike($out . $err, qr/planted/, 'no planted code ran');

# Once the role may set track_io_timing and read pg_buffercache.
$node->safe_psql('postgres', q{GRANT SET ON PARAMETER track_io_timing TO probe; GRANT pg_monitor TO probe});
cold_table($node, 'big');
($j) = probe_json(0, 'big, cold, the memory stated', '-t', 'big', '--memory', '17MB');
@p = @{ $j->{passes} };
is($j->{track_io_timing}, JSON::PP::true, 'track_io_timing set for the passes once the role may');
is($j->{pg_buffercache}, JSON::PP::true, 'pg_buffercache read once the role is in pg_monitor');
is($j->{buffered_before}, 0, 'none of the table in shared buffers before pass 1');
is($p[0]{hit_blocks} + $p[0]{read_blocks}, $big_blocks, 'pass 1: hits and reads are the table\'s blocks');
cmp_ok($p[0]{shared_hit_pct}, '<=', 1, 'pass 1 found (almost) none of it in shared buffers');
is($p[0]{cache}, 'cold', 'pass 1, the table out of both caches and 39 times the OS\'s share of the memory stated: cold');
like($p[0]{why}, qr/^at least 9\d % of its blocks came from the volume/, '... saying why');
cmp_ok($p[0]{from_volume_min_pct}, '>=', 90, '... at least 90 % from the volume');
is($p[0]{verdict}, '{ok}', '... verdict ok');
is($j->{figure_pass}, 1, 'pass 1 is the figure');
ok(defined $p[0]{read_wait_s} && $p[0]{read_wait_s} >= 0, "pass 1: a read wait ($p[0]{read_wait_s} s)");
if ($p[0]{read_wait_s} > 0.001)
{
	my $rate = $p[0]{read_blocks} * 8192 / $p[0]{read_wait_s} / 1e6;
	cmp_ok(abs($p[0]{read_wait_mb_s} - $rate), '<=', 0.01 * $rate + 0.1,
		"read_wait_mb_s is the blocks read over the read wait ($p[0]{read_wait_mb_s}, $rate)");
}
if ($major >= 16)
{
	cmp_ok($p[0]{io_reads}, '>', 0, 'pg_stat_io counted the reads');
}
if ($major >= 18)
{
	cmp_ok(abs($p[0]{io_read_bytes} - 8192 * $p[0]{read_blocks}), '<=', 0.1 * 8192 * $p[0]{read_blocks},
		"18: this session's pg_stat_io bytes are EXPLAIN's blocks read ($p[0]{io_read_bytes})");
	# The server's own reads, through the ring, are smaller than the
	# kernel's read-ahead window, which is what the volume sees.
	is($p[0]{request_from}, 'the Linux default read-ahead, assumed',
		"18: the request size the read-ahead's, not the server's smaller reads ("
		  . sprintf('%.1f kB', $p[0]{io_read_bytes} / $p[0]{io_reads} / 1024) . ')');
}

# A volume the reads outran: called warm, whatever --memory says.
cold_table($node, 'big');
($j) = probe_json(0, 'a volume slower than the reads', '-t', 'big', '--memory', '17MB',
	'--storage', 'slow:mb_s=0.5');
@p = @{ $j->{passes} };
is($p[0]{cache}, 'warm', 'pass 1 faster than the stated volume allows is warm');
like($p[0]{why}, qr/faster than the volume's 0\.5 MB\/s: at most \d+ % of them can have come from it/,
	'... the volume named');
cmp_ok($p[0]{from_volume_max_pct}, '<', 90, '... under 90 % can have come from it');
is($j->{storage}{spec}, 'slow:mb_s=0.5', 'a profile of the command line\'s alone');
is($j->{storage}{source}, 'given on the command line', '... its source said');

# The figure against a profile overridden on the command line.
cold_table($node, 'big');
($j) = probe_json(0, 'gp3 provisioned above its baseline', '-t', 'big', '--memory', '17MB',
	'--storage', 'gp3:iops=6000,mib_s=250', '--passes', '1', '--request-kib', '128');
@p = @{ $j->{passes} };
is($j->{storage}{spec}, 'gp3:iops=6000,mib_s=250', 'the storage as given');
is($j->{storage}{figures}, '6000 IOPS, 250 MiB/s; burst: none', '... its figures overridden');
like($j->{storage}{source}, qr{^https://docs\.aws\.amazon\.com/}, '... the source kept');
is($p[0]{limit_mb_s}, '262.1', 'the limit: 250 MiB/s in MB/s');
is($p[0]{limit_kind}, 'bytes a second', '... bytes bind (6000 requests of 128 kB would be 786 MB/s)');
is($p[0]{request_from}, '--request-kib', '... the request size given');
my $pct = 100 * $p[0]{scan_mb_s} / 262.144;
cmp_ok(abs($p[0]{volume_pct} - $pct), '<=', 0.002 * $pct + 0.1,
	"volume_pct is the scan rate as a share of it ($p[0]{volume_pct}, $pct)");

# A volume whose requests bind, and a burst.
cold_table($node, 'big');
($j) = probe_json(0, 'requests bind, a burst', '-t', 'big', '--memory', '17MB', '--passes', '1',
	'--storage', 'tiny:iops=1,mb_s=100000,burst_iops=1000000', '--request-kib', '64');
@p = @{ $j->{passes} };
is($p[0]{limit_kind}, 'requests a second', 'a request limit binds at 64 kB requests');
is($p[0]{limit_mb_s}, '0.1', '... 1 request a second of 64 kB: 0.066 MB/s');
is($p[0]{cache}, 'cold', '... the pass within the burst\'s limit is still cold');
is($p[0]{burst}, JSON::PP::true, '... and faster than the baseline: a burst');
is($p[0]{verdict}, '{burst}', '... verdict burst');

# A request limit at a size no one stated (the read-ahead's, assumed) is
# no ceiling: the kernel may send the volume larger requests, so a pass
# above it is not called warm for that alone.
cold_table($node, 'big');
($j) = probe_json(0, 'requests bind at an assumed size', '-t', 'big', '--memory', '17MB', '--passes', '1',
	'--storage', 'tiny:iops=1,mb_s=100000');
@p = @{ $j->{passes} };
is($p[0]{limit_kind}, 'requests a second', 'a request limit binds at the assumed 128 kB');
is($p[0]{cache}, 'cold', '... a pass above it, out of both caches, still cold');
like($p[0]{note}, qr/above the volume's 1 requests a second at 128 kB \(the Linux default read-ahead, assumed\): either a cache served some of them or the volume was sent larger requests; give --request-kib/,
	'... the note says why it is not judged on it');

# --min-pct: a cold pass below it exits 1; above it, 0.
cold_table($node, 'big');
($j) = probe_json(1, 'a cold pass below --min-pct', '-t', 'big', '--memory', '17MB', '--passes', '1',
	'--storage', 'huge:mb_s=1000000', '--min-pct', '50');
is($j->{below_min_pct}, JSON::PP::true, '... said');
cold_table($node, 'big');
($rc, $out) = run_probe(@conn, '-t', 'big', '--memory', '17MB', '--passes', '1',
	'--storage', 'huge:mb_s=1000000', '--min-pct', '0.0000001');
is($rc, 0, 'a cold pass above --min-pct: exit 0');
like($out, qr/^figure +pass 1, cold: [\d.]+ MB\/s, [\d.]+ % of huge's baseline of 1000000\.0 MB\/s \(bytes a second\)$/m,
	'... the figure in the text report');

# What cannot be measured: exit 2, named.
for my $case (
	[ [ '-t', 'nosuch' ], qr/table "nosuch" does not exist \(or is not on the search_path of role "probe"\)/ ],
	[ [ '-t', 'hidden' ], qr/permission denied for table public\.hidden: role "probe" needs SELECT on it/ ],
	[ [ '-t', 'parted' ], qr/"public\.parted" is a partitioned table/ ],
	[ [ '-t', 'pg_class_oid_index' ], qr/is not a table or materialized view/ ],
	[ [ '-t', 'small', '--prewarm' ], qr/--prewarm needs pg_prewarm: not installed/ ],
	[ [ '-t', 'small', '--memory', '8MB' ], qr/--memory 8192 kB is not more than the server's shared_buffers \(16 MB\)/ ])
{
	my ($args, $re) = @$case;
	($rc, $out, $err) = run_probe(@conn, @$args);
	is($rc, 2, "exit 2: @$args");
	like($err, $re, '... named');
}
($rc, $out, $err) = run_probe('-h', $node->host, '-p', '1', '-d', 'postgres', '-t', 'small');
is($rc, 2, 'no server there: exit 2');
like($err, qr/could not connect to the server: /, '... said');

# --prewarm with pg_prewarm: every pass warm.
$node->safe_psql('postgres', 'CREATE EXTENSION pg_prewarm');
($j) = probe_json(0, '--prewarm', '-t', 'small', '--prewarm', '--memory', '17MB');
is($j->{prewarmed}, JSON::PP::true, 'pg_prewarm read the table in first');
is($j->{buffered_before}, $small_blocks, '... all of it in shared buffers before pass 1');
is($j->{passes}[0]{cache}, 'warm', '... pass 1 is warm');

# ---- the central history, beside the extension's runs ----

my $central = PostgreSQL::Test::Cluster->new('central');
$central->init;
$central->start;
$central->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE local AS SELECT g FROM generate_series(1, 20000) g;
	CREATE ROLE fleet LOGIN;
	GRANT SELECT, INSERT ON scan_history TO fleet;
	GRANT USAGE ON SEQUENCE scan_history_id_seq TO fleet;
});
$central->safe_psql('postgres', q{SELECT verdict FROM scan_efficiency('local', 'warm', record => true)});
my $history = sprintf('postgresql://fleet@%s:%d/postgres', ($central->host =~ s{/}{%2F}gr), $central->port);

# A volume faster than this machine's disk: its reads do not show a cache.
cold_table($node, 'big');
($j) = probe_json(0, 'recorded centrally', '-t', 'big', '--memory', '17MB', '--storage', 'fast:mb_s=100000',
	'--history', $history, '--name', 'managed1', '--tag', 'class=ebs', '--tag', 'zone=a');
my $rows = $central->safe_psql('postgres', q{
	SELECT server, method, cache, coalesce(scan_pct::text, 'null'), scan_mb_s > 0, relschema, relname,
	       device, read_bps_limit, read_iops_limit, tags::text, server_role, recorded_by,
	       coalesce(array_to_string(verdict, ','), 'null')
	FROM scan_history WHERE server IS NOT NULL ORDER BY measured_at});
my @rows = split /\n/, $rows;
is(scalar @rows, 2, 'a row a pass in the central history');
like($rows[0], qr/^managed1\|client\|cold\|null\|t\|public\|big\|fast:mb_s=100000\|100000000000\|\|\{"zone": "a", "class": "ebs"\}\|primary\|fleet\|ok$/,
	'pass 1: method client, cold, no scan_pct, the profile and its baseline, the tags');
like($rows[1], qr/^managed1\|client\|/, 'pass 2: method client');
is($central->safe_psql('postgres', q{SELECT method || ',' || (server IS NULL) FROM scan_history WHERE server IS NULL}),
	'pairs,true', 'the extension\'s own run beside them, method pairs');
is($central->safe_psql('postgres', q{SELECT count(*) FROM scan_trend WHERE server = 'managed1' OR server IS NULL}),
	$central->safe_psql('postgres', q{SELECT count(DISTINCT (server, cache)) FROM scan_history}),
	'scan_trend keeps the client\'s series and the extension\'s apart');
unlike($rows . $central->safe_psql('postgres', q{SELECT string_agg(coalesce(server_host, ''), ',') FROM scan_history}),
	qr/password/i, 'no credentials in the history');

($rc, $out, $err) = run_probe(@conn, '-t', 'small', '--history',
	sprintf('postgresql://%s:%d/postgres', ($node->host =~ s{/}{%2F}gr), $node->port));
is($rc, 2, 'a central history without scanbench: exit 2');
like($err, qr/central history: scanbench is not installed in database "postgres"/, '... said');
is($out, '', '... before anything is measured');

# ---- the server or the lock gives way mid-run ----

# A session holds the table: the pass waits for its lock.
sub hold_lock
{
	my $h = IPC::Run::start([ "$bindir/psql", '-X', '-h', $node->host, '-p', $node->port, '-d', 'postgres',
		'-c', 'BEGIN; LOCK TABLE small; SELECT pg_sleep(600)' ], '<', \undef, '>', \my $o, '2>', \my $e);
	$node->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_locks WHERE relation = 'small'::regclass::oid AND mode = 'AccessExclusiveLock' AND granted})
	  or die 'the lock was not taken';
	return $h;
}

sub waiting_probe
{
	return $node->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_stat_activity
		WHERE query LIKE '/* scanbench-probe: pass%' AND wait_event_type = 'Lock'});
}

my $locker = hold_lock();
($j, $err) = probe_json(3, 'lock_timeout', '-t', 'small', '--lock-timeout', '1', '--history', $history,
	'--name', 'managed1');
like($err, qr/pass 1: canceling statement due to lock timeout$/m, '... the pass that failed, named');
is(scalar @{ $j->{passes} }, 0, '... no pass measured');
is($central->safe_psql('postgres', q{SELECT reason FROM scan_history WHERE server = 'managed1' AND reason IS NOT NULL}),
	'the measurement failed: pass 1: canceling statement due to lock timeout',
	'... its reason in the central history');

my ($pout, $perr) = ('', '');
my $h = IPC::Run::start([ $probe, @conn, '-t', 'small', '--lock-timeout', '300', '--history', $history,
	'--name', 'managed2' ], '<', \undef, '>', \$pout, '2>', \$perr);
ok(waiting_probe(), 'a pass waits for the lock');
my $t0 = time;
$h->signal('INT');
$h->finish;
is($? >> 8, 130, 'SIGINT: exit 130');
cmp_ok(time - $t0, '<', 5, '... within seconds');
ok($node->poll_query_until('postgres', q{SELECT count(*) = 0 FROM pg_stat_activity WHERE query LIKE '/* scanbench-probe: pass%'}),
	'... and no pass left running on the server');

$h = IPC::Run::start([ $probe, @conn, '-t', 'small', '--lock-timeout', '300', '--history', $history,
	'--name', 'managed3' ], '<', \undef, '>', \$pout, '2>', \$perr);
ok(waiting_probe(), 'a pass waits for the lock again');
$node->stop('immediate');
$h->finish;
is($? >> 8, 3, 'the server went away mid-run: exit 3');
like($perr, qr/scanbench-probe: error: the server went away: pass 1: /, '... said on stderr');
like($central->safe_psql('postgres', q{SELECT reason FROM scan_history WHERE server = 'managed3'}),
	qr/^lost mid-run: pass 1: /, '... its row in the central history with the reason');
$locker->kill_kill;
$node->start;

$central->stop;
$node->stop;
done_testing();
