# The history is safe wherever it lives and whenever its runs are dated:
#
#  - in a schema whose name needs quotes (capitals, a space, a letter
#    outside ASCII), every function of the history runs, and makes, moves,
#    prunes and drops its months in that schema.  A schema name with a
#    double quote in it is refused by CREATE EXTENSION itself;
#  - a role that may CREATE in the database makes a schema whose name is
#    the extension's schema's name quoted ("Bench" with the quotes), with a
#    scan_history table and a trigger: none of her code runs, and the prune
#    deletes from the history;
#  - a run dated before the year 1 or after 9999 is refused when recorded
#    (SQLSTATE 22008); runs of such years written into the table otherwise
#    (44 BC and AD 44, 294276) stay in the default partition with a
#    WARNING, and no function of the history fails on them;
#  - under DateStyle = Postgres in Europe/Dublin's summer, whose 'IST'
#    reads back as Israel's time, the months' bounds are exact and the
#    prune keeps a run younger than its cutoff;
#  - a role with CREATE on the history's schema that makes next month's
#    table (or a name its key takes) first stops that month alone, with a
#    WARNING naming it; the other months are made, night after night, and
#    once her table is gone the month is made and its runs move in;
#  - PUBLIC cannot run scanbench_internal.scan_history_kernel(); a role
#    that records is refused before measuring until it is granted.
#
# Against 0.5.0 before these were fixed: scan_history_partition and
# scan_history_prune failed in every quoted schema (format('%I',
# '@extschema@') quoted the quoted name), the planted trigger ran as the
# superuser, the runs of 44 BC, AD 44 and 294276 were recorded and made
# every later scan_history_partition fail, the Dublin prune dropped the
# run of 23:50 with its month, the month table made by another role made
# every scan_history_partition fail, and PUBLIC could run the kernel's
# function.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('history_safe');
$node->init;
$node->append_conf('postgresql.conf', "shared_buffers = 32MB\n");
$node->start;

$node->safe_psql('postgres', q{
	CREATE ROLE other LOGIN;
	CREATE ROLE plain LOGIN;
});

# A name as an SQL identifier, always quoted.
sub qi
{
	my ($name) = @_;
	$name =~ s/"/""/g;
	return qq{"$name"};
}

