/*
 * hoststat.c: snapshots of the host counters that explain a test, and the
 * figures between two of them (hoststat.h).
 *
 * This file only composes: cpustat.c reads /proc/stat, irqstat.c
 * /proc/interrupts and /proc/softirqs, irqline.c picks and reports the
 * interface's lines, netif.c reads sysfs, spread.c makes the per-CPU
 * figures.  It owns the rules that turn two
 * snapshots into result.h figures: which figures are unavailable (a
 * missing file never is an error), that counters going backwards give 0
 * rather than a wrap to 2^64, that interrupts per packet are counted
 * against the data packets of this side, and the note that says why an
 * interface has no interrupt line.  It opens no socket and keeps no state
 * outside the snapshots.
 */

#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/cpustat.h"
#include "host/hoststat.h"
#include "host/irqline.h"
#include "host/irqstat.h"
#include "host/netif.h"
#include "host/spread.h"

struct hoststat {
	char			ifname[GB_IFNAME_LEN];	/* "" when none */
	struct timespec		mono;
	int			has_rusage;
	struct rusage		ru;
	struct cpustat		cpu;
	struct irqstat		irq;	/* the interface's lines only */
	int			irq_errno;	/* why irq.has is 0 */
	struct irqstat_softirq	softirq;
	struct netif_stats	net;
	struct netif_kind	kind;
	struct netif_queues	queues;
};

static int	hoststat_irq(struct hoststat *, const char *, const char *,
		    char *, size_t);
static uint64_t	hoststat_delta(uint64_t, uint64_t);
static double	hoststat_tv_s(const struct timeval *);
static void	hoststat_irq_note(const struct hoststat *,
		    const struct hoststat *, char *, size_t);
static void	hoststat_diff_lines(const struct hoststat *,
		    const struct hoststat *, struct gb_iface_figures *);
static void	hoststat_diff_iface(const struct hoststat *,
		    const struct hoststat *, int, struct gb_iface_figures *);
static void	hoststat_diff_proc(const struct hoststat *,
		    const struct hoststat *, double, struct gb_proc_cpu *);

/*
 * The interface's lines of /proc/interrupts: those of its MSI vectors and
 * those whose action names it.  -1 only when memory ran out.
 */
static int
hoststat_irq(struct hoststat *hs, const char *procfs, const char *sysfs,
    char *err, size_t errlen)
{
	unsigned	*msi;
	size_t		 nmsi;

	if (netif_msi_irqs_read(sysfs, hs->ifname, &msi, &nmsi, err,
	    errlen) == -1 && errno == ENOMEM)
		return -1;
	if (irqstat_read(procfs, &hs->irq, err, errlen) == -1) {
		hs->irq_errno = errno;
		free(msi);
		return errno == ENOMEM ? -1 : 0;
	}
	irqline_select(&hs->irq, hs->ifname, msi, nmsi);
	free(msi);
	return 0;
}

struct hoststat *
hoststat_take(const struct hoststat_roots *roots, const char *ifname,
    char *err, size_t errlen)
{
	struct hoststat	*hs;
	const char	*procfs = "/proc", *sysfs = "/sys";
	char		 why[GB_ERR_LEN];

	if (roots != NULL && roots->procfs != NULL)
		procfs = roots->procfs;
	if (roots != NULL && roots->sysfs != NULL)
		sysfs = roots->sysfs;
	if ((hs = calloc(1, sizeof(*hs))) == NULL) {
		snprintf(err, errlen, "host counters: out of memory");
		return NULL;
	}
	cpustat_init(&hs->cpu);
	irqstat_init(&hs->irq);
	irqstat_softirq_init(&hs->softirq);
	clock_gettime(CLOCK_MONOTONIC, &hs->mono);
	hs->has_rusage = getrusage(RUSAGE_SELF, &hs->ru) == 0;
	if ((cpustat_read(procfs, &hs->cpu, why, sizeof(why)) == -1 &&
	    errno == ENOMEM) ||
	    (irqstat_softirq_read(procfs, &hs->softirq, why,
	    sizeof(why)) == -1 && errno == ENOMEM))
		goto nomem;
	/* A name that is not an interface's would only build bad paths. */
	if (netif_name_ok(ifname)) {
		snprintf(hs->ifname, sizeof(hs->ifname), "%s", ifname);
		netif_stats_read(sysfs, ifname, &hs->net, why, sizeof(why));
		netif_kind_read(sysfs, ifname, &hs->kind, why, sizeof(why));
		netif_queues_read(sysfs, ifname, &hs->queues, why,
		    sizeof(why));
		if (hoststat_irq(hs, procfs, sysfs, why, sizeof(why)) == -1)
			goto nomem;
	}
	return hs;
nomem:
	snprintf(err, errlen, "host counters: %s", why);
	hoststat_free(hs);
	return NULL;
}

