/*
 * test_kallsyms.c: the kernel's symbols (host/kallsyms.h) from fixtures
 * in tests/fixtures/kallsyms/ (run from the top directory), each a
 * procroot: small/ is a kallsyms in no order with built-in and module
 * symbols, data symbols to skip (d, D, b, B, R), markers sharing an
 * address with a function, _etext, a name longer than the report's
 * field and a line that is no symbol; restricted/ is the same as
 * kptr_restrict shows it (every address 0) with the sysctl at 1,
 * restricted-perf/ with it at 0 and perf_event_paranoid at 2; garbage/
 * has no symbol at all; irqs/ has the functions that enable interrupts
 * again.  Then profile_build() from hand-made counts: the figures
 * worked out in the comments, and irqs/'s under cpu-clock and cycles.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/kallsyms.h"

#define FIX	"tests/fixtures/kallsyms/"

#define assert_u64(got, want) do {					\
	uint64_t got_ = (got), want_ = (want);				\
	if (got_ != want_) {						\
		print_error("%s = %llu, expected %llu\n", #got,	\
		    (unsigned long long)got_, (unsigned long long)want_); \
		fail();							\
	}								\
} while (0)

/* Addresses of tests/fixtures/kallsyms/small/kallsyms. */
#define A_STARTUP	0xffffffff81000000ull
#define A_COPY_TO	0xffffffff81bad7b0ull
#define A_COPY_FROM	0xffffffff81bad900ull
#define A_TCP_RECV	0xffffffff81c00000ull
#define A_MEMCPY	0xffffffff81d00000ull
#define A_SOME_WEAK	0xffffffff81d00100ull
#define A_RAW_LOCK	0xffffffff81e00000ull
#define A_ETEXT		0xffffffff82000000ull
#define A_E1000_INTR	0xffffffffc0a01000ull
#define A_VETH_XMIT	0xffffffffc0b00000ull
#define SMALL_TEXT	17	/* its t, T, w and W lines */

static struct kallsyms *
small(void)
{
	struct kallsyms	*ks;
	char		 err[256] = "";

	ks = kallsyms_read(FIX "small", err, sizeof(err));
	if (ks == NULL)
		print_error("%s\n", err);
	assert_non_null(ks);
	return ks;
}

static void
expect_sym(const struct kallsyms *ks, uint64_t ip, const char *name,
    const char *module)
{
	const struct ksym	*s = kallsyms_find(ks, ip);

	if (s == NULL) {
		print_error("%#llx: no symbol, expected %s\n",
		    (unsigned long long)ip, name);
		fail();
	}
	assert_string_equal(s->name, name);
	assert_string_equal(s->module, module);
}

static void
test_parse_small(void **state)
{
	struct kallsyms	*ks;
	FILE		*fp;
	char		 err[256] = "";

	(void)state;
	assert_non_null(fp = fopen(FIX "small/kallsyms", "re"));
	ks = kallsyms_parse(fp, err, sizeof(err));
	fclose(fp);
	assert_non_null(ks);
	assert_string_equal(err, "");
	assert_int_equal(kallsyms_count(ks), SMALL_TEXT);
	kallsyms_free(ks);
	assert_int_equal(kallsyms_count(NULL), 0);
	kallsyms_free(NULL);
}

