/*
 * irqstat.c: parse /proc/interrupts and /proc/softirqs.
 *
 * This file owns the text layouts of those two files, from the 2.4 PowerMac
 * (" 41:     476734   OpenPIC   Level     eth0") through 2.6 IO-APIC and
 * PCI-MSI-edge lines to today's multi-queue "IR-PCI-MSI 524288-edge
 * eth0-TxRx-0", and the storage of a sample: every line with its per-CPU
 * counts.  Which lines are an interface's is irqline.c's business; this
 * file does not read sysfs, keep samples or print.  Lines it cannot parse
 * are skipped, never fatal; no input can make it read past a buffer.
 */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/irqstat.h"

/*
 * A line holds one count per CPU, "%10u " each: 8192 CPUs need about
 * 90 KB.  Longer lines are drained and skipped.
 */
#define IRQSTAT_LINE_MAX	(256 * 1024)

static int	irqstat_getline(FILE *, char *, size_t);
static int	irqstat_header(const char *, unsigned *);
static int	irqstat_counts(char **, int, uint64_t *, uint64_t *, int *);
static void	irqstat_split(const char *, struct irqstat_line *);
static int	irqstat_parse_line(char *, int, struct irqstat_line *,
		    uint64_t *);
static int	irqstat_room(struct irqstat *);
static void	irqstat_add(struct irqstat *, const struct irqstat_line *);
static void	*irqstat_shrink(void *, size_t *, size_t, size_t);
static int	irqstat_lines(FILE *, struct irqstat *, char *, char *,
		    size_t);
static FILE	*irqstat_open(const char *, const char *, char *, size_t);

void
irqstat_init(struct irqstat *is)
{
	memset(is, 0, sizeof(*is));
}

void
irqstat_free(struct irqstat *is)
{
	free(is->cpu_ids);
	free(is->lines);
	free(is->counts);
	irqstat_init(is);
}

/* 1: a line; 0: end of file; -1: too long, consumed and to be skipped. */
static int
irqstat_getline(FILE *fp, char *buf, size_t len)
{
	size_t	n;
	int	c;

	if (fgets(buf, (int)len, fp) == NULL)
		return 0;
	n = strlen(buf);
	if ((n > 0 && buf[n - 1] == '\n') || feof(fp))
		return 1;
	while ((c = getc(fp)) != EOF && c != '\n')
		continue;
	return -1;
}

/*
 * The "CPUn" columns of a header line, their numbers into ids (room for
 * IRQSTAT_MAX_CPUS); 0 when it is not one.
 */
static int
irqstat_header(const char *line, unsigned *ids)
{
	const char	*p = line;
	unsigned long	 id;
	int		 n = 0;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (strncmp(p, "CPU", 3) != 0 ||
		    !isdigit((unsigned char)p[3]))
			return 0;
		errno = 0;
		id = strtoul(p + 3, NULL, 10);
		if (errno != 0 || id > UINT_MAX)
			return 0;
		if (n < IRQSTAT_MAX_CPUS)
			ids[n++] = (unsigned)id;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
	}
	return n;
}

/*
 * Read up to max all-digit columns at *pp into vals and their sum, stopping
 * at the first other token (the chip name).  The sum saturates instead of
 * wrapping.  Returns -1 on a number above 2^64.
 */
static int
irqstat_counts(char **pp, int max, uint64_t *vals, uint64_t *total, int *n)
{
	unsigned long long	 v;
	char			*p, *end;

	*total = 0;
	for (*n = 0; *n < max; (*n)++) {
		for (p = *pp; *p == ' ' || *p == '\t'; p++)
			continue;
		if (!isdigit((unsigned char)*p))
			break;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (*end != ' ' && *end != '\t' && *end != '\n' &&
		    *end != '\0')
			break;	/* "524288-edge": not a count */
		if (errno == ERANGE)
			return -1;
		vals[*n] = v;
		*total = v > UINT64_MAX - *total ? UINT64_MAX : *total + v;
		*pp = end;	/* the blanks after it belong to the text */
	}
	return 0;
}