# A database with the extension in the schema named $name, and a small
# table to measure; returns the schema's name as the server quotes it.
sub make_db
{
	my ($db, $name) = @_;
	$node->safe_psql('postgres',
		"CREATE DATABASE $db TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
	(my $literal = $name) =~ s/'/''/g;
	my $q = $node->safe_psql($db, "SELECT quote_ident('$literal')");
	$node->safe_psql($db, qq{
		CREATE SCHEMA IF NOT EXISTS $q;
		CREATE EXTENSION scanbench SCHEMA $q;
		CREATE TABLE public.t (id bigint, pad text) WITH (autovacuum_enabled = off);
		INSERT INTO public.t SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g;
		VACUUM (ANALYZE) public.t;
		CREATE SEQUENCE public.planted_hits;
		GRANT USAGE ON SEQUENCE public.planted_hits TO PUBLIC;
	});
	return $q;
}

# A query's output; a failure is a failed comparison, not the end of the
# test.
sub out
{
	my ($db, $sql) = @_;
	my ($r, $o, $e) = $node->psql($db, $sql);
	diag($e) if $r;
	return $o;
}

sub hits
{
	my ($db) = @_;
	return $node->safe_psql($db,
		q{SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.planted_hits});
}

# A schema name with a double quote in it cannot hold the extension: the
# server refuses to put such a name into an extension's script.
$node->safe_psql('postgres', q{CREATE SCHEMA "a""b"});
my ($ret, $out, $err) = $node->psql('postgres', q{CREATE EXTENSION scanbench SCHEMA "a""b"});
like($err, qr/invalid character in extension "scanbench" schema/,
	'a schema name with a double quote in it is refused by CREATE EXTENSION');

# ---- Every function of the history, in schemas whose names need quotes ----

# One call of each function of the history, by name (E is the schema); a
# call that must fail gives its message.  The list of names is the
# catalog's: the test fails if one has no call here.
my @calls = (
	[ 'scan_efficiency', q{SELECT (E.scan_efficiency('public.t', 'warm', max_seconds => 2, record => true)).relation} ],
	[ 'scan_history_record', q{SELECT E.scan_history_record(E.scan_efficiency('public.t', 'warm', max_seconds => 2), 10, 20, 15, 10, 30) IS NOT NULL} ],
	[ 'scan_history_measure', q{SELECT scanbench_internal.scan_history_measure('public.t', 'warm', 1, 1.0, 2, 10, 'pairs') IS NOT NULL} ],
	[ 'efficiency_check', q{CALL E.efficiency_check('public.t', 'warm', min_pct => 0.5, max_drop_pct => 99, max_seconds => 2)} ],
	[ 'scan_history_kernel', q{SELECT scanbench_internal.scan_history_kernel() IS NOT NULL} ],
	[ 'scan_history_outside_block', q{SELECT scanbench_internal.scan_history_outside_block()} ],
	[ 'scan_history_in_block', q{SELECT scanbench_internal.scan_history_in_block()} ],
	[ 'scan_verdict_marks', q{SELECT count(*) FROM E.scan_verdict_marks()} ],
	[ 'scan_history_marks', q{SELECT scanbench_internal.scan_history_marks('{ok,cpu_contended}')} ],
	[ 'scan_history_usable', q{SELECT scanbench_internal.scan_history_usable(50)} ],
	[ 'scan_history_check_limits', q{SELECT scanbench_internal.scan_history_check_limits(50, 20, 60, 10, 30)} ],
	[ 'scan_history_compared', q{SELECT count(*) FROM scanbench_internal.scan_history_compared((SELECT h FROM E.scan_history h ORDER BY h.id DESC LIMIT 1), 30)} ],
	[ 'scan_history_window', q{SELECT count(*) FROM scanbench_internal.scan_history_window((SELECT max(h.id) FROM E.scan_history h), 30)} ],
	[ 'scan_history_median', q{SELECT runs FROM scanbench_internal.scan_history_median((SELECT max(h.id) FROM E.scan_history h))} ],
	[ 'scan_history_judge', q{SELECT status FROM E.scan_history_judge((SELECT max(h.id) FROM E.scan_history h), 10, 50, 11, 40, 30)} ],
	[ 'scan_history_judged_days', q{SELECT scanbench_internal.scan_history_judged_days(NULL, 20, 14)} ],
	[ 'scan_history_changes', q{SELECT scanbench_internal.scan_history_changes(
		(SELECT h FROM E.scan_history h ORDER BY h.id DESC LIMIT 1), ARRAY(SELECT h FROM E.scan_history h ORDER BY h.id LIMIT 3)) IS NULL} ],
	[ 'scan_history_verdict', q{SELECT status FROM scanbench_internal.scan_history_verdict(
		(SELECT h FROM E.scan_history h ORDER BY h.id DESC LIMIT 1), '{}', 10, 50, 11, 40, 30,
		(SELECT n.nspname FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'scanbench'))} ],
	[ 'scan_history_judge_runs', q{SELECT count(*) FROM E.scan_history_judge_runs((SELECT min(h.id) FROM E.scan_history h), (SELECT max(h.id) FROM E.scan_history h))} ],
	[ 'scan_trend', q{SELECT runs FROM E.scan_trend WHERE relation = 'public.t' AND cache = 'warm'} ],
	[ 'scanbench_metrics', q{SELECT length(E.scanbench_metrics()) > 0} ],
	[ 'scan_history_svg', q{SELECT length(E.scan_history_svg(NULL, NULL, 90, 10, 20)) > 0} ],
	[ 'scan_history_series_latest', q{SELECT (scanbench_internal.scan_history_series_latest(NULL, 'public', 't', 'warm')).id IS NOT NULL} ],
	[ 'scan_history_series_forget', q{SELECT scanbench_internal.scan_history_series_forget('{NULL}', '{public}', '{t}', '{warm}', '{0}')} ],
	[ 'scan_history_series_refresh', q{SELECT scanbench_internal.scan_history_series_refresh('{NULL}', '{public}', '{t}', '{warm}')} ],
	[ 'scan_history_series_trigger', q{DELETE FROM E.scan_history WHERE false} ],
	[ 'scan_history_series_kept', q{SELECT scanbench_internal.scan_history_series_kept()} ],
	[ 'scan_history_series_rebuild', q{SELECT E.scan_history_series_rebuild() > 0} ],
	[ 'scan_history_distributed', q{SELECT scanbench_internal.scan_history_distributed()} ],
	[ 'scan_history_owned', q{SELECT scanbench_internal.scan_history_owned()} ],
	[ 'scan_history_keys', q{CREATE TABLE E.scan_history_1990_01 PARTITION OF E.scan_history FOR VALUES FROM ('1990-01-01 00:00:00+00') TO ('1990-02-01 00:00:00+00');
		SELECT scanbench_internal.scan_history_keys('E.scan_history_1990_01')} ],
	[ 'scan_history_partition', q{SELECT E.scan_history_partition(now() - interval '14 months', 1)} ],
	[ 'scan_history_months', q{SELECT count(*) FROM scanbench_internal.scan_history_months()} ],
	[ 'scan_history_prune', q{SELECT E.scan_history_prune('400 days')} ],
	[ 'scan_history_compress', q{SELECT E.scan_history_compress('90 days')}, qr/no columnar storage/ ],
	[ 'scan_history_distribute', q{SELECT E.scan_history_distribute()}, qr/can be distributed only on a Citus coordinator/ ],
);
my %called = map { $_->[0] => 1 } @calls;

# [ database, schema name ]: capitals, a space, a letter outside ASCII
# (written here as its UTF-8 bytes).
for my $case ([ 'caps', 'Bench' ], [ 'space', 'bench mark' ], [ 'uni', "B\xc3\xa4nk \xce\xa9" ])
{
	my ($db, $name) = @$case;
	my $q = make_db($db, $name);

	my @names = split /\n/, $node->safe_psql($db, q{
		SELECT DISTINCT p.proname FROM pg_depend d
		JOIN pg_proc p ON p.oid = d.objid AND d.classid = 'pg_proc'::regclass
		WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
		  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'scanbench')
		  AND (p.proname ~ '^scan_history' OR p.proname IN ('efficiency_check', 'scanbench_metrics', 'scan_verdict_marks'))
		ORDER BY 1});
	ok(@names >= 20, "$db: " . scalar(@names) . " functions of the history listed");
	for my $n (@names)
	{
		ok($called{$n}, "$db: $n has a call in this test");
	}

	# In the first database, a role that may CREATE in it plants a schema
	# named as the extension's schema's name quoted, with a history of her
	# own whose triggers count themselves.
	if ($db eq 'caps')
	{
		my $look_alike = qi(qi($name));
		$node->safe_psql($db, qq{
			GRANT CREATE ON DATABASE caps TO other;
			SET ROLE other;
			CREATE SCHEMA $look_alike;
			CREATE FUNCTION $look_alike.hit() RETURNS trigger LANGUAGE plpgsql AS \$p\$BEGIN
				RAISE WARNING 'planted code ran as %', current_user;
				PERFORM pg_catalog.nextval('public.planted_hits');
				RETURN NULL;
			END\$p\$;
			CREATE TABLE $look_alike.scan_history (id bigint, measured_at timestamptz, relname text, cache text)
				PARTITION BY RANGE (measured_at);
			CREATE TABLE $look_alike.scan_history_default PARTITION OF $look_alike.scan_history DEFAULT;
			INSERT INTO $look_alike.scan_history (id, measured_at, relname, cache) VALUES (1, '2000-01-01 00:00:00+00', 'x', 'cold');
			CREATE TRIGGER planted BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON $look_alike.scan_history
				FOR EACH STATEMENT EXECUTE FUNCTION $look_alike.hit();
			CREATE TRIGGER planted BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON $look_alike.scan_history_default
				FOR EACH STATEMENT EXECUTE FUNCTION $look_alike.hit();
		});
	}

	# A run older than the prune's cutoff, waiting in the default partition
	# until its month is made.
	$node->safe_psql($db, qq{
		INSERT INTO $q.scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
		VALUES (now() - interval '500 days', 'public', 'old', 'cold', 50, '{ok}')});

	for my $c (@calls)
	{
		my ($n, $sql, $expect) = @$c;
		$sql =~ s/\bE\./$q./g;
		my ($r, $o, $e) = $node->psql($db, $sql);
		if ($expect)
		{
			like($e, $expect, "$db: $n gives the message it should");
		}
		else
		{
			is($r, 0, "$db: $n runs") or diag($e);
		}
		unlike($e, qr/planted code ran/, "$db: $n runs no planted code");
	}
	is(hits($db), '0', "$db: no planted code ran");

	# The months were made in the extension's schema, the runs moved into
	# them, the old run's month dropped by the prune, every month wholly
	# past the cutoff gone; the runs of this month stay.
	is($node->safe_psql($db, qq{
		SELECT string_agg(c.relname, ' ' ORDER BY m.from_at)
		FROM scanbench_internal.scan_history_months() m JOIN pg_class c ON c.oid = m.part
		WHERE m.from_at IS NOT NULL AND c.relnamespace = '$q'::regnamespace}),
		$node->safe_psql($db, q{
		SELECT string_agg(to_char(g, '"scan_history_"YYYY_MM'), ' ' ORDER BY g)
		FROM generate_series(date_trunc('month', (now() - interval '400 days') AT TIME ZONE 'UTC'),
							 date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month',
							 interval '1 month') g}),
		"$db: the months are those from the prune's cutoff to the next, in the extension's schema");
	is($node->safe_psql($db, qq{SELECT count(*) FROM $q.scan_history WHERE relname = 'old'}), '0',
		"$db: the prune deleted the old run");
	is($node->safe_psql($db, qq{
		SELECT count(*) FROM scanbench_internal.scan_history_months() m
		WHERE m.to_at <= now() - interval '400 days'}), '0',
		"$db: the prune dropped every month wholly past its cutoff");
	is($node->safe_psql($db, qq{SELECT count(*) FROM $q.scan_history_default}), '0',
		"$db: no run waits in the default partition");
	cmp_ok($node->safe_psql($db, qq{SELECT count(*) FROM $q.scan_history WHERE relname = 't'}), '>=', 4,
		"$db: the recorded runs are kept");
	if ($db eq 'caps')
	{
		is($node->safe_psql($db, q{SELECT count(*) FROM """Bench""".scan_history}), '1',
			'caps: the planted history is untouched');
	}
}

