# A disk of known speed and a CPU of known size for a test's cluster,
# through tools/lab.sh: the cluster's postmaster (and so its backends) in
# control groups that throttle its reads, cap its CPU and (->memory) its
# memory, page cache included, and busy loops
# outside them; and a disk of known latency, depth and caps
# (tools/lab-disk) for a tablespace.  Everything made is removed when the
# test ends, however it ends.
package SbLab;

use strict;
use warnings;
use Exporter 'import';
use FindBin;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use File::Path ();
use Fcntl qw(:flock);
use Time::HiRes qw(time);
use Test::More ();

our @EXPORT = qw(lab_why lab_new lab_favour lab_lock_dir lab_disk_why lab_disk_new lab_io_workers
  lab_scattered_table lab_bitmap_rounds);

my $lab_sh = "$FindBin::RealBin/../tools/lab.sh";
my @groups;
my @loadfiles;
my @disks;
my @shared_dirs;
my ($gate, $lock, $lock_dir);

sub run_lab
{
	my (@args) = @_;
	my $out = `bash '$lab_sh' @args 2>&1`;
	chomp $out;
	return ($? == 0, $out);
}

# Why a lab cannot be made here, or undef when it can.
sub lab_why
{
	return $ENV{SCANBENCH_NO_LAB} if $ENV{SCANBENCH_NO_LAB};
	return "tools/lab.sh not found at $lab_sh" unless -r $lab_sh;
	my ($ok, $out) = run_lab('check');
	return $ok ? undef : $out;
}

# The machine's lab lock (tools/lab.sh lock-dir), held until the test
# ends: a known answer needs the CPUs and the disk, and another run's lab
# (CI runs two majors at once) would take the second CPU and share the
# disk while this one measures.  tools/test.sh holds it shared while it
# makes the package roots, which write hundreds of MB to that disk.
sub lab_lock
{
	return if $lock;
	my ($ok, $dir) = run_lab('lock-dir');
	die "tools/lab.sh lock-dir: $dir" unless $ok;
	# The gate first, held while the lab measures: the files that hold the
	# lock shared take it through the gate (tools/lab.sh, sb_lab_lock), so
	# that a lab waiting for them is not passed by new ones.
	my $gate_dir = dirname($dir);
	open($gate, '<', $gate_dir) or die "could not open $gate_dir: $!";
	open($lock, '<', $dir) or die "could not open $dir: $!";
	my $t0 = time;
	flock($gate, LOCK_EX) or die "could not lock $gate_dir: $!";
	flock($lock, LOCK_EX) or die "could not lock $dir: $!";
	$lock_dir = $dir;
	Test::More::note(sprintf("waited %.0f s for the lab lock on %s (another run's lab, or a package root being made)", time - $t0, $dir));
}

# The directory the lab lock is held on, once a lab is made.
sub lab_lock_dir { return $lock_dir; }

# Why a lab disk cannot be mounted here (no FUSE, no fusermount3, no
# libfuse to build it with), or undef when it can.
sub lab_disk_why
{
	return $ENV{SCANBENCH_NO_LAB} if $ENV{SCANBENCH_NO_LAB};
	return "tools/lab.sh not found at $lab_sh" unless -r $lab_sh;
	return undef if $ENV{SB_LAB_DISK} && -e "$ENV{SB_LAB_DISK}/.lab-disk";
	my ($ok, $out) = run_lab('disk-check');
	return $out unless $ok;
	# libfuse opens /dev/fuse itself, and asks fusermount3 only when the
	# mount is refused.
	return "/dev/fuse is not open to this user, and no lab disk was mounted for it (SB_LAB_DISK: tools/test.sh mounts one as root)"
	  unless $> == 0 || (-r '/dev/fuse' && -w '/dev/fuse');
	return undef;
}

