/*
 * test_hoststat.c: whole snapshots taken under fixture roots
 * (tests/fixtures/host-*-{before,after}/{proc,sys}, run from the top
 * directory) and under this host's /proc and /sys, and the figures the
 * renderers get from two of them: one entry per interrupt line in the four
 * layouts (2001 OpenPIC, 2008 shared IO-APIC, MSI-X queues, virtio), and
 * the note that says why an interface has none.
 */

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/hoststat.h"

#define FIX	"tests/fixtures/"

#include "assert_near.h"

struct figures {
	struct gb_host_cpu	host;
	struct gb_iface_figures	iface;
	struct gb_proc_cpu	cpu;
	double			wall_s;
};

/* Snapshots under explicit roots, and the figures between them. */
static void
take_roots(const struct hoststat_roots *rb, const struct hoststat_roots *ra,
    const char *ifb, const char *ifa, int data_tx, struct figures *f)
{
	struct hoststat	*b, *a;
	char		 err[GB_ERR_LEN];

	assert_non_null(b = hoststat_take(rb, ifb, err, sizeof(err)));
	assert_non_null(a = hoststat_take(ra, ifa, err, sizeof(err)));
	memset(f, 0xa5, sizeof(*f));	/* everything must be written */
	hoststat_diff(b, a, data_tx, &f->host, &f->iface, &f->cpu,
	    &f->wall_s);
	hoststat_free(b);
	hoststat_free(a);
}

/* Snapshots under two fixture roots, and the figures between them. */
static void
take2(const char *before, const char *after, const char *ifb,
    const char *ifa, int data_tx, struct figures *f)
{
	struct hoststat_roots	 rb, ra;
	char			 pb[256], sb[256], pa[256], sa[256];

	snprintf(pb, sizeof(pb), FIX "%s/proc", before);
	snprintf(sb, sizeof(sb), FIX "%s/sys", before);
	snprintf(pa, sizeof(pa), FIX "%s/proc", after);
	snprintf(sa, sizeof(sa), FIX "%s/sys", after);
	rb.procfs = pb;
	rb.sysfs = sb;
	ra.procfs = pa;
	ra.sysfs = sa;
	take_roots(&rb, &ra, ifb, ifa, data_tx, f);
}

/* One reported line, field by field. */
static void
expect_line(const struct gb_irq_line *l, const char *name, const char *chip,
    const char *actions, int shared, uint64_t count, const char *cpus)
{
	assert_string_equal(l->name, name);
	assert_string_equal(l->chip, chip);
	assert_string_equal(l->actions, actions);
	assert_int_equal(l->shared, shared);
	if (l->count != count) {
		print_error("line %s: count %llu, expected %llu\n", name,
		    (unsigned long long)l->count, (unsigned long long)count);
		fail();
	}
	assert_string_equal(l->cpus, cpus);
}

/* No line to report, and why. */
static void
expect_note(const char *root, const char *ifname, const char *note)
{
	struct figures	f;

	take2(root, root, ifname, ifname, 1, &f);
	assert_int_equal(f.iface.nlines, 0);
	assert_int_equal(f.iface.irq_lines, 0);
	assert_int_equal(f.iface.has_interrupts, 0);
	assert_string_equal(f.iface.irq_note, note);
}

/*
 * The seed thread's GMAC transmitter: 476,543 interrupts for 3,284,421
 * packets sent = 0.1451 irq/pkt, all on CPU0 of a one-CPU PowerMac, on
 * the 2001 line "41:  476734  OpenPIC  Level  eth0"; a 2.4 kernel has no
 * /proc/softirqs.
 */
