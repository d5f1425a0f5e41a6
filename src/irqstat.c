/*
 * irqstat.c: parse /proc/interrupts and /proc/softirqs, pick the lines of
 * one network interface and subtract two samples.
 *
 * This file owns the text layouts of those two files, from the 2.4 PowerMac
 * (" 41:     476734   OpenPIC   Level     eth0") through 2.6 IO-APIC and
 * PCI-MSI-edge lines to today's multi-queue "IR-PCI-MSI 524288-edge
 * eth0-TxRx-0".  It does not read sysfs (netif.c gives it the MSI vector
 * numbers), keep samples, or print.  Lines it cannot parse are skipped,
 * never fatal; no input can make it read past a buffer.
 */

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irqstat.h"

/*
 * A line holds one count per CPU, "%10u " each: 8192 CPUs need about
 * 90 KB.  Longer lines are drained and skipped.
 */
#define IRQSTAT_LINE_MAX	(256 * 1024)

static int	irqstat_getline(FILE *, char *, size_t);
static int	irqstat_header(const char *);
static int	irqstat_counts(char **, int, uint64_t *, int *);
static void	irqstat_split(const char *, struct irqstat_line *);
static int	irqstat_parse_line(char *, int, struct irqstat_line *);
static int	irqstat_add(struct irqstat *, const struct irqstat_line *);
static int	irqstat_lines(FILE *, struct irqstat *, char *, char *,
		    size_t);
static int	irqstat_action_matches(const char *, size_t, const char *);
static int	irqstat_msi_cmp(const void *, const void *);
static int	irqstat_msi_has(const unsigned *, size_t, const char *);
static FILE	*irqstat_open(const char *, const char *, char *, size_t);

void
irqstat_init(struct irqstat *is)
{
	memset(is, 0, sizeof(*is));
}

void
irqstat_free(struct irqstat *is)
{
	free(is->lines);
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

/* Count the "CPUn" columns of a header line; 0 when it is not one. */
static int
irqstat_header(const char *line)
{
	const char	*p = line;
	int		 n = 0;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		if (strncmp(p, "CPU", 3) != 0 ||
		    !isdigit((unsigned char)p[3]))
			return 0;
		if (n < IRQSTAT_MAX_CPUS)
			n++;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
	}
	return n;
}

/*
 * Sum up to max all-digit columns at *pp, stopping at the first other
 * token (the chip name).  Saturates instead of wrapping.  Returns -1 on
 * a number above 2^64.
 */
static int
irqstat_counts(char **pp, int max, uint64_t *total, int *n)
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

/* Parse " 41:     476734   OpenPIC   Level     eth0".  0 or -1. */
static int
irqstat_parse_line(char *line, int ncpus, struct irqstat_line *l)
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
	if (irqstat_counts(&p, ncpus, &l->total, &l->ncounts) == -1 ||
	    l->ncounts == 0)
		return -1;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	irqstat_split(p, l);
	return 0;
}

static int
irqstat_add(struct irqstat *is, const struct irqstat_line *l)
{
	struct irqstat_line	*lines;
	size_t			 cap;

	if (is->nlines >= IRQSTAT_MAX_LINES)
		return 0;	/* no real host has that many: drop */
	if (is->nlines == is->cap) {
		cap = is->cap == 0 ? 64 : is->cap * 2;
		if ((lines = reallocarray(is->lines, cap, sizeof(*lines))) ==
		    NULL)
			return -1;
		is->lines = lines;
		is->cap = cap;
	}
	is->lines[is->nlines++] = *l;
	return 0;
}

/* The header, then every line, read with the caller's buffer. */
static int
irqstat_lines(FILE *fp, struct irqstat *is, char *buf, char *err,
    size_t errlen)
{
	struct irqstat_line	l;
	int			r;

	if (irqstat_getline(fp, buf, IRQSTAT_LINE_MAX) != 1 ||
	    (is->ncpus = irqstat_header(buf)) == 0) {
		snprintf(err, errlen, "no CPU header line");
		errno = EINVAL;
		return -1;
	}
	while ((r = irqstat_getline(fp, buf, IRQSTAT_LINE_MAX)) != 0) {
		if (r < 0 || irqstat_parse_line(buf, is->ncpus, &l) == -1)
			continue;
		if (irqstat_add(is, &l) == -1) {
			snprintf(err, errlen, "out of memory");
			errno = ENOMEM;
			return -1;
		}
	}
	return 0;
}

int
irqstat_parse(FILE *fp, struct irqstat *is, char *err, size_t errlen)
{
	char	*buf;
	int	 r;

	is->has = 0;
	is->ncpus = 0;
	is->nlines = 0;
	if ((buf = malloc(IRQSTAT_LINE_MAX)) == NULL) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return -1;
	}
	if ((r = irqstat_lines(fp, is, buf, err, errlen)) == 0)
		is->has = 1;
	else
		is->nlines = 0;
	free(buf);
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
	is->nlines = 0;
	if ((fp = irqstat_open(procfs, "interrupts", err, errlen)) == NULL)
		return -1;
	r = irqstat_parse(fp, is, err, errlen);
	saved = errno;
	fclose(fp);
	errno = saved;
	return r;
}

