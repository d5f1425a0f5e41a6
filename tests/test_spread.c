/*
 * test_spread.c: the host's side of the spread: the per-CPU columns of
 * /proc/softirqs (irqstat.c), the queues of sysfs (netif.c), each
 * CPU's figures (spread.c), and each line's share and top CPU
 * (irqline.c), on whole snapshots of the fixtures (hoststat.c):
 *
 *	host-pile	ixgbe, 8 queues on 8 CPUs, 4 flows hashed to
 *			queue 3: eth0-TxRx-3 took 92 % of the interrupts
 *			and cpu3 was 98 % busy, 71 % softirq
 *	host-vspread	virtio-net, 4 queue pairs on 4 CPUs, even
 *	host-fewvec	virtio-net, 8 queue pairs on 2 vectors (config and
 *			the shared "virtqueues" one)
 *
 * Run from the top directory.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/cpustat.h"
#include "host/hoststat.h"
#include "host/irqstat.h"
#include "host/netif.h"
#include "host/spread.h"

#define FIX	"tests/fixtures/"

#include "assert_near.h"

static FILE *
mem(const char *s)
{
	FILE	*fp;

	assert_non_null(fp = fmemopen((void *)(uintptr_t)s, strlen(s), "r"));
	return fp;
}

/* A side's host figures and spread between two fixture roots. */
static void
take(const char *before, const char *after, const char *ifname,
    struct gb_side *s)
{
	struct hoststat_roots	 rb, ra;
	struct hoststat		*b, *a;
	char			 pb[256], sb[256], pa[256], sa[256];
	char			 err[GB_ERR_LEN];

	snprintf(pb, sizeof(pb), FIX "%s/proc", before);
	snprintf(sb, sizeof(sb), FIX "%s/sys", before);
	snprintf(pa, sizeof(pa), FIX "%s/proc", after);
	snprintf(sa, sizeof(sa), FIX "%s/sys", after);
	rb.procfs = pb;
	rb.sysfs = sb;
	ra.procfs = pa;
	ra.sysfs = sa;
	assert_non_null(b = hoststat_take(&rb, ifname, err, sizeof(err)));
	assert_non_null(a = hoststat_take(&ra, ifname, err, sizeof(err)));
	memset(s, 0xa5, sizeof(*s));	/* everything must be written */
	hoststat_diff(b, a, 0, &s->host_cpu, &s->iface, &s->cpu, NULL);
	hoststat_spread(b, a, &s->spread);
	hoststat_free(b);
	hoststat_free(a);
}

static void
expect_cpu(const struct gb_spread_cpu *c, int cpu, double busy,
    double softirq, uint64_t net_rx, uint64_t net_tx)
{
	assert_int_equal(c->cpu, cpu);
	assert_near(c->busy_pct, busy, 1e-9);
	assert_near(c->irq_pct, 0.0, 1e-9);
	assert_near(c->softirq_pct, softirq, 1e-9);
	assert_int_equal(c->has_softirqs, 1);
	assert_true(c->net_rx == net_rx);
	assert_true(c->net_tx == net_tx);
}

static void
expect_share(const struct gb_irq_line *l, const char *actions,
    uint64_t count, double share, int top_cpu)
{
	assert_string_equal(l->actions, actions);
	assert_true(l->count == count);
	assert_int_equal(l->has_share, 1);
	assert_near(l->share_pct, share, 1e-9);
	assert_int_equal(l->top_cpu, top_cpu);
}

/* ---- parsers ---- */

