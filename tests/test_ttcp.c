/*
 * test_ttcp.c: the classic ttcp mode's pure parts.  The command line
 * (ttcp_opts.c): ttcp's defaults, every letter's meaning, what ttcp
 * took silently and is refused here with the reason, and when a command
 * line is one for the mode.  The lines (ttcp_text.c): the header, the
 * result lines and the rusage line exactly as ttcp.c's printf formats
 * make them from the same numbers, each -f unit, and the JSON's keys.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ttcp_opts.h"
#include "out/ttcp_text.h"

#define ARGC(a)	((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int
parse(char **argv, struct ttcp_cfg *c, char *err, size_t errlen)
{
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	err[0] = '\0';
	return ttcp_opts_parse(argc, argv, c, err, errlen);
}

static void
test_defaults(void **state)
{
	char *argv[] = { "ttcp", "-t", "-s", "box", NULL };
	struct ttcp_cfg c;
	char err[256];

	(void)state;
	assert_int_equal(parse(argv, &c, err, sizeof(err)), OPTS_OK);
	assert_true(c.trans && c.sink && !c.udp);
	assert_int_equal(c.buflen, 8192);
	assert_int_equal(c.nbuf, 2048);
	assert_int_equal(c.port, 5001);
	assert_int_equal(c.align, 16384);
	assert_int_equal(c.offset, 0);
	assert_int_equal(c.fmt, 'K');
	assert_int_equal(c.sockbuf, 0);
	assert_string_equal(c.host, "box");
	assert_int_equal(c.silent_ms, 10000);
	assert_int_equal(c.max_duration_ms, 300000);
}

static void
test_letters(void **state)
{
	char *tx[] = { "gigebench", "--ttcp", "-t", "-s", "-n", "2000", "-l",
	    "65000", "-p", "5002", "-A", "4096", "-O", "8", "-b", "262144",
	    "-f", "m", "-D", "-d", "-v", "-u", "h", NULL };
	char *rx[] = { "gigebench", "-r", "-B", "-T", "--ttcp", "-s", "-u",
	    "-l", "3", "--json", "--silent-timeout", "2", "--max-duration",
	    "30", NULL };
	char *pipe_rx[] = { "ttcp", "-r", NULL };
	char *twice[] = { "ttcp", "-t", "-s", "-s", "h", NULL };
	struct ttcp_cfg c;
	char err[256];

	(void)state;
	assert_int_equal(parse(tx, &c, err, sizeof(err)), OPTS_OK);
	assert_true(c.trans && c.sink && c.udp && c.nodelay && c.debug &&
	    c.verbose);
	assert_int_equal(c.nbuf, 2000);
	assert_int_equal(c.buflen, 65000);
	assert_int_equal(c.port, 5002);
	assert_int_equal(c.align, 4096);
	assert_int_equal(c.offset, 8);
	assert_int_equal(c.sockbuf, 262144);
	assert_int_equal(c.fmt, 'm');

	assert_int_equal(parse(rx, &c, err, sizeof(err)), OPTS_OK);
	assert_true(!c.trans && c.fullblocks && c.touch && c.json && c.udp);
	assert_int_equal(c.buflen, 5);	/* ttcp: more than the sentinel */
	assert_int_equal(c.silent_ms, 2000);
	assert_int_equal(c.max_duration_ms, 30000);
	assert_null(c.host);

	assert_int_equal(parse(pipe_rx, &c, err, sizeof(err)), OPTS_OK);
	assert_false(c.sink);
	/* -s toggles, as ttcp's "sinkmode = !sinkmode". */
	assert_int_equal(parse(twice, &c, err, sizeof(err)), OPTS_OK);
	assert_false(c.sink);
}

struct bad {
	char		*argv[8];
	const char	*msg;
};

