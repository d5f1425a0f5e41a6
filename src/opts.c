/*
 * opts.c: the command line, from argv to struct gb_opts: the getopt table
 * and loop, and the options without a value.
 *
 * The man page is the contract: the option table, the usage text
 * (opts_usage.c) and man/gigebench.1 list the same options in the same
 * order (tests/man.sh and tests/test_opts.c check it).  Most of ttcp's
 * letters keep their meaning; the ones that do not are listed in the help
 * and the man page, and --ttcp (cli/ttcp_opts.h) is the classic tool.
 *
 * opts_parse() range-checks every number (opts_value.c, with the ranges
 * of the params field table), then checks the combinations of options
 * once the whole line is read (opts_check.c).  It never prints and never
 * exits: a problem goes into the caller's buffer as "OPTION: WHAT is
 * PROBLEM: VALUE", naming the option as the user typed it ("-l" or
 * "--length").  It resets getopt on entry, so it can be called any
 * number of times.
 */

#include <sys/socket.h>

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/params.h"
#include "base/safetext.h"
#include "cli/opts.h"
#include "opts_state.h"

/* A leading ':' makes getopt report a missing value apart from '?'. */
static const char opts_short[] =
    ":146A:B:b:C:Df:hI:i:Jl:M:n:P:p:qR:rSsT:tuVvw:Z";

