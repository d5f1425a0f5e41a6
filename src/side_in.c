/*
 * side_in.c: side_from_json() (side.h), the inverse of side_json(): the
 * core figures here (totals, process and host CPU, interface counters,
 * socket buffers, TCP_INFO), the members that explain them in
 * side_in_detail.c, both with the readers of side_member.c.
 *
 * A bad document gives -1 and a message naming the member, as
 * "host_cpu.busy_pct is not a number"; it never aborts.  No I/O.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "codec/side.h"
#include "side_detail.h"
#include "side_member.h"

static int
side_in_totals(struct side_in *in, const json_t *j, struct gb_side *s)
{
	double mb;

	in->obj = "";
	in->leader = NULL;
	if (side_member_uint(in, j, "bytes", UINT64_MAX, SIDE_WANT_VALUE,
	    &s->bytes) == -1 ||
	    side_member_real(in, j, "seconds", SIDE_WANT_VALUE,
	    &s->seconds) == -1 ||
	    side_member_real(in, j, "mbps", SIDE_WANT_VALUE, &s->mbps) == -1 ||
	    side_member_real(in, j, "megabytes", SIDE_WANT_VALUE, &mb) == -1 ||
	    side_member_uint(in, j, "calls", UINT64_MAX, SIDE_WANT_VALUE,
	    &s->calls) == -1)
		return -1;
	return 0;
}

static int
side_in_cpu(struct side_in *in, const json_t *j, struct gb_proc_cpu *c)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE;

	if (side_member_object(in, j, "cpu", y, &o) == -1 ||
	    side_member_real(in, o, "user_pct", y, &c->user_pct) == -1 ||
	    side_member_real(in, o, "sys_pct", y, &c->sys_pct) == -1 ||
	    side_member_real(in, o, "process_pct", y, &c->process_pct) == -1 ||
	    side_member_real(in, o, "user_s", y, &c->user_s) == -1 ||
	    side_member_real(in, o, "sys_s", y, &c->sys_s) == -1)
		return -1;
	return 0;
}

static int
side_in_host_cpu(struct side_in *in, const json_t *j,
    struct gb_host_cpu *h)
{
	const json_t *o;
	int y, m;

	if (side_member_object(in, j, "host_cpu", SIDE_WANT_VALUE, &o) == -1 ||
	    (y = side_member_real(in, o, "busy_pct", SIDE_WANT_ANY,
	    &h->busy_pct)) == -1)
		return -1;
	in->leader = "host_cpu.busy_pct";
	if (side_member_real(in, o, "user_pct", y, &h->user_pct) == -1 ||
	    side_member_real(in, o, "sys_pct", y, &h->sys_pct) == -1 ||
	    side_member_real(in, o, "irq_pct", y, &h->irq_pct) == -1 ||
	    side_member_real(in, o, "softirq_pct", y, &h->softirq_pct) == -1 ||
	    (m = side_member_real(in, o, "max_cpu_busy_pct",
	    y ? SIDE_WANT_ANY : SIDE_WANT_NULL,
	    &h->max_cpu_busy_pct)) == -1 ||
	    side_member_int(in, o, "ncpus", y, &h->ncpus) == -1)
		return -1;
	/* No CPU matched across the two samples: no busiest CPU. */
	in->leader = "host_cpu.max_cpu_busy_pct";
	if (m == 1 && side_member_int(in, o, "max_cpu", SIDE_WANT_VALUE,
	    &h->max_cpu) == -1)
		return -1;
	if (m == 0 && side_member_int(in, o, "max_cpu", SIDE_WANT_NULL,
	    &h->max_cpu) == -1)
		return -1;
	if (y && m == 0)
		h->max_cpu = -1;
	h->has = y;
	return 0;
}

static int
side_in_iface(struct side_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE, any = SIDE_WANT_ANY;

	if (side_member_object(in, j, "interface", y, &o) == -1 ||
	    side_member_string(in, o, "name", any, f->name,
	    sizeof(f->name)) == -1 ||
	    side_member_int(in, o, "irq_lines", y, &f->irq_lines) == -1 ||
	    side_member_string(in, o, "irq_list", y, f->irq_list,
	    sizeof(f->irq_list)) == -1)
		return -1;
	in->obj = "";
	if ((f->has_interrupts = side_member_uint(in, j, "interrupts",
	    UINT64_MAX, any, &f->interrupts)) == -1 ||
	    (f->has_irq_per_packet = side_member_real(in, j, "irq_per_packet",
	    any, &f->irq_per_packet)) == -1)
		return -1;
	return 0;
}

