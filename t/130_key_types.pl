# The key's type is the table owner's choice, and access_paths and
# index_crossover run as their caller, often a superuser.  A key of a
# domain whose CHECK calls its owner's function must not run that
# function: the bound is a literal of the domain's base type, compared by
# the index's operators, as a plain SELECT of the table would run none of
# her code.  char(n) and bit(n) keys keep their length in the bound, so
# every path counts the rows a query counts.  Keys whose literal or
# comparisons would run code no superuser owns (arrays, composite types,
# a range over a domain, a type with a function of hers) are refused with
# 0A000 and a message that says why, before anything is read.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('key_types');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 16MB\nautovacuum = off\n");
$node->start;

# Her function leaves three marks when it runs: a NOTICE, a setting of the
# session and a notification (a listening session sees it at commit).
$node->safe_psql('postgres', q{
	CREATE EXTENSION scanbench;
	CREATE ROLE alice LOGIN;
	CREATE SCHEMA alice AUTHORIZATION alice;
	SET ROLE alice;
	CREATE FUNCTION alice.spy(bigint) RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		RAISE NOTICE 'spy ran as %', current_user;
		PERFORM pg_catalog.set_config('spy.ran', current_user, false);
		PERFORM pg_catalog.pg_notify('spy', current_user);
		RETURN true;
	END $$;
	CREATE DOMAIN alice.watched AS bigint CHECK (alice.spy(VALUE));
	CREATE TABLE alice.d (k alice.watched, pad text);
	INSERT INTO alice.d SELECT g, repeat('x', 100) FROM generate_series(1, 3000) g;
	CREATE INDEX d_k ON alice.d (k);
	ANALYZE alice.d;
	RESET ROLE;
});

# One psql session: LISTEN, the call, then what the session holds.
sub watched
{
	my ($call) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', qq{
		LISTEN spy;
		$call;
		SELECT 'setting:' || coalesce(current_setting('spy.ran', true), '');
	});
	return ($ret, $out, $err);
}

for my $call (
	[ access_paths => "SELECT path, cache, rows FROM access_paths('alice.d', 'alice.d_k', selectivity => 0.5, max_seconds => 5)" ],
	[ index_crossover => "SELECT rounds >= 1 FROM index_crossover('alice.d', 'alice.d_k', max_seconds => 5)" ])
{
	my ($name, $sql) = @$call;
	my ($ret, $out, $err) = watched($sql);
	is($ret, 0, "$name on a domain key runs") or diag($err);
	unlike($err, qr/spy ran/, "$name: the owner's CHECK function ran no NOTICE");
	like($out, qr/^setting:$/m, "$name: nor set a setting");
	unlike($out . $err, qr/Asynchronous notification/, "$name: nor notified");
	if ($name eq 'access_paths')
	{
		my %rows = map { (split /\|/)[2] => 1 } grep { /\|/ } split /\n/, $out;
		is_deeply([ keys %rows ], [ 1500 ], 'every path counts half the rows');
	}
}
# The same function does run where a value is cast to her domain: the
# marks are seen when they are there.
my ($ret, $out, $err) = watched('SELECT 7::alice.watched');
like($err, qr/spy ran as postgres/, 'a cast to the domain runs it (the test sees it)');
like($out, qr/^setting:postgres$/m, 'and sees its setting');

# char(n), bit(n) and other keys with a type modifier: every path counts
# what a query with the same bound counts.
$node->safe_psql('postgres', q{
	CREATE TABLE c (k char(4), pad text);
	INSERT INTO c SELECT lpad((g % 1000)::text, 4, '0'), repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX c_k ON c (k);
	CREATE TABLE b (k bit(12), pad text);
	INSERT INTO b SELECT (g % 4096)::bit(12), repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX b_k ON b (k);
	CREATE TABLE v (k varchar(6), pad text);
	INSERT INTO v SELECT lpad((g % 997)::text, 6, 'v'), repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX v_k ON v (k);
	CREATE TABLE n (k numeric(8,2), pad text);
	INSERT INTO n SELECT (g % 1013) / 7.0, repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX n_k ON n (k);
	CREATE DOMAIN code4 AS char(4);
	CREATE TABLE dc (k code4, pad text);
	INSERT INTO dc SELECT lpad((g % 1000)::text, 4, '0'), repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX dc_k ON dc (k);
	CREATE TYPE colour AS ENUM ('red', 'orange', 'yellow', 'green', 'blue');
	CREATE TABLE e (k colour, pad text);
	INSERT INTO e SELECT (enum_range(NULL::colour))[1 + g % 5], repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX e_k ON e (k);
	CREATE TABLE r (k int4range, pad text);
	INSERT INTO r SELECT int4range(g % 500, g % 500 + 10), repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX r_k ON r (k);
	ANALYZE c, b, v, n, dc, e, r;
});
for my $t (qw(c b v n dc e r))
{
	# the key at half the rows in key order, as access_paths takes it
	my $expect = $node->safe_psql('postgres',
		"SELECT count(*) FROM $t WHERE k <= (SELECT k FROM $t ORDER BY k OFFSET 1999 LIMIT 1)");
	my $got = $node->safe_psql('postgres',
		"SELECT string_agg(DISTINCT rows::text, ',') FROM access_paths('$t', '${t}_k', selectivity => 0.5, max_seconds => 4)");
	is($got, $expect, "$t: every path counts the $expect rows a query counts");
}
my $planned = $node->safe_psql('postgres',
	"SELECT planner_crossover >= 0 FROM index_crossover('c', 'c_k', max_seconds => 3)");
