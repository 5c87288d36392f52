# scanbench: PGXS build of the extension and of its clients, scanbench-load,
# scanbench-fleet and scanbench-probe.
#
#   make && make install      build and install them all
#   make uninstall            remove them all
#   make unitcheck            the C units (bin/*/test/*.c): no server
#   make fuzzcheck            the clients' parsers fuzzed with libFuzzer
#                             (bin/fuzz/, clang): FUZZ_SECONDS=20 each
#   make installcheck         pg_regress (sql/, expected/) against the
#                             server named by PGHOST/PGPORT
#   make prove_installcheck   the TAP tests (t/), which start clusters of
#                             their own; PROVE_TESTS='t/001_cache.pl ...'
#                             for some of them
#   make dist                 scanbench-VERSION.zip (PGXN) and .tar.gz
#                             from the last commit (git archive)
#
# The version lives in scanbench.control alone; this file, the install
# script and the client read it from there.

EXTENSION = scanbench
EXTVERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(dir $(lastword $(MAKEFILE_LIST)))scanbench.control)

MODULE_big = scanbench
# The engine in src/, the SQL-callable functions in src/entry/ (one file a
# family, each standing on the engine alone: tools/check-layout.sh).
# Listed, not globbed: a stray file in the tree is not built in.
OBJS = scanbench.o \
	src/accesspath.o src/accesspath_rounds.o src/advice.o src/advice_candidates.o src/argcheck.o src/breakdown.o src/cache.o src/cgroup.o \
	src/chart.o src/chart_runs.o src/citus.o src/citus_cluster.o src/citus_node.o src/citus_shards.o src/clock.o src/cohortrule.o src/crossover.o src/devices.o \
	src/efficiency.o src/efficiency_row.o src/fileread.o src/fnargs.o src/history_changes.o src/history_record.o src/iodepth.o src/judgerules.o src/mountinfo.o \
	src/pagecost.o src/pairs.o src/procstat.o src/randio.o src/relcheck.o src/relfiles.o \
	src/restore.o src/rows.o src/runjudge.o src/sampler.o src/scan.o src/scanrounds.o src/scratch.o src/scratchdir.o \
	src/planscan.o src/seqread.o src/settings.o src/stats.o src/tablespace.o src/toastscan.o \
	src/verdict.o \
	src/entry/access_paths.o src/entry/advice.o src/entry/citus.o \
	src/entry/index_crossover.o src/entry/judge.o src/entry/judge_changes.o src/entry/judge_cohort.o src/entry/judge_run.o src/entry/page_costs.o \
	src/entry/raw_read.o src/entry/scan_efficiency.o src/entry/scan_history.o \
	src/entry/scan_pairs.o src/entry/scan_rate.o src/entry/storage.o \
	src/entry/toast_efficiency.o src/entry/workload_scans.o
PGFILEDESC = "scanbench - executor scan rate against raw file read rate"

# Install scripts.  The current version's, scanbench--$(EXTVERSION).sql, is
# made from the SQL surface, surface/*.sql, one file a concern, in the
# order below (listed, not globbed: the order is the script's); each
# unreleased upgrade step from its manifest, surface/upgrade/A--B.sql,
# which holds only what an upgrade needs and names the surface's objects
# it makes.  Neither is kept in git: make writes them (DATA_built), from
# the sources alone, as pgvector writes its script.  The first version's
# script and the released steps, in released/, never change;
# t/080_upgrade.pl proves that a fresh install and an upgrade give the
# same catalog.
SURFACE = $(addprefix surface/,header.sql schema.sql raw_read.sql scan_rate.sql \
	scan_efficiency.sql page_costs.sql access_paths.sql index_crossover.sql \
	toast_efficiency.sql storage.sql history.sql history_helpers.sql history_series.sql \
	history_record.sql history_judge.sql efficiency_check.sql history_months.sql \
	history_distribute.sql trend.sql workload_check.sql metrics_chart.sql citus.sql advice.sql \
	fleet_queue.sql page_costs_history.sql workload.sql)