void
hoststat_free(struct hoststat *hs)
{
	if (hs == NULL)
		return;
	cpustat_free(&hs->cpu);
	irqstat_free(&hs->irq);
	irqstat_softirq_free(&hs->softirq);
	free(hs);
}

static uint64_t
hoststat_delta(uint64_t before, uint64_t after)
{
	return after > before ? after - before : 0;
}

static double
hoststat_tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/*
 * Why an interface has no line to report.  Loopback and software
 * interfaces (no device link in sysfs) never have one of their own; for
 * a NIC, say where we looked.  Names passed netif_name_ok(), so "%.15s"
 * (IFNAMSIZ - 1) loses nothing and shows that every note fits.
 */
static void
hoststat_irq_note(const struct hoststat *b, const struct hoststat *a,
    char *note, size_t len)
{
	const struct netif_kind	*k = &a->kind;
	const char		*name = a->ifname;
	int			 e;

	if (*b->ifname == '\0' || *name == '\0')
		snprintf(note, len, "no test interface known");
	else if (strcmp(b->ifname, name) != 0)
		snprintf(note, len, "the interface changed during the test "
		    "(%.15s, then %.15s)", b->ifname, name);
	else if (k->loopback)
		snprintf(note, len, "%.15s: loopback has no interrupt lines",
		    name);
	else if (k->has_dir && !k->has_device)
		snprintf(note, len, "%.15s: virtual device%s%s%s has no "
		    "interrupt lines of its own", name,
		    *k->devtype != '\0' ? " (" : "", k->devtype,
		    *k->devtype != '\0' ? ")" : "");
	else if (!b->irq.has || !a->irq.has) {
		e = !b->irq.has ? b->irq_errno : a->irq_errno;
		snprintf(note, len, "/proc/interrupts unreadable: %s",
		    e == EINVAL ? "no CPU header line" : strerror(e));
	} else if (!k->has_dir)
		snprintf(note, len, "%.15s: not in sysfs, and no "
		    "/proc/interrupts line names it", name);
	else
		snprintf(note, len, "%.15s: no /proc/interrupts line matches "
		    "(looked for msi_irqs, name in actions)", name);
}

/* The lines and their total, or the note that says why there are none. */
static void
hoststat_diff_lines(const struct hoststat *b, const struct hoststat *a,
    struct gb_iface_figures *f)
{
	int	n;

	/*
	 * Loopback and veth have no lines: then there is no interrupt
	 * figure at all, which renderers print as null, never as 0.
	 */
	if (*f->name == '\0' || !b->irq.has || !a->irq.has ||
	    a->irq.nlines == 0) {
		hoststat_irq_note(b, a, f->irq_note, sizeof(f->irq_note));
		return;
	}
	f->irq_lines = (int)a->irq.nlines;
	irqline_names(&a->irq, f->irq_list, sizeof(f->irq_list));
	f->has_interrupts = 1;
	f->interrupts = irqline_diff(&b->irq, &a->irq);
	if ((n = irqline_report(&b->irq, &a->irq, a->ifname, f->lines,
	    GB_MAX_IRQ_LINES)) == -1)
		snprintf(f->irq_note, sizeof(f->irq_note), "%.15s: %d "
		    "interrupt lines, out of memory listing them", a->ifname,
		    f->irq_lines);
	else
		f->nlines = (unsigned)n;
}