# The cases below keep the extension in schemas whose names need no
# quotes, so that each shows its own fault.

# ---- Runs before the year 1 and after 9999 ----

my $q = make_db('dates', 'dates');
sub dates { return out('dates', $_[0]) }

# A result row measured at a given time.
sub at
{
	my ($when) = @_;
	return qq{jsonb_populate_record(NULL::$q.scan_efficiency_result,
		jsonb_build_object('relation', 'public.t', 'cache', 'cold', 'measured_at', '$when',
						   'scan_pct', 50, 'verdict', ARRAY['ok']))};
}
for my $when ('0044-03-15 12:00:00+00 BC', '0001-12-31 23:59:59.999999+00 BC',
	'10000-01-01 00:00:00+00', '294276-06-01 00:00:00+00')
{
	($ret, $out, $err) = $node->psql('dates',
		"\\set VERBOSITY verbose\nSELECT $q.scan_history_record(" . at($when) . ')');
	like($err, qr/ERROR:  22008: cannot record a run measured at .*: the history keeps the years 1 to 9999/,
		"a run measured at $when is refused (22008)");
}
is(dates(qq{SELECT count(*) FROM $q.scan_history}), '0', 'none of them was recorded');
for my $when ('0001-01-01 00:00:00+00', '9999-12-31 23:59:59.999999+00')
{
	($ret, $out, $err) = $node->psql('dates', "SELECT $q.scan_history_record(" . at($when) . ') IS NOT NULL');
	is($out, 't', "a run measured at $when is recorded") or diag($err);
}

