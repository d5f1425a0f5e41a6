/*
 * test_irqstat.c: /proc/interrupts layouts from 2001 to today, the choice
 * of an interface's lines, their deltas, and /proc/softirqs.  Fixtures are
 * in tests/fixtures/ (run from the top directory); odd input goes through
 * fmemopen().
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

#define FIX	"tests/fixtures/"

static const unsigned mq_eth0_msi[] = { 130, 131, 132, 133, 134 };
static const unsigned mq_mlx5_msi[] = { 150, 151, 152 };

static FILE *
mem(const char *s)
{
	FILE	*fp;

	fp = *s == '\0' ? fopen("/dev/null", "re") :
	    fmemopen((void *)(uintptr_t)s, strlen(s), "r");
	assert_non_null(fp);
	return fp;
}

static int
parse_str(const char *s, struct irqstat *is)
{
	char	err[256];
	FILE	*fp = mem(s);
	int	r;

	r = irqstat_parse(fp, is, err, sizeof(err));
	fclose(fp);
	return r;
}

static void
parse_file(const char *path, struct irqstat *is)
{
	char	err[256];
	FILE	*fp;

	assert_non_null(fp = fopen(path, "re"));
	irqstat_init(is);
	assert_int_equal(irqstat_parse(fp, is, err, sizeof(err)), 0);
	assert_int_equal(is->has, 1);
	fclose(fp);
}

static const struct irqstat_line *
find(const struct irqstat *is, const char *name)
{
	size_t	i;

	for (i = 0; i < is->nlines; i++)
		if (strcmp(is->lines[i].name, name) == 0)
			return &is->lines[i];
	fail_msg("no line %s", name);
	return NULL;
}

/*
 * Interrupts of ifname between two fixture files, and its line names.
 * Returns the number of lines.
 */
static size_t
delta(const char *before, const char *after, const char *ifname,
    const unsigned *msi, size_t nmsi, uint64_t *d, char *names, size_t len)
{
	struct irqstat	b, a;
	size_t		n;

	parse_file(before, &b);
	parse_file(after, &a);
	irqline_select(&b, ifname, msi, nmsi);
	irqline_select(&a, ifname, msi, nmsi);
	*d = irqline_diff(&b, &a);
	irqline_names(&a, names, len);
	n = a.nlines;
	irqstat_free(&b);
	irqstat_free(&a);
	return n;
}

/* 2001 PowerMac, one CPU: "41:     476734   OpenPIC   Level     eth0". */
static void
test_layout_ppc2001(void **state)
{
	struct irqstat			 is;
	const struct irqstat_line	*l;

	(void)state;
	parse_file(FIX "host-gmac-after/proc/interrupts", &is);
	assert_int_equal(is.ncpus, 1);
	assert_int_equal(is.nlines, 11);
	l = find(&is, "41");
	assert_true(l->total == 476734);
	assert_int_equal(l->ncounts, 1);
	assert_string_equal(l->chip, "OpenPIC   Level");
	assert_string_equal(l->actions, "eth0");
	assert_string_equal(find(&is, "19")->actions, "Built-in Sound out");
	assert_string_equal(find(&is, "47")->actions, "keywest i2c");
	l = find(&is, "BAD");
	assert_string_equal(l->actions, "");
	assert_string_equal(l->chip, "");
	irqstat_free(&is);
}

/* The seed's GMAC transmitter: 191 -> 476734 on line 41. */
static void
test_seed_gmac(void **state)
{
	uint64_t	d;
	char		names[128];

	(void)state;
	assert_int_equal(delta(FIX "host-gmac-before/proc/interrupts",
	    FIX "host-gmac-after/proc/interrupts", "eth0", NULL, 0, &d,
	    names, sizeof(names)), 1);
	assert_true(d == 476543);
	assert_string_equal(names, "41");
}

/* And its receiver, 264 -> 1157318, through fmemopen(). */
static void
test_seed_gmac_receiver(void **state)
{
	struct irqstat	b, a;

	(void)state;
	irqstat_init(&b);
	irqstat_init(&a);
	assert_int_equal(parse_str("           CPU0       \n"
	    " 41:        264   OpenPIC   Level     eth0\n", &b), 0);
	assert_int_equal(parse_str("           CPU0       \n"
	    " 41:    1157318   OpenPIC   Level     eth0\n", &a), 0);
	irqline_select(&b, "eth0", NULL, 0);
	irqline_select(&a, "eth0", NULL, 0);
	assert_true(irqline_diff(&b, &a) == 1157054);
	irqstat_free(&b);
	irqstat_free(&a);
}