/*
 * Split the text after the counts, "   IO-APIC-fasteoi   uhci_hcd:usb3,
 * eth3", into chip and actions.  Every kernel since 2.4 prints at least
 * two blanks before the action list and joins names with ", ", so the list
 * starts after the last run of two or more blanks: "PCIe PME, aerdrv"
 * keeps its space, and a line without a chip column (2.4 sparc: the name
 * right after the counts) still has its action.  Arch lines give their
 * description ("Non-maskable interrupts") as the action; it names no
 * interface.
 */
static void
irqstat_split(const char *rest, struct irqstat_line *l)
{
	const char	*act = "", *chip = rest, *chip_end = NULL, *q;

	for (q = rest; *q != '\0'; q++) {
		if (isblank((unsigned char)q[0]) &&
		    isblank((unsigned char)q[1])) {
			chip_end = q;
			while (isblank((unsigned char)*q))
				q++;
			act = q;
			if (*q == '\0')
				break;
		}
	}
	while (isblank((unsigned char)*chip))
		chip++;
	if (chip_end == NULL)
		chip_end = chip + strlen(chip);	/* no action column */
	if (chip_end < chip)
		chip_end = chip;		/* the run was the leading one */
	snprintf(l->chip, sizeof(l->chip), "%.*s", (int)(chip_end - chip),
	    chip);
	snprintf(l->actions, sizeof(l->actions), "%s", act);
}

/*
 * Parse " 41:     476734   OpenPIC   Level     eth0", the counts into vals
 * (room for ncpus).  0 or -1.
 */
static int
irqstat_parse_line(char *line, int ncpus, struct irqstat_line *l,
    uint64_t *vals)
{
	char	*p = line, *colon, *end;

	while (isblank((unsigned char)*p))
		p++;
	if ((colon = strchr(p, ':')) == NULL || colon == p ||
	    (size_t)(colon - p) >= sizeof(l->name))
		return -1;
	for (end = p; end < colon; end++)
		if (isspace((unsigned char)*end))
			return -1;
	memcpy(l->name, p, (size_t)(colon - p));
	l->name[colon - p] = '\0';
	p = colon + 1;
	if (irqstat_counts(&p, ncpus, vals, &l->total, &l->ncounts) == -1 ||
	    l->ncounts == 0)
		return -1;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	irqstat_split(p, l);
	return 0;
}

/* Room for one more line and its counts.  -1 when memory ran out. */
static int
irqstat_room(struct irqstat *is)
{
	struct irqstat_line	*lines;
	uint64_t		*counts;
	size_t			 cap;

	if (is->nlines == is->cap) {
		cap = is->cap == 0 ? 64 : is->cap * 2;
		if ((lines = reallocarray(is->lines, cap, sizeof(*lines))) ==
		    NULL)
			return -1;
		is->lines = lines;
		is->cap = cap;
	}
	if (is->counts_cap - is->counts_len < (size_t)is->ncpus) {
		cap = is->counts_cap == 0 ? (size_t)is->ncpus * 64 :
		    is->counts_cap * 2;
		if ((counts = reallocarray(is->counts, cap,
		    sizeof(*counts))) == NULL)
			return -1;
		is->counts = counts;
		is->counts_cap = cap;
	}
	return 0;
}

/* Take l, whose counts were parsed at counts[counts_len]. */
static void
irqstat_add(struct irqstat *is, const struct irqstat_line *l)
{
	if (is->nlines >= IRQSTAT_MAX_LINES)
		return;		/* no real host has that many: drop */
	is->lines[is->nlines] = *l;
	is->lines[is->nlines].first = is->counts_len;
	is->nlines++;
	is->counts_len += (size_t)l->ncounts;
}

/*
 * Give back what an array of *cap entries holds beyond n.  A failed
 * shrink keeps the larger array, which is still correct.
 */
static void *
irqstat_shrink(void *p, size_t *cap, size_t n, size_t size)
{
	void	*q;

	if (p == NULL || n == *cap)
		return p;
	if (n == 0) {
		free(p);
		*cap = 0;
		return NULL;
	}
	if ((q = reallocarray(p, n, size)) == NULL)
		return p;
	*cap = n;
	return q;
}

