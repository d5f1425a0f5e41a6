# fuzz/fuzz.mk: libFuzzer targets, included by the top Makefile.  See
# fuzz/README for what each target feeds and checks.
#
#   make fuzz          each target 6 s or 1,000,000 runs, two at a time;
#                      fails on any finding (check-all runs the same
#                      runs, as fuzz-check-options)
#   make fuzz-long     each target 10 minutes
#   make fuzz-replay   run the seeds and fuzz/crashes/ once, no fuzzing;
#                      fails when fuzz/required.txt's functions go
#                      uncovered or the seeds are not current
#   make fuzz-build    only build build-fuzz/fuzz_*
#   make fuzz-seeds    rewrite fuzz/corpus/ from seedgen.c and tests/fixtures
#   make fuzz-seeds-check  fuzz/corpus is what fuzz-seeds writes today
#   make fuzz-clean    remove build-fuzz/
#
# Needs clang with its sanitizer runtimes (Debian: clang-14 and
# libclang-rt-14-dev) and the -dev packages of $(PKGS).  The src/ files are
# compiled again here with clang, ASan, UBSan and coverage instrumentation;
# the gcc-built library is not used.  Findings go to build-fuzz/artifacts/,
# new inputs to build-fuzz/corpus/; nothing is written into the tree.

# Debian's clang-14 package installs only clang-14; "clang" comes with
# the clang package.  Either will do.
FUZZ_CC		?= $(firstword $(shell command -v clang clang-14 2>/dev/null) clang)
FUZZ_BUILD	?= build-fuzz
FUZZ_TIME	?= 6
FUZZ_RUNS	?= 1000000
FUZZ_JOBS	?= 2
# Slowest first, so that two at a time end together.
FUZZ_TARGETS	= fuzz_session fuzz_session_psk fuzz_side fuzz_merge fuzz_proto \
		  fuzz_proc fuzz_opts

FUZZ_SAN	= -fsanitize=address,undefined -fno-sanitize-recover=all \
		  -fno-omit-frame-pointer
FUZZ_WARN	= -Wall -Wextra -Wshadow -Wpointer-arith -Wmissing-prototypes \
		  -Wstrict-prototypes
FUZZ_CFLAGS	= -std=gnu11 -g -O1 -pthread $(FUZZ_WARN) \
		  $(shell pkg-config --cflags $(PKGS)) $(FUZZ_SAN)
FUZZ_LIBS	= $(shell pkg-config --libs $(PKGS)) -pthread -lm