static void
test_seed_gmac_tx(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-gmac-before", "host-gmac-after", "eth0", "eth0", 1, &f);
	assert_string_equal(f.iface.name, "eth0");
	assert_int_equal(f.iface.has_counters, 1);
	assert_true(f.iface.tx_packets == 3284421);
	assert_true(f.iface.tx_bytes == UINT64_C(3284421) * 1500);
	assert_int_equal(f.iface.irq_lines, 1);
	assert_string_equal(f.iface.irq_list, "41");
	assert_int_equal(f.iface.has_interrupts, 1);
	assert_true(f.iface.interrupts == 476543);
	assert_int_equal(f.iface.has_irq_per_packet, 1);
	assert_near(f.iface.irq_per_packet, 0.1451, 1e-4);
	assert_int_equal(f.iface.nlines, 1);
	expect_line(&f.iface.lines[0], "41", "OpenPIC Level", "eth0", 0,
	    476543, "0");
	assert_string_equal(f.iface.irq_note, "");
	assert_int_equal(f.iface.has_softirq, 0);
	assert_int_equal(f.host.has, 1);
	assert_near(f.host.busy_pct, 63.0, 1e-9);
	assert_true(f.wall_s >= 0.0);
	assert_true(f.cpu.user_s >= 0.0 && f.cpu.sys_s >= 0.0);
	assert_false(isnan(f.cpu.process_pct));
}

/* The same host as the receiving side: per rx packet (the ACKs here). */
static void
test_seed_gmac_rx_side(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-gmac-before", "host-gmac-after", "eth0", "eth0", 0, &f);
	assert_true(f.iface.rx_packets == 1642211);
	assert_near(f.iface.irq_per_packet, 476543.0 / 1642211.0, 1e-12);
	assert_int_equal(f.iface.nlines, 1);
	assert_true(f.iface.lines[0].count == 476543);
}

/*
 * Modern 4-queue receiver: 260,144 interrupts over 5 MSI-X lines for
 * 2,601,440 packets received = 0.1; NET_RX 460,000, NET_TX 26.  Each
 * TxRx vector mostly lands on its own CPU, with a few strays; the link
 * vector "eth0" stays quiet.
 */
static void
test_multiqueue_rx(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-mq-before", "host-mq-after", "eth0", "eth0", 0, &f);
	assert_int_equal(f.iface.irq_lines, 5);
	assert_string_equal(f.iface.irq_list, "130,131,132,133,134");
	assert_true(f.iface.interrupts == 260144);
	assert_true(f.iface.rx_packets == 2601440);
	assert_int_equal(f.iface.has_irq_per_packet, 1);
	assert_near(f.iface.irq_per_packet, 0.1, 1e-12);
	assert_int_equal(f.iface.nlines, 5);
	expect_line(&f.iface.lines[0], "130", "IR-PCI-MSI 524288-edge",
	    "eth0", 0, 0, "");
	expect_line(&f.iface.lines[1], "131", "IR-PCI-MSI 524289-edge",
	    "eth0-TxRx-0", 0, 50110, "0-2");
	expect_line(&f.iface.lines[2], "132", "IR-PCI-MSI 524290-edge",
	    "eth0-TxRx-1", 0, 60025, "0-2");
	expect_line(&f.iface.lines[3], "133", "IR-PCI-MSI 524291-edge",
	    "eth0-TxRx-2", 0, 70003, "2-3");
	expect_line(&f.iface.lines[4], "134", "IR-PCI-MSI 524292-edge",
	    "eth0-TxRx-3", 0, 80006, "0-3");
	assert_string_equal(f.iface.irq_note, "");
	assert_int_equal(f.iface.has_softirq, 1);
	assert_true(f.iface.net_rx_softirqs == 460000);
	assert_true(f.iface.net_tx_softirqs == 26);
	assert_int_equal(f.host.has, 1);
	assert_near(f.host.busy_pct, 44.75, 1e-9);
	assert_int_equal(f.host.max_cpu, 2);
	assert_near(f.host.max_cpu_busy_pct, 90.0, 1e-9);
}

/*
 * igb-style separate vectors, "eth2-rx-0" and "eth2-tx-0", on a sender:
 * 10,001 interrupts for 100,010 packets sent = 0.1.
 */
