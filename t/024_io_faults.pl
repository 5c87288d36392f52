# I/O errors and short reads injected into the backend with libfiu
# (Debian's fiu-utils: fiu-run starts the server, fiu-ctrl enables a
# failure point in one backend, only while a named SQL function of
# scanbench is on the stack): every reading function stops with an ERROR naming the
# file, or, for a short read, goes on and measures every byte; no backend
# dies of a signal and no descriptor is left open.
#
# Debian's fiu_posix_preload.so cannot be loaded into a PostgreSQL server
# (its hash_create() is overridden by the server's own, and the server
# crashes as it starts), so t/fiu/posix_io_preload.c, built here against
# libfiu, stands in for it under the same failure point names.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;
use IPC::Run;

my $plib = '/usr/lib/fiu';
for my $prog (qw(fiu-run fiu-ctrl))
{
	plan skip_all => "$prog not found: install Debian's fiu-utils"
	  unless grep { -x "$_/$prog" } split /:/, $ENV{PATH};
}
plan skip_all => "$plib/fiu_run_preload.so not found: install Debian's libfiu0"
  unless -e "$plib/fiu_run_preload.so";

# The preload, and fiu-run's library directory around it.
my $dir = PostgreSQL::Test::Utils::tempdir_short();
my ($ccout, $ccerr);
my $cc = $ENV{CC} // 'cc';
IPC::Run::run([ $cc, '-O2', '-Wall', '-shared', '-fPIC', '-o', "$dir/fiu_posix_preload.so",
		"$FindBin::RealBin/fiu/posix_io_preload.c", '-l:libfiu.so.0', '-ldl' ],
	'>', \$ccout, '2>', \$ccerr)
  or plan skip_all => "cannot build the preload against libfiu: $ccerr";
symlink("$plib/fiu_run_preload.so", "$dir/fiu_run_preload.so")
  or die "symlink: $!";

# The environment fiu-run gives a program it starts: the server is started
# with it, every other program of the test without it.
my ($envout, $enverr);
IPC::Run::run([ 'fiu-run', '-x', '-l', $dir, '-f', "$dir/ctl", 'env' ],
	'>', \$envout, '2>', \$enverr)
  or plan skip_all => "fiu-run cannot run a program here: $enverr";
my %fiu_env = map { /^(LD_PRELOAD|FIU_CTRL_FIFO|FIU_ENABLE)=(.*)$/ ? ($1 => $2) : () }
  split /\n/, $envout;
plan skip_all => "fiu-run set no LD_PRELOAD: $envout" unless $fiu_env{LD_PRELOAD};

my $node = PostgreSQL::Test::Cluster->new('io_faults');
$node->init;
# Reads in the backend itself, where the failure points are enabled: from
# 18 on, the default io_method hands them to I/O workers.
$node->append_conf('postgresql.conf',
	"shared_buffers = 16MB\nautovacuum = off\n"
	  . ($node->pg_version >= 18 ? "io_method = sync\n" : ''));
{
	local $ENV{LD_PRELOAD} = $fiu_env{LD_PRELOAD};
	local $ENV{FIU_CTRL_FIFO} = $fiu_env{FIU_CTRL_FIFO};
	local $ENV{FIU_ENABLE} = '';
	$node->start;
}
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE v WITH (fillfactor = 10) AS SELECT g FROM generate_series(1, 60000) g;
	VACUUM (ANALYZE) v;
	CHECKPOINT;
});
my $size = $node->safe_psql('postgres', "SELECT pg_relation_size('v')");
my $rel = $node->safe_psql('postgres', "SELECT pg_relation_filepath('v')");

# Enable or disable failure points in one process.
sub fiu_ctrl
{
	my ($pid, $cmd) = @_;
	my ($out, $err);
	IPC::Run::run([ 'fiu-ctrl', '-f', "$dir/ctl", '-c', $cmd, $pid ], '>', \$out, '2>', \$err);
	return "$out$err";
}

# A backend's descriptors to the cluster's data files and scratch files.
my $files_re = qr{/(base|global|pg_tblspc)/|pgsql_tmp|scanbench};

# The remote control must reach a backend, or nothing below means anything.
{
	my $probe = $node->background_psql('postgres');
	my $pid = $probe->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\s+//g;
	if (!-p "$dir/ctl-$pid.in")
	{
		$probe->quit;
		$node->stop;
		plan skip_all => "libfiu's remote control does not reach a backend (no $dir/ctl-$pid.in)";
	}
	$probe->quit;
}

