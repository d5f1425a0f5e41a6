/*
 * csv.c: --csv FILE, one row per run of a sweep: the point, the repeat,
 * the swept values, every parameter and every measured figure of both
 * ends, and which run it was (when, to which peer, under which --title),
 * so that a spreadsheet or pandas needs nothing else, and rows of many
 * files merge.
 *
 * RFC 4180: records end in CRLF, a field holding a comma, a quote, CR or
 * LF is quoted and its quotes doubled.  A figure that was not measured
 * (its has-flag is 0, or the run failed) is an empty field, never 0.  The
 * column order is a contract (documented in the man page and tested):
 * add columns at the end of a group, never reorder.  Reals are "%.9g":
 * more digits than any measurement has, fewer than the noise of %.17g.
 *
 * Text cells, and only they, go through csv_cell (out/csv.h), which also
 * defuses a cell a spreadsheet would run as a formula; a number is
 * printed as a number, so a sign stays a sign.  The text columns: a cc
 * or rate axis (named as the axis), direction, cc, protocol, tx_ and
 * rx_interface, tx_ and rx_profile_top, diagnosis, error, time_utc, peer
 * and title.  Every other column is a number (or empty).
 *
 * Only formats: the FILE is the one side effect.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/lathist.h"
#include "base/units.h"
#include "out/csv.h"

#define CSV_EOL		"\r\n"
#define CSV_FIELD_LEN	64
/*
 * The first bytes that make a spreadsheet read a cell as a formula
 * (OWASP "CSV Injection"): = + - @, and TAB and CR, which some skip
 * before looking at the next byte.
 */
#define CSV_FORMULA_START	"=+-@\t\r"
/* What makes RFC 4180 quote a cell. */
#define CSV_QUOTE_CHARS		",\"\r\n"

static const char *const csv_param_cols[] = {
	"direction", "buflen", "nbuf", "duration_s", "streams", "sndbuf",
	"rcvbuf", "mss", "nodelay", "mtu_set", "cc", "protocol", "rate_bps",
	"rate_pps", "request_size", "response_size", "rr_burst", "bidir",
};

static const char *const csv_result_cols[] = {
	"bytes", "seconds", "mbps", "megabytes", "udp_sent", "udp_received",
	"udp_lost", "udp_lost_pct", "udp_jitter_ms", "udp_tx_pps",
	"udp_rx_pps", "rr_transactions", "rr_trans_per_s", "latency_min_us",
	"latency_mean_us", "latency_p50_us", "latency_p90_us",
	"latency_p99_us", "latency_p999_us", "latency_max_us",
	"rr_tx_cpu_us_per_trans", "rr_tx_host_cpu_us_per_trans",
	"rr_tx_irq_per_trans", "rr_tx_softirq_per_trans",
	"rr_rx_cpu_us_per_trans", "rr_rx_host_cpu_us_per_trans",
	"rr_rx_irq_per_trans", "rr_rx_softirq_per_trans",
	/* -u --rr: the asker's timeout, requests, lost and late answers */
	"rr_timeout_ms", "rr_requests", "rr_lost", "rr_late",
	/* --bidir: the reverse direction's delivered figures */
	"rev_bytes", "rev_seconds", "rev_mbps", "rev_megabytes",
	"rev_retransmits", "rev_udp_lost",
};

