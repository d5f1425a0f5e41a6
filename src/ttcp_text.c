/*
 * ttcp_text.c: the classic ttcp's lines (out/ttcp_text.h).  Each
 * format string is the 1991 ttcp.c's; its arithmetic too, quirks kept
 * (msec/call is 1024 x seconds / calls, maxrss is halved, the CPU and
 * real times of the rusage line are truncated to tenths and to whole
 * seconds), because scripts compare these numbers with old runs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codec/side.h"
#include "out/ttcp_text.h"

const char *
ttcp_text_role(const struct ttcp_cfg *c)
{
	return c->trans ? "ttcp-t" : "ttcp-r";
}

void
ttcp_text_header(FILE *f, const struct ttcp_cfg *c)
{
	fprintf(f, "%s: buflen=%" PRIu32 ", nbuf=%" PRIu64 ", align=%" PRIu32
	    "/%" PRIu32 ", port=%u", ttcp_text_role(c), c->buflen, c->nbuf,
	    c->align, c->offset, (unsigned)c->port);
	if (c->sockbuf != 0)
		fprintf(f, ", sockbufsize=%" PRIu32, c->sockbuf);
	if (c->trans)
		fprintf(f, "  %s  -> %s\n", c->udp ? "udp" : "tcp", c->host);
	else
		fprintf(f, "  %s\n", c->udp ? "udp" : "tcp");
}

void
ttcp_text_note(FILE *f, const struct ttcp_cfg *c, const char *text)
{
	fprintf(f, "%s: %s\n", ttcp_text_role(c), text);
}

void
ttcp_text_error(FILE *f, const struct ttcp_cfg *c, const char *err,
    int errnum)
{
	fprintf(f, "%s: %s\n", ttcp_text_role(c), err);
	if (errnum != 0)
		fprintf(f, "%s: errno=%d\n", ttcp_text_role(c), errnum);
}

void
ttcp_text_rate(char fmt, double b, char *buf, size_t len)
{
	const double k = 1024.0;

	switch (fmt) {
	case 'G': snprintf(buf, len, "%.2f GB", b / k / k / k); break;
	case 'M': snprintf(buf, len, "%.2f MB", b / k / k); break;
	case 'g': snprintf(buf, len, "%.2f Gbit", b * 8 / k / k / k); break;
	case 'm': snprintf(buf, len, "%.2f Mbit", b * 8 / k / k); break;
	case 'k': snprintf(buf, len, "%.2f Kbit", b * 8 / k); break;
	default: snprintf(buf, len, "%.2f KB", b / k); break;
	}
}

/* A timeval difference, normalised as ttcp's tvsub(). */
static void
tv_sub(struct timeval *d, const struct timeval *a, const struct timeval *b)
{
	d->tv_sec = a->tv_sec - b->tv_sec;
	d->tv_usec = a->tv_usec - b->tv_usec;
	if (d->tv_usec < 0) {
		d->tv_sec--;
		d->tv_usec += 1000000;
	}
}

/* ttcp's psecs(): "0:05", "12:34", "1:02:03". */
static void
psecs(long l, char *p, size_t len)
{
	long m = l % 3600 / 60, sec = l % 60;

	if (l >= 3600)
		snprintf(p, len, "%ld:%ld%ld:%ld%ld", l / 3600, m / 10, m % 10,
		    sec / 10, sec % 10);
	else
		snprintf(p, len, "%ld:%ld%ld", l / 60, sec / 10, sec % 10);
}

void
ttcp_text_rusage(const struct ttcp_rusage *r0, const struct ttcp_rusage *r1,
    double realt, char *buf, size_t len)
{
	struct timeval u, s;
	long t, ms, x, d;
	char e[32];

	t = (r1->utime.tv_sec - r0->utime.tv_sec) * 100 +
	    (r1->utime.tv_usec - r0->utime.tv_usec) / 10000 +
	    (r1->stime.tv_sec - r0->stime.tv_sec) * 100 +
	    (r1->stime.tv_usec - r0->stime.tv_usec) / 10000;
	ms = (long)(realt * 100);	/* ttcp's "ms" is centiseconds */
	tv_sub(&u, &r1->utime, &r0->utime);
	tv_sub(&s, &r1->stime, &r0->stime);
	psecs(ms / 100, e, sizeof(e));
	x = t == 0 ? 0 : (r1->ixrss - r0->ixrss) / t;
	d = t == 0 ? 0 : (r1->idrss + r1->isrss - (r0->idrss + r0->isrss)) / t;
	snprintf(buf, len, "%ld.%01lduser %ld.%01ldsys %sreal %d%% %ldi+%ldd "
	    "%ldmaxrss %ld+%ldpf %ld+%ldcsw", (long)u.tv_sec,
	    (long)u.tv_usec / 100000, (long)s.tv_sec,
	    (long)s.tv_usec / 100000, e, (int)(t * 100 / (ms != 0 ? ms : 1)),
	    x, d, r1->maxrss / 2, r1->majflt - r0->majflt,
	    r1->minflt - r0->minflt, r1->nvcsw - r0->nvcsw,
	    r1->nivcsw - r0->nivcsw);
}