UNRELEASED_STEPS = $(patsubst surface/upgrade/%.sql,scanbench--%.sql,\
	$(sort $(wildcard surface/upgrade/*--*.sql)))
DATA_built = scanbench--$(EXTVERSION).sql $(UNRELEASED_STEPS)
DATA = released/scanbench--0.1.sql $(sort $(wildcard released/scanbench--*--*.sql))

# pg_regress runs the setup first, then the rest in name order; each file
# of sql/ is listed (tools/check-layout.sh checks that none is left out).
REGRESS = scanbench_setup access_paths advice breakdown citus comments history \
	history_checks history_months index_crossover judge messages null_args page_costs page_costs_history \
	privileges raw_read safety scan_efficiency scan_pairs scan_rate storage toast_efficiency workload \
	workload_check workload_scans
REGRESS_OPTS = --inputdir=. --load-extension=scanbench
# No TAP_TESTS: PGXS would run every TAP file within installcheck, which
# stays pg_regress alone; prove_installcheck below runs them.

PG_CPPFLAGS = -I$(srcdir)/src -DSB_VERSION='"$(EXTVERSION)"'

EXTRA_CLEAN = tmp_check results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The scripts made from the surface (surface/assemble.pl says how).
SURFACE_PERL = $(if $(PERL),$(PERL),perl)
scanbench--$(EXTVERSION).sql: $(addprefix $(srcdir)/,$(SURFACE) surface/assemble.pl scanbench.control)
	$(SURFACE_PERL) $(srcdir)/surface/assemble.pl install $(EXTVERSION) $(addprefix $(srcdir)/,$(SURFACE)) >$@.tmp
	mv $@.tmp $@
$(UNRELEASED_STEPS): scanbench--%.sql: $(srcdir)/surface/upgrade/%.sql \
		$(addprefix $(srcdir)/,$(SURFACE) surface/assemble.pl)
	$(SURFACE_PERL) $(srcdir)/surface/assemble.pl step $< $(addprefix $(srcdir)/,$(SURFACE)) >$@.tmp
	mv $@.tmp $@

# PGXS tracks no header dependencies unless the server was configured
# with --enable-depend.
$(OBJS): $(wildcard src/*.h)

# Each client has its own PGXS Makefile, as contrib's vacuumlo does; these
# targets carry them along with the extension.
LOADER_DIR = bin/scanbench-load
# A relative DESTDIR is made absolute: the loader's make runs in its own
# directory.
LOADER_MAKE = $(MAKE) -C $(LOADER_DIR) PG_CONFIG='$(PG_CONFIG)' \
	$(if $(DESTDIR),DESTDIR='$(abspath $(DESTDIR))')

FLEET_DIR = bin/scanbench-fleet
FLEET_MAKE = $(MAKE) -C $(FLEET_DIR) PG_CONFIG='$(PG_CONFIG)' \
	$(if $(DESTDIR),DESTDIR='$(abspath $(DESTDIR))')

PROBE_DIR = bin/scanbench-probe
PROBE_MAKE = $(MAKE) -C $(PROBE_DIR) PG_CONFIG='$(PG_CONFIG)' \
	$(if $(DESTDIR),DESTDIR='$(abspath $(DESTDIR))')

all: all-loader all-fleet all-probe
install: install-loader install-fleet install-probe
uninstall: uninstall-loader uninstall-fleet uninstall-probe
clean: clean-loader clean-fleet clean-probe

# '+': the clients' makes share this one's jobs (make -j).
all-loader:
	+$(LOADER_MAKE) all
install-loader:
	+$(LOADER_MAKE) install
uninstall-loader:
	$(LOADER_MAKE) uninstall
clean-loader:
	$(LOADER_MAKE) clean

all-fleet:
	+$(FLEET_MAKE) all
install-fleet:
	+$(FLEET_MAKE) install
uninstall-fleet:
	$(FLEET_MAKE) uninstall
clean-fleet:
	$(FLEET_MAKE) clean

all-probe:
	+$(PROBE_MAKE) all
install-probe:
	+$(PROBE_MAKE) install
uninstall-probe:
	$(PROBE_MAKE) uninstall
clean-probe:
	$(PROBE_MAKE) clean

# The distribution: what a commit holds (HEAD, or DIST_REF), as PGXN
# wants it (a zip with one top directory, scanbench-VERSION/, META.json at
# its top) and as packagers take it (the same files in a tarball).  git
# archive, not the working tree: nothing built, nothing left uncommitted
# goes in, and two runs from one commit give the same files.
DIST_REF ?= HEAD
DISTDIR ?= .
DIST_NAME = $(EXTENSION)-$(EXTVERSION)
dist:
	git -C '$(srcdir)' archive --format=zip --prefix=$(DIST_NAME)/ \
		-o '$(abspath $(DISTDIR))/$(DIST_NAME).zip' $(DIST_REF)
	git -C '$(srcdir)' archive --format=tar.gz --prefix=$(DIST_NAME)/ \
		-o '$(abspath $(DISTDIR))/$(DIST_NAME).tar.gz' $(DIST_REF)

.PHONY: dist
.PHONY: all-loader install-loader uninstall-loader clean-loader
.PHONY: all-fleet install-fleet uninstall-fleet clean-fleet
.PHONY: all-probe install-probe uninstall-probe clean-probe


# The C units: each client's own test programs, built from its objects and
# run; no server, no installation.
unitcheck:
	+$(LOADER_MAKE) unitcheck
	+$(FLEET_MAKE) unitcheck

# The fuzz tests of the clients' parsers of untrusted input (bin/fuzz/:
# the servers file, the storage profiles and --storage, the numbers of
# the command line, EXPLAIN's JSON), each run with libFuzzer for
# FUZZ_SECONDS (20 by default) over a copy of its corpus; no server.
# They need clang with its fuzzer runtime, so unitcheck leaves them out.
FUZZ_SECONDS ?= 20
fuzzcheck:
	$(MAKE) -C bin/fuzz PG_CONFIG='$(PG_CONFIG)' FUZZ_SECONDS='$(FUZZ_SECONDS)' fuzzcheck

.PHONY: fuzzcheck

# The TAP tests of t/, apart from installcheck (the target pgvector's
# Makefile has), against the installed extension and clients of the
# pg_config named.  The directories are named for every major: 15's
# PostgreSQL::Test::Utils reads TESTDIR, 16 and later TESTDATADIR and
# TESTLOGDIR.  The server's bindir comes first on PATH: the tests run its
# pg_config and the installed scanbench-load.
prove_installcheck:
	rm -rf '$(CURDIR)/tmp_check'
	mkdir -p '$(CURDIR)/tmp_check'
	cd $(srcdir) && TESTDIR='$(CURDIR)' TESTDATADIR='$(CURDIR)/tmp_check' \
		TESTLOGDIR='$(CURDIR)/tmp_check/log' PATH="$(bindir):$$PATH" \
		PGPORT='6$(DEF_PGPORT)' PG_REGRESS='$(top_builddir)/src/test/regress/pg_regress' \
		$(PROVE) $(PG_PROVE_FLAGS) $(PROVE_FLAGS) $(if $(PROVE_TESTS),$(PROVE_TESTS),t/*.pl)

.PHONY: unitcheck prove_installcheck
