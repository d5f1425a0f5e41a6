# gigebench: one plain Makefile (see ../shared/STYLE.md, habit 11).
#
#   make                 build build/gigebench
#   make check           unit tests (cmocka), loopback, namespace,
#                        unprivileged-listener and soak tests
#   make asan            build with ASan+UBSan into build-asan/
#   make check-asan      the checks that ASan+UBSan add to (see below)
#   make check-all       what CI runs: lint, check, the hostile peers,
#                        check-asan, the fuzz targets, a benchmark round;
#                        about 20 minutes
#   make soak-long       the issue's soak at full length, and under
#                        valgrind (not in CI: about 10 minutes)
#   make lint            mandoc -Tlint on the man page, cppcheck
#   make install         PREFIX=/usr/local DESTDIR= (binary, man page,
#                        bash completion)
#   make dist            gigebench-VERSION.tar.gz of the committed tree
#   make deb             the Debian package: build/deb/gigebench_*.deb
#   make clean

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
COMPDIR	?= $(PREFIX)/share/bash-completion/completions
BUILD	?= build

CC	?= cc
PKGS	= libevent libevent_pthreads jansson libpcap libsodium
PKGS_TEST = cmocka
CPPFLAGS += -D_GNU_SOURCE -Iinclude -Isrc
CFLAGS	?= -O2 -g
# Kept apart from CFLAGS so that "make CFLAGS=..." cannot drop them.
GBFLAGS	= -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wpointer-arith \
	  -Wmissing-prototypes -Wstrict-prototypes -pthread \
	  $(shell pkg-config --cflags $(PKGS)) $(SANFLAGS)
LDFLAGS	+= $(SANFLAGS)
LDLIBS	+= $(shell pkg-config --libs $(PKGS)) -pthread -lm
TEST_CFLAGS = $(shell pkg-config --cflags $(PKGS_TEST))
TEST_LIBS = $(shell pkg-config --libs $(PKGS_TEST))

