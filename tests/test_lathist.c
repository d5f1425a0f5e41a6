/*
 * test_lathist.c: lathist.c's buckets, bound by bound; its percentiles
 * against the exact ones of the same samples, sorted (the nearest rank,
 * computed here in integers: pct is given as a fraction num / den); its
 * merge against adding every sample to one histogram; and its edges
 * (0, 1 ns, UINT64_MAX, empty, pct out of range).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/lathist.h"

#define NLCG		100000

/* A percentile as num / den of 100: 99.99 is 9999 / 100. */
struct pct {
	double		pct;
	uint64_t	num;
	uint64_t	den;
};

static const struct pct pcts[] = {
	{ 0, 0, 1 }, { 1, 1, 1 }, { 10, 10, 1 }, { 50, 50, 1 },
	{ 90, 90, 1 }, { 99, 99, 1 }, { 99.9, 999, 10 },
	{ 99.99, 9999, 100 }, { 100, 100, 1 },
};
#define NPCTS	(sizeof(pcts) / sizeof(pcts[0]))

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The nearest-rank percentile of n > 0 sorted values, in integers. */
static uint64_t
exact_percentile(const uint64_t *sorted, uint64_t n, const struct pct *p)
{
	uint64_t	r;

	r = (p->num * n + p->den * 100 - 1) / (p->den * 100);
	if (r < 1)
		r = 1;
	return sorted[r - 1];
}

/* s <= got <= s + s / 2^SUB, as lathist.h promises below the limit. */
static void
assert_within(uint64_t got, uint64_t s, const char *what, double pct)
{
	if (got < s || got - s > s >> LATHIST_SUB_BITS)
		fail_msg("%s: P%g = %" PRIu64 ", exact %" PRIu64
		    " (at most %" PRIu64 ")", what, pct, got, s,
		    s + (s >> LATHIST_SUB_BITS));
}

static void
check_percentiles(const struct lathist *h, uint64_t *v, uint64_t n,
    const char *what)
{
	size_t		i;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < NPCTS; i++)
		assert_within(lathist_percentile(h, pcts[i].pct),
		    exact_percentile(v, n, &pcts[i]), what, pcts[i].pct);
	assert_int_equal(lathist_percentile(h, 0), v[0]);
	assert_int_equal(lathist_percentile(h, 100), v[n - 1]);
}

/* Knuth's MMIX LCG: the same 100k samples on every run. */
static uint64_t
lcg_next(uint64_t *x)
{
	*x = *x * UINT64_C(6364136223846793005) +
	    UINT64_C(1442695040888963407);
	return *x;
}

/*
 * A long tail: Pareto with alpha 1.2 from 10 us, so the median is
 * 18 us and P99.99 some 20 ms, the largest of 100k near 0.1 s.
 */
static uint64_t *
lcg_samples(void)
{
	uint64_t	*v, x = 18;
	double		u;
	size_t		i;

	v = malloc(NLCG * sizeof(*v));
	assert_non_null(v);
	for (i = 0; i < NLCG; i++) {
		u = ldexp((double)((lcg_next(&x) >> 11) + 1), -53);
		v[i] = (uint64_t)(10000 * pow(u, -1 / 1.2));
		if (v[i] >= LATHIST_LIMIT_NS)
			v[i] = LATHIST_LIMIT_NS - 1;
	}
	return v;
}

static void
test_bucket_bounds(void **state)
{
	unsigned	i;
	uint64_t	lo, hi;

	(void)state;
	assert_int_equal(lathist_low(0), 0);
	assert_true(lathist_high(LATHIST_TOP) == UINT64_MAX);
	assert_true(lathist_low(LATHIST_TOP) == LATHIST_LIMIT_NS);
	for (i = 0; i < LATHIST_NBUCKETS; i++) {
		lo = lathist_low(i);
		hi = lathist_high(i);
		if (lo > hi || lathist_index(lo) != i ||
		    lathist_index(hi) != i)
			fail_msg("bucket %u: [%" PRIu64 ", %" PRIu64 "], "
			    "indexes %u, %u", i, lo, hi, lathist_index(lo),
			    lathist_index(hi));
		if (i > 0 && lathist_high(i - 1) + 1 != lo)
			fail_msg("bucket %u starts at %" PRIu64 ", %u ends "
			    "at %" PRIu64, i, lo, i - 1, lathist_high(i - 1));
		/* Exact below 2^(SUB+1); at most 1/2^SUB of low wide. */
		if (i < 2 * LATHIST_SUB_COUNT && lo != hi)
			fail_msg("bucket %u is not exact", i);
		if (i >= 2 * LATHIST_SUB_COUNT && i < LATHIST_TOP &&
		    (hi - lo + 1) * LATHIST_SUB_COUNT > lo)
			fail_msg("bucket %u is %" PRIu64 " wide from %"
			    PRIu64, i, hi - lo + 1, lo);
	}
	assert_int_equal(lathist_index(LATHIST_LIMIT_NS - 1),
	    LATHIST_TOP - 1);
	assert_int_equal(lathist_index(LATHIST_LIMIT_NS), LATHIST_TOP);
	assert_int_equal(lathist_index(UINT64_MAX), LATHIST_TOP);
	/* Past the top is the top. */
	assert_true(lathist_high(LATHIST_TOP + 5) == UINT64_MAX);
}

