/*
 * test_netif.c: sysfs counters, MSI vectors and the kind of interface
 * from fixture trees in tests/fixtures/ (run from the top directory), an
 * interface under a bond, VLAN or bridge (sys-stacked), and
 * the address-to-name lookup against a hand-made getifaddrs() list and
 * this host's own.
 */

#include <sys/socket.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>

#include <errno.h>
#include <ifaddrs.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/netif.h"

#define FIX	"tests/fixtures/"

static void
test_name_ok(void **state)
{
	(void)state;
	assert_true(netif_name_ok("eth0"));
	assert_true(netif_name_ok("enp59s0"));
	assert_true(netif_name_ok("a23456789012345"));		/* 15 */
	assert_false(netif_name_ok("a234567890123456"));	/* 16 */
	assert_false(netif_name_ok(NULL));
	assert_false(netif_name_ok(""));
	assert_false(netif_name_ok("."));
	assert_false(netif_name_ok(".."));
	assert_false(netif_name_ok("../x"));
	assert_false(netif_name_ok("eth0:1"));
	assert_false(netif_name_ok("eth 0"));
	assert_false(netif_name_ok("eth0\n"));
}

static int
counter(const char *s, uint64_t *v)
{
	FILE	*fp;
	int	 r;

	fp = *s == '\0' ? fopen("/dev/null", "re") :
	    fmemopen((void *)(uintptr_t)s, strlen(s), "r");
	assert_non_null(fp);
	r = netif_counter_parse(fp, v);
	fclose(fp);
	return r;
}

