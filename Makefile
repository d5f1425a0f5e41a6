# gigebench: one plain Makefile (see ../shared/STYLE.md, habit 11).
#
#   make                 build build/gigebench
#   make check           unit tests (cmocka) and loopback/namespace tests
#   make asan            build with ASan+UBSan into build-asan/
#   make check-asan      the whole check under ASan+UBSan
#   make check-all       check, then check-asan (what CI runs)
#   make lint            mandoc -Tlint on the man page, cppcheck
#   make install         PREFIX=/usr/local DESTDIR=
#   make clean

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
BUILD	?= build

CC	?= cc
PKGS	= libevent libevent_pthreads jansson libpcap libsodium
PKGS_TEST = cmocka
CPPFLAGS += -D_GNU_SOURCE -Isrc
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

# Unit tests run from the top directory so fixture paths are stable.
check-unit: $(TESTS)
	@st=0; for t in $(TESTS); do echo "== $$t"; $$t || st=1; done; exit $$st

check-loopback: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/loopback.sh

check-man: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) sh tests/man.sh

# Namespace test bed (root; prints SKIP with the reason otherwise).
check-netns: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/netns_check.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/capture_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/sweep_netns.sh
	GIGEBENCH=$(abspath $(BIN)) bash tests/vanish_netns.sh
	bash tests/mtu_netns.sh

# Malformed messages, garbage connections, floods and dead peers (100
# kills, 20 freezes) against real listeners (about 2 minutes; timing
# bounds, so not repeated under ASan), and 600+ bad option values.
check-hostile: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/hostile.sh

# --psk and --allow-reverse through a byte-flipping proxy (about 20 s).
check-auth: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) python3 tests/auth.py

check-options: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/options_bad.sh

# A listener's limits and deadlines against real and misbehaving clients,
# --once, and running out of descriptors (loopback, about 20 s).
check-limits: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash tests/limits.sh

check: check-unit check-loopback check-man check-auth check-netns \
	check-options check-limits

# Everything CI runs: lint, the checks, the hostile peers, then the checks
# again under ASan+UBSan.
check-all: lint check check-hostile check-asan

SAN	= -fsanitize=address,undefined -fno-omit-frame-pointer \
	  -fno-sanitize-recover=all
asan:
	$(MAKE) BUILD=build-asan CFLAGS="-O1 -g" SANFLAGS="$(SAN)" all

check-asan:
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(MAKE) BUILD=build-asan CFLAGS="-O1 -g" SANFLAGS="$(SAN)" check

# libFuzzer targets (fuzz/fuzz.mk): make fuzz (short, CI), make fuzz-long.
-include fuzz/fuzz.mk

# The benchmark is not a test; CI only checks that one short round runs.
bench-smoke: $(BIN)
	GIGEBENCH=$(abspath $(BIN)) bash bench/run.sh --smoke

lint:
	mandoc -Tlint -W warning man/gigebench.1
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
	    --inline-suppr -Isrc src

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/gigebench
	install -m 0644 man/gigebench.1 $(DESTDIR)$(MANDIR)/man1/gigebench.1

clean:
	rm -rf build build-asan

.PHONY: bench-smoke all check check-all check-hostile check-limits \
	check-options check-unit check-loopback check-man check-netns asan check-asan lint \
	install clean
.PRECIOUS: $(BUILD)/%.o

-include $(OBJS:.o=.d) $(BUILD)/main.d $(TESTS:=.d)
