/*
 * test_units.c: units.c, table by table.  Sizes, seconds and plain numbers
 * are checked at their edges (min, max exactly, max + 1, 64-bit overflow)
 * and against every shape they must refuse; formatting and the -f rate
 * letters are checked against hand-computed values.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/units.h"

#define KB	(UINT64_C(1) << 10)
#define MB	(UINT64_C(1) << 20)
#define GB	(UINT64_C(1) << 30)

struct size_case {
	const char	*in;
	uint64_t	 min, max;
	int		 rv;		/* 0 or -1 */
	uint64_t	 want;		/* when rv == 0 */
	const char	*msg;		/* rv == -1: the whole message */
};

static const struct size_case size_cases[] = {
	{ "0", 0, 10, 0, 0, NULL },
	{ "1", 1, 64 * MB, 0, 1, NULL },
	{ "131072", 1, 64 * MB, 0, 131072, NULL },
	{ "010", 0, 100, 0, 10, NULL },
	{ "64K", 1, 64 * MB, 0, 64 * KB, NULL },
	{ "64k", 1, 64 * MB, 0, 64 * KB, NULL },
	{ "1M", 1, 64 * MB, 0, MB, NULL },
	{ "1m", 1, 64 * MB, 0, MB, NULL },
	{ "1G", 1, GB, 0, GB, NULL },
	{ "1g", 1, GB, 0, GB, NULL },
	{ "0K", 0, 1, 0, 0, NULL },
	/* max exactly, max + 1 */
	{ "64M", 1, 64 * MB, 0, 64 * MB, NULL },
	{ "67108864", 1, 64 * MB, 0, 64 * MB, NULL },
	{ "67108865", 1, 64 * MB, -1, 0,
	    "buffer length is too large (max 64M): 67108865" },
	{ "65537K", 1, 64 * MB, -1, 0,
	    "buffer length is too large (max 64M): 65537K" },
	{ "9G", 1, 64 * MB, -1, 0,
	    "buffer length is too large (max 64M): 9G" },
	/* min exactly, min - 1 */
	{ "1K", 1024, GB, 0, KB, NULL },
	{ "1023", 1024, GB, -1, 0,
	    "buffer length is too small (min 1K): 1023" },
	{ "0", 1, GB, -1, 0, "buffer length is too small (min 1): 0" },
	{ "-5", 1, GB, -1, 0, "buffer length is too small (min 1): -5" },
	{ "-0", 0, GB, -1, 0, NULL },		/* no sign, ever */
	/* the edge of 64 bits */
	{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX, NULL },
	{ "17179869183G", 0, UINT64_MAX, 0, UINT64_MAX - GB + 1, NULL },
	{ "18446744073709551616", 0, UINT64_MAX, -1, 0,
	    "buffer length is too large (max 18446744073709551615): "
	    "18446744073709551616" },
	{ "17179869184G", 0, UINT64_MAX, -1, 0,
	    "buffer length is too large (max 18446744073709551615): "
	    "17179869184G" },
	{ "99999999999G", 1, 64 * MB, -1, 0,
	    "buffer length is too large (max 64M): 99999999999G" },
	{ "99999999999999999999999999", 1, 64 * MB, -1, 0,
	    "buffer length is too large (max 64M): "
	    "99999999999999999999999999" },
	/* shapes that are refused */
	{ "", 1, GB, -1, 0, "buffer length is empty: \"\"" },
	{ "1e3", 1, GB, -1, 0,
	    "buffer length is not a size (like 1000, 64K, 1M, 1G): 1e3" },
	{ "12Q", 1, GB, -1, 0,
	    "buffer length is not a size (like 1000, 64K, 1M, 1G): 12Q" },
	{ "64KB", 1, GB, -1, 0, NULL },
	{ "64K ", 1, GB, -1, 0, NULL },
	{ " 64K", 1, GB, -1, 0, NULL },
	{ "+5", 1, GB, -1, 0, NULL },
	{ "0x10", 1, GB, -1, 0, NULL },
	{ "1.5M", 1, GB, -1, 0, NULL },
	{ "K", 1, GB, -1, 0, NULL },
	{ "-", 1, GB, -1, 0, NULL },
	{ "--5", 1, GB, -1, 0, NULL },
	{ "1T", 1, UINT64_MAX, -1, 0, NULL },
	{ "99999999999999999999999Q", 1, GB, -1, 0,
	    "buffer length is not a size (like 1000, 64K, 1M, 1G): "
	    "99999999999999999999999Q" },
};

