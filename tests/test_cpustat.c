/*
 * test_cpustat.c: /proc/stat parsing and load between two samples, from
 * fixtures in tests/fixtures/ (run from the top directory) and fmemopen().
 * Expected figures are worked out by hand in the comments.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/cpustat.h"

#define FIX	"tests/fixtures/"
#define EPS	1e-9

#include "assert_near.h"

static FILE *
mem(const char *s)
{
	FILE	*fp;

	/* fmemopen() refuses a zero-sized buffer. */
	fp = *s == '\0' ? fopen("/dev/null", "re") :
	    fmemopen((void *)(uintptr_t)s, strlen(s), "r");
	assert_non_null(fp);
	return fp;
}

static int
parse_str(const char *s, struct cpustat *cs)
{
	char	err[256];
	FILE	*fp = mem(s);
	int	r;

	r = cpustat_parse(fp, cs, err, sizeof(err));
	fclose(fp);
	return r;
}

static void
read_root(const char *root, struct cpustat *cs)
{
	char	err[256];

	cpustat_init(cs);
	assert_int_equal(cpustat_read(root, cs, err, sizeof(err)), 0);
	assert_int_equal(cs->has, 1);
}

static void
test_parse_modern(void **state)
{
	struct cpustat	cs;

	(void)state;
	read_root(FIX "host-mq-before/proc", &cs);
	assert_int_equal(cs.ncpus, 4);
	/* guest (777) is not added: it is inside user already */
	assert_true(cs.total.user == 81234 + 79876 + 80001 + 78900);
	assert_true(cs.total.iowait == 2345 + 2456 + 2001 + 1999);
	assert_int_equal(cs.cpu[2].id, 2);
	assert_true(cs.cpu[2].ticks.softirq == 7001);
	assert_true(cs.cpu[3].ticks.steal == 0);
	cpustat_free(&cs);
}

static void
test_parse_24(void **state)
{
	struct cpustat	cs;

	(void)state;
	read_root(FIX "host-gmac-before/proc", &cs);
	assert_int_equal(cs.ncpus, 1);
	assert_true(cs.total.user == 12000);
	assert_true(cs.total.idle == 480000);
	assert_true(cs.total.iowait == 0);
	assert_true(cs.total.softirq == 0);
	cpustat_free(&cs);
}

/*
 * Per-CPU deltas (user nice system idle iowait irq softirq):
 * cpu0 100 0 280 500 0 20 100 -> busy 500/1000; cpu1 busy 350/1000;
 * cpu2 200 0 400 100 0 0 300 -> busy 900/1000; cpu3 busy 40/1000.
 * All: user 360 nice 10 system 900 idle 2100 iowait 110 irq 20
 * softirq 500 = 4000; busy 1790 = 44.75 %.
 */
static void
test_diff_modern(void **state)
{
	struct cpustat		b, a;
	struct gb_host_cpu	hc;

	(void)state;
	read_root(FIX "host-mq-before/proc", &b);
	read_root(FIX "host-mq-after/proc", &a);
	cpustat_diff(&b, &a, &hc);
	assert_int_equal(hc.has, 1);
	assert_int_equal(hc.ncpus, 4);
	assert_near(hc.busy_pct, 44.75, EPS);
	assert_near(hc.user_pct, 9.25, EPS);
	assert_near(hc.sys_pct, 22.5, EPS);
	assert_near(hc.irq_pct, 0.5, EPS);
	assert_near(hc.softirq_pct, 12.5, EPS);
	assert_int_equal(hc.max_cpu, 2);
	assert_near(hc.max_cpu_busy_pct, 90.0, EPS);
	cpustat_free(&b);
	cpustat_free(&a);
}

/* The seed transmitter: 60 s at HZ=100, user 1200 system 2580 idle 2220. */
static void
test_diff_24(void **state)
{
	struct cpustat		b, a;
	struct gb_host_cpu	hc;

	(void)state;
	read_root(FIX "host-gmac-before/proc", &b);
	read_root(FIX "host-gmac-after/proc", &a);
	cpustat_diff(&b, &a, &hc);
	assert_int_equal(hc.has, 1);
	assert_near(hc.busy_pct, 63.0, EPS);
	assert_near(hc.user_pct, 20.0, EPS);
	assert_near(hc.sys_pct, 43.0, EPS);
	assert_near(hc.irq_pct, 0.0, EPS);
	assert_int_equal(hc.ncpus, 1);
	assert_int_equal(hc.max_cpu, 0);
	assert_near(hc.max_cpu_busy_pct, 63.0, EPS);
	cpustat_free(&b);
	cpustat_free(&a);
}