static void
test_softirq_columns(void **state)
{
	struct irqstat_softirq	si;
	uint64_t		rx, tx;
	char			err[256];
	FILE			*fp;

	(void)state;
	irqstat_softirq_init(&si);
	assert_int_equal(irqstat_softirq_read(FIX "host-pile-after/proc", &si,
	    err, sizeof(err)), 0);
	assert_true(si.net_rx == 533000);
	assert_int_equal(irqstat_softirq_cpu(&si, 3, &rx, &tx), 0);
	assert_true(rx == 459000 && tx == 65);
	assert_int_equal(irqstat_softirq_cpu(&si, 7, &rx, &tx), 0);
	assert_true(rx == 14000 && tx == 105);
	assert_int_equal(irqstat_softirq_cpu(&si, 8, &rx, &tx), -1);
	/* The same struct again: an offline CPU1, a repeated row, a short one */
	fp = mem("   CPU0 CPU2 CPU3\nNET_RX: 1 2 3\nNET_TX: 4 5\n"
	    "NET_RX: 100 100 100\n");
	assert_int_equal(irqstat_softirq_parse(fp, &si, err, sizeof(err)), 0);
	fclose(fp);
	assert_true(si.net_rx == 6 && si.net_tx == 9);
	assert_int_equal(si.rows.nlines, 2);
	assert_int_equal(irqstat_softirq_cpu(&si, 2, &rx, &tx), 0);
	assert_true(rx == 2 && tx == 5);
	assert_int_equal(irqstat_softirq_cpu(&si, 1, &rx, &tx), -1);
	assert_int_equal(irqstat_softirq_cpu(&si, 3, &rx, &tx), -1);
	/* A failed parse has no columns to give. */
	fp = mem("   CPU0\nNET_RX: 1\n");
	assert_int_equal(irqstat_softirq_parse(fp, &si, err, sizeof(err)), -1);
	fclose(fp);
	assert_string_equal(err, "no NET_RX and NET_TX rows");
	assert_int_equal(irqstat_softirq_cpu(&si, 0, &rx, &tx), -1);
	irqstat_softirq_free(&si);
	assert_int_equal(irqstat_softirq_cpu(&si, 0, &rx, &tx), -1);
}

static void
test_queues(void **state)
{
	struct netif_queues	q;
	char			err[256];

	(void)state;
	assert_int_equal(netif_queue_kind("rx-0"), 'r');
	assert_int_equal(netif_queue_kind("tx-15"), 't');
	assert_int_equal(netif_queue_kind("rx-"), 0);
	assert_int_equal(netif_queue_kind("rx-1a"), 0);
	assert_int_equal(netif_queue_kind("xdp-0"), 0);
	assert_int_equal(netif_queue_kind("."), 0);
	assert_int_equal(netif_queues_read(FIX "host-pile-after/sys", "eth0",
	    &q, err, sizeof(err)), 0);
	assert_true(q.has && q.rx == 8 && q.tx == 8);
	assert_int_equal(netif_queues_read(FIX "host-vspread-after/sys",
	    "eth0", &q, err, sizeof(err)), 0);
	assert_true(q.has && q.rx == 4 && q.tx == 4);
	assert_int_equal(netif_queues_read(FIX "host-pile-after/sys", "eth9",
	    &q, err, sizeof(err)), -1);
	assert_int_equal(q.has, 0);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "class/net/eth9/queues"));
	assert_int_equal(netif_queues_read(FIX "host-pile-after/sys", "../x",
	    &q, err, sizeof(err)), -1);
	/* This host's loopback: one of each. */
	assert_int_equal(netif_queues_read("/sys", "lo", &q, err,
	    sizeof(err)), 0);
	assert_true(q.rx == 1 && q.tx == 1);
}

/* ---- whole snapshots ---- */

static void
test_pile(void **state)
{
	struct gb_side	*s;
	unsigned	 i;

	(void)state;
	assert_non_null(s = calloc(1, sizeof(*s)));
	take("host-pile-before", "host-pile-after", "eth0", s);
	assert_int_equal(s->spread.has, 1);
	assert_int_equal(s->spread.ncpus, 8);
	assert_int_equal(s->spread.ncpu, 8);
	for (i = 0; i < 8; i++)
		if (i == 3)
			expect_cpu(&s->spread.cpu[i], 3, 98.0, 71.0, 455000,
			    25);
		else
			expect_cpu(&s->spread.cpu[i], (int)i, 9.0, 3.0, 6000,
			    25);
	assert_near(s->host_cpu.busy_pct, 100.0 * (980 + 7 * 90) / 8000,
	    1e-9);
	assert_true(s->spread.has_queues && s->spread.rx_queues == 8 &&
	    s->spread.tx_queues == 8);
	/* 500,001 interrupts: the other-causes line's 1 and the queues'. */
	assert_true(s->iface.interrupts == 500001);
	assert_int_equal(s->iface.nlines, 9);
	expect_share(&s->iface.lines[0], "eth0", 1, 100.0 / 500001, 0);
	expect_share(&s->iface.lines[1], "eth0-TxRx-0", 5714,
	    100.0 * 5714 / 500001, 0);
	expect_share(&s->iface.lines[4], "eth0-TxRx-3", 460000,
	    100.0 * 460000 / 500001, 3);
	expect_share(&s->iface.lines[8], "eth0-TxRx-7", 5715,
	    100.0 * 5715 / 500001, 7);
	free(s);
}