static void
test_multiqueue_rx_tx_vectors(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-mq-before", "host-mq-after", "eth2", "eth2", 1, &f);
	assert_int_equal(f.iface.irq_lines, 3);
	assert_string_equal(f.iface.irq_list, "137,138,139");
	assert_true(f.iface.interrupts == 10001);
	assert_true(f.iface.tx_packets == 100010);
	assert_near(f.iface.irq_per_packet, 0.1, 1e-12);
	assert_int_equal(f.iface.nlines, 3);
	expect_line(&f.iface.lines[0], "137", "IR-PCI-MSI 1050624-edge",
	    "eth2", 0, 0, "");
	expect_line(&f.iface.lines[1], "138", "IR-PCI-MSI 1050625-edge",
	    "eth2-rx-0", 0, 5001, "1,3");
	expect_line(&f.iface.lines[2], "139", "IR-PCI-MSI 1050626-edge",
	    "eth2-tx-0", 0, 5000, "2-3");
}

/* mlx5-style vector names: found through msi_irqs only. */
static void
test_msi_only(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-mq-before", "host-mq-after", "enp59s0", "enp59s0", 0, &f);
	assert_int_equal(f.iface.irq_lines, 3);
	assert_string_equal(f.iface.irq_list, "150,151,152");
	assert_true(f.iface.interrupts == 9000);
	assert_near(f.iface.irq_per_packet, 0.1, 1e-12);
	assert_int_equal(f.iface.nlines, 3);
	expect_line(&f.iface.lines[1], "151", "IR-PCI-MSI 31457281-edge",
	    "mlx5_comp0@pci:0000:3b:00.0", 0, 4000, "0");
	expect_line(&f.iface.lines[2], "152", "IR-PCI-MSI 31457282-edge",
	    "mlx5_comp1@pci:0000:3b:00.0", 0, 5000, "1");
}

/*
 * A virtio-net guest receiving: the vectors name virtio3, not eth0, and
 * are found through eth0's device (virtio3, modalias "virtio:") and the
 * msi_irqs of the PCI function above it.  input.0 landed on CPU1,
 * output.0 on CPU0; the block device's virtio1 lines are not ours.
 * 370,000 interrupts for 2,000,000 packets received = 0.185.
 */
static void
test_virtio(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-virtio-before", "host-virtio-after", "eth0", "eth0", 0,
	    &f);
	assert_int_equal(f.iface.has_counters, 1);
	assert_int_equal(f.iface.irq_lines, 3);
	assert_string_equal(f.iface.irq_list, "40,41,42");
	assert_true(f.iface.interrupts == 370000);
	assert_true(f.iface.rx_packets == 2000000);
	assert_near(f.iface.irq_per_packet, 0.185, 1e-12);
	assert_int_equal(f.iface.nlines, 3);
	expect_line(&f.iface.lines[0], "40", "PCI-MSIX-0000:00:04.0 0-edge",
	    "virtio3-config", 0, 0, "");
	expect_line(&f.iface.lines[1], "41", "PCI-MSIX-0000:00:04.0 1-edge",
	    "virtio3-input.0", 0, 250000, "1");
	expect_line(&f.iface.lines[2], "42", "PCI-MSIX-0000:00:04.0 2-edge",
	    "virtio3-output.0", 0, 120000, "0");
	assert_string_equal(f.iface.irq_note, "");
}

/*
 * 2008, two CPUs: eth3 shares IO-APIC line 16 with a USB controller, so
 * its 300,000 interrupts (1,500,000 packets sent: 0.2) are an upper
 * bound; eth0 has an MSI vector of its own.
 */
static void
test_legacy_shared(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-legacy-before", "host-legacy-after", "eth3", "eth3", 1,
	    &f);
	assert_int_equal(f.iface.irq_lines, 1);
	assert_true(f.iface.interrupts == 300000);
	assert_near(f.iface.irq_per_packet, 0.2, 1e-12);
	assert_int_equal(f.iface.nlines, 1);
	expect_line(&f.iface.lines[0], "16", "IO-APIC-fasteoi",
	    "uhci_hcd:usb3, eth3", 1, 300000, "0-1");
	take2("host-legacy-before", "host-legacy-after", "eth0", "eth0", 1,
	    &f);
	assert_near(f.iface.irq_per_packet, 0.1, 1e-12);
	assert_int_equal(f.iface.nlines, 1);
	expect_line(&f.iface.lines[0], "1274", "PCI-MSI-edge", "eth0", 0,
	    11000, "0-1");
}

