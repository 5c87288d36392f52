# tools/docs-check.pl: the tree's README and doc/ pass it, and each thing it
# guards makes it fail: a README over 12,000 bytes, a relative link to a
# file or a heading that does not exist, a page of doc/ the README does not
# link, a column named in backquotes that the install script does not
# have, a function index that is not the one the surface's rows make.  No
# server needed.
#
# tools/reference.pl: doc/reference.md and the examples against a catalog.
# Its checks are shown failing on small pages against a small catalog
# (--catalog), then the tree's own pages are checked against the catalog
# of the extension installed here, and a page with one argument taken out
# fails against it.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib $FindBin::RealBin;
use SbTree;

# Loaded at compile time, where it can be: PostgreSQL::Test::Utils has INIT
# blocks, which a require at run time is too late for (15's copy dies).
my $have_cluster;
BEGIN { $have_cluster = eval { require PostgreSQL::Test::Cluster; 1 }; }

my $check = 'tools/docs-check.pl';

sub run_check
{
	my $top = shift;
	my $out = `perl $check $top 2>&1`;
	return ($? >> 8, $out);
}

my ($rc, $out) = run_check('.');
is($rc, 0, "README.md and doc/*.md of this tree pass") or diag($out);
like($out, qr/^\d+ passed, 0 failed$/m, 'it ends with the count');

# A small tree that passes, then one fault at a time.
sub tree
{
	my %files = (
		'README.md' => "# t\n\nSee [a](doc/a.md), [its part](doc/a.md#the-part-two) and [x](https://example.org/none).\n",
		'doc/a.md' => "# A\n\n## The part: two\n\nBack to [the README](../README.md#t).\n\n```sh\n# not a heading\n[not](a-link.md)\n```\n",
		@_);
	return write_tree(%files);
}

($rc, $out) = run_check(tree());
is($rc, 0, 'a tree whose links all resolve passes') or diag($out);

($rc, $out) = run_check(tree('README.md' => "# t\n\n[a](doc/a.md)\n" . ('x' x 12001) . "\n"));
isnt($rc, 0, 'a README over 12,000 bytes fails');
like($out, qr/^not ok - README\.md is \d+ bytes, at most 12000$/m, '... and says so');

