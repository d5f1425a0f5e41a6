/*
 * test_seqstat.c: seqstat.c against fixture sequences: in order, a gap,
 * late arrivals, duplicates, a seq beyond the duplicate window, the ring
 * wrapping, loss against the sender's count and without it, and the RFC
 * 3550 jitter of a series worked out by hand.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "base/seqstat.h"

#define MS		UINT64_C(1000000)
#define PAYLOAD		1000u

/* Feed seqs in arrival order, each sent at seq ms and arriving 1 ms later. */
static void
feed(struct seqstat *st, const uint64_t *seqs, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		seqstat_add(st, seqs[i], seqs[i] * MS, seqs[i] * MS + MS,
		    PAYLOAD);
}

#define FEED(st, ...) do {						\
	static const uint64_t s_[] = { __VA_ARGS__ };			\
	feed((st), s_, sizeof(s_) / sizeof(s_[0]));			\
} while (0)

static void
assert_counts(const struct seqstat *st, uint64_t received, uint64_t dup,
    uint64_t ooo, uint64_t max_seq_plus1)
{
	assert_true(st->received == received);
	assert_true(st->bytes == received * PAYLOAD);
	assert_true(st->dup == dup);
	assert_true(st->ooo == ooo);
	assert_true(st->max_seq_plus1 == max_seq_plus1);
}

static void
test_empty(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	assert_counts(&st, 0, 0, 0, 0);
	assert_true(st.jitter_ns == 0.0);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 0);
	assert_true(seqstat_lost(&st, 0) == 0);	/* sent nothing */
	assert_true(seqstat_lost(&st, 3) == 3);	/* all three lost */
}

static void
test_in_order(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	FEED(&st, 0, 1, 2, 3, 4);
	assert_counts(&st, 5, 0, 0, 5);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 0);
	assert_true(seqstat_lost(&st, 5) == 0);
	/* the last three lost: only the sender's count can tell */
	assert_true(seqstat_lost(&st, 8) == 3);
	/* constant delay: no jitter */
	assert_true(st.jitter_ns == 0.0);
	assert_true(st.last_send_ns == 4 * MS);
	assert_true(st.last_arrival_ns == 5 * MS);
}

static void
test_gap(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	FEED(&st, 0, 1, 2, 5, 6);
	assert_counts(&st, 5, 0, 0, 7);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 2);
	assert_true(seqstat_lost(&st, 10) == 5);
	/* a count below received (a miscount) is never below 0 */
	assert_true(seqstat_lost(&st, 4) == 0);
}

static void
test_late(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	FEED(&st, 0, 2, 1, 3);
	assert_counts(&st, 4, 0, 1, 4);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 0);
	assert_true(seqstat_lost(&st, 4) == 0);
	/* the late one again is a duplicate, not a second late arrival */
	FEED(&st, 1);
	assert_counts(&st, 4, 1, 1, 4);
	/* the gap at 4 is lost until 4 comes */
	FEED(&st, 5, 6);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 1);
	FEED(&st, 4);
	assert_counts(&st, 7, 1, 2, 7);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 0);
}

static void
test_dup(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	FEED(&st, 0, 1, 1, 2, 2, 2);
	assert_counts(&st, 3, 3, 0, 3);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 0);
	assert_true(seqstat_lost(&st, 3) == 0);
	/* a duplicate of the first datagram, before anything else */
	seqstat_init(&st);
	FEED(&st, 7, 7);
	assert_counts(&st, 1, 1, 0, 8);
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 7);
}

static void
test_beyond_window(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	FEED(&st, 0, 1, 2);
	/* a jump of more than the window clears it at once */
	FEED(&st, 2 + SEQSTAT_WINDOW + 10);
	assert_counts(&st, 4, 0, 0, 3 + SEQSTAT_WINDOW + 10);
	/*
	 * 1 is far behind the highest: a late arrival, counted as received,
	 * though it is in truth a duplicate (the window cannot tell).
	 */
	FEED(&st, 1);
	assert_counts(&st, 5, 0, 1, 3 + SEQSTAT_WINDOW + 10);
	/* the window's last seq and the first one outside it */
	FEED(&st, 3 + 10);
	assert_counts(&st, 6, 0, 2, 3 + SEQSTAT_WINDOW + 10);
	FEED(&st, 3 + 10);
	assert_counts(&st, 6, 1, 2, 3 + SEQSTAT_WINDOW + 10);
	FEED(&st, 2 + 10, 2 + 10);
	assert_counts(&st, 8, 1, 4, 3 + SEQSTAT_WINDOW + 10);
}