/* 2008: IO-APIC-fasteoi shared line and a four-digit PCI-MSI-edge irq. */
static void
test_layout_2008(void **state)
{
	struct irqstat			 is;
	const struct irqstat_line	*l;

	(void)state;
	parse_file(FIX "proc-interrupts-2008-before", &is);
	assert_int_equal(is.ncpus, 2);
	l = find(&is, "16");
	assert_true(l->total == 12345 + 67890);
	assert_string_equal(l->chip, "IO-APIC-fasteoi");
	assert_string_equal(l->actions, "uhci_hcd:usb3, eth3");
	l = find(&is, "1274");
	assert_true(l->total == 1234 + 5678);
	assert_string_equal(l->chip, "PCI-MSI-edge");
	assert_string_equal(l->actions, "eth0");
	assert_string_equal(find(&is, "NMI")->actions,
	    "Non-maskable interrupts");
	l = find(&is, "ERR");
	assert_int_equal(l->ncounts, 1);
	assert_true(l->total == 0);
	irqstat_free(&is);
}

/*
 * The header names online CPUs only: column j is CPU cpu_ids[j].  Every
 * line keeps its per-CPU counts, fewer when the line has fewer columns.
 */
static void
test_cpu_columns(void **state)
{
	struct irqstat			 is;
	const struct irqstat_line	*l;

	(void)state;
	irqstat_init(&is);
	assert_int_equal(parse_str("       CPU0       CPU2       CPU5\n"
	    " 41:  7  8  9  X  eth0\n"
	    "ERR:  3\n", &is), 0);
	assert_int_equal(is.ncpus, 3);
	assert_int_equal(is.cpu_ids[0], 0);
	assert_int_equal(is.cpu_ids[1], 2);
	assert_int_equal(is.cpu_ids[2], 5);
	l = find(&is, "41");
	assert_int_equal(l->ncounts, 3);
	assert_true(is.counts[l->first] == 7);
	assert_true(is.counts[l->first + 2] == 9);
	l = find(&is, "ERR");
	assert_int_equal(l->ncounts, 1);
	assert_true(is.counts[l->first] == 3);
	assert_true(is.counts_len == 4);
	/* a CPU number no kernel prints: not a header */
	assert_int_equal(parse_str("  CPU0  CPU99999999999\n"
	    " 41: 1 2 X eth0\n", &is), -1);
	assert_int_equal(is.ncpus, 0);
	assert_true(is.counts_len == 0);
	/* and the struct is reusable after a failure */
	assert_int_equal(parse_str("  CPU3\n 41: 1 X eth0\n", &is), 0);
	assert_int_equal(is.cpu_ids[0], 3);
	irqstat_free(&is);
}

/*
 * 2.4 sparc prints no chip column, and a line may have fewer counts than
 * the header has CPUs: the action is still the text after two blanks.
 */
static void
test_layout_no_chip(void **state)
{
	struct irqstat			 is;
	const struct irqstat_line	*l;

	(void)state;
	irqstat_init(&is);
	assert_int_equal(parse_str("           CPU0       CPU1\n"
	    "  5:      12345   eth0\n"
	    "  6:          1          2   esp, eth1\n", &is), 0);
	l = find(&is, "5");
	assert_int_equal(l->ncounts, 1);
	assert_string_equal(l->chip, "");
	assert_string_equal(l->actions, "eth0");
	assert_true(irqline_matches(l, "eth0", NULL, 0));
	l = find(&is, "6");
	assert_string_equal(l->actions, "esp, eth1");
	assert_true(irqline_matches(l, "eth1", NULL, 0));
	irqstat_free(&is);
}