/* Every power of two and its neighbours: in the bucket they index. */
static void
test_index_values(void **state)
{
	uint64_t	v, d;
	unsigned	e, i;

	(void)state;
	for (e = 0; e < 64; e++)
		for (d = 0; d < 3; d++) {
			v = (UINT64_C(1) << e) - 1 + d;
			i = lathist_index(v);
			if (i >= LATHIST_NBUCKETS || v < lathist_low(i) ||
			    v > lathist_high(i))
				fail_msg("%" PRIu64 " indexes %u", v, i);
		}
	assert_int_equal(lathist_index(31), 31);
	assert_int_equal(lathist_index(32), 32);
	assert_int_equal(lathist_index(64), 64);
	assert_int_equal(lathist_index(65), 64);
	assert_int_equal(lathist_index(66), 65);
	assert_true(lathist_low(lathist_index(1000000)) == 999424);
	assert_true(lathist_high(lathist_index(1000000)) == 1015807);
}

/* 1 .. 1000 us, added from the top down. */
static void
test_uniform_us(void **state)
{
	struct lathist	h;
	uint64_t	v[1000], n = 0;
	unsigned	i;

	(void)state;
	lathist_init(&h);
	for (i = 1000; i >= 1; i--) {
		v[i - 1] = (uint64_t)i * 1000;
		lathist_add(&h, v[i - 1]);
	}
	assert_int_equal(h.count, 1000);
	assert_int_equal(h.min, 1000);
	assert_int_equal(h.max, 1000000);
	assert_int_equal(h.overflow, 0);
	assert_true(lathist_mean(&h) == 500500);
	check_percentiles(&h, v, 1000, "1..1000 us");
	/* The rank's ceiling: 99.9 of 1000 is the 999th, 50 the 500th. */
	assert_within(lathist_percentile(&h, 99.9), 999000, "P99.9", 99.9);
	assert_true(lathist_percentile(&h, 99.9) < 1000000);
	assert_within(lathist_percentile(&h, 50), 500000, "P50", 50);
	assert_true(lathist_percentile(&h, 50.05) >= 501000);
	/* The buckets, walked: all the samples, no empty one. */
	for (i = 0; lathist_next(&h, &i); i++) {
		assert_true(h.buckets[i] != 0);
		n += h.buckets[i];
	}
	/* Left one past the last, the bucket of 1 ms. */
	assert_int_equal(i, lathist_index(1000000) + 1);
	assert_int_equal(n, 1000);
}

static void
test_lcg_tail(void **state)
{
	struct lathist	h;
	uint64_t	*v, lo = 0, hi = 0;
	size_t		i;

	(void)state;
	v = lcg_samples();
	lathist_init(&h);
	for (i = 0; i < NLCG; i++) {
		lathist_add(&h, v[i]);
		lo += v[i];
		hi += lo < v[i];
	}
	assert_int_equal(h.count, NLCG);
	assert_true(h.sum_lo == lo && h.sum_hi == hi);
	assert_true(fabs(lathist_mean(&h) - (double)lo / NLCG) <
	    1e-9 * lathist_mean(&h));
	check_percentiles(&h, v, NLCG, "long tail");
	/* A tail that is one: P99.99 well over 100 times P50. */
	assert_true(lathist_percentile(&h, 99.99) >
	    100 * lathist_percentile(&h, 50));
	free(v);
}

static void
assert_same(const struct lathist *a, const struct lathist *b)
{
	unsigned	i;
	size_t		p;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum_lo, b->sum_lo);
	assert_int_equal(a->sum_hi, b->sum_hi);
	assert_int_equal(a->overflow, b->overflow);
	for (i = 0; i < LATHIST_NBUCKETS; i++)
		if (a->buckets[i] != b->buckets[i])
			fail_msg("bucket %u: %" PRIu64 " and %" PRIu64, i,
			    a->buckets[i], b->buckets[i]);
	for (p = 0; p < NPCTS; p++)
		assert_int_equal(lathist_percentile(a, pcts[p].pct),
		    lathist_percentile(b, pcts[p].pct));
}

