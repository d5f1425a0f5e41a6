/*
 * test_mesh_json.c: gigebench merge's reader (codec/mesh_json.h) on the
 * fixtures of tests/fixtures/merge/, made from real loopback --json
 * output with the hosts renamed h1..h4 and the rates, figures and
 * diagnosis edited into a mesh: one test, a sweep's "runs", -r
 * (client_receives), a listener's document, --bidir, failed runs with and
 * without provenance, the address fallback (missing hostnames, the same
 * hostname at both ends, IPv6), and the documents it must refuse, each
 * refusal naming what is missing.  Run from the top directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/mesh_json.h"

#define FIX	"tests/fixtures/merge/"

/* Read path by name; 0 or -1 with err, the runs in l. */
static int
readf(const char *path, enum mesh_by by, struct mesh_runs *l, char *err,
    size_t errlen)
{
	memset(l, 0, sizeof(*l));
	return mesh_json_read(path, by, l, err, errlen);
}

static void
test_single(void **state)
{
	struct mesh_runs	 l;
	char			 err[512];
	const struct mesh_run	*r;

	(void)state;
	assert_int_equal(readf(FIX "mesh/h1-h4.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	r = &l.v[0];
	assert_string_equal(r->sender, "h1");
	assert_string_equal(r->receiver, "h4");
	assert_string_equal(r->origin, FIX "mesh/h1-h4.json");
	assert_false(r->failed);
	assert_true(fabs(r->mbps - 95.1) < 1e-9);
	assert_true(fabs(r->fig[MESH_CPU_TX] - 5.2) < 1e-9);
	assert_true(fabs(r->fig[MESH_CPU_RX] - 3.4) < 1e-9);
	assert_true(fabs(r->fig[MESH_PROC_TX] - 4.1) < 1e-9);
	assert_true(fabs(r->fig[MESH_PROC_RX] - 6.3) < 1e-9);
	assert_true(isnan(r->fig[MESH_IRQ_TX]));	/* null on lo */
	assert_true(fabs(r->fig[MESH_RETRANS] - 40) < 1e-9);
	assert_true(fabs(r->fig[MESH_RTT] - 20000) < 1e-9);
	assert_true(fabs(r->fig[MESH_BUSIEST_TX] - 12.5) < 1e-9);
	assert_int_equal(r->ndiag, 1);
	assert_string_equal(r->diag[0].code, "retransmits");
	assert_string_equal(r->diag[0].side, "sender");
	assert_non_null(strstr(r->diag[0].text, "40 retransmitted"));
	mesh_runs_free(&l);
}

static void
test_sweep_runs(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(readf(FIX "mesh/h1-h2.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].origin, FIX "mesh/h1-h2.json run 1");
	assert_string_equal(l.v[1].origin, FIX "mesh/h1-h2.json run 2");
	assert_true(fabs(l.v[0].mbps - 930.2) < 1e-9);
	assert_true(fabs(l.v[1].mbps - 941.3) < 1e-9);
	assert_string_equal(l.v[1].sender, "h1");
	assert_string_equal(l.v[1].receiver, "h2");
	mesh_runs_free(&l);
}

/* A failed run of a sweep belongs to the pair its other runs name. */
static void
test_sweep_failed_run(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(readf(FIX "mesh/h2-h3.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_true(l.v[0].failed);
	assert_string_equal(l.v[0].sender, "h2");
	assert_string_equal(l.v[0].receiver, "h3");
	assert_string_equal(l.v[0].error,
	    "the peer closed the control connection");
	assert_false(l.v[1].failed);
	mesh_runs_free(&l);
}

/* -r: h1 wrote it and received; the sender is its peer. */
static void
test_client_receives_swaps(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(readf(FIX "mesh/h2-h1.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].sender, "h2");
	assert_string_equal(l.v[0].receiver, "h1");
	mesh_runs_free(&l);
	/* The same by address. */
	assert_int_equal(readf(FIX "mesh/h2-h1.json", MESH_BY_ADDRESS, &l,
	    err, sizeof(err)), 0);
	assert_string_equal(l.v[0].sender, "198.18.0.2");
	assert_string_equal(l.v[0].receiver, "198.18.0.1");
	mesh_runs_free(&l);
}

/* The listener on h4 wrote it: client_sends means h2 sent. */
static void
test_listener_document(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(readf(FIX "mesh/h2-h4.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_string_equal(l.v[0].sender, "h2");
	assert_string_equal(l.v[0].receiver, "h4");
	mesh_runs_free(&l);
}

static void
test_bidir_both_directions(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(readf(FIX "mesh/h3-h4.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].sender, "h3");
	assert_string_equal(l.v[0].receiver, "h4");
	assert_true(fabs(l.v[0].mbps - 938.7) < 1e-9);
	assert_string_equal(l.v[1].sender, "h4");
	assert_string_equal(l.v[1].receiver, "h3");
	assert_true(fabs(l.v[1].mbps - 937.9) < 1e-9);
	mesh_runs_free(&l);
}

static void
test_failed_documents(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	/* Provenance and "result": null: failed, for its pair. */
	assert_int_equal(readf(FIX "mesh/h4-h1.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.v[0].failed);
	assert_string_equal(l.v[0].sender, "h4");
	assert_string_equal(l.v[0].receiver, "h1");
	mesh_runs_free(&l);
	/* An error document alone: failed, nobody's. */
	assert_int_equal(readf(FIX "mesh/h3-h2.json", MESH_BY_HOSTNAME, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.v[0].failed);
	assert_null(l.v[0].sender);
	assert_non_null(strstr(l.v[0].error, "cannot connect"));
	mesh_runs_free(&l);
}

static void
test_address_fallback(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(readf(FIX "addr.json", MESH_BY_HOSTNAME, &l, err,
	    sizeof(err)), 0);
	assert_string_equal(l.v[0].sender, "198.18.0.1");
	assert_string_equal(l.v[0].receiver, "198.18.0.2");
	mesh_runs_free(&l);
	assert_int_equal(readf(FIX "samehost.json", MESH_BY_HOSTNAME, &l, err,
	    sizeof(err)), 0);
	assert_string_equal(l.v[0].sender, "198.18.0.1");
	assert_string_equal(l.v[0].receiver, "198.18.0.2");
	mesh_runs_free(&l);
	assert_int_equal(readf(FIX "v6.json", MESH_BY_HOSTNAME, &l, err,
	    sizeof(err)), 0);
	assert_string_equal(l.v[0].sender, "fd00::1");
	assert_string_equal(l.v[0].receiver, "fd00::2");
	mesh_runs_free(&l);
}

static void
test_addr(void **state)
{
	char		buf[64];
	unsigned	port;

	(void)state;
	assert_string_equal(mesh_json_addr("10.0.0.1:5001", buf, sizeof(buf),
	    &port), "10.0.0.1");
	assert_int_equal(port, 5001);
	assert_string_equal(mesh_json_addr("[fe80::1%eth0]:40000", buf,
	    sizeof(buf), &port), "fe80::1%eth0");
	assert_int_equal(port, 40000);
	assert_string_equal(mesh_json_addr("fd00::1", buf, sizeof(buf),
	    &port), "fd00::1");
	assert_int_equal(port, 0);
	assert_string_equal(mesh_json_addr(NULL, buf, sizeof(buf), &port), "");
}

/* refuse FILE WANT: refused, err holds WANT, no run left behind. */
static void
refuse(const char *path, const char *want)
{
	struct mesh_runs	l;
	char			err[512] = "";

	if (readf(path, MESH_BY_HOSTNAME, &l, err, sizeof(err)) != -1)
		fail_msg("%s: taken", path);
	if (strstr(err, want) == NULL)
		fail_msg("%s: \"%s\" does not say \"%s\"", path, err, want);
	assert_int_equal(l.n, 0);
	mesh_runs_free(&l);
}

static void
test_refused(void **state)
{
	(void)state;
	refuse(FIX "rr.json", "--rr or --crr");
	refuse(FIX "garbage.json", "not JSON (line 1");
	refuse(FIX "empty.json", "empty");
	refuse(FIX "notgb.json", "not a gigebench document");
	refuse(FIX "noresult.json", "missing result");
	refuse(FIX "nodirection.json", "missing params.direction");
	refuse(FIX "nombps.json", "missing result.mbps");
	refuse(FIX "noprov.json", "missing provenance");
	refuse(FIX "noaddr.json", "provenance.control.local");
	refuse(FIX "no-such-file.json", "cannot read: No such file");
}

/* A bad document after good ones takes the file's runs back. */
static void
test_parse_rolls_back(void **state)
{
	static const char two[] =
	    "{\"program\": \"gigebench\", \"error\": \"x\", \"params\": {}}\n"
	    "{\"program\": \"gigebench\", \"runs\": 3}";
	static const char summary[] =
	    "{\"program\": \"gigebench\", \"runs\": [{\"error\": \"e\"}]}\n"
	    "{\"program\": \"gigebench\", \"error\": \"1 of 1 runs failed\","
	    " \"params\": {}}\n";
	struct mesh_runs	l = { NULL, 0, 0 };
	char			err[256];

	(void)state;
	assert_int_equal(mesh_json_parse(two, strlen(two), "t", 0, &l, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "\"runs\" is not an array"));
	assert_int_equal(l.n, 0);
	/* A failed sweep's summary after it is not one more run. */
	assert_int_equal(mesh_json_parse(summary, strlen(summary), "t", 0, &l,
	    err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.v[0].failed);
	mesh_runs_free(&l);
	assert_int_equal(mesh_json_parse("{\"event\": \"end\"}", 16, "t", 0,
	    &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--json-stream"));
	assert_int_equal(mesh_json_parse("[1]", 3, "t", 0, &l, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "not a JSON object"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_sweep_runs),
		cmocka_unit_test(test_sweep_failed_run),
		cmocka_unit_test(test_client_receives_swaps),
		cmocka_unit_test(test_listener_document),
		cmocka_unit_test(test_bidir_both_directions),
		cmocka_unit_test(test_failed_documents),
		cmocka_unit_test(test_address_fallback),
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_parse_rolls_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