static void
test_even_and_few(void **state)
{
	struct gb_side	*s;
	unsigned	 i;

	(void)state;
	assert_non_null(s = calloc(1, sizeof(*s)));
	take("host-vspread-before", "host-vspread-after", "eth0", s);
	assert_int_equal(s->spread.ncpu, 4);
	expect_cpu(&s->spread.cpu[0], 0, 45.0, 25.0, 24000, 400);
	expect_cpu(&s->spread.cpu[3], 3, 44.5, 24.0, 25600, 390);
	assert_true(s->spread.rx_queues == 4 && s->spread.tx_queues == 4);
	assert_int_equal(s->iface.nlines, 9);
	assert_true(s->iface.interrupts == 132000);
	expect_share(&s->iface.lines[0], "virtio2-config", 0, 0.0, -1);
	expect_share(&s->iface.lines[7], "virtio2-input.3", 25800,
	    100.0 * 25800 / 132000, 3);
	for (i = 1; i < 9; i++)
		assert_true(s->iface.lines[i].share_pct < 20.0);

	take("host-fewvec-before", "host-fewvec-after", "eth0", s);
	assert_true(s->spread.rx_queues == 8 && s->spread.tx_queues == 8);
	assert_int_equal(s->iface.irq_lines, 2);
	expect_share(&s->iface.lines[0], "virtio2-config", 0, 0.0, -1);
	expect_share(&s->iface.lines[1], "virtio2-virtqueues", 151000, 100.0,
	    1);
	expect_cpu(&s->spread.cpu[1], 1, 58.0, 36.0, 52000, 1200);
	free(s);
}

/*
 * Lines without interrupts have no share; a loopback has queues and no
 * line; a snapshot missing gives no spread.
 */
static void
test_no_lines(void **state)
{
	struct gb_side	*s;

	(void)state;
	assert_non_null(s = calloc(1, sizeof(*s)));
	take("host-pile-before", "host-pile-before", "eth0", s);
	assert_int_equal(s->spread.has, 1);
	assert_int_equal(s->spread.ncpus, 0);	/* no tick passed */
	assert_int_equal(s->iface.nlines, 9);
	assert_int_equal(s->iface.lines[4].has_share, 0);
	assert_int_equal(s->iface.lines[4].top_cpu, -1);
	take("host-mq-before", "host-mq-after", "lo", s);
	assert_int_equal(s->spread.has, 1);
	assert_int_equal(s->spread.ncpu, 4);
	assert_int_equal(s->spread.has_queues, 0);	/* not in the fixture */
	assert_int_equal(s->iface.nlines, 0);
	hoststat_spread(NULL, NULL, &s->spread);
	assert_int_equal(s->spread.has, 0);
	free(s);
}

/* /proc/stat of n CPUs, CPU i with busy[i] of 100 ticks (after). */
static char *
stat_text(unsigned n, const unsigned *busy)
{
	char	*buf;
	size_t	 len = 0, cap = 64 + (size_t)n * 64;
	unsigned i, sum = 0;

	assert_non_null(buf = malloc(cap));
	for (i = 0; busy != NULL && i < n; i++)
		sum += busy[i];
	len += (size_t)snprintf(buf + len, cap - len, "cpu  0 0 %u %u 0 0 0 0\n",
	    sum, busy != NULL ? n * 100 - sum : 0);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len,
		    "cpu%u 0 0 %u %u 0 0 0 0\n", i, busy != NULL ? busy[i] : 0,
		    busy != NULL ? 100 - busy[i] : 0);
	return buf;
}

static void
parse_stat(const char *text, struct cpustat *cs)
{
	char	 err[256];
	FILE	*fp = mem(text);

	cpustat_init(cs);
	assert_int_equal(cpustat_parse(fp, cs, err, sizeof(err)), 0);
	fclose(fp);
}

/*
 * 100 CPUs: the 64 busiest kept, in ascending order; with all alike,
 * the first 64.  Softirq columns for some of them only.
 */