static const struct option opts_long[] = {
	{ "affinity",	required_argument,	NULL,	'A' },
	{ "allow-mtu",	no_argument,		NULL,	OPT_ALLOW_MTU },
	{ "allow-profile", no_argument,		NULL,	OPT_ALLOW_PROFILE },
	{ "allow-reverse", no_argument,		NULL,	OPT_ALLOW_REVERSE },
	{ "bidir",	no_argument,		NULL,	OPT_BIDIR },
	{ "bind",	required_argument,	NULL,	'B' },
	{ "bind-dev",	required_argument,	NULL,	OPT_BIND_DEV },
	{ "batch",	required_argument,	NULL,	OPT_BATCH },
	{ "buffer",	required_argument,	NULL,	'b' },
	{ "capture",	no_argument,		NULL,	OPT_CAPTURE },
	{ "confidence",	required_argument,	NULL,	OPT_CONFIDENCE },
	{ "congestion",	required_argument,	NULL,	'C' },
	{ "count",	required_argument,	NULL,	'n' },
	{ "cport",	required_argument,	NULL,	OPT_CPORT },
	{ "csv",	required_argument,	NULL,	OPT_CSV },
	{ "flow-csv",	required_argument,	NULL,	OPT_FLOW_CSV },
	{ "force-bufs",	no_argument,		NULL,	OPT_FORCE_BUFS },
	{ "format",	required_argument,	NULL,	'f' },
	{ "fq-rate",	required_argument,	NULL,	OPT_FQ_RATE },
	{ "handshake-timeout", required_argument, NULL,	OPT_LIMIT },
	{ "gro",	no_argument,		NULL,	OPT_GRO },
	{ "gso",	no_argument,		NULL,	OPT_GSO },
	{ "help",	no_argument,		NULL,	'h' },
	{ "interface",	required_argument,	NULL,	'I' },
	{ "interval",	required_argument,	NULL,	'i' },
	{ "ipv4",	no_argument,		NULL,	'4' },
	{ "ipv6",	no_argument,		NULL,	'6' },
	{ "json",	no_argument,		NULL,	'J' },
	{ "json-stream", no_argument,		NULL,	OPT_JSON_STREAM },
	{ "length",	required_argument,	NULL,	'l' },
	{ "link-rate",	required_argument,	NULL,	OPT_LINK_RATE },
	{ "max-bytes",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-duration", required_argument,	NULL,	OPT_LIMIT },
	{ "max-length",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-pending", required_argument,	NULL,	OPT_LIMIT },
	{ "max-pending-source", required_argument, NULL, OPT_LIMIT },
	{ "max-rate",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-sockbuf", required_argument,	NULL,	OPT_LIMIT },
	{ "max-flows",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-streams", required_argument,	NULL,	OPT_LIMIT },
	{ "mss",	required_argument,	NULL,	'M' },
	{ "mtu",	required_argument,	NULL,	OPT_MTU },
	{ "no-progress", no_argument,		NULL,	OPT_NO_PROGRESS },
	{ "nodelay",	no_argument,		NULL,	'D' },
	{ "omit",	required_argument,	NULL,	OPT_OMIT },
	{ "once",	no_argument,		NULL,	'1' },
	{ "parallel",	required_argument,	NULL,	'P' },
	{ "plot",	required_argument,	NULL,	OPT_PLOT },
	{ "phases",	required_argument,	NULL,	OPT_PHASES },
	{ "port",	required_argument,	NULL,	'p' },
	{ "probe-crr",	no_argument,		NULL,	OPT_PROBE_CRR },
	{ "probe-rate",	required_argument,	NULL,	OPT_PROBE_RATE },
	{ "probe-tos",	required_argument,	NULL,	OPT_PROBE_TOS },
	{ "probes",	required_argument,	NULL,	OPT_PROBES },
	{ "psk",	required_argument,	NULL,	OPT_PSK },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "rate",	required_argument,	NULL,	'R' },
	{ "rcvbuf",	required_argument,	NULL,	OPT_RCVBUF },
	{ "receive",	no_argument,		NULL,	'r' },
	{ "request-size", required_argument,	NULL,	OPT_REQ_SIZE },
	{ "response-size", required_argument,	NULL,	OPT_RESP_SIZE },
	{ "rr",		no_argument,		NULL,	OPT_RR },
	{ "crr",	no_argument,		NULL,	OPT_CRR },
	{ "rr-burst",	required_argument,	NULL,	OPT_RR_BURST },
	{ "rr-timeout",	required_argument,	NULL,	OPT_RR_TIMEOUT },
	{ "repeat",	required_argument,	NULL,	OPT_REPEAT },
	{ "restore",	no_argument,		NULL,	OPT_RESTORE },
	{ "sendfile",	no_argument,		NULL,	OPT_SENDFILE },
	{ "server",	no_argument,		NULL,	'S' },
	{ "silent-timeout", required_argument,	NULL,	OPT_LIMIT },
	{ "sink",	no_argument,		NULL,	's' },
	{ "skip-rx-copy", no_argument,		NULL,	OPT_SKIP_RX_COPY },
	{ "sndbuf",	required_argument,	NULL,	OPT_SNDBUF },
	{ "profile",	no_argument,		NULL,	OPT_PROFILE },
	{ "splice",	no_argument,		NULL,	OPT_SPLICE },
	{ "sweep",	required_argument,	NULL,	OPT_SWEEP },
	{ "threads",	required_argument,	NULL,	OPT_THREADS },
	{ "time",	required_argument,	NULL,	'T' },
	{ "timestamps",	optional_argument,	NULL,	OPT_TIMESTAMPS },
	{ "title",	required_argument,	NULL,	OPT_TITLE },
	{ "tos",	required_argument,	NULL,	OPT_TOS },
	{ "transmit",	no_argument,		NULL,	't' },
	{ "ttcp",	no_argument,		NULL,	OPT_TTCP },
	{ "udp",	no_argument,		NULL,	'u' },
	{ "under-load",	no_argument,		NULL,	OPT_UNDER_LOAD },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "version",	no_argument,		NULL,	'V' },
	{ "window",	required_argument,	NULL,	'w' },
	{ "zerocopy",	no_argument,		NULL,	'Z' },
	{ NULL,		0,			NULL,	0 }
};

static void	opts_defaults(struct gb_opts *);
static void	opts_command(char *, size_t, int, char **);
static int	opts_bad(struct opts_state *, int, char **);
static int	opts_value_missing(struct opts_state *, char **);
static void	opts_client_only(struct opts_state *, int);
static const char *opts_ttcp_hint(int);
static int	opts_unknown(struct opts_state *);
static int	opts_flag(struct gb_opts *, struct opts_state *, int,
		    const char *);
static int	opts_data_flag(struct gb_opts *, struct opts_state *, int);
static int	opts_operands(struct gb_opts *, struct opts_state *, int,
		    char **);

static void
opts_defaults(struct gb_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->role = GB_ROLE_LISTEN;
	o->host = NULL;
	o->port = GB_DEFAULT_PORT;
	o->bind_addr = NULL;
	o->family = AF_UNSPEC;
	o->unit = 'm';
	o->iface = NULL;
	o->repeat = 1;
	bounds_init(&o->bounds);
	params_init(&o->params);
}

/* "NAME: " (when there is one) and the message; returns OPTS_ERROR. */
int
opts_error(struct opts_state *st, const char *fmt, ...)
{
	char	msg[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (st->err != NULL && st->errlen > 0) {
		snprintf(st->err, st->errlen, "%s%s%s", st->name,
		    *st->name != '\0' ? ": " : "", msg);
		opts_printable(st->err, st->errlen);
	}
	return OPTS_ERROR;
}

/*
 * A value may hold a newline or an escape sequence: the message stays one
 * line on the terminal, each control character shown as "\\x1b".
 */
void
opts_printable(char *s, size_t size)
{
	safetext_inplace(s, size);
}

/* An empty value is shown as "" so that it can be seen. */
const char *
opts_shown(const char *arg)
{
	return *arg == '\0' ? "\"\"" : arg;
}

int
opts_parse(int argc, char **argv, struct gb_opts *o, char *err,
    size_t errlen)
{
	struct opts_state	 st;
	int			 ch, li, rv;

	opts_defaults(o);
	opts_command(o->command, sizeof(o->command), argc, argv);
	memset(&st, 0, sizeof(st));
	st.err = err;
	st.errlen = errlen;
	if (err != NULL && errlen > 0)
		*err = '\0';

	/* 0, not 1: glibc then forgets the previous argv entirely. */
	optind = 0;
	opterr = 0;
	for (;;) {
		li = -1;
		ch = getopt_long(argc, argv, opts_short, opts_long, &li);
		if (ch == -1)
			break;
		if (ch == '?' || ch == ':') {
			/* ttcp's habits are its letters, not long names */
			if (strncmp(argv[optind - 1], "--", 2) != 0)
				o->hint = opts_ttcp_hint(optopt);
			return opts_bad(&st, ch, argv);
		}
		if (li >= 0)
			snprintf(st.name, sizeof(st.name), "--%s",
			    opts_long[li].name);
		else
			snprintf(st.name, sizeof(st.name), "-%c", ch);
		opts_client_only(&st, ch);
		rv = opts_value_missing(&st, argv) ? OPTS_ERROR :
		    opts_flag(o, &st, ch, optarg);
		if (rv == OPTS_ERROR && li < 0)
			o->hint = opts_ttcp_hint(ch);
		if (rv != OPTS_OK)
			return rv;
	}
	if (opts_operands(o, &st, argc, argv) == OPTS_ERROR)
		return OPTS_ERROR;
	return opts_check(o, &st);
}

/* A word as a shell would need it: bare, or in single quotes. */
static size_t
opts_command_word(char *buf, size_t len, const char *w)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_./:=,@%+-";
	size_t n = 0;
	int quote = *w == '\0' || w[strspn(w, plain)] != '\0';

#define PUT(c)	do { if (n + 1 < len) buf[n++] = (c); } while (0)
	if (quote)
		PUT('\'');
	for (; *w != '\0'; w++) {
		if (*w == '\'') {
			PUT('\''); PUT('\\'); PUT('\''); PUT('\'');
		} else
			PUT((unsigned char)*w >= 0x20 && *w != 0x7f ? *w : '?');
	}
	if (quote)
		PUT('\'');
#undef PUT
	buf[n] = '\0';
	return n;
}

/* argv as one line for the provenance, cut with "..." when too long. */
static void
opts_command(char *buf, size_t len, int argc, char **argv)
{
	char word[512];
	size_t n = 0, w;
	int i;

	buf[0] = '\0';
	for (i = 0; i < argc && argv[i] != NULL; i++) {
		w = opts_command_word(word, sizeof(word), argv[i]);
		if (n + w + 2 + 4 > len) {
			snprintf(buf + n, len - n, "%s...", n > 0 ? " " : "");
			return;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n > 0 ?
		    " " : "", word);
	}
}

/*
 * The options of the test itself, which the connecting side sends in its
 * hello: a listener given one ignores it, and is told so (opts_check).
 */
static void
opts_client_only(struct opts_state *st, int ch)
{
	static const int codes[] = {
		'A', 'b', 'C', 'D', 'i', 'l', 'M', 'n', 'P', 'T', 'w', 'Z',
		OPT_RCVBUF, OPT_SNDBUF, OPT_CAPTURE, OPT_FORCE_BUFS,
		OPT_LINK_RATE, OPT_CONFIDENCE, OPT_CSV, OPT_MTU, OPT_PLOT,
		OPT_REPEAT, OPT_SWEEP, OPT_FQ_RATE, OPT_SENDFILE,
		OPT_SKIP_RX_COPY, OPT_SPLICE, OPT_TOS, OPT_TITLE, OPT_CPORT,
		OPT_OMIT, OPT_NO_PROGRESS, OPT_JSON_STREAM, OPT_RR,
		OPT_CRR, OPT_REQ_SIZE, OPT_RESP_SIZE, OPT_RR_BURST,
		OPT_RR_TIMEOUT, OPT_BIDIR, OPT_PROFILE, OPT_THREADS,
		OPT_FLOW_CSV, OPT_UNDER_LOAD, OPT_PROBES, OPT_PROBE_TOS,
		OPT_PHASES, OPT_PROBE_RATE, OPT_PROBE_CRR,
	};
	size_t i, len = strlen(st->client_only);

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i] == ch)
			break;
	if (i == sizeof(codes) / sizeof(codes[0]) ||
	    strstr(st->client_only, st->name) != NULL ||
	    len + strlen(st->name) + 3 >= sizeof(st->client_only))
		return;
	snprintf(st->client_only + len, sizeof(st->client_only) - len,
	    "%s%s", len != 0 ? ", " : "", st->name);
}

