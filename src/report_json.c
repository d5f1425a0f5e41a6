/*
 * report_json.c: the JSON renderer (jansson): one side, the parameters and
 * the whole document that --json prints.  Its inverse for one side, which
 * the protocol uses, is report_in.c; the two must change together.
 *
 * Like report.c it only formats a struct gb_result: a figure whose
 * has-flag is 0 is a JSON null, never 0.  It must not do I/O.  Reals are
 * written by jansson's default "%.17g", which round-trips a double
 * exactly.  Every builder returns NULL when memory runs out or a real is
 * not finite (jansson refuses NaN and infinities).
 */
#include <limits.h>
#include <stdint.h>

#include <jansson.h>

#include "base/datapath.h"
#include "base/diag.h"
#include "out/report.h"
#include "report_detail.h"

/* jansson's json_int_t is long long where the compiler has it. */
#if JSON_INTEGER_IS_LONG_LONG
#define REPORT_JINT_MAX	LLONG_MAX
#else
#define REPORT_JINT_MAX	LONG_MAX
#endif

static json_t	*report_side_core_json(const struct gb_side *);

/*
 * JSON integers are signed 64-bit in jansson.  Counter deltas never reach
 * 2^63; clamp instead of wrapping to a negative the decoder would refuse.
 */
static json_int_t
report_jint(uint64_t v)
{
	return v > (uint64_t)REPORT_JINT_MAX ? REPORT_JINT_MAX :
	    (json_int_t)v;
}

static json_t *
report_uint_or_null(int has, uint64_t v)
{
	return has ? json_integer(report_jint(v)) : json_null();
}

/* NULL (an error for json_pack's "o") when v is not finite. */
static json_t *
report_real_or_null(int has, double v)
{
	return has ? json_real(v) : json_null();
}

static json_t *
report_cpu_json(const struct gb_proc_cpu *c)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "user_pct", c->user_pct,
	    "sys_pct", c->sys_pct, "process_pct", c->process_pct,
	    "user_s", c->user_s, "sys_s", c->sys_s);
}

static json_t *
report_host_cpu_json(const struct gb_host_cpu *h)
{
	int y = h->has;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "busy_pct", report_real_or_null(y, h->busy_pct),
	    "user_pct", report_real_or_null(y, h->user_pct),
	    "sys_pct", report_real_or_null(y, h->sys_pct),
	    "irq_pct", report_real_or_null(y, h->irq_pct),
	    "softirq_pct", report_real_or_null(y, h->softirq_pct),
	    "max_cpu_busy_pct", report_real_or_null(y && h->max_cpu >= 0,
	    h->max_cpu_busy_pct),
	    "max_cpu", report_uint_or_null(y && h->max_cpu >= 0,
	    (uint64_t)h->max_cpu),
	    "ncpus", report_uint_or_null(y, (uint64_t)h->ncpus));
}

static json_t *
report_pair_json(const char *k1, int has1, uint64_t v1, const char *k2,
    int has2, uint64_t v2)
{
	return json_pack("{s:o, s:o}", k1, report_uint_or_null(has1, v1),
	    k2, report_uint_or_null(has2, v2));
}

static json_t *
report_sockbuf_json(const struct gb_sockbuf *b)
{
	return report_pair_json("requested", b->requested != 0, b->requested,
	    "actual", 1, b->actual);
}

static json_t *
report_tcp_json(const struct gb_tcp *t)
{
	if (!t->has)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:I, s:I}",
	    "retransmits", (json_int_t)t->retransmits,
	    "rtt_us", (json_int_t)t->rtt_us,
	    "rttvar_us", (json_int_t)t->rttvar_us,
	    "cwnd", (json_int_t)t->cwnd, "mss", (json_int_t)t->mss);
}

