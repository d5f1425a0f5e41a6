/*
 * ttcp_opts.c: the classic ttcp command line (cli/ttcp_opts.h).  The
 * letters are the 1991 BRL/SGI ttcp's (getopt "drstuvBDTb:f:l:n:p:A:O:"),
 * each with its meaning there; what ttcp took with atoi() silently
 * ("-l 64k" as 64) is refused here with the reason, and -r takes no
 * host.  getopt_long, as the native parser, with optind reset.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "base/units.h"
#include "cli/ttcp_opts.h"

enum {
	OPT_TTCP = 256,
	OPT_JSON,
	OPT_SILENT,
	OPT_MAX_DURATION,
	OPT_HELP,
};

static const struct option ttcp_long[] = {
	{ "ttcp",		no_argument,		NULL,	OPT_TTCP },
	{ "json",		no_argument,		NULL,	OPT_JSON },
	{ "silent-timeout",	required_argument,	NULL,	OPT_SILENT },
	{ "max-duration",	required_argument,	NULL,	OPT_MAX_DURATION },
	{ "help",		no_argument,		NULL,	OPT_HELP },
	{ NULL,			0,			NULL,	0 },
};

int
ttcp_wanted(int argc, char *const argv[])
{
	const char *base;
	int i;

	if (argc > 0 && argv[0] != NULL) {
		base = strrchr(argv[0], '/');
		base = base != NULL ? base + 1 : argv[0];
		if (strcmp(base, "ttcp") == 0)
			return 1;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--ttcp") == 0)
			return 1;
	}
	return 0;
}

void
ttcp_opts_usage(FILE *f)
{
	fputs(
"usage: gigebench --ttcp -t [-options] host [< in]\n"
"       gigebench --ttcp -r [-options] [> out]\n"
"  (or the same without --ttcp, started as \"ttcp\")\n"
"The classic ttcp (BRL/SGI, 1991): its letters, defaults, wire and output.\n"
"Common options:\n"
"  -l n    length of bufs read from or written to network (default 8192)\n"
"  -u      use UDP instead of TCP\n"
"  -p n    port number to send to or listen at (default 5001)\n"
"  -s      -t: source a pattern to network; -r: sink (discard) all data\n"
"          from network; without -s: -t sends stdin, -r writes stdout\n"
"  -A n    align the start of buffers to this modulus (default 16384)\n"
"  -O n    start buffers at this offset from the modulus (default 0)\n"
"  -v      verbose: print more statistics\n"
"  -d      set SO_DEBUG socket option\n"
"  -b n    set socket buffer size (SO_SNDBUF with -t, SO_RCVBUF with -r)\n"
"  -f X    format for rate: k,K = kilo{bit,byte}; m,M = mega; g,G = giga\n"
"          (1024-based, as ttcp's)\n"
"Options specific to -t:\n"
"  -n n    number of source bufs written to network (default 2048)\n"
"  -D      don't buffer TCP writes (sets TCP_NODELAY socket option)\n"
"Options specific to -r:\n"
"  -B      for -s, only output full blocks as specified by -l (for TAR)\n"
"  -T      \"touch\": access each byte as it's read\n"
"gigebench's own:\n"
"  --json  the figures as one JSON document on stdout (-s only)\n"
"  --silent-timeout s  a peer silent this long ends the transfer\n"
"          (default 10)\n"
"  --max-duration s    -r: the longest transfer served (default 300)\n", f);
}

/* -X's value, a plain number within [min, max], into *out. */
static int
num(const char *arg, char letter, uint64_t min, uint64_t max, uint64_t *out,
    char *err, size_t errlen)
{
	char what[3] = { '-', letter, '\0' };

	return units_parse_uint(arg, min, max, what, out, err, errlen);
}

