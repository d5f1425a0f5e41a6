/*
 * test_srccap.c: pending connections per source (srccap.c).  Sources are
 * IPv4 addresses and IPv6 /64s (v4-mapped addresses count as IPv4); a
 * source at its cap gives way itself; a full table makes the biggest
 * holder give way, so a newcomer always gets in; the biggest holder is
 * named when one must go whatever its source; counts go back to zero.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "wire/srccap.h"

static struct srccap_key
key4(const char *a)
{
	struct sockaddr_in sin;
	struct srccap_key k;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, a, &sin.sin_addr), 1);
	assert_int_equal(srccap_key((struct sockaddr *)&sin, &k), 0);
	return k;
}

static struct srccap_key
key6(const char *a)
{
	struct sockaddr_in6 sin6;
	struct srccap_key k;

	memset(&sin6, 0, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, a, &sin6.sin6_addr), 1);
	assert_int_equal(srccap_key((struct sockaddr *)&sin6, &k), 0);
	return k;
}

static void
test_keys(void **state)
{
	struct srccap_key a, b;
	struct sockaddr sa;
	char buf[64];

	(void)state;
	a = key4("192.0.2.7");
	b = key6("::ffff:192.0.2.7");
	assert_true(srccap_key_equal(&a, &b));
	assert_string_equal(srccap_key_text(&a, buf, sizeof(buf)),
	    "192.0.2.7");
	b = key4("192.0.2.8");
	assert_false(srccap_key_equal(&a, &b));
	/* One /64: the same source, whatever the interface id. */
	a = key6("2001:db8:1:2::1");
	b = key6("2001:db8:1:2:ffff:eeee:dddd:cccc");
	assert_true(srccap_key_equal(&a, &b));
	assert_string_equal(srccap_key_text(&a, buf, sizeof(buf)),
	    "2001:db8:1:2::/64");
	b = key6("2001:db8:1:3::1");
	assert_false(srccap_key_equal(&a, &b));
	memset(&sa, 0, sizeof(sa));
	sa.sa_family = AF_UNIX;
	assert_int_equal(srccap_key(&sa, &a), -1);
}

static void
test_per_source(void **state)
{
	struct srccap c;
	struct srccap_key a = key4("192.0.2.1"), b = key4("192.0.2.2"), v;
	unsigned i;

	(void)state;
	assert_int_equal(srccap_init(&c, 256, 16), 0);
	for (i = 0; i < 16; i++) {
		assert_int_equal(srccap_verdict(&c, &a, &v), SRCCAP_ADMIT);
		assert_int_equal(srccap_add(&c, &a), 0);
	}
	assert_int_equal(srccap_count(&c, &a), 16);
	/* The 17th: the source drops its own oldest first. */
	assert_int_equal(srccap_verdict(&c, &a, &v), SRCCAP_DROP_SAME);
	assert_true(srccap_key_equal(&v, &a));
	assert_int_equal(srccap_add(&c, &a), -1);
	/* Another source is not touched by it. */
	assert_int_equal(srccap_verdict(&c, &b, &v), SRCCAP_ADMIT);
	assert_int_equal(srccap_add(&c, &b), 0);
	srccap_del(&c, &a);
	assert_int_equal(srccap_verdict(&c, &a, &v), SRCCAP_ADMIT);
	srccap_free(&c);
}

