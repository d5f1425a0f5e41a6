/*
 * test_sweep.c: sweep.c.  Every parameter at its limits, lists of values
 * and of both kinds of range (and the two mixed), every error message in
 * full, the order of the cross product and what sweep_apply writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/sweep.h"

#define KB	(UINT64_C(1) << 10)
#define MB	(UINT64_C(1) << 20)
#define GB	(UINT64_C(1) << 30)
#define END	UINT64_MAX		/* ends a list of wanted values */

#include "assert_near.h"

/* Any distinct values, so that a stray write shows. */
static void
params_fill(struct gb_params *p)
{
	memset(p, 0, sizeof(*p));
	p->buflen = 131072;
	p->nbuf = 7;
	p->duration_ms = 10000;
	p->streams = 1;
	p->sndbuf = 11111;
	p->rcvbuf = 22222;
	p->mss = 333;
	p->nodelay = 1;
	p->interval_ms = 1000;
}

struct ok_case {
	const char	*arg;
	int		 param;
	uint64_t	 want[12];	/* the first values, then END */
	unsigned	 n;		/* nvalues when more than fit in want */
};

static const struct ok_case ok_cases[] = {
	{ "mtu=1500,4096,9000", SWEEP_MTU, { 1500, 4096, 9000, END }, 0 },
	{ "mtu=1280", SWEEP_MTU, { 1280, END }, 0 },
	{ "mtu=65535", SWEEP_MTU, { 65535, END }, 0 },
	{ "mtu=1500,4096..16384*2", SWEEP_MTU,
	    { 1500, 4096, 8192, 16384, END }, 0 },
	{ "mtu=1500..9000+2500", SWEEP_MTU, { 1500, 4000, 6500, 9000, END },
	    0 },
	{ "mtu=1500..9000+3000", SWEEP_MTU, { 1500, 4500, 7500, END }, 0 },
	{ "mss=88,536,1460,65535", SWEEP_MSS, { 88, 536, 1460, 65535, END },
	    0 },
	{ "window=4K..1M*2", SWEEP_WINDOW, { 4 * KB, 8 * KB, 16 * KB,
	    32 * KB, 64 * KB, 128 * KB, 256 * KB, 512 * KB, MB, END }, 0 },
	{ "window=1K,1G", SWEEP_WINDOW, { KB, GB, END }, 0 },
	{ "window=4k..100k*4", SWEEP_WINDOW, { 4 * KB, 16 * KB, 64 * KB, END },
	    0 },
	{ "sndbuf=1024..4096+1K", SWEEP_SNDBUF,
	    { 1024, 2048, 3072, 4096, END }, 0 },
	{ "rcvbuf=64K,128K,2M", SWEEP_RCVBUF, { 64 * KB, 128 * KB, 2 * MB,
	    END }, 0 },
	{ "length=16K..64K+16K", SWEEP_LENGTH,
	    { 16 * KB, 32 * KB, 48 * KB, 64 * KB, END }, 0 },
	{ "length=1,64M", SWEEP_LENGTH, { 1, 64 * MB, END }, 0 },
	{ "length=1..64M*8", SWEEP_LENGTH, { 1, 8, 64, 512, 4 * KB, 32 * KB,
	    256 * KB, 2 * MB, 16 * MB, END }, 0 },
	{ "streams=1..8*2", SWEEP_STREAMS, { 1, 2, 4, 8, END }, 0 },
	{ "streams=1..128+1", SWEEP_STREAMS, { 1, 2, 3, END }, 128 },
	{ "streams=7..7+1", SWEEP_STREAMS, { 7, END }, 0 },
	{ "streams=5..5*2", SWEEP_STREAMS, { 5, END }, 0 },
	{ "cc=cubic,bbr,reno", SWEEP_CC, { 0, 1, 2, END }, 0 },
	{ "request-size=1,64,1K,1M", SWEEP_REQ_SIZE, { 1, 64, KB, MB, END },
	    0 },
	{ "response-size=1..1K*4", SWEEP_RESP_SIZE, { 1, 4, 16, 64, 256, KB,
	    END }, 0 },
	{ "burst=1,2,4,1024", SWEEP_BURST, { 1, 2, 4, 1024, END }, 0 },
	{ "burst=1..16*2", SWEEP_BURST, { 1, 2, 4, 8, 16, END }, 0 },
};