json_t *
report_side_json(const struct gb_side *s)
{
	json_t *o;

	if ((o = report_side_core_json(s)) != NULL &&
	    report_side_details(o, s) == -1) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
report_side_core_json(const struct gb_side *s)
{
	const struct gb_iface_figures *f = &s->iface;
	int c = f->has_counters;

	return json_pack("{s:I, s:f, s:f, s:f, s:I, s:o, s:o,"
	    " s:{s:s?, s:i, s:s}, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "bytes", report_jint(s->bytes), "seconds", s->seconds,
	    "mbps", s->mbps, "megabytes", result_megabytes(s->bytes),
	    "calls", report_jint(s->calls),
	    "cpu", report_cpu_json(&s->cpu),
	    "host_cpu", report_host_cpu_json(&s->host_cpu),
	    "interface", "name", f->name[0] != '\0' ? f->name : NULL,
	    "irq_lines", f->irq_lines, "irq_list", f->irq_list,
	    "interrupts", report_uint_or_null(f->has_interrupts, f->interrupts),
	    "packets", report_pair_json("rx", c, f->rx_packets,
	    "tx", c, f->tx_packets),
	    "bytes_on_wire", report_pair_json("rx", c, f->rx_bytes,
	    "tx", c, f->tx_bytes),
	    "irq_per_packet", report_real_or_null(f->has_irq_per_packet,
	    f->irq_per_packet),
	    "softirq", report_pair_json("net_rx", f->has_softirq,
	    f->net_rx_softirqs, "net_tx", f->has_softirq, f->net_tx_softirqs),
	    "sndbuf", report_sockbuf_json(&s->sndbuf),
	    "rcvbuf", report_sockbuf_json(&s->rcvbuf),
	    "tcp", report_tcp_json(&s->tcp));
}

json_t *
report_params_json(const struct gb_params *p)
{
	return json_pack("{s:s, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:b, s:f,"
	    " s:b, s:b, s:o, s:o, s:s?, s:s, s:s, s:s?, s:o, s:o}",
	    "direction", p->direction == GB_DIR_CLIENT_RECEIVES ?
	    "client_receives" : "client_sends",
	    "buflen", (json_int_t)p->buflen, "nbuf", report_jint(p->nbuf),
	    "duration_s", p->duration_ms / 1000.0,
	    "streams", (json_int_t)p->streams,
	    "sndbuf", (json_int_t)p->sndbuf, "rcvbuf", (json_int_t)p->rcvbuf,
	    "mss", (json_int_t)p->mss, "nodelay", p->nodelay != 0,
	    "interval_s", p->interval_ms / 1000.0,
	    "force_bufs", p->force_bufs != 0, "capture", p->capture != 0,
	    "link_mbps", report_uint_or_null(p->link_mbps != 0,
	    p->link_mbps),
	    "mtu", report_uint_or_null(p->mtu != 0, p->mtu),
	    "cc", p->cc[0] != '\0' ? p->cc : NULL,
	    "tx_path", datapath_name(datapath_of(p, 1)),
	    "rx_path", datapath_name(datapath_of(p, 0)),
	    "affinity", p->affinity[0] != '\0' ? p->affinity : NULL,
	    "fq_rate", report_uint_or_null(p->fq_rate != 0, p->fq_rate),
	    "tos", report_uint_or_null(p->tos != 0, p->tos));
}

static json_t *
report_side_or_null(const struct gb_side *s)
{
	return s->has ? report_side_json(s) : json_null();
}

static json_t *
report_result_json(const struct gb_result *r)
{
	/* Delivered figures: the receiver's, else what the sender sent. */
	const struct gb_side *d = r->receiver.has || !r->sender.has ?
	    &r->receiver : &r->sender;

	return json_pack("{s:I, s:f, s:f, s:f, s:o, s:o, s:o, s:s, s:i, s:o}",
	    "bytes", report_jint(d->bytes), "seconds", d->seconds,
	    "mbps", d->mbps, "megabytes", result_megabytes(d->bytes),
	    "sender", report_side_or_null(&r->sender),
	    "receiver", report_side_or_null(&r->receiver),
	    "tcp", r->sender.has ? report_tcp_json(&r->sender.tcp) :
	    json_null(),
	    "peer", r->peer, "port", (int)r->port,
	    "diagnosis", diag_json(r));
}

static json_t *
report_intervals_json(const struct gb_result *r)
{
	const struct gb_interval *iv;
	json_t *a, *o;
	unsigned i, n;

	if ((a = json_array()) == NULL)
		return NULL;
	n = r->nintervals < GB_MAX_INTERVALS ? r->nintervals : GB_MAX_INTERVALS;
	for (i = 0; i < n; i++) {
		iv = &r->intervals[i];
		o = json_pack("{s:f, s:f, s:I, s:f}", "start", iv->start_s,
		    "end", iv->end_s, "bytes", report_jint(iv->bytes),
		    "mbps", result_mbps(iv->bytes, iv->end_s - iv->start_s));
		if (json_array_append_new(a, o) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *
report_json(const struct gb_result *r)
{
	json_t *doc;

	doc = json_pack("{s:s, s:o, s:o}", "program", "gigebench",
	    "params", report_params_json(&r->params),
	    "result", report_result_json(r));
	if (doc == NULL || r->params.interval_ms == 0)
		return doc;
	if (json_object_set_new(doc, "intervals",
	    report_intervals_json(r)) == -1) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
