/*
 * irqline.c: the lines of /proc/interrupts that belong to one network
 * interface, and what each of them did between two samples (irqline.h).
 *
 * This file owns the rules that tie a line to an interface (its MSI
 * vectors, or its name in the action column by base/irqaction.h's rule,
 * which the diagnosis shares), when a line is shared with another device,
 * and how a line is reported: its delta summed over CPUs, the CPUs it
 * landed on in range form ("0,2-3"), the chip columns with their runs of
 * blanks collapsed, and the busiest lines first when there are more than
 * a report holds.  It parses nothing (irqstat.c does), reads no file,
 * keeps no sample and prints nothing.
 */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/irqaction.h"
#include "host/irqline.h"

/* What irqline_select() hands to irqstat_retain(). */
struct irqline_want {
	const char	*ifname;
	const unsigned	*msi;
	size_t		 nmsi;
};

/* A line of after and its delta, to rank lines by. */
struct irqline_rank {
	size_t		idx;
	uint64_t	count;
};

static void	irqline_actions(const struct irqstat_line *, const char *,
		    int *, int *);
static int	irqline_msi_cmp(const void *, const void *);
static int	irqline_msi_has(const unsigned *, size_t, const char *);
static int	irqline_keep(const struct irqstat_line *, void *);
static const struct irqstat_line *irqline_find(const struct irqstat *,
		    const char *);
static uint64_t	irqline_delta(const struct irqstat *,
		    const struct irqstat_line *);
static int	irqline_append(char *, size_t, size_t *, const char *, int);
static size_t	irqline_landed(const struct irqstat *,
		    const struct irqstat *, const struct irqstat_line *,
		    unsigned *, int *);
static void	irqline_collapse(char *, size_t, const char *);
static void	irqline_copy(char *, size_t, const char *);
static void	irqline_fill(const struct irqstat *, const struct irqstat *,
		    const struct irqstat_line *, const char *, unsigned *,
		    struct gb_irq_line *);
static unsigned	irqline_busiest(const struct irqstat *,
		    const struct irqstat *, struct irqline_rank *, unsigned);

/*
 * Count the comma-separated actions of a line, and those that name ifname
 * (none when ifname is NULL or "").
 */
static void
irqline_actions(const struct irqstat_line *l, const char *ifname, int *n,
    int *named)
{
	const char	*p = l->actions, *tok;
	size_t		 len;

	*n = *named = 0;
	while ((tok = irqaction_next(&p, &len)) != NULL) {
		(*n)++;
		if (ifname != NULL && irqaction_is_iface(tok, len, ifname))
			(*named)++;
	}
}

static int
irqline_msi_cmp(const void *key, const void *elem)
{
	unsigned long	k = *(const unsigned long *)key;
	unsigned	e = *(const unsigned *)elem;

	return k < e ? -1 : k > e;
}

/* Is the line's number one of the sorted MSI vectors? */
static int
irqline_msi_has(const unsigned *msi, size_t nmsi, const char *name)
{
	unsigned long	 n;
	char		*end;

	if (nmsi == 0 || !isdigit((unsigned char)name[0]))
		return 0;
	errno = 0;
	n = strtoul(name, &end, 10);
	return *end == '\0' && errno == 0 &&
	    bsearch(&n, msi, nmsi, sizeof(*msi), irqline_msi_cmp) != NULL;
}

int
irqline_matches(const struct irqstat_line *l, const char *ifname,
    const unsigned *msi_irqs, size_t nmsi)
{
	int	n, named;

	if (irqline_msi_has(msi_irqs, nmsi, l->name))
		return 1;
	irqline_actions(l, ifname, &n, &named);
	return named > 0;
}

int
irqline_shared(const struct irqstat_line *l, const char *ifname)
{
	int	n, named;

	irqline_actions(l, ifname, &n, &named);
	return n > 1 && named < n;
}

static int
irqline_keep(const struct irqstat_line *l, void *arg)
{
	const struct irqline_want	*w = arg;

	return irqline_matches(l, w->ifname, w->msi, w->nmsi);
}