/* Loopback and veth: counters yes, interrupt figures null (not 0). */
static void
test_no_irq_lines(void **state)
{
	static const char *const names[] = { "lo", "veth0" };
	struct figures	f;
	size_t		i;

	(void)state;
	for (i = 0; i < 2; i++) {
		take2("host-mq-before", "host-mq-after", names[i], names[i],
		    1, &f);
		assert_string_equal(f.iface.name, names[i]);
		assert_int_equal(f.iface.has_counters, 1);
		assert_true(f.iface.tx_packets > 0);
		assert_int_equal(f.iface.irq_lines, 0);
		assert_string_equal(f.iface.irq_list, "");
		assert_int_equal(f.iface.has_interrupts, 0);
		assert_true(f.iface.interrupts == 0);
		assert_int_equal(f.iface.has_irq_per_packet, 0);
		assert_int_equal(f.iface.nlines, 0);
		assert_int_equal(f.iface.has_softirq, 1);
	}
	/* lo has no type file here: known by its name */
	expect_note("host-mq-after", "lo", "lo: loopback has no interrupt "
	    "lines");
	expect_note("host-mq-after", "veth0", "veth0: virtual device (veth) "
	    "has no interrupt lines of its own");
}

/*
 * Why there is no line: the kind of interface from sysfs (type 772, no
 * device link, DEVTYPE), then what was looked for.  The longest name
 * still gets the whole note.
 */
static void
test_irq_notes(void **state)
{
	struct hoststat_roots	r;
	struct figures		f;

	(void)state;
	expect_note("host-virtio-after", "lo", "lo: loopback has no "
	    "interrupt lines");
	expect_note("host-virtio-after", "gb-va", "gb-va: virtual device "
	    "(veth) has no interrupt lines of its own");
	expect_note("host-virtio-after", "br0", "br0: virtual device "
	    "(bridge) has no interrupt lines of its own");
	expect_note("host-virtio-after", "tun0", "tun0: virtual device "
	    "(tuntap) has no interrupt lines of its own");
	expect_note("host-virtio-after", "ifb0", "ifb0: virtual device has "
	    "no interrupt lines of its own");
	/* a USB NIC interrupts through its host controller's line */
	expect_note("host-virtio-after", "enx001122334455",
	    "enx001122334455: no /proc/interrupts line matches (looked for "
	    "msi_irqs, name in actions)");
	expect_note("host-mq-after", "eth9", "eth9: not in sysfs, and no "
	    "/proc/interrupts line names it");
	expect_note("host-garbled", "eth0", "/proc/interrupts unreadable: "
	    "no CPU header line");
	r.procfs = FIX "no-such-root";
	r.sysfs = FIX "sys-legacy";
	take_roots(&r, &r, "eth0", "eth0", 1, &f);
	assert_int_equal(f.iface.nlines, 0);
	assert_string_equal(f.iface.irq_note, "/proc/interrupts unreadable: "
	    "No such file or directory");
	/* a NIC without sysfs (2.4), lines found by name as before */
	r.procfs = FIX "host-gmac-after/proc";
	r.sysfs = FIX "no-such-root";
	take_roots(&r, &r, "eth0", "eth0", 1, &f);
	assert_int_equal(f.iface.nlines, 1);
	assert_string_equal(f.iface.irq_note, "");
	take_roots(&r, &r, "lo", "lo", 1, &f);
	assert_string_equal(f.iface.irq_note, "lo: loopback has no interrupt "
	    "lines");
}

