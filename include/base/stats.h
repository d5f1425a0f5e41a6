/*
 * stats.h: statistics of repeated runs: mean, standard deviation (n-1),
 * min, max and a two-sided Student t confidence interval of the mean.
 * Pure.
 */
#ifndef GB_STATS_H
#define GB_STATS_H

struct stats {
	unsigned	n;
	double		mean;
	double		sd;		/* sample standard deviation, 0 if n < 2 */
	double		min;
	double		max;
	double		level;		/* e.g. 0.95 */
	double		ci_half;	/* t(level, n-1) * sd / sqrt(n); 0 if n < 2 */
	double		ci_lo;		/* mean - ci_half */
	double		ci_hi;
};

/* Online accumulation (Welford), then the summary. */
struct stats_acc {
	unsigned	n;
	double		mean;
	double		m2;
	double		min;
	double		max;
};

void	stats_init(struct stats_acc *);
void	stats_add(struct stats_acc *, double);
void	stats_summary(const struct stats_acc *, double level, struct stats *);
/* Two-sided Student t quantile: P(|T| <= t) = level with df degrees. */
double	stats_t_quantile(unsigned df, double level);
/* Is the interval within width_pct % of the mean (half width / mean)? */
int	stats_ci_within(const struct stats *, double width_pct);

#endif /* GB_STATS_H */