# Runs of such years written into the table otherwise (a COPY, by hand):
# 44 BC and AD 44 in one month of the calendar, and 294276.
dates(qq{
	INSERT INTO $q.scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	VALUES ('0044-03-15 12:00:00+00 BC', 'public', 'bc', 'cold', 50, '{ok}'),
		   ('0044-03-15 12:00:00+00', 'public', 'ad', 'cold', 50, '{ok}'),
		   ('294276-12-15 00:00:00+00', 'public', 'far', 'cold', 50, '{ok}'),
		   (now(), 'public', 'now', 'cold', 50, '{ok}')});
for my $try (1, 2)
{
	($ret, $out, $err) = $node->psql('dates', "SELECT $q.scan_history_partition()");
	is($ret, 0, "the months are made around them (call $try)") or diag($err);
	like($err, qr/WARNING:  2 runs of scan_history have no month: they were measured outside the years 1 to 9999/,
		"a WARNING counts the two runs without a month (call $try)");
}
is(dates(qq{SELECT string_agg(relname || ' ' || tableoid::regclass::text, ', ' ORDER BY measured_at)
			FROM $q.scan_history WHERE relname IN ('bc', 'ad', 'far', 't')}),
	qq{bc $q.scan_history_default, t $q.scan_history_0001_01, ad $q.scan_history_0044_03, t $q.scan_history_9999_12, far $q.scan_history_default},
	'each run is in its month; 44 BC and 294276 wait in the default partition');
