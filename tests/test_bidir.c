/*
 * test_bidir.c: bidir.c's figures on hand-made results: interrupts split
 * by direction from per-queue line names (an Intel-style "eth0-rx-0" /
 * "eth0-tx-0" pair; "eth0-TxRx-0" and a driver-named line, which cannot
 * be split), interrupts per packet over both directions' packets, each
 * host's figures given to its reverse side, and the reverse view's
 * sides and direction.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bidir.h"

static void
line(struct gb_iface_figures *f, const char *actions, uint64_t count)
{
	struct gb_irq_line *l = &f->lines[f->nlines++];

	snprintf(l->actions, sizeof(l->actions), "%s", actions);
	l->count = count;
	f->interrupts += count;
	f->has_interrupts = 1;
	f->irq_lines = (int)f->nlines;
}

static void
test_line_dir(void **state)
{
	static const struct {
		const char	*actions;
		int		 dir;
	} cases[] = {
		{ "eth0-rx-0", 1 }, { "eth0-tx-3", 2 }, { "enp3s0-rx-12", 1 },
		{ "eth0-TxRx-0", 3 }, { "mlx5_comp0@pci:0000:03:00.0", 0 },
		{ "eth0", 0 }, { "iwlwifi", 0 }, { "eth0-rxtx-1", 3 },
		{ "eth0-RX-1", 1 }, { "prefix-rx-1, eth1-tx-1", 3 },
		{ "eth0-misc", 0 },
	};
	struct gb_irq_line l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&l, 0, sizeof(l));
		snprintf(l.actions, sizeof(l.actions), "%s", cases[i].actions);
		if (bidir_line_dir(&l) != cases[i].dir)
			fail_msg("%s: %d, not %d", cases[i].actions,
			    bidir_line_dir(&l), cases[i].dir);
	}
}

static void
test_split_per_queue(void **state)
{
	struct gb_iface_figures f;
	struct bidir_irq b;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.has_counters = 1;
	f.rx_packets = 200000;
	f.tx_packets = 100000;
	line(&f, "eth0-rx-0", 20000);
	line(&f, "eth0-rx-1", 10000);
	line(&f, "eth0-tx-0", 1500);
	bidir_irq_split(&f, &b);
	assert_true(b.has && b.has_rx && b.has_tx);
	assert_int_equal(b.rx_irqs, 30000);
	assert_int_equal(b.tx_irqs, 1500);
	assert_float_equal(b.rx_per_packet, 0.15, 1e-12);
	assert_float_equal(b.tx_per_packet, 0.015, 1e-12);
	assert_string_equal(b.note, "");
	/* No tx packets: the tx figure is unknown, not 0 or infinite. */
	f.tx_packets = 0;
	bidir_irq_split(&f, &b);
	assert_true(b.has && b.has_rx && !b.has_tx);
}

static void
test_split_refused(void **state)
{
	struct gb_iface_figures f;
	struct bidir_irq b;

	(void)state;
	memset(&f, 0, sizeof(f));
	bidir_irq_split(&f, &b);
	assert_false(b.has);
	assert_string_equal(b.note, "no interrupt lines");
	f.has_counters = 1;
	f.rx_packets = f.tx_packets = 1000;
	line(&f, "eth0-rx-0", 10);
	line(&f, "eth0-TxRx-1", 10);
	bidir_irq_split(&f, &b);
	assert_false(b.has);
	assert_string_equal(b.note,
	    "eth0-TxRx-1 serves both directions: not split");
}

/*
 * An igb-style host: per-queue rx and tx lines and a link vector named
 * after the interface alone.  A link vector of 1 % of the interrupts or
 * less is left out, and the note says so; more, and nothing is split.
 */
static void
test_split_link_vector(void **state)
{
	struct gb_iface_figures f;
	struct bidir_irq b;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.has_counters = 1;
	f.rx_packets = f.tx_packets = 100000;
	line(&f, "eth0-rx-0", 6000);
	line(&f, "eth0-tx-0", 3900);
	line(&f, "eth0", 100);		/* 1.0 % of 10000 */
	bidir_irq_split(&f, &b);
	assert_true(b.has && b.has_rx && b.has_tx);
	assert_int_equal(b.rx_irqs, 6000);
	assert_int_equal(b.tx_irqs, 3900);
	assert_string_equal(b.note,
	    "eth0 (100 irqs) left out: neither rx nor tx");
	line(&f, "eth0-misc", 1);	/* two such lines: 101, over 1 % */
	bidir_irq_split(&f, &b);
	assert_false(b.has);
	assert_int_equal(b.rx_irqs + b.tx_irqs, 0);
	assert_string_equal(b.note, "eth0 names no direction (101 of 10001 "
	    "irqs): not split");
	f.nlines = 1;			/* a TxRx line, however few: no split */
	f.interrupts = 6000;
	line(&f, "eth0-TxRx-2", 1);
	bidir_irq_split(&f, &b);
	assert_false(b.has);
	assert_string_equal(b.note,
	    "eth0-TxRx-2 serves both directions: not split");
	f.nlines = 0;			/* a lone link vector: no split */
	f.interrupts = 0;
	line(&f, "eth0", 5);
	bidir_irq_split(&f, &b);
	assert_false(b.has);
}