static const char *const csv_side_cols[] = {
	"bytes", "seconds", "mbps", "process_pct", "user_pct", "sys_pct",
	"host_busy_pct", "host_user_pct", "host_sys_pct", "host_irq_pct",
	"host_softirq_pct", "max_cpu_busy_pct", "interface", "interrupts",
	"rx_packets", "tx_packets", "irq_per_packet", "irq_per_segment",
	"net_rx_softirqs", "net_tx_softirqs", "sndbuf_requested",
	"sndbuf_actual", "rcvbuf_requested", "rcvbuf_actual", "retransmits",
	"rtt_us", "cwnd", "mss", "data_segs_out", "data_segs_in", "mtu",
	"warnings", "sndbuf_final", "sndbuf_peak", "rcvbuf_final",
	"rcvbuf_peak",
	/* --profile: the busy samples' copy share, the top function */
	"profile_copy_pct", "profile_top", "profile_top_pct",
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void	csv_field(FILE *, const char *);
static void	csv_uint(FILE *, int, uint64_t);
static void	csv_real(FILE *, int, double);
static void	csv_blanks(FILE *, size_t);
static void	csv_params(FILE *, const struct gb_params *,
		    const struct sweep_setting *);
static void	csv_side(FILE *, const struct gb_side *);
static void	csv_findings(FILE *, const struct gb_result *);

void
csv_cell(FILE *fp, const char *s, enum csv_quote how)
{
	int	defuse, quote;

	if (s == NULL)
		s = "";
	/* s[0] first: strchr finds the NUL of its set as well. */
	defuse = s[0] != '\0' && strchr(CSV_FORMULA_START, s[0]) != NULL;
	quote = how == CSV_QUOTE_ALWAYS || strpbrk(s, CSV_QUOTE_CHARS) != NULL;
	if (quote)
		fputc('"', fp);
	/* Inside the quotes: the ' is the cell's, not before it. */
	if (defuse)
		fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (quote && *s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	if (quote)
		fputc('"', fp);
}

/* A comma, then a text cell. */
static void
csv_field(FILE *fp, const char *s)
{
	fputc(',', fp);
	csv_cell(fp, s, CSV_QUOTE_NEEDED);
}

static void
csv_uint(FILE *fp, int has, uint64_t v)
{
	if (has)
		fprintf(fp, ",%" PRIu64, v);
	else
		fputc(',', fp);
}

static void
csv_real(FILE *fp, int has, double v)
{
	if (has)
		fprintf(fp, ",%.9g", v);
	else
		fputc(',', fp);
}

static void
csv_blanks(FILE *fp, size_t n)
{
	while (n-- > 0)
		fputc(',', fp);
}

void
csv_header(FILE *fp, const struct sweep *s)
{
	static const char *const prefix[] = { "tx_", "rx_" };
	size_t		i, k;
	unsigned	a;

	fputs("point,repeat", fp);
	for (a = 0; a < s->naxes; a++)
		fprintf(fp, ",%s", sweep_param_name(s->axes[a].param));
	for (i = 0; i < NELEM(csv_param_cols); i++)
		fprintf(fp, ",%s", csv_param_cols[i]);
	for (i = 0; i < NELEM(csv_result_cols); i++)
		fprintf(fp, ",%s", csv_result_cols[i]);
	for (k = 0; k < NELEM(prefix); k++)
		for (i = 0; i < NELEM(csv_side_cols); i++)
			fprintf(fp, ",%s%s", prefix[k], csv_side_cols[i]);
	fputs(",diagnosis,error,time_utc,peer,title" CSV_EOL, fp);
}

/*
 * The test's parameters.  mtu_set and cc are what the run asked for: the
 * swept setting, else --mtu and -C; empty when left alone.
 */
static void
csv_params(FILE *fp, const struct gb_params *p,
    const struct sweep_setting *set)
{
	uint32_t	 mtu = p->mtu;
	const char	*cc = p->cc;

	if (set != NULL && set->mtu != 0)
		mtu = set->mtu;
	if (set != NULL && set->cc[0] != '\0')
		cc = set->cc;
	csv_field(fp, p->direction == GB_DIR_CLIENT_RECEIVES ?
	    "client_receives" : "client_sends");
	csv_uint(fp, 1, p->buflen);
	csv_uint(fp, 1, p->nbuf);
	fprintf(fp, ",%.3f", p->duration_ms / 1000.0);
	csv_uint(fp, 1, p->streams);
	csv_uint(fp, 1, p->sndbuf);
	csv_uint(fp, 1, p->rcvbuf);
	csv_uint(fp, 1, p->mss);
	csv_uint(fp, 1, p->nodelay != 0);
	csv_uint(fp, mtu != 0, mtu);
	csv_field(fp, cc);
	csv_field(fp, p->udp ? "udp" : "tcp");
	csv_uint(fp, p->rate_bps != 0, p->rate_bps);
	csv_uint(fp, p->rate_pps != 0, p->rate_pps);
	csv_uint(fp, p->rr, params_rr_size(p->req_size));
	csv_uint(fp, p->rr, params_rr_size(p->resp_size));
	csv_uint(fp, p->rr, params_rr_size(p->rr_burst));
	csv_uint(fp, 1, p->bidir != 0);
}

/*
 * --bidir: the reverse direction as bytes, seconds and rate delivered,
 * its sender's retransmits and its lost datagrams; empty otherwise.  Each
 * end's CPU and interface are the tx_ and rx_ columns: one host each.
 */
static void
csv_reverse(FILE *fp, const struct gb_result *r)
{
	const struct gb_side *d = r->rreceiver.has || !r->rsender.has ?
	    &r->rreceiver : &r->rsender;
	const struct gb_tcp *t = &r->rsender.tcp;
	int y = r->params.bidir && d->has;
	uint64_t sent = r->rsender.udp.datagrams;
	uint64_t got = r->rreceiver.udp.datagrams;

	csv_uint(fp, y, d->bytes);
	csv_real(fp, y, d->seconds);
	csv_real(fp, y, d->mbps);
	csv_real(fp, y, result_megabytes(d->bytes));
	csv_uint(fp, y && r->rsender.has && t->has && !r->params.udp,
	    t->retransmits);
	csv_uint(fp, y && r->params.udp && r->rsender.has &&
	    r->rreceiver.has, sent > got ? sent - got : 0);
}

/* -u: the datagrams both ends saw (result_udp); empty for TCP. */
static void
csv_udp(FILE *fp, const struct gb_result *r)
{
	struct gb_udp_figures f;

	result_udp(r, &f);
	csv_uint(fp, f.has && f.sent_known, f.sent);
	csv_uint(fp, f.has, f.received);
	csv_uint(fp, f.has, f.lost);
	csv_real(fp, f.has, f.lost_pct);
	csv_real(fp, f.has, f.jitter_ms);
	csv_real(fp, f.has && f.sent_known, f.tx_pps);
	csv_real(fp, f.has, f.rx_pps);
}

/* What a transaction cost one end (struct gb_cost); empty where n/a. */
static void
csv_cost(FILE *fp, const struct gb_cost *c)
{
	csv_real(fp, c->has, c->cpu_us);
	csv_real(fp, c->has && c->has_host, c->host_us);
	csv_real(fp, c->has && c->has_irq, c->irq);
	csv_real(fp, c->has && c->has_softirq, c->softirq);
}

/*
 * --rr: the transactions (result_rr), the asking end's latencies in
 * microseconds (lathist.h: a percentile is within 3.125 % above its
 * sample), and each end's cost: tx is the asking end, as in the summary
 * line.  Empty for the other tests.
 */
static void
csv_rr(FILE *fp, const struct gb_result *r)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	const struct lathist *h = &r->latency;
	/* -u: the asking end's counts (the listener's lost and late are 0). */
	const struct gb_rr *u = &r->sender.rr;
	struct gb_rr_figures f;
	int lat = r->has_latency && h->count > 0;
	size_t i;

	result_rr(r, &f);
	csv_uint(fp, f.has, f.transactions);
	csv_real(fp, f.has, f.per_s);
	csv_real(fp, lat, (double)h->min / 1000.0);
	csv_real(fp, lat, lathist_mean(h) / 1000.0);
	for (i = 0; i < NELEM(pcts); i++)
		csv_real(fp, lat, (double)lathist_percentile(h, pcts[i]) /
		    1000.0);
	csv_real(fp, lat, (double)h->max / 1000.0);
	csv_cost(fp, &f.ask);
	csv_cost(fp, &f.answer);
	csv_uint(fp, u->has && u->has_udp, u->timeout_ms);
	csv_uint(fp, u->has && u->has_udp, u->requests);
	csv_uint(fp, u->has && u->has_udp, u->lost);
	csv_uint(fp, u->has && u->has_udp, u->late);
}

/* --profile's columns: empty without a profile. */
static void
csv_profile(FILE *fp, const struct gb_profile *p)
{
	int top = p->has && p->ntop > 0;

	csv_real(fp, p->has, profile_share(p, p->cat[GB_CAT_COPY]));
	if (top)
		csv_field(fp, p->top[0].name);
	else
		fputc(',', fp);
	csv_real(fp, top, top ? profile_share(p, p->top[0].samples) : 0);
}

/* One end's figures, in csv_side_cols order; all empty if it has none. */
static void
csv_side(FILE *fp, const struct gb_side *d)
{
	const struct gb_host_cpu	*h = &d->host_cpu;
	const struct gb_iface_figures	*f = &d->iface;
	const struct gb_tcp		*t = &d->tcp;
	int				 y = d->has, th = y && t->has;

	if (!y) {
		csv_blanks(fp, NELEM(csv_side_cols));
		return;
	}
	csv_uint(fp, 1, d->bytes);
	csv_real(fp, 1, d->seconds);
	csv_real(fp, 1, d->mbps);
	csv_real(fp, 1, d->cpu.process_pct);
	csv_real(fp, 1, d->cpu.user_pct);
	csv_real(fp, 1, d->cpu.sys_pct);
	csv_real(fp, h->has, h->busy_pct);
	csv_real(fp, h->has, h->user_pct);
	csv_real(fp, h->has, h->sys_pct);
	csv_real(fp, h->has, h->irq_pct);
	csv_real(fp, h->has, h->softirq_pct);
	csv_real(fp, h->has && h->max_cpu >= 0, h->max_cpu_busy_pct);
	csv_field(fp, f->name);
	csv_uint(fp, f->has_interrupts, f->interrupts);
	csv_uint(fp, f->has_counters, f->rx_packets);
	csv_uint(fp, f->has_counters, f->tx_packets);
	csv_real(fp, f->has_irq_per_packet, f->irq_per_packet);
	csv_real(fp, f->has_irq_per_segment, f->irq_per_segment);
	csv_uint(fp, f->has_softirq, f->net_rx_softirqs);
	csv_uint(fp, f->has_softirq, f->net_tx_softirqs);
	csv_uint(fp, d->sndbuf.requested != 0, d->sndbuf.requested);
	csv_uint(fp, 1, d->sndbuf.actual);
	csv_uint(fp, d->rcvbuf.requested != 0, d->rcvbuf.requested);
	csv_uint(fp, 1, d->rcvbuf.actual);
	csv_uint(fp, th, t->retransmits);
	csv_uint(fp, th, t->rtt_us);
	csv_uint(fp, th, t->cwnd);
	csv_uint(fp, th, t->mss);
	csv_uint(fp, th, t->data_segs_out);
	csv_uint(fp, th, t->data_segs_in);
	csv_uint(fp, d->context.has && d->context.mtu >= 0,
	    (uint64_t)d->context.mtu);
	csv_uint(fp, 1, d->nwarnings);
	csv_uint(fp, d->sndbuf.final != 0, d->sndbuf.final);
	csv_uint(fp, d->sndbuf.peak != 0, d->sndbuf.peak);
	csv_uint(fp, d->rcvbuf.final != 0, d->rcvbuf.final);
	csv_uint(fp, d->rcvbuf.peak != 0, d->rcvbuf.peak);
	csv_profile(fp, &d->profile);
}

/* "cpu_bound;window_limited": codes only, the text is in JSON. */
static void
csv_findings(FILE *fp, const struct gb_result *r)
{
	char		buf[GB_MAX_FINDINGS * 25];
	size_t		n = 0;
	unsigned	i;

	buf[0] = '\0';
	for (i = 0; i < r->nfindings && i < GB_MAX_FINDINGS; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i > 0 ? ";" : "", r->findings[i].code);
	csv_field(fp, buf);
}

void
csv_row(FILE *fp, const struct sweep *s, unsigned point, unsigned repeat,
    const struct gb_params *p, const struct sweep_setting *set,
    const struct gb_result *r, const char *error,
    const struct csv_run_id *id)
{
	char			 buf[CSV_FIELD_LEN];
	char			 when[UNITS_TIME_LEN];
	const struct gb_side	*d;
	unsigned		 a;

	fprintf(fp, "%u,%u", point, repeat);
	for (a = 0; a < s->naxes; a++) {
		/* Numbers in full (65536, not 64K), for the spreadsheet. */
		if (s->axes[a].param == SWEEP_CC ||
		    s->axes[a].param == SWEEP_RATE)
			csv_field(fp, sweep_value_text(s, a, point, buf,
			    sizeof(buf)));
		else
			fprintf(fp, ",%.0f", sweep_value(s, a, point));
	}
	csv_params(fp, p, set);
	if (r == NULL) {
		csv_blanks(fp, NELEM(csv_result_cols) +
		    2 * NELEM(csv_side_cols) + 1);
	} else {
		/* Delivered figures: the receiver's, else the sender's. */
		d = r->receiver.has || !r->sender.has ? &r->receiver :
		    &r->sender;
		csv_uint(fp, d->has, d->bytes);
		csv_real(fp, d->has, d->seconds);
		csv_real(fp, d->has, d->mbps);
		csv_real(fp, d->has, result_megabytes(d->bytes));
		csv_udp(fp, r);
		csv_rr(fp, r);
		csv_reverse(fp, r);
		csv_side(fp, &r->sender);
		csv_side(fp, &r->receiver);
		csv_findings(fp, r);
	}
	csv_field(fp, error != NULL ? error : "");
	/* The run's identity, last: the columns before keep their order. */
	csv_field(fp, units_format_utc(r != NULL && r->prov.start_us != 0 ?
	    r->prov.start_us : id->start_us, when, sizeof(when)));
	csv_field(fp, r != NULL && r->peer[0] != '\0' ? r->peer :
	    id->peer != NULL ? id->peer : "");
	csv_field(fp, r != NULL ? r->prov.title : id->title != NULL ?
	    id->title : "");
	fputs(CSV_EOL, fp);
}
