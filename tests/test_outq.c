/*
 * test_outq.c: outq.c against a pipe that nobody reads (its buffer cut
 * to one page so that it fills at once): the writer never blocks (an
 * alarm would end the test), droppable lines are dropped and counted,
 * the others survive until the reader drains them, in order, with one
 * line telling what was dropped; the hard cap; the flush at exit; the
 * inherited descriptor's flags left alone; a queue without a loop,
 * attached to one later; a regular file written at once; a reader gone
 * (EPIPE) ends the queue without a signal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "out/outq.h"

#define CAP	4096

struct fixture {
	struct event_base	*base;
	int			 p[2];	/* p[1] is the queue's, p[0] unread */
	struct outq		*q;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (f == NULL || pipe(f->p) == -1)
		return -1;
	fcntl(f->p[1], F_SETPIPE_SZ, 4096);
	if ((f->base = event_base_new()) == NULL)
		return -1;
	if ((f->q = outq_new(f->base, f->p[1], CAP)) == NULL)
		return -1;
	alarm(20);	/* a blocked write ends the test */
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	alarm(0);
	outq_free(f->q);
	event_base_free(f->base);
	if (f->p[0] != -1)
		close(f->p[0]);
	close(f->p[1]);
	free(f);
	return 0;
}

/* Reads the pipe while the loop drains the queue; returns the text. */
static char *
drain(struct fixture *f)
{
	size_t len = 0, cap = 1 << 20;
	char *all = malloc(cap + 1);
	ssize_t n;
	int idle = 0;

	assert_non_null(all);
	fcntl(f->p[0], F_SETFL, O_NONBLOCK);
	while (idle < 3) {
		event_base_loop(f->base, EVLOOP_NONBLOCK);
		n = read(f->p[0], all + len, cap - len);
		if (n > 0) {
			len += (size_t)n;
			idle = 0;
		} else if (outq_queued_bytes(f->q) == 0) {
			idle++;
		}
		assert_true(len < cap);
	}
	all[len] = '\0';
	return all;
}

static size_t
count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

static void
test_never_blocks_and_counts(void **state)
{
	struct fixture *f = *state;
	int i, kept = 0;

	for (i = 0; i < 10000; i++)
		kept += outq_printf(f->q, 1, "interval %05d\n", i);
	assert_true(kept > 0);
	assert_true(kept < 10000);
	assert_int_equal(outq_dropped(f->q), (size_t)(10000 - kept));
	assert_true(outq_queued_bytes(f->q) <= CAP);
}

static void
test_reports_survive_in_order(void **state)
{
	struct fixture *f = *state;
	char *all, line[160];
	const char *at, *prev;
	size_t dropped;
	int i;

	for (i = 0; i < 2000; i++)
		outq_printf(f->q, 1, "interval %05d\n", i);
	dropped = outq_dropped(f->q);
	assert_true(dropped > 0);
	for (i = 0; i < 20; i++)
		assert_int_equal(outq_printf(f->q, 0, "report %02d\n", i), 1);
	assert_int_equal(outq_dropped(f->q), dropped);
	all = drain(f);
	/* Every report, in order, after every interval line kept. */
	prev = strstr(all, "interval 00000\n");
	assert_non_null(prev);
	for (i = 0; i < 20; i++) {
		snprintf(line, sizeof(line), "report %02d\n", i);
		at = strstr(all, line);
		assert_non_null(at);
		assert_true(at > prev);
		prev = at;
	}
	/* The drop is told once, before the first line kept after it. */
	snprintf(line, sizeof(line), "gigebench: %zu interval lines dropped: "
	    "descriptor %d is not being read\n", dropped, f->p[1]);
	assert_int_equal(count(all, line), 1);
	assert_true(strstr(all, line) < strstr(all, "report 00\n"));
	/* Less the one in the notice. */
	assert_int_equal(count(all, "interval ") - 1, 2000 - dropped);
	free(all);
}