/* No interface known, an unsafe name, or a different one after. */
static void
test_no_interface(void **state)
{
	static const char *const names[] = { NULL, "", "../../etc", "eth9" };
	struct figures	f;
	size_t		i;

	(void)state;
	for (i = 0; i < 4; i++) {
		take2("host-mq-before", "host-mq-after", names[i], names[i],
		    1, &f);
		assert_int_equal(f.iface.has_counters, 0);
		assert_int_equal(f.iface.has_interrupts, 0);
		assert_int_equal(f.iface.has_irq_per_packet, 0);
		assert_int_equal(f.iface.nlines, 0);
		assert_true(*f.iface.irq_note != '\0');
		assert_int_equal(f.host.has, 1);
		assert_int_equal(f.iface.has_softirq, 1);
		if (i < 3)
			assert_string_equal(f.iface.irq_note,
			    "no test interface known");
	}
	take2("host-mq-before", "host-mq-after", "eth0", "lo", 1, &f);
	assert_string_equal(f.iface.name, "");
	assert_int_equal(f.iface.has_counters, 0);
	assert_int_equal(f.iface.has_interrupts, 0);
	assert_int_equal(f.iface.nlines, 0);
	assert_string_equal(f.iface.irq_note, "the interface changed during "
	    "the test (eth0, then lo)");
}

/* Nothing under the roots: a snapshot of nothing, not an error. */
static void
test_missing_roots(void **state)
{
	struct figures	f;

	(void)state;
	take2("no-such-root", "no-such-root", "eth0", "eth0", 1, &f);
	assert_string_equal(f.iface.name, "eth0");
	assert_int_equal(f.host.has, 0);
	assert_false(isnan(f.host.busy_pct));
	assert_int_equal(f.iface.has_counters, 0);
	assert_int_equal(f.iface.has_interrupts, 0);
	assert_int_equal(f.iface.has_irq_per_packet, 0);
	assert_int_equal(f.iface.has_softirq, 0);
	assert_int_equal(f.iface.nlines, 0);
	assert_string_equal(f.iface.irq_note, "/proc/interrupts unreadable: "
	    "No such file or directory");
}

/* Counters that run backwards give 0, never a wrap to 2^64. */
static void
test_backwards(void **state)
{
	struct figures	f;

	(void)state;
	take2("host-mq-after", "host-mq-before", "eth0", "eth0", 0, &f);
	assert_int_equal(f.iface.has_counters, 1);
	assert_true(f.iface.rx_packets == 0 && f.iface.tx_bytes == 0);
	assert_int_equal(f.iface.has_interrupts, 1);
	assert_true(f.iface.interrupts == 0);
	assert_int_equal(f.iface.has_irq_per_packet, 0);	/* 0 packets */
	assert_int_equal(f.iface.nlines, 5);
	expect_line(&f.iface.lines[4], "134", "IR-PCI-MSI 524292-edge",
	    "eth0-TxRx-3", 0, 0, "");
	assert_true(f.iface.net_rx_softirqs == 0);
	assert_int_equal(f.host.has, 0);			/* no tick */
	/* and the same snapshot twice */
	take2("host-mq-after", "host-mq-after", "eth0", "eth0", 0, &f);
	assert_int_equal(f.iface.has_interrupts, 1);
	assert_int_equal(f.iface.has_irq_per_packet, 0);
	assert_false(isnan(f.iface.irq_per_packet));
}

static void
test_null_arguments(void **state)
{
	struct hoststat_roots	 r = { FIX "host-mq-after/proc",
				     FIX "host-mq-after/sys" };
	struct hoststat		*hs;
	struct gb_host_cpu	 hc;
	struct gb_iface_figures	 ifc;
	struct gb_proc_cpu	 pc;
	double			 wall = -1.0;
	char			 err[GB_ERR_LEN];

	(void)state;
	assert_non_null(hs = hoststat_take(&r, "eth0", err, sizeof(err)));
	hoststat_diff(hs, hs, 1, NULL, NULL, NULL, NULL);
	memset(&ifc, 0xa5, sizeof(ifc));
	hoststat_diff(NULL, hs, 1, &hc, &ifc, &pc, &wall);
	assert_int_equal(hc.has, 0);
	assert_int_equal(ifc.has_interrupts, 0);
	assert_string_equal(ifc.name, "");
	assert_int_equal(ifc.nlines, 0);
	assert_string_equal(ifc.irq_note, "no host counters were taken");
	assert_near(wall, 0.0, 0.0);
	hoststat_free(hs);
	hoststat_free(NULL);
}

