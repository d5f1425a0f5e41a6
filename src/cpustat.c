/*
 * cpustat.c: parse /proc/stat and compute the host's CPU load between two
 * samples.
 *
 * This file owns the "cpu" and "cpuN" lines of /proc/stat and nothing
 * else: it does not keep a previous sample (the caller does), it does not
 * read the clock, and it never exits or prints.  Every number is range
 * checked; a malformed cpuN line is skipped, a malformed or missing
 * aggregate line makes the sample unavailable, and no input can make the
 * diff divide by zero or produce NaN.
 */

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cpustat.h"

/*
 * The cpu lines are short (ten 20-digit numbers at most), but the "intr"
 * line of a large machine runs to many kilobytes; lines longer than this
 * are drained and skipped, which only ever drops lines we do not want.
 */
#define CPUSTAT_LINE_MAX	1024
#define CPUSTAT_NFIELDS		8
#define CPUSTAT_MIN_FIELDS	4	/* 2.4: user nice system idle */

static int	cpustat_getline(FILE *, char *, size_t);
static int	cpustat_number(const char **, uint64_t *);
static int	cpustat_parse_line(const char *, int *,
		    struct cpustat_ticks *);
static int	cpustat_add_cpu(struct cpustat *, int,
		    const struct cpustat_ticks *);
static uint64_t	cpustat_delta(uint64_t, uint64_t);
static void	cpustat_ticks_delta(const struct cpustat_ticks *,
		    const struct cpustat_ticks *, struct cpustat_ticks *);
static double	cpustat_ticks_all(const struct cpustat_ticks *);
static double	cpustat_ticks_busy(const struct cpustat_ticks *);
static void	cpustat_diff_cpus(const struct cpustat *,
		    const struct cpustat *, struct gb_host_cpu *);

void
cpustat_init(struct cpustat *cs)
{
	memset(cs, 0, sizeof(*cs));
}

void
cpustat_free(struct cpustat *cs)
{
	free(cs->cpu);
	cpustat_init(cs);
}

/*
 * Read one line into buf.  Returns 1 for a line, 0 at end of file and -1
 * for a line that did not fit (the rest of it is consumed).
 */
static int
cpustat_getline(FILE *fp, char *buf, size_t len)
{
	size_t	n;
	int	c;

	if (fgets(buf, (int)len, fp) == NULL)
		return 0;
	n = strlen(buf);
	if (n > 0 && buf[n - 1] == '\n')
		return 1;
	if (feof(fp))
		return 1;	/* last line without a newline */
	while ((c = getc(fp)) != EOF && c != '\n')
		continue;
	return -1;
}

/*
 * Parse one decimal number at *pp.  Returns 1 and advances *pp, 0 when
 * there is no number (end of the columns), -1 when the text is not a
 * number or does not fit in 64 bits.
 */
