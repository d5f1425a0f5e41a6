/*
 * diag.c: the diagnosis.  From the figures both sides measured it names
 * what most likely stopped the test where it stopped: a saturated CPU,
 * the TCP window, an interrupt for every packet, a shared or legacy IRQ
 * line, retransmissions, and how close the rate came to the link's
 * theoretical TCP goodput.  These are the answers the seed threads put
 * together by hand from ttcp, /proc/interrupts and /proc/stat.
 *
 * Every finding carries the numbers behind it, and none is drawn from a
 * figure whose has-flag is 0.  diag_run() is pure: it reads the result and
 * writes only its findings; the renderers only format them.  Knobs that
 * did not take are the warnings' business, not this file's.
 *
 * This file owns the run and the order of the findings, the figures
 * every finding reads (streams, rate, link, MTU), the CPU, retransmission
 * and goodput findings, and the text and JSON renderers.  The window
 * findings are diag_window.c's, the interrupt findings diag_irq.c's,
 * the spread's diag_spread.c's (diag_internal.h ties them).
 *
 * Part of the figures came from the peer over the network, so strings are
 * read within their arrays and findings are kept to printable ASCII.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "base/diag.h"
#include "base/safetext.h"
#include "diag_internal.h"

/* A single CPU this busy is the bottleneck (the seed's "100 % TX"). */
#define DIAG_CPU_BUSY_PCT	95.0
/* The MTU assumed when neither side knows its own. */
#define DIAG_DEFAULT_MTU	1500u
/* Larger than any interface MTU (loopback has 65536). */
#define DIAG_MAX_MTU		(1u << 20)

static const char *diag_fmt_pct(char *, size_t, double);
static void	 diag_cpu(struct gb_result *, const struct gb_side *,
		    const char *);
static void	 diag_retransmits(struct gb_result *);
static void	 diag_goodput(struct gb_result *);
static void	 diag_spread(struct gb_result *);

/* ---- helpers ---- */

/* Append a finding; findings past GB_MAX_FINDINGS are dropped. */
void
diag_add(struct gb_result *r, const char *code, const char *side,
    const char *fmt, ...)
{
	struct gb_finding	*f;
	va_list			 ap;

	if (r->nfindings >= GB_MAX_FINDINGS)
		return;
	f = &r->findings[r->nfindings++];
	snprintf(f->code, sizeof(f->code), "%s", code);
	snprintf(f->side, sizeof(f->side), "%s", side);
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
	safetext_inplace(f->text, sizeof(f->text));
}

int
diag_streams(const struct gb_result *r)
{
	return r->params.streams > 1 ? (int)r->params.streams : 1;
}

/* The delivered rate: the receiver's, or the sender's; 0 when unknown. */
double
diag_rate_mbps(const struct gb_result *r)
{
	if (r->receiver.has && r->receiver.mbps > 0)
		return r->receiver.mbps;
	if (r->sender.has && r->sender.mbps > 0)
		return r->sender.mbps;
	return 0;
}

/* --link-rate, else the slower known interface speed; 0 when unknown. */
double
diag_link_mbps(const struct gb_result *r)
{
	const struct gb_side	*s[2] = { &r->sender, &r->receiver };
	double			 link = 0;
	size_t			 i;

	if (r->params.link_mbps != 0)
		return (double)r->params.link_mbps;
	for (i = 0; i < 2; i++) {
		if (!s[i]->has || !s[i]->context.has ||
		    s[i]->context.speed_mbps <= 0)
			continue;
		if (!(link > 0) || (double)s[i]->context.speed_mbps < link)
			link = (double)s[i]->context.speed_mbps;
	}
	return link;
}

/*
 * The MTU the data frames were cut to: the sender's, else the receiver's,
 * else 1500 with *assumed set.
 */
unsigned
diag_mtu(const struct gb_result *r, int *assumed)
{
	const struct gb_side	*s[2] = { &r->sender, &r->receiver };
	size_t			 i;

	*assumed = 0;
	for (i = 0; i < 2; i++)
		if (s[i]->has && s[i]->context.has &&
		    s[i]->context.mtu > 0 && s[i]->context.mtu <= DIAG_MAX_MTU)
			return (unsigned)s[i]->context.mtu;
	*assumed = 1;
	return DIAG_DEFAULT_MTU;
}

/* A percentage with two significant digits when it is small: "0.00041". */
static const char *
diag_fmt_pct(char *buf, size_t len, double pct)
{
	double	exp10;
	int	prec = 1;

	if (pct > 0 && pct < 1.0) {
		exp10 = floor(log10(pct));
		prec = 1 - (int)exp10;
		if (prec > 8)
			prec = 8;
	}
	snprintf(buf, len, "%.*f", prec, pct);
	return buf;
}

/* ---- findings: CPU, retransmits, goodput (in the order of diag_run) ---- */