static void
test_wrap(void **state)
{
	struct seqstat	st;
	uint64_t	i;

	(void)state;
	seqstat_init(&st);
	for (i = 0; i < 10000; i++)
		seqstat_add(&st, i, i * MS, i * MS + MS, PAYLOAD);
	assert_counts(&st, 10000, 0, 0, 10000);
	/* the ring went round twice: 9990 is in it, 100 long gone */
	FEED(&st, 9990);
	assert_counts(&st, 10000, 1, 0, 10000);
	FEED(&st, 100);
	assert_counts(&st, 10001, 1, 1, 10000);
	/* the window's edges: 10000 - 4096 is in, one below is out */
	FEED(&st, 10000 - SEQSTAT_WINDOW);
	assert_counts(&st, 10001, 2, 1, 10000);
	FEED(&st, 10000 - SEQSTAT_WINDOW - 1);
	assert_counts(&st, 10002, 2, 2, 10000);
	/* seqs lost over a wrap: their old slots do not read as seen */
	FEED(&st, 10003);
	FEED(&st, 10001);
	FEED(&st, 10002);
	assert_counts(&st, 10005, 2, 4, 10004);
	/*
	 * 10000 is missing, but received holds the two duplicates from
	 * beyond the window (100, 5903): against the highest seq, nothing
	 * is lost; against the sender's count, the one is.
	 */
	assert_true(seqstat_lost(&st, SEQSTAT_SENT_UNKNOWN) == 0);
	assert_true(seqstat_lost(&st, 10004 + 2) == 1);
	FEED(&st, 10000);
	assert_counts(&st, 10006, 2, 5, 10004);
}

/*
 * Sent every 1 ms by the sender's clock (from 1 s), arriving with delays
 * 0, 1, 0, 2 ms by ours (from 5 s: the clocks need no sync).
 *	i  S_i   R_i   D = (R_i - R_i-1) - (S_i - S_i-1)    J += (|D| - J) / 16
 *	0  0 ms  0 ms  -                                    0
 *	1  1     2     (2 - 0) - (1 - 0) =  1 ms = 1e6 ns   1e6 / 16 = 62500
 *	2  2     2     (2 - 2) - (2 - 1) = -1 ms            62500 + (1e6 -
 *	                                                    62500) / 16 =
 *	                                                    121093.75
 *	3  3     5     (5 - 2) - (3 - 2) =  2 ms            121093.75 + (2e6 -
 *	                                                    121093.75) / 16 =
 *	                                                    238525.390625
 */
static void
test_jitter(void **state)
{
	static const uint64_t	delay_ms[] = { 0, 1, 0, 2 };
	static const double	want[] = { 0.0, 62500.0, 121093.75,
				    238525.390625 };
	const uint64_t		s0 = 1000 * MS, r0 = 5000 * MS;
	struct seqstat		st;
	uint64_t		i;

	(void)state;
	seqstat_init(&st);
	for (i = 0; i < 4; i++) {
		seqstat_add(&st, i, s0 + i * MS, r0 + (i + delay_ms[i]) * MS,
		    PAYLOAD);
		if (want[i] == 0.0)
			assert_true(st.jitter_ns == 0.0);
		else
			assert_true(fabs(st.jitter_ns - want[i]) <=
			    1e-9 * want[i]);
	}
	/* a duplicate changes neither the jitter nor the last times */
	seqstat_add(&st, 2, s0 + 2 * MS, r0 + 100 * MS, PAYLOAD);
	assert_true(fabs(st.jitter_ns - want[3]) <= 1e-9 * want[3]);
	assert_true(st.last_send_ns == s0 + 3 * MS);
	assert_true(st.last_arrival_ns == r0 + 5 * MS);
}

/*
 * A late arrival's send time is below the last one's: D stays signed.
 * Seq 1 sent at 1 ms arrives at 10 ms after seq 2 (sent 2 ms, arrived
 * 3 ms): D = (10 - 3) - (1 - 2) = 8 ms, J = 8e6 / 16 = 500000 (the first
 * two arrivals keep a constant 1 ms delay, J 0).
 */
static void
test_jitter_late(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	seqstat_add(&st, 0, 0, 1 * MS, PAYLOAD);
	seqstat_add(&st, 2, 2 * MS, 3 * MS, PAYLOAD);
	assert_true(st.jitter_ns == 0.0);
	seqstat_add(&st, 1, 1 * MS, 10 * MS, PAYLOAD);
	assert_true(fabs(st.jitter_ns - 500000.0) <= 1e-9 * 500000.0);
	assert_true(st.ooo == 1);
}

static void
test_bytes(void **state)
{
	struct seqstat	st;

	(void)state;
	seqstat_init(&st);
	seqstat_add(&st, 0, 0, 0, 64);
	seqstat_add(&st, 1, 0, 0, 1472);
	seqstat_add(&st, 1, 0, 0, 1472);		/* dup: not counted */
	seqstat_add(&st, 3, 0, 0, UINT32_MAX);
	assert_true(st.bytes == 64 + 1472 + (uint64_t)UINT32_MAX);
	/* a seq no sender reaches does not wrap max_seq_plus1 to 0 */
	seqstat_add(&st, UINT64_MAX, 0, 0, 1);
	assert_true(st.max_seq_plus1 == 4);
	assert_true(st.received == 4 && st.ooo == 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_gap),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_dup),
		cmocka_unit_test(test_beyond_window),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_jitter_late),
		cmocka_unit_test(test_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
