/*
 * lathist.h: a latency histogram of durations in nanoseconds, for the
 * request/response tests: log-linear buckets (as HdrHistogram's), so
 * memory is bounded and fixed, no sample is stored, two histograms
 * merge by adding their counts, and every figure taken from it has a
 * stated resolution.
 *
 * Buckets.  Values 0 .. 2^LATHIST_SUB_BITS - 1 ns have a bucket each.
 * Above, each power-of-two range [2^e, 2^(e+1)) is cut into
 * 2^LATHIST_SUB_BITS buckets of equal width 2^(e - LATHIST_SUB_BITS),
 * up to 2^LATHIST_MAX_EXP ns (LATHIST_LIMIT_NS, about 18 minutes); the
 * last bucket holds everything from there to UINT64_MAX and counts it
 * in overflow too.  So the buckets below 64 ns are one ns wide (exact),
 * and a bucket above is at most 1/32 (3.125 %) of its low bound wide.  Both
 * bounds of a bucket are inclusive: lathist_low(i) <= v <=
 * lathist_high(i) for every v with lathist_index(v) == i, and
 * lathist_high(i) + 1 == lathist_low(i + 1).
 *
 * Why 5 bits and not 6: on a real network a request/response latency
 * usually moves by more than 3 % from one run to the next, so finer
 * buckets would mostly report noise more precisely, and they would
 * double the struct (to 18 KiB), which is to sit in a result per stream
 * and be copied whole.
 *
 * Pure and fixed-size: no I/O, no allocation, no floating point but in
 * lathist_percentile's rank and lathist_mean.  The struct has no
 * pointers and may be copied with "=".
 */
#ifndef GB_LATHIST_H
#define GB_LATHIST_H

#include <stdint.h>

#define LATHIST_SUB_BITS	5	/* resolution 1 / 2^5 = 3.125 % */
#define LATHIST_SUB_COUNT	(1u << LATHIST_SUB_BITS)
#define LATHIST_MAX_EXP		40	/* buckets cover [0, 2^40) ns */
#define LATHIST_LIMIT_NS	(UINT64_C(1) << LATHIST_MAX_EXP)
/*
 * Buckets 0 .. LATHIST_TOP - 1: 2^SUB one ns wide, then 2^SUB for each
 * power of two from 2^SUB to 2^(MAX_EXP - 1); LATHIST_TOP: overflow.
 */
#define LATHIST_TOP		\
	((LATHIST_MAX_EXP - LATHIST_SUB_BITS + 1) * LATHIST_SUB_COUNT)
#define LATHIST_NBUCKETS	(LATHIST_TOP + 1)
/* What sizeof(struct lathist) stays under (9,272 bytes with 5 bits). */
#define LATHIST_SIZE_MAX	(10u * 1024)

struct lathist {
	uint64_t	count;		/* samples */
	uint64_t	min;		/* exact, ns; 0 when empty */
	uint64_t	max;		/* exact, ns; 0 when empty */
	/*
	 * The sum of the samples, exact: a 128-bit unsigned integer,
	 * sum_hi * 2^64 + sum_lo, which holds 2^64 samples of UINT64_MAX.
	 */
	uint64_t	sum_lo;
	uint64_t	sum_hi;
	uint64_t	overflow;	/* samples >= LATHIST_LIMIT_NS */
	uint64_t	buckets[LATHIST_NBUCKETS];
};

void		lathist_init(struct lathist *);
/* One sample: O(1), a count of leading zeros and a few shifts. */
void		lathist_add(struct lathist *, uint64_t ns);
/* Adds src's samples to dst's, as if each had been added to dst. */
void		lathist_merge(struct lathist *dst, const struct lathist *src);

/*
 * The bucket of a value, and the lowest and highest value of a bucket
 * (both inclusive).  lathist_high(LATHIST_TOP) is UINT64_MAX; an index
 * past LATHIST_TOP is taken as LATHIST_TOP.
 */
unsigned	lathist_index(uint64_t ns);
uint64_t	lathist_low(unsigned idx);
uint64_t	lathist_high(unsigned idx);

/*
 * The pct-th percentile by the nearest-rank method.  With n samples,
 * the rank is r = ceil(pct / 100 * n), at least 1 (so 99.9 of 1000 is
 * 999, 50 of 3 is 2); the double product is taken 1e-12 of itself lower
 * before the ceiling, so that the rounding of a decimal pct (99.9 is
 * 99.900000000000006) cannot push r one up.  Let s be the r-th smallest
 * sample and b its bucket, the first at which the bucket counts, added
 * from bucket 0 up, reach r.  The result is min when r == 1, else
 * lathist_high(b) or max, whichever is lower.  So P0 is min and P100
 * is max, exactly, and below LATHIST_LIMIT_NS
 *
 *	s <= result <= s + s / 2^LATHIST_SUB_BITS	(3.125 % over at most)
 *
 * with result == s when s < 2 * LATHIST_SUB_COUNT (64 ns).  When s is
 * in the overflow bucket the result is max, which is >= s.
 *
 * pct is clamped: below 0 (and NaN) is 0, above 100 is 100.  0 when the
 * histogram is empty.
 */
uint64_t	lathist_percentile(const struct lathist *, double pct);
/* The mean of the samples, ns; 0 when empty. */
double		lathist_mean(const struct lathist *);
/*
 * The single-sided trimmed mean of the responsiveness draft (rpm.h):
 * the mean of the lowest ceil(count x keep_pct / 100) samples, each
 * taken at the middle of its bucket held within [min, max] (the
 * overflow bucket's at max), so within a bucket's width (3.125 %) of
 * the exact one.  keep_pct is clamped to 1-100; 0 when empty.
 */
double		lathist_trimmed_mean(const struct lathist *, unsigned keep_pct);
/*
 * The non-empty buckets, in order: the first index at or above *idx
 * whose bucket is not empty goes into *idx and 1 is returned; 0 when
 * there is none.  for (i = 0; lathist_next(h, &i); i++) ...
 */
int		lathist_next(const struct lathist *, unsigned *idx);

#endif /* GB_LATHIST_H */