static void
test_order_of_interval_lines(void **state)
{
	struct fixture *f = *state;
	char *all, *s, *end;
	long last = -1, v;
	int i;

	for (i = 0; i < 3000; i++)
		outq_printf(f->q, 1, "interval %05d\n", i);
	all = drain(f);
	for (s = all; (s = strstr(s, "interval ")) != NULL; s = end) {
		v = strtol(s + 9, &end, 10);
		assert_true(v > last);
		last = v;
	}
	free(all);
}

static void
test_hard_cap(void **state)
{
	struct fixture *f = *state;
	char big[1024];
	int i, kept = 0;

	memset(big, 'r', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\n';
	for (i = 0; i < 64; i++)
		kept += outq_write(f->q, 0, big, sizeof(big));
	/* The pipe's page plus 4 x CAP, no more. */
	assert_true(kept < 64);
	assert_true(outq_queued_bytes(f->q) <= OUTQ_HARD_FACTOR * CAP);
	assert_int_equal(outq_dropped(f->q), (size_t)(64 - kept));
}

static void
test_flush_blocking_times_out(void **state)
{
	struct fixture *f = *state;
	int i;

	for (i = 0; i < 2000; i++)
		outq_printf(f->q, 0, "report %05d\n", i);
	assert_int_equal(outq_flush_blocking(f->q, 100), -1);
	assert_int_equal(outq_queued_bytes(f->q), 0);
}

static void
test_inherited_flags_untouched(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(fcntl(f->p[1], F_GETFL) & O_NONBLOCK, 0);
}

static void
test_reader_gone(void **state)
{
	struct fixture *f = *state;
	int i;

	close(f->p[0]);
	f->p[0] = -1;
	for (i = 0; i < 10; i++)
		outq_printf(f->q, 0, "report %d\n", i);
	assert_int_equal(outq_dropped(f->q), 10);
	assert_int_equal(outq_flush_blocking(f->q, 100), 0);
}

/* Without a loop, the queue drains when it is written to; attached
 * later, the loop drains it. */
static void
test_no_base_then_base(void **state)
{
	struct fixture *f = *state;
	struct outq *q;
	char buf[8192];
	int i;

	outq_free(f->q);
	f->q = q = outq_new(NULL, f->p[1], CAP);
	assert_non_null(q);
	for (i = 0; i < 2000; i++)
		outq_printf(q, 1, "interval %05d\n", i);
	assert_true(outq_dropped(q) > 0);
	assert_true(outq_queued_bytes(q) > 0);
	fcntl(f->p[0], F_SETFL, O_NONBLOCK);
	while (read(f->p[0], buf, sizeof(buf)) > 0)
		;
	/* The reader made room: this line is kept, and the queue moved. */
	assert_int_equal(outq_printf(q, 1, "interval again\n"), 1);
	assert_int_equal(outq_set_base(q, f->base), 0);
	free(drain(f));
	assert_int_equal(outq_queued_bytes(q), 0);
	assert_int_equal(outq_set_base(q, NULL), 0);
}

static void
test_regular_file_direct(void **state)
{
	struct event_base *base = event_base_new();
	FILE *tmp = tmpfile(), *s;
	struct outq *q;
	char buf[128] = "";

	(void)state;
	assert_non_null(base);
	assert_non_null(tmp);
	q = outq_new(base, fileno(tmp), CAP);
	assert_non_null(q);
	assert_int_equal(outq_printf(q, 1, "one %d\n", 1), 1);
	s = outq_stream(q, 0);
	assert_non_null(s);
	fprintf(s, "two %d\n", 2);
	fclose(s);
	assert_int_equal(pread(fileno(tmp), buf, sizeof(buf) - 1, 0), 12);
	assert_string_equal(buf, "one 1\ntwo 2\n");
	outq_free(q);
	fclose(tmp);
	event_base_free(base);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_never_blocks_and_counts,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reports_survive_in_order,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_order_of_interval_lines,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flush_blocking_times_out,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_inherited_flags_untouched,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_gone, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_base_then_base, setup,
		    teardown),
		cmocka_unit_test(test_regular_file_direct),
	};

	signal(SIGPIPE, SIG_IGN);
	evthread_use_pthreads();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
