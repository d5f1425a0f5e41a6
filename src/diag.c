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

/* A single CPU this busy is the bottleneck (the seed's "100 % TX"). */
#define DIAG_CPU_BUSY_PCT	95.0
/* Share of the sender's busy time that TCP spent window-limited. */
#define DIAG_LIMITED_PCT	10.0
/* A window this many times the BDP is worth a word, not a warning. */
#define DIAG_OVERSIZE_FACTOR	10.0
/* Below this share of the goodput, the link was not full. */
#define DIAG_FULL_LINK_PCT	90.0
/* One interrupt per packet or more: nothing is coalesced (SUNGEM). */
#define DIAG_IRQ_PER_PACKET	1.0
/* The MTU assumed when neither side knows its own. */
#define DIAG_DEFAULT_MTU	1500u
/* Larger than any interface MTU (loopback has 65536). */
#define DIAG_MAX_MTU		(1u << 20)

#define DIAG_TOKLEN		64

/* Interrupt controllers of wired (INTx) lines: not MSI. */
static const char *const diag_legacy_chips[] = {
	"IO-APIC",	/* also "IR-IO-APIC" */
	"XT-PIC",
	"OpenPIC",
};
#define NLEGACY_CHIPS	\
	(sizeof(diag_legacy_chips) / sizeof(diag_legacy_chips[0]))

typedef int	(*diag_line_pred)(const struct gb_irq_line *);

static void	 diag_add(struct gb_result *, const char *, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
static void	 diag_ascii(char *);
static int	 diag_streams(const struct gb_result *);
static double	 diag_rate_mbps(const struct gb_result *);
static double	 diag_link_mbps(const struct gb_result *);
static unsigned	 diag_mtu(const struct gb_result *, int *);
static const char *diag_fmt_bytes(char *, size_t, double);
static const char *diag_fmt_pct(char *, size_t, double);
static const char *diag_rawname(char *, size_t, const struct gb_side *);
static const char *diag_ifname(char *, size_t, const struct gb_side *);
static void	 diag_squeeze(char *, size_t, const char *, size_t);
static int	 diag_action_is(const char *, size_t, const char *);
static void	 diag_others(char *, size_t, const struct gb_irq_line *,
		    const char *);
static int	 diag_line_shared(const struct gb_irq_line *);
static int	 diag_line_legacy(const struct gb_irq_line *);
static int	 diag_line_find(const struct gb_side *, diag_line_pred,
		    unsigned *);
static void	 diag_line_parts(char *, size_t, char *, size_t,
		    const struct gb_irq_line *, unsigned);
static double	 diag_limited_pct(const struct gb_tcp *, uint64_t);
static uint32_t	 diag_window_bytes(const struct gb_side *);
static void	 diag_cpu(struct gb_result *, const struct gb_side *,
		    const char *);
static void	 diag_window_limited(struct gb_result *);
static void	 diag_window_size(struct gb_result *);
static void	 diag_coalescing(struct gb_result *, const struct gb_side *,
		    const char *, int);
static void	 diag_irq_shared(struct gb_result *, const struct gb_side *,
		    const char *);
static void	 diag_irq_legacy(struct gb_result *, const struct gb_side *,
		    const char *);
static void	 diag_retransmits(struct gb_result *);
static void	 diag_goodput(struct gb_result *);

/* ---- helpers ---- */

/* Append a finding; findings past GB_MAX_FINDINGS are dropped. */
static void
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
	diag_ascii(f->text);
}

/*
 * Keep a text to printable ASCII: a peer's interface or driver name must
 * not reach a terminal as an escape sequence, and a multi-byte character
 * cut by truncation must not make the JSON invalid.
 */