static void
test_counter_parse(void **state)
{
	uint64_t	v;

	(void)state;
	assert_int_equal(counter("3285421\n", &v), 0);
	assert_true(v == 3285421);
	assert_int_equal(counter("7", &v), 0);
	assert_true(v == 7);
	assert_int_equal(counter("18446744073709551615\n", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(counter("18446744073709551616\n", &v), -1);
	assert_int_equal(counter("", &v), -1);
	assert_int_equal(counter("\n", &v), -1);
	assert_int_equal(counter("abc\n", &v), -1);
	assert_int_equal(counter("-1\n", &v), -1);
	assert_int_equal(counter(" 1\n", &v), -1);
	assert_int_equal(counter("12 34\n", &v), -1);
}

static void
test_stats_read(void **state)
{
	struct netif_stats	st;
	char			err[256];

	(void)state;
	assert_int_equal(netif_stats_read(FIX "host-gmac-after/sys", "eth0",
	    &st, err, sizeof(err)), 0);
	assert_int_equal(st.has, 1);
	assert_true(st.tx_packets == 1000 + 3284421);
	assert_true(st.rx_packets == 2000 + 1642211);
	assert_true(st.tx_bytes == 1500000 + UINT64_C(3284421) * 1500);
	/* through the symlinks of a real sysfs layout */
	assert_int_equal(netif_stats_read(FIX "sys-virtio", "eth0", &st, err,
	    sizeof(err)), 0);
	assert_int_equal(st.has, 1);
	assert_int_equal(netif_stats_read(FIX "host-gmac-after/sys", "eth9",
	    &st, err, sizeof(err)), -1);
	assert_int_equal(st.has, 0);
	assert_non_null(strstr(err, "eth9/statistics/rx_packets"));
	assert_int_equal(netif_stats_read(FIX "host-gmac-after/sys", "../..",
	    &st, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
}

static void
expect_msi(const char *sysfs, const char *ifname, const unsigned *want,
    size_t nwant)
{
	unsigned	*irqs;
	size_t		 n, i;
	char		 err[256];

	assert_int_equal(netif_msi_irqs_read(sysfs, ifname, &irqs, &n, err,
	    sizeof(err)), 0);
	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_int_equal(irqs[i], want[i]);
	free(irqs);
}

static void
test_msi_irqs(void **state)
{
	static const unsigned	eth0[] = { 130, 131, 132, 133, 134 };
	static const unsigned	mlx5[] = { 150, 151, 152 };
	static const unsigned	virtio[] = { 37, 38, 39 };
	unsigned		*irqs;
	size_t			 n;
	char			 err[256];

	(void)state;
	expect_msi(FIX "host-mq-before/sys", "eth0", eth0, 5);
	expect_msi(FIX "host-mq-before/sys", "enp59s0", mlx5, 3);
	/* virtio: the vectors are the PCI function's, one level up */
	expect_msi(FIX "sys-virtio", "eth0", virtio, 3);
	/* a legacy NIC must not take its PCIe port's PME/AER vector */
	assert_int_equal(netif_msi_irqs_read(FIX "sys-legacy", "eth0", &irqs,
	    &n, err, sizeof(err)), -1);
	assert_null(irqs);
	assert_int_equal(n, 0);
	/* lo, veth: no device at all */
	assert_int_equal(netif_msi_irqs_read(FIX "host-mq-before/sys", "lo",
	    &irqs, &n, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_null(irqs);
	assert_int_equal(netif_msi_irqs_read(FIX "host-mq-before/sys", "a/b",
	    &irqs, &n, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
}

static const char *
uevent(const char *s, char *devtype, size_t len)
{
	FILE	*fp;
	int	 r;

	fp = *s == '\0' ? fopen("/dev/null", "re") :
	    fmemopen((void *)(uintptr_t)s, strlen(s), "r");
	assert_non_null(fp);
	memset(devtype, 'x', len);
	r = netif_uevent_parse(fp, devtype, len);
	fclose(fp);
	assert_int_equal(r == 0, *devtype != '\0');
	return devtype;
}

static void
test_uevent_parse(void **state)
{
	char	dt[NETIF_DEVTYPE_LEN], line[400];

	(void)state;
	assert_string_equal(uevent("DEVTYPE=veth\nINTERFACE=gb-va\n", dt,
	    sizeof(dt)), "veth");
	assert_string_equal(uevent("INTERFACE=br0\nIFINDEX=6\n"
	    "DEVTYPE=bridge\n", dt, sizeof(dt)), "bridge");
	assert_string_equal(uevent("DEVTYPE=wlan", dt, sizeof(dt)), "wlan");
	assert_string_equal(uevent("INTERFACE=ifb0\nIFINDEX=3\n", dt,
	    sizeof(dt)), "");
	assert_string_equal(uevent("", dt, sizeof(dt)), "");
	assert_string_equal(uevent("DEVTYPE=\n", dt, sizeof(dt)), "");
	assert_string_equal(uevent("DEVTYPE=a b\n", dt, sizeof(dt)), "");
	assert_string_equal(uevent("DEVTYPE=../x\n", dt, sizeof(dt)), "");
	assert_string_equal(uevent("DEVTYPE=0123456789abcdef\n", dt,
	    sizeof(dt)), "");				/* 16: too long */
	assert_string_equal(uevent("DEVTYPE=0123456789abcde\n", dt,
	    sizeof(dt)), "0123456789abcde");
	assert_string_equal(uevent(" DEVTYPE=veth\n", dt, sizeof(dt)), "");
	/* the rest of a long line is not the start of one */
	snprintf(line, sizeof(line), "X=%0*dDEVTYPE=veth\n", 253, 0);
	assert_string_equal(uevent(line, dt, sizeof(dt)), "");
	snprintf(line, sizeof(line), "X=%0*d\nDEVTYPE=veth\n", 300, 0);
	assert_string_equal(uevent(line, dt, sizeof(dt)), "veth");
	assert_int_equal(netif_uevent_parse(NULL, dt, 0), -1);
}

static void
expect_kind(const char *sysfs, const char *ifname, int r, int has_device,
    int loopback, const char *devtype)
{
	struct netif_kind	k;
	char			err[256];

	memset(&k, 0xa5, sizeof(k));
	assert_int_equal(netif_kind_read(sysfs, ifname, &k, err,
	    sizeof(err)), r);
	assert_int_equal(k.has_dir, r == 0);
	assert_int_equal(k.has_device, has_device);
	assert_int_equal(k.loopback, loopback);
	assert_string_equal(k.devtype, devtype);
}

static void
test_kind_read(void **state)
{
	(void)state;
	expect_kind(FIX "host-virtio-after/sys", "eth0", 0, 1, 0, "");
	expect_kind(FIX "host-virtio-after/sys", "enx001122334455", 0, 1, 0,
	    "");
	expect_kind(FIX "host-virtio-after/sys", "lo", 0, 0, 1, "");
	expect_kind(FIX "host-virtio-after/sys", "gb-va", 0, 0, 0, "veth");
	expect_kind(FIX "host-virtio-after/sys", "br0", 0, 0, 0, "bridge");
	expect_kind(FIX "host-virtio-after/sys", "tun0", 0, 0, 0, "tuntap");
	expect_kind(FIX "host-virtio-after/sys", "ifb0", 0, 0, 0, "");
	expect_kind(FIX "host-legacy-after/sys", "eth3", 0, 1, 0, "");
	expect_kind(FIX "sys-virtio", "eth0", 0, 1, 0, "");
	/* no type file: "lo" by its name */
	expect_kind(FIX "host-mq-after/sys", "lo", 0, 0, 1, "");
	expect_kind(FIX "host-mq-after/sys", "veth0", 0, 0, 0, "veth");
	expect_kind(FIX "host-mq-after/sys", "eth9", -1, 0, 0, "");
	expect_kind(FIX "no-such-root", "lo", -1, 0, 1, "");
	expect_kind(FIX "host-mq-after/sys", "../..", -1, 0, 0, "");
	/* this host: lo by its type, 772 */
	expect_kind("/sys", "lo", 0, 0, 1, "");
}

/*
 * sys-stacked: eth0 and eth1 in bond0, VLAN vlan100 on bond0, bridge br0
 * over vlan100 and tap0; loopa and loopb each other's lower; n0 over n1
 * over ... n9, nine links.
 */
static void
test_is_below(void **state)
{
	const char	*sys = FIX "sys-stacked";

	(void)state;
	assert_int_equal(netif_is_below(sys, "bond0", "eth0"), 1);
	assert_int_equal(netif_is_below(sys, "bond0", "eth1"), 1);
	assert_int_equal(netif_is_below(sys, "vlan100", "bond0"), 1);
	assert_int_equal(netif_is_below(sys, "vlan100", "eth1"), 1);
	assert_int_equal(netif_is_below(sys, "br0", "eth0"), 1);
	assert_int_equal(netif_is_below(sys, "br0", "tap0"), 1);
	/* not the other way round, not beside, not itself */
	assert_int_equal(netif_is_below(sys, "eth0", "bond0"), 0);
	assert_int_equal(netif_is_below(sys, "vlan100", "tap0"), 0);
	assert_int_equal(netif_is_below(sys, "eth0", "eth1"), 0);
	assert_int_equal(netif_is_below(sys, "bond0", "bond0"), 0);
	/* a loop of links ends; the kernel stacks at most 8 */
	assert_int_equal(netif_is_below(sys, "loopa", "loopb"), 1);
	assert_int_equal(netif_is_below(sys, "loopa", "eth0"), 0);
	assert_int_equal(netif_is_below(sys, "n0", "n8"), 1);
	assert_int_equal(netif_is_below(sys, "n0", "n9"), 0);
	assert_int_equal(netif_is_below(sys, "n1", "n9"), 1);
	/* names that are not, interfaces and roots that are not there */
	assert_int_equal(netif_is_below(sys, "bond0", "../eth0"), 0);
	assert_int_equal(netif_is_below(sys, "../net/bond0", "eth0"), 0);
	assert_int_equal(netif_is_below(sys, "bond0", ""), 0);
	assert_int_equal(netif_is_below(sys, "bond9", "eth0"), 0);
	assert_int_equal(netif_is_below(FIX "no-such-root", "bond0", "eth0"),
	    0);
	/* this host: nothing is under lo */
	assert_int_equal(netif_is_below("/sys", "lo", "eth0"), 0);
}

/* A hand-made getifaddrs() list. */
struct fake_if {
	struct ifaddrs		ifa;
	struct sockaddr_storage	addr;
	struct sockaddr_storage	mask;
};

static void
fake4(struct fake_if *f, const char *name, const char *addr,
    const char *mask, unsigned flags)
{
	struct sockaddr_in	*a = (struct sockaddr_in *)&f->addr;
	struct sockaddr_in	*m = (struct sockaddr_in *)&f->mask;

	memset(f, 0, sizeof(*f));
	f->ifa.ifa_name = (char *)(uintptr_t)name;
	f->ifa.ifa_flags = flags;
	a->sin_family = m->sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, addr, &a->sin_addr), 1);
	assert_int_equal(inet_pton(AF_INET, mask, &m->sin_addr), 1);
	f->ifa.ifa_addr = (struct sockaddr *)a;
	f->ifa.ifa_netmask = (struct sockaddr *)m;
}

static void
fake6(struct fake_if *f, const char *name, const char *addr, uint32_t scope)
{
	struct sockaddr_in6	*a = (struct sockaddr_in6 *)&f->addr;

	memset(f, 0, sizeof(*f));
	f->ifa.ifa_name = (char *)(uintptr_t)name;
	a->sin6_family = AF_INET6;
	a->sin6_scope_id = scope;
	assert_int_equal(inet_pton(AF_INET6, addr, &a->sin6_addr), 1);
	f->ifa.ifa_addr = (struct sockaddr *)a;
}

/* Look addr up in list; "" when nothing matches. */
static const char *
lookup(const struct ifaddrs *list, int family, const char *addr,
    uint32_t scope, char *name, size_t len)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*s6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = (sa_family_t)family;
	if (family == AF_INET)
		assert_int_equal(inet_pton(AF_INET, addr, &s4->sin_addr), 1);
	else if (family == AF_INET6) {
		assert_int_equal(inet_pton(AF_INET6, addr, &s6->sin6_addr), 1);
		s6->sin6_scope_id = scope;
	}
	if (list == NULL)
		return netif_name_for_addr((struct sockaddr *)&ss, name,
		    len) == 0 ? name : "";
	return netif_name_in_list(list, (struct sockaddr *)&ss, name,
	    len) == 0 ? name : "";
}

static void
test_name_in_list(void **state)
{
	struct fake_if	f[7];
	char		name[IFNAMSIZ], tiny[3];
	size_t		i;

	(void)state;
	fake4(&f[0], "lo", "127.0.0.1", "255.0.0.0", IFF_LOOPBACK | IFF_UP);
	fake6(&f[1], "lo", "::1", 0);
	memset(&f[2], 0, sizeof(f[2]));		/* an entry with no address */
	f[2].ifa.ifa_name = (char *)(uintptr_t)"ifb0";
	fake4(&f[3], "eth0", "192.0.2.2", "255.255.255.0", IFF_UP);
	fake6(&f[4], "eth0", "fe80::1", 2);
	fake6(&f[5], "eth0", "2001:db8::2", 0);
	fake6(&f[6], "veth1", "fe80::1", 5);
	for (i = 0; i + 1 < 7; i++)
		f[i].ifa.ifa_next = &f[i + 1].ifa;
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "127.0.0.1", 0, name,
	    sizeof(name)), "lo");
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "127.0.0.2", 0, name,
	    sizeof(name)), "lo");
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "127.255.0.9", 0, name,
	    sizeof(name)), "lo");
	assert_string_equal(lookup(&f[0].ifa, AF_INET6, "::1", 0, name,
	    sizeof(name)), "lo");
	assert_string_equal(lookup(&f[0].ifa, AF_INET6, "::ffff:127.0.0.5", 0,
	    name, sizeof(name)), "lo");
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "192.0.2.2", 0, name,
	    sizeof(name)), "eth0");
	assert_string_equal(lookup(&f[0].ifa, AF_INET6, "::ffff:192.0.2.2", 0,
	    name, sizeof(name)), "eth0");
	assert_string_equal(lookup(&f[0].ifa, AF_INET6, "2001:db8::2", 0,
	    name, sizeof(name)), "eth0");
	assert_string_equal(lookup(&f[0].ifa, AF_INET6, "fe80::1", 5, name,
	    sizeof(name)), "veth1");
	assert_string_equal(lookup(&f[0].ifa, AF_INET6, "fe80::1", 2, name,
	    sizeof(name)), "eth0");
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "198.18.0.1", 0, name,
	    sizeof(name)), "");
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "192.0.2.3", 0, name,
	    sizeof(name)), "");
	assert_string_equal(lookup(&f[0].ifa, AF_UNIX, "", 0, name,
	    sizeof(name)), "");
	assert_string_equal(lookup(&f[0].ifa, AF_INET, "192.0.2.2", 0, tiny,
	    sizeof(tiny)), "");
	assert_string_equal(tiny, "");
	/* no 127/8 network anywhere: no answer */
	assert_string_equal(lookup(&f[3].ifa, AF_INET, "127.0.0.2", 0, name,
	    sizeof(name)), "");
	assert_int_equal(netif_name_in_list(&f[0].ifa, NULL, name,
	    sizeof(name)), -1);
}

