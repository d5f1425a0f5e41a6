/*
 * test_stats.c: stats.c against figures computed by hand and the
 * textbook t table (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2).
 *
 * {956.2, 957.1, 955.8}: mean 2869.1 / 3 = 956.36667; deviations
 * -0.16667, 0.73333, -0.56667, squares summing to 0.88667; sd =
 * sqrt(0.88667 / 2) = 0.66583; CI half = 4.3027 * 0.66583 / sqrt(3) =
 * 1.6540.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "base/stats.h"

#include "assert_near.h"

static void
summarise(const double *v, unsigned n, double level, struct stats *s)
{
	struct stats_acc	a;
	unsigned		i;

	stats_init(&a);
	for (i = 0; i < n; i++)
		stats_add(&a, v[i]);
	stats_summary(&a, level, s);
}

static void
test_three_runs(void **state)
{
	static const double	v[] = { 956.2, 957.1, 955.8 };
	struct stats		s;

	(void)state;
	summarise(v, 3, 0.95, &s);
	assert_int_equal(s.n, 3);
	assert_near(s.mean, 956.366667, 1e-6);
	assert_near(s.sd, 0.665833, 1e-6);
	assert_near(s.min, 955.8, 1e-12);
	assert_near(s.max, 957.1, 1e-12);
	assert_near(s.level, 0.95, 0);
	assert_near(s.ci_half, 1.6540, 1e-4);
	assert_near(s.ci_lo, s.mean - s.ci_half, 1e-12);
	assert_near(s.ci_hi, s.mean + s.ci_half, 1e-12);
	/* 1.654 / 956.37 = 0.173 % */
	assert_true(stats_ci_within(&s, 0.2));
	assert_false(stats_ci_within(&s, 0.15));
}

static void
test_one_and_none(void **state)
{
	static const double	v[] = { 941.5 };
	struct stats		s;

	(void)state;
	summarise(v, 1, 0.95, &s);
	assert_int_equal(s.n, 1);
	assert_near(s.mean, 941.5, 0);
	assert_near(s.min, 941.5, 0);
	assert_near(s.max, 941.5, 0);
	assert_near(s.sd, 0, 0);
	assert_near(s.ci_half, 0, 0);
	assert_near(s.ci_lo, 941.5, 0);
	assert_near(s.ci_hi, 941.5, 0);
	assert_false(stats_ci_within(&s, 100));

	summarise(v, 0, 0.95, &s);
	assert_int_equal(s.n, 0);
	assert_near(s.mean, 0, 0);
	assert_near(s.sd, 0, 0);
	assert_near(s.min, 0, 0);
	assert_near(s.max, 0, 0);
	assert_near(s.ci_half, 0, 0);
	assert_false(stats_ci_within(&s, 100));
}

/* Identical runs: sd 0, a zero-width interval that is within any width. */
static void
test_identical(void **state)
{
	static const double	v[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	struct stats		s;

	(void)state;
	summarise(v, 7, 0.95, &s);
	assert_false(isnan(s.sd));
	assert_near(s.sd, 0, 1e-15);
	assert_near(s.ci_half, 0, 1e-15);
	assert_true(stats_ci_within(&s, 0.001));
}

/*
 * A huge offset: the sum of squares formula loses every digit here
 * (1e18 against a variance of 1), Welford keeps them.
 */
static void
test_welford_offset(void **state)
{
	static const double	v[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	static const double	w[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	struct stats		s;

	(void)state;
	summarise(v, 3, 0.95, &s);
	assert_near(s.mean, 1e9 + 2, 1e-6);
	assert_near(s.sd, 1, 1e-6);
	assert_near(s.ci_half, 4.302653 / sqrt(3), 1e-6);
	/* Knuth's and Welford's check set: variance 30 with offset 1e9. */
	summarise(w, 4, 0.95, &s);
	assert_near(s.mean, 1e9 + 10, 1e-6);
	assert_near(s.sd * s.sd, 30, 1e-6);
}

/* The mean of a mixed-sign set: |mean| is the yardstick. */
static void
test_ci_within_negative(void **state)
{
	static const double	v[] = { -100, -101, -99 };
	struct stats		s;

	(void)state;
	summarise(v, 3, 0.95, &s);
	assert_near(s.mean, -100, 1e-12);
	/* half = 4.3027 * 1 / sqrt(3) = 2.484 */
	assert_true(stats_ci_within(&s, 2.5));
	assert_false(stats_ci_within(&s, 2.4));
}

struct t_case {
	unsigned	df;
	double		level;
	double		want;
};

/* Two-sided: P(|T| <= t) = level, as the textbook tables give them. */
static const struct t_case t_cases[] = {
	{ 1, 0.95, 12.706 },
	{ 2, 0.95, 4.303 },
	{ 3, 0.95, 3.182 },
	{ 4, 0.95, 2.776 },
	{ 9, 0.95, 2.262 },
	{ 29, 0.95, 2.045 },
	{ 30, 0.95, 2.042 },
	{ 120, 0.95, 1.980 },
	{ 4, 0.99, 4.604 },
	{ 1, 0.99, 63.657 },
	{ 10, 0.90, 1.812 },
	{ 1, 0.90, 6.314 },
	{ 20, 0.999, 3.850 },
	{ 1000000, 0.95, 1.960 },
	{ 1000000, 0.99, 2.576 },
	{ 4000000000u, 0.90, 1.645 },
};

static void
test_t_quantile(void **state)
{
	double		t;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(t_cases) / sizeof(t_cases[0]); i++) {
		t = stats_t_quantile(t_cases[i].df, t_cases[i].level);
		/* 4 significant digits, as the tables print them */
		if (fabs(t - t_cases[i].want) > 0.5e-3 * (t < 10 ? 1 : 10))
			fail_msg("t(%g, %u) = %.6f, want %.3f",
			    t_cases[i].level, t_cases[i].df, t,
			    t_cases[i].want);
	}
	/* More digits where they are known exactly: df 2 has a closed form,
	 * t = sqrt(2 / (1 - p^2) - 2) with p = level. */
	assert_near(stats_t_quantile(2, 0.95),
	    sqrt(2 / (1 - 0.95 * 0.95) - 2), 1e-9);
	/* df 1 is Cauchy: t = tan(pi * level / 2). */
	assert_near(stats_t_quantile(1, 0.99), tan(M_PI * 0.99 / 2),
	    1e-7);
}

static void
test_t_quantile_domain(void **state)
{
	(void)state;
	assert_true(isnan(stats_t_quantile(0, 0.95)));
	assert_true(isnan(stats_t_quantile(5, 0)));
	assert_true(isnan(stats_t_quantile(5, 1)));
	assert_true(isnan(stats_t_quantile(5, -0.5)));
	assert_true(isnan(stats_t_quantile(5, NAN)));
	/* Falls with df, rises with the level. */
	assert_true(stats_t_quantile(5, 0.95) > stats_t_quantile(6, 0.95));
	assert_true(stats_t_quantile(5, 0.99) > stats_t_quantile(5, 0.95));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_runs),
		cmocka_unit_test(test_one_and_none),
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_welford_offset),
		cmocka_unit_test(test_ci_within_negative),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_t_quantile_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