static void
test_parse_ok(void **state)
{
	struct sweep	 s;
	char		 err[256];
	const struct ok_case *c;
	size_t		 i;
	unsigned	 k, n;

	(void)state;
	for (i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		c = &ok_cases[i];
		memset(&s, 0, sizeof(s));
		err[0] = '\0';
		if (sweep_parse(&s, c->arg, err, sizeof(err)) != 0)
			fail_msg("%s: %s", c->arg, err);
		assert_int_equal(s.naxes, 1);
		assert_int_equal(s.axes[0].param, c->param);
		for (n = 0; c->want[n] != END; n++)
			;
		assert_int_equal(s.axes[0].nvalues, c->n != 0 ? c->n : n);
		for (k = 0; k < n; k++)
			if (s.axes[0].values[k] != c->want[k])
				fail_msg("%s: value %u is %llu, want %llu",
				    c->arg, k, (unsigned long long)
				    s.axes[0].values[k],
				    (unsigned long long)c->want[k]);
		assert_int_equal(sweep_npoints(&s), s.axes[0].nvalues);
	}
}

struct err_case {
	const char	*arg;
	const char	*msg;
};

static const struct err_case err_cases[] = {
	{ "mtu=900", "--sweep: mtu value out of range (1280-65535): 900" },
	{ "mtu=1279", "--sweep: mtu value out of range (1280-65535): 1279" },
	{ "mtu=65536",
	    "--sweep: mtu value out of range (1280-65535): 65536" },
	{ "mtu=-1500", "--sweep: mtu value out of range (1280-65535): -1500" },
	{ "mtu=99999999999999999999999",
	    "--sweep: mtu value out of range (1280-65535): "
	    "99999999999999999999999" },
	{ "mtu=9K", "--sweep: mtu value is not a number: 9K" },
	{ "mss=87", "--sweep: mss value out of range (88-65535): 87" },
	{ "mss=65536", "--sweep: mss value out of range (88-65535): 65536" },
	{ "window=1023", "--sweep: window value out of range (1K-1G): 1023" },
	{ "window=2G", "--sweep: window value out of range (1K-1G): 2G" },
	{ "window=12Q", "--sweep: window value is not a size "
	    "(like 1000, 64K, 1M, 1G): 12Q" },
	{ "sndbuf=512", "--sweep: sndbuf value out of range (1K-1G): 512" },
	{ "rcvbuf=1025M", "--sweep: rcvbuf value out of range (1K-1G): 1025M" },
	{ "length=0", "--sweep: length value out of range (1-64M): 0" },
	{ "length=65M", "--sweep: length value out of range (1-64M): 65M" },
	{ "streams=0", "--sweep: streams value out of range (1-10000): 0" },
	{ "streams=10001", "--sweep: streams value out of range (1-10000): 10001" },
	{ "cc=bb r", "--sweep: cc value is not a congestion control name "
	    "(letters, digits, _ and -): \"bb r\"" },
	{ "cc=cubic..bbr", "--sweep: cc value is not a congestion control "
	    "name (letters, digits, _ and -): \"cubic..bbr\"" },
	{ "cc=abcdefghijklmnop",
	    "--sweep: cc value must be 1-15 characters: \"abcdefghijklmnop\"" },
	{ "cc=cubic,cubic", "--sweep: cc value given twice: cubic" },
	{ "request-size=0",
	    "--sweep: request-size value out of range (1-1M): 0" },
	{ "response-size=2M",
	    "--sweep: response-size value out of range (1-1M): 2M" },
	{ "burst=0", "--sweep: burst value out of range (1-1024): 0" },
	{ "burst=1025", "--sweep: burst value out of range (1-1024): 1025" },
	{ "burst=4K", "--sweep: burst value is not a number: 4K" },
	{ "foo=1", "--sweep: unknown parameter \"foo\" (mtu, mss, window, "
	    "sndbuf, rcvbuf, length, streams, cc, rate, request-size, "
	    "response-size, burst)" },
	{ "=1", "--sweep: unknown parameter \"\" (mtu, mss, window, "
	    "sndbuf, rcvbuf, length, streams, cc, rate, request-size, "
	    "response-size, burst)" },
	{ "MTU=1500", "--sweep: unknown parameter \"MTU\" (mtu, mss, window, "
	    "sndbuf, rcvbuf, length, streams, cc, rate, request-size, "
	    "response-size, burst)" },
	{ "mtu", "--sweep: expected PARAM=LIST: \"mtu\"" },
	{ "", "--sweep: expected PARAM=LIST: \"\"" },
	{ "mtu=", "--sweep: no values for mtu" },
	{ "mtu=1500,,9000", "--sweep: empty value in the mtu list: "
	    "1500,,9000" },
	{ "mtu=1500,", "--sweep: empty value in the mtu list: 1500," },
	{ "mtu=,1500", "--sweep: empty value in the mtu list: ,1500" },
	{ "mtu=1500,1500", "--sweep: mtu value given twice: 1500" },
	{ "mtu=1500..9000+500,2000",
	    "--sweep: mtu value given twice: 2000" },
	{ "window=4K..1M*1",
	    "--sweep: range 4K..1M*1: factor must be at least 2" },
	{ "window=4K..1M*0",
	    "--sweep: range 4K..1M*0: factor must be at least 2" },
	{ "length=16K..64K+0",
	    "--sweep: range 16K..64K+0: step must be at least 1" },
	{ "window=4K..1M*x",
	    "--sweep: range 4K..1M*x: factor is not a number: x" },
	{ "window=4K..1M*2K",
	    "--sweep: range 4K..1M*2K: factor is not a number: 2K" },
	{ "length=16K..64K+1Q", "--sweep: range 16K..64K+1Q: step is not a "
	    "size (like 1000, 64K, 1M, 1G): 1Q" },
	{ "window=1M..4K*2", "--sweep: range 1M..4K*2: 1M is above 4K" },
	{ "mtu=9000..1500+1", "--sweep: range 9000..1500+1: 9000 is above "
	    "1500" },
	{ "window=4K..1M", "--sweep: range 4K..1M: expected FROM..TO*FACTOR "
	    "or FROM..TO+STEP" },
	{ "window=4K..2G*2", "--sweep: window value out of range (1K-1G): 2G" },
	{ "window=512..1M*2",
	    "--sweep: window value out of range (1K-1G): 512" },
	{ "mtu=..9000*2", "--sweep: mtu value is empty: \"\"" },
	{ "mtu=1500..*2", "--sweep: mtu value is empty: \"\"" },
	{ "mtu=1280..65535+1",
	    "--sweep: too many mtu values (max 256): 1280..65535+1" },
	{ "length=1..64M+1",
	    "--sweep: too many length values (max 256): 1..64M+1" },
	{ "rate=10m..1g*2",
	    "--sweep: rate takes a list of rates, not a range: 10m..1g*2" },
	{ "rate=10x", "--sweep: rate value is not a rate (like 100m, 2.5g, "
	    "64000 bit/s; 100kp, 5000p packets/s): 10x" },
	{ "rate=10m,10000000",
	    "--sweep: rate value given twice: 10000000" },
};

