# toast_efficiency on a table whose values are stored out of line
# (STORAGE EXTERNAL, 4 kB each): every row comes back with its value
# detoasted, the bytes are the three relations' own, most of them the
# TOAST table's, and the cold raw reads read.  Cancellation leaves no
# descriptor open and the session's settings as they were, the data is
# unchanged, and only a role granted EXECUTE and SELECT on the table may
# run it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use ScanbenchFds;

my $node = PostgreSQL::Test::Cluster->new('toast_efficiency');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;
# About 26 MB: 5,000 values of 4 kB out of line, in two chunks each, and a
# main fork of pointers.
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE d (id int, doc text, note text);
	ALTER TABLE d ALTER COLUMN doc SET STORAGE EXTERNAL;
	INSERT INTO d SELECT g, repeat(md5(g::text), 128), 'n' || g FROM generate_series(1, 5000) g;
	VACUUM (FREEZE, ANALYZE) d;
	CHECKPOINT;
});
my $sum = $node->safe_psql('postgres', "SELECT md5(string_agg(id || doc || note, '' ORDER BY id)) FROM d");

my @cols = qw(columns cache rows values_detoasted main_bytes toast_bytes toast_index_bytes toast_pct
  rounds read_s read_mb_s scan_s scan_mb_s scan_pct pct_low pct_high cached_pct_before elapsed_s verdict);

sub toast
{
	my ($args) = @_;
	my %r;
	@r{@cols} = split /\|/,
	  $node->safe_psql('postgres', 'SELECT ' . join(', ', @cols) . " FROM toast_efficiency($args)"), -1;
	note("toast_efficiency($args): " . join(', ', map { "$_ $r{$_}" } @cols));
	return \%r;
}

my ($main, $toast, $index) = split /\|/, $node->safe_psql('postgres', q{
	SELECT pg_relation_size(c.oid), pg_relation_size(c.reltoastrelid),
	       pg_relation_size(i.indexrelid)
	FROM pg_class c JOIN pg_index i ON i.indrelid = c.reltoastrelid
	WHERE c.relname = 'd'});

my $r = toast("'d', max_seconds => 8");
is($r->{columns}, '{doc,note}', 'the toastable columns are scanned');
is($r->{rows}, 5000, 'every row is returned');
is($r->{values_detoasted}, 5000, 'every value stored out of line is detoasted');
is("$r->{main_bytes} $r->{toast_bytes} $r->{toast_index_bytes}", "$main $toast $index",
	'the bytes are the main fork\'s, the TOAST table\'s and its index\'s');
cmp_ok($r->{toast_pct}, '>', 90, 'most of them in the TOAST table');
ok(abs($r->{toast_pct} - 100 * ($toast + $index) / ($main + $toast + $index)) < 0.1,
	'toast_pct is their share');
cmp_ok($r->{rounds}, '>=', 1, 'rounds were run');
cmp_ok($r->{read_mb_s}, '>', 0, 'the cold raw reads read');
cmp_ok($r->{scan_mb_s}, '>', 0, 'the scan read');
ok(abs($r->{scan_pct} - 100 * $r->{scan_mb_s} / $r->{read_mb_s}) <= 0.02 * $r->{scan_pct} + 0.2,
	'scan_pct is the scan\'s rate over the reads\'');
ok($r->{pct_low} eq '' || ($r->{pct_low} <= $r->{scan_pct} && $r->{scan_pct} <= $r->{pct_high}),
	'within its interval');
ok($r->{rounds} < 3 ? $r->{verdict} =~ /over_budget/ : $r->{verdict} !~ /over_budget/,
	"over_budget exactly below 3 rounds ($r->{verdict})");

my $w = toast("'d', 'warm', max_seconds => 4");
is("$w->{cache} $w->{rows} $w->{values_detoasted}", 'warm 5000 5000', 'warm: every value detoasted');
unlike($w->{verdict}, qr/cached/, 'warm is not marked cached');

# Cancelled in the middle: no descriptor of the three relations left
# open, the session's settings as they were.
my $nodes = $node->safe_psql('postgres', q{
	SELECT string_agg(pg_relation_filenode(o)::text, '|')
	FROM (SELECT c.oid AS o FROM pg_class c WHERE relname = 'd'
	      UNION ALL SELECT reltoastrelid FROM pg_class WHERE relname = 'd'
	      UNION ALL SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON i.indrelid = c.reltoastrelid
	                WHERE c.relname = 'd') s});
my $files = qr{/(?:$nodes)(\.\d+)?$};
my ($session, $pid) = fd_session($node);
$session->query_safe("SELECT count(*) FROM toast_efficiency('d', max_seconds => 1)");
my $fds_before = open_fds($pid, $files);
my $show = "SELECT current_setting('max_parallel_workers_per_gather') || current_setting('jit') || current_setting('synchronize_seqscans') || current_setting('search_path') || current_setting('transaction_read_only')";
my $settings_before = $session->query($show);
$session->query("SET statement_timeout = '100ms'; SELECT * FROM toast_efficiency('d', max_seconds => 600)");
my $stderr = $session->{stderr};
$session->query("RESET statement_timeout");
$stderr .= $session->{stderr};
like($stderr, qr/canceling statement due to statement timeout/, 'statement_timeout stops it');
is(open_fds($pid, $files), $fds_before, "no descriptor left open ($fds_before before)");
is($session->query($show), $settings_before, 'the session\'s settings are as they were');
$session->quit;

is($node->safe_psql('postgres', "SELECT md5(string_agg(id || doc || note, '' ORDER BY id)) FROM d"), $sum,
	'the data is unchanged');

$node->safe_psql('postgres', 'CREATE ROLE m LOGIN');
my ($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM toast_efficiency('d')",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for function toast_efficiency/, 'PUBLIC may not run it');
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION toast_efficiency(regclass, text, float8) TO m');
($ret, $out, $serr) = $node->psql('postgres', "SELECT * FROM toast_efficiency('d', max_seconds => 1)",
	extra_params => ['-U', 'm']);
like($serr, qr/permission denied for table d/, 'granted, it still needs SELECT on the table');
$node->safe_psql('postgres', 'GRANT SELECT ON d TO m');
($ret, $out, $serr) = $node->psql('postgres',
	"SELECT rows, values_detoasted FROM toast_efficiency('d', max_seconds => 1)",
	extra_params => ['-U', 'm']);
is($out, '5000|5000', 'with SELECT on the table, its TOAST table is read too');

$node->stop;
done_testing();