struct seconds_case {
	const char	*in;
	uint32_t	 min_ms, max_ms;
	int		 rv;
	uint32_t	 want_ms;
	const char	*msg;
};

static const struct seconds_case seconds_cases[] = {
	{ "10", 100, 86400000, 0, 10000, NULL },
	{ "2.5", 100, 86400000, 0, 2500, NULL },
	{ "0.1", 100, 86400000, 0, 100, NULL },
	{ "0.100", 100, 86400000, 0, 100, NULL },
	{ "1.0005", 0, 86400000, 0, 1001, NULL },	/* rounds up */
	{ "1.0004999", 0, 86400000, 0, 1000, NULL },	/* rounds down */
	{ "0.9999", 0, 86400000, 0, 1000, NULL },
	{ "007", 0, 86400000, 0, 7000, NULL },
	{ "86400", 100, 86400000, 0, 86400000, NULL },
	{ "86400.001", 100, 86400000, -1, 0,
	    "test duration is out of range (0.1-86400): 86400.001" },
	{ "0.099", 100, 86400000, -1, 0,
	    "test duration is out of range (0.1-86400): 0.099" },
	{ "0.05", 100, 3600000, -1, 0,
	    "test duration is out of range (0.1-3600): 0.05" },
	{ "0", 100, 86400000, -1, 0, NULL },
	{ "-1", 100, 86400000, -1, 0,
	    "test duration is out of range (0.1-86400): -1" },
	{ "4294967.296", 0, UINT32_MAX, -1, 0, NULL },
	{ "4294967.295", 0, UINT32_MAX, 0, UINT32_MAX, NULL },
	{ "18446744073709551615", 0, UINT32_MAX, -1, 0, NULL },
	{ "99999999999999999999999.5", 0, UINT32_MAX, -1, 0, NULL },
	{ "1.25", 1250, 1250, 0, 1250, NULL },
	{ "", 100, 86400000, -1, 0, "test duration is empty: \"\"" },
	{ "1e3", 100, 86400000, -1, 0,
	    "test duration is not a number of seconds (like 10, 2.5): 1e3" },
	{ "ten", 100, 86400000, -1, 0, NULL },
	{ ".5", 100, 86400000, -1, 0, NULL },
	{ "5.", 100, 86400000, -1, 0, NULL },
	{ "1.2.3", 100, 86400000, -1, 0, NULL },
	{ "1,5", 100, 86400000, -1, 0, NULL },
	{ " 1", 100, 86400000, -1, 0, NULL },
	{ "1s", 100, 86400000, -1, 0, NULL },
	{ "inf", 100, 86400000, -1, 0, NULL },
	{ "nan", 100, 86400000, -1, 0, NULL },
};

struct uint_case {
	const char	*in;
	uint64_t	 min, max;
	int		 rv;
	uint64_t	 want;
	const char	*msg;
};

static const struct uint_case uint_cases[] = {
	{ "1", 1, 128, 0, 1, NULL },
	{ "128", 1, 128, 0, 128, NULL },
	{ "0", 1, 128, -1, 0,
	    "number of streams is out of range (1-128): 0" },
	{ "129", 1, 128, -1, 0,
	    "number of streams is out of range (1-128): 129" },
	{ "-1", 1, 128, -1, 0,
	    "number of streams is out of range (1-128): -1" },
	{ "", 1, 128, -1, 0, "number of streams is empty: \"\"" },
	{ "12x", 1, 128, -1, 0, "number of streams is not a number: 12x" },
	{ "1K", 1, 128, -1, 0, NULL },
	{ "+1", 1, 128, -1, 0, NULL },
	{ "1 ", 1, 128, -1, 0, NULL },
	{ "-", 1, 128, -1, 0, NULL },
	{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX, NULL },
	{ "18446744073709551616", 0, UINT64_MAX, -1, 0, NULL },
	{ "99999999999999999999999999", 1, 128, -1, 0, NULL },
};