/* This host: 127/8 and ::1 are on the loopback interface. */
static void
test_name_for_addr_real(void **state)
{
	char	name[IFNAMSIZ];
	FILE	*fp;
	char	line[256];
	int	has_v6_lo = 0;

	(void)state;
	assert_string_equal(lookup(NULL, AF_INET, "127.0.0.1", 0, name,
	    sizeof(name)), "lo");
	assert_string_equal(lookup(NULL, AF_INET, "127.0.0.2", 0, name,
	    sizeof(name)), "lo");
	assert_string_equal(lookup(NULL, AF_INET, "198.18.255.254", 0, name,
	    sizeof(name)), "");
	if ((fp = fopen("/proc/net/if_inet6", "re")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL)
			if (strncmp(line, "00000000000000000000000000000001",
			    32) == 0)
				has_v6_lo = 1;
		fclose(fp);
	}
	if (has_v6_lo)
		assert_string_equal(lookup(NULL, AF_INET6, "::1", 0, name,
		    sizeof(name)), "lo");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_ok),
		cmocka_unit_test(test_counter_parse),
		cmocka_unit_test(test_stats_read),
		cmocka_unit_test(test_msi_irqs),
		cmocka_unit_test(test_uevent_parse),
		cmocka_unit_test(test_kind_read),
		cmocka_unit_test(test_is_below),
		cmocka_unit_test(test_name_in_list),
		cmocka_unit_test(test_name_for_addr_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
