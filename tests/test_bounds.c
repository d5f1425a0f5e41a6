/*
 * test_bounds.c: a listener's limits (bounds.c).  Each limit at its edge
 * (equal is served, one more is refused, with the option named), the
 * exemption of a test bounded by -n alone from the duration limit, the
 * byte limit without overflow at the largest -n, the rate a listener
 * that transmits gives each stream, and the deadlines, byte caps and the
 * UDP rate bound a running test gets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/bounds.h"

#define MB	(UINT64_C(1) << 20)

static void
setup(struct gb_bounds *l, struct gb_params *p)
{
	bounds_init(l);
	params_init(p);
}

static void
assert_refused(const struct gb_bounds *l, const struct gb_params *p,
    const char *needle, const char *option)
{
	char err[256] = "";

	assert_int_equal(bounds_check(l, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, needle));
	assert_non_null(strstr(err, option));
}

static void
test_defaults(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	assert_int_equal(l.handshake_ms, 5000);
	assert_int_equal(l.silent_ms, 10000);
	assert_int_equal(l.max_duration_ms, 300000);
	assert_int_equal(l.max_streams, 1024);
	assert_int_equal(l.max_buflen, 64 * MB);
	assert_int_equal(l.max_sockbuf, 16 * MB);
	assert_int_equal(l.max_bytes, 0);
	assert_int_equal(l.max_rate, 0);
	assert_int_equal(l.max_pending, 256);
	assert_int_equal(l.max_pending_source, 16);
	/* The client's defaults are served. */
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
}

/* --crr: no more streams than connections pending from one source. */
static void
test_crr_streams(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	p.rr = p.crr = 1;
	p.streams = l.max_pending_source;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.streams++;
	assert_refused(&l, &p, "a --crr test of 17 streams",
	    "--max-pending-source");
	p.crr = 0;		/* --rr's connections are all made at once */
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	l.max_pending_source = 2;
	p.crr = 1;
	p.streams = 3;
	assert_refused(&l, &p, "takes at most 2", "--max-pending-source");
}

static void
test_duration(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	p.duration_ms = 300000;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.duration_ms = 300001;
	assert_refused(&l, &p, "asks for 300.001 s; this listener allows "
	    "at most 300 s", "--max-duration");
	/* -n alone: the longest duration; cut at run time, not refused. */
	p.nbuf = 1000;
	p.duration_ms = GB_MAX_DURATION_MS;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	/* -n with an explicit -T over the limit is refused. */
	p.duration_ms = 600000;
	assert_refused(&l, &p, "600 s", "--max-duration");
}

static void
test_sizes(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	l.max_streams = 32;
	p.streams = 32;
	p.buflen = 1 * MB;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.streams = 33;
	assert_refused(&l, &p, "33 flows; this listener allows at most 32",
	    "--max-flows");
	p.streams = 1;
	l.max_buflen = 64 * 1024;
	p.buflen = 64 * 1024;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.buflen = 64 * 1024 + 1;
	assert_refused(&l, &p, "buffer length of 65537; this listener "
	    "allows at most 64K", "--max-length");
}

static void
test_sockbuf_of_the_listener(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	/* The client sends: the listener sets SO_RCVBUF only. */
	p.sndbuf = 64 * MB;
	p.rcvbuf = 16 * MB;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.rcvbuf = 16 * MB + 1;
	assert_refused(&l, &p, "SO_RCVBUF", "--max-sockbuf");
	/* The client receives: the listener sets SO_SNDBUF only. */
	p.direction = GB_DIR_CLIENT_RECEIVES;
	p.rcvbuf = 64 * MB;
	p.sndbuf = 16 * MB;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.sndbuf = 32 * MB;
	assert_refused(&l, &p, "SO_SNDBUF of 32M; this listener allows at "
	    "most 16M", "--max-sockbuf");
}

static void
test_bytes(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	p.nbuf = GB_MAX_NBUF;
	p.buflen = GB_MAX_BUFLEN;
	p.streams = 4;
	/* No byte limit: anything, and 2^40 x 64M x 4 does not wrap. */
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	l.max_bytes = 100 * MB;
	assert_refused(&l, &p, "1099511627776 buffers", "--max-bytes");
	p.buflen = MB;
	p.nbuf = 25;		/* 4 x 25 x 1M = 100M: allowed */
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.nbuf = 26;
	assert_refused(&l, &p, "at most 100M bytes", "--max-bytes");
	/* A test bounded by its duration is cut at run time instead. */
	p.nbuf = 0;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
}