static void
test_find(void **state)
{
	struct kallsyms	*ks = small();

	(void)state;
	expect_sym(ks, A_COPY_TO, "_copy_to_iter", "");
	expect_sym(ks, A_COPY_TO + 0x10, "_copy_to_iter", "");
	expect_sym(ks, A_COPY_FROM - 1, "_copy_to_iter", "");
	expect_sym(ks, A_COPY_FROM, "_copy_from_iter", "");
	expect_sym(ks, A_TCP_RECV + 0x3ff, "tcp_recvmsg", "");
	expect_sym(ks, A_TCP_RECV + 0x400, "tcp_recvmsg_locked", "");
	/* Weak ones count. */
	expect_sym(ks, A_MEMCPY + 8, "memcpy", "");
	expect_sym(ks, A_SOME_WEAK, "some_weak", "");
	/* _stext and _text share startup_64's address: the function. */
	expect_sym(ks, A_STARTUP, "startup_64", "");
	expect_sym(ks, A_STARTUP + 0x100, "startup_64", "");
	/* Modules, in order though listed out of it. */
	expect_sym(ks, A_E1000_INTR, "e1000_intr", "e1000");
	expect_sym(ks, A_E1000_INTR + 0x1ff, "e1000_intr", "e1000");
	expect_sym(ks, A_E1000_INTR + 0x200, "e1000_clean", "e1000");
	expect_sym(ks, 0xffffffffc0a02010ull, "e1000_xmit_frame", "e1000");
	expect_sym(ks, A_VETH_XMIT + 0x50, "veth_xmit", "veth");
	/* Within a MiB of the last symbol: it may be that long. */
	expect_sym(ks, A_VETH_XMIT + 0x1000, "veth_xmit", "veth");
	kallsyms_free(ks);
}

static void
test_find_none(void **state)
{
	struct kallsyms	*ks = small();

	(void)state;
	assert_null(kallsyms_find(ks, 0));
	assert_null(kallsyms_find(ks, A_STARTUP - 1));
	assert_null(kallsyms_find(ks, 0xffffffff80000000ull));
	/* Past the kernel's text: data, and the gap before the modules. */
	assert_null(kallsyms_find(ks, A_ETEXT));
	assert_null(kallsyms_find(ks, A_ETEXT + 0x10));
	assert_null(kallsyms_find(ks, 0xffffffff82200000ull));
	assert_null(kallsyms_find(ks, 0xffffffffc0000000ull));
	/* More than a MiB past a function. */
	assert_null(kallsyms_find(ks, A_RAW_LOCK + 0x100001));
	expect_sym(ks, A_RAW_LOCK + 0x100000, "_raw_spin_lock_bh", "");
	/* Far past the last. */
	assert_null(kallsyms_find(ks, A_VETH_XMIT + 0x200000));
	assert_null(kallsyms_find(ks, UINT64_MAX));
	assert_null(kallsyms_find(NULL, A_COPY_TO));
	kallsyms_free(ks);
}

/* kptr_restrict: every address 0; the sysctl's value in the reason. */
static void
test_restricted(void **state)
{
	struct kallsyms	*ks;
	FILE		*fp;
	char		 err[256] = "";

	(void)state;
	assert_non_null(fp = fopen(FIX "restricted/kallsyms", "re"));
	ks = kallsyms_parse(fp, err, sizeof(err));
	fclose(fp);
	assert_null(ks);
	assert_non_null(strstr(err, "kptr_restrict"));
	assert_non_null(strstr(err, "CAP_SYSLOG"));

	err[0] = '\0';
	assert_null(kallsyms_read(FIX "restricted", err, sizeof(err)));
	assert_non_null(strstr(err, "kptr_restrict is 1"));
	assert_non_null(strstr(err, "CAP_SYSLOG"));

	err[0] = '\0';
	assert_null(kallsyms_read(FIX "restricted-perf", err, sizeof(err)));
	assert_non_null(strstr(err, "kptr_restrict is 0"));
	assert_non_null(strstr(err, "perf_event_paranoid 2"));
}

static void
test_no_symbol(void **state)
{
	FILE	*fp;
	char	 err[256] = "";

	(void)state;
	assert_null(kallsyms_read(FIX "garbage", err, sizeof(err)));
	assert_non_null(strstr(err, FIX "garbage/kallsyms has no text symbol "
	    "in 6 lines"));

	err[0] = '\0';
	assert_non_null(fp = fopen("/dev/null", "re"));
	assert_null(kallsyms_parse(fp, err, sizeof(err)));
	fclose(fp);
	assert_non_null(strstr(err, "no text symbol in 0 lines"));
}

static void
test_read_missing(void **state)
{
	char	err[256] = "";

	(void)state;
	assert_null(kallsyms_read(FIX "none", err, sizeof(err)));
	assert_non_null(strstr(err, FIX "none/kallsyms"));
}