static const struct bad bad_cases[] = {
	{ { "ttcp", "-t", "-l", "64k", "h" }, "-l" },
	{ { "ttcp", "-t", "-l", "0", "h" }, "-l" },
	{ { "ttcp", "-t", "-p", "70000", "h" }, "-p" },
	{ { "ttcp", "-t", "-n", "-5", "h" }, "-n" },
	{ { "ttcp", "-t", "-f", "x", "h" }, "-f is one of k K m M g G: x" },
	{ { "ttcp", "-t", "-f", "mm", "h" }, "-f is one of k K m M g G: mm" },
	{ { "ttcp", "-t", "-A", "16", "-O", "16", "h" },
	    "-O 16 is not below -A 16" },
	{ { "ttcp", "-t" }, "-t needs the receiver's host" },
	{ { "ttcp", "-r", "h" },
	    "-r takes no host (it listens on port 5001): h" },
	{ { "ttcp", "-t", "a", "b" }, "one host only: b" },
	{ { "ttcp", "-x", "-t", "h" }, "-x: not a ttcp option" },
	{ { "ttcp", "--bogus", "-t", "h" }, "--bogus: not a ttcp option" },
	{ { "ttcp", "-t", "h", "-l" }, "-l needs a value" },
	{ { "ttcp", "-s" }, "-t host or -r is needed" },
	{ { "ttcp", "-r", "--json" }, "--json needs -s" },
	{ { "ttcp", "-t", "-s", "-u", "-l", "65508", "h" },
	    "-u -l 65508: a UDP datagram holds at most 65507 bytes" },
	{ { "ttcp", "-r", "--silent-timeout", "0.1" }, "--silent-timeout" },
};

static void
test_refused(void **state)
{
	struct ttcp_cfg c;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		char *argv[8];

		memcpy(argv, bad_cases[i].argv, sizeof(argv));
		if (parse(argv, &c, err, sizeof(err)) != OPTS_ERROR ||
		    strstr(err, bad_cases[i].msg) == NULL)
			fail_msg("case %zu: %s: got \"%s\"", i,
			    bad_cases[i].msg, err);
	}
}

static void
test_wanted(void **state)
{
	char *a[] = { "ttcp", "-r", NULL };
	char *b[] = { "/usr/local/bin/ttcp", "-r", NULL };
	char *c[] = { "gigebench", "-t", "--ttcp", "h", NULL };
	char *d[] = { "gigebench", "-t", "h", NULL };
	char *e[] = { "gigebench", "--", "--ttcp", NULL };
	char *f[] = { "ttcp-old", "-r", NULL };

	(void)state;
	assert_true(ttcp_wanted(2, a));
	assert_true(ttcp_wanted(2, b));
	assert_true(ttcp_wanted(4, c));
	assert_false(ttcp_wanted(3, d));
	assert_false(ttcp_wanted(3, e));
	assert_false(ttcp_wanted(2, f));
}

