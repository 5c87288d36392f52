# A disk of known speed and a CPU of known size for a test's cluster,
# through tools/lab.sh: the cluster's postmaster (and so its backends) in
# control groups that throttle its reads and cap its CPU, and busy loops
# outside them.  Everything made is removed when the test ends, however it
# ends.
package SbLab;

use strict;
use warnings;
use Exporter 'import';
use FindBin;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use Fcntl qw(:flock);
use Time::HiRes qw(time);
use Test::More ();

our @EXPORT = qw(lab_why lab_new lab_lock_dir);

my $lab_sh = "$FindBin::RealBin/../tools/lab.sh";
my @groups;
my @loadfiles;
my ($lock, $lock_dir);

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
	open($lock, '<', $dir) or die "could not open $dir: $!";
	my $t0 = time;
	flock($lock, LOCK_EX) or die "could not lock $dir: $!";
	$lock_dir = $dir;
	Test::More::note(sprintf("waited %.0f s for the lab lock on %s (another run's lab, or a package root being made)", time - $t0, $dir));
}

# The directory the lab lock is held on, once a lab is made.
sub lab_lock_dir { return $lock_dir; }

# A group holding $node's postmaster and its children.
sub lab_new
{
	my ($node) = @_;
	lab_lock();
	my $name = "sb-tap-$$-" . scalar(@groups);
	my ($ok, $out) = run_lab('create', $name);
	die "tools/lab.sh create $name: $out" unless $ok;
	push @groups, $name;
	($ok, $out) = run_lab('move', $name, $node->data_dir);
	die "tools/lab.sh move: $out" unless $ok;
	return bless { name => $name, node => $node }, 'SbLab';
}

# limit(MIB, CPUS): reads of the data directory's disk at MIB MiB/s and
# CPUS of a CPU; 0 for no limit.
sub limit
{
	my ($self, $mib, $cpus) = @_;
	my ($ok, $out) = run_lab('limit', $self->{name}, $self->{node}->data_dir, $mib, $cpus);
	die "tools/lab.sh limit: $out" unless $ok;
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

END
{
	my $rc = $?;
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
