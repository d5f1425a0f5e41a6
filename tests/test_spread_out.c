/*
 * test_spread_out.c: the spread on its way out: the side codec's
 * "spread" member (src/side_spread.c) through JSON text and back, and
 * broken one member at a time, each refusal naming the member; and the
 * -v text line (src/spread_text.c), whole.  The sides come from the
 * host-pile fixture (hoststat.c) and by hand.  Run from the top
 * directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "codec/side.h"
#include "host/hoststat.h"
#include "out/report.h"
#include "out/spread_text.h"

#define FIX	"tests/fixtures/"

static struct gb_side *
pile_side(void)
{
	struct hoststat_roots	 rb = { FIX "host-pile-before/proc",
				    FIX "host-pile-before/sys" };
	struct hoststat_roots	 ra = { FIX "host-pile-after/proc",
				    FIX "host-pile-after/sys" };
	struct hoststat		*b, *a;
	struct gb_side		*s;
	char			 err[GB_ERR_LEN];

	assert_non_null(s = calloc(1, sizeof(*s)));
	assert_non_null(b = hoststat_take(&rb, "eth0", err, sizeof(err)));
	assert_non_null(a = hoststat_take(&ra, "eth0", err, sizeof(err)));
	s->has = 1;
	s->seconds = 10.0;
	s->tos = -1;
	hoststat_diff(b, a, 0, &s->host_cpu, &s->iface, &s->cpu, NULL);
	hoststat_spread(b, a, &s->spread);
	hoststat_free(b);
	hoststat_free(a);
	return s;
}

/* side_json, as text, and back: 0, or -1 with the decoder's message. */
static int
through(const struct gb_side *in, struct gb_side *out, char *err)
{
	char *text;
	json_t *j;
	int rc;

	assert_non_null(j = side_json(in));
	assert_non_null(text = json_dumps(j, JSON_COMPACT));
	json_decref(j);
	assert_non_null(j = json_loads(text, 0, NULL));
	free(text);
	rc = side_from_json(j, out, err, GB_ERR_LEN);
	json_decref(j);
	return rc;
}

static void
test_roundtrip(void **state)
{
	struct gb_side *s, *back;
	char err[GB_ERR_LEN] = "";
	unsigned i;

	(void)state;
	s = pile_side();
	assert_non_null(back = calloc(1, sizeof(*back)));
	if (through(s, back, err) != 0)
		fail_msg("refused: %s", err);
	assert_memory_equal(&s->spread, &back->spread, sizeof(s->spread));
	assert_int_equal(back->iface.nlines, 9);
	for (i = 0; i < back->iface.nlines; i++) {
		assert_int_equal(back->iface.lines[i].has_share, 1);
		assert_true(back->iface.lines[i].share_pct ==
		    s->iface.lines[i].share_pct);
		assert_int_equal(back->iface.lines[i].top_cpu,
		    s->iface.lines[i].top_cpu);
	}
	/* Unknowns stay unknown: queues, softirq columns, shares, CPUs. */
	s->spread.has_queues = 0;
	s->spread.rx_queues = s->spread.tx_queues = 0;
	s->spread.cpu[5].has_softirqs = 0;
	s->spread.cpu[5].net_rx = s->spread.cpu[5].net_tx = 0;
	for (i = 0; i < s->iface.nlines; i++) {
		s->iface.lines[i].has_share = 0;
		s->iface.lines[i].share_pct = 0;
	}
	s->iface.lines[2].top_cpu = -1;
	if (through(s, back, err) != 0)
		fail_msg("refused: %s", err);
	assert_memory_equal(&s->spread, &back->spread, sizeof(s->spread));
	assert_int_equal(back->iface.lines[2].has_share, 0);
	assert_int_equal(back->iface.lines[2].top_cpu, -1);
	/* No spread: a null, and no line has a share or a CPU. */
	s->spread.has = 0;
	s->iface.lines[3].has_share = 1;
	if (through(s, back, err) != 0)
		fail_msg("refused: %s", err);
	assert_int_equal(back->spread.has, 0);
	assert_int_equal(back->iface.lines[3].has_share, 0);
	assert_int_equal(back->iface.lines[3].top_cpu, -1);
	free(back);
	free(s);
}

/* The encoder's own document of the pile side, with one change. */
static json_t *
pile_json(void)
{
	struct gb_side *s = pile_side();
	json_t *j;

	assert_non_null(j = side_json(s));
	free(s);
	return j;
}

static json_t *
spread_of(json_t *j)
{
	json_t *o = json_object_get(j, "spread");

	assert_true(json_is_object(o));
	return o;
}