/* A side of a host with interrupts, data segments and a CPU figure. */
static void
side(struct gb_side *s, uint64_t irqs, uint64_t rx, uint64_t tx,
    double busy)
{
	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->host_cpu.has = 1;
	s->host_cpu.busy_pct = busy;
	s->cpu.process_pct = busy / 2;
	s->tcp.has = 1;
	s->iface.has_counters = 1;
	s->iface.has_interrupts = 1;
	s->iface.interrupts = irqs;
	s->iface.rx_packets = rx;
	s->iface.tx_packets = tx;
	/* What xfer_measure.c gave one direction: tx packets only. */
	s->iface.has_irq_per_packet = 1;
	s->iface.irq_per_packet = (double)irqs / (double)tx;
	snprintf(s->context.hostname, sizeof(s->context.hostname), "h%.0f",
	    busy);
	/* One CPU of the host's spread, as busy as the host. */
	s->spread.has = busy > 0;
	s->spread.ncpus = s->spread.ncpu = busy > 0;
	s->spread.cpu[0].busy_pct = busy;
}

static void
test_host(void **state)
{
	struct gb_result *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	r->params.bidir = 1;
	side(&r->sender, 3000, 10000, 20000, 40);
	side(&r->receiver, 600, 20000, 10000, 70);
	side(&r->rsender, 0, 0, 0, 0);
	side(&r->rreceiver, 0, 0, 0, 0);
	r->sender.tcp.data_segs_out = 19000;
	r->rreceiver.tcp.data_segs_in = 9000;
	bidir_host(r);
	/* Over both directions' packets: 3000 / 30000, 600 / 30000. */
	assert_float_equal(r->sender.iface.irq_per_packet, 0.1, 1e-12);
	assert_float_equal(r->receiver.iface.irq_per_packet, 0.02, 1e-12);
	assert_true(r->sender.iface.has_irq_per_segment);
	assert_float_equal(r->sender.iface.irq_per_segment, 3000.0 / 28000,
	    1e-12);
	/* The forward sender's host is the reverse receiver's. */
	assert_float_equal(r->rreceiver.host_cpu.busy_pct, 40, 0);
	assert_float_equal(r->rsender.host_cpu.busy_pct, 70, 0);
	assert_float_equal(r->rreceiver.cpu.process_pct, 20, 0);
	assert_string_equal(r->rsender.context.hostname, "h70");
	assert_memory_equal(&r->rsender.spread, &r->receiver.spread,
	    sizeof(r->receiver.spread));
	assert_float_equal(r->rreceiver.spread.cpu[0].busy_pct, 40, 0);
	assert_memory_equal(&r->rreceiver.iface, &r->sender.iface,
	    sizeof(r->sender.iface));
	/* Twice is once. */
	bidir_host(r);
	assert_float_equal(r->sender.iface.irq_per_packet, 0.1, 1e-12);
	free(r);
}

static void
test_not_bidir(void **state)
{
	struct gb_result *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	side(&r->sender, 3000, 10000, 20000, 40);
	bidir_host(r);
	assert_float_equal(r->sender.iface.irq_per_packet, 0.15, 1e-12);
	assert_false(r->rreceiver.has);
	free(r);
}

static void
test_reverse_view(void **state)
{
	struct gb_result *r = calloc(1, sizeof(*r)), *v;

	(void)state;
	assert_non_null(r);
	r->params.bidir = 1;
	r->params.direction = GB_DIR_CLIENT_SENDS;
	r->local_is_sender = 1;
	r->nintervals = 3;
	snprintf(r->peer, sizeof(r->peer), "198.18.0.2");
	side(&r->rsender, 1, 2, 3, 11);
	side(&r->rreceiver, 1, 2, 3, 22);
	r->rsender.bytes = r->rreceiver.bytes = 12345;
	v = bidir_reverse_new(r);
	assert_non_null(v);
	assert_int_equal(v->params.direction, GB_DIR_CLIENT_RECEIVES);
	assert_int_equal(v->local_is_sender, 0);
	assert_int_equal(v->nintervals, 0);
	assert_string_equal(v->peer, "198.18.0.2");
	assert_float_equal(v->sender.host_cpu.busy_pct, 11, 0);
	assert_float_equal(v->receiver.host_cpu.busy_pct, 22, 0);
	assert_int_equal(v->receiver.bytes, 12345);
	free(v);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_dir),
		cmocka_unit_test(test_split_per_queue),
		cmocka_unit_test(test_split_refused),
		cmocka_unit_test(test_split_link_vector),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_not_bidir),
		cmocka_unit_test(test_reverse_view),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
