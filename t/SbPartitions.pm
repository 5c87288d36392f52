# A table of many partitions, for the tests that read or evict thousands
# of leaves at once (t/021, t/131).
package SbPartitions;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(create_list_partitions);

# create_list_partitions($node, $table, $n): in $node's postgres database,
# $table (id integer, pad text) partitioned by LIST (id), with the $n
# leaves ${table}_1 .. ${table}_$n for the ids 1 .. $n, empty: one DO
# block, one statement sent however many leaves.  The rows are the test's.
sub create_list_partitions
{
	my ($node, $table, $n) = @_;
	$node->safe_psql('postgres', qq{
	CREATE TABLE $table (id integer, pad text) PARTITION BY LIST (id);
	DO \$\$
	BEGIN
		FOR i IN 1 .. $n LOOP
			EXECUTE format('CREATE TABLE ${table}_%s PARTITION OF $table FOR VALUES IN (%s)', i, i);
		END LOOP;
	END \$\$;
});
	return;
}

1;