is(dates(q{SET DateStyle = 'ISO, YMD'; SET TimeZone = 'UTC';
		   SELECT string_agg(from_at || ' ' || to_at, ', ' ORDER BY from_at)
		   FROM scanbench_internal.scan_history_months()
		   WHERE from_at < '2000-01-01 00:00:00+00' OR from_at > '9000-01-01 00:00:00+00'}),
	'0001-01-01 00:00:00+00 0001-02-01 00:00:00+00, 0044-03-01 00:00:00+00 0044-04-01 00:00:00+00, '
	  . '9999-12-01 00:00:00+00 10000-01-01 00:00:00+00',
	'their months have the bounds of their months');
for my $rel (qw(bc ad far t))
{
	($ret, $out, $err) = $node->psql('dates', qq{
		SELECT count(j.status) FROM $q.scan_history h, $q.scan_history_judge(h.id) j WHERE h.relname = '$rel'});
	is($ret, 0, "the runs of $rel are judged") or diag($err);
}
for my $sql (qq{SELECT count(*) FROM $q.scan_trend}, qq{SELECT length($q.scanbench_metrics()) > 0},
	qq{SELECT length($q.scan_history_svg(NULL, NULL, 36600)) > 0},
	qq{SELECT count(*) FROM scanbench_internal.scan_history_months()})
{
	($ret, $out, $err) = $node->psql('dates', $sql);
	is($ret, 0, "$sql runs") or diag($err);
}
($ret, $out, $err) = $node->psql('dates', "SELECT $q.scan_history_prune('400 days')");
is($out, '3', 'the prune deletes the runs of 44 BC, AD 44 and the year 1') or diag($err);
is(dates(qq{SELECT string_agg(relname, ' ' ORDER BY measured_at) FROM $q.scan_history}), 'now t far',
	'the runs of now, 9999 and 294276 stay');
is(dates(q{SELECT count(*) FROM scanbench_internal.scan_history_months() WHERE to_at < '2000-01-01 00:00:00+00'}), '0',
	'and their months are dropped');

# ---- DateStyle = Postgres in Dublin's summer ----

# The month that ends at 2025-08-01 00:00 UTC (01:00 IST in Dublin, which
# reads back as Israel's 01:00, an hour earlier).  A run ten minutes
# before its end, and one two days before; the prune's cutoff half an
# hour before its end: the month is not wholly past, the run of 23:50 is
# younger than the cutoff and stays.
$q = make_db('dublin', 'dublin');
my $session = q{SET DateStyle = 'Postgres, DMY'; SET TimeZone = 'Europe/Dublin';};
$node->psql('dublin', qq{$session
	INSERT INTO $q.scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	VALUES (timestamptz '2025-07-31 23:50:00+00', 'public', 'late', 'cold', 50, '{ok}'),
		   (timestamptz '2025-07-29 12:00:00+00', 'public', 'early', 'cold', 50, '{ok}'),
		   (timestamptz '2025-06-15 12:00:00+00', 'public', 'june', 'cold', 50, '{ok}');
	SELECT $q.scan_history_partition(since => timestamptz '2025-06-01 00:00:00+00')});