/*
 * A value given as its own word that is another option ("-B -l 8192",
 * "-T --json"): the value was forgotten.  No option takes a value that
 * starts so ("-5" goes on to the range check, which names it negative).
 */
static int
opts_value_missing(struct opts_state *st, char **argv)
{
	if (optarg == NULL || optarg != argv[optind - 1] ||
	    optarg[0] != '-' || !(isalpha((unsigned char)optarg[1]) ||
	    optarg[1] == '-'))
		return 0;
	opts_error(st, "missing value before %s", optarg);
	return 1;
}

/*
 * The letters whose ttcp meaning differs (README "ttcp's letters"): a
 * usage error on one says where ttcp's meaning went.
 */
static const char *
opts_ttcp_hint(int ch)
{
	switch (ch) {
	case 'A':
		return "-A is CPU affinity here (ttcp's buffer alignment: "
		    "--ttcp -A)";
	case 'B':
		return "-B is the bind address here (ttcp's full blocks: "
		    "--ttcp -B)";
	case 'T':
		return "-T is the test duration here (ttcp's touch: --ttcp -T)";
	case 'O':
		return "-O is no option here (ttcp's buffer offset: --ttcp -O)";
	case 'd':
		return "-d is no option here (ttcp's SO_DEBUG: --ttcp -d)";
	}
	return NULL;
}