/* This host's, as the sampler's user may or may not see it. */
static void
test_live(void **state)
{
	struct kallsyms	*ks;
	char		 err[256] = "";

	(void)state;
	if ((ks = kallsyms_read("/proc", err, sizeof(err))) == NULL) {
		assert_true(strstr(err, "kptr_restrict") != NULL ||
		    strstr(err, "/proc/kallsyms") != NULL);
		return;
	}
	assert_true(kallsyms_count(ks) > 1000);
	kallsyms_free(ks);
}

/*
 * The counts of one test against small/, driver e1000:
 *	_copy_to_iter	30 + 20 at two addresses	copy	50
 *	tcp_recvmsg	25				stack	25
 *	e1000_intr	15 (module e1000)		driver	15
 *	_raw_spin_lock_bh 10				locking	10
 *	veth_xmit	7 (module veth, not the driver)	kernel	 7
 *	the long name	4				stack	 4
 *	0xffffffff80000000: no symbol	5		kernel	 5 unknown
 * kernel 116; user: gigebench 40, sshd 8, aaa 7 (ties veth_xmit, and
 * goes first by name), a full 16-byte comm 1: 56; idle 100; 272 all.
 */
static struct perfsample_ip counts_ips[] = {
	{ A_COPY_TO + 0x10, 30 },
	{ A_TCP_RECV + 0x8, 25 },
	{ 0xffffffff80000000ull, 5 },
	{ A_E1000_INTR + 0x4, 15 },
	{ A_COPY_TO + 0x40, 20 },
	{ A_RAW_LOCK + 0x20, 10 },
	{ A_VETH_XMIT + 0x30, 7 },
	{ 0xffffffff81c02010ull, 4 },
};
static struct perfsample_comm counts_comms[] = {
	{ "gigebench", 40 },
	{ "sshd", 8 },
	{ "aaa", 7 },
	{ { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm',
	    'n', 'o', 'p' }, 1 },
};

static void
counts_init(struct perfsample_counts *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->event, sizeof(c->event), "cpu-clock");
	c->hz = 997;
	c->ncpus = 2;
	c->seconds = 2.0;
	c->idle = 100;
	c->kernel = 116;
	c->user = 56;
	c->samples = 272;
	c->lost = 3;
	c->ips = counts_ips;
	c->nips = sizeof(counts_ips) / sizeof(counts_ips[0]);
	c->comms = counts_comms;
	c->ncomms = sizeof(counts_comms) / sizeof(counts_comms[0]);
	c->cpu_s = 0.25;
	c->records = 5000;
}

static void
expect_top(const struct gb_profile *p, unsigned i, const char *name,
    const char *module, int user, int cat, uint64_t samples)
{
	assert_true(i < p->ntop);
	assert_string_equal(p->top[i].name, name);
	assert_string_equal(p->top[i].module, module);
	assert_int_equal(p->top[i].user, user);
	assert_int_equal(p->top[i].cat, cat);
	assert_u64(p->top[i].samples, samples);
}

static void
expect_sums(const struct gb_profile *p)
{
	uint64_t	sum = 0;
	int		i;

	for (i = 0; i < GB_NCAT; i++)
		sum += p->cat[i];
	assert_u64(sum, p->kernel + p->user);
	assert_u64(p->idle + p->kernel + p->user, p->samples);
}