/* eth3 shares legacy line 16 with a USB controller: its count is taken. */
static void
test_shared_legacy(void **state)
{
	uint64_t	d;
	char		names[128];

	(void)state;
	assert_int_equal(delta(FIX "proc-interrupts-2008-before",
	    FIX "proc-interrupts-2008-after", "eth3", NULL, 0, &d, names,
	    sizeof(names)), 1);
	assert_true(d == 300000);
	assert_string_equal(names, "16");
	assert_int_equal(delta(FIX "proc-interrupts-2008-before",
	    FIX "proc-interrupts-2008-after", "eth0", NULL, 0, &d, names,
	    sizeof(names)), 1);
	assert_true(d == 11000);
	assert_string_equal(names, "1274");
	assert_int_equal(delta(FIX "proc-interrupts-2008-before",
	    FIX "proc-interrupts-2008-after", "eth1", NULL, 0, &d, names,
	    sizeof(names)), 1);
	assert_true(d == 77);
}

/*
 * Modern, 4 CPUs, 4 queues: TxRx-0..3 deltas 50110 + 60025 + 70003 +
 * 80006 = 260144, the link vector "eth0" none, eth1 not counted.
 */
static void
test_multiqueue(void **state)
{
	uint64_t	d;
	char		names[128];

	(void)state;
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "eth0", mq_eth0_msi, 5, &d,
	    names, sizeof(names)), 5);
	assert_true(d == 260144);
	assert_string_equal(names, "130,131,132,133,134");
	/* the same lines by name alone */
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "eth0", NULL, 0, &d,
	    names, sizeof(names)), 5);
	assert_true(d == 260144);
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "eth1", NULL, 0, &d,
	    names, sizeof(names)), 2);
	assert_true(d == 999);
	assert_string_equal(names, "135,136");
}

/* mlx5 names its vectors after the PCI device: only msi_irqs finds them. */
static void
test_msi_only(void **state)
{
	uint64_t	d;
	char		names[128];

	(void)state;
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "enp59s0", mq_mlx5_msi, 3,
	    &d, names, sizeof(names)), 3);
	assert_true(d == 9000);
	assert_string_equal(names, "150,151,152");
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "enp59s0", NULL, 0, &d,
	    names, sizeof(names)), 0);
	assert_true(d == 0);
	assert_string_equal(names, "");
}

/* Loopback and veth have no lines at all. */
static void
test_no_lines(void **state)
{
	uint64_t	d;
	char		names[128];

	(void)state;
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "lo", NULL, 0, &d, names,
	    sizeof(names)), 0);
	assert_int_equal(delta(FIX "host-mq-before/proc/interrupts",
	    FIX "host-mq-after/proc/interrupts", "veth0", NULL, 0, &d, names,
	    sizeof(names)), 0);
	assert_true(d == 0);
}

static int
matches(const char *actions, const char *ifname)
{
	struct irqstat_line	l;

	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "41");
	snprintf(l.actions, sizeof(l.actions), "%s", actions);
	return irqline_matches(&l, ifname, NULL, 0);
}

static void
test_action_names(void **state)
{
	static const unsigned	msi[] = { 7, 41, 99 };
	struct irqstat_line	l;

	(void)state;
	assert_true(matches("eth0", "eth0"));
	assert_true(matches("eth0-TxRx-3", "eth0"));
	assert_true(matches("eth0-rx-0", "eth0"));
	assert_true(matches("eth0:lsc", "eth0"));
	assert_true(matches("eth0@pci:0000:01:00.0", "eth0"));
	assert_true(matches("uhci_hcd:usb3, eth0", "eth0"));
	assert_true(matches("eth0, uhci_hcd:usb3", "eth0"));
	assert_true(matches("a,eth0", "eth0"));
	assert_false(matches("eth01", "eth0"));
	assert_false(matches("veth0", "eth0"));
	assert_false(matches("eth", "eth0"));
	assert_false(matches("eth0_x", "eth0"));
	assert_false(matches("i40e-eth0-TxRx-0", "eth0"));
	assert_false(matches("", "eth0"));
	assert_false(matches("eth0", ""));
	assert_false(matches("eth0", NULL));
	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "41");
	assert_true(irqline_matches(&l, NULL, msi, 3));
	snprintf(l.name, sizeof(l.name), "42");
	assert_false(irqline_matches(&l, NULL, msi, 3));
	snprintf(l.name, sizeof(l.name), "NMI");
	assert_false(irqline_matches(&l, NULL, msi, 3));
}