/* packets and bytes_on_wire: all four null or all four numbers. */
static int
side_in_counters(struct side_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o;
	int y;

	if (side_member_object(in, j, "packets", SIDE_WANT_VALUE, &o) == -1 ||
	    (y = side_member_uint(in, o, "rx", UINT64_MAX, SIDE_WANT_ANY,
	    &f->rx_packets)) == -1)
		return -1;
	in->leader = "packets.rx";
	if (side_member_uint(in, o, "tx", UINT64_MAX, y, &f->tx_packets) == -1)
		return -1;
	if (side_member_object(in, j, "bytes_on_wire", SIDE_WANT_VALUE,
	    &o) == -1)
		return -1;
	in->leader = "packets.rx";
	if (side_member_uint(in, o, "rx", UINT64_MAX, y, &f->rx_bytes) == -1 ||
	    side_member_uint(in, o, "tx", UINT64_MAX, y, &f->tx_bytes) == -1)
		return -1;
	f->has_counters = y;
	return 0;
}

static int
side_in_softirq(struct side_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o;
	int y;

	if (side_member_object(in, j, "softirq", SIDE_WANT_VALUE, &o) == -1 ||
	    (y = side_member_uint(in, o, "net_rx", UINT64_MAX, SIDE_WANT_ANY,
	    &f->net_rx_softirqs)) == -1)
		return -1;
	in->leader = "softirq.net_rx";
	if (side_member_uint(in, o, "net_tx", UINT64_MAX, y,
	    &f->net_tx_softirqs) == -1)
		return -1;
	f->has_softirq = y;
	return 0;
}

static int
side_in_sockbuf(struct side_in *in, const json_t *j, const char *key,
    struct gb_sockbuf *b)
{
	const json_t *o;

	if (side_member_object(in, j, key, SIDE_WANT_VALUE, &o) == -1 ||
	    side_member_u32(in, o, "requested", SIDE_WANT_ANY,
	    &b->requested) == -1 ||
	    side_member_u32(in, o, "actual", SIDE_WANT_VALUE,
	    &b->actual) == -1)
		return -1;
	/* A peer that predates them sends neither: 0, not known. */
	if ((json_object_get(o, "final") != NULL &&
	    side_member_u32(in, o, "final", SIDE_WANT_ANY, &b->final) == -1) ||
	    (json_object_get(o, "peak") != NULL &&
	    side_member_u32(in, o, "peak", SIDE_WANT_ANY, &b->peak) == -1))
		return -1;
	return 0;
}

static int
side_in_tcp(struct side_in *in, const json_t *j, struct gb_tcp *t)
{
	const json_t *o;
	int y = SIDE_WANT_VALUE;

	if ((t->has = side_member_object(in, j, "tcp", SIDE_WANT_ANY,
	    &o)) != 1)
		return t->has;
	if (side_member_u32(in, o, "retransmits", y, &t->retransmits) == -1 ||
	    side_member_u32(in, o, "rtt_us", y, &t->rtt_us) == -1 ||
	    side_member_u32(in, o, "rttvar_us", y, &t->rttvar_us) == -1 ||
	    side_member_u32(in, o, "cwnd", y, &t->cwnd) == -1 ||
	    side_member_u32(in, o, "mss", y, &t->mss) == -1)
		return -1;
	return 0;
}

int
side_from_json(const json_t *j, struct gb_side *s, char *err,
    size_t errlen)
{
	struct side_in in = { "", NULL, err, errlen };

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "side is not an object");
		return -1;
	}
	if (side_in_totals(&in, j, s) == -1 ||
	    side_in_cpu(&in, j, &s->cpu) == -1 ||
	    side_in_host_cpu(&in, j, &s->host_cpu) == -1 ||
	    side_in_iface(&in, j, &s->iface) == -1 ||
	    side_in_counters(&in, j, &s->iface) == -1 ||
	    side_in_softirq(&in, j, &s->iface) == -1 ||
	    side_in_sockbuf(&in, j, "sndbuf", &s->sndbuf) == -1 ||
	    side_in_sockbuf(&in, j, "rcvbuf", &s->rcvbuf) == -1 ||
	    side_in_tcp(&in, j, &s->tcp) == -1 ||
	    side_in_detail(&in, j, s) == -1) {
		memset(s, 0, sizeof(*s));
		return -1;
	}
	s->has = 1;
	return 0;
}
