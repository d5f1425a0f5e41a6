/*
 * test_flowcsv.c: flowcsv.c.  The header is a contract, so it is spelled
 * out here in full; rows of three flows of a -P 3 --rr test (one without
 * its TCP_INFO and CPU, one of no time) are written into open_memstream()
 * and compared byte for byte; then the writes that fail: a side that is
 * neither name, /dev/full, a memory FILE too small for the second row.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/result.h"
#include "out/flowcsv.h"

#define HEADER	"side,flow,bytes,seconds,mbps,transactions,tps,retransmits," \
		"rtt_us,cpu,data_path\r\n"
#define ROW0	"sender,0,122625000,10,98.1,8120,812,3,88,1,rr_ask\r\n"

static void
fill_flows(struct gb_stream g[3])
{
	memset(g, 0, 3 * sizeof(*g));
	/* 98.1 Mbit/s, 812 transactions/s, 3 retransmits, 88 us. */
	g[0].bytes = 122625000;
	g[0].seconds = 10.0;
	g[0].cpu = 1;
	g[0].pinned = -1;
	g[0].path = GB_PATH_RR_ASK;
	g[0].has_tcp = 1;
	g[0].retrans = 3;
	g[0].rtt_us = 88;
	g[0].transactions = 8120;
	/* No TCP_INFO, no CPU: those fields empty; ended at 9.5 s. */
	g[1].bytes = 125250000;
	g[1].seconds = 9.5;
	g[1].cpu = -1;
	g[1].pinned = -1;
	g[1].path = GB_PATH_RR_ASK;
	g[1].retrans = 7;	/* not written: no has_tcp */
	g[1].transactions = 8075;
	/* A flow that never moved: no rate. */
	g[2].cpu = 0;
	g[2].pinned = 0;
	g[2].path = GB_PATH_RR_ASK;
	g[2].has_tcp = 1;
}

static char *
write_mem(const char *side, const struct gb_stream *g, unsigned n, int rr,
    int want_rc, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	assert_int_equal(flowcsv_write(fp, side, g, n, 0, rr, err, errlen),
	    want_rc);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_rows(void **state)
{
	struct gb_stream g[3];
	char err[GB_ERR_LEN] = "", *t;

	(void)state;
	fill_flows(g);
	t = write_mem("sender", g, 3, 1, 0, err, sizeof(err));
	assert_string_equal(t, HEADER ROW0
	    "sender,1,125250000,9.5,105.473684,8075,850,,,,rr_ask\r\n"
	    "sender,2,0,0,0,0,0,0,0,0,rr_ask\r\n");
	free(t);
	/* Without --rr, transactions and tps are not known. */
	g[0].path = g[1].path = GB_PATH_RECV;
	g[2].path = GB_PATH_SPLICE;
	t = write_mem("receiver", g, 3, 0, 0, err, sizeof(err));
	assert_string_equal(t, HEADER
	    "receiver,0,122625000,10,98.1,,,3,88,1,recv\r\n"
	    "receiver,1,125250000,9.5,105.473684,,,,,,recv\r\n"
	    "receiver,2,0,0,0,,,0,0,0,splice\r\n");
	free(t);
	/* No flows: the header alone. */
	t = write_mem("receiver", NULL, 0, 0, 0, err, sizeof(err));
	assert_string_equal(t, HEADER);
	free(t);
	assert_string_equal(err, "");
}

static void
test_bad_side(void **state)
{
	struct gb_stream g[3];
	char err[GB_ERR_LEN] = "", *t;

	(void)state;
	fill_flows(g);
	t = write_mem("=cmd|' /C calc'!A0", g, 3, 0, -1, err, sizeof(err));
	assert_string_equal(t, "");
	assert_string_equal(err, "flow CSV: the side is not sender or "
	    "receiver");
	free(t);
	t = write_mem(NULL, g, 3, 0, -1, err, sizeof(err));
	assert_string_equal(t, "");
	free(t);
}

static void
test_write_errors(void **state)
{
	struct gb_stream g[3];
	/* The header, the first row and 8 bytes: not the second row. */
	char err[GB_ERR_LEN] = "", buf[sizeof(HEADER ROW0) + 8];
	FILE *fp;

	(void)state;
	fill_flows(g);
	/* Buffered: the rows fit the buffer, the flush finds the disk full. */
	assert_non_null(fp = fopen("/dev/full", "w"));
	assert_int_equal(flowcsv_write(fp, "sender", g, 3, 0, 1, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "flow CSV: cannot write the rows out "
	    "(flush): No space left on device");
	fclose(fp);
	/* Unbuffered: the header is the write that fails. */
	assert_non_null(fp = fopen("/dev/full", "w"));
	assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
	assert_int_equal(flowcsv_write(fp, "sender", g, 3, 0, 1, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "flow CSV: cannot write the header: No "
	    "space left on device");
	fclose(fp);
	/* Room for the header and the first row only: flow 1 fails. */
	assert_non_null(fp = fmemopen(buf, sizeof(buf), "w"));
	assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
	assert_int_equal(flowcsv_write(fp, "sender", g, 3, 0, 1, err,
	    sizeof(err)), -1);
	if (strncmp(err, "flow CSV: cannot write flow 1: ", 31) != 0)
		fail_msg("err: %s", err);
	fclose(fp);
	assert_memory_equal(buf, HEADER ROW0, sizeof(HEADER ROW0) - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_bad_side),
		cmocka_unit_test(test_write_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