SRCS	= $(filter-out src/main.c, $(wildcard src/*.c))
OBJS	= $(SRCS:src/%.c=$(BUILD)/%.o)
LIB	= $(BUILD)/libgigebench.a
BIN	= $(BUILD)/gigebench
TESTS	= $(patsubst tests/%.c, $(BUILD)/tests/%, $(wildcard tests/test_*.c))

all: $(BIN)

$(BUILD)/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GBFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The revision in the JSON's provenance (src/version.c): rebuilt when
# "git describe" changes, and only version.o.
GB_REVISION := $(shell git describe --always --dirty 2>/dev/null | \
	tr -cd 'A-Za-z0-9._-')
$(BUILD)/revision: FORCE
	@mkdir -p $(@D)
	@echo '$(GB_REVISION)' | cmp -s - $@ || echo '$(GB_REVISION)' >$@
$(BUILD)/version.o: $(BUILD)/revision
$(BUILD)/version.o: CPPFLAGS += -DGB_REVISION='"$(GB_REVISION)"'
FORCE:

$(LIB): $(OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/main.o $(LIB)
	$(CC) $(GBFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(GBFLAGS) $(CFLAGS) $(TEST_CFLAGS) -MMD -MP -o $@ $< \
	    $(LIB) \
	    $(LDFLAGS) $(TEST_LIBS) $(LDLIBS)

# The layers of README "Layout": every #include "..." of src/, include/
# and fuzz/ against the rules below (tests/check_layers.py), every file
# at most 600 lines and every function at most 80.  A file includes only
# its own layer and those under it:
#
#	cli   -> everything (src/main.c, the option parser, the sweep driver)
#	run   -> data, wire, codec, host, base	(client, server)
#	wire  -> codec, host, base		(control I/O, auth, pending)
#	data  -> host, base			(streams, sender, receiver)
#	out   -> codec, base			(text, JSON, table, CSV, plot)
#	codec -> base				(control messages, side JSON)
#	host  -> base				(/proc, /sys, sockets, MTU)
#	base  -> nothing of ours		(params, result, units, stats)
#
# Only src/main.c exits.
check-layers:
	python3 tests/check_layers.py

# Unit tests run from the top directory so fixture paths are stable.
check-unit: $(TESTS)
	@st=0; for t in $(TESTS); do echo "== $$t"; $$t || st=1; done; exit $$st

check-loopback: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/loopback.sh

# -u on loopback (issue 15): both directions, -P 4, -n, -R in bit/s and
# packets/s, the JSON members and text lines, the usage errors, strangers
# at the listener's UDP port, a reverse test refused; the listener's
# --max-rate held while a test runs (tests/udp_rate.py; about 40 s).
check-udp: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/udp.sh
	GIGEBENCH=$(abspath $(BIN)) python3 tests/udp_rate.py

check-man: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) sh tests/man.sh

# --ttcp on loopback (issue 16): both roles, TCP and UDP, sink and pipe
# mode, ttcp's lines by the regular expressions of a ttcp-parsing
# script, -A/-O/-B/-T, socat as the raw peer both ways; a native
# listener naming what is not gigebench (ttcp, raw, iperf3, nuttcp,
# HTTP, TLS, SSH), a native client against a ttcp receiver (about 40 s).
check-ttcp: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/ttcp.sh
	GIGEBENCH=$(abspath $(BIN)) python3 tests/peer_kinds.py

# The same against a classic ttcp built by hand (not in Debian, not in
# CI): make check-ttcp-classic TTCP=/path/to/ttcp.
check-ttcp-classic: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) TTCP="$(TTCP)" bash tests/ttcp_classic.sh

# Many flows on few threads (issue 32): 10,000 flows on 2 threads, -r,
# --rr over 1,000 flows, the thread counts, the refusals (--max-flows,
# the paths of a thread a flow, descriptor limits on both ends), a
# stopped client's silence seen by the listener's workers, Ctrl-C
# (about 15 s).
check-flows: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/flows.sh

# Sweeps on loopback: the sweep runner, table, CSV, JSON and plot.
check-sweep: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/sweep_lo.sh

# Namespace test bed (root; prints "# SKIP <reason>" otherwise, and with
# CI set fails instead: tests/lib/skip.sh).  spread_netns.sh: the spread
# of a -P 4 test on a veth of 4 queues against /proc/softirqs, and 1,000
# flows on 2 threads there (about 10 s); flows_netns.sh: 20 flows on 2
# threads over a 4 mbit/s link, no false silence (about 20 s);
# underload_netns.sh: --under-load on a bloated and a short router
# queue, the probes' marking on the wire (tcpdump; about 25 s).
check-netns: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/netns_check.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/capture_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/sweep_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/vanish_netns.sh
	bash tests/mtu_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/signals_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/mtu_hello_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/flows_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/udp_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/rr_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/egress_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/bidir_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/spread_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/underload_netns.sh

check-capture: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/capture_netns.sh

# The listener as nobody, with contrib/gigebench.service's address
# families (root; prints SKIP with the reason otherwise).
check-unpriv: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/unpriv.sh

# Issue 6's soak: 300 sequential tests of mixed settings, short ones
# (about 20 s; soak-long runs 1,000), fds and threads back to idle
# after each, VmRSS growth at most 1 MiB.  Under ASan (check-asan): 50 of them with
# LeakSanitizer on the listener.  soak-long: full-length tests, and 100
# under valgrind.
check-soak: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/soak.sh --quick --count 300

check-soak-lsan: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) GIGEBENCH_ASAN=$(abspath $(BIN)) \
	    bash tests/soak.sh --asan 50 --quick

soak-long: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/soak.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/soak.sh --valgrind 100

# Malformed messages, garbage connections, floods and dead peers (100
# kills, 20 freezes) against real listeners (about 2 minutes; timing
# bounds, so not repeated under ASan), and 600+ bad option values.
check-hostile: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/hostile.sh
	GIGEBENCH=$(abspath $(BIN)) python3 tests/hostage.py
	GIGEBENCH=$(abspath $(BIN)) python3 tests/fd_flood.py
	GIGEBENCH=$(abspath $(BIN)) bash tests/sealed_valgrind.sh

# The listener attacked as issue 14 says (about 80 s): a stdout nobody
# reads, peer strings with newlines and escapes, every catchable signal
# idle and mid-test, and every way a session ends told to the client.
# check-hostile adds the slow ones: a peer that holds the slot with
# hellos alone (hostage.py), a descriptor flood (fd_flood.py), sealed
# first messages to a listener under valgrind (sealed_valgrind.sh).
check-listener: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/stalled_stdout.sh
	GIGEBENCH=$(abspath $(BIN)) python3 tests/peer_strings.py
	GIGEBENCH=$(abspath $(BIN)) bash tests/signals.sh
	GIGEBENCH=$(abspath $(BIN)) python3 tests/end_reasons.py

# --psk and --allow-reverse through a byte-flipping proxy (about 20 s).
check-auth: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) python3 tests/auth.py

check-results: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) python3 tests/results.py

check-rr: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) python3 tests/rr.py

# --bidir on loopback: both directions' bytes equal on both ends, the
# hosts' figures shared, -n, the text, UDP, the refusals (about 15 s).
check-bidir: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) python3 tests/bidir.py

check-options: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/options_bad.sh

# A listener's limits and deadlines against real and misbehaving clients,
# --once, and running out of descriptors (loopback, about 20 s).
check-limits: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/limits.sh

# Man page promises no other check held: JSON on every error path, -n
# alone against --max-duration, irq per segment, the client's
# --force-bufs refusal (loopback, about 20 s).
check-claims: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/claims.sh

# --profile over loopback (root): both ends' profiles, --skip-rx-copy's
# copy share, the listener's refusal, perf closed to a user, sweeps
# (about 15 s).
check-profile: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/profile.sh

# gigebench merge on the mesh fixtures of tests/fixtures/merge/: the text,
# the outlier's explanation, --csv, --plot, the refusals (about 2 s).
# Then hostile text in the CSV of merge and of a loopback test: quoted,
# formula starts defused, numbers untouched (tests/csv_injection.py,
# about 1 s).
check-merge: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/merge.sh
	GIGEBENCH=$(abspath $(BIN)) python3 tests/csv_injection.py

# Foreign text (issue 31, root: a UTS namespace): a listener whose host
# name holds backquotes, $( ), quotes, a newline and an escape; a client
# test, merge --plot and --csv of its JSON, a sweep and an --rr CDF with
# a hostile --title: nothing runs, nothing raw reaches a terminal, the
# plots render (about 10 s).
check-foreign: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/foreign_text.sh

# contrib/ansible's role and mesh playbook on a simulated fleet (root, not
# in "make check": it starts sshd in namespaces): four namespaces with
# their own hostnames and sshd, one pair rate-limited, the role twice, a
# busy receiver retried, the matrix with the slow pair its one outlier,
# nothing left (about 90 s).  Needs ansible and openssh-server.
check-mesh: $(BIN)
	/usr/bin/python3 -m unittest discover -s tests \
	    -p mesh_rounds_test.py
	GIGEBENCH=$(abspath $(BIN)) bash tests/mesh.sh

# The bash completion against the binary's options, sweep parameters and
# the kernel's congestion controls and interfaces (about 10 s).
check-completion: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/completion.sh

# The Debian package (root, not in "make check": it installs on this
# machine): one version everywhere, make dist, make deb, lintian, install,
# the unit's command line serving a test, purge leaving nothing (about
# 40 s).
check-deb:
	bash tests/deb.sh

CHECKS	= check-layers check-unit check-loopback check-udp check-ttcp check-man \
	  check-sweep check-auth check-limits check-claims check-listener \
	  check-results check-rr check-bidir check-completion check-merge \
	  check-foreign check-profile check-flows \
	  check-netns check-options check-unpriv check-soak
check: $(CHECKS)

SAN	= -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -fno-sanitize-recover=all
ASAN_MAKE = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(MAKE) BUILD=build-asan CFLAGS="-O1 -g" SANFLAGS="$(SAN)"
asan:
	+$(ASAN_MAKE) all

# What ASan+UBSan add to: the unit tests, every loopback test (all data
# paths, both directions, the listener's refusals, garbage peers), the
# sweep runner, the option parser's 400 bad values, --capture's packet
# parsing on a veth, and the soak's leak check.  Not repeated under ASan
# (make check runs them with the plain build):
# - tests/netns_check.sh: the emulated link's accuracy and the counters
#   against the test's own readings.  Measurements, not memory: its code
#   (the data path, the /proc and /sys readers, the context) is what
#   check-loopback runs under ASan, with veth fixtures in the unit tests.
# - tests/sweep_netns.sh: MTU sweeps and signals; the sweep runner is
#   check-sweep's under ASan, and mtu.c is test_mtu's (its namespace
#   cases run in check-unit as root) and mtu_netns.sh's.
# - tests/mtu_netns.sh: builds its own ASan+UBSan probe whatever the
#   build, so a second run repeats the first.
# - tests/unpriv.sh: privileges, not memory; the listener's code paths
#   are check-loopback's.
# - tests/hostile.sh: timing bounds (see check-hostile).
# - tests/auth.py: auth.c is test_auth's under ASan (RFC 4231, every bit of
#   a sealed message flipped), and the decoder is the fuzzers'.
# - tests/limits.sh: deadlines and descriptor exhaustion; bounds.c and
#   srccap.c are unit-tested under ASan, and the pending-connection and
#   refusal paths are check-loopback's and check-auth's.
# - tests/rr_netns.sh: --rr's latency against sockperf's on a veth, a
#   measurement; --rr's code is check-rr's under ASan.
# Together about 70 s saved.
ASAN_CHECKS = check-unit check-loopback check-udp check-ttcp check-man check-sweep check-rr \
	  check-bidir check-merge check-profile check-flows \
	  check-options check-capture check-soak-lsan

check-asan:
	+$(ASAN_MAKE) $(ASAN_CHECKS)

# Every build check-all needs, and lint, two at a time.  ("+": the
# sub-makes that $(ASAN_MAKE) hides share the job slots.)
build-all:
	@$(MAKE) --no-print-directory -j2 lint build-tests asan-build \
	    $(FUZZ_BINS)
build-tests: $(BIN) $(TESTS)
asan-build:
	+$(ASAN_MAKE) build-tests
check-asan-%:
	+$(ASAN_MAKE) check-$*

# Everything CI runs, in the order that keeps a 2-CPU machine busy
# without putting load under a timing check.  The plain checks and the
# hostile peers run alone (netns_check.sh and sweep_netns.sh hold
# throughput to 0.5-1 % of a link, hostile.sh holds answers to 1 s), and
# so do the ASan checks.  Then the fuzz targets, two at a time, each 6 s
# or 1,000,000 runs (fuzz/fuzz.mk); the option checks, plain and ASan,
# tests/auth.py (whose only time bound is 6 s per run) and one round of
# the benchmark (no speed asserted) take the CPU the last target leaves
# free.  About 20 minutes on 2 CPUs.
check-all:
	@$(MAKE) --no-print-directory build-all
	$(MAKE) $(filter-out check-options check-auth,$(CHECKS)) check-hostile \
	    check-deb check-mesh
	$(ASAN_MAKE) $(filter-out check-options,$(ASAN_CHECKS))
	$(MAKE) fuzz-replay
	@rm -rf $(FUZZ_BUILD)/findings
	@$(MAKE) --no-print-directory -j2 -k -Otarget fuzz-check-options || \
	    { cat $(FUZZ_BUILD)/findings/*.txt 2>/dev/null; exit 1; }

# libFuzzer targets (fuzz/fuzz.mk): make fuzz (short, CI), make fuzz-long.
-include fuzz/fuzz.mk

# The benchmark's C helpers (bench/bench.mk): make bench-build.
-include bench/bench.mk

# The benchmark is not a test; CI (check-all, beside the fuzz runs) only
# checks that one short round runs, every tool giving a figure.
bench-smoke: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash bench/run.sh --smoke

# Resident size of both ends over a 60 s test and 1,000 back-to-back
# tests (bench/README.md, "Memory"); about 10 minutes.
bench-memory: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash bench/memory.sh

lint:
	mandoc -Tlint -W warning man/gigebench.1
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
	    --inline-suppr -Iinclude -Isrc src

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(COMPDIR)
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/gigebench
	install -m 0644 man/gigebench.1 $(DESTDIR)$(MANDIR)/man1/gigebench.1
	install -m 0644 contrib/completion/gigebench.bash \
	    $(DESTDIR)$(COMPDIR)/gigebench

# The source tarball of this version (include/base/version.h), from the
# committed tree: gigebench-VERSION.tar.gz.
VERSION	= $(shell sed -n 's/^\#define GB_VERSION[^"]*"\(.*\)"/\1/p' \
	  include/base/version.h)
dist:
	git archive --format=tar.gz --prefix=gigebench-$(VERSION)/ \
	    -o gigebench-$(VERSION).tar.gz HEAD
	@echo gigebench-$(VERSION).tar.gz

# The Debian package, built in a scratch copy of the tree's files (git's,
# and new ones it does not ignore; dpkg-buildpackage writes beside the
# source): build/deb/*.deb.
deb:
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/gigebench-$(VERSION)
	git ls-files -z --cached --others --exclude-standard | \
	    tar --null -T - -c | tar -x -C $(BUILD)/deb/gigebench-$(VERSION)
	cd $(BUILD)/deb/gigebench-$(VERSION) && dpkg-buildpackage -us -uc -b
	@ls $(BUILD)/deb/*.deb

# A "ttcp" that is gigebench's classic mode: only when asked, since it
# may hide a system ttcp.
install-ttcp: install
	ln -sf gigebench $(DESTDIR)$(BINDIR)/ttcp
	ln -sf gigebench $(DESTDIR)$(COMPDIR)/ttcp

clean:
	rm -rf build build-asan

.PHONY: bench-smoke bench-memory all check check-all check-hostile check-options check-unit check-results check-rr check-bidir \
	check-loopback check-man check-sweep check-netns check-capture \
	check-unpriv check-soak check-soak-lsan soak-long asan asan-build \
	build-all build-tests check-asan lint install clean check-auth \
	check-limits check-layers check-claims check-listener check-udp \
	check-ttcp check-ttcp-classic install-ttcp dist deb \
	check-completion check-deb check-merge check-foreign check-mesh \
	check-profile
.PRECIOUS: $(BUILD)/%.o

-include $(OBJS:.o=.d) $(BUILD)/main.d $(TESTS:=.d)
