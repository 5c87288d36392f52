# What scanbench's client programs build alike, included by each one's
# Makefile after it names PROGRAM, OBJS (with cli.o, and xalloc.o where
# the program ends on a failed allocation) and PGFILEDESC: libpq and
# ../common, the version number, PGXS itself.

# The one version number, from the extension's control file.
SCANBENCH_VERSION := $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(dir $(lastword $(MAKEFILE_LIST)))../../scanbench.control)

# CLIENT_CPPFLAGS: a program's own, set before this file is included.
PG_CPPFLAGS = -I$(libpq_srcdir) -I$(srcdir)/../common -DSCANBENCH_VERSION='"$(SCANBENCH_VERSION)"' \
	$(CLIENT_CPPFLAGS)
# Only libpq: the server's own link libraries (LIBS, as the packager's
# configure found them) are not needed by a client and are often not
# installed where the client is built.
PG_LIBS_INTERNAL = $(libpq)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

LIBS := -lm

$(OBJS): $(wildcard *.h) $(wildcard ../common/*.h)

# cli.c and xalloc.c are found in ../common by the usual rules (.o, and
# .bc for JIT).
vpath cli.c ../common
vpath xalloc.c ../common