static void
test_parse_size(void **state)
{
	char		 err[256];
	uint64_t	 v;
	size_t		 i;
	int		 rv;

	(void)state;
	for (i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]); i++) {
		const struct size_case *c = &size_cases[i];

		v = 12345;
		*err = '\0';
		rv = units_parse_size(c->in, c->min, c->max, "buffer length",
		    &v, err, sizeof(err));
		if (rv != c->rv)
			fail_msg("\"%s\": returned %d, want %d (%s)", c->in,
			    rv, c->rv, err);
		if (rv == 0 && v != c->want)
			fail_msg("\"%s\": %llu, want %llu", c->in,
			    (unsigned long long)v,
			    (unsigned long long)c->want);
		if (rv == -1 && v != 12345)
			fail_msg("\"%s\": output written on error", c->in);
		if (rv == -1 && c->msg != NULL && strcmp(err, c->msg) != 0)
			fail_msg("\"%s\": message \"%s\", want \"%s\"", c->in,
			    err, c->msg);
		if (rv == -1 && strstr(err, "buffer length") == NULL)
			fail_msg("\"%s\": message \"%s\"", c->in, err);
	}
}

static void
test_parse_seconds(void **state)
{
	char		 err[256];
	uint32_t	 ms;
	size_t		 i;
	int		 rv;

	(void)state;
	for (i = 0; i < sizeof(seconds_cases) / sizeof(seconds_cases[0]);
	    i++) {
		const struct seconds_case *c = &seconds_cases[i];

		ms = 12345;
		*err = '\0';
		rv = units_parse_seconds(c->in, c->min_ms, c->max_ms,
		    "test duration", &ms, err, sizeof(err));
		if (rv != c->rv)
			fail_msg("\"%s\": returned %d, want %d (%s)", c->in,
			    rv, c->rv, err);
		if (rv == 0 && ms != c->want_ms)
			fail_msg("\"%s\": %u ms, want %u", c->in, ms,
			    c->want_ms);
		if (rv == -1 && ms != 12345)
			fail_msg("\"%s\": output written on error", c->in);
		if (rv == -1 && c->msg != NULL && strcmp(err, c->msg) != 0)
			fail_msg("\"%s\": message \"%s\", want \"%s\"", c->in,
			    err, c->msg);
		if (rv == -1 && strstr(err, "test duration") == NULL)
			fail_msg("\"%s\": message \"%s\"", c->in, err);
	}
}

static void
test_parse_uint(void **state)
{
	char		 err[256];
	uint64_t	 v;
	size_t		 i;
	int		 rv;

	(void)state;
	for (i = 0; i < sizeof(uint_cases) / sizeof(uint_cases[0]); i++) {
		const struct uint_case *c = &uint_cases[i];

		v = 12345;
		*err = '\0';
		rv = units_parse_uint(c->in, c->min, c->max,
		    "number of streams", &v, err, sizeof(err));
		if (rv != c->rv)
			fail_msg("\"%s\": returned %d, want %d (%s)", c->in,
			    rv, c->rv, err);
		if (rv == 0 && v != c->want)
			fail_msg("\"%s\": %llu, want %llu", c->in,
			    (unsigned long long)v,
			    (unsigned long long)c->want);
		if (rv == -1 && v != 12345)
			fail_msg("\"%s\": output written on error", c->in);
		if (rv == -1 && c->msg != NULL && strcmp(err, c->msg) != 0)
			fail_msg("\"%s\": message \"%s\", want \"%s\"", c->in,
			    err, c->msg);
	}
}

/* A short or missing error buffer truncates, never overflows. */
static void
test_parse_small_err(void **state)
{
	char		 err[8];
	uint64_t	 v;
	uint32_t	 ms;

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_int_equal(units_parse_size("9G", 1, MB, "buffer length", &v,
	    err, sizeof(err)), -1);
	assert_string_equal(err, "buffer ");
	assert_int_equal(units_parse_size("9G", 1, MB, "buffer length", &v,
	    NULL, 0), -1);
	assert_int_equal(units_parse_seconds("x", 1, 2, "t", &ms, NULL, 0),
	    -1);
	assert_int_equal(units_parse_uint("x", 1, 2, "n", &v, NULL, 0), -1);
}