static void
test_build(void **state)
{
	struct perfsample_counts	 c;
	struct gb_profile		 p;
	struct kallsyms			*ks = small();

	(void)state;
	counts_init(&c);
	memset(&p, 0xa5, sizeof(p));	/* everything must be written */
	profile_build(&p, &c, ks, "e1000");
	assert_int_equal(p.asked, 1);
	assert_int_equal(p.has, 1);
	assert_string_equal(p.missing, "");
	assert_string_equal(p.event, "cpu-clock");
	assert_int_equal(p.hz, 997);
	assert_int_equal(p.ncpus, 2);
	assert_true(p.seconds == 2.0);
	assert_u64(p.samples, 272);
	assert_u64(p.idle, 100);
	assert_u64(p.kernel, 116);
	assert_u64(p.user, 56);
	assert_u64(p.lost, 3);
	assert_u64(p.unknown, 5);
	assert_u64(p.cat[GB_CAT_COPY], 50);
	assert_u64(p.cat[GB_CAT_CSUM], 0);
	assert_u64(p.cat[GB_CAT_STACK], 29);
	assert_u64(p.cat[GB_CAT_SOFTIRQ], 0);
	assert_u64(p.cat[GB_CAT_DRIVER], 15);
	assert_u64(p.cat[GB_CAT_SCHED], 0);
	assert_u64(p.cat[GB_CAT_LOCK], 10);
	assert_u64(p.cat[GB_CAT_KERNEL], 12);
	assert_u64(p.cat[GB_CAT_USER], 56);
	expect_sums(&p);
	assert_string_equal(p.driver, "e1000");
	assert_true(p.handled_per_s == 2500.0);
	assert_true(p.cpu_s == 0.25);

	assert_int_equal(p.ntop, 10);
	expect_top(&p, 0, "_copy_to_iter", "", 0, GB_CAT_COPY, 50);
	expect_top(&p, 1, "gigebench", "", 1, GB_CAT_USER, 40);
	expect_top(&p, 2, "tcp_recvmsg", "", 0, GB_CAT_STACK, 25);
	expect_top(&p, 3, "e1000_intr", "e1000", 0, GB_CAT_DRIVER, 15);
	expect_top(&p, 4, "_raw_spin_lock_bh", "", 0, GB_CAT_LOCK, 10);
	expect_top(&p, 5, "sshd", "", 1, GB_CAT_USER, 8);
	expect_top(&p, 6, "aaa", "", 1, GB_CAT_USER, 7);
	expect_top(&p, 7, "veth_xmit", "veth", 0, GB_CAT_KERNEL, 7);
	/* 63 bytes of the name and a NUL. */
	expect_top(&p, 8, "tcp_this_is_a_very_long_function_name_that_goes_"
	    "on_and_on_past_", "", 0, GB_CAT_STACK, 4);
	expect_top(&p, 9, "abcdefghijklmnop", "", 1, GB_CAT_USER, 1);
	kallsyms_free(ks);
}

/* The built-in driver by its prefix, the module by its name. */
static void
test_build_driver(void **state)
{
	struct perfsample_counts	 c;
	struct gb_profile		 p;
	struct kallsyms			*ks = small();

	(void)state;
	counts_init(&c);
	profile_build(&p, &c, ks, "veth");
	assert_u64(p.cat[GB_CAT_DRIVER], 7);
	assert_u64(p.cat[GB_CAT_KERNEL], 5 + 15);
	expect_sums(&p);
	profile_build(&p, &c, ks, NULL);
	assert_u64(p.cat[GB_CAT_DRIVER], 0);
	assert_string_equal(p.driver, "");
	kallsyms_free(ks);
}

/* No symbols: every kernel sample unknown; the processes still. */
static void
test_build_no_symbols(void **state)
{
	struct perfsample_counts	 c;
	struct gb_profile		 p;
	int				 i;

	(void)state;
	counts_init(&c);
	profile_build(&p, &c, NULL, "e1000");
	assert_int_equal(p.has, 1);
	assert_u64(p.unknown, 116);
	assert_u64(p.cat[GB_CAT_KERNEL], 116);
	assert_u64(p.cat[GB_CAT_USER], 56);
	for (i = 0; i < GB_CAT_KERNEL; i++)
		assert_u64(p.cat[i], 0);
	expect_sums(&p);
	assert_int_equal(p.ntop, 4);
	expect_top(&p, 0, "gigebench", "", 1, GB_CAT_USER, 40);
	expect_top(&p, 3, "abcdefghijklmnop", "", 1, GB_CAT_USER, 1);
}

