/*
 * test_hoststat.c: whole snapshots taken under fixture roots
 * (tests/fixtures/host-*-{before,after}/{proc,sys}, run from the top
 * directory) and under this host's /proc and /sys, and the figures the
 * renderers get from two of them.
 */

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

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

#include "hoststat.h"

#define FIX	"tests/fixtures/"

#define assert_near(got, want, eps) do {				\
	double got_ = (got), want_ = (want);				\
	if (!(fabs(got_ - want_) <= (eps))) {				\
		print_error("%s = %.9g, expected %.9g\n", #got,	\
		    got_, want_);					\
		fail();							\
	}								\
} while (0)

struct figures {
	struct gb_host_cpu	host;
	struct gb_iface_figures	iface;
	struct gb_proc_cpu	cpu;
	double			wall_s;
};

/* Snapshots under two roots, and the figures between them. */
static void
take2(const char *before, const char *after, const char *ifb,
    const char *ifa, int data_tx, struct figures *f)
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
	assert_non_null(b = hoststat_take(&rb, ifb, err, sizeof(err)));
	assert_non_null(a = hoststat_take(&ra, ifa, err, sizeof(err)));
	memset(f, 0xa5, sizeof(*f));	/* everything must be written */
	hoststat_diff(b, a, data_tx, &f->host, &f->iface, &f->cpu,
	    &f->wall_s);
	hoststat_free(b);
	hoststat_free(a);
}

/*
 * The seed thread's GMAC transmitter: 476,543 interrupts for 3,284,421
 * packets sent = 0.1451 irq/pkt; a 2.4 kernel has no /proc/softirqs.
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
}

/*
 * Modern 4-queue receiver: 260,144 interrupts over 5 MSI-X lines for
 * 2,601,440 packets received = 0.1; NET_RX 460,000, NET_TX 26.
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
	assert_int_equal(f.iface.has_softirq, 1);
	assert_true(f.iface.net_rx_softirqs == 460000);
	assert_true(f.iface.net_tx_softirqs == 26);
	assert_int_equal(f.host.has, 1);
	assert_near(f.host.busy_pct, 44.75, 1e-9);
	assert_int_equal(f.host.max_cpu, 2);
	assert_near(f.host.max_cpu_busy_pct, 90.0, 1e-9);
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
		assert_int_equal(f.iface.has_softirq, 1);
	}
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
		assert_int_equal(f.host.has, 1);
		assert_int_equal(f.iface.has_softirq, 1);
	}
	take2("host-mq-before", "host-mq-after", "eth0", "lo", 1, &f);
	assert_string_equal(f.iface.name, "");
	assert_int_equal(f.iface.has_counters, 0);
	assert_int_equal(f.iface.has_interrupts, 0);
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
	assert_true(pc.user_s + pc.sys_s > 0.0);
	assert_true(pc.process_pct > 0.0 && pc.process_pct <= 110.0);
	hoststat_free(b);
	hoststat_free(a);
}

/* Every interface of this host: whatever it has, nothing crashes. */
static void
test_real_interfaces(void **state)
{
	static const char *const names[] = { "eth0", "ens3", "enp0s3" };
	struct hoststat		*b, *a;
	struct gb_iface_figures	 ifc;
	char			 err[GB_ERR_LEN], path[64];
	size_t			 i;

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
		print_message("%s: %d irq lines [%s]\n", names[i],
		    ifc.irq_lines, ifc.irq_list);
		hoststat_free(b);
		hoststat_free(a);
	}
}

static void
test_ifname_for_addr(void **state)
{
	struct sockaddr_in	sin;
	char			name[GB_IFNAME_LEN];

	(void)state;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(hoststat_ifname_for_addr((struct sockaddr *)&sin,
	    name, sizeof(name)), 0);
	assert_string_equal(name, "lo");
	assert_int_equal(inet_pton(AF_INET, "198.18.0.77", &sin.sin_addr), 1);
	assert_int_equal(hoststat_ifname_for_addr((struct sockaddr *)&sin,
	    name, sizeof(name)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_gmac_tx),
		cmocka_unit_test(test_seed_gmac_rx_side),
		cmocka_unit_test(test_multiqueue_rx),
		cmocka_unit_test(test_msi_only),
		cmocka_unit_test(test_no_irq_lines),
		cmocka_unit_test(test_no_interface),
		cmocka_unit_test(test_missing_roots),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_real_lo),
		cmocka_unit_test(test_real_interfaces),
		cmocka_unit_test(test_ifname_for_addr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
