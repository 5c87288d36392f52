# The history outlives what happens around it, and so does the page
# costs' history: a table reloaded with scanbench-load --drop (a new
# OID), pg_dump and restore (its months with it), and ALTER EXTENSION ... UPDATE, both from 0.1
# and to a later release that changes the result types; and DROP
# EXTENSION is not blocked by it.  The extension lives in a schema of
# its own, which callers need not have in their search_path; it cannot
# be moved (not relocatable, since its helpers live in
# scanbench_internal).
#
# The later release is simulated in a private copy of the installation,
# whose extension directory the test may write to: PostgreSQL finds its
# share and lib directories relative to its own binary, so a copy of the
# bin directory beside a copy of share (and links to lib) is a complete
# installation.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Basename qw(dirname);
use File::Path qw(make_path);
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchLoad;

my %dir;
for my $what (qw(bindir sharedir pkglibdir))
{
	my $v = `pg_config --$what`;
	die "pg_config --$what failed" if $?;
	chomp $v;
	$dir{$what} = $v;
}
# The longest common directory prefix of the three.
my @parts = map { [ split m{/}, $_ ] } values %dir;
my $n = 0;
while (1)
{
	my $p = $parts[0][$n];
	last if !defined $p || grep { !defined $_->[$n] || $_->[$n] ne $p } @parts;
	$n++;
}
my $prefix = join '/', @{ $parts[0] }[ 0 .. $n - 1 ];
my $root = PostgreSQL::Test::Utils::tempdir('install');
my %copy = map { $_ => $root . substr($dir{$_}, length $prefix) } keys %dir;
make_path(dirname($copy{bindir}), dirname($copy{sharedir}), $copy{pkglibdir});
system('cp', '-a', $dir{bindir}, $copy{bindir}) == 0 or die 'cp bindir';
system('cp', '-a', $dir{sharedir}, $copy{sharedir}) == 0 or die 'cp sharedir';
opendir(my $dh, $dir{pkglibdir}) or die $!;
for my $f (grep { !/^\.\.?$/ } readdir $dh)
{
	symlink("$dir{pkglibdir}/$f", "$copy{pkglibdir}/$f") or die "symlink $f: $!";
}
closedir $dh;

# A later release whose upgrade changes the result type, as 0.2 did.
my $ext = "$copy{sharedir}/extension";
my ($major, $minor) = split /\./, $version;
my $later = "$major." . ($minor + 1);
open(my $fh, '>', "$ext/scanbench--$version--$later.sql") or die $!;
print $fh "ALTER TYPE scan_efficiency_result ADD ATTRIBUTE later_s float8;\n";
print $fh "COMMENT ON COLUMN scan_efficiency_result.later_s IS 'a column of a later release';\n";
print $fh "ALTER TYPE page_costs_result ADD ATTRIBUTE later_depth integer;\n";
print $fh "COMMENT ON COLUMN page_costs_result.later_depth IS 'a column of a later release';\n";
close $fh;

my $node = PostgreSQL::Test::Cluster->new('survives',
	install_path => dirname($copy{bindir}));
$node->init;
$node->start;
like($node->safe_psql('postgres', 'SHOW data_directory'), qr/survives/, 'the copied installation runs');

