/*
 * bidir.c: --bidir's derived figures (base/bidir.h).  Pure arithmetic
 * over a struct gb_result whose four sides are known.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bidir.h"
#include "base/diag.h"

/* What one host shares between the directions, into its reverse side. */
static void
bidir_share(struct gb_side *fwd, struct gb_side *rev, int fwd_tx)
{
	struct gb_iface_figures f = fwd->iface;
	uint64_t pkts = f.rx_packets + f.tx_packets, segs;

	/* Both directions' data and ACKs: every packet either way. */
	f.has_irq_per_packet = f.has_interrupts && f.has_counters && pkts > 0;
	f.irq_per_packet = f.has_irq_per_packet ?
	    (double)f.interrupts / (double)pkts : 0;
	segs = fwd_tx ? fwd->tcp.data_segs_out + rev->tcp.data_segs_in :
	    fwd->tcp.data_segs_in + rev->tcp.data_segs_out;
	f.has_irq_per_segment = f.has_interrupts && fwd->tcp.has &&
	    rev->tcp.has && segs > 0;
	f.irq_per_segment = f.has_irq_per_segment ?
	    (double)f.interrupts / (double)segs : 0;
	fwd->iface = f;
	if (!rev->has)
		return;
	rev->cpu = fwd->cpu;
	rev->host_cpu = fwd->host_cpu;
	rev->iface = f;
	rev->spread = fwd->spread;
	rev->context = fwd->context;
}

void
bidir_host(struct gb_result *r)
{
	if (!r->params.bidir)
		return;
	/* The forward sender's host receives the reverse direction. */
	if (r->sender.has)
		bidir_share(&r->sender, &r->rreceiver, 1);
	if (r->receiver.has)
		bidir_share(&r->receiver, &r->rsender, 0);
}

struct gb_result *
bidir_reverse_new(const struct gb_result *r)
{
	struct gb_result *v;

	if ((v = calloc(1, sizeof(*v))) == NULL)
		return NULL;
	v->params = r->params;
	v->params.direction = r->params.direction == GB_DIR_CLIENT_SENDS ?
	    GB_DIR_CLIENT_RECEIVES : GB_DIR_CLIENT_SENDS;
	v->prov = r->prov;
	memcpy(v->peer, r->peer, sizeof(v->peer));
	v->port = r->port;
	v->local_is_sender = !r->local_is_sender;
	v->sender = r->rsender;
	v->receiver = r->rreceiver;
	/* -i, the client's: the reverse slices, with the listener's. */
	v->nintervals = r->nrintervals;
	memcpy(v->intervals, r->rintervals, r->nrintervals *
	    sizeof(r->rintervals[0]));
	v->npeer_intervals = r->nrpeer_intervals;
	memcpy(v->peer_intervals, r->rpeer_intervals, r->nrpeer_intervals *
	    sizeof(r->rpeer_intervals[0]));
	diag_run(v);
	return v;
}

/* Does s hold word as a name's part ("eth0-rx-0": "rx")? */
static int
has_part(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = s; (p = strcasestr(p, word)) != NULL; p++)
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
	return 0;
}

int
bidir_line_dir(const struct gb_irq_line *l)
{
	int rx = has_part(l->actions, "rx"), tx = has_part(l->actions, "tx");

	if ((rx && tx) || strcasestr(l->actions, "txrx") != NULL ||
	    strcasestr(l->actions, "rxtx") != NULL)
		return 3;
	return rx ? 1 : tx ? 2 : 0;
}

/*
 * A line that serves both directions (eth0-TxRx-0) and the host's
 * interrupts cannot be split.  Lines that name no direction ("eth0", a
 * link or misc vector) are left out when they took at most
 * BIDIR_OTHER_PCT of the interrupts, and the note says so; more, or no
 * rx or tx line at all, and nothing is split.
 */
#define BIDIR_OTHER_PCT	1.0

void
bidir_irq_split(const struct gb_iface_figures *f, struct bidir_irq *b)
{
	const struct gb_irq_line *big = NULL;
	uint64_t other = 0, all;
	unsigned i, nother = 0;
	int dir;

	memset(b, 0, sizeof(*b));
	if (!f->has_interrupts || f->nlines == 0) {
		snprintf(b->note, sizeof(b->note), "no interrupt lines");
		return;
	}
	for (i = 0; i < f->nlines; i++) {
		if ((dir = bidir_line_dir(&f->lines[i])) == 3) {
			snprintf(b->note, sizeof(b->note), "%.40s serves both "
			    "directions: not split", f->lines[i].actions);
			b->rx_irqs = b->tx_irqs = 0;
			return;
		}
		if (dir != 0) {
			*(dir == 1 ? &b->rx_irqs : &b->tx_irqs) +=
			    f->lines[i].count;
			continue;
		}
		other += f->lines[i].count;
		nother++;
		if (big == NULL || f->lines[i].count > big->count)
			big = &f->lines[i];
	}
	all = b->rx_irqs + b->tx_irqs + other;
	if (big != NULL && (b->rx_irqs + b->tx_irqs == 0 ||
	    (double)other > BIDIR_OTHER_PCT / 100 * (double)all)) {
		snprintf(b->note, sizeof(b->note), "%.32s names no direction "
		    "(%" PRIu64 " of %" PRIu64 " irqs): not split",
		    big->actions, other, all);
		b->rx_irqs = b->tx_irqs = 0;
		return;
	}
	if (big != NULL)
		snprintf(b->note, sizeof(b->note), "%.40s%s (%" PRIu64 " "
		    "irqs) left out: neither rx nor tx", big->actions,
		    nother > 1 ? " and others" : "", other);
	b->has = 1;
	if (f->has_counters && f->rx_packets > 0) {
		b->has_rx = 1;
		b->rx_per_packet = (double)b->rx_irqs / (double)f->rx_packets;
	}
	if (f->has_counters && f->tx_packets > 0) {
		b->has_tx = 1;
		b->tx_per_packet = (double)b->tx_irqs / (double)f->tx_packets;
	}
}