/*
 * A core at 95 % or more on either end, or the process itself using one
 * whole core when one stream (one thread) moved the data.  The host's
 * split is over all its CPUs.
 */
static void
diag_cpu(struct gb_result *r, const struct gb_side *s, const char *side)
{
	const struct gb_host_cpu	*h = &s->host_cpu;
	const struct gb_proc_cpu	*c = &s->cpu;
	char				 host[128] = "", proc[96] = "";

	if (!s->has)
		return;
	if (h->has && h->max_cpu_busy_pct >= DIAG_CPU_BUSY_PCT)
		snprintf(host, sizeof(host), "cpu%d %.1f %% busy (host: %.1f "
		    "usr %.1f sys %.1f irq %.1f softirq %%)", h->max_cpu,
		    h->max_cpu_busy_pct, h->user_pct, h->sys_pct, h->irq_pct,
		    h->softirq_pct);
	if (diag_streams(r) == 1 && c->process_pct >= DIAG_CPU_BUSY_PCT)
		snprintf(proc, sizeof(proc), "process %.1f %% of one CPU "
		    "(%.1f usr %.1f sys %%)", c->process_pct, c->user_pct,
		    c->sys_pct);
	if (host[0] == '\0' && proc[0] == '\0')
		return;
	diag_add(r, "cpu_bound", side, "%s%s%s", host,
	    host[0] != '\0' && proc[0] != '\0' ? "; " : "", proc);
}

static void
diag_retransmits(struct gb_result *r)
{
	const struct gb_tcp	*t = &r->sender.tcp;
	char			 pct[DIAG_TOKLEN];

	if (!r->sender.has || !t->has || t->retransmits == 0)
		return;
	if (t->data_segs_out == 0) {
		diag_add(r, "retransmits", "sender", "%" PRIu32
		    " retransmitted segment%s", t->retransmits,
		    t->retransmits == 1 ? "" : "s");
		return;
	}
	diag_add(r, "retransmits", "sender", "%" PRIu32 " retransmitted "
	    "segment%s (%s %% of %" PRIu64 " data segments)", t->retransmits,
	    t->retransmits == 1 ? "" : "s", diag_fmt_pct(pct, sizeof(pct),
	    100.0 * t->retransmits / (double)t->data_segs_out),
	    t->data_segs_out);
}

static void
diag_goodput(struct gb_result *r)
{
	double		rate = diag_rate_mbps(r), link = diag_link_mbps(r), gp;
	unsigned	mtu;
	int		assumed;

	if (!(rate > 0) || !(link > 0))
		return;
	mtu = diag_mtu(r, &assumed);
	gp = diag_goodput_mbps(link, mtu, r->params.udp ?
	    DIAG_UDPIP_HEADER_BYTES : DIAG_TCPIP_HEADER_BYTES,
	    DIAG_ETHERNET_OVERHEAD_BYTES);
	if (!(gp > 0))
		return;
	diag_add(r, "goodput", "path", "%.1f Mbps = %.1f %% of the %.1f Mbps "
	    "%s goodput of %.0f Mbit/s Ethernet%s at MTU %u%s", rate,
	    100.0 * rate / gp, gp, r->params.udp ? "UDP" : "TCP", link,
	    r->params.link_mbps != 0 ? " (--link-rate)" : "", mtu,
	    assumed ? " (assumed)" : "");
}

/* The spread's findings on both ends (diag_spread.c). */
static void
diag_spread(struct gb_result *r)
{
	diag_few_vectors(r, &r->sender, "sender");
	diag_few_vectors(r, &r->receiver, "receiver");
	diag_irq_pile(r, &r->sender, "sender");
	diag_irq_pile(r, &r->receiver, "receiver");
	diag_cpu_softirq(r, &r->sender, "sender");
	diag_cpu_softirq(r, &r->receiver, "receiver");
}

/* ---- interface ---- */

double
diag_goodput_mbps(double link_mbps, unsigned mtu, unsigned header_bytes,
    unsigned overhead_bytes)
{
	if (mtu <= header_bytes || !(link_mbps > 0))
		return 0;
	return link_mbps * (double)(mtu - header_bytes) /
	    ((double)mtu + overhead_bytes);
}

double
diag_tcp_goodput_mbps(double link_mbps, unsigned mtu, unsigned overhead_bytes)
{
	return diag_goodput_mbps(link_mbps, mtu, DIAG_TCPIP_HEADER_BYTES,
	    overhead_bytes);
}

/*
 * At most 21 findings (2 cpu_bound, 2 window_limited, 1 window size, 2
 * no_coalescing, 2 shared_irq, 2 legacy_irq, 2 few_vectors, 2 irq_pile,
 * 2 cpu_softirq_bound, retransmits, goodput, udp_loss, udp_held_back):
 * they fit GB_MAX_FINDINGS, and diag_add() drops any past it all the
 * same.
 */