void
ttcp_text_result(FILE *f, const struct ttcp_cfg *c,
    const struct ttcp_counts *n)
{
	const char *who = ttcp_text_role(c);
	double realt = n->realt > 0 ? n->realt : 0.001;
	double cput = n->cput >= 0.00001 ? n->cput : 0.00001;
	double calls = n->calls != 0 ? (double)n->calls : 1;
	char rate[48], ru[160];

	ttcp_text_rate(c->fmt, (double)n->nbytes / realt, rate, sizeof(rate));
	fprintf(f, "%s: %" PRIu64 " bytes in %.2f real seconds = %s/sec "
	    "+++\n", who, n->nbytes, realt, rate);
	if (c->verbose) {
		ttcp_text_rate(c->fmt, (double)n->nbytes / cput, rate,
		    sizeof(rate));
		fprintf(f, "%s: %" PRIu64 " bytes in %.2f CPU seconds = "
		    "%s/cpu sec\n", who, n->nbytes, cput, rate);
	}
	fprintf(f, "%s: %" PRIu64 " I/O calls, msec/call = %.2f, calls/sec "
	    "= %.2f\n", who, n->calls, 1024.0 * realt / calls,
	    (double)n->calls / realt);
	ttcp_text_rusage(&n->ru0, &n->ru1, n->realt, ru, sizeof(ru));
	fprintf(f, "%s: %s\n", who, ru);
	if (c->verbose)
		fprintf(f, "%s: buffer address %#" PRIxPTR "\n", who,
		    n->bufaddr);
}

static void
side_cpu(FILE *f, const char *who, const struct gb_side *s)
{
	const struct gb_host_cpu *h = &s->host_cpu;

	fprintf(f, "%s: gigebench: process CPU %.1f %% (user %.1f %%, "
	    "system %.1f %%)\n", who, s->cpu.process_pct, s->cpu.user_pct,
	    s->cpu.sys_pct);
	if (h->has)
		fprintf(f, "%s: gigebench: host CPU %.1f %% busy of %d CPUs "
		    "(user %.1f %%, system %.1f %%, irq %.1f %%, softirq "
		    "%.1f %%), busiest cpu%d %.1f %%\n", who, h->busy_pct,
		    h->ncpus, h->user_pct, h->sys_pct, h->irq_pct,
		    h->softirq_pct, h->max_cpu, h->max_cpu_busy_pct);
}

static void
side_iface(FILE *f, const char *who, const struct gb_side *s, int tx)
{
	const struct gb_iface_figures *i = &s->iface;

	if (i->name[0] == '\0')
		return;
	if (i->has_counters)
		fprintf(f, "%s: gigebench: interface %s: %" PRIu64 " packets "
		    "%s\n", who, i->name, tx ? i->tx_packets : i->rx_packets,
		    tx ? "sent" : "received");
	if (i->has_interrupts)
		fprintf(f, "%s: gigebench: interrupts %" PRIu64 " on %s "
		    "(irq %s)%s%.3f per packet\n", who, i->interrupts, i->name,
		    i->irq_list, i->has_irq_per_packet ? ": " : "",
		    i->has_irq_per_packet ? i->irq_per_packet : 0.0);
	else if (i->irq_note[0] != '\0')
		fprintf(f, "%s: gigebench: interrupts: %s\n", who, i->irq_note);
	if (i->has_softirq)
		fprintf(f, "%s: gigebench: softirqs NET_RX %" PRIu64 ", NET_TX "
		    "%" PRIu64 "\n", who, i->net_rx_softirqs, i->net_tx_softirqs);
}

static void
side_buf(FILE *f, const char *who, const char *name,
    const struct gb_sockbuf *b)
{
	if (b->requested != 0)
		fprintf(f, "%s: gigebench: %s asked %" PRIu32 ", got %" PRIu32
		    "\n", who, name, b->requested, b->actual);
	else
		fprintf(f, "%s: gigebench: %s %" PRIu32 " (the kernel's "
		    "default)\n", who, name, b->actual);
}

void
ttcp_text_side(FILE *f, const struct ttcp_cfg *c,
    const struct ttcp_counts *n, const struct gb_side *s)
{
	const char *who = ttcp_text_role(c);
	const struct gb_tcp *t = &s->tcp;
	unsigned i;

	if (!s->has)
		return;
	side_cpu(f, who, s);
	side_iface(f, who, s, c->trans);
	if (t->has)
		fprintf(f, "%s: gigebench: TCP retransmits %" PRIu32 ", rtt "
		    "%.3f ms, cwnd %" PRIu32 ", mss %" PRIu32 "\n", who,
		    t->retransmits, t->rtt_us / 1000.0, t->cwnd, t->mss);
	side_buf(f, who, c->trans ? "SO_SNDBUF" : "SO_RCVBUF",
	    c->trans ? &s->sndbuf : &s->rcvbuf);
	if (c->udp && !c->trans && !n->ended)
		fprintf(f, "%s: gigebench: no end sentinel came: ended after "
		    "%g s of silence\n", who, c->silent_ms / 1000.0);
	for (i = 0; i < s->nwarnings; i++)
		fprintf(f, "%s: gigebench: warning: %s\n", who,
		    s->warnings[i]);
}

json_t *
ttcp_json(const struct ttcp_cfg *c, const struct ttcp_counts *n,
    const struct gb_side *s)
{
	json_t *side = side_json(s);

	return json_pack("{s:s, s:s, s:{s:s, s:b, s:I, s:I, s:i, s:I, s:I, "
	    "s:s?}, s:{s:I, s:f, s:I, s:f, s:o, s:o, s:s}}",
	    "program", "gigebench", "mode", "ttcp",
	    "params", "role", c->trans ? "transmit" : "receive",
	    "udp", c->udp, "buflen", (json_int_t)c->buflen,
	    "nbuf", (json_int_t)c->nbuf, "port", (int)c->port,
	    "align", (json_int_t)c->align, "offset", (json_int_t)c->offset,
	    "host", c->host,
	    "result", "bytes", (json_int_t)n->nbytes, "seconds", n->realt,
	    "calls", (json_int_t)n->calls,
	    "mbps", result_mbps(n->nbytes, n->realt),
	    c->trans ? "sender" : "receiver", side != NULL ? side :
	    json_null(),
	    c->trans ? "receiver" : "sender", json_null(),
	    "peer_missing", "classic ttcp peer");
}
