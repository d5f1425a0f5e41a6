/*
 * fuzz_opts.c: libFuzzer target for the command line, opts_parse()
 * (src/opts.c), with units.c and sweep.c below it.
 *
 * Input: the arguments after "gigebench", separated by NUL bytes (at most
 * 32; the rest of the input is dropped).  Each argument is its own heap
 * block of exactly its length, so ASan sees a read past any of them, and
 * argv is writable as getopt_long() wants (it permutes it).
 *
 * Oracles beyond the sanitizers: an error comes with a message (the man
 * page promises one line naming the option); a connecting command line
 * that parses gives parameters the listener accepts: they pass
 * params_check() and survive a hello round trip, and so does every
 * sweep point (first, last and one between) once applied as sweeprun.c
 * applies it.  The option parser and the protocol are meant to share
 * their limits; this is where a drift would show.  The same words also
 * go to the classic ttcp's parser (--ttcp), whose accepted lines must
 * be ones its transfer can run.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/ttcp_opts.h"
#include "codec/proto.h"
#include "base/sweep.h"

#define MAX_ARGS	32

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_opts: %s%s%s\n", what, detail != NULL ? ": " :
	    "", detail != NULL ? detail : "");
	abort();
}

/* The hello that carries p, header and body; NULL when it cannot. */
static uint8_t *
hello_encode(const struct gb_params *p, size_t *len)
{
	struct proto_msg *m;
	uint8_t *buf;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		abort();
	m->type = PROTO_HELLO;
	m->params = *p;
	buf = proto_encode(m, len);
	free(m);
	return buf;
}

/*
 * The listener must take what the command line accepted, and read the
 * same parameters back: compared as their encodings, so that bytes past
 * a string's NUL (what an earlier -C left) do not count, and a field
 * added to struct gb_params is compared as soon as the hello carries it.
 */
static void
check_params(const struct gb_params *given, const char *where)
{
	struct gb_params pm = *given, *p = &pm;
	struct proto_reader r;
	struct proto_msg *m;
	char err[GB_ERR_LEN];
	uint8_t *buf, *again;
	size_t len, len2, off;
	long n;

	params_dgram_len_floor(p);	/* -u without -l, as the client fills it */
	if (params_check(p, err, sizeof(err)) == -1)
		fail(where, err);
	if ((m = calloc(1, sizeof(*m))) == NULL)
		abort();
	if ((buf = hello_encode(p, &len)) == NULL)
		fail(where, "the hello does not encode");
	proto_reader_init(&r);
	/* The reader takes the header first, then the body. */
	for (off = 0; off < len; off += (size_t)n)
		if ((n = proto_reader_push(&r, buf + off, len - off)) <= 0)
			fail(where, "the hello is refused by the reader");
	if (proto_reader_decode(&r, m, err, sizeof(err)) != PROTO_OK)
		fail(where, err);
	if ((again = hello_encode(&m->params, &len2)) == NULL ||
	    len2 != len || memcmp(buf, again, len) != 0)
		fail(where, "the hello decodes to other parameters");
	proto_reader_reset(&r);
	free(again);
	free(buf);
	free(m);
}

/* As sweeprun.c's run_point() builds the parameters of one point. */
static void
check_point(const struct gb_opts *o, unsigned point)
{
	struct sweep_setting set;
	struct gb_params p = o->params;
	char text[64];
	unsigned a;

	memset(&set, 0, sizeof(set));
	sweep_apply(&o->sweep, point, &p, &set);
	if (set.mtu != 0)
		p.mtu = set.mtu;
	if (set.cc[0] != '\0')
		snprintf(p.cc, sizeof(p.cc), "%s", set.cc);
	for (a = 0; a < o->sweep.naxes; a++) {
		sweep_value_text(&o->sweep, a, point, text, sizeof(text));
		(void)sweep_value(&o->sweep, a, point);
	}
	check_params(&p, "a sweep point the listener refuses");
}

static void
check_opts(const struct gb_opts *o)
{
	unsigned n;

	if (o->role != GB_ROLE_CONNECT)
		return;
	if (o->host == NULL)
		fail("a connecting command line without a host", NULL);
	check_params(&o->params, "parameters the listener refuses");
	n = sweep_npoints(&o->sweep);
	if (n == 0 || n > SWEEP_MAX_POINTS)
		fail("a sweep of no or too many points", NULL);
	check_point(o, 0);
	check_point(o, n / 2);
	check_point(o, n - 1);
}

/*
 * The same words as the classic ttcp's command line (ttcp_opts.c): an
 * error has a message; a line that parses is one ttcp_xfer can run.
 */
static void
check_ttcp(int argc, char **argv)
{
	struct ttcp_cfg c;
	char err[GB_ERR_LEN];
	int rc;

	memset(err, 'x', sizeof(err));
	rc = ttcp_opts_parse(argc, argv, &c, err, sizeof(err));
	if (rc == OPTS_ERROR && (memchr(err, '\0', sizeof(err)) == NULL ||
	    err[0] == '\0'))
		fail("--ttcp: an error without a message", NULL);
	if (rc != OPTS_OK)
		return;
	if (c.buflen < 1 || c.buflen > TTCP_MAX_BUFLEN ||
	    (c.udp && (c.buflen < TTCP_UDP_MIN_BUFLEN || c.buflen > 65507)))
		fail("--ttcp: a buffer length out of range", NULL);
	if (c.align != 0 && c.offset >= c.align)
		fail("--ttcp: -O not below -A", NULL);
	if ((c.trans && c.host == NULL) || (!c.trans && c.host != NULL))
		fail("--ttcp: a host without -t or -t without one", NULL);
	if (c.json && !c.sink)
		fail("--ttcp: --json in pipe mode", NULL);
	if (c.port == 0 || c.silent_ms == 0 || c.max_duration_ms == 0)
		fail("--ttcp: a zero port or bound", NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2], err[GB_ERR_LEN];
	const uint8_t *p = data, *end = data + size, *nul;
	struct gb_opts *o;
	size_t len;
	int argc = 0, i, rc;

	if ((argv[argc++] = strdup("gigebench")) == NULL)
		abort();
	while (p < end && argc <= MAX_ARGS) {
		nul = memchr(p, '\0', (size_t)(end - p));
		len = nul != NULL ? (size_t)(nul - p) : (size_t)(end - p);
		if ((argv[argc] = malloc(len + 1)) == NULL)
			abort();
		memcpy(argv[argc], p, len);
		argv[argc++][len] = '\0';
		p += len + 1;
	}
	argv[argc] = NULL;
	if ((o = malloc(sizeof(*o))) == NULL)
		abort();
	memset(err, 'x', sizeof(err));
	rc = opts_parse(argc, argv, o, err, sizeof(err));
	if (rc == OPTS_ERROR && (memchr(err, '\0', sizeof(err)) == NULL ||
	    err[0] == '\0'))
		fail("an error without a message", NULL);
	if (rc == OPTS_OK)
		check_opts(o);
	else if (rc != OPTS_ERROR && rc != OPTS_HELP && rc != OPTS_VERSION)
		fail("an unknown return value", NULL);
	free(o);
	check_ttcp(argc, argv);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