void
irqline_select(struct irqstat *is, const char *ifname,
    const unsigned *msi_irqs, size_t nmsi)
{
	struct irqline_want	w = { ifname, msi_irqs, nmsi };

	irqstat_retain(is, irqline_keep, &w);
}

static const struct irqstat_line *
irqline_find(const struct irqstat *is, const char *name)
{
	size_t	i;

	for (i = 0; i < is->nlines; i++)
		if (strcmp(is->lines[i].name, name) == 0)
			return &is->lines[i];
	return NULL;
}

/* The delta of a line of after; 0 when its count went down. */
static uint64_t
irqline_delta(const struct irqstat *before, const struct irqstat_line *a)
{
	const struct irqstat_line	*b;

	if ((b = irqline_find(before, a->name)) == NULL)
		return a->total;
	return a->total > b->total ? a->total - b->total : 0;
}

uint64_t
irqline_diff(const struct irqstat *before, const struct irqstat *after)
{
	uint64_t	sum = 0, d;
	size_t		i;

	for (i = 0; i < after->nlines; i++) {
		d = irqline_delta(before, &after->lines[i]);
		sum = d > UINT64_MAX - sum ? UINT64_MAX : sum + d;
	}
	return sum;
}

/*
 * Append ",tok" (or "tok" first) at *pos.  When it does not fit with room
 * for ",..." after it (if more tokens follow), end with "..." and return
 * -1.
 */
static int
irqline_append(char *buf, size_t len, size_t *pos, const char *tok,
    int more)
{
	size_t	need = (*pos > 0) + strlen(tok);

	if (*pos + need + (more ? 4 : 0) >= len) {
		if (*pos + 4 < len)
			snprintf(buf + *pos, len - *pos, "%s...",
			    *pos > 0 ? "," : "");
		return -1;
	}
	*pos += (size_t)snprintf(buf + *pos, len - *pos, "%s%s",
	    *pos > 0 ? "," : "", tok);
	return 0;
}

void
irqline_names(const struct irqstat *is, char *buf, size_t len)
{
	size_t	i, pos = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < is->nlines; i++)
		if (irqline_append(buf, len, &pos, is->lines[i].name,
		    i + 1 < is->nlines) == -1)
			return;
}

void
irqline_cpulist(const unsigned *cpus, size_t n, char *buf, size_t len)
{
	char	tok[32];
	size_t	i, j, pos = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < n; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			continue;
		if (j > i)
			snprintf(tok, sizeof(tok), "%u-%u", cpus[i], cpus[j]);
		else
			snprintf(tok, sizeof(tok), "%u", cpus[i]);
		if (irqline_append(buf, len, &pos, tok, j + 1 < n) == -1)
			return;
	}
}

/*
 * The CPUs whose count of line a went up, into cpus (room for
 * after->ncpus), and in *top the one it went up the most on (the lowest
 * of a tie; -1 when none).  Columns are matched by CPU number, not
 * position: a CPU that went offline during the test takes its column
 * with it.  Both headers are ascending, so one walk finds every pair.
 */
static size_t
irqline_landed(const struct irqstat *before, const struct irqstat *after,
    const struct irqstat_line *a, unsigned *cpus, int *top)
{
	const struct irqstat_line	*b;
	uint64_t			 was, now, most = 0;
	size_t				 n = 0;
	int				 j, k = 0, same;

	*top = -1;
	if (after->cpu_ids == NULL || after->counts == NULL)
		return 0;
	b = irqline_find(before, a->name);
	if (b != NULL && (before->cpu_ids == NULL || before->counts == NULL))
		b = NULL;
	same = b != NULL && before->ncpus == after->ncpus &&
	    memcmp(before->cpu_ids, after->cpu_ids,
	    (size_t)after->ncpus * sizeof(*after->cpu_ids)) == 0;
	for (j = 0; j < a->ncounts && j < after->ncpus; j++) {
		was = 0;
		if (b != NULL && !same) {
			while (k < before->ncpus &&
			    before->cpu_ids[k] < after->cpu_ids[j])
				k++;
			if (k < before->ncpus && k < b->ncounts &&
			    before->cpu_ids[k] == after->cpu_ids[j])
				was = before->counts[b->first + (size_t)k];
		} else if (b != NULL && j < b->ncounts)
			was = before->counts[b->first + (size_t)j];
		if ((now = after->counts[a->first + (size_t)j]) <= was)
			continue;
		cpus[n++] = after->cpu_ids[j];
		if (now - was > most && after->cpu_ids[j] <= INT_MAX) {
			most = now - was;
			*top = (int)after->cpu_ids[j];
		}
	}
	return n;
}

