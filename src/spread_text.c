/*
 * spread_text.c: the spread's -v line in the text report
 * (out/spread_text.h): each CPU the result kept, its busy share and,
 * where they are not 0, its irq and softirq shares and its NET_RX and
 * NET_TX softirqs; how many CPUs were left out (the least busy); the
 * interface's queues; and each interrupt line by its queue's name, its
 * share of the interface's interrupts and the CPU that took most of it.
 * Percentages are rounded to whole ones: the line is for reading, the
 * JSON has the figures.  No I/O but the stream it is given; the strings
 * may be the peer's, read within their arrays.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/irqaction.h"
#include "out/spread_text.h"

/* "cpu1 97% (irq 2%, sirq 71%, NET_RX 80211, NET_TX 5)" */
static void
spread_text_cpu(FILE *fp, const struct gb_spread_cpu *c)
{
	const char *sep = " (";

	fprintf(fp, " cpu%d %.0f%%", c->cpu, c->busy_pct);
	if (c->irq_pct >= 0.5) {
		fprintf(fp, "%sirq %.0f%%", sep, c->irq_pct);
		sep = ", ";
	}
	if (c->softirq_pct >= 0.5) {
		fprintf(fp, "%ssirq %.0f%%", sep, c->softirq_pct);
		sep = ", ";
	}
	if (c->has_softirqs && c->net_rx > 0) {
		fprintf(fp, "%sNET_RX %" PRIu64, sep, c->net_rx);
		sep = ", ";
	}
	if (c->has_softirqs && c->net_tx > 0) {
		fprintf(fp, "%sNET_TX %" PRIu64, sep, c->net_tx);
		sep = ", ";
	}
	if (sep[0] == ',')
		fputc(')', fp);
}

/* "eth0-TxRx-3 92% cpu2", "IRQ 41 n/a" */
static void
spread_text_line(FILE *fp, const struct gb_irq_line *l, const char *ifname)
{
	char label[sizeof(l->actions)];

	irqaction_label(l->actions, sizeof(l->actions), ifname, label,
	    sizeof(label));
	if (label[0] != '\0')
		fputs(label, fp);
	else
		fprintf(fp, "IRQ %.*s", (int)strnlen(l->name, sizeof(l->name)),
		    l->name);
	if (l->has_share)
		fprintf(fp, " %.0f%%", l->share_pct);
	else
		fputs(" n/a", fp);
	if (l->top_cpu >= 0)
		fprintf(fp, " cpu%d", l->top_cpu);
}

void
spread_text(FILE *fp, const struct gb_side *s, const char *prefix)
{
	const struct gb_spread *sp = &s->spread;
	const struct gb_iface_figures *f = &s->iface;
	char ifname[GB_IFNAME_LEN];
	unsigned i, n = sp->ncpu < GB_SPREAD_MAX_CPUS ? sp->ncpu :
	    GB_SPREAD_MAX_CPUS;

	if (!s->has || !sp->has)
		return;
	snprintf(ifname, sizeof(ifname), "%.*s",
	    (int)strnlen(f->name, sizeof(f->name)), f->name);
	fprintf(fp, "%s spread", prefix);
	if (n == 0)
		fputs(" cpus n/a", fp);
	for (i = 0; i < n; i++)
		spread_text_cpu(fp, &sp->cpu[i]);
	if (sp->ncpus > n)
		fprintf(fp, " (+%u less busy CPUs left out)", sp->ncpus - n);
	if (sp->has_queues)
		fprintf(fp, "; queues rx %" PRIu32 " tx %" PRIu32,
		    sp->rx_queues, sp->tx_queues);
	for (i = 0; i < f->nlines && i < GB_MAX_IRQ_LINES; i++) {
		fputs(i == 0 ? "; lines " : ", ", fp);
		spread_text_line(fp, &f->lines[i], ifname);
	}
	fputc('\n', fp);
}
