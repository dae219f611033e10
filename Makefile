# Build and install libhiera's C library.
#
#   make                        cargo build --release --lib
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make uninstall PREFIX=/usr/local
#
# install puts libhiera.so.VERSION (with the libhiera.so.ABI and libhiera.so
# links) and libhiera.a in $(PREFIX)/lib, hiera.h and hiera.hpp in
# $(PREFIX)/include, and a generated hiera.pc (also installed as libhiera.pc,
# the name the Go package asks for) in $(PREFIX)/lib/pkgconfig.
# The C/C++ bindings and their tests are in bindings/c (make -C bindings/c check).

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
CARGO ?= cargo
TARGET_DIR ?= target
INSTALL ?= install

VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
ABI := $(shell sed -n 's/^pub const HIERA_ABI_VERSION: u32 = \([0-9]*\);/\1/p' src/ffi/mod.rs)
# What a static link of libhiera.a needs besides it (rustc's native-static-libs on Linux).
PRIVATE_LIBS ?= -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc

BUILT := $(TARGET_DIR)/release

.PHONY: all lib install uninstall

all: lib

lib:
	$(CARGO) build --release --lib

install: lib
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 755 $(BUILT)/libhiera.so $(DESTDIR)$(LIBDIR)/libhiera.so.$(VERSION)
	ln -sf libhiera.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libhiera.so.$(ABI)
	ln -sf libhiera.so.$(ABI) $(DESTDIR)$(LIBDIR)/libhiera.so
	$(INSTALL) -m 644 $(BUILT)/libhiera.a $(DESTDIR)$(LIBDIR)/libhiera.a
	$(INSTALL) -m 644 include/hiera.h include/hiera.hpp $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' -e 's|@PRIVATE_LIBS@|$(PRIVATE_LIBS)|' \
	    hiera.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/hiera.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/hiera.pc
	cp $(DESTDIR)$(PKGCONFIGDIR)/hiera.pc $(DESTDIR)$(PKGCONFIGDIR)/libhiera.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libhiera.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libhiera.so.$(ABI) \
	      $(DESTDIR)$(LIBDIR)/libhiera.so $(DESTDIR)$(LIBDIR)/libhiera.a \
	      $(DESTDIR)$(INCLUDEDIR)/hiera.h $(DESTDIR)$(INCLUDEDIR)/hiera.hpp \
	      $(DESTDIR)$(PKGCONFIGDIR)/hiera.pc $(DESTDIR)$(PKGCONFIGDIR)/libhiera.pc