/* A line new in after counts from 0; one that went down counts 0. */
static void
test_diff_rules(void **state)
{
	struct irqstat	b, a;

	(void)state;
	irqstat_init(&b);
	irqstat_init(&a);
	assert_int_equal(parse_str("   CPU0 CPU1\n"
	    " 40:  100  100  X  eth0-rx-0\n"
	    " 41:  500  500  X  eth0-tx-0\n", &b), 0);
	assert_int_equal(parse_str("   CPU0 CPU1\n"
	    " 40:  150  150  X  eth0-rx-0\n"
	    " 41:    1    1  X  eth0-tx-0\n"
	    " 42:    7    0  X  eth0-tx-1\n", &a), 0);
	assert_true(irqline_diff(&b, &a) == 100 + 0 + 7);
	irqstat_free(&b);
	irqstat_free(&a);
}

static void
test_names_truncated(void **state)
{
	struct irqstat	is;
	char		names[128], small[12];
	size_t		i;

	(void)state;
	irqstat_init(&is);
	is.nlines = 40;
	assert_non_null(is.lines = calloc(is.nlines, sizeof(*is.lines)));
	for (i = 0; i < is.nlines; i++)
		snprintf(is.lines[i].name, sizeof(is.lines[i].name), "%zu",
		    1000 + i);
	irqline_names(&is, names, sizeof(names));
	assert_true(strlen(names) < sizeof(names));
	assert_int_equal(strncmp(names, "1000,1001,", 10), 0);
	assert_string_equal(names + strlen(names) - 4, ",...");
	irqline_names(&is, small, sizeof(small));
	assert_string_equal(small, "1000,...");
	is.nlines = 2;
	irqline_names(&is, small, 10);
	assert_string_equal(small, "1000,1001");
	irqline_names(&is, small, 9);
	assert_string_equal(small, "1000,...");
	irqstat_free(&is);
}

static void
test_malformed(void **state)
{
	static const char *const no_header[] = {
		"",
		"\n",
		"garbage\n 41: 1 2 X eth0\n",
		" 41:  1  X  eth0\n",
	};
	static const char *const skipped =
	    "           CPU0       CPU1\n"
	    "garbage\n"
	    " 41\n"
	    " 41:\n"
	    " 41:  X  eth0\n"
	    " 42:  99999999999999999999999  1  X  eth0\n"
	    "  :  1  1  X  eth0\n"
	    "a name that is far too long:  1  1  X  eth0\n"
	    "\x01\x02\xff:\n"
	    " 43:  1  2  3  4  5  X  eth0\n"	/* more counts than CPUs */
	    " 44:  18446744073709551615  1  X  eth0\n"
	    " 45:  7";				/* no newline */
	struct irqstat			 is;
	const struct irqstat_line	*l;
	size_t				 i;

	(void)state;
	irqstat_init(&is);
	for (i = 0; i < sizeof(no_header) / sizeof(no_header[0]); i++) {
		assert_int_equal(parse_str(no_header[i], &is), -1);
		assert_int_equal(is.has, 0);
		assert_int_equal(is.nlines, 0);
	}
	assert_int_equal(parse_str(skipped, &is), 0);
	assert_int_equal(is.nlines, 3);
	l = find(&is, "43");
	assert_true(l->total == 3);
	assert_string_equal(l->chip, "3  4  5  X");
	assert_true(find(&is, "44")->total == UINT64_MAX);	/* saturates */
	assert_true(find(&is, "45")->total == 7);
	irqstat_free(&is);
}

/* A 300 KB line is skipped; a 9000-CPU header is capped at 8192. */
static void
test_huge_lines(void **state)
{
	struct irqstat	 is;
	char		*buf;
	size_t		 len;
	FILE		*fp;
	int		 i;

	(void)state;
	assert_non_null(fp = open_memstream(&buf, &len));
	for (i = 0; i < 9000; i++)
		fprintf(fp, "CPU%-8d", i);
	fprintf(fp, "\n 40:");
	for (i = 0; i < 30000; i++)
		fprintf(fp, " %9d", 1);
	fprintf(fp, "  X  eth0\n 41:");
	for (i = 0; i < 9000; i++)
		fprintf(fp, " %9d", 1);
	fprintf(fp, "  X  eth0\n");
	fclose(fp);
	irqstat_init(&is);
	assert_int_equal(parse_str(buf, &is), 0);
	assert_int_equal(is.ncpus, IRQSTAT_MAX_CPUS);
	assert_int_equal(is.nlines, 1);
	assert_true(is.lines[0].total == IRQSTAT_MAX_CPUS);
	irqstat_free(&is);
	free(buf);
}

