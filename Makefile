# nicdoctor - see README.md.  `make` builds ./nicdoctor, `make check` sets up,
# builds and runs every test; SAN=1 builds with AddressSanitizer + UBSan;
# `make fuzz` runs each libFuzzer target in tests/fuzz/ for FUZZ_SECONDS.

CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
# ND_VERSION in common.h is the one version; debian/changelog follows it (t9003).
VERSION  := $(shell sed -n 's/^\#define ND_VERSION "\(.*\)"/\1/p' include/nicdoctor/common.h)
SBINDIR  ?= $(PREFIX)/sbin
MANDIR   ?= $(PREFIX)/share/man
LIBEXECDIR ?= $(PREFIX)/libexec/nicdoctor
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# /etc even for /usr/local, as the units read /etc/default/nicdoctor.
SYSCONFDIR ?= /etc
# Debian keeps units in /lib/systemd/system (systemd.pc says where); other
# prefixes in PREFIX/lib/systemd/system, which systemd also reads for /usr/local.
SYSTEMDUNITDIR ?= $(if $(filter /usr,$(PREFIX)),$(or $(shell pkg-config \
	--variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system),$(PREFIX)/lib/systemd/system)
PKGS     := libnl-3.0 libnl-genl-3.0 libnl-route-3.0 libpci libcjson libarchive libssl libcrypto
# CC=clang with SAN=1 builds in build-san-clang/, beside gcc's build-san/.
BUILD    := build$(if $(FUZZ),-fuzz,$(if $(SAN),-san$(if $(findstring clang,$(CC)),-clang)))

# Debian packages the build and the tests need (`make deps` installs the missing ones).
DEB_BUILD := libnl-3-dev libnl-genl-3-dev libnl-route-3-dev libpci-dev libcjson-dev libarchive-dev libssl-dev pkg-config
DEB_TEST  := libcmocka-dev ethtool iperf3 iperf iproute2 pciutils valgrind python3 strace procps libssl-dev \
	     clang-14 libclang-rt-14-dev \
	     build-essential debhelper dpkg-dev lintian bash-completion systemd man-db python3-prometheus-client

CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -pthread
# float-cast-overflow is not part of -fsanitize=undefined in gcc or clang:
# a double out of an integer's range cast to it is undefined behaviour.
ifneq ($(SAN),)
CFLAGS   += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined,float-cast-overflow
LDFLAGS  += -fsanitize=address,undefined,float-cast-overflow
endif
FUZZ_CC  ?= $(shell command -v clang-14 >/dev/null 2>&1 && echo clang-14 || echo clang)
# FUZZ=1 (set by `make fuzz`): clang, coverage for libFuzzer, objects in build-fuzz/.
ifneq ($(FUZZ),)
CC       := $(FUZZ_CC)
CFLAGS   += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined
LDFLAGS  += -fsanitize=fuzzer,address,undefined
endif
FUZZ_SECONDS ?= 30

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
LDLIBS    += $(PKG_LIBS) -pthread -lm

LIB_SRC  := $(sort $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/fuzz/%)

# A sanitizer build stays in build-san/ and leaves ./nicdoctor alone.
all: $(if $(SAN),$(BUILD)/nicdoctor,nicdoctor)

# Through a rename, so a running ./nicdoctor is never overwritten in place.
nicdoctor: $(BUILD)/nicdoctor
	cp $< $@.tmp && mv -f $@.tmp $@

$(BUILD)/nicdoctor: $(BUILD)/src/main.o $(BUILD)/libnicdoctor.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libnicdoctor.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

# -MMD: a test binary is rebuilt when a header it includes changes.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libnicdoctor.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -MMD -MP -MF $@.d -o $@ $< $(BUILD)/libnicdoctor.a \
		$(LDLIBS) $(shell pkg-config --libs cmocka 2>/dev/null)

build-fuzz/fuzz/%: tests/fuzz/%.c $(BUILD)/libnicdoctor.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libnicdoctor.a $(LDLIBS)

# The collect script is pasted in by the assembler (.incbin): -MMD cannot see it.
$(BUILD)/src/collect/collect_script.o: src/collect/collect-script.sh

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(UNIT_BIN:=.d)

deps:
	@sh tests/install-deps.sh $(DEB_BUILD) $(DEB_TEST)

# The README's first command: set up, build, diagnose the default-route interface.
run: deps
	$(MAKE) all
	./nicdoctor diagnose; rc=$$?; [ $$rc -le 2 ]

unit: $(UNIT_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN)

# iperf3 3.21, the newest release, built from ../shared/peers/ (with its
# authentication: libssl-dev is a test dependency) as a peer for the interop
# tests; without ../shared the tests that need it skip.
IPERF3_NEW := $(CURDIR)/build-peers/iperf-3.21/bin/iperf3
peers:
	@if [ -f ../shared/peers/build-iperf3.sh ]; then \
		sh ../shared/peers/build-iperf3.sh build-peers/iperf-3.21 >/dev/null; \
	else echo "no ../shared/peers: the tests against iperf3 3.21 skip"; fi

# bench/loopback.py's yardstick, a bare send/recv loop (bench/bareloop.c).
bench-tools: $(BUILD)/bench/bareloop
$(BUILD)/bench/bareloop: bench/bareloop.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -pthread
.PHONY: bench-tools

# INTEGRATION_JOBS scripts at a time (default: CPUs + 1; tests/run-integration.py
# says which scripts run alone); T=t3001 (a prefix, or several) runs only those.
integration: $(BUILD)/nicdoctor
	@ND=$(CURDIR)/$(BUILD)/nicdoctor IPERF3_NEW=$(IPERF3_NEW) ND_SAN=$(SAN) \
		INTEGRATION_TIMES=$(CURDIR)/$(BUILD)/integration-times \
		python3 tests/run-integration.py $(T)

check: deps
	$(MAKE) peers
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) integration