is(out('dublin', qq{$session
	SELECT string_agg(relname || ' ' || tableoid::regclass::text, ', ' ORDER BY measured_at) FROM $q.scan_history}),
	"june $q.scan_history_2025_06, early $q.scan_history_2025_07, late $q.scan_history_2025_07",
	'Dublin, DateStyle Postgres: each run in its month');
is(out('dublin', qq{$session
	SELECT m.from_at = timestamptz '2025-07-01 00:00:00+00' AND m.to_at = timestamptz '2025-08-01 00:00:00+00'
	FROM scanbench_internal.scan_history_months() m WHERE m.part = '$q.scan_history_2025_07'::regclass}),
	't', 'Dublin, DateStyle Postgres: the month has its bounds to the microsecond');
is(out('dublin', qq{$session
	SELECT $q.scan_history_prune(make_interval(secs => extract(epoch FROM
		now() - (timestamptz '2025-08-01 00:00:00+00' - interval '30 minutes'))::float8))}),
	'2', 'Dublin, DateStyle Postgres: the prune takes the runs before its cutoff');
is(out('dublin', qq{$session SELECT string_agg(relname, ' ') FROM $q.scan_history}), 'late',
	'Dublin, DateStyle Postgres: the run younger than the cutoff stays');
is(out('dublin', qq{$session
	SELECT string_agg(part::text, ' ' ORDER BY from_at) FROM scanbench_internal.scan_history_months()
	WHERE from_at < timestamptz '2025-08-01 00:00:00+00'}),
	"$q.scan_history_2025_07",
	'Dublin, DateStyle Postgres: June is dropped, July kept');

# ---- A month's table made first by another role ----

$q = make_db('taken', 'hist');
$node->safe_psql('taken', qq{GRANT USAGE, CREATE ON SCHEMA $q TO other});
my ($next, $after) = split /\|/, $node->safe_psql('taken', q{
	SELECT to_char(now() AT TIME ZONE 'UTC' + interval '1 month', 'YYYY_MM'),
		   to_char(now() AT TIME ZONE 'UTC' + interval '2 months', 'YYYY_MM')});
$node->safe_psql('taken', qq{
	SET ROLE other;
	CREATE FUNCTION $q.hit() RETURNS trigger LANGUAGE plpgsql AS \$p\$BEGIN
		RAISE WARNING 'planted code ran as %', current_user;
		PERFORM pg_catalog.nextval('public.planted_hits');
		RETURN NULL;
	END\$p\$;
	CREATE TABLE $q.scan_history_$next (measured_at timestamptz);
	CREATE TRIGGER planted BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON $q.scan_history_$next
		FOR EACH STATEMENT EXECUTE FUNCTION $q.hit();
	-- the name of the key the month after would take
	CREATE TABLE $q.scan_history_${after}_pkey (a int);
});
# A run of next month waits in the default partition.
$node->safe_psql('taken', qq{
	INSERT INTO $q.scan_history (measured_at, relschema, relname, cache, scan_pct, verdict)
	VALUES (date_trunc('month', now()) + interval '1 month 1 day', 'public', 'next', 'cold', 50, '{ok}')});