sub sql { return $node->safe_psql($_[1] // 'postgres', $_[0]) }
my $rows_digest = q{SELECT count(*) || ' ' || md5(string_agg(
	concat_ws('|', id, measured_at, relid, relschema, relname, scan_pct, verdict, scheduler, settings),
	',' ORDER BY id)) FROM %s.scan_history};

# 0.1 had no history; the update to 0.2 brings it.  In a schema of its
# own, which the database's search_path has.
sql("CREATE SCHEMA monitoring; CREATE EXTENSION scanbench VERSION '0.1' SCHEMA monitoring");
sql('ALTER DATABASE postgres SET search_path = "$user", public, monitoring');
sql("ALTER EXTENSION scanbench UPDATE TO '$version'");
is(sql("SELECT extversion FROM pg_extension WHERE extname = 'scanbench'"), $version,
	"updated from 0.1 to $version");

my ($rc, $out, $err) = run_loader($node, '-s', '0.01', '-q');
is($rc, 0, 'lineitem loaded') or diag($err);
my $oid1 = sql("SELECT 'lineitem'::regclass::oid");
# A table this small gives few 8 MB stretches: whole passes make the
# interval, and a loose target lets a noisy machine's runs be judged.
my $check = "efficiency_check('lineitem', max_drop_pct => 99, method => 'whole', runs => 15, target_pct => 100)";
sql("CALL $check");

# A reload: the table gets a new OID, its runs stay together by name.
($rc, $out, $err) = run_loader($node, '-s', '0.01', '-q', '--drop');
is($rc, 0, 'lineitem reloaded with --drop') or diag($err);
my $oid2 = sql("SELECT 'lineitem'::regclass::oid");
isnt($oid2, $oid1, 'the reloaded table has a new OID');
my $r = $node->psql('postgres', "CALL $check", stderr => \$err);
is($r, 0, 'the check runs on the reloaded table') or diag($err);
my ($earlier, $m1, $m2) = split /\|/, sql(q{
	SELECT j.earlier_runs, coalesce(scanbench_internal.scan_history_marks(a.verdict), 'not judged'),
		   coalesce(scanbench_internal.scan_history_marks(b.verdict), 'not judged')
	FROM scan_history a, scan_history b, scan_history_judge(b.id, max_drop_pct => 99) j
	WHERE a.id = (SELECT min(id) FROM scan_history) AND b.id = (SELECT max(id) FROM scan_history)});
SKIP:
{
	skip "the two runs are not comparable (marks '$m1' and '$m2')", 1
	  if $m1 ne $m2 || $m1 eq 'not judged';
	is($earlier, '1', 'the run after the reload is compared with the one before');
}
is(sql("SELECT string_agg(relschema || '.' || relname || ':' || (relid = $oid1)::text, ' ' ORDER BY id) FROM scan_history"),
	'public.lineitem:true public.lineitem:false', 'both runs name the table; the OIDs differ');
is(sql("SELECT runs FROM scan_trend WHERE relation = 'public.lineitem'"), '2',
	'the trend has both runs in one row');

# The page costs' history too, written by hand (lineitem is too small
# for page_costs).
sql(q{INSERT INTO page_costs_history (measured_at, relid, relschema, relname, tablespace,
		ratio, ratio_low, ratio_high, random_page_cost, recommended_random_page_cost,
		recommended_low, recommended_high, verdict)
	  SELECT now() - g * interval '1 day', 'lineitem'::regclass, 'public', 'lineitem', 'pg_default',
		10 + g, 9 + g, 11 + g, 4, 4, 3.5, 4.5, '{ok}' FROM generate_series(1, 2) g});
my $pc_digest = q{SELECT count(*) || ' ' || md5(string_agg(
	concat_ws('|', id, measured_at, relid, relschema, relname, ratio, recommended_random_page_cost, verdict),
	',' ORDER BY id)) FROM %s.page_costs_history};
my $pc_before = sql(sprintf($pc_digest, 'monitoring'));

# The history by month: the runs move from the default partition into
# their month; a run of a month without one waits in the default.
cmp_ok(sql(q{SELECT monitoring.scan_history_partition(now() - interval '2 months')}), '>=', 4,
	'the months are made');
is(sql('SELECT count(*) FROM monitoring.scan_history_default'), '0', '... the runs moved into theirs');
sql(q{INSERT INTO monitoring.scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	  VALUES (now() - interval '2 years', 'public', 'lineitem', 'cold', 50, '{ok}')});
my $months = q{SELECT string_agg(part::text || ' ' || coalesce(from_at::text, 'default'), ', ' ORDER BY from_at NULLS FIRST)
	FROM scanbench_internal.scan_history_months()};
my $months_before = sql("SET search_path = monitoring; $months");

# pg_dump keeps the rows, in their months; a restore brings them back with
# the sequence, and the months with their keys.
my $before = sql(sprintf($rows_digest, 'monitoring'));
my $dump = "$root/dump.sql";
$node->command_ok([ 'pg_dump', '-d', $node->connstr('postgres'), '-f', $dump ], 'pg_dump');
sql('CREATE DATABASE restored');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('restored'), '-f', $dump ],
	'restore');
