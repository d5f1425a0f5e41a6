/*
 * test_diag_spread.c: the spread's findings (src/diag_spread.c) on sides
 * measured from the fixtures (hoststat.c, as a test fills them) and then
 * moved across each threshold by hand:
 *
 *	irq_pile		host-pile: eth0-TxRx-3 took 92 % with -P 4
 *	cpu_softirq_bound	host-pile: cpu3 98 % busy, 71 % softirq,
 *				host 20 %
 *	few_vectors		host-fewvec: 8 rx queues on 2 lines
 *
 * and silent on the even virtio host, on this host's loopback, and when
 * a figure they need is unknown.  Run from the top directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "base/diag.h"
#include "host/hoststat.h"

#define FIX	"tests/fixtures/"

/* A side of a 10 s test whose host figures are the fixtures'. */
static void
take(const char *name, const char *ifname, struct gb_side *s)
{
	struct hoststat_roots	 rb, ra;
	struct hoststat		*b, *a;
	char			 pb[256], sb[256], pa[256], sa[256];
	char			 err[GB_ERR_LEN];

	snprintf(pb, sizeof(pb), FIX "host-%s-before/proc", name);
	snprintf(sb, sizeof(sb), FIX "host-%s-before/sys", name);
	snprintf(pa, sizeof(pa), FIX "host-%s-after/proc", name);
	snprintf(sa, sizeof(sa), FIX "host-%s-after/sys", name);
	rb.procfs = pb;
	rb.sysfs = sb;
	ra.procfs = pa;
	ra.sysfs = sa;
	assert_non_null(b = hoststat_take(&rb, ifname, err, sizeof(err)));
	assert_non_null(a = hoststat_take(&ra, ifname, err, sizeof(err)));
	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->bytes = UINT64_C(7650000000);
	s->seconds = 10.0;
	s->mbps = 6120.0;
	s->tos = -1;
	hoststat_diff(b, a, 0, &s->host_cpu, &s->iface, &s->cpu, NULL);
	hoststat_spread(b, a, &s->spread);
	hoststat_free(b);
	hoststat_free(a);
}

/* The sender on the even virtio host, the receiver on name's, -P n. */
static struct gb_result *
result_new(const char *name, unsigned streams)
{
	struct gb_result *r;

	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.streams = streams;
	r->params.duration_ms = 10000;
	r->local_is_sender = 1;
	take("vspread", "eth0", &r->sender);
	take(name, "eth0", &r->receiver);
	return r;
}

/* The finding of that code, or NULL. */
static const struct gb_finding *
finding(const struct gb_result *r, const char *code)
{
	unsigned i;

	for (i = 0; i < r->nfindings; i++)
		if (strcmp(r->findings[i].code, code) == 0)
			return &r->findings[i];
	return NULL;
}

static int
spread_findings(const struct gb_result *r)
{
	return (finding(r, "irq_pile") != NULL) +
	    (finding(r, "cpu_softirq_bound") != NULL) +
	    (finding(r, "few_vectors") != NULL);
}

static void
expect(const struct gb_result *r, const char *code, const char *side,
    const char *text)
{
	const struct gb_finding *f;

	if ((f = finding(r, code)) == NULL)
		fail_msg("no %s finding", code);
	assert_string_equal(f->side, side);
	assert_string_equal(f->text, text);
}

/* ---- the fixtures ---- */

static void
test_pile(void **state)
{
	struct gb_result *r;

	(void)state;
	r = result_new("pile", 4);
	diag_run(r);
	expect(r, "irq_pile", "receiver", "1 of 8 queue lines took 92 % of "
	    "eth0's interrupts (eth0-TxRx-3, IRQ 134, on cpu3) with -P 4: "
	    "the flows hashed to one queue");
	expect(r, "cpu_softirq_bound", "receiver", "cpu3 98 % busy, 71 % "
	    "softirq (92 % of the NET_RX softirqs), host 20 %: the "
	    "bottleneck, its queues' packets on one CPU (RSS, RPS, IRQ "
	    "affinity)");
	/* cpu_bound says it too, without the why. */
	assert_non_null(finding(r, "cpu_bound"));
	assert_null(finding(r, "few_vectors"));
	assert_int_equal(spread_findings(r), 2);

	/* One stream is one flow: one queue is all it can have. */
	r->params.streams = 1;
	diag_run(r);
	assert_null(finding(r, "irq_pile"));
	assert_non_null(finding(r, "cpu_softirq_bound"));
	free(r);
}