FUZZ_OBJS	= $(patsubst src/%.c, $(FUZZ_BUILD)/obj/%.o, \
		  $(filter-out src/main.c, $(wildcard src/*.c)))
FUZZ_LIB	= $(FUZZ_BUILD)/libgigebench-fuzz.a
FUZZ_UTIL	= $(FUZZ_BUILD)/obj/fuzz_util.o
FUZZ_BINS	= $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%)

# Every target: a malloc of 128 MiB or more is a finding (the protocol
# caps a message at 64 KiB; nothing a peer says may ask for more), and so
# is a process over 1 GiB.  Scaling the schedule by execution time keeps
# the 64 KiB seeds from eating the minute: 3 to 5 times the runs, the
# same coverage.
FUZZ_ARGS	= -malloc_limit_mb=128 -rss_limit_mb=1024 -timeout=25 \
		  -entropic_scale_per_exec_time=1 -print_final_stats=1
FUZZ_ARGS_fuzz_proto	= -max_len=70000 -dict=fuzz/proto.dict
FUZZ_ARGS_fuzz_session	= -max_len=70000 -dict=fuzz/proto.dict -detect_leaks=0
FUZZ_ARGS_fuzz_session_psk = $(FUZZ_ARGS_fuzz_session)
FUZZ_ARGS_fuzz_side	= -max_len=65536 -dict=fuzz/side.dict
FUZZ_ARGS_fuzz_opts	= -max_len=4096 -dict=fuzz/opts.dict
FUZZ_ARGS_fuzz_proc	= -max_len=16384
FUZZ_ARGS_fuzz_merge	= -max_len=65536 -dict=fuzz/merge.dict

# Instrumented for coverage, but without libFuzzer's main().
$(FUZZ_BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
	    -MMD -MP -c -o $@ $<

$(FUZZ_UTIL): fuzz/fuzz_util.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Werror \
	    -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_BINS): $(FUZZ_BUILD)/%: fuzz/%.c $(FUZZ_UTIL) $(FUZZ_LIB)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Werror -fsanitize=fuzzer \
	    -MMD -MP -o $@ $< $(FUZZ_UTIL) $(FUZZ_LIB) $(FUZZ_LIBS)

$(FUZZ_BUILD)/seedgen: fuzz/seedgen.c $(FUZZ_UTIL) $(FUZZ_LIB)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Werror \
	    -fsanitize=fuzzer-no-link -o $@ $< $(FUZZ_UTIL) $(FUZZ_LIB) \
	    $(FUZZ_LIBS)

fuzz-build:
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) $(FUZZ_BINS)

# One run per target, its output in a log; on a finding, the first
# error lines and the top of the stack, the end of the log, and the saved
# input in base64, also kept in $(FUZZ_BUILD)/findings/ for check-all to
# print again at its very end (a CI log's tail is all there is of a
# machine that is gone).  The summary is the line the README's numbers
# come from.
fuzz-run-%: $(FUZZ_BUILD)/%
	@mkdir -p $(FUZZ_BUILD)/corpus/$* $(FUZZ_BUILD)/artifacts \
	    $(FUZZ_BUILD)/logs
	@echo "fuzz: $* for $(FUZZ_TIME) s or $(FUZZ_RUNS) runs"
	@log=$(FUZZ_BUILD)/logs/$*.log; \
	if ! ./$(FUZZ_BUILD)/$* -max_total_time=$(FUZZ_TIME) \
	    -runs=$(FUZZ_RUNS) $(FUZZ_ARGS) $(FUZZ_ARGS_$*) \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$*- \
	    $(FUZZ_BUILD)/corpus/$* fuzz/corpus/$* >$$log 2>&1; then \
		f=$(FUZZ_BUILD)/findings/$*.txt; mkdir -p $(FUZZ_BUILD)/findings; \
		{ grep -m 5 -E '^(==[0-9]+==ERROR|fuzz(_[a-z_]+)?: |.*runtime error)' \
		    $$log; \
		grep -A 12 -m 1 -E '^==[0-9]+==' $$log | head -n 14; \
		tail -n 40 $$log; \
		for a in $(FUZZ_BUILD)/artifacts/$*-*; do \
			[ -f "$$a" ] && [ $$(wc -c <"$$a") -le 16384 ] && \
			{ echo "fuzz: $$a, base64:"; base64 -w 76 "$$a"; }; \
		done; \
		echo "fuzz: $* FOUND A BUG; input in $(FUZZ_BUILD)/artifacts/," \
		    "log in $$log"; } >$$f; \
		cat $$f; \
		exit 1; \
	fi; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
	eps=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $$log); \
	rss=$$(sed -n 's/^stat::peak_rss_mb: *//p' $$log); \
	cov=$$(grep -o 'cov: [0-9]* ft: [0-9]*' $$log | tail -n 1); \
	secs=$$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' \
	    $$log); \
	echo "fuzz: $* ok: $$runs runs in $$secs s, $$eps exec/s," \
	    "$$cov, peak RSS $$rss MB"

fuzz: fuzz-build
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) -k \
	    $(FUZZ_TARGETS:%=fuzz-run-%)

fuzz-long:
	@$(MAKE) --no-print-directory fuzz FUZZ_TIME=600 FUZZ_RUNS=-1

# check-all's last step (run with -j2): the fuzz runs, and then, in the
# slot the last target leaves free, the option checks, plain and ASan,
# check-auth (CPU only; its one bound is 6 s per client run) and one
# short round of the benchmark (bench-smoke: every tool runs and gives a
# figure; it asserts no speed).  Prerequisites start in this order.
fuzz-check-options: $(FUZZ_TARGETS:%=fuzz-run-%) check-options \
	    check-asan-options check-auth bench-smoke

# The seeds and the saved crashes, once each: a regression check.
fuzz-replay-%: $(FUZZ_BUILD)/%
	@mkdir -p $(FUZZ_BUILD)/logs
	@log=$(FUZZ_BUILD)/logs/replay-$*.log; \
	set -- fuzz/corpus/$*/*; \
	[ -d fuzz/crashes/$* ] && set -- "$$@" fuzz/crashes/$*/*; \
	if ! ./$(FUZZ_BUILD)/$* $(FUZZ_ARGS) $(FUZZ_ARGS_$*) "$$@" \
	    >$$log 2>&1; then \
		tail -n 60 $$log; \
		echo "fuzz-replay: $* FAILS, log in $$log"; \
		exit 1; \
	fi; \
	echo "fuzz-replay: $* ok, $$# inputs"; \
	FUZZ_BUILD=$(FUZZ_BUILD) bash fuzz/covered.sh ./$(FUZZ_BUILD)/$* $* \
	    $(FUZZ_ARGS) $(FUZZ_ARGS_$*)

# The replay fails on a crash, and when a function fuzz/required.txt names
# for a target gets no covered edge from its seeds (fuzz/covered.sh); and
# when the seeds are not what fuzz-seeds writes today.
fuzz-replay: fuzz-build
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) -k \
	    $(FUZZ_TARGETS:%=fuzz-replay-%) fuzz-seeds-check