static void
test_parse_errors(void **state)
{
	struct sweep	s, before;
	char		err[256];
	size_t		i;

	(void)state;
	memset(&before, 0, sizeof(before));
	for (i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		memset(&s, 0, sizeof(s));
		err[0] = '\0';
		if (sweep_parse(&s, err_cases[i].arg, err, sizeof(err)) != -1)
			fail_msg("%s: accepted", err_cases[i].arg);
		assert_string_equal(err, err_cases[i].msg);
		/* A failed parse leaves the sweep as it was. */
		assert_memory_equal(&s, &before, sizeof(s));
	}
}

/* Errors that depend on the axes already there. */
static void
test_parse_axes_errors(void **state)
{
	struct sweep	s;
	char		err[256], big[9 + 120], want[256];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1500", err, sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "mtu=9000", err, sizeof(err)), -1);
	assert_string_equal(err, "--sweep: parameter mtu given twice");
	assert_int_equal(sweep_parse(&s, "window=64K", err, sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "sndbuf=64K", err, sizeof(err)), -1);
	assert_string_equal(err, "--sweep: window sets sndbuf and rcvbuf, it "
	    "cannot be swept with sndbuf");
	assert_int_equal(sweep_parse(&s, "cc=bbr", err, sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "streams=1", err, sizeof(err)), 0);
	assert_int_equal(s.naxes, SWEEP_MAX_AXES);
	assert_int_equal(sweep_parse(&s, "length=1K", err, sizeof(err)), -1);
	assert_string_equal(err, "--sweep: too many parameters (max 4): "
	    "length=1K");

	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "rcvbuf=64K", err, sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "window=64K", err, sizeof(err)), -1);
	assert_string_equal(err, "--sweep: window sets sndbuf and rcvbuf, it "
	    "cannot be swept with rcvbuf");
	/* sndbuf and rcvbuf apart are fine. */
	assert_int_equal(sweep_parse(&s, "sndbuf=64K", err, sizeof(err)), 0);

	/* 128 x 32 = 4096 points is the most; 128 x 33 is too many. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "streams=1..128+1", err,
	    sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "mss=100..132+1", err,
	    sizeof(err)), -1);
	assert_string_equal(err, "--sweep: too many points: 128 x 33 mss "
	    "values is 4224 (max 4096)");
	assert_int_equal(sweep_parse(&s, "mss=100..131+1", err,
	    sizeof(err)), 0);
	assert_int_equal(sweep_npoints(&s), SWEEP_MAX_POINTS);

	/* An item longer than any value could be. */
	memset(&s, 0, sizeof(s));
	memset(big, 'x', sizeof(big));
	memcpy(big, "mtu=1500,", 9);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(sweep_parse(&s, big, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "--sweep: mtu value is too long: %s",
	    big + 9);
	assert_string_equal(err, want);

	/* 256 values is the most on an axis. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1280..1535+1", err,
	    sizeof(err)), 0);
	assert_int_equal(s.axes[0].nvalues, SWEEP_MAX_VALUES);
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1280..1535+1,9000", err,
	    sizeof(err)), -1);
	assert_string_equal(err,
	    "--sweep: too many mtu values (max 256): 9000");
}

static void
test_no_axes(void **state)
{
	struct sweep		s;
	struct gb_params	p, before;
	struct sweep_setting	set = { 0, "" };

	(void)state;
	memset(&s, 0, sizeof(s));
	params_fill(&p);
	before = p;
	assert_int_equal(sweep_npoints(&s), 1);
	sweep_apply(&s, 0, &p, &set);
	assert_memory_equal(&p, &before, sizeof(p));
	assert_int_equal(set.mtu, 0);
	assert_string_equal(set.cc, "");
}

/* mtu x window x cc: the last axis varies fastest. */
static void
test_cross_product(void **state)
{
	static const char *const want[] = {
		"1500 4K cubic", "1500 4K bbr", "1500 8K cubic", "1500 8K bbr",
		"1500 16K cubic", "1500 16K bbr", "9000 4K cubic",
		"9000 4K bbr", "9000 8K cubic", "9000 8K bbr",
		"9000 16K cubic", "9000 16K bbr",
	};
	struct sweep		 s;
	struct gb_params	 p;
	struct sweep_setting	 set;
	char			 err[256], a[16], b[16], c[16], got[64];
	unsigned		 i;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=1500,9000", err, sizeof(err)),
	    0);
	assert_int_equal(sweep_parse(&s, "window=4K..16K*2", err,
	    sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "cc=cubic,bbr", err, sizeof(err)),
	    0);
	assert_int_equal(sweep_npoints(&s), 12);
	for (i = 0; i < 12; i++) {
		snprintf(got, sizeof(got), "%s %s %s",
		    sweep_value_text(&s, 0, i, a, sizeof(a)),
		    sweep_value_text(&s, 1, i, b, sizeof(b)),
		    sweep_value_text(&s, 2, i, c, sizeof(c)));
		assert_string_equal(got, want[i]);
		params_fill(&p);
		memset(&set, 0, sizeof(set));
		sweep_apply(&s, i, &p, &set);
		assert_int_equal(set.mtu, i < 6 ? 1500 : 9000);
		assert_int_equal(p.sndbuf, 4096u << (i / 2 % 3));
		assert_int_equal(p.rcvbuf, p.sndbuf);
		assert_string_equal(set.cc, i % 2 ? "bbr" : "cubic");
		assert_near(sweep_value(&s, 0, i), i < 6 ? 1500 : 9000,
		    0);
		assert_near(sweep_value(&s, 1, i),
		    4096u << (i / 2 % 3), 0);
		assert_near(sweep_value(&s, 2, i), i % 2, 0);
	}
}