/* "OpenPIC   Level" as "OpenPIC Level": any run of blanks, one space. */
static void
irqline_collapse(char *dst, size_t len, const char *src)
{
	size_t	n = 0;

	if (len == 0)
		return;
	for (; *src != '\0' && n + 1 < len; src++) {
		if (isblank((unsigned char)*src)) {
			if (n > 0 && dst[n - 1] != ' ')
				dst[n++] = ' ';
		} else
			dst[n++] = *src;
	}
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

/* Copy src, ending with "..." when it does not fit. */
static void
irqline_copy(char *dst, size_t len, const char *src)
{
	size_t	n = strlen(src), cut;

	if (len == 0)
		return;
	cut = n < len ? n : len - 1;
	memcpy(dst, src, cut);
	dst[cut] = '\0';
	if (cut < n && len >= 4)
		memcpy(dst + len - 4, "...", 4);
}

static void
irqline_fill(const struct irqstat *before, const struct irqstat *after,
    const struct irqstat_line *a, const char *ifname, unsigned *cpus,
    struct gb_irq_line *out)
{
	size_t	n;

	memset(out, 0, sizeof(*out));
	irqline_copy(out->name, sizeof(out->name), a->name);
	irqline_collapse(out->chip, sizeof(out->chip), a->chip);
	irqline_copy(out->actions, sizeof(out->actions), a->actions);
	out->shared = irqline_shared(a, ifname);
	out->count = irqline_delta(before, a);
	n = irqline_landed(before, after, a, cpus, &out->top_cpu);
	irqline_cpulist(cpus, n, out->cpus, sizeof(out->cpus));
}

/*
 * The max busiest lines of after into top, busiest first; lines with the
 * same count keep their order.  An insertion into a short array: the
 * lines of one interface number in the hundreds at most.
 */
static unsigned
irqline_busiest(const struct irqstat *before, const struct irqstat *after,
    struct irqline_rank *top, unsigned max)
{
	struct irqline_rank	r;
	unsigned		n = 0, k;
	size_t			i;

	for (i = 0; i < after->nlines; i++) {
		r.idx = i;
		r.count = irqline_delta(before, &after->lines[i]);
		if (n == max && r.count <= top[n - 1].count)
			continue;
		k = n < max ? n++ : n - 1;
		for (; k > 0 && top[k - 1].count < r.count; k--)
			top[k] = top[k - 1];
		top[k] = r;
	}
	return n;
}

int
irqline_report(const struct irqstat *before, const struct irqstat *after,
    const char *ifname, struct gb_irq_line *lines, unsigned max)
{
	struct irqline_rank	top[GB_MAX_IRQ_LINES];
	unsigned		*cpus, n, i;
	uint64_t		 total;

	if (max > GB_MAX_IRQ_LINES)
		max = GB_MAX_IRQ_LINES;
	if (max == 0 || after->nlines == 0)
		return 0;
	if ((cpus = calloc(after->ncpus > 0 ? (size_t)after->ncpus : 1,
	    sizeof(*cpus))) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	if (after->nlines <= max) {
		n = (unsigned)after->nlines;
		for (i = 0; i < n; i++)
			irqline_fill(before, after, &after->lines[i], ifname,
			    cpus, &lines[i]);
	} else {
		n = irqline_busiest(before, after, top, max);
		for (i = 0; i < n; i++)
			irqline_fill(before, after, &after->lines[top[i].idx],
			    ifname, cpus, &lines[i]);
	}
	free(cpus);
	/* Shares of all the lines' interrupts, also those not reported. */
	total = irqline_diff(before, after);
	for (i = 0; i < n && total > 0; i++) {
		lines[i].has_share = 1;
		lines[i].share_pct = 100.0 * (double)lines[i].count /
		    (double)total;
	}
	return (int)n;
}