static void
test_even(void **state)
{
	struct gb_result *r;

	(void)state;
	r = result_new("vspread", 8);
	diag_run(r);
	assert_int_equal(spread_findings(r), 0);
	free(r);
}

static void
test_few_vectors(void **state)
{
	struct gb_result *r;

	(void)state;
	r = result_new("fewvec", 4);
	diag_run(r);
	expect(r, "few_vectors", "receiver", "eth0 has 8 rx queues but 2 "
	    "interrupt lines: queues share a line, and its CPU (ethtool -l, "
	    "MSI-X vectors)");
	/* The config line is no queue's: one queue line cannot pile. */
	assert_null(finding(r, "irq_pile"));
	assert_int_equal(spread_findings(r), 1);
	/* All queues on the one line of a wired virtio NIC. */
	r->receiver.iface.irq_lines = 1;
	r->receiver.iface.nlines = 1;
	r->receiver.iface.lines[0] = r->receiver.iface.lines[1];
	diag_run(r);
	expect(r, "few_vectors", "receiver", "eth0 has 8 rx queues but 1 "
	    "interrupt line: they all share it, and its CPU");
	r->receiver.spread.rx_queues = 1;
	diag_run(r);
	assert_null(finding(r, "few_vectors"));
	r->receiver.spread.rx_queues = 8;
	r->receiver.spread.has_queues = 0;
	diag_run(r);
	assert_null(finding(r, "few_vectors"));
	free(r);
}

/* ---- the thresholds, on the pile moved by hand ---- */

/* eth0-TxRx-3 with share pct of the interrupts. */
static void
pile_share(struct gb_result *r, double pct)
{
	r->receiver.iface.lines[4].share_pct = pct;
}

static void
test_pile_thresholds(void **state)
{
	struct gb_result *r;
	struct gb_iface_figures *f;

	(void)state;
	r = result_new("pile", 2);
	f = &r->receiver.iface;
	pile_share(r, 74.9);
	diag_run(r);
	assert_null(finding(r, "irq_pile"));
	pile_share(r, 75.0);
	diag_run(r);
	assert_non_null(finding(r, "irq_pile"));
	/* Too few interrupts to tell. */
	f->interrupts = 199;
	diag_run(r);
	assert_null(finding(r, "irq_pile"));
	f->interrupts = 200;
	diag_run(r);
	assert_non_null(finding(r, "irq_pile"));
	/* One rx queue: nothing to hash over. */
	r->receiver.spread.rx_queues = 1;
	diag_run(r);
	assert_null(finding(r, "irq_pile"));
	/* Queues unknown: the lines say enough. */
	r->receiver.spread.has_queues = 0;
	diag_run(r);
	assert_non_null(finding(r, "irq_pile"));
	/* No share (a peer that predates the spread): nothing. */
	f->lines[4].has_share = 0;
	diag_run(r);
	assert_null(finding(r, "irq_pile"));
	f->lines[4].has_share = 1;
	/* The other-causes line and one queue's: one queue line. */
	f->nlines = 2;
	f->irq_lines = 2;
	f->lines[1] = f->lines[4];
	diag_run(r);
	assert_null(finding(r, "irq_pile"));
	/* Lines beyond the 16 a result holds count as queues. */
	f->irq_lines = 20;
	f->lines[1].top_cpu = -1;
	diag_run(r);
	expect(r, "irq_pile", "receiver", "1 of 19 queue lines took 75 % of "
	    "eth0's interrupts (eth0-TxRx-3, IRQ 134) with -P 2: the flows "
	    "hashed to one queue");
	free(r);
}