/* The header, then every line, read with the caller's buffer. */
static int
irqstat_lines(FILE *fp, struct irqstat *is, char *buf, char *err,
    size_t errlen)
{
	struct irqstat_line	l;
	int			r;

	if (irqstat_getline(fp, buf, IRQSTAT_LINE_MAX) != 1 ||
	    (is->ncpus = irqstat_header(buf, is->cpu_ids)) == 0) {
		snprintf(err, errlen, "no CPU header line");
		errno = EINVAL;
		return -1;
	}
	while ((r = irqstat_getline(fp, buf, IRQSTAT_LINE_MAX)) != 0) {
		if (irqstat_room(is) == -1) {
			snprintf(err, errlen, "out of memory");
			errno = ENOMEM;
			return -1;
		}
		if (r > 0 && irqstat_parse_line(buf, is->ncpus, &l,
		    is->counts + is->counts_len) == 0)
			irqstat_add(is, &l);
	}
	return 0;
}

int
irqstat_parse(FILE *fp, struct irqstat *is, char *err, size_t errlen)
{
	unsigned	*ids;
	char		*buf;
	size_t		 ncpus, cap;
	int		 r, saved;

	is->has = 0;
	is->ncpus = 0;
	is->nlines = 0;
	is->counts_len = 0;
	buf = malloc(IRQSTAT_LINE_MAX);
	ids = reallocarray(is->cpu_ids, IRQSTAT_MAX_CPUS, sizeof(*ids));
	if (ids != NULL)
		is->cpu_ids = ids;
	if (buf == NULL || ids == NULL) {
		free(buf);
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	if ((r = irqstat_lines(fp, is, buf, err, errlen)) == 0)
		is->has = 1;
	else {
		is->ncpus = 0;
		is->nlines = 0;
		is->counts_len = 0;
	}
	saved = errno;
	free(buf);
	ncpus = (size_t)is->ncpus;
	cap = IRQSTAT_MAX_CPUS;
	is->cpu_ids = irqstat_shrink(is->cpu_ids, &cap, ncpus,
	    sizeof(*is->cpu_ids));
	errno = saved;
	return r;
}

static FILE *
irqstat_open(const char *procfs, const char *file, char *err, size_t errlen)
{
	char	 path[4096];
	FILE	*fp;
	int	 saved;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", procfs, file) >=
	    sizeof(path)) {
		snprintf(err, errlen, "procfs root is too long: %s", procfs);
		errno = ENAMETOOLONG;
		return NULL;
	}
	if ((fp = fopen(path, "re")) == NULL) {
		saved = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
	}
	return fp;
}

int
irqstat_read(const char *procfs, struct irqstat *is, char *err,
    size_t errlen)
{
	FILE	*fp;
	int	 r, saved;

	is->has = 0;
	is->ncpus = 0;
	is->nlines = 0;
	is->counts_len = 0;
	if ((fp = irqstat_open(procfs, "interrupts", err, errlen)) == NULL)
		return -1;
	r = irqstat_parse(fp, is, err, errlen);
	saved = errno;
	fclose(fp);
	errno = saved;
	return r;
}

/*
 * Lines and counts move down in place: a kept line's counts never start
 * after where they were.  Then the arrays shrink: a snapshot keeps a few
 * lines of a large parse for the length of a test.
 */
void
irqstat_retain(struct irqstat *is,
    int (*keep)(const struct irqstat_line *, void *), void *arg)
{
	struct irqstat_line	*l;
	size_t			 i, n = 0, pos = 0;

	for (i = 0; i < is->nlines; i++) {
		l = &is->lines[i];
		if (!keep(l, arg))
			continue;
		if (l->ncounts > 0 && is->counts != NULL) {
			memmove(is->counts + pos, is->counts + l->first,
			    (size_t)l->ncounts * sizeof(*is->counts));
			l->first = pos;
			pos += (size_t)l->ncounts;
		}
		is->lines[n++] = *l;
	}
	is->nlines = n;
	is->counts_len = pos;
	is->lines = irqstat_shrink(is->lines, &is->cap, n, sizeof(*is->lines));
	is->counts = irqstat_shrink(is->counts, &is->counts_cap, pos,
	    sizeof(*is->counts));
}