/*
 * getopt said '?' or ':'.  Name the option as typed.  A known option can
 * only be '?' when it is long and was given "=value" it does not take.
 */
static int
opts_bad(struct opts_state *st, int ch, char **argv)
{
	const char	*arg = argv[optind - 1];
	int		 known;
	size_t		 n;

	known = optopt >= 256 || (optopt > 0 && optopt != ':' &&
	    strchr(opts_short, optopt) != NULL);
	if (strncmp(arg, "--", 2) == 0 && (ch == ':' || known || optopt == 0)) {
		n = strcspn(arg, "=");
		snprintf(st->name, sizeof(st->name), "%.*s", (int)n, arg);
	} else
		snprintf(st->name, sizeof(st->name), "-%c", optopt);

	if (ch == ':')
		return opts_error(st, "missing value");
	if (known)
		return opts_error(st, "takes no value: %s", arg);
	return opts_unknown(st);
}

/* "unknown option: --frobnicate", or the candidates of an abbreviation. */
static int
opts_unknown(struct opts_state *st)
{
	char		 name[sizeof(st->name)], list[256];
	size_t		 i, n, len = 0;
	int		 matches = 0;

	snprintf(name, sizeof(name), "%s", st->name);
	*st->name = '\0';
	n = strlen(name);
	*list = '\0';
	for (i = 0; n > 2 && name[1] == '-' && opts_long[i].name != NULL; i++) {
		if (strncmp(opts_long[i].name, name + 2, n - 2) != 0)
			continue;
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
			    "%s--%s", matches > 0 ? ", " : "",
			    opts_long[i].name);
		matches++;
	}
	if (matches > 1)
		return opts_error(st, "ambiguous option (%s): %s", list, name);
	return opts_error(st, "unknown option: %s", name);
}