static int
cpustat_number(const char **pp, uint64_t *v)
{
	const char		*p = *pp;
	char			*end;
	unsigned long long	 ull;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n')
		return 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	ull = strtoull(p, &end, 10);
	if (errno == ERANGE)
		return -1;
	if (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\0')
		return -1;
	*v = ull;
	*pp = end;
	return 1;
}

/*
 * Parse "cpu  1 2 3 4 ..." (id -1) or "cpuN 1 2 3 4 ...".  Columns after
 * steal (guest, guest_nice) are ignored on purpose: the kernel already
 * counts guest time inside user and nice.  Returns 0 or -1 (not a cpu
 * line, or malformed).
 */
static int
cpustat_parse_line(const char *line, int *id, struct cpustat_ticks *t)
{
	uint64_t	*field[CPUSTAT_NFIELDS] = {
		&t->user, &t->nice, &t->system, &t->idle,
		&t->iowait, &t->irq, &t->softirq, &t->steal
	};
	const char	*p;
	long		 n;
	char		*end;
	int		 i, r;

	if (strncmp(line, "cpu", 3) != 0)
		return -1;
	p = line + 3;
	if (*p == ' ' || *p == '\t')
		*id = -1;
	else {
		if (!isdigit((unsigned char)*p))
			return -1;	/* "cpufreq" or garbage */
		errno = 0;
		n = strtol(p, &end, 10);
		if (errno != 0 || n >= CPUSTAT_MAX_CPUS ||
		    (*end != ' ' && *end != '\t'))
			return -1;
		*id = (int)n;
		p = end;
	}
	memset(t, 0, sizeof(*t));
	for (i = 0; i < CPUSTAT_NFIELDS; i++) {
		if ((r = cpustat_number(&p, field[i])) < 0)
			return -1;
		if (r == 0)
			break;
	}
	return i < CPUSTAT_MIN_FIELDS ? -1 : 0;
}

/* Append one CPU; ids must ascend, as the kernel prints them. */
static int
cpustat_add_cpu(struct cpustat *cs, int id, const struct cpustat_ticks *t)
{
	struct cpustat_cpu	*cpu;
	size_t			 cap;

	if (cs->ncpus > 0 && id <= cs->cpu[cs->ncpus - 1].id)
		return 0;	/* duplicate or out of order: skip */
	if (cs->ncpus == cs->cap) {
		cap = cs->cap == 0 ? 8 : cs->cap * 2;
		if ((cpu = reallocarray(cs->cpu, cap, sizeof(*cpu))) == NULL)
			return -1;
		cs->cpu = cpu;
		cs->cap = cap;
	}
	cs->cpu[cs->ncpus].id = id;
	cs->cpu[cs->ncpus].ticks = *t;
	cs->ncpus++;
	return 0;
}

int
cpustat_parse(FILE *fp, struct cpustat *cs, char *err, size_t errlen)
{
	struct cpustat_ticks	 t;
	char			 line[CPUSTAT_LINE_MAX];
	int			 id, r;

	cs->has = 0;
	cs->ncpus = 0;
	memset(&cs->total, 0, sizeof(cs->total));
	while ((r = cpustat_getline(fp, line, sizeof(line))) != 0) {
		if (r < 0 || cpustat_parse_line(line, &id, &t) == -1)
			continue;
		if (id == -1) {
			if (!cs->has) {
				cs->total = t;
				cs->has = 1;
			}
		} else if (cpustat_add_cpu(cs, id, &t) == -1) {
			snprintf(err, errlen, "/proc/stat: out of memory");
			cs->has = 0;
			errno = ENOMEM;
			return -1;
		}
	}
	if (!cs->has) {
		snprintf(err, errlen, "/proc/stat: no cpu line");
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
cpustat_read(const char *procfs, struct cpustat *cs, char *err,
    size_t errlen)
{
	char	path[4096];
	FILE	*fp;
	int	r, saved;

	cs->has = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/stat", procfs) >=
	    sizeof(path)) {
		snprintf(err, errlen, "procfs root is too long: %s", procfs);
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fp = fopen(path, "re")) == NULL) {
		saved = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
		return -1;
	}
	r = cpustat_parse(fp, cs, err, errlen);
	saved = errno;
	fclose(fp);
	errno = saved;
	return r;
}

/* Counters that go backwards (CPU hotplug, the NO_HZ iowait bug) give 0. */
static uint64_t
cpustat_delta(uint64_t before, uint64_t after)
{
	return after > before ? after - before : 0;
}

static void
cpustat_ticks_delta(const struct cpustat_ticks *b,
    const struct cpustat_ticks *a, struct cpustat_ticks *d)
{
	d->user = cpustat_delta(b->user, a->user);
	d->nice = cpustat_delta(b->nice, a->nice);
	d->system = cpustat_delta(b->system, a->system);
	d->idle = cpustat_delta(b->idle, a->idle);
	d->iowait = cpustat_delta(b->iowait, a->iowait);
	d->irq = cpustat_delta(b->irq, a->irq);
	d->softirq = cpustat_delta(b->softirq, a->softirq);
	d->steal = cpustat_delta(b->steal, a->steal);
}

/* Sums in double: eight deltas near 2^64 must not wrap. */
static double
cpustat_ticks_all(const struct cpustat_ticks *d)
{
	return cpustat_ticks_busy(d) + (double)d->idle + (double)d->iowait;
}

/*
 * Busy is everything but idle and iowait.  iowait is idle time during
 * which some task waited for a disk: the CPU could have run anything, so
 * counting it as busy would blame the network test for the disk.  Steal
 * counts as busy: the guest wanted the CPU and the hypervisor gave it to
 * someone else, which limits throughput just like real work.
 */
static double
cpustat_ticks_busy(const struct cpustat_ticks *d)
{
	return (double)d->user + (double)d->nice + (double)d->system +
	    (double)d->irq + (double)d->softirq + (double)d->steal;
}

/* The busiest single CPU, matching CPUs by id (hotplug may remove some). */
static void
cpustat_diff_cpus(const struct cpustat *b, const struct cpustat *a,
    struct gb_host_cpu *out)
{
	struct cpustat_ticks	d;
	size_t			i = 0, j = 0;
	double			all, pct;

	out->ncpus = 0;
	out->max_cpu = -1;
	out->max_cpu_busy_pct = 0.0;
	while (i < b->ncpus && j < a->ncpus) {
		if (b->cpu[i].id < a->cpu[j].id) {
			i++;
			continue;
		}
		if (b->cpu[i].id > a->cpu[j].id) {
			j++;
			continue;
		}
		out->ncpus++;
		cpustat_ticks_delta(&b->cpu[i].ticks, &a->cpu[j].ticks, &d);
		if ((all = cpustat_ticks_all(&d)) > 0.0) {
			pct = 100.0 * cpustat_ticks_busy(&d) / all;
			if (out->max_cpu == -1 || pct > out->max_cpu_busy_pct) {
				out->max_cpu_busy_pct = pct;
				out->max_cpu = a->cpu[j].id;
			}
		}
		i++;
		j++;
	}
}

void
cpustat_ticks_diff(const struct cpustat_ticks *before,
    const struct cpustat_ticks *after, struct gb_host_cpu *out)
{
	struct cpustat_ticks	d;
	double			all;

	memset(out, 0, sizeof(*out));
	cpustat_ticks_delta(before, after, &d);
	if ((all = cpustat_ticks_all(&d)) <= 0.0)
		return;		/* no tick passed: no figure, not 0 % */
	out->has = 1;
	out->busy_pct = 100.0 * cpustat_ticks_busy(&d) / all;
	out->user_pct = 100.0 * ((double)d.user + (double)d.nice) / all;
	out->sys_pct = 100.0 * (double)d.system / all;
	out->irq_pct = 100.0 * (double)d.irq / all;
	out->softirq_pct = 100.0 * (double)d.softirq / all;
}

void
cpustat_diff(const struct cpustat *before, const struct cpustat *after,
    struct gb_host_cpu *out)
{
	memset(out, 0, sizeof(*out));
	out->max_cpu = -1;
	if (!before->has || !after->has)
		return;
	cpustat_ticks_diff(&before->total, &after->total, out);
	out->max_cpu = -1;
	if (!out->has)
		return;
	cpustat_diff_cpus(before, after, out);
	/*
	 * A uniprocessor kernel may print the aggregate line alone: then
	 * the one CPU is the aggregate.
	 */
	if (out->ncpus == 0 && after->ncpus <= 1) {
		out->ncpus = 1;
		out->max_cpu = after->ncpus == 1 ? after->cpu[0].id : 0;
		out->max_cpu_busy_pct = out->busy_pct;
	}
}
