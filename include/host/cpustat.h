/*
 * cpustat.h: /proc/stat, the host's CPU time in ticks, all CPUs and each
 * CPU.  cpustat_parse() is pure (a FILE * in, a struct out); cpustat_read()
 * opens PROCFS/stat; cpustat_diff() turns two samples into percentages.
 * The caller keeps the previous sample.
 */
#ifndef GB_CPUSTAT_H
#define GB_CPUSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/result.h"

#define CPUSTAT_MAX_CPUS	GB_MAX_CPUS	/* cpuN lines above: skipped */

/* One "cpu" line; columns an old kernel does not print stay 0. */
struct cpustat_ticks {
	uint64_t	user;
	uint64_t	nice;
	uint64_t	system;
	uint64_t	idle;
	uint64_t	iowait;		/* 2.6 and later */
	uint64_t	irq;
	uint64_t	softirq;
	uint64_t	steal;		/* 2.6.11 and later */
};

struct cpustat_cpu {
	int			id;	/* N of "cpuN" */
	struct cpustat_ticks	ticks;
};

struct cpustat {
	int			 has;	/* the aggregate "cpu" line was read */
	struct cpustat_ticks	 total;
	size_t			 ncpus;	/* entries in cpu[], ids ascending */
	struct cpustat_cpu	*cpu;
	size_t			 cap;	/* allocated entries */
};

void	cpustat_init(struct cpustat *);
void	cpustat_free(struct cpustat *);
/*
 * 0 when the aggregate line was read (has = 1).  -1 otherwise, with a
 * reason in err and has = 0; errno is ENOMEM when memory ran out, so that
 * the caller can tell "unavailable" from "out of memory".  Malformed cpuN
 * lines are skipped.  The struct must be initialized and may be reused.
 */
int	cpustat_parse(FILE *, struct cpustat *, char *err, size_t errlen);
/* Open PROCFS/stat and parse it; errno is fopen()'s on a missing file. */
int	cpustat_read(const char *procfs, struct cpustat *,
	    char *err, size_t errlen);
/*
 * Percent of one line's time (a cpuN line, or the aggregate) between two
 * samples of it: busy, user, sys, irq and softirq; has = 0 when no tick
 * passed.  The CPU fields (ncpus, max_cpu) are left 0.  Pure.
 */
void	cpustat_ticks_diff(const struct cpustat_ticks *before,
	    const struct cpustat_ticks *after, struct gb_host_cpu *);
/*
 * Percent of all CPUs' time between two samples.  has = 0 when either
 * sample lacks the aggregate line or no tick passed.  Pure.
 */
void	cpustat_diff(const struct cpustat *before,
	    const struct cpustat *after, struct gb_host_cpu *);

#endif /* GB_CPUSTAT_H */