/*
 * cpu1 goes offline and iowait runs backwards: all = user 100 + system
 * 100 + idle 200 (iowait -400 counts 0) = 400, busy 50 %.  cpu0 and cpu2
 * are both 50 %; the first one wins.
 */
static void
test_diff_hotplug(void **state)
{
	struct cpustat		b, a;
	struct gb_host_cpu	hc;
	char			err[256];
	FILE			*fp;

	(void)state;
	cpustat_init(&b);
	cpustat_init(&a);
	assert_non_null(fp = fopen(FIX "proc-stat-hotplug-before", "re"));
	assert_int_equal(cpustat_parse(fp, &b, err, sizeof(err)), 0);
	fclose(fp);
	assert_non_null(fp = fopen(FIX "proc-stat-hotplug-after", "re"));
	assert_int_equal(cpustat_parse(fp, &a, err, sizeof(err)), 0);
	fclose(fp);
	assert_int_equal(b.ncpus, 3);
	assert_int_equal(a.ncpus, 2);
	cpustat_diff(&b, &a, &hc);
	assert_int_equal(hc.has, 1);
	assert_near(hc.busy_pct, 50.0, EPS);
	assert_int_equal(hc.ncpus, 2);
	assert_int_equal(hc.max_cpu, 0);
	assert_near(hc.max_cpu_busy_pct, 50.0, EPS);
	cpustat_free(&b);
	cpustat_free(&a);
}

/* Same sample twice, and a sample that runs backwards: no figure, no NaN. */
static void
test_diff_zero_and_backwards(void **state)
{
	struct cpustat		b, a;
	struct gb_host_cpu	hc;

	(void)state;
	read_root(FIX "host-mq-after/proc", &b);
	read_root(FIX "host-mq-before/proc", &a);
	cpustat_diff(&b, &b, &hc);
	assert_int_equal(hc.has, 0);
	assert_false(isnan(hc.busy_pct));
	cpustat_diff(&b, &a, &hc);
	assert_int_equal(hc.has, 0);
	assert_false(isnan(hc.busy_pct));
	assert_false(isnan(hc.max_cpu_busy_pct));
	cpustat_free(&b);
	cpustat_free(&a);
}

/* Aggregate line only (uniprocessor): the one CPU is the aggregate. */
static void
test_diff_aggregate_only(void **state)
{
	struct cpustat		b, a;
	struct gb_host_cpu	hc;

	(void)state;
	cpustat_init(&b);
	cpustat_init(&a);
	assert_int_equal(parse_str("cpu  100 0 100 800\n", &b), 0);
	assert_int_equal(parse_str("cpu  150 0 150 900\n", &a), 0);
	cpustat_diff(&b, &a, &hc);
	assert_int_equal(hc.has, 1);
	assert_near(hc.busy_pct, 50.0, EPS);
	assert_int_equal(hc.ncpus, 1);
	assert_int_equal(hc.max_cpu, 0);
	assert_near(hc.max_cpu_busy_pct, 50.0, EPS);
	cpustat_free(&b);
	cpustat_free(&a);
}

/* Deltas near 2^64 on every column must not wrap in the sum. */
static void
test_diff_huge(void **state)
{
	struct cpustat		b, a;
	struct gb_host_cpu	hc;

	(void)state;
	cpustat_init(&b);
	cpustat_init(&a);
	assert_int_equal(parse_str("cpu  0 0 0 0 0 0 0 0\n", &b), 0);
	assert_int_equal(parse_str("cpu  18446744073709551615 "
	    "18446744073709551615 0 18446744073709551615 "
	    "18446744073709551615 0 0 0\n", &a), 0);
	cpustat_diff(&b, &a, &hc);
	assert_int_equal(hc.has, 1);
	assert_near(hc.busy_pct, 50.0, 1e-6);
	assert_true(hc.busy_pct <= 100.0);
	cpustat_free(&b);
	cpustat_free(&a);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"\n\n\n",
		"garbage\nmore garbage \x01\x02\n",
		"cpu  1 2 3\n",				/* too few columns */
		"cpu  1 2 3 x\n",
		"cpu  -1 2 3 4\n",
		"cpu  1 2 3 4x\n",
		"cpu  99999999999999999999999 1 2 3\n",	/* above 2^64 */
		"cpu\n",
		"cpu",
		"cpu0 1 2 3 4\n",			/* no aggregate */
		"cpufreq 1 2 3 4\n",
	};
	struct cpustat	cs;
	size_t		i;

	(void)state;
	cpustat_init(&cs);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_str(bad[i], &cs), -1);
		assert_int_equal(cs.has, 0);
	}
	cpustat_free(&cs);
}