static int
num32(const char *arg, char letter, uint32_t max, uint32_t *out, char *err,
    size_t errlen)
{
	uint64_t v;

	if (num(arg, letter, letter == 'l' ? 1 : 0, max, &v, err, errlen) ==
	    -1)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* One letter with its value; -1 with err on a bad value. */
static int
ttcp_letter(struct ttcp_cfg *c, int ch, const char *arg, char *err,
    size_t errlen)
{
	uint64_t v;

	switch (ch) {
	case 'l':
		return num32(arg, 'l', TTCP_MAX_BUFLEN, &c->buflen, err,
		    errlen);
	case 'A':
		return num32(arg, 'A', TTCP_MAX_ALIGN, &c->align, err, errlen);
	case 'O':
		return num32(arg, 'O', TTCP_MAX_ALIGN, &c->offset, err, errlen);
	case 'b':
		return num32(arg, 'b', GB_MAX_SOCKBUF, &c->sockbuf, err,
		    errlen);
	case 'n':
		return num(arg, 'n', 0, GB_MAX_NBUF, &c->nbuf, err, errlen);
	case 'p':
		if (num(arg, 'p', 1, 65535, &v, err, errlen) == -1)
			return -1;
		c->port = (uint16_t)v;
		return 0;
	case 'f':
		if (arg[0] == '\0' || arg[1] != '\0' ||
		    !units_rate_letter_ok(arg[0])) {
			snprintf(err, errlen, "-f is one of k K m M g G: %s",
			    arg);
			return -1;
		}
		c->fmt = arg[0];
		return 0;
	}
	snprintf(err, errlen, "-%c: no such option", ch);
	return -1;
}

static int
ttcp_long_opt(struct ttcp_cfg *c, int ch, const char *arg, char *err,
    size_t errlen)
{
	switch (ch) {
	case OPT_TTCP:
		return 0;
	case OPT_JSON:
		c->json = 1;
		return 0;
	case OPT_SILENT:
		return units_parse_seconds(arg, GB_MIN_SILENT_MS,
		    GB_MAX_SILENT_MS, "--silent-timeout", &c->silent_ms, err,
		    errlen);
	case OPT_MAX_DURATION:
		return units_parse_seconds(arg, 1000, GB_MAX_DURATION_MS,
		    "--max-duration", &c->max_duration_ms, err, errlen);
	}
	return ttcp_letter(c, ch, arg, err, errlen);
}

/* What the letters leave to check together. */
static int
ttcp_check(struct ttcp_cfg *c, int argc, char *argv[], char *err,
    size_t errlen)
{
	if (optind < argc)
		c->host = argv[optind++];
	if (optind < argc) {
		snprintf(err, errlen, "one host only: %s", argv[optind]);
		return -1;
	}
	if (c->trans && c->host == NULL) {
		snprintf(err, errlen, "-t needs the receiver's host");
		return -1;
	}
	if (!c->trans && c->host != NULL) {
		snprintf(err, errlen, "-r takes no host (it listens on port "
		    "%u): %s", c->port, c->host);
		return -1;
	}
	if (c->align != 0 && c->offset >= c->align) {
		snprintf(err, errlen, "-O %u is not below -A %u", c->offset,
		    c->align);
		return -1;
	}
	if (c->json && !c->sink) {
		snprintf(err, errlen, "--json needs -s (without it the data "
		    "is stdin or stdout)");
		return -1;
	}
	/* ttcp: "send more than the sentinel size". */
	if (c->udp && c->buflen < TTCP_UDP_MIN_BUFLEN)
		c->buflen = TTCP_UDP_MIN_BUFLEN;
	if (c->udp && c->buflen > 65507) {
		snprintf(err, errlen, "-u -l %u: a UDP datagram holds at most "
		    "65507 bytes", c->buflen);
		return -1;
	}
	return 0;
}

int
ttcp_opts_parse(int argc, char *argv[], struct ttcp_cfg *c, char *err,
    size_t errlen)
{
	int ch, role = 0;

	ttcp_cfg_init(c);
	optind = 0;		/* reset getopt, also for the fuzzer */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":drstuvBDTb:f:l:n:p:A:O:",
	    ttcp_long, NULL)) != -1) {
		switch (ch) {
		case 't': c->trans = 1; role = 1; break;
		case 'r': c->trans = 0; role = 1; break;
		case 'u': c->udp = 1; break;
		case 's': c->sink = !c->sink; break;
		case 'v': c->verbose = 1; break;
		case 'd': c->debug = 1; break;
		case 'D': c->nodelay = 1; break;
		case 'B': c->fullblocks = 1; break;
		case 'T': c->touch = 1; break;
		case OPT_HELP: return OPTS_HELP;
		case ':':
			snprintf(err, errlen, "-%c needs a value", optopt);
			return OPTS_ERROR;
		case '?':
			if (optopt != 0)
				snprintf(err, errlen, "-%c: not a ttcp option",
				    optopt);
			else
				snprintf(err, errlen, "%s: not a ttcp option",
				    argv[optind - 1]);
			return OPTS_ERROR;
		default:
			if (ttcp_long_opt(c, ch, optarg, err, errlen) == -1)
				return OPTS_ERROR;
		}
	}
	if (!role) {
		snprintf(err, errlen, "-t host or -r is needed");
		return OPTS_ERROR;
	}
	return ttcp_check(c, argc, argv, err, errlen) == -1 ? OPTS_ERROR :
	    OPTS_OK;
}