/* What f wrote, as a string the test frees. */
static char *
captured(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void
header(FILE *f, const void *c)
{
	ttcp_text_header(f, c);
}

static void
test_header(void **state)
{
	struct ttcp_cfg c;
	char *s;

	(void)state;
	ttcp_cfg_init(&c);
	c.trans = 1;
	c.host = "box";
	s = captured(header, &c);
	assert_string_equal(s, "ttcp-t: buflen=8192, nbuf=2048, "
	    "align=16384/0, port=5001  tcp  -> box\n");
	free(s);
	c.trans = 0;
	c.udp = 1;
	c.sockbuf = 65536;
	c.offset = 8;
	s = captured(header, &c);
	assert_string_equal(s, "ttcp-r: buflen=8192, nbuf=2048, "
	    "align=16384/8, port=5001, sockbufsize=65536  udp\n");
	free(s);
}

static void
test_rate(void **state)
{
	char b[64];
	const double r = 16777216 / 0.15;

	(void)state;
	ttcp_text_rate('K', r, b, sizeof(b));
	assert_string_equal(b, "109226.67 KB");
	ttcp_text_rate('M', r, b, sizeof(b));
	assert_string_equal(b, "106.67 MB");
	ttcp_text_rate('G', r, b, sizeof(b));
	assert_string_equal(b, "0.10 GB");
	/* 1024-based bits, as ttcp's: its 853.33 "Mbit" is 894.8 Mbit/s. */
	ttcp_text_rate('m', r, b, sizeof(b));
	assert_string_equal(b, "853.33 Mbit");
	ttcp_text_rate('k', r, b, sizeof(b));
	assert_string_equal(b, "873813.33 Kbit");
	ttcp_text_rate('g', r, b, sizeof(b));
	assert_string_equal(b, "0.83 Gbit");
}

static void
counts(struct ttcp_counts *n)
{
	memset(n, 0, sizeof(*n));
	n->nbytes = 16777216;
	n->calls = 2000;
	n->realt = 0.15;
	n->cput = 0.1;
	n->ru0.utime.tv_usec = 100000;
	n->ru1.utime.tv_usec = 150000;
	n->ru0.stime.tv_sec = 1;
	n->ru0.stime.tv_usec = 900000;
	n->ru1.stime.tv_sec = 2;
	n->ru1.stime.tv_usec = 0;
	n->ru1.maxrss = 2816;
	n->ru0.minflt = 10;
	n->ru1.minflt = 14;
	n->ru1.nvcsw = 96;
	n->ru1.nivcsw = 1;
	n->bufaddr = 0x55d0c4a4c000;
}

static void
result(FILE *f, const void *c)
{
	struct ttcp_counts n;

	counts(&n);
	ttcp_text_result(f, c, &n);
}

static void
test_result(void **state)
{
	struct ttcp_cfg c;
	char *s;

	(void)state;
	ttcp_cfg_init(&c);
	c.trans = 1;
	s = captured(result, &c);
	/*
	 * By ttcp.c's formats: 1024 x 0.15 / 2000 = 0.0768 msec/call; the
	 * CPU 5 + 10 centiseconds of 15 real: 100 %; maxrss halved.
	 */
	assert_string_equal(s,
	    "ttcp-t: 16777216 bytes in 0.15 real seconds = 109226.67 KB/sec "
	    "+++\n"
	    "ttcp-t: 2000 I/O calls, msec/call = 0.08, calls/sec = 13333.33\n"
	    "ttcp-t: 0.0user 0.1sys 0:00real 100% 0i+0d 1408maxrss 0+4pf "
	    "96+1csw\n");
	free(s);
	c.verbose = 1;
	c.trans = 0;
	s = captured(result, &c);
	assert_non_null(strstr(s, "ttcp-r: 16777216 bytes in 0.10 CPU "
	    "seconds = 163840.00 KB/cpu sec\n"));
	assert_non_null(strstr(s, "ttcp-r: buffer address 0x55d0c4a4c000\n"));
	free(s);
}

static void
test_rusage_clock(void **state)
{
	struct ttcp_rusage a, b;
	char buf[160];

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	b.stime.tv_sec = 3700;
	/* ttcp's psecs(): hours, then minutes with two digits. */
	ttcp_text_rusage(&a, &b, 3725.0, buf, sizeof(buf));
	assert_non_null(strstr(buf, "0.0user 3700.0sys 1:02:05real 99% "));
	ttcp_text_rusage(&a, &a, 65.5, buf, sizeof(buf));
	assert_non_null(strstr(buf, " 1:05real 0% "));
}

static void
test_json(void **state)
{
	struct ttcp_cfg c;
	struct ttcp_counts n;
	struct gb_side side;
	json_t *j, *r;

	(void)state;
	ttcp_cfg_init(&c);
	c.trans = 1;
	c.host = "box";
	counts(&n);
	memset(&side, 0, sizeof(side));
	side.has = 1;
	side.bytes = n.nbytes;
	j = ttcp_json(&c, &n, &side);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "mode")),
	    "ttcp");
	r = json_object_get(j, "result");
	assert_int_equal(json_integer_value(json_object_get(r, "bytes")),
	    16777216);
	assert_int_equal(json_integer_value(json_object_get(r, "calls")),
	    2000);
	assert_true(json_is_object(json_object_get(r, "sender")));
	assert_true(json_is_null(json_object_get(r, "receiver")));
	assert_string_equal(json_string_value(json_object_get(r,
	    "peer_missing")), "classic ttcp peer");
	json_decref(j);
}

/* ttcp's pattern: ' ' to '~' (95 characters), then again from ' '. */
static void
test_pattern(void **state)
{
	char buf[200];
	size_t i;

	(void)state;
	memset(buf, 0, sizeof(buf));
	ttcp_pattern(buf, 195);
	for (i = 0; i < 95; i++)
		assert_int_equal(buf[i], ' ' + (int)i);
	assert_memory_equal(buf, buf + 95, 95);
	assert_int_equal(buf[190], ' ');
	assert_int_equal(buf[195], 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_letters),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_rusage_clock),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_pattern),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
