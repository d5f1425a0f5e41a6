/*
 * report_in.c: report_side_from_json(), the inverse of report_side_json(),
 * with which the control protocol carries the listener's figures to the
 * connecting side.
 *
 * It trusts nothing it reads: every member must be present with the JSON
 * type the encoder writes, integers must be non-negative JSON integers
 * that fit their C type, reals must be finite and non-negative, and a null
 * must stand exactly where the encoder would write one (a has-flag of 0).
 * A bad document gives -1 and a message naming the member, as
 * "host_cpu.busy_pct is not a number"; it never aborts.  Unknown members
 * are ignored, so a newer peer may add some.  No I/O.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "out/report.h"
#include "codec/report_in.h"

/* Write "host_cpu.busy_pct is not a number" into the caller's buffer. */
int
report_in_fail(const struct report_in *in, const char *key, const char *fmt,
    ...)
{
	char what[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(in->err, in->errlen, "%s%s%s %s", in->obj,
	    in->obj[0] != '\0' ? "." : "", key, what);
	return -1;
}

/* -1 on error, 0 for a null, 1 for a value in *v. */
int
report_in_member(const struct report_in *in, const json_t *o,
    const char *key, int want, const json_t **v)
{
	const char *leader = in->leader != NULL ? in->leader : "";

	if ((*v = json_object_get(o, key)) == NULL)
		return report_in_fail(in, key, "is missing");
	if (json_is_null(*v)) {
		if (want == REPORT_WANT_VALUE)
			return report_in_fail(in, key, "is null%s%s",
			    leader[0] != '\0' ? ", unlike " : "", leader);
		return 0;
	}
	if (want == REPORT_WANT_NULL)
		return report_in_fail(in, key, "is not null, unlike %s",
		    leader);
	return 1;
}

int
report_in_uint(const struct report_in *in, const json_t *o, const char *key,
    uint64_t max, int want, uint64_t *out)
{
	const json_t *v;
	json_int_t i;
	int rc;

	if ((rc = report_in_member(in, o, key, want, &v)) != 1)
		return rc;
	if (!json_is_integer(v))
		return report_in_fail(in, key, "is not an integer");
	i = json_integer_value(v);
	if (i < 0)
		return report_in_fail(in, key, "is negative: %"
		    JSON_INTEGER_FORMAT, i);
	if ((uint64_t)i > max)
		return report_in_fail(in, key, "is out of range (max %" PRIu64
		    "): %" JSON_INTEGER_FORMAT, max, i);
	*out = (uint64_t)i;
	return 1;
}

int
report_in_u32(const struct report_in *in, const json_t *o, const char *key,
    int want, uint32_t *out)
{
	uint64_t v = 0;
	int rc;

	rc = report_in_uint(in, o, key, UINT32_MAX, want, &v);
	*out = (uint32_t)v;
	return rc;
}

int
report_in_int(const struct report_in *in, const json_t *o, const char *key,
    int want, int *out)
{
	uint64_t v = 0;
	int rc;

	rc = report_in_uint(in, o, key, INT_MAX, want, &v);
	*out = (int)v;
	return rc;
}

/* A real may be written as an integer by another encoder: accept both. */
int
report_in_real(const struct report_in *in, const json_t *o, const char *key,
    int want, double *out)
{
	const json_t *v;
	double d;
	int rc;

	if ((rc = report_in_member(in, o, key, want, &v)) != 1)
		return rc;
	if (!json_is_number(v))
		return report_in_fail(in, key, "is not a number");
	d = json_number_value(v);
	if (!isfinite(d))
		return report_in_fail(in, key, "is not finite");
	if (d < 0)
		return report_in_fail(in, key, "is negative: %g", d);
	*out = d;
	return 1;
}

int
report_in_string(const struct report_in *in, const json_t *o,
    const char *key, int want, char *buf, size_t len)
{
	const json_t *v;
	size_t n;
	int rc;

	if ((rc = report_in_member(in, o, key, want, &v)) != 1)
		return rc;
	if (!json_is_string(v))
		return report_in_fail(in, key, "is not a string");
	n = json_string_length(v);
	if (n >= len)
		return report_in_fail(in, key, "is too long (max %zu bytes)",
		    len - 1);
	if (memchr(json_string_value(v), '\0', n) != NULL)
		return report_in_fail(in, key, "holds a NUL byte");
	memcpy(buf, json_string_value(v), n + 1);
	return 1;
}

/* Find top-level member key as an object; following names are in it. */
int
report_in_object(struct report_in *in, const json_t *top, const char *key,
    int want, const json_t **o)
{
	int rc;

	in->obj = "";
	in->leader = NULL;
	if ((rc = report_in_member(in, top, key, want, o)) != 1)
		return rc;
	if (!json_is_object(*o))
		return report_in_fail(in, key, "is not an object");
	in->obj = key;
	return 1;
}

static int
report_in_totals(struct report_in *in, const json_t *j, struct gb_side *s)
{
	double mb;

	in->obj = "";
	in->leader = NULL;
	if (report_in_uint(in, j, "bytes", UINT64_MAX, REPORT_WANT_VALUE,
	    &s->bytes) == -1 ||
	    report_in_real(in, j, "seconds", REPORT_WANT_VALUE,
	    &s->seconds) == -1 ||
	    report_in_real(in, j, "mbps", REPORT_WANT_VALUE, &s->mbps) == -1 ||
	    report_in_real(in, j, "megabytes", REPORT_WANT_VALUE, &mb) == -1 ||
	    report_in_uint(in, j, "calls", UINT64_MAX, REPORT_WANT_VALUE,
	    &s->calls) == -1)
		return -1;
	return 0;
}

static int
report_in_cpu(struct report_in *in, const json_t *j, struct gb_proc_cpu *c)
{
	const json_t *o;
	int y = REPORT_WANT_VALUE;

	if (report_in_object(in, j, "cpu", y, &o) == -1 ||
	    report_in_real(in, o, "user_pct", y, &c->user_pct) == -1 ||
	    report_in_real(in, o, "sys_pct", y, &c->sys_pct) == -1 ||
	    report_in_real(in, o, "process_pct", y, &c->process_pct) == -1 ||
	    report_in_real(in, o, "user_s", y, &c->user_s) == -1 ||
	    report_in_real(in, o, "sys_s", y, &c->sys_s) == -1)
		return -1;
	return 0;
}

static int
report_in_host_cpu(struct report_in *in, const json_t *j,
    struct gb_host_cpu *h)
{
	const json_t *o;
	int y, m;

	if (report_in_object(in, j, "host_cpu", REPORT_WANT_VALUE, &o) == -1 ||
	    (y = report_in_real(in, o, "busy_pct", REPORT_WANT_ANY,
	    &h->busy_pct)) == -1)
		return -1;
	in->leader = "host_cpu.busy_pct";
	if (report_in_real(in, o, "user_pct", y, &h->user_pct) == -1 ||
	    report_in_real(in, o, "sys_pct", y, &h->sys_pct) == -1 ||
	    report_in_real(in, o, "irq_pct", y, &h->irq_pct) == -1 ||
	    report_in_real(in, o, "softirq_pct", y, &h->softirq_pct) == -1 ||
	    (m = report_in_real(in, o, "max_cpu_busy_pct",
	    y ? REPORT_WANT_ANY : REPORT_WANT_NULL,
	    &h->max_cpu_busy_pct)) == -1 ||
	    report_in_int(in, o, "ncpus", y, &h->ncpus) == -1)
		return -1;
	/* No CPU matched across the two samples: no busiest CPU. */
	in->leader = "host_cpu.max_cpu_busy_pct";
	if (m == 1 && report_in_int(in, o, "max_cpu", REPORT_WANT_VALUE,
	    &h->max_cpu) == -1)
		return -1;
	if (m == 0 && report_in_int(in, o, "max_cpu", REPORT_WANT_NULL,
	    &h->max_cpu) == -1)
		return -1;
	if (y && m == 0)
		h->max_cpu = -1;
	h->has = y;
	return 0;
}

static int
report_in_iface(struct report_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o;
	int y = REPORT_WANT_VALUE, any = REPORT_WANT_ANY;

	if (report_in_object(in, j, "interface", y, &o) == -1 ||
	    report_in_string(in, o, "name", any, f->name,
	    sizeof(f->name)) == -1 ||
	    report_in_int(in, o, "irq_lines", y, &f->irq_lines) == -1 ||
	    report_in_string(in, o, "irq_list", y, f->irq_list,
	    sizeof(f->irq_list)) == -1)
		return -1;
	in->obj = "";
	if ((f->has_interrupts = report_in_uint(in, j, "interrupts",
	    UINT64_MAX, any, &f->interrupts)) == -1 ||
	    (f->has_irq_per_packet = report_in_real(in, j, "irq_per_packet",
	    any, &f->irq_per_packet)) == -1)
		return -1;
	return 0;
}

/* packets and bytes_on_wire: all four null or all four numbers. */
static int
report_in_counters(struct report_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o;
	int y;

	if (report_in_object(in, j, "packets", REPORT_WANT_VALUE, &o) == -1 ||
	    (y = report_in_uint(in, o, "rx", UINT64_MAX, REPORT_WANT_ANY,
	    &f->rx_packets)) == -1)
		return -1;
	in->leader = "packets.rx";
	if (report_in_uint(in, o, "tx", UINT64_MAX, y, &f->tx_packets) == -1)
		return -1;
	if (report_in_object(in, j, "bytes_on_wire", REPORT_WANT_VALUE,
	    &o) == -1)
		return -1;
	in->leader = "packets.rx";
	if (report_in_uint(in, o, "rx", UINT64_MAX, y, &f->rx_bytes) == -1 ||
	    report_in_uint(in, o, "tx", UINT64_MAX, y, &f->tx_bytes) == -1)
		return -1;
	f->has_counters = y;
	return 0;
}

static int
report_in_softirq(struct report_in *in, const json_t *j,
    struct gb_iface_figures *f)
{
	const json_t *o;
	int y;

	if (report_in_object(in, j, "softirq", REPORT_WANT_VALUE, &o) == -1 ||
	    (y = report_in_uint(in, o, "net_rx", UINT64_MAX, REPORT_WANT_ANY,
	    &f->net_rx_softirqs)) == -1)
		return -1;
	in->leader = "softirq.net_rx";
	if (report_in_uint(in, o, "net_tx", UINT64_MAX, y,
	    &f->net_tx_softirqs) == -1)
		return -1;
	f->has_softirq = y;
	return 0;
}

static int
report_in_sockbuf(struct report_in *in, const json_t *j, const char *key,
    struct gb_sockbuf *b)
{
	const json_t *o;

	if (report_in_object(in, j, key, REPORT_WANT_VALUE, &o) == -1 ||
	    report_in_u32(in, o, "requested", REPORT_WANT_ANY,
	    &b->requested) == -1 ||
	    report_in_u32(in, o, "actual", REPORT_WANT_VALUE,
	    &b->actual) == -1)
		return -1;
	return 0;
}

static int
report_in_tcp(struct report_in *in, const json_t *j, struct gb_tcp *t)
{
	const json_t *o;
	int y = REPORT_WANT_VALUE;

	if ((t->has = report_in_object(in, j, "tcp", REPORT_WANT_ANY,
	    &o)) != 1)
		return t->has;
	if (report_in_u32(in, o, "retransmits", y, &t->retransmits) == -1 ||
	    report_in_u32(in, o, "rtt_us", y, &t->rtt_us) == -1 ||
	    report_in_u32(in, o, "rttvar_us", y, &t->rttvar_us) == -1 ||
	    report_in_u32(in, o, "cwnd", y, &t->cwnd) == -1 ||
	    report_in_u32(in, o, "mss", y, &t->mss) == -1)
		return -1;
	return 0;
}

int
report_side_from_json(const json_t *j, struct gb_side *s, char *err,
    size_t errlen)
{
	struct report_in in = { "", NULL, err, errlen };

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "side is not an object");
		return -1;
	}
	if (report_in_totals(&in, j, s) == -1 ||
	    report_in_cpu(&in, j, &s->cpu) == -1 ||
	    report_in_host_cpu(&in, j, &s->host_cpu) == -1 ||
	    report_in_iface(&in, j, &s->iface) == -1 ||
	    report_in_counters(&in, j, &s->iface) == -1 ||
	    report_in_softirq(&in, j, &s->iface) == -1 ||
	    report_in_sockbuf(&in, j, "sndbuf", &s->sndbuf) == -1 ||
	    report_in_sockbuf(&in, j, "rcvbuf", &s->rcvbuf) == -1 ||
	    report_in_tcp(&in, j, &s->tcp) == -1 ||
	    report_in_details(&in, j, s) == -1) {
		memset(s, 0, sizeof(*s));
		return -1;
	}
	s->has = 1;
	return 0;
}