# Each fuzz target for FUZZ_SECONDS from its seeds (tests/fuzz/corpus/NAME/).
fuzz:
	$(MAKE) FUZZ=1 fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

fuzz-build: $(FUZZ_BIN)

# The units and the textfile script name the installed paths (@SBINDIR@ ...).
SUBST = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' \
	    -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'

install: nicdoctor
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSCONFDIR)/default \
		$(BUILD)/dist
	install -m 0755 nicdoctor $(DESTDIR)$(SBINDIR)/nicdoctor
	install -m 0644 man/nicdoctor.8 $(DESTDIR)$(MANDIR)/man8/nicdoctor.8
	install -m 0644 dist/nicdoctor.bash-completion $(DESTDIR)$(BASHCOMPDIR)/nicdoctor
	$(SUBST) dist/nicdoctor-textfile.in >$(BUILD)/dist/nicdoctor-textfile
	install -m 0755 $(BUILD)/dist/nicdoctor-textfile $(DESTDIR)$(LIBEXECDIR)/nicdoctor-textfile
	for unit in nicdoctor-serve.service nicdoctor-textfile.service; do \
		$(SUBST) dist/systemd/$$unit.in >$(BUILD)/dist/$$unit && \
		install -m 0644 $(BUILD)/dist/$$unit $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit || exit 1; \
	done
	install -m 0644 dist/systemd/nicdoctor-textfile.timer $(DESTDIR)$(SYSTEMDUNITDIR)/
	@# An existing defaults file is the administrator's: never overwritten.
	[ -e $(DESTDIR)$(SYSCONFDIR)/default/nicdoctor ] || \
		install -m 0644 dist/nicdoctor.default $(DESTDIR)$(SYSCONFDIR)/default/nicdoctor

# The package is built from a copy of the tree in build-deb/src, so
# dpkg-buildpackage's ../*.deb land in build-deb/ (removed by `make clean`).
deb:
	@v=$$(dpkg-parsechangelog -S Version); [ "$$v" = "$(VERSION)" ] || \
		{ echo "debian/changelog says $$v, ND_VERSION is $(VERSION)" >&2; exit 1; }
	rm -rf build-deb && mkdir -p build-deb/src
	tar -cf - --exclude=./.git --exclude='./build*' --exclude=./tests/fuzz/out --exclude=./nicdoctor \
		--exclude=./nicdoctor.tmp . | tar -xf - -C build-deb/src
	cd build-deb/src && dpkg-buildpackage -b --no-sign -J$(or $(DEB_JOBS),2)
	@ls build-deb/*.deb

# `make install IPERF3_LINK=1` also makes $(PREFIX)/bin/iperf3 a link to
# nicdoctor, whose iperf3 drop-in then serves scripts that run iperf3 (never
# by default: it shadows a real iperf3 earlier in PATH).
ifeq ($(IPERF3_LINK),1)
install: install-iperf3-link
endif
install-iperf3-link:
	install -d $(DESTDIR)$(PREFIX)/bin
	ln -sf ../sbin/nicdoctor $(DESTDIR)$(PREFIX)/bin/iperf3

clean:
	rm -rf build build-san build-san-clang build-fuzz build-deb nicdoctor

.PHONY: all deps peers run unit integration check fuzz fuzz-build install deb clean
.PHONY: install-iperf3-link