is($planned, 't', 'index_crossover reads a char(n) key');

# Refused, before anything is read, naming why.
$node->safe_psql('postgres', q{
	CREATE TABLE arr (k int[], pad text);
	INSERT INTO arr SELECT ARRAY[g], 'x' FROM generate_series(1, 100) g;
	CREATE INDEX arr_k ON arr (k);
	CREATE TYPE pair AS (a int, b int);
	CREATE TABLE comp (k pair);
	INSERT INTO comp SELECT ROW(g, g)::pair FROM generate_series(1, 100) g;
	CREATE INDEX comp_k ON comp (k);
	SET ROLE alice;
	CREATE TYPE alice.wrange AS RANGE (subtype = alice.watched);
	RESET ROLE;
	CREATE TABLE wr (k alice.wrange);
	CREATE INDEX wr_k ON wr (k);
	ANALYZE arr, comp, wr;
});

# A type of the superuser's making whose operators are the built-in ones:
# measured while a superuser owns them, refused once one is hers.
$node->safe_psql('postgres', q{
	CREATE TYPE sbint;
	CREATE FUNCTION sbint_in(cstring) RETURNS sbint AS 'int4in' LANGUAGE internal IMMUTABLE STRICT;
	CREATE FUNCTION sbint_out(sbint) RETURNS cstring AS 'int4out' LANGUAGE internal IMMUTABLE STRICT;
	CREATE TYPE sbint (INPUT = sbint_in, OUTPUT = sbint_out, LIKE = int4);
	CREATE FUNCTION sbint_cmp(sbint, sbint) RETURNS int AS 'btint4cmp' LANGUAGE internal IMMUTABLE STRICT;
	CREATE FUNCTION sbint_lt(sbint, sbint) RETURNS bool AS 'int4lt' LANGUAGE internal IMMUTABLE STRICT;
	CREATE FUNCTION sbint_le(sbint, sbint) RETURNS bool AS 'int4le' LANGUAGE internal IMMUTABLE STRICT;
	CREATE FUNCTION sbint_eq(sbint, sbint) RETURNS bool AS 'int4eq' LANGUAGE internal IMMUTABLE STRICT;
	CREATE FUNCTION sbint_ge(sbint, sbint) RETURNS bool AS 'int4ge' LANGUAGE internal IMMUTABLE STRICT;
	CREATE FUNCTION sbint_gt(sbint, sbint) RETURNS bool AS 'int4gt' LANGUAGE internal IMMUTABLE STRICT;
	CREATE OPERATOR < (LEFTARG = sbint, RIGHTARG = sbint, FUNCTION = sbint_lt, RESTRICT = scalarltsel);
	CREATE OPERATOR <= (LEFTARG = sbint, RIGHTARG = sbint, FUNCTION = sbint_le, RESTRICT = scalarlesel);
	CREATE OPERATOR = (LEFTARG = sbint, RIGHTARG = sbint, FUNCTION = sbint_eq, RESTRICT = eqsel);
	CREATE OPERATOR >= (LEFTARG = sbint, RIGHTARG = sbint, FUNCTION = sbint_ge, RESTRICT = scalargesel);
	CREATE OPERATOR > (LEFTARG = sbint, RIGHTARG = sbint, FUNCTION = sbint_gt, RESTRICT = scalargtsel);
	CREATE OPERATOR CLASS sbint_ops DEFAULT FOR TYPE sbint USING btree AS
		OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
		FUNCTION 1 sbint_cmp(sbint, sbint);
	CREATE TABLE s (k sbint, pad text);
	INSERT INTO s SELECT (g % 1000)::text::sbint, repeat('x', 100) FROM generate_series(1, 4000) g;
	CREATE INDEX s_k ON s (k);
	ANALYZE s;
});
my $expect = $node->safe_psql('postgres',
	"SELECT count(*) FROM s WHERE k <= (SELECT k FROM s ORDER BY k OFFSET 1999 LIMIT 1)");
is($node->safe_psql('postgres',
		"SELECT string_agg(DISTINCT rows::text, ',') FROM access_paths('s', 's_k', selectivity => 0.5, max_seconds => 4)"),
	$expect, "a type whose functions a superuser owns is measured ($expect rows)");

$node->safe_psql('postgres', 'ALTER FUNCTION sbint_le(sbint, sbint) OWNER TO alice');
my @refused = (
	[ 'arr', 'arr_k', qr/the first key of index "arr_k" is of an array type, integer\[\]/ ],
	[ 'comp', 'comp_k', qr/the first key of index "comp_k" is of a composite type, pair/ ],
	[ 'wr', 'wr_k', qr/is of type alice\.wrange, a range over domain alice\.watched/ ],
	[ 's', 's_k', qr/is of type sbint, whose comparison function sbint_le\(sbint,sbint\) is owned by role "alice", not a superuser/ ],
);
for my $case (@refused)
{
	my ($t, $i, $re) = @$case;
	for my $fn ('access_paths', 'index_crossover')
	{
		my ($r, $o, $e) = $node->psql('postgres',
			"\\set VERBOSITY verbose\nSELECT * FROM $fn('$t', '$i')");
		like($e, qr/ERROR:  0A000: /, "$fn on $t: refused with 0A000");
		like($e, $re, "$fn on $t: saying why");
	}
}
# Refused before anything was read: the refusal is at once.
my $t0 = time;
$node->psql('postgres', "SELECT * FROM access_paths('s', 's_k', max_seconds => 60)");
cmp_ok(time - $t0, '<', 10, 'the refusal comes before any measurement');

$node->stop;
done_testing();
