/*
 * stats.c: the statistics of repeated runs of one sweep point: mean,
 * sample standard deviation, min, max and a two-sided Student t
 * confidence interval of the mean.
 *
 * Runs are accumulated one at a time with Welford's update (B. P.
 * Welford, "Note on a method for calculating corrected sums of squares
 * and products", Technometrics 4(3), 1962; D. E. Knuth, TAoCP vol. 2,
 * 3rd ed., p. 232), which stays exact where the textbook sum of squares
 * cancels: ten runs of 1e9 + small differences lose nothing.
 *
 * The t quantile is found by bisection on the t distribution's CDF,
 * computed through the regularized incomplete beta function and its
 * continued fraction (Numerical Recipes in C, 2nd ed., sections 6.1 and
 * 6.4, evaluated with the modified Lentz method).  No table, so any
 * level and any number of degrees of freedom is right to ~1e-12.
 *
 * Pure arithmetic: no I/O, no state beyond the caller's structs.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "base/stats.h"

#define STATS_CF_EPS	1e-15	/* relative change that ends it */
#define STATS_CF_TINY	1e-300	/* keeps Lentz's divisions finite */
#define STATS_CF_MAXIT	100000	/* O(sqrt(df)) are needed */
#define STATS_BISECT_IT	200

static double	stats_betacf(double, double, double);
static double	stats_betai(double, double, double);
static double	stats_t_two_sided(double, double);

void
stats_init(struct stats_acc *a)
{
	memset(a, 0, sizeof(*a));
}

void
stats_add(struct stats_acc *a, double x)
{
	double	d;

	if (a->n == 0 || x < a->min)
		a->min = x;
	if (a->n == 0 || x > a->max)
		a->max = x;
	a->n++;
	d = x - a->mean;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);	/* the new mean, on purpose */
}

void
stats_summary(const struct stats_acc *a, double level, struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->n = a->n;
	s->level = level;
	if (a->n == 0)
		return;
	s->mean = a->mean;
	s->min = a->min;
	s->max = a->max;
	s->ci_lo = s->ci_hi = a->mean;
	if (a->n < 2)
		return;
	/* Rounding can leave m2 a hair below 0 for identical values. */
	s->sd = a->m2 > 0 ? sqrt(a->m2 / (a->n - 1)) : 0;
	s->ci_half = stats_t_quantile(a->n - 1, level) * s->sd / sqrt(a->n);
	s->ci_lo = s->mean - s->ci_half;
	s->ci_hi = s->mean + s->ci_half;
}

/* The continued fraction of I_x(a, b) (NR 6.4), by modified Lentz. */
static double
stats_betacf(double a, double b, double x)
{
	double	c, d, h, aa, del;
	int	m, m2;

	c = 1;
	d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < STATS_CF_TINY)
		d = STATS_CF_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= STATS_CF_MAXIT; m++) {
		m2 = 2 * m;
		/* The even step d_2m, then the odd step d_2m+1. */
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < STATS_CF_TINY)
			d = STATS_CF_TINY;
		c = 1 + aa / c;
		if (fabs(c) < STATS_CF_TINY)
			c = STATS_CF_TINY;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		if (fabs(d) < STATS_CF_TINY)
			d = STATS_CF_TINY;
		c = 1 + aa / c;
		if (fabs(c) < STATS_CF_TINY)
			c = STATS_CF_TINY;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < STATS_CF_EPS)
			break;
	}
	return h;
}

/*
 * The regularized incomplete beta function I_x(a, b) (NR 6.4): the
 * fraction converges fast for x < (a + 1) / (a + b + 2), and the
 * symmetry I_x(a, b) = 1 - I_1-x(b, a) covers the rest.
 */
static double
stats_betai(double a, double b, double x)
{
	double	bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * stats_betacf(a, b, x) / a;
	return 1 - bt * stats_betacf(b, a, 1 - x) / b;
}

/* P(|T| <= t) with df degrees: 1 - I_{df/(df+t^2)}(df/2, 1/2) (NR 6.4). */
static double
stats_t_two_sided(double t, double df)
{
	return 1 - stats_betai(df / 2, 0.5, df / (df + t * t));
}

/*
 * The t with P(|T| <= t) = level.  The CDF rises monotonically in t, so
 * double an upper bound until it is past the level, then halve the
 * bracket until it is as narrow as a double can say.  NaN for df == 0 or
 * a level outside (0, 1).
 */
double
stats_t_quantile(unsigned df, double level)
{
	double	lo = 0, hi = 1, mid;
	int	i;

	if (df == 0 || !(level > 0 && level < 1))
		return NAN;
	while (stats_t_two_sided(hi, df) < level) {
		lo = hi;
		hi *= 2;
		if (hi > 1e300)
			return INFINITY;
	}
	for (i = 0; i < STATS_BISECT_IT && hi - lo > DBL_EPSILON * hi; i++) {
		mid = lo + (hi - lo) / 2;
		if (stats_t_two_sided(mid, df) < level)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* A zero mean has no relative width: only an exact zero interval is in. */
int
stats_ci_within(const struct stats *s, double width_pct)
{
	if (s->n < 2)
		return 0;
	return s->ci_half <= width_pct / 100 * fabs(s->mean);
}
