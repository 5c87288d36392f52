# Other sessions at work while a call runs: a DROP that commits while the
# call waits for its lock is reported as a missing relation (42P01), not as
# an internal error; a member dropped meanwhile is left out, as a SELECT
# leaves it out; another session's temporary child of an inheritance parent
# is skipped with a NOTICE, as SELECT on the parent skips it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('concurrency');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE TABLE parent (id integer);
	CREATE TABLE child_1 () INHERITS (parent);
	CREATE TABLE child_2 () INHERITS (parent);
	INSERT INTO child_1 SELECT generate_series(1, 100);
	INSERT INTO child_2 SELECT generate_series(1, 50);
	CREATE TABLE part (id integer) PARTITION BY RANGE (id);
	CREATE TABLE part_1 PARTITION OF part FOR VALUES FROM (1) TO (101);
	CREATE TABLE part_2 PARTITION OF part FOR VALUES FROM (101) TO (201);
	INSERT INTO part SELECT generate_series(1, 200);
});

# Wait until some backend waits for a lock on the named relation.
sub wait_for_lock_wait
{
	my ($rel) = @_;
	$node->poll_query_until('postgres', qq{
		SELECT count(*) > 0 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE NOT l.granted AND c.relname = '$rel'})
	  or die "no backend waits for a lock on $rel";
}

# Run $call in a second session while $holder's DROP of $dropped (locking
# $locked) is uncommitted; commit the DROP once the call waits; return the
# call's SQLSTATE and messages.
sub call_across_drop
{
	my ($call, $drop, $locked) = @_;
	my $holder = $node->background_psql('postgres');
	my $caller = $node->background_psql('postgres', on_error_stop => 0);
	$holder->query_safe("BEGIN; $drop;");
	$caller->query_until(qr/started/, "\\echo started\n$call;\n");
	wait_for_lock_wait($locked);
	$holder->query_safe("COMMIT");
	my $state = $caller->query("\\echo :LAST_ERROR_SQLSTATE");
	my $err = $caller->{stderr};
	$state =~ s/\s+//g;
	$caller->quit;
	$holder->quit;
	return ($state, $err);
}

for my $fn (qw(scan_rate scan_efficiency raw_read raw_read_segments))
{
	$node->safe_psql('postgres', "CREATE TABLE victim AS SELECT generate_series(1, 1000) AS id");
	my ($state, $err) = call_across_drop("SELECT * FROM $fn('victim')",
		'DROP TABLE victim', 'victim');
	is($state, '42P01', "$fn: a DROP committed while waiting gives 42P01");
	like($err, qr/relation "victim" does not exist/, "$fn: ... naming the relation");
	like($err, qr/dropped while this call waited/, "$fn: ... and saying why");
	unlike($err, qr/could not open relation with OID/, "$fn: ... not the internal error");
}

# A member dropped while the call waits for it is left out, as SELECT does.
my $holder = $node->background_psql('postgres');
my $caller = $node->background_psql('postgres', on_error_stop => 0);
$holder->query_safe("BEGIN; DROP TABLE child_2;");
$caller->query_until(qr/started/,
	"\\echo started\nSELECT rows, pages > 0 FROM scan_rate('parent', 'asis');\n");
wait_for_lock_wait('child_2');
$holder->query_safe("COMMIT");
my $out = $caller->query("\\echo done");
is($caller->{stderr}, '', 'inheritance child dropped meanwhile: no error');
like($out, qr/^100\|t/m, '... and only the remaining child counted');
$caller->quit;

# The same for a partition: dropping it locks the parent, so the call waits
# there, and finds the remaining partitions once the lock is granted.
$caller = $node->background_psql('postgres', on_error_stop => 0);
$holder->query_safe("BEGIN; DROP TABLE part_2;");
$caller->query_until(qr/started/,
	"\\echo started\nSELECT rows FROM scan_rate('part', 'asis');\n");
wait_for_lock_wait('part');
$holder->query_safe("COMMIT");
$out = $caller->query("\\echo done");
is($caller->{stderr}, '', 'partition dropped meanwhile: no error');
like($out, qr/^100$/m, '... and only the remaining partition counted');
$caller->quit;

# Another session's temp child of an inheritance parent: skipped, with a
# NOTICE, and the rows are those SELECT count(*) on the parent sees.
$holder->query_safe(q{
	CREATE TEMP TABLE theirs () INHERITS (parent);
	INSERT INTO theirs SELECT generate_series(1, 7);
});
is($holder->query_safe("SELECT count(*) FROM parent"), '107',
	'the owner of the temp child sees its rows through the parent');
my $count = $node->safe_psql('postgres', "SELECT count(*) FROM parent");
is($count, '100', 'another session\'s SELECT on the parent leaves them out');
for my $t (
	[ "SELECT rows FROM scan_rate('parent', 'cold')", '100' ],
	[ "SELECT rows FROM scan_efficiency('parent', 'cold')", '100' ],
	[ "SELECT segments FROM raw_read('parent')", '1' ],
	[ "SELECT count(*) FROM raw_read_segments('parent')", '1' ])
{
	my ($sql, $want) = @$t;
	my ($ret, $stdout, $stderr) = $node->psql('postgres', $sql);
	is($ret, 0, "$sql: measured");
	is($stdout, $want, "$sql: without the temp child");
	like($stderr, qr/NOTICE:  skipping "theirs", a temporary table of another session/,
		"$sql: says so in a NOTICE");
}
# Named directly, it is still refused.
my $oid = $holder->query_safe("SELECT 'theirs'::regclass::oid");
$oid =~ s/\s+//g;
my ($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT * FROM scan_rate($oid)");
like($stderr, qr/cannot measure temporary tables of other sessions/,
	'the temp child itself is refused');
$holder->quit;

$node->stop;
done_testing();