# A lab disk (tools/lab-disk) passing a directory of the test's through,
# mounted in another; ->dir is where a tablespace goes.  It starts with no
# latency and no limit (->set).  Stop the clusters using it before the
# test ends: the disk is unmounted then.
sub lab_disk_new
{
	lab_lock();
	if ($ENV{SB_LAB_DISK} && -e "$ENV{SB_LAB_DISK}/.lab-disk")
	{
		# The one tools/test.sh mounted: a directory of this test's on it,
		# the disk's numbers put back to none at the end.
		my $dir = "$ENV{SB_LAB_DISK}/t-$$-" . scalar(@disks);
		mkdir($dir) or die "mkdir $dir: $!";
		push @shared_dirs, $dir;
		my $self = bless { dir => $dir, top => $ENV{SB_LAB_DISK} }, 'SbLab::Disk';
		$self->set(latency_us => 0, depth => 0, iops => 0, mb_s => 0);
		$self->read_ahead_kb($ENV{SB_LAB_DISK_RA}) if $ENV{SB_LAB_DISK_RA};
		Test::More::note("lab disk at $dir: " . join(' ', $self->stat_lines));
		return $self;
	}
	my $base = PostgreSQL::Test::Utils::tempdir('lab_disk');
	mkdir("$base/backing") or die "mkdir $base/backing: $!";
	mkdir("$base/mnt") or die "mkdir $base/mnt: $!";
	my ($ok, $out) = run_lab('disk-mount', "$base/backing", "$base/mnt");
	die "tools/lab.sh disk-mount: $out" unless $ok;
	push @disks, "$base/mnt";
	my $self = bless { dir => "$base/mnt", top => "$base/mnt" }, 'SbLab::Disk';
	Test::More::note("lab disk at $base/mnt: " . join(' ', $self->stat_lines));
	return $self;
}

# lab_io_workers(node, n): from 18, enough I/O workers for a depth of n
# (each serves one read at a time, and io_method worker is the default):
# 18 has a fixed number, io_workers; 19 a pool between io_min_workers and
# io_max_workers.  The node is restarted; nothing is done before 18.
sub lab_io_workers
{
	my ($node, $n) = @_;
	my $major = $node->safe_psql('postgres',
		q{SELECT current_setting('server_version_num')::int / 10000});
	return if $major < 18;
	$node->append_conf('postgresql.conf',
		$major >= 19 ? "io_min_workers = $n\nio_max_workers = $n\n" : "io_workers = $n\n");
	$node->restart;
	my $set = $node->safe_psql('postgres',
		$major >= 19 ? q{SHOW io_max_workers} : q{SHOW io_workers});
	die "I/O workers: $set, not $n" unless $set eq $n;
}

# lab_scattered_table(node, name, tablespace): a table of 300,000 rows of
# about 200 bytes (about 8,600 pages) and an index NAME_k on k, a
# permutation of g that follows no order of the heap, in the tablespace:
# the 300 rows of k < 300 lie on pages that are rarely neighbours, each
# read one request of its own, the answer of a random read's known rate.
# Make it with the lab disk at no latency: at milliseconds a read, the
# index build and VACUUM's reads take half a minute.
sub lab_scattered_table
{
	my ($node, $name, $tablespace) = @_;
	$node->safe_psql('postgres', qq{
		CREATE UNLOGGED TABLE $name (g int, k int, pad text) TABLESPACE $tablespace;
		INSERT INTO $name SELECT g, (g::bigint * 7919) % 300000, repeat('x', 200) FROM generate_series(1, 300000) g;
		CREATE INDEX ${name}_k ON $name (k) TABLESPACE $tablespace;
		VACUUM (FREEZE, ANALYZE) $name;
	});
}

# lab_bitmap_rounds(h, i, d): how many of one read's time a bitmap heap
# scan of h heap and i index pages takes on the lab disk when d reads can
# be in flight (min of effective_io_concurrency and what the disk serves
# at once): its index pages one at a time, then its look-ahead doubles
# (1, 2, 4, ... pages a round; the read stream's distance from 17, the
# prefetch target before) for r = log2(d) rounds, and the rest of the heap
# pages go d a round: i + r + (h - (2^r - 1)) / d.
sub lab_bitmap_rounds
{
	my ($h, $i, $d) = @_;
	my $ramp = $d > 1 ? int(log($d) / log(2) + 0.5) : 0;
	return $i + $ramp + ($h - (2**$ramp - 1)) / $d;
}

