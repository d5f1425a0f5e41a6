/*
 * side_spread.c: a side's "spread" member both ways, the side codec's
 * (side.h) encoder and decoder of struct gb_spread and of the shares and
 * top CPUs of the interface's lines (result.h): the part of the side
 * that says how the test's interrupts and softirqs went over the queues
 * and the CPUs.  side_detail.c and side_in_detail.c call it, the decoder
 * after the interface's lines, whose names its lines must repeat.
 *
 *	"spread": null, or {
 *	    "ncpus": 8,
 *	    "per_cpu": [{"cpu", "busy_pct", "irq_pct", "softirq_pct",
 *	                 "net_rx", "net_tx"}, ...],
 *	    "rx_queues": 8, "tx_queues": 8,
 *	    "lines": [{"name", "share_pct", "top_cpu"}, ...]
 *	}
 *
 * The decoder is as strict as the rest of the side: every number typed
 * and bounded (percentages at most 100, a CPU's irq and softirq shares
 * within its busy share, the lines' shares at most 100 together, CPUs
 * ascending and below GB_MAX_CPUS), nulls only where the encoder writes
 * them.  A side without the member comes from a peer that predates it:
 * no spread, as a null.  No I/O.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "codec/member.h"
#include "side_detail.h"
#include "side_member.h"

/* Room for "spread.per_cpu[63].net_rx". */
#define SPREAD_PATH_LEN	64
/* Reals summed from the same ticks may differ in their last bits. */
#define SPREAD_EPSILON	1e-6
/* More queues than any kernel makes (a wrapped count, a hostile peer). */
#define SPREAD_MAX_QUEUES	65536

static json_t *
spread_cpu_json(const struct gb_spread_cpu *c)
{
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "cpu", c->cpu,
	    "busy_pct", member_real_or_null(1, c->busy_pct),
	    "irq_pct", member_real_or_null(1, c->irq_pct),
	    "softirq_pct", member_real_or_null(1, c->softirq_pct),
	    "net_rx", member_uint_or_null(c->has_softirqs, c->net_rx),
	    "net_tx", member_uint_or_null(c->has_softirqs, c->net_tx));
}

static json_t *
spread_line_json(const struct gb_irq_line *l)
{
	return json_pack("{s:s, s:o, s:o}", "name", l->name,
	    "share_pct", member_real_or_null(l->has_share, l->share_pct),
	    "top_cpu", member_uint_or_null(l->top_cpu >= 0,
	    (uint64_t)l->top_cpu));
}