static void
diag_ascii(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

static int
diag_streams(const struct gb_result *r)
{
	return r->params.streams > 1 ? (int)r->params.streams : 1;
}

/* The delivered rate: the receiver's, or the sender's; 0 when unknown. */
static double
diag_rate_mbps(const struct gb_result *r)
{
	if (r->receiver.has && r->receiver.mbps > 0)
		return r->receiver.mbps;
	if (r->sender.has && r->sender.mbps > 0)
		return r->sender.mbps;
	return 0;
}

/* --link-rate, else the slower known interface speed; 0 when unknown. */
static double
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
static unsigned
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

/*
 * "768 KB", "9.6 KB", "1.5 MB": KB and MB are 2^10 and 2^20 bytes, as
 * ttcp and -b count them.  One decimal only where it says something.
 */
static const char *
diag_fmt_bytes(char *buf, size_t len, double bytes)
{
	const char	*unit = "KB";
	double		 v = bytes / 1024.0;

	if (v >= 1024.0) {
		v /= 1024.0;
		unit = "MB";
	}
	if (v >= 100.0 || fabs(v - round(v)) < 0.05)
		snprintf(buf, len, "%.0f %s", v, unit);
	else
		snprintf(buf, len, "%.1f %s", v, unit);
	return buf;
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

/* The interface's name, "" when unknown. */
static const char *
diag_rawname(char *buf, size_t len, const struct gb_side *s)
{
	snprintf(buf, len, "%.*s",
	    (int)strnlen(s->iface.name, sizeof(s->iface.name)), s->iface.name);
	return buf;
}

/* The interface's name for a sentence. */
static const char *
diag_ifname(char *buf, size_t len, const struct gb_side *s)
{
	if (diag_rawname(buf, len, s)[0] == '\0')
		snprintf(buf, len, "the interface");
	return buf;
}

/* Copy src (at most srclen bytes), runs of blanks made one, ends trimmed. */
static void
diag_squeeze(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t	i, n = 0;
	int	blank = 0;

	if (len == 0)
		return;
	for (i = 0; i < srclen && src[i] != '\0' && n + 1 < len; i++) {
		if (src[i] == ' ' || src[i] == '\t') {
			blank = n > 0;
			continue;
		}
		if (blank && n + 2 < len)
			dst[n++] = ' ';
		blank = 0;
		dst[n++] = src[i];
	}
	dst[n] = '\0';
}

/*
 * Is the action (len bytes) the interface itself?  The same rule as
 * irqline.c: "eth0", "eth0-TxRx-0", "eth0:lsc", "eth0@pci".
 */
static int
diag_action_is(const char *action, size_t len, const char *ifname)
{
	size_t	iflen = strlen(ifname);

	if (iflen == 0 || len < iflen || strncmp(action, ifname, iflen) != 0)
		return 0;
	return len == iflen || action[iflen] == '-' ||
	    action[iflen] == ':' || action[iflen] == '@';
}

/* The line's actions other than the interface: "uhci_hcd:usb3". */
static void
diag_others(char *dst, size_t len, const struct gb_irq_line *l,
    const char *ifname)
{
	char	acts[sizeof(l->actions)];
	char	*p, *tok;
	size_t	n;

	diag_squeeze(acts, sizeof(acts), l->actions, sizeof(l->actions));
	dst[0] = '\0';
	for (p = acts; *p != '\0'; p += *p == ',') {
		p += strspn(p, " ");
		tok = p;
		n = strcspn(p, ",");
		p += n;
		while (n > 0 && tok[n - 1] == ' ')
			n--;
		if (n == 0 || diag_action_is(tok, n, ifname))
			continue;
		snprintf(dst + strlen(dst), len - strlen(dst), "%s%.*s",
		    dst[0] != '\0' ? ", " : "", (int)n, tok);
	}
	if (dst[0] == '\0')
		snprintf(dst, len, "another device");
}

static int
diag_line_shared(const struct gb_irq_line *l)
{
	return l->shared != 0;
}

static int
diag_line_legacy(const struct gb_irq_line *l)
{
	char	chip[sizeof(l->chip) + 1];
	size_t	i;

	memcpy(chip, l->chip, sizeof(l->chip));
	chip[sizeof(l->chip)] = '\0';
	for (i = 0; i < NLEGACY_CHIPS; i++)
		if (strstr(chip, diag_legacy_chips[i]) != NULL)
			return 1;
	return 0;
}

/*
 * The first of the side's IRQ lines that pred holds for, or -1; *more
 * gets how many others it holds for.
 */
static int
diag_line_find(const struct gb_side *s, diag_line_pred pred, unsigned *more)
{
	unsigned	i, n = s->iface.nlines;
	int		first = -1;

	*more = 0;
	if (!s->has)
		return -1;
	if (n > GB_MAX_IRQ_LINES)
		n = GB_MAX_IRQ_LINES;
	for (i = 0; i < n; i++) {
		if (!pred(&s->iface.lines[i]))
			continue;
		if (first == -1)
			first = (int)i;
		else
			(*more)++;
	}
	return first;
}

/* " (IO-APIC-fasteoi)" and " (+2 more)" as parts of a line's finding. */
static void
diag_line_parts(char *chip, size_t chiplen, char *more, size_t morelen,
    const struct gb_irq_line *l, unsigned nmore)
{
	char	squeezed[sizeof(l->chip)];

	diag_squeeze(squeezed, sizeof(squeezed), l->chip, sizeof(l->chip));
	snprintf(chip, chiplen, "%s%s%s", squeezed[0] != '\0' ? " (" : "",
	    squeezed, squeezed[0] != '\0' ? ")" : "");
	if (nmore > 0)
		snprintf(more, morelen, " (+%u more)", nmore);
	else
		more[0] = '\0';
}

/* Share of the busy time limited_us stands for; -1 when unknown. */
static double
diag_limited_pct(const struct gb_tcp *t, uint64_t limited_us)
{
	if (!t->has || !t->has_limited || t->busy_us == 0)
		return -1;
	return 100.0 * (double)limited_us / (double)t->busy_us;
}

/*
 * The receiver's window, when -b fixed it: the SO_RCVBUF asked for, or
 * what the kernel granted when that is less (capped by rmem_max).  Linux
 * doubles a request and keeps half for bookkeeping, so the request, not
 * the doubled figure, is close to the window it advertises.  Without -b
 * the buffer is autotuned up to tcp_rmem's maximum and the size read at
 * the start says nothing about the window: 0.
 */
static uint32_t
diag_window_bytes(const struct gb_side *rx)
{
	const struct gb_sockbuf *b = &rx->rcvbuf;

	if (!rx->has || b->requested == 0)
		return 0;
	if (b->actual != 0 && b->actual < b->requested)
		return b->actual;
	return b->requested;
}

/* ---- findings, in the order they are reported ---- */

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

/* tcpi_rwnd_limited / tcpi_sndbuf_limited over tcpi_busy_time. */
static void
diag_window_limited(struct gb_result *r)
{
	const struct gb_tcp	*t = &r->sender.tcp;
	double			 pct;

	if (!r->sender.has)
		return;
	pct = diag_limited_pct(t, t->rwnd_limited_us);
	if (pct >= DIAG_LIMITED_PCT)
		diag_add(r, "window_limited", "receiver", "limited by the "
		    "receive window %.0f %% of the time (%.2f of %.2f s busy)",
		    pct, (double)t->rwnd_limited_us / 1e6,
		    (double)t->busy_us / 1e6);
	pct = diag_limited_pct(t, t->sndbuf_limited_us);
	if (pct >= DIAG_LIMITED_PCT)
		diag_add(r, "window_limited", "sender", "limited by the "
		    "send buffer %.0f %% of the time (%.2f of %.2f s busy)",
		    pct, (double)t->sndbuf_limited_us / 1e6,
		    (double)t->busy_us / 1e6);
}

/*
 * The window against the bandwidth-delay product, per stream: rate * RTT
 * at the link rate when it is known (what the window must cover), else
 * at the measured rate.  Ten times too large is informative (the seed's
 * 768 KB for a 15 KB path); too small matters only when TCP says the
 * window limited it or the link was visibly not full.
 */
static void
diag_window_size(struct gb_result *r)
{
	const struct gb_tcp	*t = &r->sender.tcp;
	const struct gb_sockbuf	*b = &r->receiver.rcvbuf;
	double			 rate = diag_rate_mbps(r);
	double			 link = diag_link_mbps(r);
	double			 basis, bdp, gp, rwnd_pct;
	uint32_t		 win = diag_window_bytes(&r->receiver);
	int			 streams = diag_streams(r), assumed, slow;
	char			 w[DIAG_TOKLEN], d[DIAG_TOKLEN];
	char			 how[DIAG_TOKLEN * 2];

	if (win == 0 || !r->sender.has || !t->has || t->rtt_us == 0)
		return;
	basis = link > 0 ? link : rate;
	if (!(basis > 0))
		return;
	bdp = basis * 1e6 / 8 * (double)t->rtt_us / 1e6 / streams;
	diag_fmt_bytes(w, sizeof(w), win);
	diag_fmt_bytes(d, sizeof(d), bdp);
	if (link > 0)
		snprintf(how, sizeof(how), "%.0f Mbit/s link", link);
	else
		snprintf(how, sizeof(how), "%.1f Mbps", rate);
	if (streams > 1)
		snprintf(how + strlen(how), sizeof(how) - strlen(how),
		    " / %d streams", streams);
	snprintf(how + strlen(how), sizeof(how) - strlen(how),
	    " x %.3f ms RTT", t->rtt_us / 1e3);

	if (win >= DIAG_OVERSIZE_FACTOR * bdp) {
		diag_add(r, "window_oversized", "receiver", "%s window, path "
		    "BDP %s%s (%s): window %.0fx larger than needed", w, d,
		    streams > 1 ? " per stream" : "", how, win / bdp);
		return;
	}
	if (!(win < bdp))
		return;
	rwnd_pct = diag_limited_pct(t, t->rwnd_limited_us);
	gp = diag_tcp_goodput_mbps(link, diag_mtu(r, &assumed),
	    DIAG_ETHERNET_OVERHEAD_BYTES);
	slow = gp > 0 && rate > 0 && rate < gp * DIAG_FULL_LINK_PCT / 100;
	if (rwnd_pct >= DIAG_LIMITED_PCT || slow)
		diag_add(r, "window_small", "receiver", "window %s < path BDP "
		    "%s%s (%s): %s", w, d, streams > 1 ? " per stream" : "",
		    how, b->actual != 0 && b->actual < b->requested ?
		    "raise net.core.rmem_max or use --force-bufs" :
		    "raise -b");
}

/*
 * Interrupts per data packet (hoststat.c): the sender's over its tx
 * packets, the receiver's over its rx packets.
 */
static void
diag_coalescing(struct gb_result *r, const struct gb_side *s,
    const char *side, int data_tx)
{
	const struct gb_iface_figures	*f = &s->iface;
	uint64_t			 pkts;
	char				 name[GB_IFNAME_LEN + 16];
	char				 counts[DIAG_TOKLEN] = "";

	if (!s->has || !f->has_irq_per_packet ||
	    !(f->irq_per_packet >= DIAG_IRQ_PER_PACKET))
		return;
	pkts = data_tx ? f->tx_packets : f->rx_packets;
	if (f->has_interrupts && f->has_counters && pkts > 0)
		snprintf(counts, sizeof(counts), " (%" PRIu64 " for %" PRIu64
		    " packets)", f->interrupts, pkts);
	diag_add(r, "no_coalescing", side, "%s takes %.2f interrupts per "
	    "packet%s: no interrupt coalescing (ethtool -C)",
	    diag_ifname(name, sizeof(name), s), f->irq_per_packet, counts);
}

static void
diag_irq_shared(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_irq_line	*l;
	unsigned			 nmore;
	int				 i;
	char				 name[GB_IFNAME_LEN + 16];
	char				 raw[GB_IFNAME_LEN + 1];
	char				 chip[sizeof(l->chip) + 4];
	char				 more[DIAG_TOKLEN];
	char				 others[sizeof(l->actions)];

	if ((i = diag_line_find(s, diag_line_shared, &nmore)) == -1)
		return;
	l = &s->iface.lines[i];
	diag_line_parts(chip, sizeof(chip), more, sizeof(more), l, nmore);
	diag_others(others, sizeof(others), l,
	    diag_rawname(raw, sizeof(raw), s));
	diag_add(r, "shared_irq", side, "%s shares IRQ %.*s%s with %s%s",
	    diag_ifname(name, sizeof(name), s),
	    (int)strnlen(l->name, sizeof(l->name)), l->name, chip, others,
	    more);
}

static void
diag_irq_legacy(struct gb_result *r, const struct gb_side *s,
    const char *side)
{
	const struct gb_irq_line	*l;
	unsigned			 nmore;
	int				 i;
	char				 name[GB_IFNAME_LEN + 16];
	char				 chip[sizeof(l->chip) + 4];
	char				 more[DIAG_TOKLEN];

	if ((i = diag_line_find(s, diag_line_legacy, &nmore)) == -1)
		return;
	l = &s->iface.lines[i];
	diag_line_parts(chip, sizeof(chip), more, sizeof(more), l, nmore);
	diag_add(r, "legacy_irq", side, "%s on legacy IRQ %.*s%s, not MSI%s",
	    diag_ifname(name, sizeof(name), s),
	    (int)strnlen(l->name, sizeof(l->name)), l->name, chip, more);
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
	gp = diag_tcp_goodput_mbps(link, mtu, DIAG_ETHERNET_OVERHEAD_BYTES);
	if (!(gp > 0))
		return;
	diag_add(r, "goodput", "path", "%.1f Mbps = %.1f %% of the %.1f Mbps "
	    "TCP goodput of %.0f Mbit/s Ethernet%s at MTU %u%s", rate,
	    100.0 * rate / gp, gp, link,
	    r->params.link_mbps != 0 ? " (--link-rate)" : "", mtu,
	    assumed ? " (assumed)" : "");
}

/* ---- interface ---- */

double
diag_tcp_goodput_mbps(double link_mbps, unsigned mtu, unsigned overhead_bytes)
{
	if (mtu <= DIAG_TCPIP_HEADER_BYTES || !(link_mbps > 0))
		return 0;
	return link_mbps * (double)(mtu - DIAG_TCPIP_HEADER_BYTES) /
	    ((double)mtu + overhead_bytes);
}

/*
 * At most 13 findings (2 cpu_bound, 2 window_limited, 1 window size, 2
 * no_coalescing, 2 shared_irq, 2 legacy_irq, retransmits, goodput): they
 * fit GB_MAX_FINDINGS, and diag_add() drops any past it all the same.
 */
void
diag_run(struct gb_result *r)
{
	r->nfindings = 0;
	memset(r->findings, 0, sizeof(r->findings));
	diag_cpu(r, &r->sender, "sender");
	diag_cpu(r, &r->receiver, "receiver");
	diag_window_limited(r);
	diag_window_size(r);
	diag_coalescing(r, &r->sender, "sender", 1);
	diag_coalescing(r, &r->receiver, "receiver", 0);
	diag_irq_shared(r, &r->sender, "sender");
	diag_irq_shared(r, &r->receiver, "receiver");
	diag_irq_legacy(r, &r->sender, "sender");
	diag_irq_legacy(r, &r->receiver, "receiver");
	diag_retransmits(r);
	diag_goodput(r);
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
