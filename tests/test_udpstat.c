/*
 * test_udpstat.c: the kernel's UDP counters and an interface's drop
 * counters under fixture roots (tests/fixtures/udpstat-*, run from the top
 * directory): this build host's /proc/net/snmp and snmp6 as they were
 * copied, an older kernel's table without InCsumErrors and IgnoredMulti
 * (and without snmp6, as with no IPv6), columns in another order with a
 * column no kernel has yet, a truncated values line, garbled numbers in
 * snmp and in snmp6; the parsers on strings; and the differences, with
 * counters going backwards.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/udpstat.h"

#define FIX	"tests/fixtures/"

#define assert_u64(got, want) do {					\
	uint64_t got_ = (got), want_ = (want);				\
	if (got_ != want_) {						\
		print_error("%s = %llu, expected %llu\n", #got,	\
		    (unsigned long long)got_, (unsigned long long)want_); \
		fail();							\
	}								\
} while (0)

/* udpstat_read under FIX<name>/proc. */
static int
read_fixture(const char *name, struct udpstat *st, char *err, size_t errlen)
{
	struct hoststat_roots	roots;
	char			proc[256];

	snprintf(proc, sizeof(proc), FIX "%s/proc", name);
	roots.procfs = proc;
	roots.sysfs = NULL;
	memset(st, 0xa5, sizeof(*st));	/* everything must be written */
	*err = '\0';
	return udpstat_read(&roots, st, err, errlen);
}

static void
expect_udp(const struct udpstat *st, uint64_t in, uint64_t noports,
    uint64_t inerr, uint64_t out, uint64_t rcvbuf, uint64_t sndbuf,
    uint64_t csum)
{
	assert_int_equal(st->has, 1);
	assert_u64(st->in_datagrams, in);
	assert_u64(st->no_ports, noports);
	assert_u64(st->in_errors, inerr);
	assert_u64(st->out_datagrams, out);
	assert_u64(st->rcvbuf_errors, rcvbuf);
	assert_u64(st->sndbuf_errors, sndbuf);
	assert_u64(st->in_csum_errors, csum);
}

/* This host (Linux 6.18) as copied: IPv4 only has counted anything. */
static void
test_host_copy(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-host", &st, err, sizeof(err)),
	    0);
	expect_udp(&st, 786, 540, 0, 1339, 0, 0, 0);
	assert_string_equal(err, "");
}

/* A 3.x kernel: six columns, no snmp6; UdpLite's figures are not UDP's. */
static void
test_old_kernel_no_ipv6(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-old", &st, err, sizeof(err)),
	    0);
	expect_udp(&st, 3284421, 17, 4102, 3284399, 4100, 2, 0);
}

/*
 * Columns by name in any order, one unknown; UdpLite before Udp; snmp6
 * added (its UdpLite6 lines and Udp6IgnoredMulti are not).
 */
static void
test_reordered_with_ipv6(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-reorder", &st, err,
	    sizeof(err)), 0);
	expect_udp(&st, 1000 + 20, 1 + 1, 2 + 3, 4 + 40, 3 + 2, 6 + 5, 5 + 1);
}

static void
test_truncated(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-truncated", &st, err,
	    sizeof(err)), -1);
	assert_int_equal(st.has, 0);
	assert_u64(st.in_datagrams, 0);
	assert_string_equal(err, FIX "udpstat-truncated/proc/net/snmp: Udp "
	    "values line has 7 fields, its header 9");
}

static void
test_garbled(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-garbled", &st, err,
	    sizeof(err)), -1);
	assert_int_equal(st.has, 0);
	assert_string_equal(err, FIX "udpstat-garbled/proc/net/snmp: Udp "
	    "OutDatagrams is not a number: 13x9");
}

