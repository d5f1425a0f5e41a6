# bench/bench.mk: the benchmark's standalone C helpers, included by the top
# Makefile.  bench/run.sh compiles them itself into its work folder (so a
# run needs only a compiler); this rule builds the same sources into
# build/bench/ with warnings as errors, to try one by hand or to check
# that they still compile.
#
#   make bench-build   build/bench/cpuwrap, bareloop, udp_ceiling
#
# udp_ceiling is the kernel's UDP ceiling (sendmmsg()/recvmmsg() on a
# connected pair of UDP sockets), for issue 15's UDP cases.

BENCH_PROGS	= cpuwrap bareloop udp_ceiling

bench-build: $(BENCH_PROGS:%=$(BUILD)/bench/%)

# The helpers use no gigebench code and no library beyond libc and
# pthreads: no $(CPPFLAGS), no pkg-config.
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Werror -pthread -o $@ $<

.PHONY: bench-build
