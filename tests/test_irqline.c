/*
 * test_irqline.c: each line of an interface between two samples, as
 * irqline_report() gives it: the CPUs it landed on in range form, the chip
 * with blanks collapsed, the shared flag, the busiest lines first when
 * there are more than a report holds, and CPU columns that come and go.
 * Samples are built with fmemopen(); the fixture layouts end to end are in
 * test_hoststat.c.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/irqline.h"
#include "host/irqstat.h"

static void
parse_str(const char *s, struct irqstat *is)
{
	char	err[256];
	FILE	*fp;

	assert_non_null(fp = fmemopen((void *)(uintptr_t)s, strlen(s), "r"));
	irqstat_init(is);
	assert_int_equal(irqstat_parse(fp, is, err, sizeof(err)), 0);
	fclose(fp);
}

/* Report ifname's lines between two /proc/interrupts texts. */
static int
report(const char *before, const char *after, const char *ifname,
    struct gb_irq_line *lines, unsigned max, uint64_t *total)
{
	struct irqstat	b, a;
	int		n;

	parse_str(before, &b);
	parse_str(after, &a);
	irqline_select(&b, ifname, NULL, 0);
	irqline_select(&a, ifname, NULL, 0);
	memset(lines, 0xa5, sizeof(*lines) * GB_MAX_IRQ_LINES);
	n = irqline_report(&b, &a, ifname, lines, max);
	if (total != NULL)
		*total = irqline_diff(&b, &a);
	irqstat_free(&b);
	irqstat_free(&a);
	return n;
}

static const char *
cpulist(const unsigned *cpus, size_t n, char *buf, size_t len)
{
	memset(buf, 'x', len);
	irqline_cpulist(cpus, n, buf, len);
	return buf;
}

static void
test_cpulist(void **state)
{
	static const unsigned	one[] = { 0 }, pair[] = { 0, 1 };
	static const unsigned	mixed[] = { 0, 2, 3, 5, 7, 8, 9, 4000 };
	unsigned		many[512], i;
	char			buf[GB_CPULIST_LEN], small[8];

	(void)state;
	assert_string_equal(cpulist(NULL, 0, buf, sizeof(buf)), "");
	assert_string_equal(cpulist(one, 1, buf, sizeof(buf)), "0");
	assert_string_equal(cpulist(pair, 2, buf, sizeof(buf)), "0-1");
	assert_string_equal(cpulist(mixed, 8, buf, sizeof(buf)),
	    "0,2-3,5,7-9,4000");
	for (i = 0; i < 512; i++)
		many[i] = i;
	assert_string_equal(cpulist(many, 512, buf, sizeof(buf)), "0-511");
	/* every other CPU: "0,2,4,...", cut to fit with room for ",..." */
	for (i = 0; i < 512; i++)
		many[i] = 2 * i;
	cpulist(many, 512, buf, sizeof(buf));
	assert_true(strlen(buf) < sizeof(buf));
	assert_int_equal(strncmp(buf, "0,2,4,6,", 8), 0);
	assert_string_equal(buf + strlen(buf) - 4, ",...");
	/* exact fits at the edge */
	assert_string_equal(cpulist(mixed, 3, small, 6), "0,2-3");
	assert_string_equal(cpulist(mixed, 3, small, 5), "...");
	assert_string_equal(cpulist(mixed, 4, small, 8), "0,...");
	assert_string_equal(cpulist(mixed + 7, 1, small, 4), "");
	irqline_cpulist(one, 1, small, 0);	/* writes nothing */
}

static int
shared(const char *actions, const char *ifname)
{
	struct irqstat_line	l;

	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "16");
	snprintf(l.actions, sizeof(l.actions), "%s", actions);
	return irqline_shared(&l, ifname);
}