static void
hoststat_diff_iface(const struct hoststat *b, const struct hoststat *a,
    int data_tx, struct gb_iface_figures *f)
{
	uint64_t	pkts;

	memset(f, 0, sizeof(*f));
	/* NET_RX/NET_TX are host-wide: they need no interface. */
	if (b->softirq.has && a->softirq.has) {
		f->has_softirq = 1;
		f->net_rx_softirqs = hoststat_delta(b->softirq.net_rx,
		    a->softirq.net_rx);
		f->net_tx_softirqs = hoststat_delta(b->softirq.net_tx,
		    a->softirq.net_tx);
	}
	if (strcmp(b->ifname, a->ifname) == 0)
		snprintf(f->name, sizeof(f->name), "%s", a->ifname);
	if (*f->name != '\0' && b->net.has && a->net.has) {
		f->has_counters = 1;
		f->rx_packets = hoststat_delta(b->net.rx_packets,
		    a->net.rx_packets);
		f->tx_packets = hoststat_delta(b->net.tx_packets,
		    a->net.tx_packets);
		f->rx_bytes = hoststat_delta(b->net.rx_bytes, a->net.rx_bytes);
		f->tx_bytes = hoststat_delta(b->net.tx_bytes, a->net.tx_bytes);
	}
	hoststat_diff_lines(b, a, f);
	if (!f->has_interrupts)
		return;
	/*
	 * Per data packet of this side, as in the seed thread: the
	 * transmitter's interrupts over its tx packets (476,543 for
	 * 3,284,421 = 0.145), the receiver's over its rx packets.  The ACKs
	 * going the other way ride on the same interrupts.
	 */
	pkts = data_tx ? f->tx_packets : f->rx_packets;
	if (f->has_counters && pkts > 0) {
		f->has_irq_per_packet = 1;
		f->irq_per_packet = (double)f->interrupts / (double)pkts;
	}
}

static void
hoststat_diff_proc(const struct hoststat *b, const struct hoststat *a,
    double wall, struct gb_proc_cpu *c)
{
	double	u, s;

	memset(c, 0, sizeof(*c));
	if (!b->has_rusage || !a->has_rusage)
		return;
	u = hoststat_tv_s(&a->ru.ru_utime) - hoststat_tv_s(&b->ru.ru_utime);
	s = hoststat_tv_s(&a->ru.ru_stime) - hoststat_tv_s(&b->ru.ru_stime);
	c->user_s = u > 0.0 ? u : 0.0;
	c->sys_s = s > 0.0 ? s : 0.0;
	if (wall > 0.0) {
		c->user_pct = 100.0 * c->user_s / wall;
		c->sys_pct = 100.0 * c->sys_s / wall;
		c->process_pct = c->user_pct + c->sys_pct;
	}
}

void
hoststat_diff(const struct hoststat *before, const struct hoststat *after,
    int data_tx, struct gb_host_cpu *host_cpu, struct gb_iface_figures *iface,
    struct gb_proc_cpu *cpu, double *wall_s)
{
	double	wall = 0.0;

	if (before != NULL && after != NULL) {
		wall = (double)(after->mono.tv_sec - before->mono.tv_sec) +
		    (double)(after->mono.tv_nsec - before->mono.tv_nsec) / 1e9;
		if (wall < 0.0)
			wall = 0.0;
	}
	if (wall_s != NULL)
		*wall_s = wall;
	if (before == NULL || after == NULL) {
		if (host_cpu != NULL)
			memset(host_cpu, 0, sizeof(*host_cpu));
		if (iface != NULL) {
			memset(iface, 0, sizeof(*iface));
			snprintf(iface->irq_note, sizeof(iface->irq_note),
			    "no host counters were taken");
		}
		if (cpu != NULL)
			memset(cpu, 0, sizeof(*cpu));
		return;
	}
	if (host_cpu != NULL)
		cpustat_diff(&before->cpu, &after->cpu, host_cpu);
	if (iface != NULL)
		hoststat_diff_iface(before, after, data_tx, iface);
	if (cpu != NULL)
		hoststat_diff_proc(before, after, wall, cpu);
}

void
hoststat_spread(const struct hoststat *before, const struct hoststat *after,
    struct gb_spread *sp)
{
	memset(sp, 0, sizeof(*sp));
	if (before == NULL || after == NULL)
		return;
	sp->has = 1;
	spread_cpus(&before->cpu, &after->cpu, &before->softirq,
	    &after->softirq, sp);
	/* As the test ended: ethtool -L during it changes them. */
	if (*after->ifname != '\0' &&
	    strcmp(before->ifname, after->ifname) == 0 && after->queues.has) {
		sp->has_queues = 1;
		sp->rx_queues = after->queues.rx;
		sp->tx_queues = after->queues.tx;
	}
}