/* Every parameter reaches its field, and nothing else changes. */
static void
test_apply_fields(void **state)
{
	struct sweep		 s;
	struct gb_params	 p, want;
	struct sweep_setting	 set;
	char			 err[256], buf[16];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mss=1460", err, sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "length=16K,32K", err,
	    sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "streams=4", err, sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "sndbuf=256K", err, sizeof(err)),
	    0);
	params_fill(&p);
	want = p;
	memset(&set, 0, sizeof(set));
	sweep_apply(&s, 1, &p, &set);
	want.mss = 1460;
	want.buflen = 32 * 1024;
	want.streams = 4;
	want.sndbuf = 256 * 1024;
	assert_memory_equal(&p, &want, sizeof(p));
	assert_int_equal(set.mtu, 0);
	assert_string_equal(set.cc, "");

	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "rcvbuf=3000", err, sizeof(err)), 0);
	params_fill(&p);
	want = p;
	sweep_apply(&s, 0, &p, &set);
	want.rcvbuf = 3000;
	assert_memory_equal(&p, &want, sizeof(p));
	/* Sizes as K/M/G only when exact, numbers plain. */
	assert_string_equal(sweep_value_text(&s, 0, 0, buf, sizeof(buf)),
	    "3000");
}

/* rate=: bit/s and packets/s apart, as -R would set them. */
static void
test_rate_axis(void **state)
{
	struct sweep		 s;
	struct gb_params	 p, want;
	struct sweep_setting	 set;
	char			 err[256], buf[16];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "rate=10m,2500m,100kp,0,1234", err,
	    sizeof(err)), 0);
	assert_true(sweep_has(&s, SWEEP_RATE));
	assert_int_equal(sweep_npoints(&s), 5);
	params_fill(&p);
	p.rate_pps = 7;		/* each point replaces both */
	want = p;
	memset(&set, 0, sizeof(set));
	sweep_apply(&s, 0, &p, &set);
	want.rate_bps = 10000000;
	want.rate_pps = 0;
	assert_memory_equal(&p, &want, sizeof(p));
	sweep_apply(&s, 2, &p, &set);
	assert_int_equal(p.rate_bps, 0);
	assert_int_equal(p.rate_pps, 100000);
	sweep_apply(&s, 3, &p, &set);
	assert_int_equal(p.rate_bps, 0);
	assert_int_equal(p.rate_pps, 0);
	/* As -R writes them: the largest exact suffix, p for packets. */
	assert_string_equal(sweep_value_text(&s, 0, 0, buf, sizeof(buf)),
	    "10m");
	assert_string_equal(sweep_value_text(&s, 0, 1, buf, sizeof(buf)),
	    "2500m");
	assert_string_equal(sweep_value_text(&s, 0, 2, buf, sizeof(buf)),
	    "100kp");
	assert_string_equal(sweep_value_text(&s, 0, 3, buf, sizeof(buf)),
	    "0");
	assert_string_equal(sweep_value_text(&s, 0, 4, buf, sizeof(buf)),
	    "1234");
	/* The number for plots and CSV, without the packets bit. */
	assert_near(sweep_value(&s, 0, 2), 100000, 0);
	assert_string_equal(sweep_param_name(SWEEP_RATE), "rate");
}