static void
test_rate(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char err[256];

	(void)state;
	setup(&l, &p);
	l.max_rate = 125000000;		/* 1000 Mbit/s */
	p.streams = 4;
	p.fq_rate = 125000000;
	/* The listener receives: its rate limit does not apply. */
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	p.direction = GB_DIR_CLIENT_RECEIVES;
	assert_refused(&l, &p, "transmit at 4000 Mbit/s (--fq-rate x 4 "
	    "streams); this listener transmits at most 1000 Mbit/s",
	    "--max-rate");
	p.fq_rate = 125000000 / 4;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	bounds_apply(&l, &p);
	assert_int_equal(p.fq_rate, 125000000 / 4);	/* as asked */
	/* No pacing asked: each stream gets its share. */
	p.fq_rate = 0;
	assert_int_equal(bounds_check(&l, &p, err, sizeof(err)), 0);
	bounds_apply(&l, &p);
	assert_int_equal(p.fq_rate, 125000000 / 4);
	/* Without --max-rate nothing changes. */
	l.max_rate = 0;
	p.fq_rate = 0;
	bounds_apply(&l, &p);
	assert_int_equal(p.fq_rate, 0);
	/* The listener receives: nothing is paced. */
	l.max_rate = 125000;
	p.direction = GB_DIR_CLIENT_SENDS;
	bounds_apply(&l, &p);
	assert_int_equal(p.fq_rate, 0);
	/* -u unpaced: give -R; -u --rr, which -R cannot pace: say so. */
	p.udp = 1;
	assert_refused(&l, &p, "an unpaced UDP test (-R 0)", "give -R");
	p.rr = 1;
	assert_refused(&l, &p, "-u --rr cannot be paced, and this listener "
	    "takes at most 1 Mbit/s of UDP", "without --max-rate");
}

static void
test_deadline_and_caps(void **state)
{
	struct gb_bounds l;
	struct gb_params p;

	(void)state;
	setup(&l, &p);
	p.duration_ms = 2000;
	assert_int_equal(bounds_deadline_ms(&l, &p), 12000);
	l.silent_ms = 2000;
	assert_int_equal(bounds_deadline_ms(&l, &p), 4000);
	/* UDP probes beside a TCP load: their last may wait a timeout. */
	p.probes = 1;
	p.probe_rate = 100;
	assert_int_equal(bounds_deadline_ms(&l, &p), 4000 + 2 *
	    GB_PROBE_TIMEOUT_MS);
	p.probes = p.probe_rate = 0;
	/* -n alone: cut at --max-duration plus the grace. */
	p.duration_ms = GB_MAX_DURATION_MS;
	assert_int_equal(bounds_deadline_ms(&l, &p), 302000);
	assert_int_equal(bounds_stream_cap(&p), 0);
	p.nbuf = 10;
	p.buflen = 1000;
	assert_int_equal(bounds_stream_cap(&p), 11000);
	/* Too large to count: no cap rather than a wrapped one. */
	p.nbuf = GB_MAX_NBUF;
	p.buflen = GB_MAX_BUFLEN;
	assert_true(bounds_stream_cap(&p) == 0 ||
	    bounds_stream_cap(&p) > GB_MAX_NBUF);
	assert_int_equal(bounds_total_cap(&l, &p), 0);
	l.max_bytes = 1000000;
	p.streams = 3;
	p.buflen = 1000;
	assert_int_equal(bounds_total_cap(&l, &p), 1003000);
}

/*
 * -u toward the listener under --max-rate: the cap a running test gets,
 * and where a sender is over it (1.1 x the rate so far plus half a
 * second of it), with the reason.
 */
static void
test_rate_in_test(void **state)
{
	struct gb_bounds l;
	struct gb_params p;
	char why[200] = "";

	(void)state;
	setup(&l, &p);
	l.max_rate = 12500000;			/* 100 Mbit/s */
	assert_int_equal(bounds_rate_cap(&l, &p), 0);	/* TCP */
	p.udp = 1;
	assert_int_equal(bounds_rate_cap(&l, &p), 12500000);
	p.direction = GB_DIR_CLIENT_RECEIVES;	/* it paces itself */
	assert_int_equal(bounds_rate_cap(&l, &p), 0);
	l.max_rate = 0;
	p.direction = GB_DIR_CLIENT_SENDS;
	assert_int_equal(bounds_rate_cap(&l, &p), 0);

	/* No cap: nothing is over it. */
	assert_int_equal(bounds_rate_over(0, UINT64_MAX, 1, why,
	    sizeof(why)), 0);
	/* At 1 s: 12.5 MB x 1.1 + 6.25 MB = 20,000,000 bytes allowed. */
	assert_int_equal(bounds_rate_over(12500000, 20000000, 1000, why,
	    sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(bounds_rate_over(12500000, 20000001, 1000, why,
	    sizeof(why)), 1);
	assert_non_null(strstr(why, "in 1.00 s"));
	assert_non_null(strstr(why, "--max-rate of 100 Mbit/s: stopped"));
	/* The first check (250 ms): the half-second burst and 1.1 x. */
	assert_int_equal(bounds_rate_over(12500000, 9687500, 250, why,
	    sizeof(why)), 0);
	assert_int_equal(bounds_rate_over(12500000, 9687501, 250, why,
	    sizeof(why)), 1);
	/* A sender exactly at the cap for an hour is never over it. */
	assert_int_equal(bounds_rate_over(12500000, UINT64_C(45000000000),
	    3600000, why, sizeof(why)), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_crr_streams),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_sockbuf_of_the_listener),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_deadline_and_caps),
		cmocka_unit_test(test_rate_in_test),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
