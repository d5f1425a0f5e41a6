/*
 * side.c: side_json() (side.h), the encoder of one end's figures: the
 * core figures here (totals, process and host CPU, interface counters,
 * socket buffers, TCP_INFO), then side_detail.c adds the members that
 * explain them.  side_in.c is its inverse; the two must change together.
 *
 * A figure whose has-flag is 0 is a JSON null, never 0.  Every builder
 * returns NULL when memory runs out or a real is not finite (jansson
 * refuses NaN and infinities).  No I/O.
 */
#include <stdint.h>

#include <jansson.h>

#include "codec/member.h"
#include "codec/side.h"
#include "side_detail.h"

static json_t	*side_core_json(const struct gb_side *);

static json_t *
side_cpu_json(const struct gb_proc_cpu *c)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "user_pct", c->user_pct,
	    "sys_pct", c->sys_pct, "process_pct", c->process_pct,
	    "user_s", c->user_s, "sys_s", c->sys_s);
}

static json_t *
side_host_cpu_json(const struct gb_host_cpu *h)
{
	int y = h->has;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "busy_pct", member_real_or_null(y, h->busy_pct),
	    "user_pct", member_real_or_null(y, h->user_pct),
	    "sys_pct", member_real_or_null(y, h->sys_pct),
	    "irq_pct", member_real_or_null(y, h->irq_pct),
	    "softirq_pct", member_real_or_null(y, h->softirq_pct),
	    "max_cpu_busy_pct", member_real_or_null(y && h->max_cpu >= 0,
	    h->max_cpu_busy_pct),
	    "max_cpu", member_uint_or_null(y && h->max_cpu >= 0,
	    (uint64_t)h->max_cpu),
	    "ncpus", member_uint_or_null(y, (uint64_t)h->ncpus));
}

static json_t *
side_pair_json(const char *k1, int has1, uint64_t v1, const char *k2,
    int has2, uint64_t v2)
{
	return json_pack("{s:o, s:o}", k1, member_uint_or_null(has1, v1),
	    k2, member_uint_or_null(has2, v2));
}

/* "actual" is the initial size; "final" and "peak" came later (0.1.0). */
static json_t *
side_sockbuf_json(const struct gb_sockbuf *b)
{
	return json_pack("{s:o, s:o, s:o, s:o}",
	    "requested", member_uint_or_null(b->requested != 0, b->requested),
	    "actual", member_uint_or_null(1, b->actual),
	    "final", member_uint_or_null(b->final != 0, b->final),
	    "peak", member_uint_or_null(b->peak != 0, b->peak));
}

json_t *
side_tcp_json(const struct gb_tcp *t)
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
side_json(const struct gb_side *s)
{
	json_t *o;

	if ((o = side_core_json(s)) != NULL && side_detail_json(o, s) == -1) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
side_core_json(const struct gb_side *s)
{
	const struct gb_iface_figures *f = &s->iface;
	int c = f->has_counters;

	return json_pack("{s:I, s:f, s:f, s:f, s:I, s:o, s:o,"
	    " s:{s:s?, s:i, s:s}, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
	    "bytes", member_jint(s->bytes), "seconds", s->seconds,
	    "mbps", s->mbps, "megabytes", result_megabytes(s->bytes),
	    "calls", member_jint(s->calls),
	    "cpu", side_cpu_json(&s->cpu),
	    "host_cpu", side_host_cpu_json(&s->host_cpu),
	    "interface", "name", f->name[0] != '\0' ? f->name : NULL,
	    "irq_lines", f->irq_lines, "irq_list", f->irq_list,
	    "interrupts", member_uint_or_null(f->has_interrupts,
	    f->interrupts),
	    "packets", side_pair_json("rx", c, f->rx_packets,
	    "tx", c, f->tx_packets),
	    "bytes_on_wire", side_pair_json("rx", c, f->rx_bytes,
	    "tx", c, f->tx_bytes),
	    "irq_per_packet", member_real_or_null(f->has_irq_per_packet,
	    f->irq_per_packet),
	    "softirq", side_pair_json("net_rx", f->has_softirq,
	    f->net_rx_softirqs, "net_tx", f->has_softirq, f->net_tx_softirqs),
	    "sndbuf", side_sockbuf_json(&s->sndbuf),
	    "rcvbuf", side_sockbuf_json(&s->rcvbuf),
	    "tcp", side_tcp_json(&s->tcp));
}