static void
test_format_size(void **state)
{
	static const struct {
		uint64_t	 bytes;
		const char	*want;
	} cases[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 1000, "1000" },
		{ 1023, "1023" },
		{ 1024, "1K" },
		{ 1536, "1536" },
		{ 65536, "64K" },
		{ 131072, "128K" },
		{ 768 * KB, "768K" },
		{ 1048576, "1M" },
		{ 1048576 + 1024, "1025K" },
		{ 64 * MB, "64M" },
		{ GB, "1G" },
		{ 3 * GB, "3G" },
		{ UINT64_C(1) << 40, "1024G" },
		{ UINT64_MAX - GB + 1, "17179869183G" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char	buf[32], tiny[3];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = units_format_size(cases[i].bytes, buf,
		    sizeof(buf));

		assert_ptr_equal(s, buf);
		assert_string_equal(s, cases[i].want);
	}
	assert_string_equal(units_format_size(65536, tiny, sizeof(tiny)),
	    "64");
}

/* Every size that formats can be read back. */
static void
test_size_round_trip(void **state)
{
	char		buf[32];
	uint64_t	v, back;
	unsigned	shift;

	(void)state;
	for (shift = 0; shift < 64; shift++) {
		v = UINT64_C(1) << shift;
		units_format_size(v, buf, sizeof(buf));
		assert_int_equal(units_parse_size(buf, 0, UINT64_MAX, "x",
		    &back, NULL, 0), 0);
		assert_true(back == v);
		units_format_size(v + 1, buf, sizeof(buf));
		assert_int_equal(units_parse_size(buf, 0, UINT64_MAX, "x",
		    &back, NULL, 0), 0);
		assert_true(back == v + 1);
	}
}

static void
test_rate(void **state)
{
	static const struct {
		double		 bits;
		char		 letter;
		double		 want;
		const char	*label;
	} cases[] = {
		{ 1e9, 'k', 1e6, "kbps" },
		{ 1e9, 'm', 1000.0, "Mbps" },
		{ 1e9, 'g', 1.0, "Gbps" },
		{ 8.0 * 1024, 'K', 1.0, "KB/sec" },
		{ 8.0 * 1024 * 1024, 'M', 1.0, "MB/sec" },
		{ 8.0 * 1024 * 1024 * 1024, 'G', 1.0, "GB/sec" },
		{ 1e9, 'K', 1e9 / 8 / 1024, "KB/sec" },
		/* 4698.4010 MB (2^20 bytes) in 60 s is 656.8841 Mbps (10^6) */
		{ 4698.4010 * 1048576 * 8 / 60.0, 'm', 656.8841, "Mbps" },
		{ 0.0, 'g', 0.0, "Gbps" },
		{ 1e9, 'x', 1000.0, "Mbps" },	/* unknown: the default */
		{ 1e9, '\0', 1000.0, "Mbps" },
	};
	const char	*label;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double got;

		label = NULL;
		got = units_rate(cases[i].bits, cases[i].letter, &label);
		assert_non_null(label);
		assert_string_equal(label, cases[i].label);
		if (got < cases[i].want * (1 - 1e-6) - 1e-12 ||
		    got > cases[i].want * (1 + 1e-6) + 1e-12)
			fail_msg("%c: %.6f, want %.6f", cases[i].letter, got,
			    cases[i].want);
	}
	assert_true(units_rate(1e6, 'm', NULL) == 1.0);
}