static void
test_shared(void **state)
{
	(void)state;
	assert_true(shared("uhci_hcd:usb3, eth3", "eth3"));
	assert_true(shared("eth3, uhci_hcd:usb3", "eth3"));
	assert_true(shared("esp, eth1", "eth1"));
	assert_true(shared("eth0, eth1", "eth0"));
	assert_true(shared("eth01, eth0", "eth0"));	/* eth01 is another */
	/* selected by msi_irqs, but two handlers: shared all the same */
	assert_true(shared("PCIe PME, aerdrv", "eth0"));
	assert_false(shared("eth3", "eth3"));
	assert_false(shared("eth0-TxRx-0", "eth0"));
	assert_false(shared("eth0-rx-0, eth0-tx-0", "eth0"));
	assert_false(shared("virtio3-input.0", "eth0"));	/* one action */
	assert_false(shared("mlx5_comp0@pci:0000:3b:00.0", "enp59s0"));
	assert_false(shared("", "eth0"));
	assert_false(shared("eth0", NULL));
	assert_true(shared("eth0, eth1", NULL));
	assert_true(shared("eth0, eth1", ""));
}

#define HDR4	"            CPU0       CPU1       CPU2       CPU3\n"

/* Fewer lines than max: every line, in the order of /proc/interrupts. */
static void
test_report_order(void **state)
{
	struct gb_irq_line	l[GB_MAX_IRQ_LINES];
	uint64_t		total;

	(void)state;
	assert_int_equal(report(HDR4
	    " 40:  10  0  0  0  IO-APIC  16-fasteoi   eth0\n"
	    " 41:   0  0  0  0  PCI-MSI\t\t5-edge  eth0-rx-0\n"
	    " 42:   0  0  0  0  X  eth1\n",
	    HDR4
	    " 40:  11  0  5  9  IO-APIC  16-fasteoi   eth0\n"
	    " 41:   0  900  0  0  PCI-MSI\t\t5-edge  eth0-rx-0\n"
	    " 42:   7  0  0  0  X  eth1\n"
	    " 43:   0  0  0  3  X  eth0-tx-0\n", "eth0", l,
	    GB_MAX_IRQ_LINES, &total), 3);
	assert_true(total == 1 + 5 + 9 + 900 + 3);
	assert_string_equal(l[0].name, "40");
	assert_string_equal(l[0].chip, "IO-APIC 16-fasteoi");
	assert_string_equal(l[0].actions, "eth0");
	assert_int_equal(l[0].shared, 0);
	assert_true(l[0].count == 15);
	assert_string_equal(l[0].cpus, "0,2-3");
	assert_string_equal(l[1].name, "41");
	assert_string_equal(l[1].chip, "PCI-MSI 5-edge");	/* tabs too */
	assert_true(l[1].count == 900);
	assert_string_equal(l[1].cpus, "1");
	/* a vector allocated during the test counts from 0 */
	assert_string_equal(l[2].name, "43");
	assert_true(l[2].count == 3);
	assert_string_equal(l[2].cpus, "3");
}

/*
 * 20 queues and room for 16: the 16 busiest, busiest first, equal counts
 * in file order; the total still sums all 20.
 */
static void
test_report_busiest(void **state)
{
	static const unsigned	delta[20] = {
		5, 100, 7, 300, 0, 300, 9, 50, 1, 2,
		400, 3, 300, 8, 6, 4, 1000, 0, 11, 10
	};
	static const char *const want[16] = {
		"116", "110", "103", "105", "112", "101", "107", "118",
		"119", "106", "113", "102", "114", "100", "115", "111"
	};
	struct gb_irq_line	 l[GB_MAX_IRQ_LINES];
	char			*b, *a;
	size_t			 blen, alen;
	FILE			*fb, *fa;
	uint64_t		 total;
	unsigned		 i;

	(void)state;
	assert_non_null(fb = open_memstream(&b, &blen));
	assert_non_null(fa = open_memstream(&a, &alen));
	fprintf(fb, "  CPU0 CPU1\n");
	fprintf(fa, "  CPU0 CPU1\n");
	for (i = 0; i < 20; i++) {
		fprintf(fb, " %u:  1000  0  IR-PCI-MSI  eth0-TxRx-%u\n",
		    100 + i, i);
		fprintf(fa, " %u:  %u  0  IR-PCI-MSI  eth0-TxRx-%u\n",
		    100 + i, 1000 + delta[i], i);
	}
	fclose(fb);
	fclose(fa);
	assert_int_equal(report(b, a, "eth0", l, GB_MAX_IRQ_LINES, &total),
	    16);
	assert_true(total == 2516);
	for (i = 0; i < 16; i++)
		assert_string_equal(l[i].name, want[i]);
	assert_true(l[0].count == 1000);
	assert_true(l[15].count == 3);
	assert_string_equal(l[0].cpus, "0");
	assert_string_equal(l[0].actions, "eth0-TxRx-16");
	/* a smaller max, and one above the array is capped */
	assert_int_equal(report(b, a, "eth0", l, 2, NULL), 2);
	assert_string_equal(l[1].name, "110");
	assert_int_equal(report(b, a, "eth0", l, 1000, NULL), 16);
	assert_int_equal(report(b, a, "eth0", l, 0, NULL), 0);
	assert_int_equal(report(b, a, "eth9", l, 16, NULL), 0);
	free(b);
	free(a);
}

