/*
 * test_rpm.c: rpm.c against series worked by hand and the formulas of
 * draft-ietf-ippm-responsiveness-09, section 5.3.1.
 *
 * 1..100 at 95 %: the lowest 95 are 1..95, sum 95 x 96 / 2 = 4560, mean
 * 48.  19 samples of 10 ms and one of 10,000 ms: 95 % of 20 is 19, the
 * outlier goes, mean 10.  60 ms foreign, 60 ms self: (1000 + 1000) / 2
 * = 1000 RPM.  30 ms foreign, 120 ms self: (2000 + 500) / 2 = 1250, the
 * mean of the RPMs (not 60000 / 75 = 800, the RPM of the mean).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/rpm.h"

#include "assert_near.h"

#define N_MAX	1000

static double
tm(const double *v, size_t n, unsigned pct)
{
	double	scratch[N_MAX], out = -1;
	char	err[128];

	assert_true(n <= N_MAX);
	if (rpm_trimmed_mean(v, n, pct, scratch, &out, err, sizeof(err)) ==
	    -1)
		fail_msg("rpm_trimmed_mean(n %zu, %u %%): %s", n, pct, err);
	return out;
}

static void
test_trimmed_1_to_100(void **state)
{
	double	v[100], copy[100];
	size_t	i;

	(void)state;
	/* Shuffled (a stride prime to 100), so the sort does the work. */
	for (i = 0; i < 100; i++)
		v[i] = (double)((i * 37) % 100 + 1);
	memcpy(copy, v, sizeof(v));
	assert_near(tm(v, 100, RPM_KEEP_PCT), 48, 1e-12);
	assert_memory_equal(v, copy, sizeof(v));	/* v untouched */
	assert_near(tm(v, 100, 100), 50.5, 1e-12);
	assert_near(tm(v, 100, 90), 45.5, 1e-12);	/* 1..90 */
	assert_near(tm(v, 100, 1), 1, 1e-12);
}

static void
test_trimmed_outlier(void **state)
{
	double	v[20];
	size_t	i;

	(void)state;
	for (i = 0; i < 20; i++)
		v[i] = 10;
	v[7] = 10000;
	assert_near(tm(v, 20, RPM_KEEP_PCT), 10, 1e-12);
	/* Single-sided: a low outlier stays in. */
	v[7] = 10;
	v[3] = 0.5;
	assert_near(tm(v, 20, RPM_KEEP_PCT), (18 * 10 + 0.5) / 19, 1e-12);
}

static void
test_trimmed_small(void **state)
{
	double	c[7] = { 2.5, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5 };
	double	one = 42.125;
	double	ten[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 };

	(void)state;
	assert_near(tm(c, 7, RPM_KEEP_PCT), 2.5, 0);	/* constant */
	assert_near(tm(&one, 1, RPM_KEEP_PCT), 42.125, 0);
	assert_near(tm(&one, 1, 1), 42.125, 0);
	/* 9.5 of 10 rounds up: under 20 samples nothing is dropped. */
	assert_near(tm(ten, 10, RPM_KEEP_PCT), 14.5, 1e-12);
	assert_near(tm(ten, 10, 90), 5, 1e-12);
}

static void
test_trimmed_refused(void **state)
{
	double	v[3] = { 1, 2, 3 }, scratch[3], out = -7;
	char	err[128];

	(void)state;
	assert_int_equal(rpm_trimmed_mean(v, 0, 95, scratch, &out, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "trimmed mean has no samples");
	assert_int_equal(rpm_trimmed_mean(v, 3, 0, scratch, &out, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "trimmed mean share is not 1-100 %: 0");
	assert_int_equal(rpm_trimmed_mean(v, 3, 101, scratch, &out, NULL,
	    0), -1);
	v[1] = NAN;
	assert_int_equal(rpm_trimmed_mean(v, 3, 95, scratch, &out, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "latency sample 1 is not a finite number "
	    ">= 0: nan");
	v[1] = -1;
	assert_int_equal(rpm_trimmed_mean(v, 3, 95, scratch, &out, err,
	    sizeof(err)), -1);
	v[1] = INFINITY;
	assert_int_equal(rpm_trimmed_mean(v, 3, 95, scratch, &out, err,
	    sizeof(err)), -1);
	assert_near(out, -7, 0);	/* not written on a refusal */
}

static void
test_rpm_of_ms(void **state)
{
	(void)state;
	assert_near(rpm_of_ms(60), 1000, 1e-9);
	assert_near(rpm_of_ms(1), 60000, 1e-9);
	assert_near(rpm_of_ms(0.5), 120000, 1e-9);
	assert_true(isnan(rpm_of_ms(0)));
	assert_true(isnan(rpm_of_ms(-1)));
	assert_true(isnan(rpm_of_ms(NAN)));
	assert_true(isnan(rpm_of_ms(INFINITY)));
}

static void
test_compute(void **state)
{
	struct rpm_probes	p = { 20, 30, 40, 60 };
	struct rpm_figures	f;
	char			err[128];

	(void)state;
	/* With TLS: foreign (20 + 30 + 40) / 3 = 30 ms, 2000 RPM. */
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), 0);
	assert_int_equal(f.foreign_parts, 3);
	assert_near(f.foreign_ms, 30, 1e-12);
	assert_near(f.foreign_rpm, 2000, 1e-9);
	assert_near(f.loaded_rpm, 1000, 1e-9);
	assert_near(f.rpm, 1500, 1e-9);
	/* TCP only (5.3.1.2): (20 + 40) / 2, not (20 + 0 + 40) / 3. */
	p.tls_f_ms = RPM_NONE;
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), 0);
	assert_int_equal(f.foreign_parts, 2);
	assert_near(f.foreign_ms, 30, 1e-12);
	assert_near(f.rpm, 1500, 1e-9);
	/* 60 ms everywhere: 1000. */
	p.tcp_f_ms = p.http_f_ms = 60;
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), 0);
	assert_near(f.rpm, 1000, 1e-9);
	/* One component alone. */
	p.tcp_f_ms = RPM_NONE;
	p.http_f_ms = 30;
	p.http_l_ms = 120;
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), 0);
	assert_int_equal(f.foreign_parts, 1);
	assert_near(f.rpm, 1250, 1e-9);
}