static void
test_softirqs(void **state)
{
	struct irqstat_softirq	b, a;
	char			err[256];

	(void)state;
	irqstat_softirq_init(&b);
	irqstat_softirq_init(&a);
	assert_int_equal(irqstat_softirq_read(FIX "host-mq-before/proc", &b,
	    err, sizeof(err)), 0);
	assert_int_equal(irqstat_softirq_read(FIX "host-mq-after/proc", &a,
	    err, sizeof(err)), 0);
	assert_int_equal(a.has, 1);
	assert_true(b.net_rx == 10000);
	assert_true(a.net_rx - b.net_rx == 460000);
	assert_true(a.net_tx - b.net_tx == 26);
	/* 2.4 has no /proc/softirqs */
	assert_int_equal(irqstat_softirq_read(FIX "host-gmac-after/proc", &a,
	    err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(a.has, 0);
	irqstat_softirq_free(&b);
	irqstat_softirq_free(&a);
}

static void
test_softirqs_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		"   CPU0\n NET_RX: 1\n",			/* no NET_TX */
		"   CPU0\n NET_RX: 1\n NET_TX: 99999999999999999999999\n",
		" NET_RX: 1\n NET_TX: 1\n",			/* no header */
	};
	struct irqstat_softirq	si;
	char			err[256];
	size_t			i;
	FILE			*fp;

	(void)state;
	irqstat_softirq_init(&si);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fp = mem(bad[i]);
		assert_int_equal(irqstat_softirq_parse(fp, &si, err,
		    sizeof(err)), -1);
		assert_int_equal(si.has, 0);
		fclose(fp);
	}
	fp = mem("  CPU0 CPU1\nNET_TX: 1 2\nNET_RX: 3 4 5\n");
	assert_int_equal(irqstat_softirq_parse(fp, &si, err, sizeof(err)), 0);
	assert_true(si.net_tx == 3 && si.net_rx == 7);
	fclose(fp);
	irqstat_softirq_free(&si);
}

static void
test_read_real(void **state)
{
	struct irqstat		is;
	struct irqstat_softirq	si;
	char			err[256];

	(void)state;
	irqstat_init(&is);
	assert_int_equal(irqstat_read("/proc", &is, err, sizeof(err)), 0);
	assert_true(is.ncpus >= 1);
	assert_true(is.nlines > 0);
	irqline_select(&is, "lo", NULL, 0);
	assert_int_equal(is.nlines, 0);
	irqstat_free(&is);
	assert_int_equal(irqstat_read(FIX "no-such-root", &is, err,
	    sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(is.has, 0);
	irqstat_free(&is);
	irqstat_softirq_init(&si);
	assert_int_equal(irqstat_softirq_read("/proc", &si, err,
	    sizeof(err)), 0);
	assert_int_equal(si.has, 1);
	irqstat_softirq_free(&si);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_ppc2001),
		cmocka_unit_test(test_seed_gmac),
		cmocka_unit_test(test_seed_gmac_receiver),
		cmocka_unit_test(test_layout_2008),
		cmocka_unit_test(test_cpu_columns),
		cmocka_unit_test(test_layout_no_chip),
		cmocka_unit_test(test_shared_legacy),
		cmocka_unit_test(test_multiqueue),
		cmocka_unit_test(test_msi_only),
		cmocka_unit_test(test_no_lines),
		cmocka_unit_test(test_action_names),
		cmocka_unit_test(test_diff_rules),
		cmocka_unit_test(test_names_truncated),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_huge_lines),
		cmocka_unit_test(test_softirqs),
		cmocka_unit_test(test_softirqs_malformed),
		cmocka_unit_test(test_read_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