($rc, $out) = run_check(tree('doc/a.md' => "# A\n\nSee [b](b.md).\n"));
isnt($rc, 0, 'a link to a missing file fails');
like($out, qr/^#   line 3: b\.md: no file b\.md$/m, '... naming the line and the file');

($rc, $out) = run_check(tree('doc/a.md' => "# A\n\n[back](../README.md#no-such-heading)\n"));
isnt($rc, 0, 'a link to a missing heading fails');
like($out, qr/no heading #no-such-heading in \.\.\/README\.md/, '... naming the heading');

($rc, $out) = run_check(tree('doc/b.md' => "# B\n"));
isnt($rc, 0, 'a page of doc/ the README does not link fails');
like($out, qr/^not ok - doc\/b\.md is linked from README\.md$/m, '... naming the page');

# With the SQL surface (surface/*.sql, of which make writes the install
# script), a column named in backquotes must be one of its names.
my %sql_tree = (
	'scanbench.control' => "default_version = '9.9'\n",
	'surface/r.sql' => "-- not a name: old_s\nCREATE TYPE r AS (read_s float8, scan_pct float8);\nCOMMENT ON TYPE r IS 'gone_s';\n");
($rc, $out) = run_check(tree(%sql_tree, 'doc/a.md' => "# A\n\n## The part: two\n\n`read_s` and `scan_pct` are columns.\n"));
is($rc, 0, 'columns the install script defines pass') or diag($out);

($rc, $out) = run_check(tree(%sql_tree, 'doc/a.md' => "# A\n\n## The part: two\n\n`read_s`, `old_s` and `gone_s`.\n"));
isnt($rc, 0, 'a column named only in a comment or a string of the script fails');
like($out, qr/^#   line 5: `old_s` is no column, argument or field$/m, '... naming the line and the column');
like($out, qr/^#   line 5: `gone_s` is no column/m, '... each of them');

# The README's function index, made from the surface's "-- @index" lines
# in their order; --write puts it in.
my %index_tree = (
	'scanbench.control' => "default_version = '9.9'\n",
	'surface/f.sql' => "-- \@index 20 | `g()` | the second |\nCREATE FUNCTION g() RETURNS int LANGUAGE sql AS 'SELECT 1';\n"
	  . "-- \@index 10 | `f(rel)`, `t` | the first |\nCREATE FUNCTION f(rel regclass) RETURNS int LANGUAGE sql AS 'SELECT 1';\nCREATE TABLE t (a int);\n");
my $index = "| function | what it answers |\n|---|---|\n| `f(rel)`, `t` | the first |\n| `g()` | the second |\n";
my $index_readme = sub { return "# t\n\n[a](doc/a.md)\n\n<!-- index -->\n$_[0]<!-- /index -->\n\nEnd.\n"; };
($rc, $out) = run_check(tree(%index_tree, 'README.md' => $index_readme->($index)));
is($rc, 0, 'a function index made from the surface passes') or diag($out);

my $stale = tree(%index_tree, 'README.md' => $index_readme->("| function | what it answers |\n|---|---|\n| `g()` | the second |\n| `f(rel)`, `t` | the first |\n"));
($rc, $out) = run_check($stale);
isnt($rc, 0, 'an index in another order than the surface\'s fails');
like($out, qr/^not ok - README\.md's function index is the one surface\/ makes$/m, '... and says so');
my $wrote = `perl $check --write $stale 2>&1`;
is($? >> 8, 0, '--write puts it in') or diag($wrote);
is(slurp_file("$stale/README.md"), $index_readme->($index), '... the rows in order, the rest of the README as it was');

($rc, $out) = run_check(tree(%index_tree, 'README.md' => "# t\n\n[a](doc/a.md)\n"));
isnt($rc, 0, 'a README without the index where the surface has rows fails');

my %misnamed = %index_tree;
$misnamed{'surface/f.sql'} =~ s/`g\(\)`/`h()`/;
($rc, $out) = run_check(tree(%misnamed, 'README.md' => $index_readme->($index =~ s/`g\(\)`/`h()`/r)));
isnt($rc, 0, 'a row naming a function the surface does not make fails');
like($out, qr/^#   surface\/f\.sql:1: h is no function, procedure, table or view of the surface$/m, '... naming the line and the name');

# ---- tools/reference.pl ----

use JSON::PP;

my $reference = 'tools/reference.pl';
my %catalog = (
	version => '9.9',
	schema => 'public',
	functions => [
		{
			name => 'measure', kind => 'f', identity => 'rel regclass, n integer',
			result => 'measure_result', retset => JSON::PP::false,
			comment => 'time SELECT <query> | more',
			args => [
				{ name => 'rel', type => 'regclass', mode => 'i', default => undef },
				{ name => 'n', type => 'integer', mode => 'i', default => '1' },
				{ name => 'how', type => 'text', mode => 'i', default => "'cold'::text" } ],
			columns => [
				{ name => 'read_s', type => 'double precision', comment => 'seconds' },
				{ name => 'verdict', type => 'text[]', comment => 'marks' } ]
		},
		{
			name => 'check_it', kind => 'p', identity => 'IN rel regclass', result => undef,
			retset => JSON::PP::false, comment => undef,
			args => [ { name => 'rel', type => 'regclass', mode => 'i', default => undef } ],
			columns => []
		} ],
	relations => [
		{ name => 'runs', kind => 'r', comment => 'one row a run',
		  columns => [ { name => 'id', type => 'bigint', comment => undef } ] } ],
	marks => [ { mark => 'ok' }, { mark => 'unstable' }, { mark => 'empty' } ],
	marks_source => 'src/verdict.c');

sub catalog_file
{
	my %c = (%catalog, @_);
	my $dir = write_tree('catalog.json' => JSON::PP->new->canonical->encode(\%c));
	return "$dir/catalog.json";
}

sub run_reference
{
	my ($top, $catalog, @opts) = @_;
	my $out = `perl $reference @opts --catalog $catalog $top 2>&1`;
	return ($? >> 8, $out);
}

sub slurp_file
{
	open(my $fh, '<', shift) or return undef;
	local $/;
	return <$fh>;
}

# A page with an empty block for each object and a table of marks by hand.
my $marks_table = "<!-- catalog: verdict marks -->\n| mark | means |\n|---|---|\n| `ok` | fine |\n| `unstable` | too wide |\n| `empty` | no blocks |\n<!-- /catalog -->\n";
my $skeleton = "# Reference\n\n## measure\n\n<!-- catalog: measure -->\n<!-- /catalog -->\n\n## check_it\n\n<!-- catalog: check_it -->\n<!-- /catalog -->\n\n## runs\n\n<!-- catalog: runs -->\n<!-- /catalog -->\n\n## Marks\n\n$marks_table";
my %ref_tree = ('README.md' => "# t\n\n```sql\nSELECT * FROM measure('t', how => 'warm');\n```\n", 'doc/reference.md' => $skeleton);

my $cat = catalog_file();
my $top = write_tree(%ref_tree);
($rc, $out) = run_reference($top, $cat, '--write');
is($rc, 0, 'reference.pl --write fills the blocks') or diag($out);
my $written = slurp_file("$top/doc/reference.md");
like($written, qr/^FUNCTION measure\(\n    rel regclass,\n    n integer DEFAULT 1,\n    how text DEFAULT 'cold'\n\) RETURNS measure_result$/m,
	 '... with the signature: names, types and defaults in order');
like($written, qr/^\| read_s \| double precision \| seconds \|\n\| verdict \| text\[\] \| marks \|$/m, '... the result columns in order');
like($written, qr/^> time SELECT &lt;query> \\\| more$/m, '... and the comment, escaped for Markdown');
like($written, qr/^PROCEDURE check_it\(rel regclass\)$/m, '... a procedure');
like($written, qr/^TABLE runs$/m, '... and a table');
($rc, $out) = run_reference($top, $cat);
is($rc, 0, 'the page it wrote passes --check') or diag($out);

# One fault at a time, on the page --write made.
sub with_page
{
	my ($page, %more) = @_;
	return write_tree(%ref_tree, 'doc/reference.md' => $page, %more);
}

($rc, $out) = run_reference(with_page($written =~ s/<!-- catalog: measure -->.*?<!-- \/catalog -->\n//sr), $cat);
isnt($rc, 0, 'a function of the catalog with no block fails');
like($out, qr/^#   no block <!-- catalog: measure --> for measure$/m, '... naming it');

($rc, $out) = run_reference(with_page($written . "\n<!-- catalog: gone -->\n<!-- /catalog -->\n"), $cat);
isnt($rc, 0, 'a block of a function that does not exist fails');
like($out, qr/^#   <!-- catalog: gone -->: no function, procedure, table or view gone$/m, '... naming it');

($rc, $out) = run_reference(with_page($written =~ s/ DEFAULT 1,\n    how text DEFAULT 'cold'\n/ DEFAULT 1\n/r), $cat);
isnt($rc, 0, 'a signature that lacks an argument fails');
like($out, qr/^not ok - doc\/reference\.md: the block of measure is the catalog's$/m, '... naming the function');
like($out, qr/^#\s+catalog:\s+n integer DEFAULT 1,\n#\s+page:\s+n integer DEFAULT 1$/m, '... and showing the line');

($rc, $out) = run_reference(with_page($written =~ s/n integer DEFAULT 1/n integer DEFAULT 2/r), $cat);
isnt($rc, 0, 'a wrong default fails');

($rc, $out) = run_reference(with_page($written =~ s/^\| verdict \| text\[\] \| marks \|\n//mr), $cat);
isnt($rc, 0, 'a column list that stops short fails');

($rc, $out) = run_reference(with_page($written =~ s/^\| read_s \| double precision/| read_s | real/mr), $cat);
isnt($rc, 0, 'a column of the wrong type fails');

($rc, $out) = run_reference(with_page($written =~ s/^\| `empty` \| no blocks \|\n//mr), $cat);
isnt($rc, 0, 'a table of marks that misses one fails');
like($out, qr/^#   mark empty is not listed$/m, '... naming it');

($rc, $out) = run_reference(with_page($written =~ s/^\| `empty` \| no blocks \|$/| `empty` | no blocks |\n| `bogus` | no such |/mr), $cat);
isnt($rc, 0, 'a table of marks that lists one the verdict lacks fails');
like($out, qr/^#   `bogus` is no mark of the verdict$/m, '... naming it');

($rc, $out) = run_reference(with_page($written, 'doc/a.md' => "# A\n\n<!-- catalog: verdict marks by hand -->\n| mark | what to do |\n|---|---|\n| `ok` | use it |\n<!-- /catalog -->\n"), $cat);
isnt($rc, 0, 'a table of marks by hand on another page that misses marks fails');
like($out, qr/^not ok - doc\/a\.md: the table of the verdict's marks lists those of src\/verdict\.c$/m, '... naming the page');

($rc, $out) = run_reference(with_page($written, 'doc/a.md' => "# A\n\n<!-- catalog: runs -->\n<!-- /catalog -->\n"), $cat);
isnt($rc, 0, 'a block of an object on another page fails');
like($out, qr/^#   doc\/a\.md: <!-- catalog: runs --> belongs in doc\/reference\.md$/m, '... naming the page');

($rc, $out) = run_reference(with_page($written, 'doc/a.md' => "# A\n\n```\n<!-- catalog: runs -->\n<!-- /catalog -->\n```\n"), $cat);
is($rc, 0, '... but one shown in a fenced example passes') or diag($out);

($rc, $out) = run_reference(with_page($written, 'README.md' => "# t\n\n```sql\nSELECT * FROM measure('t', mode => 'warm');\n```\n"), $cat);
isnt($rc, 0, 'an example naming an argument the function lacks fails');
like($out, qr/^#   line 4: measure\(\) takes no argument mode/m, '... naming the line and the argument');

($rc, $out) = run_reference(with_page($written, 'README.md' => "# t\n\n`measure('t', 1, 'warm', true)`\n"), $cat);
isnt($rc, 0, 'an example with more arguments than the function takes fails');

($rc, $out) = run_reference(with_page($written, 'README.md' => "# t\n\n```\n=# SELECT read_s, verdict FROM measure('t');\n read_s | verdict\n--------+---------\n  0.123 | ok\n(1 row)\n```\n"), $cat);
isnt($rc, 0, 'an example printing a verdict as psql does not fails');
like($out, qr/^#   line 7: verdict ok: psql prints the marks as an array/m, '... naming the line');

($rc, $out) = run_reference(with_page($written, 'README.md' => "# t\n\n```\n-[ RECORD 1 ]\nread_s  | 0.123\nverdict | {ok,bogus}\n```\n"), $cat);
isnt($rc, 0, 'an example printing a mark the verdict lacks fails');
like($out, qr/^#   line 6: verdict \{ok,bogus\}: bogus is no mark$/m, '... naming it');

($rc, $out) = run_reference(with_page($written, 'README.md' => "# t\n\n```\n-[ RECORD 1 ]\nverdict | {unstable,empty}\n```\n\n`{ok}`\n"), $cat);
is($rc, 0, 'verdicts printed as psql prints them pass') or diag($out);

# The surface changes: --write adds a section for a new function, drops
# the block of one that is gone, and the page passes again.
my $grown = catalog_file(functions => [ @{ $catalog{functions} }[1], {
	name => 'newer', kind => 'f', identity => '', result => 'text', retset => JSON::PP::false,
	comment => 'new', args => [], columns => [] } ]);
$top = with_page($written);
($rc, $out) = run_reference($top, $grown);
isnt($rc, 0, 'after the surface changes the page fails');
($rc, $out) = run_reference($top, $grown, '--write');
like($out, qr/newer is new/, '--write says which function it added');
like($out, qr/measure no longer exists/, '... and which it dropped');
($rc, $out) = run_reference($top, $grown);
is($rc, 0, '... and the page passes again') or diag($out);

# With scan_verdict_marks() in the catalog, the table of marks is its.
my $with_fn = catalog_file(marks => [
	{ mark => 'ok', judged => JSON::PP::true, meaning => 'nothing to say' },
	{ mark => 'unstable', judged => JSON::PP::false, meaning => 'too wide' } ],
	marks_source => 'scan_verdict_marks()');
($rc, $out) = run_reference(with_page($written), $with_fn);
isnt($rc, 0, 'a table of marks by hand fails where the catalog gives them');
$top = with_page($written);
run_reference($top, $with_fn, '--write');
like(slurp_file("$top/doc/reference.md"), qr/^\| mark \| judged \| meaning \|\n\|---\|---\|---\|\n\| `ok` \| yes \| nothing to say \|\n\| `unstable` \| no \| too wide \|$/m,
	 '--write makes it from scan_verdict_marks()');
($rc, $out) = run_reference($top, $with_fn);
is($rc, 0, '... and it passes') or diag($out);

# The tree's pages against the catalog of the extension installed here,
# its marks read from src/verdict.c (or scan_verdict_marks()).
SKIP:
{
	skip 'PostgreSQL::Test::Cluster is not available', 4
	  unless $have_cluster;
	my $node = PostgreSQL::Test::Cluster->new('docs');
	$node->init;
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION scanbench');
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	my $dump = `perl $reference --dump -d postgres . 2>&1`;
	is($? >> 8, 0, 'reference.pl --dump reads the installed catalog') or diag($dump);
	my $dir = write_tree('catalog.json' => $dump);
	($rc, $out) = run_reference('.', "$dir/catalog.json");
	is($rc, 0, "doc/reference.md, README.md and doc/*.md agree with the installed catalog") or diag($out);
	my $page = slurp_file('doc/reference.md');
	my $copy = write_tree('README.md' => slurp_file('README.md'),
		'doc/reference.md' => $page =~ s/^    restore boolean DEFAULT false\n//mr =~ s/record boolean DEFAULT false,$/record boolean DEFAULT false/mr,
		'src/verdict.c' => slurp_file('src/verdict.c'));
	($rc, $out) = run_reference($copy, "$dir/catalog.json");
	isnt($rc, 0, "a copy of the page whose scan_efficiency lacks restore fails");
	like($out, qr/^not ok - doc\/reference\.md: the block of scan_efficiency is the catalog's$/m, '... naming it');
	$node->stop;
}

done_testing();
