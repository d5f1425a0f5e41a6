/*
 * test_rrslots.c: -u --rr's requests in flight (rrslots.c): which seq
 * each slot takes; an answer in time, after its timeout, twice, to a
 * request never sent; the expiry at its deadline exactly, and its lazy
 * scan; and, over a long random run, requests = answered + lost + in
 * flight at every step with every answered latency under the timeout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "data/rrslots.h"

/* The books balance: every request is answered, lost or in flight. */
static void
assert_books(const struct rrslots *s)
{
	assert_int_equal(s->requests, s->answered + s->lost + s->inflight);
	assert_int_equal(s->inflight + s->nfree, s->n);
}

static void
test_take(void **state)
{
	struct rrslots *s = rrslots_new(4, 100);
	uint64_t seq, i;

	(void)state;
	assert_non_null(s);
	for (i = 0; i < 4; i++) {
		assert_int_equal(rrslots_take(s, 0, &seq), 0);
		assert_int_equal(seq, i);	/* slot i's first is i */
	}
	assert_int_equal(rrslots_take(s, 0, &seq), -1);	/* all in flight */
	assert_int_equal(s->requests, 4);
	assert_int_equal(s->inflight, 4);
	assert_books(s);
	rrslots_free(s);
	assert_null(rrslots_new(0, 100));
}

static void
test_answer(void **state)
{
	struct rrslots *s = rrslots_new(4, 100);
	uint64_t seq, lat = 0, i;

	(void)state;
	for (i = 0; i < 4; i++)
		rrslots_take(s, 1000, &seq);
	assert_int_equal(rrslots_answer(s, 2, 1010, &lat), RRSLOTS_ANSWERED);
	assert_int_equal(lat, 10);
	assert_int_equal(rrslots_take(s, 1020, &seq), 0);
	assert_int_equal(seq, 6);	/* slot 2's next: 2 + 4 */
	assert_int_equal(rrslots_answer(s, 6, 1119, &lat), RRSLOTS_ANSWERED);
	assert_int_equal(lat, 99);
	/* Slot 2's earlier seqs again: late (a duplicate looks the same). */
	assert_int_equal(rrslots_answer(s, 2, 1120, &lat), RRSLOTS_LATE);
	assert_int_equal(rrslots_answer(s, 6, 1120, &lat), RRSLOTS_LATE);
	/* Seqs never sent: slot 2's 10, slot 1's 5; beyond any slot. */
	assert_int_equal(rrslots_answer(s, 10, 1120, &lat), RRSLOTS_STRAY);
	assert_int_equal(rrslots_answer(s, 5, 1120, &lat), RRSLOTS_STRAY);
	assert_int_equal(rrslots_answer(s, UINT64_MAX, 1120, &lat),
	    RRSLOTS_STRAY);
	assert_int_equal(s->answered, 2);
	assert_int_equal(s->late, 2);
	assert_int_equal(s->stray, 3);
	assert_int_equal(s->lost, 0);
	assert_books(s);
	rrslots_free(s);
}

/* An unused slot's seq (its first, never sent) is a stray too. */
static void
test_unused(void **state)
{
	struct rrslots *s = rrslots_new(8, 100);
	uint64_t seq, lat;

	(void)state;
	rrslots_take(s, 0, &seq);
	assert_int_equal(rrslots_answer(s, 3, 1, &lat), RRSLOTS_STRAY);
	assert_int_equal(rrslots_answer(s, 0, 1, &lat), RRSLOTS_ANSWERED);
	rrslots_free(s);
}

static void
test_expire(void **state)
{
	struct rrslots *s = rrslots_new(4, 100);
	uint64_t seq, lat, i;

	(void)state;
	for (i = 0; i < 4; i++)
		rrslots_take(s, 0, &seq);
	assert_int_equal(rrslots_expire(s, 99), 0);
	assert_int_equal(rrslots_expire(s, 100), 4);	/* at the deadline */
	assert_int_equal(s->lost, 4);
	assert_int_equal(s->inflight, 0);
	assert_books(s);
	for (i = 0; i < 4; i++)	/* their answers, come after: late */
		assert_int_equal(rrslots_answer(s, i, 101, &lat),
		    RRSLOTS_LATE);
	assert_int_equal(s->late, 4);
	assert_int_equal(s->answered, 0);
	/* The slots take new requests, with new seqs: the last freed first. */
	assert_int_equal(rrslots_take(s, 200, &seq), 0);
	assert_int_equal(seq, 7);
	assert_int_equal(rrslots_expire(s, 299), 0);
	assert_int_equal(rrslots_answer(s, 7, 299, &lat), RRSLOTS_ANSWERED);
	assert_int_equal(rrslots_expire(s, 10000), 0);
	assert_books(s);
	rrslots_free(s);
}

/* An answer over the timeout before any expiry looked: lost and late. */
static void
test_over_unexpired(void **state)
{
	struct rrslots *s = rrslots_new(2, 100);
	uint64_t seq, lat = 0;

	(void)state;
	rrslots_take(s, 0, &seq);
	assert_int_equal(rrslots_answer(s, 0, 100, &lat), RRSLOTS_LATE);
	assert_int_equal(s->lost, 1);
	assert_int_equal(s->late, 1);
	assert_int_equal(rrslots_expire(s, 1000), 0);	/* not twice */
	assert_int_equal(s->lost, 1);
	assert_books(s);
	rrslots_free(s);
}

/* A freed slot leaves the known deadline early: a scan that finds none. */
static void
test_lazy(void **state)
{
	struct rrslots *s = rrslots_new(2, 100);
	uint64_t a, b, lat;

	(void)state;
	rrslots_take(s, 0, &a);
	rrslots_answer(s, a, 10, &lat);
	rrslots_take(s, 50, &b);
	assert_int_equal(s->next_expiry, 100);
	assert_int_equal(rrslots_expire(s, 120), 0);
	assert_int_equal(s->next_expiry, 150);
	assert_int_equal(rrslots_expire(s, 149), 0);
	assert_int_equal(rrslots_expire(s, 150), 1);
	assert_int_equal(s->next_expiry, UINT64_MAX);
	assert_books(s);
	rrslots_free(s);
}

/* A random run: the books balance after every step. */
static void
test_random(void **state)
{
	struct rrslots *s = rrslots_new(16, 1000);
	uint64_t x = 12345, now = 0, seq, lat, sent = 0;
	unsigned i;
	int rc;

	(void)state;
	for (i = 0; i < 200000; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		now += (x >> 33) % 50;
		switch ((x >> 20) % 4) {
		case 0:
			if (rrslots_take(s, now, &seq) == 0)
				sent = seq + 1 > sent ? seq + 1 : sent;
			break;
		case 1:
		case 2:	/* an answer to a recent seq, maybe never sent */
			seq = sent > 0 ? sent - 1 - (x >> 40) % (sent < 40 ?
			    sent : 40) : 0;
			rc = rrslots_answer(s, seq, now, &lat);
			if (rc == RRSLOTS_ANSWERED)
				assert_true(lat < 1000);
			break;
		default:
			rrslots_expire(s, now);
			break;
		}
		assert_books(s);
	}
	assert_true(s->answered > 1000 && s->lost > 100 && s->late > 100);
	rrslots_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_unused),
		cmocka_unit_test(test_expire),
		cmocka_unit_test(test_over_unexpired),
		cmocka_unit_test(test_lazy),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