# Run $call with failure point $point enabled while $func is on the
# backend's stack; $expect is 'error' (an ERROR naming a file) or a
# function of the output that says the read was complete.
sub fault_case
{
	my ($name, $call, $point, $func, $expect) = @_;
	my $caller = $node->background_psql('postgres', on_error_stop => 0);
	my $pid = $caller->query_safe('SELECT pg_backend_pid()');
	$pid =~ s/\s+//g;

	# Once without a fault: the library is loaded (the remote control
	# finds $func) and the descriptors the server keeps are open.
	my $clean = $caller->query($call);
	unlike($caller->{stderr}, qr/ERROR/, "$name: without a fault, no error");
	my $fds_before = open_fds($pid, $files_re);

	my $reply = fiu_ctrl($pid,
		"enable_stack_by_name name=$point,func_name=$func,pos_in_stack=-1");
	is($reply, '', "$name: $point enabled under $func");
	my $out = $caller->query($call);
	my $err = $caller->{stderr};
	my $state = $caller->query("\\echo :LAST_ERROR_SQLSTATE");
	$state =~ s/\s+//g;
	fiu_ctrl($pid, "disable name=$point");

	if ($expect eq 'error')
	{
		isnt($state, '00000', "$name, $point: an ERROR");
		like($err, qr{ERROR:.*("(base|global|pg_tblspc)/[^"]*"|"[^"]*(pgsql_tmp|/proc/|/sys/)[^"]*")},
			"$name, $point: ... naming the file");
		like($err, qr/Input\/output error|read only \d+ of \d+ bytes/,
			"$name, $point: ... and what went wrong");
	}
	else
	{
		is($state, '00000', "$name, $point: no error") or diag($err);
		ok($expect->($out), "$name, $point: every byte measured ($out)");
	}
	my $again = $caller->query('SELECT 1');
	is($again, '1', "$name, $point: the session goes on");
	cmp_ok(open_fds($pid, $files_re), '<=', $fds_before,
		"$name, $point: no descriptor left open");
	$caller->quit;
}

my $eio_read = 'posix/io/rw/read';
my $eio_pread = 'posix/io/rw/pread';
my $eio_any = 'posix/io/rw/*';

# The failure points fail only while the SQL function named is on the
# backend's stack: libfiu finds it by its exported symbol (from 16 on,
# PostgreSQL builds modules with hidden symbols, all but the entry points).
fault_case('raw_read', "SELECT bytes FROM raw_read('v', 'cold', 8192)",
	$eio_read, 'raw_read', 'error');
fault_case('raw_read', "SELECT bytes FROM raw_read('v', 'cold', 8192)",
	"$eio_read/reduce", 'raw_read', sub { $_[0] eq $size });
# The page cache's residency is read through a mapping.
fault_case('raw_read', "SELECT bytes FROM raw_read('v', 'cold', 8192)",
	'posix/mm/mmap', 'raw_read', 'error');
fault_case('raw_read_segments', "SELECT bytes FROM raw_read_segments('v', 'warm', 65536)",
	$eio_read, 'raw_read_segments', 'error');
fault_case('raw_read_segments', "SELECT sum(bytes) FROM raw_read_segments('v', 'warm', 65536)",
	"$eio_read/reduce", 'raw_read_segments', sub { $_[0] eq $size });
fault_case('random_read', "SELECT reads FROM random_read('v', 'cold', reads => 500)",
	$eio_pread, 'random_read', 'error');
fault_case('random_read', "SELECT reads, bytes FROM random_read('v', 'cold', reads => 500)",
	"$eio_pread/reduce", 'random_read', sub { $_[0] eq '500|' . 500 * 8192 });
fault_case('scan_rate', "SELECT bytes FROM scan_rate('v', 'cold')",
	$eio_any, 'scan_rate', 'error');
fault_case('scan_rate', "SELECT bytes FROM scan_rate('v', 'cold')",
	'posix/mm/mmap', 'scan_rate', 'error');
fault_case('scan_breakdown', "SELECT bytes FROM scan_breakdown('v', 'cold')",
	$eio_any, 'scan_breakdown', 'error');
fault_case('scan_efficiency whole',
	"SELECT bytes FROM scan_efficiency('v', 'cold', method => 'whole', max_seconds => 10)",
	$eio_any, 'scan_efficiency', 'error');
fault_case('scan_efficiency pairs',
	"SELECT bytes FROM scan_efficiency('v', 'cold', max_seconds => 10)",
	$eio_any, 'scan_efficiency', 'error');
fault_case('scan_efficiency pairs',
	"SELECT bytes FROM scan_efficiency('v', 'warm', max_seconds => 10)",
	'posix/mm/mmap', 'scan_efficiency', 'error');
fault_case('storage_profile',
	"SELECT count(*) FROM storage_profile('pg_default', size_mb => 16, random_ops => 100)",
	$eio_pread, 'storage_profile', 'error');

my $log = slurp_file($node->logfile);
unlike($log, qr/terminated by signal/, 'no backend was terminated by a signal');
unlike($log, qr/PANIC/, 'no PANIC');

$node->stop;
done_testing();