# A group holding $node's postmaster and its children.
sub lab_new
{
	my ($node) = @_;
	lab_lock();
	return lab_group($node);
}

sub lab_group
{
	my ($node) = @_;
	my $name = "sb-tap-$$-" . scalar(@groups);
	my ($ok, $out) = run_lab('create', $name);
	die "tools/lab.sh create $name: $out" unless $ok;
	push @groups, $name;
	my $self = bless { name => $name, node => $node }, 'SbLab';
	$self->move;
	return $self;
}

# lab_favour(node, n): the node's processes at n times the default CPU
# weight, for a test that compares its own timings from one night to the
# next and so needs them steady on a machine that runs other tests beside
# it.  Neither the lab lock nor the lab's limits: the lab's own cells weigh
# 100, so keep n well below that.  Returns the group, or undef (and says
# why in a note) where no group can be made; call ->move after each
# restart of the node.
sub lab_favour
{
	my ($node, $n) = @_;
	return undef unless -r $lab_sh;
	my ($ok, $out) = run_lab('check');
	unless ($ok)
	{
		Test::More::note("the server keeps the default CPU weight: $out");
		return undef;
	}
	my $self = lab_group($node);
	$self->weight($n);
	return $self;
}

# The node's postmaster and its children into the group again (after a
# restart).
sub move
{
	my ($self) = @_;
	my ($ok, $out) = run_lab('move', $self->{name}, $self->{node}->data_dir);
	die "tools/lab.sh move: $out" unless $ok;
}