for my $night (1, 2)
{
	($ret, $out, $err) = $node->psql('taken',
		"SELECT $q.scan_history_partition(now() - interval '2 months', 2)");
	is($ret, 0, "night $night: scan_history_partition does not fail") or diag($err);
	is($out, $night == 1 ? '3' : '0', "night $night: the other months are made");
	like($err, qr/WARNING:  month \S+ of scan_history was not made: $q\.scan_history_$next exists and is not one of its months\nDETAIL:  $q\.scan_history_$next is owned by other\./,
		"night $night: a WARNING names the table and its owner");
	like($err, qr/WARNING:  month \S+ of scan_history was not made: relation "scan_history_${after}_pkey" already exists/,
		"night $night: a WARNING names the relation that has its key's name");
	unlike($err, qr/planted code ran/, "night $night: no planted code runs");
}
is(hits('taken'), '0', 'her trigger never ran');
is(out('taken', qq{
	SELECT relname || ' ' || tableoid::regclass::text FROM $q.scan_history WHERE relname = 'next'}),
	"next $q.scan_history_default", 'the run of that month waits in the default partition');
is(out('taken', qq{
	SELECT count(*) FROM pg_inherits WHERE inhrelid = '$q.scan_history_$next'::regclass}), '0',
	'her table is not taken into the history');
is(out('taken', qq{SELECT relowner::regrole FROM pg_class WHERE oid = '$q.scan_history_$next'::regclass}),
	'other', 'and is still hers');
# Once her tables are gone, the months are made and the run moves in.
$node->safe_psql('taken', qq{SET ROLE other; DROP TABLE $q.scan_history_$next, $q.scan_history_${after}_pkey});
($ret, $out, $err) = $node->psql('taken', "SELECT $q.scan_history_partition(now() - interval '2 months', 2)");
is($out, '2', 'once they are gone, their months are made');
is($err, '', 'with no WARNING');
is(out('taken', qq{
	SELECT tableoid::regclass::text FROM $q.scan_history WHERE relname = 'next'}),
	"$q.scan_history_$next", 'and the waiting run is in its month');

# ---- The kernel's release ----

$node->safe_psql('taken', qq{
	CREATE ROLE checker LOGIN;
	GRANT USAGE ON SCHEMA $q TO checker, plain;
	GRANT EXECUTE ON PROCEDURE $q.efficiency_check TO checker;
	GRANT EXECUTE ON FUNCTION $q.scan_efficiency, scanbench_internal.scan_history_measure,
							  $q.scan_history_record, $q.scan_history_judge,
							  $q.storage_info(regclass) TO checker;
	GRANT SELECT, INSERT ON $q.scan_history TO checker;
	GRANT USAGE ON SEQUENCE $q.scan_history_id_seq TO checker;
	GRANT SELECT ON public.t TO checker;
});
is(out('taken', q{
	SELECT has_function_privilege('public', 'scanbench_internal.scan_history_kernel()', 'EXECUTE')}),
	'f', 'PUBLIC cannot run scan_history_kernel');
($ret, $out, $err) = $node->psql('taken', 'SELECT scanbench_internal.scan_history_kernel()',
	extra_params => [ '-U', 'plain' ]);
like($err, qr/permission denied for function scan_history_kernel/, 'a role not granted it is refused');
my $runs = $node->safe_psql('taken', qq{SELECT count(*) FROM $q.scan_history});
for my $call (qq{CALL $q.efficiency_check('public.t', 'warm', max_drop_pct => 99, max_seconds => 30)},
	qq{SELECT $q.scan_efficiency('public.t', 'warm', max_seconds => 30, record => true)})
{
	($ret, $out, $err) = $node->psql('taken', $call, extra_params => [ '-U', 'checker' ]);
	like($err, qr/permission denied for function scan_history_kernel/,
		"without it, the checker is refused: $call");
}
is(out('taken', qq{SELECT count(*) FROM $q.scan_history}), $runs, 'and recorded nothing');
$node->safe_psql('taken', 'GRANT EXECUTE ON FUNCTION scanbench_internal.scan_history_kernel() TO checker');
($ret, $out, $err) = $node->psql('taken',
	qq{CALL $q.efficiency_check('public.t', 'warm', max_drop_pct => 99, max_seconds => 2)},
	extra_params => [ '-U', 'checker' ]);
is($ret, 0, 'granted it, the checker records') or diag($err);
is(out('taken', qq{SELECT count(*) FROM $q.scan_history WHERE kernel IS NOT NULL AND recorded_by = 'checker'}),
	'1', 'with the kernel\'s release');

$node->stop;
done_testing();