/*
 * A sample too small to carry a finding: /proc/stat counts in ticks of
 * 10 ms, so a 10 ms test is one tick, "100 % busy"; the TCP_INFO limited
 * times and the interrupt counts are as thin.  Below half a second or a
 * hundred packets (data segments sent, or datagrams received) the one
 * finding is that.
 */
#define DIAG_MIN_SECONDS	0.5
#define DIAG_MIN_PACKETS	100

static int
diag_too_short(struct gb_result *r)
{
	const struct gb_side *d = r->receiver.has ? &r->receiver : &r->sender;
	struct gb_udp_figures f;
	uint64_t pkts = 0;
	int has_pkts = 0;

	if (!d->has)
		return 0;
	if (r->params.udp) {
		result_udp(r, &f);
		has_pkts = f.has;
		pkts = f.received;
	} else if (r->params.crr && r->sender.rr.has) {
		/* --crr: the streams' own connections carry no data */
		has_pkts = 1;
		pkts = r->sender.rr.transactions;
	} else if (r->sender.has && r->sender.tcp.has &&
	    r->sender.tcp.data_segs_out > 0) {	/* 0: an old kernel's */
		has_pkts = 1;
		pkts = r->sender.tcp.data_segs_out;
	}
	if (d->seconds >= DIAG_MIN_SECONDS && (!has_pkts ||
	    pkts >= DIAG_MIN_PACKETS))
		return 0;
	if (has_pkts)
		diag_add(r, "too_short", "both", "too short to diagnose: %.3f "
		    "s and %" PRIu64 " %s (needs %.1f s and %d)", d->seconds,
		    pkts, r->params.udp ? "datagrams" : r->params.crr ?
		    "transactions" : "data segments",
		    DIAG_MIN_SECONDS, DIAG_MIN_PACKETS);
	else
		diag_add(r, "too_short", "both", "too short to diagnose: %.3f "
		    "s (needs %.1f s)", d->seconds, DIAG_MIN_SECONDS);
	return 1;
}

void
diag_run(struct gb_result *r)
{
	r->nfindings = 0;
	memset(r->findings, 0, sizeof(r->findings));
	if (diag_too_short(r))
		return;
	diag_cpu(r, &r->sender, "sender");
	diag_cpu(r, &r->receiver, "receiver");
	if (r->params.rr) {	/* a few bytes a transaction: no window */
		diag_irq_shared(r, &r->sender, "sender");
		diag_irq_shared(r, &r->receiver, "receiver");
		diag_irq_legacy(r, &r->sender, "sender");
		diag_irq_legacy(r, &r->receiver, "receiver");
		diag_spread(r);
		diag_retransmits(r);
		diag_rr(r);
		return;
	}
	diag_window_limited(r);
	diag_window_size(r);
	diag_coalescing(r, &r->sender, "sender", 1);
	diag_coalescing(r, &r->receiver, "receiver", 0);
	diag_profile_copy(r, &r->sender, "sender", 1);
	diag_profile_copy(r, &r->receiver, "receiver", 0);
	diag_irq_shared(r, &r->sender, "sender");
	diag_irq_shared(r, &r->receiver, "receiver");
	diag_irq_legacy(r, &r->sender, "sender");
	diag_irq_legacy(r, &r->receiver, "receiver");
	diag_spread(r);
	diag_retransmits(r);
	diag_goodput(r);
	diag_udp(r);
}

void
diag_text(FILE *fp, const struct gb_result *r)
{
	const struct gb_finding	*f;
	unsigned		 i, n = r->nfindings;

	if (n > GB_MAX_FINDINGS)
		n = GB_MAX_FINDINGS;
	if (n == 0) {
		fputs("gigebench-d: nothing notable\n", fp);
		return;
	}
	for (i = 0; i < n; i++) {
		f = &r->findings[i];
		fprintf(fp, "gigebench-d: %.*s %.*s: %.*s\n",
		    (int)strnlen(f->side, sizeof(f->side)), f->side,
		    (int)strnlen(f->code, sizeof(f->code)), f->code,
		    (int)strnlen(f->text, sizeof(f->text)), f->text);
	}
}

json_t *
diag_json(const struct gb_result *r)
{
	const struct gb_finding	*f;
	json_t			*a, *o;
	unsigned		 i, n = r->nfindings;

	if (n > GB_MAX_FINDINGS)
		n = GB_MAX_FINDINGS;
	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		f = &r->findings[i];
		o = json_pack("{s:s%, s:s%, s:s%}",
		    "code", f->code, strnlen(f->code, sizeof(f->code)),
		    "side", f->side, strnlen(f->side, sizeof(f->side)),
		    "text", f->text, strnlen(f->text, sizeof(f->text)));
		if (o == NULL || json_array_append_new(a, o) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