static void
test_softirq_thresholds(void **state)
{
	struct gb_result *r;
	struct gb_spread_cpu *c;

	(void)state;
	r = result_new("pile", 4);
	c = &r->receiver.spread.cpu[3];
	c->busy_pct = 89.9;
	diag_run(r);
	assert_null(finding(r, "cpu_softirq_bound"));
	c->busy_pct = 90.0;
	c->softirq_pct = 44.9;	/* less than half of it */
	diag_run(r);
	assert_null(finding(r, "cpu_softirq_bound"));
	c->softirq_pct = 45.0;
	diag_run(r);
	assert_non_null(finding(r, "cpu_softirq_bound"));
	/* The host's average at most two thirds of the CPU's. */
	r->receiver.host_cpu.busy_pct = 60.1;
	diag_run(r);
	assert_null(finding(r, "cpu_softirq_bound"));
	r->receiver.host_cpu.busy_pct = 60.0;
	c->has_softirqs = 0;
	diag_run(r);
	expect(r, "cpu_softirq_bound", "receiver", "cpu3 90 % busy, 45 % "
	    "softirq, host 60 %: the bottleneck, its queues' packets on one "
	    "CPU (RSS, RPS, IRQ affinity)");
	/* No interrupt lines (veth, lo): the softirqs run where the sender does. */
	r->receiver.iface.has_interrupts = 0;
	diag_run(r);
	assert_null(finding(r, "cpu_softirq_bound"));
	r->receiver.iface.has_interrupts = 1;
	r->receiver.spread.ncpus = 1;
	diag_run(r);
	assert_null(finding(r, "cpu_softirq_bound"));
	r->receiver.spread.ncpus = 8;
	r->receiver.host_cpu.has = 0;
	diag_run(r);
	assert_null(finding(r, "cpu_softirq_bound"));
	r->receiver.host_cpu.has = 1;
	r->receiver.spread.has = 0;
	diag_run(r);
	assert_int_equal(spread_findings(r), 1);	/* irq_pile needs none */
	free(r);
}

/* A peer's line name with bytes a terminal would act on: escaped. */
static void
test_printable(void **state)
{
	struct gb_result *r;
	const struct gb_finding *f;

	(void)state;
	r = result_new("pile", 4);
	strcpy(r->receiver.iface.lines[4].actions, "eth0-TxRx-3\x1b[2J");
	strcpy(r->receiver.iface.name, "eth0\x07");
	diag_run(r);
	assert_non_null(f = finding(r, "irq_pile"));
	assert_non_null(strstr(f->text, "eth0\\x07's interrupts "
	    "(eth0-TxRx-3\\x1b[2J, IRQ 134"));
	free(r);
}

/* This host's loopback around a moment of work: no spread finding. */
static void
test_real_lo(void **state)
{
	struct gb_result *r;
	struct hoststat *b, *a;
	volatile unsigned long spin = 0;
	char err[GB_ERR_LEN];
	clock_t end;

	(void)state;
	assert_non_null(r = calloc(1, sizeof(*r)));
	r->params.streams = 4;
	assert_non_null(b = hoststat_take(NULL, "lo", err, sizeof(err)));
	for (end = clock() + CLOCKS_PER_SEC / 20; clock() < end; )
		spin++;
	assert_non_null(a = hoststat_take(NULL, "lo", err, sizeof(err)));
	r->receiver.has = r->sender.has = 1;
	r->receiver.seconds = r->sender.seconds = 1.0;
	hoststat_diff(b, a, 0, &r->receiver.host_cpu, &r->receiver.iface,
	    &r->receiver.cpu, NULL);
	hoststat_spread(b, a, &r->receiver.spread);
	r->sender = r->receiver;
	hoststat_free(b);
	hoststat_free(a);
	assert_int_equal(r->receiver.spread.has, 1);
	/* A busy CPU on lo is the sender's own, as loopback works. */
	r->receiver.spread.cpu[0].busy_pct = 100.0;
	r->receiver.spread.cpu[0].softirq_pct = 90.0;
	diag_run(r);
	assert_int_equal(spread_findings(r), 0);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pile),
		cmocka_unit_test(test_even),
		cmocka_unit_test(test_few_vectors),
		cmocka_unit_test(test_pile_thresholds),
		cmocka_unit_test(test_softirq_thresholds),
		cmocka_unit_test(test_printable),
		cmocka_unit_test(test_real_lo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