# limit(MIB, CPUS[, IOPS]): reads of the data directory's disk at MIB
# MiB/s and IOPS requests a second, and CPUS of a CPU; 0 for no limit.
sub limit
{
	my ($self, $mib, $cpus, $iops) = @_;
	my ($ok, $out) = run_lab('limit', $self->{name}, $self->{node}->data_dir, $mib, $cpus, $iops // 0);
	die "tools/lab.sh limit: $out" unless $ok;
}

# memory(MIB): the group's memory at MIB MiB, the page cache its reads
# fill included (0: no limit).  Dies where the memory controller is not
# mounted.
sub memory
{
	my ($self, $mib) = @_;
	my ($ok, $out) = run_lab('memory', $self->{name}, $mib);
	die "tools/lab.sh memory: $out" unless $ok;
}

# reads(): (requests, bytes) the group has read from the data
# directory's disk since it was made, as its throttle counts them.
sub reads
{
	my ($self) = @_;
	my ($ok, $out) = run_lab('reads', $self->{name}, $self->{node}->data_dir);
	die "tools/lab.sh reads: $out" unless $ok && $out =~ /^\d+ \d+$/;
	return split ' ', $out;
}

# weight(N): the group's CPU weight, N times the default (1: the default).
sub weight
{
	my ($self, $n) = @_;
	my ($ok, $out) = run_lab('weight', $self->{name}, $n);
	die "tools/lab.sh weight: $out" unless $ok;
}

# The group's cpu.stat: (nr_throttled, throttled seconds).
sub stat
{
	my ($self) = @_;
	my ($ok, $out) = run_lab('stat', $self->{name});
	die "tools/lab.sh stat: $out" unless $ok;
	return split ' ', $out;
}

# Busy loops on every CPU, outside the group, until load_stop.
sub load_start
{
	my ($self) = @_;
	# Removed by load_stop and at the end (File::Temp's own cleanup does
	# not run in every way a test ends).
	my $dir = tempdir('sb-lab-XXXXXX', TMPDIR => 1);
	$self->{loadfile} = "$dir/loops";
	push @loadfiles, $self->{loadfile};
	my ($ok, $out) = run_lab('load-start', $self->{loadfile});
	die "tools/lab.sh load-start: $out" unless $ok;
}

sub load_stop
{
	my ($self) = @_;
	return unless $self->{loadfile};
	run_lab('load-stop', $self->{loadfile});
	unlink $self->{loadfile};
	rmdir dirname($self->{loadfile});
	delete $self->{loadfile};
}

# A lab disk: latency, depth, IOPS and bytes (tools/lab-disk/lab-disk.c).
package SbLab::Disk;

sub dir { return $_[0]->{dir}; }

# set(latency_us => N, depth => N, iops => N, mb_s => N): the device; any
# left out keeps its value, 0 is no limit.  The counters start again.
sub set
{
	my ($self, %p) = @_;
	my @kv = map { "$_=$p{$_}" } sort keys %p;
	my ($ok, $out) = SbLab::run_lab('disk-set', $self->{top}, @kv, 'reset');
	die "tools/lab.sh disk-set: $out" unless $ok;
}

# read_ahead_kb([kb]): the window the page cache gives buffered reads of
# files on the disk (its own backing device's), or set it.
sub read_ahead_kb
{
	my ($self, $kb) = @_;
	my ($ok, $out) = SbLab::run_lab('disk-ra', $self->{top}, defined $kb ? ($kb) : ());
	die "tools/lab.sh disk-ra: $out" unless $ok;
	chomp $out;
	return defined $kb ? $kb : $out;
}

# ra_file(): the file that sets it, as scan_advice's command names it.
sub ra_file
{
	my ($self) = @_;
	my ($ok, $out) = SbLab::run_lab('disk-ra-file', $self->{top});
	die "tools/lab.sh disk-ra-file: $out" unless $ok;
	chomp $out;
	return $out;
}

sub stat_lines
{
	my ($self) = @_;
	my ($ok, $out) = SbLab::run_lab('disk-stat', $self->{top});
	die "tools/lab.sh disk-stat: $out" unless $ok;
	return split /\n/, $out;
}

# seen_us(): microseconds an 8 kB O_DIRECT read takes through the disk as
# it is set, one at a time, as a reader sees it (dd): the latency set and
# the time the machine takes to hand the request over and wake the reader
# again.  Other work on the CPUs stretches the second (0.1 ms a request on
# an idle 2-vCPU VM, 0.4 ms beside another major's tests), so a known rate
# at depth k is k over this, measured beside the figure it judges.  The
# median of three runs of 100 reads.
sub seen_us
{
	my ($self) = @_;
	my $f = "$self->{dir}/.seen";
	unless (-e $f)
	{
		open(my $fh, '>', $f) or die "$f: $!";
		print $fh "\0" x (100 * 8192);
		close($fh) or die "$f: $!";
	}
	my @t;
	for (1 .. 3)
	{
		my ($ok, $us) = SbLab::run_lab('disk-time', $f, 8192, 100);
		die "tools/lab.sh disk-time: $us" unless $ok && $us =~ /^\d+$/;
		push @t, $us;
	}
	@t = sort { $a <=> $b } @t;
	return $t[1];
}

# The numbers and the counters since the last set: latency_us, depth,
# iops, mb_s, reads, read_bytes, in_flight_max, read_max, ...
sub stat
{
	my ($self) = @_;
	return { map { split /=/, $_, 2 } map { split ' ' } $self->stat_lines };
}

package SbLab;

END
{
	my $rc = $?;
	run_lab('disk-umount', $_) for @disks;
	for my $d (@shared_dirs)
	{
		run_lab('disk-set', $ENV{SB_LAB_DISK}, 'latency_us=0', 'depth=0', 'iops=0', 'mb_s=0', 'reset');
		File::Path::rmtree($d);
	}
	for my $f (@loadfiles)
	{
		next unless -e $f;
		run_lab('load-stop', $f);
		unlink $f;
		rmdir dirname($f);
	}
	run_lab('remove', $_) for @groups;
	$? = $rc;
}

1;
