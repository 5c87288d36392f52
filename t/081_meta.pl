# META.json as PGXN reads it (meta-spec 1.0.0): valid JSON, the required
# fields, semantic versions equal to scanbench.control's default_version,
# files that exist, the PostgreSQL range the tests cover, resources.  And
# the release's other papers: LICENSE, a CHANGELOG section for this
# version, dated sections for the released ones that agree with
# debian/changelog.  No server needed.  (The zip itself is tested by
# tools/pgxn-test.sh; tools/release.sh checks the same agreement.)
use strict;
use warnings;
use Test::More;
use JSON::PP;

sub slurp
{
	my $f = shift;
	open(my $fh, '<', $f) or return undef;
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

my $control = slurp('scanbench.control') // die "scanbench.control: $!";
my ($extversion) = $control =~ /^default_version\s*=\s*'([^']+)'/m;
ok(defined $extversion, "scanbench.control has a default_version");

# PGXN wants semantic versions (x.y.z); the extension's versions are x.y.
my $semver = qr/^\d+\.\d+\.\d+(-[0-9A-Za-z-]+)?$/;
my $want = $extversion =~ /^\d+\.\d+$/ ? "$extversion.0" : $extversion;

my $meta = eval { JSON::PP->new->relaxed(0)->decode(slurp('META.json') // '') };
ok(ref $meta eq 'HASH', 'META.json is a valid JSON object') or diag($@);
$meta //= {};

for my $k (qw(name abstract version maintainer license provides meta-spec))
{
	ok(exists $meta->{$k}, "META.json has the required field $k");
}
is($meta->{'meta-spec'}{version}, '1.0.0', 'meta-spec version 1.0.0');
is($meta->{name}, 'scanbench', 'name is the extension\'s');
like($meta->{abstract} // '', qr/\S/, 'abstract is not empty');
like($meta->{version} // '', $semver, 'version is a semantic version');
is($meta->{version}, $want, "version $want is scanbench.control's default_version $extversion");

my $m = $meta->{maintainer};
ok((!ref $m && $m =~ /\S/) || (ref $m eq 'ARRAY' && @$m && !grep { !/\S/ } @$m),
	'maintainer is a name or a list of names');

my %licenses = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd
  freebsd gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1
  openssl perl_5 postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);
ok(!ref $meta->{license} && $licenses{ $meta->{license} // '' }, 'license is a PGXN license name');
is($meta->{license}, 'postgresql', 'license: postgresql, as LICENSE says');
like(slurp('LICENSE') // '', qr/\APostgreSQL License\n\nCopyright \(c\) \d{4}, the scanbench authors\n/,
	'LICENSE is the PostgreSQL License of the scanbench authors');

my $provides = ref $meta->{provides} eq 'HASH' ? $meta->{provides} : {};
ok(exists $provides->{scanbench}, 'provides the scanbench extension');
for my $ext (sort keys %$provides)
{
	my $p = $provides->{$ext};
	ok(defined $p->{file} && -f $p->{file}, "provides $ext: file " . ($p->{file} // '(none)') . ' exists');
	ok(!defined $p->{docfile} || -f $p->{docfile}, "provides $ext: docfile exists if named");
	is($p->{version}, $meta->{version}, "provides $ext: version is the distribution's");
	ok(!defined $p->{abstract} || $p->{abstract} =~ /\S/, "provides $ext: abstract, if any, is not empty");
}

my %phases = map { $_ => 1 } qw(configure build test runtime develop);
my %relations = map { $_ => 1 } qw(requires recommends suggests conflicts);
for my $phase (sort keys %{ $meta->{prereqs} // {} })
{
	ok($phases{$phase}, "prereqs phase $phase is one the spec knows");
	for my $rel (sort keys %{ $meta->{prereqs}{$phase} })
	{
		ok($relations{$rel}, "prereqs $phase.$rel is a relation the spec knows");
		for my $dep (sort keys %{ $meta->{prereqs}{$phase}{$rel} })
		{
			# A version, or a range: comparisons joined by commas.
			like($meta->{prereqs}{$phase}{$rel}{$dep},
				qr/^(?:(?:[<>]=?|==|!=)\s*)?\d+\.\d+\.\d+(?:,\s*(?:[<>]=?|==|!=)\s*\d+\.\d+\.\d+)*$|^0$/,
				"prereqs $phase.$rel.$dep: a version or a version range");
		}
	}
}
like($meta->{release_status} // '', qr/^(stable|testing|unstable)$/,
	'release_status is given: stable, testing or unstable');

# The PostgreSQL range is the one tested: from the lowest major the test
# scripts know (tools/common.sh's SB_MAJORS, which CI runs) up to, not
# including, the one after the highest; debian/pgversions builds the same.
my ($majors) = (slurp('tools/common.sh') // '') =~ /^SB_MAJORS="([\d ]+)"/m;
my @majors = sort { $a <=> $b } split ' ', $majors // '';
ok(@majors >= 2, "tools/common.sh names the majors tested (@majors)");
my $range = ">= $majors[0].0.0, < " . ($majors[-1] + 1) . ".0.0";
for my $phase (qw(build runtime))
{
	is($meta->{prereqs}{$phase}{requires}{PostgreSQL}, $range,
		"prereqs $phase.requires.PostgreSQL is the range tested, $range");
}
my @pgversions = sort { $a <=> $b } grep { /^\d+$/ } split /\n/, slurp('debian/pgversions') // '';
is("@pgversions", "@majors", 'debian/pgversions builds the majors tested');

# resources: URLs where the spec wants them, and a way to report a bug.
my $res = $meta->{resources};
ok(ref $res eq 'HASH' && %$res, 'resources is given');
$res = {} unless ref $res eq 'HASH';
my $url = qr{^https?://[^\s/]+\.[^\s/]+(/\S*)?$};
like($res->{homepage} // '', $url, 'resources.homepage is a URL');
ok(ref $res->{bugtracker} eq 'HASH'
	  && (($res->{bugtracker}{web} // '') =~ $url || ($res->{bugtracker}{mailto} // '') =~ /^[^\s@]+@[^\s@]+$/),
	'resources.bugtracker has a web URL or a mail address');
ok(!defined $res->{repository}
	  || (ref $res->{repository} eq 'HASH' && ($res->{repository}{url} // $res->{repository}{web} // '') =~ /\S/),
	'resources.repository, if given, has a url or web');
my @res_unknown = grep { !/^(homepage|bugtracker|repository|x_\w+)$/i } sort keys %$res;
is("@res_unknown", '', 'no resource the spec does not know');

# The maintainer as the spec asks: a name and an address.
like(ref $m eq 'ARRAY' ? $m->[0] : $m // '', qr/^[^<]+ <[^\s@>]+@[^\s@>]+>$/,
	'maintainer: "name <address>"');

# The current version's install script is made by make from surface/ (not
# in the distribution): the file named is the surface's first, which the
# Makefile's SURFACE puts at the top of the script.
is($provides->{scanbench}{file}, "surface/header.sql",
	"provides scanbench: file is surface/header.sql, the start of the install script");
ok(-f "surface/header.sql", 'surface/header.sql is in the tree');

my %known = map { $_ => 1 } qw(name abstract description version maintainer license provides
  meta-spec prereqs release_status resources no_index generated_by tags);
my @unknown = grep { !$known{$_} && !/^[xX]_/ } sort keys %$meta;
is("@unknown", '', 'no field the spec does not know (custom ones start with x_)');

my $changelog = slurp('CHANGELOG.md') // '';
like($changelog, qr/^## \Q$extversion\E\b/m, "CHANGELOG.md has a section for $extversion");

# Each section is "## VERSION (YYYY-MM-DD)" once released, "## VERSION
# (unreleased)" before: only the newest may be unreleased.  A released
# section's date is its debian/changelog entry's.
my @sections = $changelog =~ /^## (.*)$/mg;
my @bad = grep { !/^\d+\.\d+(\.\d+)? \((\d{4}-\d\d-\d\d|unreleased)\)$/ } @sections;
is("@bad", '', 'every CHANGELOG.md section is "VERSION (YYYY-MM-DD)" or "VERSION (unreleased)"');
my @unreleased = grep { /\(unreleased\)/ } @sections;
ok(@unreleased <= 1 && (!@unreleased || $sections[0] eq $unreleased[0]),
	'only the newest CHANGELOG.md section may be unreleased');
like($sections[0] // '', qr/^\Q$extversion\E /, "the newest CHANGELOG.md section is ${extversion}'s");

my %mon = (Jan => 1, Feb => 2, Mar => 3, Apr => 4, May => 5, Jun => 6,
	Jul => 7, Aug => 8, Sep => 9, Oct => 10, Nov => 11, Dec => 12);
my %deb_date;
my @deb_versions;
my $debian = slurp('debian/changelog') // '';
while ($debian =~ /^scanbench \(([^)]+)\).*?^ -- .*?  \w{3}, (\d\d?) (\w{3}) (\d{4}) /msg)
{
	push @deb_versions, $1;
	$deb_date{$1} = sprintf('%04d-%02d-%02d', $4, $mon{$3} // 0, $2);
}
is($deb_versions[0], $extversion, "debian/changelog's newest entry is $extversion");
for my $sec (@sections)
{
	my ($v, $d) = $sec =~ /^(\S+) \((\d{4}-\d\d-\d\d)\)$/ or next;
	is($d, $deb_date{$v} // '(no entry)', "CHANGELOG.md's $v is dated as debian/changelog's entry");
}
my @deb_only = grep { $changelog !~ /^## \Q$_\E /m } @deb_versions;
is("@deb_only", '', 'every debian/changelog version has a CHANGELOG.md section');

done_testing();