/* Halves as they come, then sorted halves: min and max from each side. */
static void
test_merge(void **state)
{
	struct lathist	whole, a, b, c, empty;
	uint64_t	*v;
	size_t		i, split;
	int		pass;

	(void)state;
	v = lcg_samples();
	lathist_init(&empty);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			qsort(v, NLCG, sizeof(*v), cmp_u64);
		lathist_init(&whole);
		lathist_init(&a);
		lathist_init(&b);
		lathist_add(&b, UINT64_MAX);
		lathist_add(&whole, UINT64_MAX);
		split = NLCG / 3;
		for (i = 0; i < NLCG; i++) {
			lathist_add(&whole, v[i]);
			lathist_add(i < split ? &a : &b, v[i]);
		}
		c = b;
		lathist_merge(&c, &a);
		assert_same(&c, &whole);
		lathist_merge(&a, &b);
		assert_same(&a, &whole);
		lathist_merge(&a, &empty);
		assert_same(&a, &whole);
		c = empty;
		lathist_merge(&c, &whole);
		assert_same(&c, &whole);
	}
	assert_int_equal(whole.overflow, 1);
	assert_true(whole.max == UINT64_MAX);
	free(v);
}

static void
test_small(void **state)
{
	struct lathist	h;

	(void)state;
	lathist_init(&h);
	lathist_add(&h, 0);
	assert_int_equal(h.buckets[0], 1);
	assert_int_equal(lathist_percentile(&h, 0), 0);
	assert_int_equal(lathist_percentile(&h, 100), 0);
	assert_true(lathist_mean(&h) == 0);
	lathist_add(&h, 1);
	assert_int_equal(h.buckets[1], 1);
	assert_int_equal(h.min, 0);
	assert_int_equal(h.max, 1);
	assert_int_equal(lathist_percentile(&h, 50), 0);
	assert_int_equal(lathist_percentile(&h, 50.1), 1);
	assert_true(lathist_mean(&h) == 0.5);
	/* Exact below 64 ns: 63 is its own bucket, 62 too. */
	lathist_add(&h, 63);
	lathist_add(&h, 62);
	assert_int_equal(lathist_percentile(&h, 75), 62);
	assert_int_equal(lathist_percentile(&h, 100), 63);
	/* Clamped: below 0 and NaN are P0, above 100 is P100. */
	assert_int_equal(lathist_percentile(&h, -5), 0);
	assert_int_equal(lathist_percentile(&h, NAN), 0);
	assert_int_equal(lathist_percentile(&h, 150), 63);
	assert_int_equal(lathist_percentile(&h, INFINITY), 63);
}

/* UINT64_MAX: overflowed, counted, the max exact, the sum carried. */
static void
test_huge(void **state)
{
	struct lathist	h;

	(void)state;
	lathist_init(&h);
	lathist_add(&h, UINT64_MAX);
	assert_int_equal(h.overflow, 1);
	assert_int_equal(h.buckets[LATHIST_TOP], 1);
	assert_true(h.min == UINT64_MAX && h.max == UINT64_MAX);
	assert_true(lathist_percentile(&h, 0) == UINT64_MAX);
	assert_true(lathist_percentile(&h, 100) == UINT64_MAX);
	lathist_add(&h, UINT64_MAX);
	assert_true(h.sum_hi == 1 && h.sum_lo == UINT64_MAX - 1);
	assert_true(lathist_mean(&h) == ldexp(1, 64));
	lathist_add(&h, 5);
	lathist_add(&h, LATHIST_LIMIT_NS);
	lathist_add(&h, LATHIST_LIMIT_NS - 1);
	assert_int_equal(h.overflow, 3);
	assert_int_equal(h.buckets[LATHIST_TOP], 3);
	assert_int_equal(h.buckets[LATHIST_TOP - 1], 1);
	assert_int_equal(lathist_percentile(&h, 20), 5);
	/* The 2nd of 5 is 2^40 - 1: its bucket's high, not above. */
	assert_true(lathist_percentile(&h, 40) == LATHIST_LIMIT_NS - 1);
	/* The 3rd, 2^40, is in the overflow: the max stands for it. */
	assert_true(lathist_percentile(&h, 60) == UINT64_MAX);
	assert_true(lathist_percentile(&h, 100) == UINT64_MAX);
}

static void
test_empty(void **state)
{
	struct lathist	h;
	unsigned	i = 0;

	(void)state;
	lathist_init(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(lathist_percentile(&h, 0), 0);
	assert_int_equal(lathist_percentile(&h, 50), 0);
	assert_int_equal(lathist_percentile(&h, 100), 0);
	assert_true(lathist_mean(&h) == 0);
	assert_int_equal(lathist_next(&h, &i), 0);
	assert_int_equal(i, 0);
}

/* Fixed, small enough to copy in a result, and copied with "=". */
static void
test_size(void **state)
{
	struct lathist	h, copy;

	(void)state;
	assert_true(sizeof(struct lathist) <= LATHIST_SIZE_MAX);
	assert_int_equal(sizeof(struct lathist),
	    (6 + LATHIST_NBUCKETS) * sizeof(uint64_t));
	lathist_init(&h);
	lathist_add(&h, 12345);
	copy = h;
	assert_int_equal(lathist_percentile(&copy, 50), 12345);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_index_values),
		cmocka_unit_test(test_uniform_us),
		cmocka_unit_test(test_lcg_tail),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_huge),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
