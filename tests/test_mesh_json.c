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

/* The text of path, NUL-terminated, into *len bytes; the caller frees. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*f = fopen(path, "r");
	char	*buf;
	long	 n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/*
 * The one-test fixture with its first "from" made "to", parsed as a
 * file named hostile.json: 0 or -1, with err, the runs in l.
 */
static int
edited(const char *from, const char *to, struct mesh_runs *l, char *err,
    size_t errlen)
{
	size_t	 len, flen = strlen(from), tlen = strlen(to);
	char	*text = slurp(FIX "mesh/h1-h4.json", &len), *at, *out;
	int	 rv;

	at = strstr(text, from);
	if (at == NULL)
		fail_msg("the fixture has no \"%s\"", from);
	out = malloc(len - flen + tlen + 1);
	assert_non_null(out);
	memcpy(out, text, (size_t)(at - text));
	memcpy(out + (at - text), to, tlen);
	strcpy(out + (at - text) + tlen, at + flen);
	memset(l, 0, sizeof(*l));
	rv = mesh_json_parse(out, strlen(out), "hostile.json",
	    MESH_BY_HOSTNAME, l, err, errlen);
	free(out);
	free(text);
	return rv;
}

/* The fixture with "from" made "to" is refused, and err says want. */
static void
refuse_edit(const char *from, const char *to, const char *want)
{
	struct mesh_runs	l;
	char			err[512] = "";

	if (edited(from, to, &l, err, sizeof(err)) != -1)
		fail_msg("%s -> %s: taken", from, to);
	if (strstr(err, want) == NULL)
		fail_msg("%s -> %s: \"%s\" does not say \"%s\"", from, to,
		    err, want);
	assert_int_equal(l.n, 0);
	mesh_runs_free(&l);
}

/* Numbers no gigebench writes, each refused naming its member. */
static void
test_hostile_numbers(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	refuse_edit("\"mbps\": 95.1,", "\"mbps\": -1,",
	    "result.mbps is negative: -1");
	refuse_edit("\"mbps\": 95.1,", "\"mbps\": 2e9,",
	    "result.mbps is too large: 2e+09 (at most 1e+09)");
	/* ncpus 2: 202 % is the ceiling, 250 % is past it. */
	refuse_edit("\"process_pct\": 6.3", "\"process_pct\": 250",
	    "result.receiver.cpu.process_pct is too large: 250");
	refuse_edit("\"busy_pct\": 3.4", "\"busy_pct\": 101",
	    "result.receiver.host_cpu.busy_pct is too large: 101");
	refuse_edit("\"retransmits\": 40", "\"retransmits\": 5e9",
	    "result.sender.tcp.retransmits is too large: 5e+09");
	refuse_edit("\"retransmits\": 40", "\"retransmits\": -40",
	    "result.sender.tcp.retransmits is negative");
	refuse_edit("\"port\": 5001", "\"port\": 70000",
	    "result.port is not a port (0-65535): 70000");
	refuse_edit("\"port\": 5001", "\"port\": 50.5",
	    "result.port is not a port");
	/* jansson takes no NaN and no overflowing number. */
	refuse_edit("\"mbps\": 95.1,", "\"mbps\": 1e999,", "not JSON (line");
	refuse_edit("\"mbps\": 95.1,", "\"mbps\": NaN,", "not JSON (line");
	/* What a process on two CPUs can show is still taken. */
	assert_int_equal(edited("\"process_pct\": 6.3",
	    "\"process_pct\": 200.5", &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_true(fabs(l.v[0].fig[MESH_PROC_RX] - 200.5) < 1e-9);
	mesh_runs_free(&l);
}

/* A string from another host reaches the writers escaped. */
static void
test_hostile_strings(void **state)
{
	struct mesh_runs	l;
	char			err[512];

	(void)state;
	assert_int_equal(edited("\"hostname\": \"h1\"",
	    "\"hostname\": \"h\\u001b[31m`x`\\n\\u0085\"", &l, err,
	    sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].sender, "h\\x1b[31m`x`\\x0a\\xc2\\x85");
	assert_string_equal(l.v[0].receiver, "h4");
	mesh_runs_free(&l);
}

/* Bounds on the text, checked before jansson builds anything. */
static void
test_hostile_shape(void **state)
{
	struct mesh_runs	 l = { NULL, 0, 0 };
	char			 err[512];
	char			*deep;
	size_t			 i, n = MESH_JSON_MAX_DEPTH + 1;

	(void)state;
	deep = malloc(2 * n + 1);
	assert_non_null(deep);
	for (i = 0; i < n; i++) {
		deep[i] = '[';
		deep[n + i] = ']';
	}
	deep[2 * n] = '\0';
	assert_int_equal(mesh_json_parse(deep, 2 * n, "deep.json",
	    MESH_BY_HOSTNAME, &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nested deeper than 64 levels (line 1)"));
	/* Brackets inside a string are not nesting: jansson sees it. */
	deep[0] = '"';
	deep[2 * n - 1] = '"';
	assert_int_equal(mesh_json_parse(deep, 2 * n, "deep.json",
	    MESH_BY_HOSTNAME, &l, err, sizeof(err)), -1);
	assert_null(strstr(err, "nested"));
	assert_non_null(strstr(err, "not JSON (line 1"));
	free(deep);
	/* The size is refused before a byte is looked at. */
	assert_int_equal(mesh_json_parse("{}", (size_t)MESH_JSON_MAX_BYTES + 1,
	    "big.json", MESH_BY_HOSTNAME, &l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "larger than 64 MiB"));
	assert_int_equal(l.n, 0);
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
		cmocka_unit_test(test_hostile_numbers),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_hostile_shape),
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