static void
expect_refused(json_t *j, const char *want)
{
	struct gb_side *s;
	char err[GB_ERR_LEN] = "";

	assert_non_null(s = calloc(1, sizeof(*s)));
	if (side_from_json(j, s, err, sizeof(err)) != -1)
		fail_msg("taken, expected \"%s\"", want);
	if (strcmp(err, want) != 0)
		fail_msg("\"%s\", expected \"%s\"", err, want);
	assert_int_equal(s->has, 0);
	json_decref(j);
	free(s);
}

/* per_cpu[i] of the pile document. */
static json_t *
cpu_of(json_t *j, size_t i)
{
	return json_array_get(json_object_get(spread_of(j), "per_cpu"), i);
}

static json_t *
line_of(json_t *j, size_t i)
{
	return json_array_get(json_object_get(spread_of(j), "lines"), i);
}

static void
test_refused(void **state)
{
	json_t *j, *a;
	size_t i;

	(void)state;
	j = pile_json();
	json_object_set_new(j, "spread", json_integer(1));
	expect_refused(j, "spread is not an object");
	j = pile_json();
	json_object_del(spread_of(j), "ncpus");
	expect_refused(j, "spread.ncpus is missing");
	j = pile_json();
	json_object_set_new(spread_of(j), "ncpus", json_integer(8193));
	expect_refused(j, "spread.ncpus is out of range (max 8192): 8193");
	j = pile_json();
	json_object_set_new(spread_of(j), "ncpus", json_integer(7));
	expect_refused(j, "spread.per_cpu has more entries than ncpus: 8");
	j = pile_json();
	json_object_set_new(spread_of(j), "per_cpu", json_object());
	expect_refused(j, "spread.per_cpu is not an array");
	j = pile_json();
	json_object_set_new(spread_of(j), "ncpus", json_integer(100));
	a = json_object_get(spread_of(j), "per_cpu");
	for (i = 8; i <= GB_SPREAD_MAX_CPUS; i++)
		json_array_append(a, json_array_get(a, 0));
	expect_refused(j, "spread.per_cpu has over 64 entries");
	j = pile_json();
	json_array_set_new(json_object_get(spread_of(j), "per_cpu"), 2,
	    json_null());
	expect_refused(j, "spread.per_cpu[2] is not an object");
	j = pile_json();
	json_object_set_new(cpu_of(j, 2), "cpu", json_integer(1));
	expect_refused(j, "spread.per_cpu[2].cpu is not above the CPU before "
	    "it: 1");
	j = pile_json();
	json_object_set_new(cpu_of(j, 7), "cpu", json_integer(8192));
	expect_refused(j, "spread.per_cpu[7].cpu is out of range (max 8191): "
	    "8192");
	j = pile_json();
	json_object_set_new(cpu_of(j, 3), "busy_pct", json_real(100.5));
	expect_refused(j, "spread.per_cpu[3].busy_pct is over 100: 100.5");
	j = pile_json();
	json_object_set_new(cpu_of(j, 3), "irq_pct", json_string("0"));
	expect_refused(j, "spread.per_cpu[3].irq_pct is not a number");
	j = pile_json();
	json_object_set_new(cpu_of(j, 3), "softirq_pct", json_real(-1));
	expect_refused(j, "spread.per_cpu[3].softirq_pct is negative: -1");
	j = pile_json();
	json_object_set_new(cpu_of(j, 3), "softirq_pct", json_real(99.0));
	expect_refused(j, "spread.per_cpu[3].softirq_pct and irq_pct are "
	    "more than busy_pct");
	j = pile_json();
	json_object_set_new(cpu_of(j, 0), "net_tx", json_null());
	expect_refused(j, "spread.per_cpu[0].net_tx is null, unlike "
	    "spread.per_cpu[0].net_rx");
	j = pile_json();
	json_object_set_new(cpu_of(j, 0), "net_rx", json_integer(-5));
	expect_refused(j, "spread.per_cpu[0].net_rx is negative: -5");
	j = pile_json();
	json_object_set_new(spread_of(j), "rx_queues", json_null());
	expect_refused(j, "spread.tx_queues is not null, unlike "
	    "spread.rx_queues");
	j = pile_json();
	json_object_set_new(spread_of(j), "tx_queues", json_integer(65537));
	expect_refused(j, "spread.tx_queues is out of range (max 65536): "
	    "65537");
	j = pile_json();
	json_array_remove(json_object_get(spread_of(j), "lines"), 8);
	expect_refused(j, "spread.lines has 8 entries, interface.lines 9");
	j = pile_json();
	json_object_set_new(line_of(j, 4), "name", json_string("135"));
	expect_refused(j, "spread.lines[4].name is not the interface line's: "
	    "\"135\"");
	j = pile_json();
	json_object_set_new(line_of(j, 4), "share_pct", json_null());
	expect_refused(j, "spread.lines[4].share_pct is null, unlike "
	    "spread.lines[0].share_pct");
	j = pile_json();
	json_object_set_new(line_of(j, 0), "share_pct", json_null());
	expect_refused(j, "spread.lines[1].share_pct is not null, unlike "
	    "spread.lines[0].share_pct");
	j = pile_json();
	json_object_set_new(line_of(j, 4), "share_pct", json_real(101));
	expect_refused(j, "spread.lines[4].share_pct is over 100: 101");
	j = pile_json();
	json_object_set_new(line_of(j, 1), "share_pct", json_real(50));
	expect_refused(j, "spread.lines have shares over 100 together: "
	    "148.857");
	j = pile_json();
	json_object_set_new(line_of(j, 1), "top_cpu", json_integer(-1));
	expect_refused(j, "spread.lines[1].top_cpu is negative: -1");
}