void
irqstat_softirq_init(struct irqstat_softirq *si)
{
	memset(si, 0, sizeof(*si));
	irqstat_init(&si->rows);
}

void
irqstat_softirq_free(struct irqstat_softirq *si)
{
	irqstat_free(&si->rows);
	irqstat_softirq_init(si);
}

/* What irqstat_softirq_parse() hands to irqstat_retain(). */
struct irqstat_net_rows {
	int	found;		/* 1: NET_RX kept, 2: NET_TX kept */
};

/* The first NET_RX and the first NET_TX row; a repeated one is not. */
static int
irqstat_net_keep(const struct irqstat_line *l, void *arg)
{
	struct irqstat_net_rows	*w = arg;
	int			 bit;

	if (strcmp(l->name, "NET_RX") == 0)
		bit = 1;
	else if (strcmp(l->name, "NET_TX") == 0)
		bit = 2;
	else
		return 0;
	if (w->found & bit)
		return 0;
	w->found |= bit;
	return 1;
}

/*
 * /proc/softirqs (2.6.31 and later) has the layout of /proc/interrupts: a
 * "CPU0 CPU1" header, then "NET_RX:  304  348" rows.  The two rows stay,
 * with their columns, for the spread's per-CPU counts.
 */
int
irqstat_softirq_parse(FILE *fp, struct irqstat_softirq *si, char *err,
    size_t errlen)
{
	struct irqstat_net_rows	 w = { 0 };
	struct irqstat		*is = &si->rows;
	size_t			 i;

	si->has = 0;
	si->net_rx = si->net_tx = 0;
	si->rx_row = si->tx_row = 0;
	if (irqstat_parse(fp, is, err, errlen) == -1)
		return -1;
	irqstat_retain(is, irqstat_net_keep, &w);
	if (w.found != 3) {
		is->has = 0;
		is->nlines = 0;
		snprintf(err, errlen, "no NET_RX and NET_TX rows");
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < is->nlines; i++) {
		if (strcmp(is->lines[i].name, "NET_RX") == 0) {
			si->rx_row = i;
			si->net_rx = is->lines[i].total;
		} else {
			si->tx_row = i;
			si->net_tx = is->lines[i].total;
		}
	}
	si->has = 1;
	return 0;
}

int
irqstat_softirq_read(const char *procfs, struct irqstat_softirq *si,
    char *err, size_t errlen)
{
	FILE	*fp;
	int	 r, saved;

	si->has = 0;
	si->net_rx = si->net_tx = 0;
	if ((fp = irqstat_open(procfs, "softirqs", err, errlen)) == NULL)
		return -1;
	r = irqstat_softirq_parse(fp, si, err, errlen);
	saved = errno;
	fclose(fp);
	errno = saved;
	return r;
}

static int
irqstat_cpu_cmp(const void *key, const void *elem)
{
	unsigned	k = *(const unsigned *)key, e = *(const unsigned *)elem;

	return k < e ? -1 : k > e;
}

int
irqstat_softirq_cpu(const struct irqstat_softirq *si, unsigned cpu,
    uint64_t *net_rx, uint64_t *net_tx)
{
	const struct irqstat		*is = &si->rows;
	const struct irqstat_line	*rx, *tx;
	const unsigned			*id;
	size_t				 col;

	if (!si->has || is->cpu_ids == NULL || is->counts == NULL ||
	    si->rx_row >= is->nlines || si->tx_row >= is->nlines)
		return -1;
	if ((id = bsearch(&cpu, is->cpu_ids, (size_t)is->ncpus,
	    sizeof(*id), irqstat_cpu_cmp)) == NULL)
		return -1;
	col = (size_t)(id - is->cpu_ids);
	rx = &is->lines[si->rx_row];
	tx = &is->lines[si->tx_row];
	if (col >= (size_t)rx->ncounts || col >= (size_t)tx->ncounts)
		return -1;
	*net_rx = is->counts[rx->first + col];
	*net_tx = is->counts[tx->first + col];
	return 0;
}