static void
test_bounded(void **state)
{
	struct cpustat		 b, a;
	struct irqstat_softirq	 sb, sa;
	struct gb_spread	*sp;
	unsigned		 busy[100], i;
	char			*tb, *ta, err[256];
	FILE			*fp;

	(void)state;
	assert_non_null(sp = calloc(1, sizeof(*sp)));
	for (i = 0; i < 100; i++)
		busy[i] = (i * 37) % 100;	/* every share once */
	tb = stat_text(100, NULL);
	ta = stat_text(100, busy);
	parse_stat(tb, &b);
	parse_stat(ta, &a);
	irqstat_softirq_init(&sb);
	irqstat_softirq_init(&sa);
	fp = mem("   CPU0 CPU1 CPU2\nNET_RX: 1 1 1\nNET_TX: 0 0 0\n");
	assert_int_equal(irqstat_softirq_parse(fp, &sb, err, sizeof(err)), 0);
	fclose(fp);
	fp = mem("   CPU0 CPU1 CPU2\nNET_RX: 11 1 0\nNET_TX: 2 0 0\n");
	assert_int_equal(irqstat_softirq_parse(fp, &sa, err, sizeof(err)), 0);
	fclose(fp);
	spread_cpus(&b, &a, &sb, &sa, sp);
	assert_int_equal(sp->ncpus, 100);
	assert_int_equal(sp->ncpu, GB_SPREAD_MAX_CPUS);
	for (i = 0; i < sp->ncpu; i++) {
		assert_true(sp->cpu[i].busy_pct >= 36.0);
		if (i > 0)
			assert_true(sp->cpu[i].cpu > sp->cpu[i - 1].cpu);
		/* CPU 0 (busy 0) is not kept; 1 and 2 are (37 %, 74 %) */
		assert_int_equal(sp->cpu[i].has_softirqs,
		    sp->cpu[i].cpu <= 2);
	}
	assert_int_equal(sp->cpu[0].cpu, 1);
	assert_true(sp->cpu[0].net_rx == 0);	/* 1 -> 1 */
	assert_int_equal(sp->cpu[1].cpu, 2);
	assert_true(sp->cpu[1].net_rx == 0);	/* went down: 0 */
	cpustat_free(&a);
	free(ta);
	for (i = 0; i < 100; i++)
		busy[i] = 50;
	ta = stat_text(100, busy);
	parse_stat(ta, &a);
	spread_cpus(&b, &a, &sb, &sa, sp);
	assert_int_equal(sp->ncpu, GB_SPREAD_MAX_CPUS);
	for (i = 0; i < sp->ncpu; i++)
		assert_int_equal(sp->cpu[i].cpu, (int)i);
	assert_true(sp->cpu[0].net_rx == 10 && sp->cpu[0].net_tx == 2);
	cpustat_free(&a);
	cpustat_free(&b);
	free(ta);
	free(tb);
	irqstat_softirq_free(&sb);
	irqstat_softirq_free(&sa);
	free(sp);
}

/* A CPU that came or went during the test is not measured. */
static void
test_hotplug(void **state)
{
	struct cpustat		 b, a;
	struct irqstat_softirq	 none;
	struct gb_spread	*sp;

	(void)state;
	assert_non_null(sp = calloc(1, sizeof(*sp)));
	irqstat_softirq_init(&none);
	parse_stat("cpu  0 0 0 0\ncpu0 0 0 0 0\ncpu1 0 0 0 0\ncpu3 0 0 0 0\n",
	    &b);
	parse_stat("cpu  0 0 30 270\ncpu0 0 0 10 90\ncpu2 0 0 10 90\n"
	    "cpu3 0 0 10 90\n", &a);
	spread_cpus(&b, &a, &none, &none, sp);
	assert_int_equal(sp->ncpus, 2);
	assert_int_equal(sp->cpu[0].cpu, 0);
	assert_int_equal(sp->cpu[1].cpu, 3);
	assert_near(sp->cpu[1].busy_pct, 10.0, 1e-9);
	assert_int_equal(sp->cpu[1].has_softirqs, 0);
	/* No aggregate line in one sample: nothing. */
	b.has = 0;
	spread_cpus(&b, &a, &none, &none, sp);
	assert_int_equal(sp->ncpus, 0);
	assert_int_equal(sp->ncpu, 0);
	cpustat_free(&a);
	cpustat_free(&b);
	free(sp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_softirq_columns),
		cmocka_unit_test(test_queues),
		cmocka_unit_test(test_pile),
		cmocka_unit_test(test_even_and_few),
		cmocka_unit_test(test_no_lines),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_hotplug),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