/* A side from before the spread: taken, without one. */
static void
test_absent(void **state)
{
	struct gb_side *s;
	char err[GB_ERR_LEN];
	json_t *j;

	(void)state;
	j = pile_json();
	json_object_del(j, "spread");
	assert_non_null(s = calloc(1, sizeof(*s)));
	assert_int_equal(side_from_json(j, s, err, sizeof(err)), 0);
	assert_int_equal(s->spread.has, 0);
	assert_int_equal(s->iface.nlines, 9);
	assert_int_equal(s->iface.lines[4].has_share, 0);
	assert_int_equal(s->iface.lines[4].top_cpu, -1);
	json_decref(j);
	free(s);
}

static char *
render(const struct gb_side *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	spread_text(fp, s, report_side_prefix(0));
	fclose(fp);
	return buf;
}

static void
test_text(void **state)
{
	struct gb_side *s;
	char *t;

	(void)state;
	s = pile_side();
	t = render(s);
	assert_string_equal(t, "gigebench-r: spread "
	    "cpu0 9% (sirq 3%, NET_RX 6000, NET_TX 25) "
	    "cpu1 9% (sirq 3%, NET_RX 6000, NET_TX 25) "
	    "cpu2 9% (sirq 3%, NET_RX 6000, NET_TX 25) "
	    "cpu3 98% (sirq 71%, NET_RX 455000, NET_TX 25) "
	    "cpu4 9% (sirq 3%, NET_RX 6000, NET_TX 25) "
	    "cpu5 9% (sirq 3%, NET_RX 6000, NET_TX 25) "
	    "cpu6 9% (sirq 3%, NET_RX 6000, NET_TX 25) "
	    "cpu7 9% (sirq 3%, NET_RX 6000, NET_TX 25); "
	    "queues rx 8 tx 8; lines eth0 0% cpu0, eth0-TxRx-0 1% cpu0, "
	    "eth0-TxRx-1 1% cpu1, eth0-TxRx-2 1% cpu2, eth0-TxRx-3 92% cpu3, "
	    "eth0-TxRx-4 1% cpu4, eth0-TxRx-5 1% cpu5, eth0-TxRx-6 1% cpu6, "
	    "eth0-TxRx-7 1% cpu7\n");
	free(t);

	/* By hand: CPUs left out, an idle one, no queues, lines unknown. */
	memset(s, 0, sizeof(*s));
	s->has = s->spread.has = 1;
	s->spread.ncpus = 96;
	s->spread.ncpu = 2;
	s->spread.cpu[0].cpu = 4;
	s->spread.cpu[0].busy_pct = 0.4;
	s->spread.cpu[1].cpu = 70;
	s->spread.cpu[1].busy_pct = 97.0;
	s->spread.cpu[1].irq_pct = 2.0;
	s->spread.cpu[1].softirq_pct = 60.0;
	s->spread.cpu[1].has_softirqs = 1;
	s->spread.cpu[1].net_rx = 80211;
	strcpy(s->iface.name, "eth3");
	s->iface.nlines = 2;
	strcpy(s->iface.lines[0].name, "16");
	strcpy(s->iface.lines[0].actions, "uhci_hcd:usb3, eth3");
	s->iface.lines[0].top_cpu = -1;
	strcpy(s->iface.lines[1].name, "150");
	strcpy(s->iface.lines[1].actions, "mlx5_comp0@pci:0000:3b:00.0");
	s->iface.lines[1].top_cpu = 70;
	t = render(s);
	assert_string_equal(t, "gigebench-r: spread cpu4 0% cpu70 97% (irq "
	    "2%, sirq 60%, NET_RX 80211) (+94 less busy CPUs left out); "
	    "lines eth3 n/a, mlx5_comp0 n/a cpu70\n");
	free(t);
	strcpy(s->iface.lines[0].actions, "");
	s->spread.ncpus = s->spread.ncpu = 0;
	s->iface.nlines = 1;
	t = render(s);
	assert_string_equal(t, "gigebench-r: spread cpus n/a; lines IRQ 16 "
	    "n/a\n");
	free(t);
	/* No spread, no line. */
	s->spread.has = 0;
	t = render(s);
	assert_string_equal(t, "");
	free(t);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