/* Append each of n things, made by one builder, to a new array. */
static json_t *
spread_array(const void *items, size_t size, unsigned n,
    json_t *(*one)(const void *))
{
	json_t *a;
	unsigned i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		if (json_array_append_new(a, one((const char *)items +
		    i * size)) == -1) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
spread_cpu_one(const void *p)
{
	return spread_cpu_json(p);
}

static json_t *
spread_line_one(const void *p)
{
	return spread_line_json(p);
}

json_t *
side_spread_json(const struct gb_side *s)
{
	const struct gb_spread *sp = &s->spread;
	unsigned ncpu = sp->ncpu, nlines = s->iface.nlines;

	if (!sp->has)
		return json_null();
	if (ncpu > GB_SPREAD_MAX_CPUS)
		ncpu = GB_SPREAD_MAX_CPUS;
	if (nlines > GB_MAX_IRQ_LINES)
		nlines = GB_MAX_IRQ_LINES;
	return json_pack("{s:I, s:o, s:o, s:o, s:o}",
	    "ncpus", (json_int_t)sp->ncpus,
	    "per_cpu", spread_array(sp->cpu, sizeof(sp->cpu[0]), ncpu,
	    spread_cpu_one),
	    "rx_queues", member_uint_or_null(sp->has_queues, sp->rx_queues),
	    "tx_queues", member_uint_or_null(sp->has_queues, sp->tx_queues),
	    "lines", spread_array(s->iface.lines, sizeof(s->iface.lines[0]),
	    nlines, spread_line_one));
}

/* A percentage: a real from 0 to 100. */
static int
spread_pct(struct side_in *in, const json_t *o, const char *key,
    double *out)
{
	if (side_member_real(in, o, key, SIDE_WANT_VALUE, out) == -1)
		return -1;
	if (*out > 100.0)
		return side_member_fail(in, key, "is over 100: %g", *out);
	return 0;
}

/* per_cpu[i], into c; prev is the CPU before it (-1 for the first). */
static int
spread_cpu_in(struct side_in *in, const json_t *o, int prev,
    struct gb_spread_cpu *c)
{
	char leader[SPREAD_PATH_LEN];
	uint64_t id;
	int y;

	if (side_member_uint(in, o, "cpu", GB_MAX_CPUS - 1, SIDE_WANT_VALUE,
	    &id) == -1)
		return -1;
	c->cpu = (int)id;
	if (c->cpu <= prev)
		return side_member_fail(in, "cpu", "is not above the CPU "
		    "before it: %d", c->cpu);
	if (spread_pct(in, o, "busy_pct", &c->busy_pct) == -1 ||
	    spread_pct(in, o, "irq_pct", &c->irq_pct) == -1 ||
	    spread_pct(in, o, "softirq_pct", &c->softirq_pct) == -1)
		return -1;
	if (c->irq_pct + c->softirq_pct > c->busy_pct + SPREAD_EPSILON)
		return side_member_fail(in, "softirq_pct", "and irq_pct are "
		    "more than busy_pct");
	if ((y = side_member_uint(in, o, "net_rx", UINT64_MAX, SIDE_WANT_ANY,
	    &c->net_rx)) == -1)
		return -1;
	snprintf(leader, sizeof(leader), "%s.net_rx", in->obj);
	in->leader = leader;
	if (side_member_uint(in, o, "net_tx", UINT64_MAX, y,
	    &c->net_tx) == -1)
		return -1;
	in->leader = NULL;
	c->has_softirqs = y;
	return 0;
}

/* An array member of o with at most max entries. */
static int
spread_list(struct side_in *in, const json_t *o, const char *key,
    size_t max, const json_t **a)
{
	if (side_member_get(in, o, key, SIDE_WANT_VALUE, a) == -1)
		return -1;
	if (!json_is_array(*a))
		return side_member_fail(in, key, "is not an array");
	if (json_array_size(*a) > max)
		return side_member_fail(in, key, "has over %zu entries", max);
	return 0;
}

/*
 * Entry i of spread's array key, an object: in->obj names it
 * ("spread.per_cpu[3]", in path) for the members that follow.
 */
static const json_t *
spread_entry(struct side_in *in, const json_t *a, const char *key,
    size_t i, char *path, size_t len)
{
	const json_t *e = json_array_get(a, i);
	char sub[SPREAD_PATH_LEN];

	in->obj = "spread";
	in->leader = NULL;
	if (!json_is_object(e)) {
		snprintf(sub, sizeof(sub), "%s[%zu]", key, i);
		side_member_fail(in, sub, "is not an object");
		return NULL;
	}
	snprintf(path, len, "spread.%s[%zu]", key, i);
	in->obj = path;
	return e;
}

static int
spread_cpus_in(struct side_in *in, const json_t *o, struct gb_spread *sp)
{
	char path[SPREAD_PATH_LEN];
	const json_t *a, *e;
	uint64_t n;
	size_t i;

	if (side_member_uint(in, o, "ncpus", GB_MAX_CPUS, SIDE_WANT_VALUE,
	    &n) == -1 || spread_list(in, o, "per_cpu", GB_SPREAD_MAX_CPUS,
	    &a) == -1)
		return -1;
	sp->ncpus = (unsigned)n;
	if (json_array_size(a) > sp->ncpus)
		return side_member_fail(in, "per_cpu", "has more entries than "
		    "ncpus: %zu", json_array_size(a));
	for (i = 0; i < json_array_size(a); i++)
		if ((e = spread_entry(in, a, "per_cpu", i, path,
		    sizeof(path))) == NULL || spread_cpu_in(in, e,
		    i == 0 ? -1 : sp->cpu[i - 1].cpu, &sp->cpu[i]) == -1)
			return -1;
	sp->ncpu = (unsigned)json_array_size(a);
	in->obj = "spread";
	return 0;
}

static int
spread_queues_in(struct side_in *in, const json_t *o, struct gb_spread *sp)
{
	uint64_t rx = 0, tx = 0;
	int y;

	in->obj = "spread";
	if ((y = side_member_uint(in, o, "rx_queues", SPREAD_MAX_QUEUES,
	    SIDE_WANT_ANY, &rx)) == -1)
		return -1;
	in->leader = "spread.rx_queues";
	if (side_member_uint(in, o, "tx_queues", SPREAD_MAX_QUEUES, y,
	    &tx) == -1)
		return -1;
	in->leader = NULL;
	sp->has_queues = y;
	sp->rx_queues = (uint32_t)rx;
	sp->tx_queues = (uint32_t)tx;
	return 0;
}

/*
 * lines[i]: the interface's line i by name, its share (null in all of
 * them or in none: want is the first's) and its top CPU.
 */
static int
spread_line_in(struct side_in *in, const json_t *o, int want,
    struct gb_irq_line *l)
{
	char name[sizeof(l->name)];
	uint64_t top;
	int rc;

	if (side_member_string(in, o, "name", SIDE_WANT_VALUE, name,
	    sizeof(name)) == -1)
		return -1;
	if (strcmp(name, l->name) != 0)
		return side_member_fail(in, "name", "is not the interface "
		    "line's: \"%s\"", name);
	if ((l->has_share = side_member_real(in, o, "share_pct", want,
	    &l->share_pct)) == -1)
		return -1;
	if (l->share_pct > 100.0)
		return side_member_fail(in, "share_pct", "is over 100: %g",
		    l->share_pct);
	if ((rc = side_member_uint(in, o, "top_cpu", GB_MAX_CPUS - 1,
	    SIDE_WANT_ANY, &top)) == -1)
		return -1;
	l->top_cpu = rc == 1 ? (int)top : -1;
	return 0;
}

static int
spread_lines_in(struct side_in *in, const json_t *o,
    struct gb_iface_figures *f)
{
	char path[SPREAD_PATH_LEN];
	const json_t *a, *e;
	double sum = 0;
	size_t i;
	int want = SIDE_WANT_ANY;

	in->obj = "spread";
	if (spread_list(in, o, "lines", GB_MAX_IRQ_LINES, &a) == -1)
		return -1;
	if (json_array_size(a) != f->nlines)
		return side_member_fail(in, "lines", "has %zu entries, "
		    "interface.lines %u", json_array_size(a), f->nlines);
	for (i = 0; i < json_array_size(a); i++) {
		if ((e = spread_entry(in, a, "lines", i, path,
		    sizeof(path))) == NULL)
			return -1;
		in->leader = i == 0 ? NULL : "spread.lines[0].share_pct";
		if (spread_line_in(in, e, want, &f->lines[i]) == -1)
			return -1;
		want = f->lines[0].has_share;
		sum += f->lines[i].share_pct;
	}
	in->obj = "spread";
	in->leader = NULL;
	if (sum > 100.0 + SPREAD_EPSILON)
		return side_member_fail(in, "lines", "have shares over 100 "
		    "together: %g", sum);
	return 0;
}

int
side_spread_in(struct side_in *in, const json_t *j, struct gb_side *s)
{
	const json_t *o;
	unsigned i;
	int rc;

	for (i = 0; i < s->iface.nlines && i < GB_MAX_IRQ_LINES; i++) {
		s->iface.lines[i].has_share = 0;
		s->iface.lines[i].share_pct = 0;
		s->iface.lines[i].top_cpu = -1;
	}
	memset(&s->spread, 0, sizeof(s->spread));
	if (json_object_get(j, "spread") == NULL)
		return 0;	/* a peer that predates the spread */
	if ((rc = side_member_object(in, j, "spread", SIDE_WANT_ANY,
	    &o)) != 1)
		return rc;
	if (spread_cpus_in(in, o, &s->spread) == -1 ||
	    spread_queues_in(in, o, &s->spread) == -1 ||
	    spread_lines_in(in, o, &s->iface) == -1)
		return -1;
	in->obj = "";
	s->spread.has = 1;
	return 1;
}