/*
 * CPU1 went offline during the test: its column is gone from after, and
 * the others are matched by number, not position.  Then it comes back,
 * counting from 0.
 */
static void
test_report_hotplug(void **state)
{
	struct gb_irq_line	l[GB_MAX_IRQ_LINES];

	(void)state;
	assert_int_equal(report(HDR4
	    " 40:  10  20  30  40  X  eth0\n",
	    "        CPU0       CPU2       CPU3\n"
	    " 40:  10  30  45  X  eth0\n", "eth0", l, 16, NULL), 1);
	assert_string_equal(l[0].cpus, "3");
	assert_true(l[0].count == 0);	/* 85 < 100: the total went down */
	assert_int_equal(report("        CPU0       CPU2\n"
	    " 40:  10  30  X  eth0\n", HDR4
	    " 40:  10  4  31  0  X  eth0\n", "eth0", l, 16, NULL), 1);
	assert_string_equal(l[0].cpus, "1-2");
	assert_true(l[0].count == 5);
	/* a line with fewer columns than the header */
	assert_int_equal(report(HDR4 " 40:  1  X  eth0\n",
	    HDR4 " 40:  1  2  X  eth0\n", "eth0", l, 16, NULL), 1);
	assert_string_equal(l[0].cpus, "1");
}

/* Long action lists are cut with "..."; a line without a chip has "". */
static void
test_report_text(void **state)
{
	struct gb_irq_line	 l[GB_MAX_IRQ_LINES];
	char			 before[512], after[512], acts[200];

	(void)state;
	snprintf(acts, sizeof(acts), "%s, eth0",
	    "a_very_long_driver_name:with_a_long_suffix, "
	    "another_very_long_driver_name:usb9, yet_another_one");
	snprintf(before, sizeof(before), "  CPU0\n 5:  1  %s\n", acts);
	snprintf(after, sizeof(after), "  CPU0\n 5:  2  %s\n", acts);
	assert_int_equal(report(before, after, "eth0", l, 16, NULL), 1);
	assert_string_equal(l[0].chip, "");
	assert_int_equal(strlen(l[0].actions), sizeof(l[0].actions) - 1);
	assert_string_equal(l[0].actions + strlen(l[0].actions) - 3, "...");
	assert_int_equal(strncmp(l[0].actions, acts, 40), 0);
	assert_int_equal(l[0].shared, 1);
	assert_string_equal(l[0].cpus, "0");
}

/* Selection moves each line's counts with it. */
static void
test_select_keeps_counts(void **state)
{
	struct irqstat	is;

	(void)state;
	parse_str(HDR4
	    "  0:  1  2  3  4  IO-APIC  timer\n"
	    " 40:  5  6  7  8  X  eth0\n"
	    " 41:  9  X  eth1\n"
	    " 42:  10  11  12  13  X  eth0-tx-0\n", &is);
	assert_int_equal(is.ncpus, 4);
	assert_true(is.counts_len == 13);
	irqline_select(&is, "eth0", NULL, 0);
	assert_int_equal(is.nlines, 2);
	assert_true(is.counts_len == 8);
	assert_true(is.counts[is.lines[0].first + 3] == 8);
	assert_true(is.counts[is.lines[1].first] == 10);
	assert_true(is.counts[is.lines[1].first + 3] == 13);
	irqline_select(&is, "eth9", NULL, 0);
	assert_int_equal(is.nlines, 0);
	assert_true(is.counts_len == 0);
	irqstat_free(&is);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_report_order),
		cmocka_unit_test(test_report_busiest),
		cmocka_unit_test(test_report_hotplug),
		cmocka_unit_test(test_report_text),
		cmocka_unit_test(test_select_keeps_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