static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This host, default roots: lo has counters and no interrupt lines. */
static void
test_real_lo(void **state)
{
	struct hoststat		*b, *a;
	struct gb_host_cpu	 hc;
	struct gb_iface_figures	 ifc;
	struct gb_proc_cpu	 pc;
	double			 wall, end;
	volatile unsigned long	 spin = 0;
	char			 err[GB_ERR_LEN];

	(void)state;
	assert_non_null(b = hoststat_take(NULL, "lo", err, sizeof(err)));
	for (end = now_s() + 0.05; now_s() < end; )
		spin++;
	assert_non_null(a = hoststat_take(NULL, "lo", err, sizeof(err)));
	hoststat_diff(b, a, 1, &hc, &ifc, &pc, &wall);
	assert_true(wall >= 0.05);
	assert_int_equal(hc.has, 1);
	assert_true(hc.ncpus >= 1);
	assert_true(hc.busy_pct >= 0.0 && hc.busy_pct <= 100.0);
	assert_string_equal(ifc.name, "lo");
	assert_int_equal(ifc.has_counters, 1);
	assert_int_equal(ifc.irq_lines, 0);
	assert_int_equal(ifc.has_interrupts, 0);
	assert_int_equal(ifc.has_irq_per_packet, 0);
	assert_int_equal(ifc.nlines, 0);
	assert_string_equal(ifc.irq_note, "lo: loopback has no interrupt "
	    "lines");
	assert_true(pc.user_s + pc.sys_s > 0.0);
	assert_true(pc.process_pct > 0.0 && pc.process_pct <= 110.0);
	hoststat_free(b);
	hoststat_free(a);
}

/*
 * Every interface of this host: whatever it has, nothing crashes, and
 * either there are lines or a note says why not.
 */
static void
test_real_interfaces(void **state)
{
	static const char *const names[] = {
		"eth0", "ens3", "enp0s3", "lo", "ifb0"
	};
	struct hoststat		*b, *a;
	struct gb_iface_figures	 ifc;
	char			 err[GB_ERR_LEN], path[64];
	size_t			 i;
	unsigned		 j;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s", names[i]);
		if (access(path, F_OK) != 0)
			continue;
		assert_non_null(b = hoststat_take(NULL, names[i], err,
		    sizeof(err)));
		assert_non_null(a = hoststat_take(NULL, names[i], err,
		    sizeof(err)));
		hoststat_diff(b, a, 1, NULL, &ifc, NULL, NULL);
		assert_int_equal(ifc.has_counters, 1);
		assert_int_equal(ifc.has_interrupts, ifc.irq_lines > 0);
		assert_true(ifc.nlines <= GB_MAX_IRQ_LINES);
		assert_int_equal(ifc.nlines == 0, *ifc.irq_note != '\0');
		print_message("%s: %d irq lines [%s] %s\n", names[i],
		    ifc.irq_lines, ifc.irq_list, ifc.irq_note);
		for (j = 0; j < ifc.nlines; j++)
			print_message("  %s  %s  %s%s  %llu on [%s]\n",
			    ifc.lines[j].name, ifc.lines[j].chip,
			    ifc.lines[j].actions,
			    ifc.lines[j].shared ? " (shared)" : "",
			    (unsigned long long)ifc.lines[j].count,
			    ifc.lines[j].cpus);
		hoststat_free(b);
		hoststat_free(a);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_gmac_tx),
		cmocka_unit_test(test_seed_gmac_rx_side),
		cmocka_unit_test(test_multiqueue_rx),
		cmocka_unit_test(test_multiqueue_rx_tx_vectors),
		cmocka_unit_test(test_msi_only),
		cmocka_unit_test(test_virtio),
		cmocka_unit_test(test_legacy_shared),
		cmocka_unit_test(test_no_irq_lines),
		cmocka_unit_test(test_irq_notes),
		cmocka_unit_test(test_no_interface),
		cmocka_unit_test(test_missing_roots),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_real_lo),
		cmocka_unit_test(test_real_interfaces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
