/*
 * lathist.c: the latency histogram (lathist.h).
 *
 * A value v >= 2^SUB with its highest bit at e (2^e <= v < 2^(e+1))
 * is in range e, and its SUB bits below the highest pick the bucket
 * inside the range: m = (v >> (e - SUB)) & (2^SUB - 1).  Range e's
 * buckets start at index (e - SUB + 1) * 2^SUB, so the ranges follow
 * the 2^SUB exact buckets of 0 .. 2^SUB - 1 without a gap, and the
 * index is a count of leading zeros, a shift, a mask and an add: no
 * division, no floating point, no loop.  Backwards, bucket i >= 2^SUB
 * has shift i / 2^SUB - 1 (= e - SUB) and starts at
 * (2^SUB + i % 2^SUB) << shift.
 *
 * The sum is kept as two 64-bit words with the carry done by hand (C11
 * has no 128-bit type), so the mean stays exact to the last ns however
 * many samples, and merging is plain addition.
 *
 * Pure: no I/O, no allocation, no state outside the caller's struct.
 */

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/lathist.h"

#define LATHIST_SUB_MASK	(LATHIST_SUB_COUNT - 1)
/* How much lower the rank's product is taken (lathist.h). */
#define LATHIST_RANK_SLACK	1e-12

/* The index of v's highest set bit; v > 0. */
static unsigned
lathist_log2(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

unsigned
lathist_index(uint64_t ns)
{
	unsigned	e;

	if (ns < LATHIST_SUB_COUNT)
		return (unsigned)ns;
	if (ns >= LATHIST_LIMIT_NS)
		return LATHIST_TOP;
	e = lathist_log2(ns);
	return (e - LATHIST_SUB_BITS + 1) * LATHIST_SUB_COUNT +
	    (unsigned)((ns >> (e - LATHIST_SUB_BITS)) & LATHIST_SUB_MASK);
}

uint64_t
lathist_low(unsigned idx)
{
	unsigned	shift;

	if (idx < LATHIST_SUB_COUNT)
		return idx;
	if (idx >= LATHIST_TOP)
		return LATHIST_LIMIT_NS;
	shift = idx / LATHIST_SUB_COUNT - 1;
	return (uint64_t)(LATHIST_SUB_COUNT + (idx & LATHIST_SUB_MASK)) <<
	    shift;
}

/* Each bucket ends where the next begins; the top one at UINT64_MAX. */
uint64_t
lathist_high(unsigned idx)
{
	if (idx >= LATHIST_TOP)
		return UINT64_MAX;
	return lathist_low(idx + 1) - 1;
}

void
lathist_init(struct lathist *h)
{
	memset(h, 0, sizeof(*h));
}

static void
lathist_sum_add(struct lathist *h, uint64_t lo, uint64_t hi)
{
	h->sum_lo += lo;
	h->sum_hi += hi + (h->sum_lo < lo);
}

void
lathist_add(struct lathist *h, uint64_t ns)
{
	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (h->count == 0 || ns > h->max)
		h->max = ns;
	h->count++;
	lathist_sum_add(h, ns, 0);
	if (ns >= LATHIST_LIMIT_NS)
		h->overflow++;
	h->buckets[lathist_index(ns)]++;
}

void
lathist_merge(struct lathist *dst, const struct lathist *src)
{
	unsigned	i;

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	lathist_sum_add(dst, src->sum_lo, src->sum_hi);
	dst->overflow += src->overflow;
	for (i = 0; i < LATHIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

/* The nearest rank of pct among n > 0 samples: 1 .. n (lathist.h). */
static uint64_t
lathist_rank(uint64_t n, double pct)
{
	double	x;

	if (!(pct > 0))			/* NaN too */
		return 1;
	if (pct >= 100)
		return n;
	x = ceil(pct / 100 * (double)n * (1 - LATHIST_RANK_SLACK));
	/* (double)n may round n up: x >= it also catches x >= 2^64. */
	if (x >= (double)n)
		return n;
	return x < 1 ? 1 : (uint64_t)x;
}

uint64_t
lathist_percentile(const struct lathist *h, double pct)
{
	uint64_t	r, seen = 0, high;
	unsigned	i;

	if (h->count == 0)
		return 0;
	r = lathist_rank(h->count, pct);
	if (r == 1)
		return h->min;
	for (i = 0; i < LATHIST_TOP; i++) {
		seen += h->buckets[i];
		if (seen >= r)
			break;
	}
	/* Not reached by the loop: the r-th sample is in the overflow. */
	high = lathist_high(i);
	return high < h->max ? high : h->max;
}

double
lathist_mean(const struct lathist *h)
{
	if (h->count == 0)
		return 0;
	return (ldexp((double)h->sum_hi, 64) + (double)h->sum_lo) /
	    (double)h->count;
}

double
lathist_trimmed_mean(const struct lathist *h, unsigned keep_pct)
{
	uint64_t keep, taken = 0, t, lo, hi;
	double sum = 0, mid;
	unsigned i;

	if (h->count == 0)
		return 0;
	keep_pct = keep_pct < 1 ? 1 : keep_pct > 100 ? 100 : keep_pct;
	/* ceil(count x pct / 100), count = 100q + r: no overflow. */
	keep = h->count / 100 * keep_pct + (h->count % 100 * keep_pct + 99) /
	    100;
	for (i = 0; i <= LATHIST_TOP && taken < keep; i++) {
		if (h->buckets[i] == 0)
			continue;
		t = h->buckets[i] < keep - taken ? h->buckets[i] : keep - taken;
		lo = lathist_low(i) > h->min ? lathist_low(i) : h->min;
		hi = i == LATHIST_TOP || lathist_high(i) > h->max ? h->max :
		    lathist_high(i);
		mid = lo > hi ? (double)hi : ((double)lo + (double)hi) / 2;
		sum += (double)t * mid;
		taken += t;
	}
	return sum / (double)keep;
}

int
lathist_next(const struct lathist *h, unsigned *idx)
{
	unsigned	i;

	for (i = *idx; i < LATHIST_NBUCKETS; i++)
		if (h->buckets[i] != 0) {
			*idx = i;
			return 1;
		}
	return 0;
}
