/*
 * test_knobs.c: warnings for settings that did not take: a socket buffer
 * capped at rmem_max/wmem_max (with the sysctl to raise), an MSS the
 * connection did not use, a path MTU below the interface MTU, counters
 * read from an interface the route does not leave by, and no warning
 * when everything took.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/knobs.h"

static void
side_init(struct gb_side *s)
{
	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->context.has = 1;
	s->context.rmem_max = 212992;
	s->context.wmem_max = 212992;
	s->context.mtu = 1500;
	s->tcp.has = 1;
	s->tcp.mss = 1448;
	s->tcp.advmss = 1448;
	s->tcp.pmtu = 1500;
}

static void
test_rcvbuf_capped(void **state)
{
	struct gb_params p;
	struct gb_side s;

	(void)state;
	params_init(&p);
	p.rcvbuf = 768 * 1024;
	side_init(&s);
	s.rcvbuf.requested = 768 * 1024;
	s.rcvbuf.actual = 425984;	/* 2 x 212992 */
	knobs_check(&p, 0, &s);
	assert_int_equal(s.nwarnings, 1);
	assert_non_null(strstr(s.warnings[0], "SO_RCVBUF: asked 768K, got "
	    "416K"));
	assert_non_null(strstr(s.warnings[0], "net.core.rmem_max"));
	assert_non_null(strstr(s.warnings[0], "--force-bufs"));
}

static void
test_sndbuf_capped(void **state)
{
	struct gb_params p;
	struct gb_side s;

	(void)state;
	params_init(&p);
	p.sndbuf = 4 * 1024 * 1024;
	side_init(&s);
	s.sndbuf.requested = p.sndbuf;
	s.sndbuf.actual = 425984;
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 1);
	assert_non_null(strstr(s.warnings[0], "SO_SNDBUF: asked 4M"));
	assert_non_null(strstr(s.warnings[0], "net.core.wmem_max"));
}

/* Linux doubles what it was given: 2 x the request means it took. */
static void
test_buffers_took(void **state)
{
	struct gb_params p;
	struct gb_side s;

	(void)state;
	params_init(&p);
	p.sndbuf = p.rcvbuf = 64 * 1024;
	side_init(&s);
	s.sndbuf.requested = s.rcvbuf.requested = 64 * 1024;
	s.sndbuf.actual = s.rcvbuf.actual = 128 * 1024;
	knobs_check(&p, 1, &s);
	knobs_check(&p, 0, &s);
	assert_int_equal(s.nwarnings, 0);
	/* Nothing asked: nothing to warn about, whatever the kernel set. */
	params_init(&p);
	side_init(&s);
	s.sndbuf.actual = 16384;
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 0);
}

static void
test_mss(void **state)
{
	struct gb_params p;
	struct gb_side s;

	(void)state;
	params_init(&p);
	p.mss = 1000;
	side_init(&s);
	s.tcp.mss = 988;	/* 1000 less the timestamp option: took */
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 0);
	s.tcp.mss = 1448;
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 1);
	assert_non_null(strstr(s.warnings[0], "TCP_MAXSEG: asked 1000, the "
	    "connection sends 1448-byte segments"));
	/* The receiver's advertised MSS is not the data's: no warning. */
	side_init(&s);
	s.tcp.advmss = 1460;
	knobs_check(&p, 0, &s);
	assert_int_equal(s.nwarnings, 0);
}

static void
test_pmtu(void **state)
{
	struct gb_params p;
	struct gb_side s;

	(void)state;
	params_init(&p);
	side_init(&s);
	s.context.mtu = 9000;
	s.tcp.pmtu = 1500;
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 1);
	assert_non_null(strstr(s.warnings[0], "path MTU 1500 is below the "
	    "interface MTU 9000"));
	/* lo: MTU 65536, but an IP packet stops at 65535. */
	side_init(&s);
	s.context.mtu = 65536;
	s.tcp.pmtu = 65535;
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 0);
	/* Unknown context or TCP: no guesses. */
	side_init(&s);
	s.context.has = 0;
	s.tcp.pmtu = 576;
	knobs_check(&p, 1, &s);
	assert_int_equal(s.nwarnings, 0);
}

static void
test_warn_cap(void **state)
{
	struct gb_side s;
	int i;

	(void)state;
	memset(&s, 0, sizeof(s));
	for (i = 0; i < GB_MAX_WARNINGS + 5; i++)
		knobs_warn(&s, "warning %d %s", i, "x");
	assert_int_equal(s.nwarnings, GB_MAX_WARNINGS);
	assert_string_equal(s.warnings[GB_MAX_WARNINGS - 1], "warning 7 x");
}

/* The interface read is not the route's: one warning naming both. */
static void
test_egress(void **state)
{
	struct gb_side s;

	(void)state;
	memset(&s, 0, sizeof(s));
	knobs_egress(&s, 1, "eth1", 1, "veth0");
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "-I eth1: the test's data leave by "
	    "veth0, so eth1's interrupt and packet counts miss them");
	memset(&s, 0, sizeof(s));
	knobs_egress(&s, 0, "eth0", 0, "lo");
	assert_int_equal(s.nwarnings, 1);
	assert_string_equal(s.warnings[0], "eth0 (holds the local address): "
	    "the route to the sender leaves by lo, so eth0's interrupt and "
	    "packet counts miss the data unless the routing is asymmetric");
	/* The longest names fit whole. */
	memset(&s, 0, sizeof(s));
	knobs_egress(&s, 0, "a23456789012345", 0, "b23456789012345");
	assert_int_equal(s.nwarnings, 1);
	assert_true(strlen(s.warnings[0]) < GB_WARNING_LEN - 1);
	assert_non_null(strstr(s.warnings[0], "routing is asymmetric"));
	memset(&s, 0, sizeof(s));
	knobs_egress(&s, 1, "a23456789012345", 0, "b23456789012345");
	assert_true(strlen(s.warnings[0]) < GB_WARNING_LEN - 1);
	assert_non_null(strstr(s.warnings[0], "counts miss them"));
	/* The same interface, or one not known: nothing. */
	memset(&s, 0, sizeof(s));
	knobs_egress(&s, 1, "lo", 0, "lo");
	knobs_egress(&s, 1, "eth0", 1, "");
	knobs_egress(&s, 0, "", 0, "eth0");
	assert_int_equal(s.nwarnings, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rcvbuf_capped),
		cmocka_unit_test(test_sndbuf_capped),
		cmocka_unit_test(test_buffers_took),
		cmocka_unit_test(test_mss),
		cmocka_unit_test(test_pmtu),
		cmocka_unit_test(test_warn_cap),
		cmocka_unit_test(test_egress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