static void
test_full_table(void **state)
{
	struct srccap c;
	struct srccap_key k[5], v, fresh = key4("198.51.100.9");
	char a[32];
	unsigned i, j;

	(void)state;
	assert_int_equal(srccap_init(&c, 10, 4), 0);
	/* 4 + 3 + 2 + 1 = 10 from four sources: full. */
	for (i = 0; i < 4; i++) {
		snprintf(a, sizeof(a), "198.51.100.%u", i + 1);
		k[i] = key4(a);
		for (j = 0; j < 4 - i; j++)
			assert_int_equal(srccap_add(&c, &k[i]), 0);
	}
	assert_int_equal(c.n, 10);
	/* A newcomer: the biggest holder gives way. */
	assert_int_equal(srccap_verdict(&c, &fresh, &v), SRCCAP_DROP_OTHER);
	assert_true(srccap_key_equal(&v, &k[0]));
	srccap_del(&c, &v);
	assert_int_equal(srccap_verdict(&c, &fresh, &v), SRCCAP_ADMIT);
	assert_int_equal(srccap_add(&c, &fresh), 0);
	/* Full again, 3 3 2 1 1: a holder of 3 asks, it ties: itself. */
	assert_int_equal(srccap_verdict(&c, &k[1], &v), SRCCAP_DROP_SAME);
	assert_true(srccap_key_equal(&v, &k[1]));
	/* A holder of 1 asks: a holder of 3 gives way. */
	assert_int_equal(srccap_verdict(&c, &k[3], &v), SRCCAP_DROP_OTHER);
	assert_true(srccap_key_equal(&v, &k[0]) ||
	    srccap_key_equal(&v, &k[1]));
	srccap_free(&c);
}

static void
test_slots_reused(void **state)
{
	struct srccap c;
	struct srccap_key k, v;
	char a[32];
	unsigned i, round;

	(void)state;
	assert_int_equal(srccap_init(&c, 8, 2), 0);
	/* Many sources over time in a table of 8: freed slots are reused. */
	for (round = 0; round < 100; round++) {
		for (i = 0; i < 8; i++) {
			snprintf(a, sizeof(a), "10.%u.0.%u", round, i);
			k = key4(a);
			assert_int_equal(srccap_verdict(&c, &k, &v),
			    SRCCAP_ADMIT);
			assert_int_equal(srccap_add(&c, &k), 0);
		}
		assert_int_equal(c.n, 8);
		for (i = 0; i < 8; i++) {
			snprintf(a, sizeof(a), "10.%u.0.%u", round, i);
			k = key4(a);
			srccap_del(&c, &k);
			assert_int_equal(srccap_count(&c, &k), 0);
		}
		assert_int_equal(c.n, 0);
	}
	/* Deleting what is not there changes nothing. */
	srccap_del(&c, &k);
	assert_int_equal(c.n, 0);
	srccap_free(&c);
}

static void
test_biggest(void **state)
{
	struct srccap c;
	struct srccap_key a = key4("192.0.2.1"), b = key6("2001:db8::1"), v;

	(void)state;
	assert_int_equal(srccap_init(&c, 8, 8), 0);
	assert_int_equal(srccap_biggest(&c, &v), -1);
	assert_int_equal(srccap_add(&c, &a), 0);
	assert_int_equal(srccap_biggest(&c, &v), 0);
	assert_true(srccap_key_equal(&v, &a));
	assert_int_equal(srccap_add(&c, &b), 0);
	assert_int_equal(srccap_add(&c, &b), 0);
	assert_int_equal(srccap_biggest(&c, &v), 0);
	assert_true(srccap_key_equal(&v, &b));
	srccap_del(&c, &b);
	srccap_del(&c, &b);
	srccap_del(&c, &a);
	assert_int_equal(srccap_biggest(&c, &v), -1);
	srccap_free(&c);
}

static void
test_caps_of_zero(void **state)
{
	struct srccap c;
	struct srccap_key k = key4("192.0.2.1"), v;

	(void)state;
	assert_int_equal(srccap_init(&c, 0, 0), 0);
	assert_int_equal(srccap_verdict(&c, &k, &v), SRCCAP_ADMIT);
	assert_int_equal(srccap_add(&c, &k), 0);
	assert_int_equal(srccap_verdict(&c, &k, &v), SRCCAP_DROP_SAME);
	srccap_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_per_source),
		cmocka_unit_test(test_full_table),
		cmocka_unit_test(test_slots_reused),
		cmocka_unit_test(test_biggest),
		cmocka_unit_test(test_caps_of_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