# The seeds, from seedgen (the current encoders) and tests/fixtures, into
# $(FUZZ_SEEDS): fuzz/corpus, or elsewhere for fuzz-seeds-check.
FUZZ_SEEDS	?= fuzz/corpus
fuzz-seeds: $(FUZZ_BUILD)/seedgen
	rm -rf $(FUZZ_SEEDS)
	mkdir -p $(FUZZ_SEEDS)/fuzz_proc $(FUZZ_SEEDS)/fuzz_merge
	./$(FUZZ_BUILD)/seedgen $(FUZZ_SEEDS)
	@set -e; f=tests/fixtures; c=$(FUZZ_SEEDS)/fuzz_proc; \
	for p in proc-stat-hotplug proc-interrupts-2008; do \
		{ cat $$f/$$p-before; printf '\0'; cat $$f/$$p-after; } \
		    >$$c/$$p; \
	done; \
	for h in gmac legacy mq virtio pile; do \
		for x in interrupts stat softirqs; do \
			[ -f $$f/host-$$h-before/proc/$$x ] || continue; \
			{ cat $$f/host-$$h-before/proc/$$x; printf '\0'; \
			    cat $$f/host-$$h-after/proc/$$x; } \
			    >$$c/host-$$h-$$x; \
		done; \
	done; \
	for x in interrupts stat softirqs; do \
		[ -f $$f/host-garbled/proc/$$x ] && \
		    cp $$f/host-garbled/proc/$$x $$c/host-garbled-$$x; \
	done; \
	for d in x86 veth ppc2001; do \
		cp $$f/ctx-$$d/proc/cpuinfo $$c/cpuinfo-$$d; \
	done; \
	cp $$f/ctx-x86/proc/sys/kernel/osrelease $$c/osrelease; \
	cp $$f/ctx-x86/proc/sys/net/ipv4/tcp_rmem $$c/tcp_rmem; \
	cp $$f/host-mq-before/sys/class/net/veth0/uevent $$c/uevent-veth; \
	cp $$f/host-mq-before/sys/class/net/eth0/statistics/rx_bytes \
	    $$c/statistics-rx_bytes; \
	c=$(FUZZ_SEEDS)/fuzz_merge; \
	for j in $$f/merge/*.json $$f/merge/mesh/*.json; do \
		cp $$j $$c/$$(basename $$j); \
	done; \
	m=$$f/merge/mesh; \
	{ cat $$m/h1-h2.json; printf '\0'; cat $$m/h1-h3.json; printf '\0'; \
	    cat $$m/h1-h4.json; printf '\0'; cat $$f/merge/v6.json; } \
	    >$$c/four-files; \
	ls $(FUZZ_SEEDS)/* | wc -l

# The checked-in seeds are what fuzz-seeds makes today: a codec change
# that alters them (or a stale corpus) fails here; "make fuzz-seeds"
# rewrites them, then read the diff.
fuzz-seeds-check: $(FUZZ_BUILD)/seedgen
	@rm -rf $(FUZZ_BUILD)/seeds-now
	@$(MAKE) --no-print-directory fuzz-seeds \
	    FUZZ_SEEDS=$(FUZZ_BUILD)/seeds-now >/dev/null
	@if ! diff -r -q fuzz/corpus $(FUZZ_BUILD)/seeds-now; then \
		echo "fuzz-seeds-check: fuzz/corpus is not what make" \
		    "fuzz-seeds writes today (above); run it and read the diff"; \
		exit 1; \
	fi; \
	echo "fuzz-seeds-check: fuzz/corpus is current"

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

# "make clean" removes the fuzz build too.
clean: fuzz-clean

.PHONY: fuzz fuzz-long fuzz-build fuzz-replay fuzz-seeds fuzz-clean \
	fuzz-check-options fuzz-seeds-check
.PRECIOUS: $(FUZZ_BUILD)/obj/%.o

-include $(FUZZ_OBJS:.o=.d) $(FUZZ_UTIL:.o=.d) $(FUZZ_BINS:=.d)