static void
test_value_text(void **state)
{
	struct sweep	s;
	char		err[256], buf[16];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "window=64K,1M,1G,1536", err,
	    sizeof(err)), 0);
	assert_string_equal(sweep_value_text(&s, 0, 0, buf, sizeof(buf)),
	    "64K");
	assert_string_equal(sweep_value_text(&s, 0, 1, buf, sizeof(buf)),
	    "1M");
	assert_string_equal(sweep_value_text(&s, 0, 2, buf, sizeof(buf)),
	    "1G");
	assert_string_equal(sweep_value_text(&s, 0, 3, buf, sizeof(buf)),
	    "1536");
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "mtu=9216", err, sizeof(err)), 0);
	/* 9216 is 9K, but an MTU is a number, not a size. */
	assert_string_equal(sweep_value_text(&s, 0, 0, buf, sizeof(buf)),
	    "9216");
	assert_string_equal(sweep_param_name(SWEEP_WINDOW), "window");
	assert_string_equal(sweep_param_name(SWEEP_CC), "cc");
	assert_string_equal(sweep_param_name(SWEEP_NPARAMS), "?");
	assert_string_equal(sweep_param_name(-1), "?");
}

/* --rr's axes write its sizes and burst and nothing else. */
static void
test_rr_axes(void **state)
{
	struct sweep		 s;
	struct gb_params	 p, want;
	struct sweep_setting	 set;
	char			 err[256], buf[16];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sweep_parse(&s, "request-size=1,64K", err,
	    sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "response-size=100,2K", err,
	    sizeof(err)), 0);
	assert_int_equal(sweep_parse(&s, "burst=1,8", err, sizeof(err)), 0);
	assert_int_equal(sweep_npoints(&s), 8);
	params_fill(&p);
	want = p;
	memset(&set, 0, sizeof(set));
	sweep_apply(&s, 7, &p, &set);
	want.req_size = 65536;
	want.resp_size = 2048;
	want.rr_burst = 8;
	assert_memory_equal(&p, &want, sizeof(p));
	assert_int_equal(set.mtu, 0);
	sweep_apply(&s, 2, &p, &set);
	assert_int_equal(p.req_size, 1);
	assert_int_equal(p.resp_size, 2048);
	assert_int_equal(p.rr_burst, 1);
	assert_string_equal(sweep_value_text(&s, 0, 7, buf, sizeof(buf)),
	    "64K");
	assert_string_equal(sweep_value_text(&s, 2, 7, buf, sizeof(buf)),
	    "8");
	assert_string_equal(sweep_param_name(SWEEP_REQ_SIZE),
	    "request-size");
	assert_string_equal(sweep_param_name(SWEEP_RESP_SIZE),
	    "response-size");
	assert_string_equal(sweep_param_name(SWEEP_BURST), "burst");
	assert_true(sweep_has(&s, SWEEP_BURST));
	assert_int_equal(sweep_parse(&s, "burst=2", err, sizeof(err)), -1);
	assert_string_equal(err, "--sweep: parameter burst given twice");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_axes_errors),
		cmocka_unit_test(test_no_axes),
		cmocka_unit_test(test_cross_product),
		cmocka_unit_test(test_apply_fields),
		cmocka_unit_test(test_value_text),
		cmocka_unit_test(test_rate_axis),
		cmocka_unit_test(test_rr_axes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