/*
 * The flags of the test and its data path: -u and its offloads, -Z and the
 * rest, --capture, --profile, --force-bufs; -1 else.
 */
static int
opts_data_flag(struct gb_opts *o, struct opts_state *st, int ch)
{
	struct gb_params *p = &o->params;

	switch (ch) {
	case 'u':
		p->udp = 1;
		return 0;
	case OPT_CAPTURE:
		p->capture = 1;
		return 0;
	case OPT_PROFILE:
		p->profile = 1;
		return 0;
	case OPT_FORCE_BUFS:
		p->force_bufs = 1;
		return 0;
	case OPT_GSO:
		p->gso = 1;
		return 0;
	case OPT_GRO:
		p->gro = 1;
		return 0;
	case 'Z':
		p->tx_path = GB_PATH_ZEROCOPY;
		st->zflag = 1;
		return 0;
	case OPT_SENDFILE:
		p->tx_path = GB_PATH_SENDFILE;
		st->sendfile = 1;
		return 0;
	case OPT_SKIP_RX_COPY:
		p->rx_path = GB_PATH_SKIP_RX_COPY;
		st->skip_rx_copy = 1;
		return 0;
	case OPT_SPLICE:
		p->rx_path = GB_PATH_SPLICE;
		st->splice = 1;
		return 0;
	}
	return -1;
}

/* Options without a value; the others go to opts_value(). */
static int
opts_flag(struct gb_opts *o, struct opts_state *st, int ch, const char *arg)
{
	switch (ch) {
	case '1':
		o->once = 1;
		break;
	case '4':
		st->inet4 = 1;
		o->family = AF_INET;
		break;
	case '6':
		st->inet6 = 1;
		o->family = AF_INET6;
		break;
	case 'D':
		o->params.nodelay = 1;
		break;
	case 'h':
		return OPTS_HELP;
	case 'J':
		o->json = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'r':
		st->rflag = 1;
		break;
	case 'S':
		st->Sflag = 1;
		break;
	case 's':	/* ttcp's sink mode: received data is discarded */
		break;
	case 't':
		st->tflag = 1;
		break;
	case 'V':
		return OPTS_VERSION;
	case 'v':
		o->verbose++;
		break;
	case OPT_NO_PROGRESS:
		o->no_progress = 1;
		break;
	case OPT_JSON_STREAM:
		o->json = o->json_stream = 1;
		break;
	case OPT_RR:	/* opts_check sets -D with it */
		o->params.rr = 1;
		break;
	case OPT_CRR:	/* a kind of --rr, which it implies */
		o->params.rr = o->params.crr = 1;
		break;
	case OPT_BIDIR:
		o->params.bidir = 1;
		break;
	case OPT_ALLOW_MTU:
		o->allow_mtu = 1;
		break;
	case OPT_ALLOW_REVERSE:
		o->allow_reverse = 1;
		break;
	case OPT_ALLOW_PROFILE:
		o->allow_profile = 1;
		break;
	case OPT_RESTORE:
		st->restore = 1;
		break;
	case OPT_TTCP:	/* main.c hands such a line to ttcp_opts.c */
		return opts_error(st, "the classic ttcp takes the whole command "
		    "line: see gigebench --ttcp --help");
	default:
		return opts_data_flag(o, st, ch) == 0 ||
		    opts_underload_flag(o, st, ch) == 0 ? OPTS_OK :
		    opts_value(o, st, ch, arg);
	}
	return OPTS_OK;
}

/* getopt_long has moved the operands to the end: at most one, the host. */
static int
opts_operands(struct gb_opts *o, struct opts_state *st, int argc,
    char **argv)
{
	*st->name = '\0';
	if (argc - optind > 1)
		return opts_error(st,
		    "too many operands (one host at most): %s",
		    argv[optind + 1]);
	if (argc - optind == 1) {
		if (*argv[optind] == '\0')
			return opts_error(st, "host is empty: \"\"");
		o->host = argv[optind];
	}
	return OPTS_OK;
}
