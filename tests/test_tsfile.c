/*
 * test_tsfile.c: the --timestamps stream (out/tsfile.h).  A fixed clock
 * makes the prefixes exact; what passes through must be the bytes
 * written, line by line, whatever the writes' sizes, and nothing may
 * wait for a newline that the next write brings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "out/tsfile.h"

/* 2026-12-02 07:30:00 UTC, then a second later each call. */
static int64_t clock_us = INT64_C(1796196600) * 1000000;

static int64_t
fake_now(void)
{
	int64_t t = clock_us;

	clock_us += 1000000;
	return t;
}

static int
setup_tz(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

/* Lines in many pieces: each prefix once, at the line's first byte. */
static void
test_prefix_each_line(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *under, *f;

	(void)state;
	clock_us = INT64_C(1796196600) * 1000000;
	assert_non_null(under = open_memstream(&buf, &len));
	assert_non_null(f = tsfile_open(under, "%H:%M:%S", fake_now));
	fputs("gigebench-t: a", f);
	fputs("b\ngigebench-t: ", f);
	fprintf(f, "%d\n\n", 42);
	fputs("last, no newline", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fclose(under), 0);
	assert_string_equal(buf, "07:30:00 gigebench-t: ab\n"
	    "07:30:01 gigebench-t: 42\n"
	    "07:30:02 \n"
	    "07:30:03 last, no newline");
	free(buf);
}

/* The default format, and what is written is there before a newline. */
static void
test_default_and_flush(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *under, *f;

	(void)state;
	clock_us = INT64_C(1796196600) * 1000000;
	assert_non_null(under = open_memstream(&buf, &len));
	assert_non_null(f = tsfile_open(under, NULL, fake_now));
	fputs("half a line", f);
	fflush(f);
	/* open_memstream updates buf at each flush of under. */
	assert_string_equal(buf, "2026-12-02 07:30:00 half a line");
	fputs(", done\n", f);
	fflush(f);
	assert_string_equal(buf, "2026-12-02 07:30:00 half a line, done\n");
	assert_int_equal(fclose(f), 0);
	/* under is not closed by it: still writable. */
	assert_true(fputs("after\n", under) >= 0);
	assert_int_equal(fclose(under), 0);
	assert_string_equal(buf, "2026-12-02 07:30:00 half a line, done\n"
	    "after\n");
	free(buf);
}

/* The user's own format, with text of its own. */
static void
test_user_format(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *under, *f;

	(void)state;
	assert_non_null(under = open_memstream(&buf, &len));
	clock_us = INT64_C(1796196600) * 1000000 + 999999;
	assert_non_null(f = tsfile_open(under, "[%s] %%", fake_now));
	fputs("x\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fclose(under), 0);
	/* %s: the seconds since the epoch, the microseconds dropped. */
	assert_string_equal(buf, "[1796196600] % x\n");
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix_each_line),
		cmocka_unit_test(test_default_and_flush),
		cmocka_unit_test(test_user_format),
	};

	return cmocka_run_group_tests(tests, setup_tz, NULL);
}