/* The one rate scanner, as --link-rate (Mbit/s) and --fq-rate (bytes/s). */
static void
test_parse_rates(void **state)
{
	char err[128];
	uint64_t v;

	(void)state;
	assert_int_equal(units_parse_rate_mbps("10g", 1, 10000000, "link rate",
	    &v, err, sizeof(err)), 0);
	assert_true(v == 10000);
	assert_int_equal(units_parse_rate_mbps("10T", 1, 10000000, "link rate",
	    &v, err, sizeof(err)), 0);
	assert_true(v == 10000000);
	assert_int_equal(units_parse_rate_mbps("1k", 1, 10000000, "link rate",
	    &v, err, sizeof(err)), -1);
	assert_string_equal(err, "link rate is not a rate (like 100m, 1g, "
	    "10g; bare: Mbit/s): 1k");
	assert_int_equal(units_parse_rate_mbps("99999999999999999999", 1,
	    10000000, "link rate", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "link rate is out of range (1m-10000000m): "
	    "99999999999999999999");
	assert_int_equal(units_parse_rate_bytes("1k", 125,
	    UINT64_C(1250000000000), "pacing rate", &v, err, sizeof(err)), 0);
	assert_true(v == 125);
	assert_int_equal(units_parse_rate_bytes("100", 125,
	    UINT64_C(1250000000000), "pacing rate", &v, err, sizeof(err)), 0);
	assert_true(v == 12500000);
	assert_int_equal(units_parse_rate_bytes("11t", 125,
	    UINT64_C(1250000000000), "pacing rate", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "pacing rate is out of range (1k-10t): 11t");
	assert_int_equal(units_parse_rate_bytes("99999999999999999999", 125,
	    UINT64_C(1250000000000), "pacing rate", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "pacing rate is not a rate (like 500m, 1g; "
	    "bare: Mbit/s): 99999999999999999999");
	assert_int_equal(units_parse_rate_bytes("", 125,
	    UINT64_C(1250000000000), "pacing rate", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "pacing rate is empty: \"\"");
}

/* -R: bit/s (bare: bit/s, fractions that make a whole) or packets/s. */
struct send_rate_case {
	const char	*in;
	int		 rv;
	uint64_t	 bps, pps;	/* when rv == 0 */
	const char	*msg;		/* rv == -1: the whole message */
};

#define SEND_RATE_NOT	"-R is not a rate (like 100m, 2.5g, 64000 bit/s; " \
			    "100kp, 5000p packets/s): "

static const struct send_rate_case send_rate_cases[] = {
	{ "100m", 0, UINT64_C(100000000), 0, NULL },
	{ "1g", 0, UINT64_C(1000000000), 0, NULL },
	{ "1G", 0, UINT64_C(1000000000), 0, NULL },
	{ "2.5g", 0, UINT64_C(2500000000), 0, NULL },
	{ "2.50g", 0, UINT64_C(2500000000), 0, NULL },
	{ "1.000001m", 0, UINT64_C(1000001), 0, NULL },
	{ "64000", 0, 64000, 0, NULL },
	{ "64k", 0, 64000, 0, NULL },
	{ "1", 0, 1, 0, NULL },
	{ "10t", 0, UINT64_C(10000000000000), 0, NULL },
	{ "100kp", 0, 0, 100000, NULL },
	{ "5000p", 0, 0, 5000, NULL },
	{ "1.5mp", 0, 0, 1500000, NULL },
	{ "1p", 0, 0, 1, NULL },
	{ "100mp", 0, 0, UINT64_C(100000000), NULL },
	{ "100KP", 0, 0, 100000, NULL },
	{ "0", 0, 0, 0, NULL },
	{ "0m", 0, 0, 0, NULL },
	/* shapes that are refused */
	{ "", -1, 0, 0, "-R is empty: \"\"" },
	{ "m", -1, 0, 0, SEND_RATE_NOT "m" },
	{ "p", -1, 0, 0, SEND_RATE_NOT "p" },
	{ "-5m", -1, 0, 0, SEND_RATE_NOT "-5m" },
	{ "10x", -1, 0, 0, SEND_RATE_NOT "10x" },
	{ "1.5", -1, 0, 0, SEND_RATE_NOT "1.5" },
	{ "1.5p", -1, 0, 0, SEND_RATE_NOT "1.5p" },
	{ "1.0005k", -1, 0, 0, SEND_RATE_NOT "1.0005k" },
	{ "1.m", -1, 0, 0, SEND_RATE_NOT "1.m" },
	{ ".5m", -1, 0, 0, SEND_RATE_NOT ".5m" },
	{ "100kq", -1, 0, 0, SEND_RATE_NOT "100kq" },
	{ "100pk", -1, 0, 0, SEND_RATE_NOT "100pk" },
	{ "100mm", -1, 0, 0, SEND_RATE_NOT "100mm" },
	{ "1e6", -1, 0, 0, SEND_RATE_NOT "1e6" },
	{ " 100m", -1, 0, 0, SEND_RATE_NOT " 100m" },
	{ "100m ", -1, 0, 0, SEND_RATE_NOT "100m " },
	/* out of range */
	{ "0p", -1, 0, 0, "-R is out of range (1p-100mp): 0p" },
	{ "100000001p", -1, 0, 0,
	    "-R is out of range (1p-100mp): 100000001p" },
	{ "1gp", -1, 0, 0, "-R is out of range (1p-100mp): 1gp" },
	{ "10000000000001", -1, 0, 0,
	    "-R is out of range (0-10t): 10000000000001" },
	{ "11t", -1, 0, 0, "-R is out of range (0-10t): 11t" },
	{ "99999999999t", -1, 0, 0, "-R is out of range (0-10t): 99999999999t" },
	{ "99999999999999999999", -1, 0, 0,
	    "-R is out of range (0-10t): 99999999999999999999" },
};

static void
test_parse_send_rate(void **state)
{
	char		err[160];
	uint64_t	bps, pps;
	size_t		i;
	int		rv;

	(void)state;
	for (i = 0; i < sizeof(send_rate_cases) / sizeof(send_rate_cases[0]);
	    i++) {
		const struct send_rate_case *c = &send_rate_cases[i];

		bps = pps = 77;
		err[0] = '\0';
		rv = units_parse_send_rate(c->in, "-R", &bps, &pps, err,
		    sizeof(err));
		if (rv != c->rv)
			fail_msg("\"%s\": rv %d, want %d (%s)", c->in, rv,
			    c->rv, err);
		if (rv == 0) {
			if (bps != c->bps || pps != c->pps)
				fail_msg("\"%s\": %llu bit/s %llu p/s", c->in,
				    (unsigned long long)bps,
				    (unsigned long long)pps);
		} else {
			assert_string_equal(err, c->msg);
			/* nothing written on an error */
			assert_true(bps == 77 && pps == 77);
		}
	}
}

static void
test_rate_letter(void **state)
{
	const char	*ok = "kmgKMG", *bad = "bBtTxX0 -";
	size_t		 i;

	(void)state;
	for (i = 0; ok[i] != '\0'; i++)
		assert_true(units_rate_letter_ok(ok[i]));
	for (i = 0; bad[i] != '\0'; i++)
		assert_false(units_rate_letter_ok(bad[i]));
	assert_false(units_rate_letter_ok('\0'));
}

/* ISO 8601 UTC with microseconds; 0 is unknown, "". */
static void
test_format_utc(void **state)
{
	char buf[UNITS_TIME_LEN];

	(void)state;
	/* 1796196600 s = 2026-12-02 07:30:00 UTC (date -u -d @1796196600) */
	assert_string_equal(units_format_utc(INT64_C(1796196600) * 1000000 +
	    123456, buf, sizeof(buf)), "2026-12-02T07:30:00.123456Z");
	assert_string_equal(units_format_utc(1, buf, sizeof(buf)),
	    "1970-01-01T00:00:00.000001Z");
	assert_string_equal(units_format_utc(0, buf, sizeof(buf)), "");
	assert_string_equal(units_format_utc(-5, buf, sizeof(buf)), "");
	/* Leap day, end of a year. */
	assert_string_equal(units_format_utc(INT64_C(1709251199) * 1000000 +
	    999999, buf, sizeof(buf)), "2024-02-29T23:59:59.999999Z");
}

/* Megabytes: whole as an integer, else up to 4 places, no zeros after. */
static void
test_format_mb(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(units_format_mb(11586764800u, buf, sizeof(buf)),
	    "11050");
	assert_string_equal(units_format_mb(0, buf, sizeof(buf)), "0");
	assert_string_equal(units_format_mb(65536000, buf, sizeof(buf)),
	    "62.5");
	assert_string_equal(units_format_mb(4926630527u, buf, sizeof(buf)),
	    "4698.401");
	assert_string_equal(units_format_mb(MB + MB / 4, buf, sizeof(buf)),
	    "1.25");
	assert_string_equal(units_format_mb(MB + 1, buf, sizeof(buf)),
	    "1.0");		/* 1.000001: four places show no more */
	assert_string_equal(units_format_mb(10, buf, sizeof(buf)), "0.0");
	assert_string_equal(units_format_mb(MB - 1, buf, sizeof(buf)),
	    "1.0");		/* 0.99999905 rounds up */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_seconds),
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_parse_small_err),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_size_round_trip),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_parse_rates),
		cmocka_unit_test(test_rate_letter),
		cmocka_unit_test(test_parse_send_rate),
		cmocka_unit_test(test_format_utc),
		cmocka_unit_test(test_format_mb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