static void
test_compute_refused(void **state)
{
	struct rpm_probes	p;
	struct rpm_figures	f;
	char			err[128];

	(void)state;
	p = (struct rpm_probes){ RPM_NONE, RPM_NONE, RPM_NONE, 60 };
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "foreign probe times are all missing "
	    "(TCP handshake, TLS handshake, HTTP)");
	p = (struct rpm_probes){ 20, RPM_NONE, 40, RPM_NONE };
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "self probe time is missing");
	p = (struct rpm_probes){ 20, 0, 40, 60 };
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "foreign TLS handshake time is not a "
	    "number of ms > 0: 0");
	p = (struct rpm_probes){ 20, RPM_NONE, INFINITY, 60 };
	assert_int_equal(rpm_compute(&p, &f, err, sizeof(err)), -1);
	assert_string_equal(err, "foreign HTTP time is not a number of ms "
	    "> 0: inf");
	p = (struct rpm_probes){ 20, RPM_NONE, 40, -3 };
	assert_int_equal(rpm_compute(&p, &f, NULL, 0), -1);
}

/* Trimmed means of probe samples into RPM, the way a caller chains them. */
static void
test_chain(void **state)
{
	double			tcp[20], http[20], self[20];
	struct rpm_probes	p;
	struct rpm_figures	f;
	size_t			i;

	(void)state;
	for (i = 0; i < 20; i++) {
		tcp[i] = 20;
		http[i] = 40;
		self[i] = 60;
	}
	tcp[4] = http[9] = self[19] = 5000;	/* one stall each */
	p.tcp_f_ms = tm(tcp, 20, RPM_KEEP_PCT);
	p.tls_f_ms = RPM_NONE;
	p.http_f_ms = tm(http, 20, RPM_KEEP_PCT);
	p.http_l_ms = tm(self, 20, RPM_KEEP_PCT);
	assert_int_equal(rpm_compute(&p, &f, NULL, 0), 0);
	assert_near(f.rpm, 1500, 1e-9);
}

static void
test_queue(void **state)
{
	(void)state;
	assert_near(rpm_added_delay_ms(45, 5), 40, 1e-12);
	assert_near(rpm_added_delay_ms(4, 5), 0, 0);	/* noise */
	assert_true(isnan(rpm_added_delay_ms(NAN, 5)));
	assert_true(isnan(rpm_added_delay_ms(45, -1)));
	/* 40 ms at 100 Mbit/s: 0.04 x 1e8 / 8 = 500,000 bytes. */
	assert_near(rpm_queue_bytes(40, 100e6), 500000, 1e-6);
	/* 1 ms at 1 Gbit/s: 125,000 bytes. */
	assert_near(rpm_queue_bytes(1, 1e9), 125000, 1e-6);
	assert_near(rpm_queue_bytes(0, 1e9), 0, 0);
	assert_near(rpm_queue_bytes(40, 0), 0, 0);
	assert_true(isnan(rpm_queue_bytes(-1, 1e9)));
	assert_true(isnan(rpm_queue_bytes(40, NAN)));
	assert_true(isnan(rpm_queue_bytes(INFINITY, 1e9)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trimmed_1_to_100),
		cmocka_unit_test(test_trimmed_outlier),
		cmocka_unit_test(test_trimmed_small),
		cmocka_unit_test(test_trimmed_refused),
		cmocka_unit_test(test_rpm_of_ms),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_compute_refused),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