/* More processes than the top holds: the first GB_PROFILE_TOP, in order. */
static void
test_build_top(void **state)
{
	struct perfsample_counts	 c;
	struct perfsample_comm		 comms[12];
	struct gb_profile		 p;
	unsigned			 i;

	(void)state;
	counts_init(&c);
	c.user = 0;
	for (i = 0; i < 12; i++) {
		snprintf(comms[i].comm, sizeof(comms[i].comm), "p%02u", i);
		comms[i].n = 100 + i;
		c.user += comms[i].n;
	}
	c.comms = comms;
	c.ncomms = 12;
	c.nips = 0;
	c.kernel = 0;
	profile_build(&p, &c, NULL, "");
	assert_u64(p.user, 1266);
	assert_u64(p.unknown, 0);
	expect_sums(&p);
	assert_int_equal(p.ntop, GB_PROFILE_TOP);
	expect_top(&p, 0, "p11", "", 1, GB_CAT_USER, 111);
	expect_top(&p, 9, "p02", "", 1, GB_CAT_USER, 102);
}

/*
 * One loopback end on a VM without a PMU, in small: 40 samples copying,
 * 32 at the instruction after the unlock's re-enable, 8 in the paravirt
 * hook, 4 in a lock taken, 6 enabling softirqs; 10 in user space.
 */
static struct perfsample_ip irqs_ips[] = {
	{ 0xffffffff81100010ull, 40 },	/* _copy_to_iter */
	{ 0xffffffff81200020ull, 32 },	/* _raw_spin_unlock_irqrestore */
	{ 0xffffffff81300008ull, 8 },	/* pvm_irq_enable */
	{ 0xffffffff81200110ull, 4 },	/* _raw_spin_lock_irqsave */
	{ 0xffffffff81400004ull, 6 },	/* __local_bh_enable_ip */
};
static struct perfsample_comm irqs_comms[] = { { "gigebench", 10 } };

static void
irqs_build(struct gb_profile *p, const char *event)
{
	struct perfsample_counts	 c;
	struct kallsyms			*ks;
	char				 err[256] = "";

	ks = kallsyms_read(FIX "irqs", err, sizeof(err));
	if (ks == NULL)
		print_error("%s\n", err);
	assert_non_null(ks);
	memset(&c, 0, sizeof(c));
	snprintf(c.event, sizeof(c.event), "%s", event);
	c.hz = 499;
	c.ncpus = 1;
	c.seconds = 1.0;
	c.kernel = 90;
	c.user = 10;
	c.samples = 100;
	c.ips = irqs_ips;
	c.nips = sizeof(irqs_ips) / sizeof(irqs_ips[0]);
	c.comms = irqs_comms;
	c.ncomms = 1;
	profile_build(p, &c, ks, "veth");
	kallsyms_free(ks);
	expect_sums(p);
}

static void
test_build_irqs_off(void **state)
{
	struct gb_profile	p;

	(void)state;
	irqs_build(&p, "cpu-clock");
	assert_string_equal(p.event, "cpu-clock");
	assert_u64(p.cat[GB_CAT_IRQOFF], 32 + 8);
	assert_u64(p.cat[GB_CAT_LOCK], 4);
	assert_u64(p.cat[GB_CAT_COPY], 40);
	assert_u64(p.cat[GB_CAT_KERNEL], 6);
	expect_top(&p, 1, "_raw_spin_unlock_irqrestore", "", 0,
	    GB_CAT_IRQOFF, 32);
	expect_top(&p, 3, "pvm_irq_enable", "", 0, GB_CAT_IRQOFF, 8);
	/* Cycles sees where the time went: the unlock is locking. */
	irqs_build(&p, "cycles");
	assert_u64(p.cat[GB_CAT_IRQOFF], 0);
	assert_u64(p.cat[GB_CAT_LOCK], 32 + 4);
	assert_u64(p.cat[GB_CAT_KERNEL], 8 + 6);
	expect_top(&p, 1, "_raw_spin_unlock_irqrestore", "", 0,
	    GB_CAT_LOCK, 32);
	expect_top(&p, 3, "pvm_irq_enable", "", 0, GB_CAT_KERNEL, 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_small),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_find_none),
		cmocka_unit_test(test_restricted),
		cmocka_unit_test(test_no_symbol),
		cmocka_unit_test(test_read_missing),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_build_driver),
		cmocka_unit_test(test_build_no_symbols),
		cmocka_unit_test(test_build_top),
		cmocka_unit_test(test_build_irqs_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