/* A good snmp and a garbled snmp6: nothing is kept, snmp6 is named. */
static void
test_garbled6(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-garbled6", &st, err,
	    sizeof(err)), -1);
	assert_int_equal(st.has, 0);
	assert_u64(st.in_datagrams, 0);
	assert_string_equal(err, FIX "udpstat-garbled6/proc/net/snmp6: "
	    "Udp6OutDatagrams is not a number: -3");
}

/* No snmp at all: -1, has = 0, and the missing file named. */
static void
test_missing_snmp(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	assert_int_equal(read_fixture("udpstat-ifdrops", &st, err,
	    sizeof(err)), -1);
	assert_int_equal(st.has, 0);
	assert_string_equal(err, FIX "udpstat-ifdrops/proc/net/snmp: "
	    "No such file or directory");
}

/* The pure parsers: the messages name /proc's files; st is untouched. */
static void
test_parse_errors(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	memset(&st, 0, sizeof(st));
	assert_int_equal(udpstat_parse_snmp("Ip: a b\nIp: 1 2\n", &st, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp: no Udp table");
	assert_int_equal(udpstat_parse_snmp("UdpLite: InDatagrams\n"
	    "UdpLite: 5\n", &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp: no Udp table");
	assert_int_equal(udpstat_parse_snmp("Udp: InDatagrams NoPorts\n",
	    &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp: Udp header without a "
	    "values line");
	assert_int_equal(udpstat_parse_snmp("Udp: InDatagrams NoPorts\n"
	    "Udp: 1 2 3\n", &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp: Udp values line has 3 "
	    "fields, its header 2");
	assert_int_equal(udpstat_parse_snmp("Udp: InDatagrams NoPorts\n"
	    "Udp: -1 2\n", &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp: Udp InDatagrams is not a "
	    "number: -1");
	/* One more than 2^64 - 1. */
	assert_int_equal(udpstat_parse_snmp("Udp: InErrors\n"
	    "Udp: 18446744073709551616\n", &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp: Udp InErrors is not a "
	    "number: 18446744073709551616");
	assert_int_equal(udpstat_parse_snmp6("Udp6InDatagrams\t7\n"
	    "Udp6OutDatagrams\t-3\n", &st, err, sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp6: Udp6OutDatagrams is not "
	    "a number: -3");
	assert_int_equal(udpstat_parse_snmp6("Udp6NoPorts\n", &st, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp6: Udp6NoPorts is not a "
	    "number: ");
	assert_int_equal(udpstat_parse_snmp6("Udp6NoPorts 4 5\n", &st, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "/proc/net/snmp6: Udp6NoPorts is not a "
	    "number: 4 5");
	assert_int_equal(st.has, 0);
	assert_u64(st.in_datagrams, 0);
	assert_u64(st.no_ports, 0);
}

/* Both parsers add; the largest counter fits; a last line without \n. */
static void
test_parse_adds(void **state)
{
	struct udpstat	st;
	char		err[256];

	(void)state;
	memset(&st, 0, sizeof(st));
	assert_int_equal(udpstat_parse_snmp("Udp: InDatagrams RcvbufErrors\n"
	    "Udp: 10 18446744073709551614", &st, err, sizeof(err)), 0);
	assert_int_equal(udpstat_parse_snmp6("Ip6InReceives 3\n"
	    "Udp6InDatagrams   5\nUdp6RcvbufErrors 1\n"
	    "UdpLite6InDatagrams 100\n", &st, err, sizeof(err)), 0);
	assert_int_equal(udpstat_parse_snmp6("", &st, err, sizeof(err)), 0);
	expect_udp(&st, 15, 0, 0, 0, UINT64_MAX, 0, 0);
}

static void
test_diff(void **state)
{
	struct udpstat	b, a, d;

	(void)state;
	memset(&b, 0, sizeof(b));
	memset(&a, 0, sizeof(a));
	b.has = a.has = 1;
	b.in_datagrams = 100;
	a.in_datagrams = 1100;
	b.rcvbuf_errors = 7;
	a.rcvbuf_errors = 57;
	b.out_datagrams = 5000;	/* went backwards: a reset counter */
	a.out_datagrams = 10;
	a.sndbuf_errors = 3;
	a.in_csum_errors = 1;
	b.no_ports = a.no_ports = 9;
	udpstat_diff(&b, &a, &d);
	expect_udp(&d, 1000, 0, 0, 0, 50, 3, 1);
	b.has = 0;
	memset(&d, 0xa5, sizeof(d));
	udpstat_diff(&b, &a, &d);
	assert_int_equal(d.has, 0);
	assert_u64(d.in_datagrams, 0);
}

static void
test_ifdrops(void **state)
{
	struct hoststat_roots	roots = { NULL, FIX "udpstat-ifdrops/sys" };
	struct ifdrops		b, a, d;
	char			err[256];

	(void)state;
	memset(&a, 0xa5, sizeof(a));
	assert_int_equal(ifdrops_read(&roots, "eth0", &a, err, sizeof(err)),
	    0);
	assert_int_equal(a.has, 1);
	assert_u64(a.rx_dropped, 12);
	assert_u64(a.tx_dropped, 3);
	assert_u64(a.rx_missed_errors, 4100);
	assert_u64(a.rx_fifo_errors, 7);
	assert_u64(a.tx_fifo_errors, 1);
	b = a;
	b.rx_dropped = 2;
	b.tx_dropped = 5;	/* went backwards */
	b.rx_missed_errors = 100;
	ifdrops_diff(&b, &a, &d);
	assert_int_equal(d.has, 1);
	assert_u64(d.rx_dropped, 10);
	assert_u64(d.tx_dropped, 0);
	assert_u64(d.rx_missed_errors, 4000);
	assert_u64(d.rx_fifo_errors, 0);
	assert_u64(d.tx_fifo_errors, 0);
	b.has = 0;
	ifdrops_diff(&b, &a, &d);
	assert_int_equal(d.has, 0);
	assert_u64(d.rx_dropped, 0);
}

static void
test_ifdrops_errors(void **state)
{
	struct hoststat_roots	roots = { NULL, FIX "udpstat-ifdrops/sys" };
	struct ifdrops		d;
	char			err[256];

	(void)state;
	assert_int_equal(ifdrops_read(&roots, "eth1", &d, err, sizeof(err)),
	    -1);
	assert_int_equal(d.has, 0);
	assert_u64(d.rx_dropped, 0);
	assert_string_equal(err, FIX "udpstat-ifdrops/sys/class/net/eth1/"
	    "statistics/rx_missed_errors: not a counter");
	assert_int_equal(ifdrops_read(&roots, "eth9", &d, err, sizeof(err)),
	    -1);
	assert_string_equal(err, FIX "udpstat-ifdrops/sys/class/net/eth9/"
	    "statistics/rx_dropped: No such file or directory");
	assert_int_equal(ifdrops_read(&roots, "../eth0", &d, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "invalid interface name");
	assert_int_equal(ifdrops_read(&roots, NULL, &d, err, sizeof(err)),
	    -1);
	assert_int_equal(d.has, 0);
}

/* This host's own files, wherever they are: they parse, or are absent. */
static void
test_live(void **state)
{
	struct udpstat	st;
	struct ifdrops	d;
	char		err[256];

	(void)state;
	if (udpstat_read(NULL, &st, err, sizeof(err)) == 0)
		assert_int_equal(st.has, 1);
	else
		assert_non_null(strstr(err, "/proc/net/snmp"));
	if (ifdrops_read(NULL, "lo", &d, err, sizeof(err)) == 0)
		assert_int_equal(d.has, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_copy),
		cmocka_unit_test(test_old_kernel_no_ipv6),
		cmocka_unit_test(test_reordered_with_ipv6),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbled),
		cmocka_unit_test(test_garbled6),
		cmocka_unit_test(test_missing_snmp),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_adds),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_ifdrops),
		cmocka_unit_test(test_ifdrops_errors),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