/* Bad cpuN lines are skipped; a good aggregate survives them. */
static void
test_skip_bad_cpu_lines(void **state)
{
	struct cpustat	cs;
	char		*buf, *p;
	size_t		 len = 4096;
	int		 i;

	(void)state;
	assert_non_null(buf = malloc(len));
	p = buf + snprintf(buf, len, "cpu  10 0 10 80\ncpu0 1 2\n"
	    "cpu1 5 0 5 40\ncpu1 6 0 6 40\ncpu0 1 1 1 1\n"
	    "cpu9999 1 1 1 1\ncpu2 1 1 1 99999999999999999999999\n"
	    "cpu3 ");
	for (i = 0; i < 3000; i++)		/* a 3000-byte line */
		*p++ = i % 2 ? ' ' : '7';
	strcpy(p, "\ncpu4 1 1 1 1");		/* last line, no newline */
	cpustat_init(&cs);
	assert_int_equal(parse_str(buf, &cs), 0);
	assert_true(cs.total.idle == 80);
	assert_int_equal(cs.ncpus, 2);
	assert_int_equal(cs.cpu[0].id, 1);
	assert_true(cs.cpu[0].ticks.user == 5);	/* the first cpu1 */
	assert_int_equal(cs.cpu[1].id, 4);
	/* reuse the struct */
	assert_int_equal(parse_str("cpu  1 1 1 1\n", &cs), 0);
	assert_int_equal(cs.ncpus, 0);
	cpustat_free(&cs);
	free(buf);
}

/* 9000 cpuN lines: ids up to 8191 are kept, the rest are skipped. */
static void
test_many_cpus(void **state)
{
	struct cpustat	 cs;
	char		*buf;
	size_t		 len;
	FILE		*fp;
	int		 i;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	fprintf(fp, "cpu  9000 0 9000 9000\n");
	for (i = 0; i < 9000; i++)
		fprintf(fp, "cpu%d 1 0 1 1 0 0 0 0 0 0\n", i);
	fclose(fp);
	cpustat_init(&cs);
	assert_int_equal(parse_str(buf, &cs), 0);
	assert_int_equal(cs.ncpus, CPUSTAT_MAX_CPUS);
	assert_int_equal(cs.cpu[CPUSTAT_MAX_CPUS - 1].id, 8191);
	cpustat_free(&cs);
	free(buf);
}

static void
test_read_missing(void **state)
{
	struct cpustat	cs;
	char		err[256] = "";

	(void)state;
	cpustat_init(&cs);
	assert_int_equal(cpustat_read(FIX "no-such-root", &cs, err,
	    sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(cs.has, 0);
	assert_non_null(strstr(err, "no-such-root/stat"));
	cpustat_free(&cs);
}

static void
test_read_real(void **state)
{
	struct cpustat	cs;

	(void)state;
	read_root("/proc", &cs);
	assert_true(cs.ncpus >= 1);
	cpustat_free(&cs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_modern),
		cmocka_unit_test(test_parse_24),
		cmocka_unit_test(test_diff_modern),
		cmocka_unit_test(test_diff_24),
		cmocka_unit_test(test_diff_hotplug),
		cmocka_unit_test(test_diff_zero_and_backwards),
		cmocka_unit_test(test_diff_aggregate_only),
		cmocka_unit_test(test_diff_huge),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_skip_bad_cpu_lines),
		cmocka_unit_test(test_many_cpus),
		cmocka_unit_test(test_read_missing),
		cmocka_unit_test(test_read_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
