# scanbench: PGXS build of the extension and of the scanbench-load client.
#
#   make && make install          build and install both
#   make installcheck             pg_regress (sql/, expected/) and TAP (t/)
#                                 against the server named by PGHOST/PGPORT

EXTENSION = scanbench
EXTVERSION = 0.1

MODULE_big = scanbench
OBJS = \
	scanbench.o \
	src/cache.o \
	src/clock.o \
	src/relfiles.o \
	src/rawread.o \
	src/scan.o \
	src/storage.o
PGFILEDESC = "scanbench - executor scan rate against raw file read rate"

DATA = scanbench--$(EXTVERSION).sql

REGRESS = scanbench_setup raw_read scan_rate scan_efficiency privileges
REGRESS_OPTS = --inputdir=. --load-extension=scanbench
TAP_TESTS = 1

PG_CPPFLAGS = -I$(srcdir)/src

# The client: a plain libpq program, built and installed beside the server
# binaries the way contrib's oid2name and vacuumlo are.
LOADER = tools/scanbench-load
EXTRA_CLEAN = $(LOADER) tools/*.o tmp_check results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

all: $(LOADER)

# PGXS tracks no header dependencies unless the server was configured
# with --enable-depend.
$(OBJS): src/scanbench.h src/compat.h

$(LOADER): tools/scanbench-load.c
	$(CC) $(CFLAGS) -I$(includedir) $(CPPFLAGS) -o $@ $< $(LDFLAGS) -L$(libdir) -lpq -lpthread

install: install-loader

install-loader: $(LOADER)
	$(MKDIR_P) '$(DESTDIR)$(bindir)'
	$(INSTALL_PROGRAM) $(LOADER) '$(DESTDIR)$(bindir)/scanbench-load'

.PHONY: install-loader