is(sql(sprintf($rows_digest, 'monitoring'), 'restored'), $before, 'the restored history has every run');
is(sql("SET search_path = monitoring; $months", 'restored'), $months_before, '... in the same months');
is(sql(q{SELECT count(*) FROM pg_index i JOIN pg_inherits h ON h.inhrelid = i.indrelid
		 WHERE h.inhparent = 'monitoring.scan_history'::regclass}, 'restored'),
	sql(q{SELECT count(*) FROM pg_index i JOIN pg_inherits h ON h.inhrelid = i.indrelid
		 WHERE h.inhparent = 'monitoring.scan_history'::regclass}), '... each with its key and indexes');
sql(q{DELETE FROM monitoring.scan_history WHERE measured_at < now() - interval '1 year'});
$before = sql(sprintf($rows_digest, 'monitoring'));
cmp_ok(sql("SELECT nextval('monitoring.scan_history_id_seq')", 'restored'), '>', 2, 'and its numbering goes on');
is(sql(sprintf($pc_digest, 'monitoring'), 'restored'), $pc_before, 'the restored page costs\' history has every run');
cmp_ok(sql("SELECT nextval('monitoring.page_costs_history_id_seq')", 'restored'), '>', 2,
	'and its numbering goes on');

# Everything finds its objects, also for a caller whose search_path does
# not have the extension's schema; the extension is not moved.
($r, $out, $err) = $node->psql('postgres', 'CREATE SCHEMA elsewhere; ALTER EXTENSION scanbench SET SCHEMA elsewhere');
like($err, qr/does not support SET SCHEMA/, 'ALTER EXTENSION SET SCHEMA is refused');
is(sql(sprintf($rows_digest, 'monitoring')), $before, 'the history stays where it was');
$r = $node->psql('postgres', "SET search_path = public; CALL monitoring.$check", stderr => \$err);
is($r, 0, 'the check runs from the new schema') or diag($err);
is(sql('SELECT count(*) FROM monitoring.scan_history'), '3', 'and records there');
like(sql('SET search_path = public; SELECT monitoring.scanbench_metrics()'),
	qr/scanbench_recorded_runs\{schema="public",relation="lineitem",cache="cold"\} 3/, 'metrics from the new schema');
like(sql("SET search_path = public; SELECT monitoring.scan_history_svg('lineitem')"),
	qr/class="run"/, 'the chart from the new schema');
is(sql('SET search_path = public; SELECT count(*) FROM monitoring.scan_trend'), '1', 'the trend from the new schema');

# A later release changes the result type: the history is not touched.
$before = sql(sprintf($rows_digest, 'monitoring'));
sql("ALTER EXTENSION scanbench UPDATE TO '$later'");
is(sql("SELECT extversion FROM pg_extension WHERE extname = 'scanbench'"), $later, 'updated to a later release');
is(sql(sprintf($rows_digest, 'monitoring')), $before, 'every run is still there, unchanged');
like(sql("SELECT status FROM monitoring.scan_history_judge((SELECT max(id) FROM monitoring.scan_history))"),
	qr/^(ok|warning|regression|first|not_judged)$/, 'and can still be judged');
is(sql(sprintf($pc_digest, 'monitoring')), $pc_before, 'every page costs run too');
cmp_ok(sql(q{SELECT monitoring.page_costs_record(jsonb_populate_record(NULL::monitoring.page_costs_result,
		'{"relation": "lineitem", "ratio": 12, "later_depth": 16}'))}), '>', 2,
	'a page_costs row of the later release records');
is(sql(q{SELECT status FROM monitoring.page_costs_judge((SELECT max(id) FROM monitoring.page_costs_history))}),
	'unjudged', 'and is judged');

# The history blocks nothing: DROP EXTENSION needs no CASCADE.
$r = $node->psql('postgres', 'DROP EXTENSION scanbench', stderr => \$err);
is($r, 0, 'DROP EXTENSION is not blocked by the history') or diag($err);

$node->stop;
done_testing();