/* Is the action name (len bytes) ifname or ifname plus '-', ':' or '@'? */
static int
irqstat_action_matches(const char *name, size_t len, const char *ifname)
{
	size_t	iflen = strlen(ifname);

	if (iflen == 0 || len < iflen || strncmp(name, ifname, iflen) != 0)
		return 0;
	return len == iflen || name[iflen] == '-' || name[iflen] == ':' ||
	    name[iflen] == '@';
}

static int
irqstat_msi_cmp(const void *key, const void *elem)
{
	unsigned long	k = *(const unsigned long *)key;
	unsigned	e = *(const unsigned *)elem;

	return k < e ? -1 : k > e;
}

/* Is the line's number one of the sorted MSI vectors? */
static int
irqstat_msi_has(const unsigned *msi, size_t nmsi, const char *name)
{
	unsigned long	 n;
	char		*end;

	if (nmsi == 0 || !isdigit((unsigned char)name[0]))
		return 0;
	errno = 0;
	n = strtoul(name, &end, 10);
	return *end == '\0' && errno == 0 &&
	    bsearch(&n, msi, nmsi, sizeof(*msi), irqstat_msi_cmp) != NULL;
}

int
irqstat_line_matches(const struct irqstat_line *l, const char *ifname,
    const unsigned *msi_irqs, size_t nmsi)
{
	const char	*p = l->actions;
	size_t		 len;

	if (irqstat_msi_has(msi_irqs, nmsi, l->name))
		return 1;
	if (ifname == NULL || *ifname == '\0')
		return 0;
	while (*p != '\0') {
		while (*p == ',' || isblank((unsigned char)*p))
			p++;
		len = strcspn(p, ",");
		while (len > 0 && isblank((unsigned char)p[len - 1]))
			len--;
		if (len > 0 && irqstat_action_matches(p, len, ifname))
			return 1;
		p += strcspn(p, ",");
	}
	return 0;
}

void
irqstat_select(struct irqstat *is, const char *ifname,
    const unsigned *msi_irqs, size_t nmsi)
{
	size_t	i, n = 0;

	for (i = 0; i < is->nlines; i++)
		if (irqstat_line_matches(&is->lines[i], ifname, msi_irqs,
		    nmsi))
			is->lines[n++] = is->lines[i];
	is->nlines = n;
}

uint64_t
irqstat_diff(const struct irqstat *before, const struct irqstat *after)
{
	const struct irqstat_line	*a, *b;
	uint64_t			 sum = 0, d;
	size_t				 i, j;

	for (i = 0; i < after->nlines; i++) {
		a = &after->lines[i];
		d = a->total;
		for (j = 0; j < before->nlines; j++) {
			b = &before->lines[j];
			if (strcmp(a->name, b->name) == 0) {
				d = a->total > b->total ? a->total - b->total :
				    0;
				break;
			}
		}
		sum = d > UINT64_MAX - sum ? UINT64_MAX : sum + d;
	}
	return sum;
}

void
irqstat_names(const struct irqstat *is, char *buf, size_t len)
{
	size_t	i, pos = 0, need, more;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < is->nlines; i++) {
		need = (pos > 0) + strlen(is->lines[i].name);
		more = i + 1 < is->nlines ? 4 : 0;	/* room for ",..." */
		if (pos + need + more >= len) {
			if (pos + 4 < len)
				snprintf(buf + pos, len - pos, "%s...",
				    pos > 0 ? "," : "");
			return;
		}
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s",
		    pos > 0 ? "," : "", is->lines[i].name);
	}
}

/*
 * /proc/softirqs (2.6.31 and later) has the layout of /proc/interrupts: a
 * "CPU0 CPU1" header, then "NET_RX:  304  348" rows.
 */
int
irqstat_softirq_parse(FILE *fp, struct irqstat_softirq *si, char *err,
    size_t errlen)
{
	struct irqstat	is;
	size_t		i;
	int		found = 0;

	memset(si, 0, sizeof(*si));
	irqstat_init(&is);
	if (irqstat_parse(fp, &is, err, errlen) == -1) {
		irqstat_free(&is);
		return -1;
	}
	for (i = 0; i < is.nlines; i++) {
		if (strcmp(is.lines[i].name, "NET_RX") == 0 && !(found & 1)) {
			si->net_rx = is.lines[i].total;
			found |= 1;
		} else if (strcmp(is.lines[i].name, "NET_TX") == 0 &&
		    !(found & 2)) {
			si->net_tx = is.lines[i].total;
			found |= 2;
		}
	}
	irqstat_free(&is);
	if (found != 3) {
		memset(si, 0, sizeof(*si));
		snprintf(err, errlen, "no NET_RX and NET_TX rows");
		errno = EINVAL;
		return -1;
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

	memset(si, 0, sizeof(*si));
	if ((fp = irqstat_open(procfs, "softirqs", err, errlen)) == NULL)
		return -1;
	r = irqstat_softirq_parse(fp, si, err, errlen);
	saved = errno;
	fclose(fp);
	errno = saved;
	return r;
}
