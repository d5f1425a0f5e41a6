/*
 * opts.c: the command line, from argv to struct gb_opts.
 *
 * The man page is the contract: the option table, the usage text
 * (opts_usage.c) and man/gigebench.1 list the same options in the same
 * order (tests/man.sh and tests/test_opts.c check it).  ttcp's letters keep
 * their meaning.
 *
 * opts_parse() range-checks every number, then checks the combinations of
 * options once the whole line is read.  It never prints and never exits: a
 * problem goes into the caller's buffer as "OPTION: WHAT is PROBLEM: VALUE",
 * naming the option as the user typed it ("-l" or "--length").  It resets
 * getopt on entry, so it can be called any number of times.
 */

#include <sys/socket.h>

#include <getopt.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/datapath.h"
#include "host/netif.h"
#include "cli/opts.h"
#include "base/result.h"
#include "base/params.h"
#include "base/units.h"

#define OPTS_MAX_REPEAT	1000

/* Options with no letter get values past any char. */
enum {
	OPT_RCVBUF = 256,
	OPT_SNDBUF,
	OPT_CAPTURE,
	OPT_FORCE_BUFS,
	OPT_LINK_RATE,
	OPT_ALLOW_MTU,
	OPT_CONFIDENCE,
	OPT_CSV,
	OPT_MTU,
	OPT_PLOT,
	OPT_REPEAT,
	OPT_RESTORE,
	OPT_SWEEP,
	OPT_FQ_RATE,
	OPT_SENDFILE,
	OPT_SKIP_RX_COPY,
	OPT_SPLICE,
	OPT_TOS,
	OPT_PSK,
	OPT_ALLOW_REVERSE,
	OPT_LIMIT		/* every limit; opts_bounds.c by name */
};

/* A leading ':' makes getopt report a missing value apart from '?'. */
static const char opts_short[] =
    ":146A:B:b:C:Df:hI:i:Jl:M:n:P:p:qrSsT:tVvw:Z";

static const struct option opts_long[] = {
	{ "affinity",	required_argument,	NULL,	'A' },
	{ "allow-mtu",	no_argument,		NULL,	OPT_ALLOW_MTU },
	{ "allow-reverse", no_argument,		NULL,	OPT_ALLOW_REVERSE },
	{ "bind",	required_argument,	NULL,	'B' },
	{ "buffer",	required_argument,	NULL,	'b' },
	{ "capture",	no_argument,		NULL,	OPT_CAPTURE },
	{ "confidence",	required_argument,	NULL,	OPT_CONFIDENCE },
	{ "congestion",	required_argument,	NULL,	'C' },
	{ "count",	required_argument,	NULL,	'n' },
	{ "csv",	required_argument,	NULL,	OPT_CSV },
	{ "force-bufs",	no_argument,		NULL,	OPT_FORCE_BUFS },
	{ "format",	required_argument,	NULL,	'f' },
	{ "fq-rate",	required_argument,	NULL,	OPT_FQ_RATE },
	{ "handshake-timeout", required_argument, NULL,	OPT_LIMIT },
	{ "help",	no_argument,		NULL,	'h' },
	{ "interface",	required_argument,	NULL,	'I' },
	{ "interval",	required_argument,	NULL,	'i' },
	{ "ipv4",	no_argument,		NULL,	'4' },
	{ "ipv6",	no_argument,		NULL,	'6' },
	{ "json",	no_argument,		NULL,	'J' },
	{ "length",	required_argument,	NULL,	'l' },
	{ "link-rate",	required_argument,	NULL,	OPT_LINK_RATE },
	{ "max-bytes",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-duration", required_argument,	NULL,	OPT_LIMIT },
	{ "max-length",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-pending", required_argument,	NULL,	OPT_LIMIT },
	{ "max-pending-source", required_argument, NULL, OPT_LIMIT },
	{ "max-rate",	required_argument,	NULL,	OPT_LIMIT },
	{ "max-sockbuf", required_argument,	NULL,	OPT_LIMIT },
	{ "max-streams", required_argument,	NULL,	OPT_LIMIT },
	{ "mss",	required_argument,	NULL,	'M' },
	{ "mtu",	required_argument,	NULL,	OPT_MTU },
	{ "nodelay",	no_argument,		NULL,	'D' },
	{ "once",	no_argument,		NULL,	'1' },
	{ "parallel",	required_argument,	NULL,	'P' },
	{ "plot",	required_argument,	NULL,	OPT_PLOT },
	{ "port",	required_argument,	NULL,	'p' },
	{ "psk",	required_argument,	NULL,	OPT_PSK },
	{ "quiet",	no_argument,		NULL,	'q' },
	{ "rcvbuf",	required_argument,	NULL,	OPT_RCVBUF },
	{ "receive",	no_argument,		NULL,	'r' },
	{ "repeat",	required_argument,	NULL,	OPT_REPEAT },
	{ "restore",	no_argument,		NULL,	OPT_RESTORE },
	{ "sendfile",	no_argument,		NULL,	OPT_SENDFILE },
	{ "server",	no_argument,		NULL,	'S' },
	{ "silent-timeout", required_argument,	NULL,	OPT_LIMIT },
	{ "sink",	no_argument,		NULL,	's' },
	{ "skip-rx-copy", no_argument,		NULL,	OPT_SKIP_RX_COPY },
	{ "sndbuf",	required_argument,	NULL,	OPT_SNDBUF },
	{ "splice",	no_argument,		NULL,	OPT_SPLICE },
	{ "sweep",	required_argument,	NULL,	OPT_SWEEP },
	{ "time",	required_argument,	NULL,	'T' },
	{ "tos",	required_argument,	NULL,	OPT_TOS },
	{ "transmit",	no_argument,		NULL,	't' },
	{ "verbose",	no_argument,		NULL,	'v' },
	{ "version",	no_argument,		NULL,	'V' },
	{ "window",	required_argument,	NULL,	'w' },
	{ "zerocopy",	no_argument,		NULL,	'Z' },
	{ NULL,		0,			NULL,	0 }
};


/* What one opts_parse() call remembers between options. */
struct opts_state {
	char		 name[32];	/* as typed: -l, --length */
	int		 tflag;		/* -t */
	int		 rflag;		/* -r */
	int		 Sflag;		/* -S */
	int		 inet4;		/* -4 */
	int		 inet6;		/* -6 */
	const char	*interval_arg;	/* -i value, for the -T check */
	const char	*duration_arg;	/* -T's value, or NULL */
	int		 restore;	/* --restore */
	int		 zflag;		/* -Z */
	int		 sendfile;	/* --sendfile */
	int		 skip_rx_copy;	/* --skip-rx-copy */
	int		 splice;	/* --splice */
	char		 listener_only[32];	/* a --max-* given, or "" */
	char		*err;
	size_t		 errlen;
};

static void	opts_defaults(struct gb_opts *);
static void	opts_printable(char *);
static int	opts_error(struct opts_state *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static const char *opts_shown(const char *);
static int	opts_bad(struct opts_state *, int, char **);
static int	opts_unknown(struct opts_state *);
static int	opts_flag(struct gb_opts *, struct opts_state *, int,
		    const char *);
static int	opts_value(struct gb_opts *, struct opts_state *, int,
		    const char *);
static int	opts_size(struct opts_state *, const char *, uint64_t,
		    uint64_t, const char *, uint32_t *);
static int	opts_uint(struct opts_state *, const char *, uint64_t,
		    uint64_t, const char *, uint64_t *);
static int	opts_seconds(struct opts_state *, const char *, uint32_t,
		    uint32_t, const char *, uint32_t *);
static int	opts_iface(struct opts_state *, const char *);
static int	opts_operands(struct gb_opts *, struct opts_state *, int,
		    char **);
static int	opts_check(struct gb_opts *, struct opts_state *);
static int	opts_points_ok(const struct gb_opts *, char *, size_t);
static int	opts_confidence(struct gb_opts *, struct opts_state *,
		    const char *);
static int	opts_affinity(struct opts_state *, const char *,
		    struct gb_params *);
static int	opts_paths(struct opts_state *);

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
static int
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
		opts_printable(st->err);
	}
	return OPTS_ERROR;
}

/*
 * A value may hold a newline or an escape sequence: the message stays one
 * line on the terminal, with '?' for each control character.
 */
static void
opts_printable(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* An empty value is shown as "" so that it can be seen. */
static const char *
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
		if (ch == '?' || ch == ':')
			return opts_bad(&st, ch, argv);
		if (li >= 0)
			snprintf(st.name, sizeof(st.name), "--%s",
			    opts_long[li].name);
		else
			snprintf(st.name, sizeof(st.name), "-%c", ch);
		if ((rv = opts_flag(o, &st, ch, optarg)) != OPTS_OK)
			return rv;
	}
	if (opts_operands(o, &st, argc, argv) == OPTS_ERROR)
		return OPTS_ERROR;
	return opts_check(o, &st);
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
	case 's':
		/* ttcp's sink mode: received data is always discarded. */
		break;
	case 't':
		st->tflag = 1;
		break;
	case 'V':
		return OPTS_VERSION;
	case 'v':
		o->verbose++;
		break;
	case OPT_CAPTURE:
		o->params.capture = 1;
		break;
	case OPT_FORCE_BUFS:
		o->params.force_bufs = 1;
		break;
	case OPT_ALLOW_MTU:
		o->allow_mtu = 1;
		break;
	case OPT_ALLOW_REVERSE:
		o->allow_reverse = 1;
		break;
	case OPT_RESTORE:
		st->restore = 1;
		break;
	case 'Z':
		o->params.tx_path = GB_PATH_ZEROCOPY;
		st->zflag = 1;
		break;
	case OPT_SENDFILE:
		o->params.tx_path = GB_PATH_SENDFILE;
		st->sendfile = 1;
		break;
	case OPT_SKIP_RX_COPY:
		o->params.rx_path = GB_PATH_SKIP_RX_COPY;
		st->skip_rx_copy = 1;
		break;
	case OPT_SPLICE:
		o->params.rx_path = GB_PATH_SPLICE;
		st->splice = 1;
		break;
	default:
		return opts_value(o, st, ch, arg);
	}
	return OPTS_OK;
}

/* Options with a value, each range-checked. */
static int
opts_value(struct gb_opts *o, struct opts_state *st, int ch, const char *arg)
{
	struct gb_params	*p = &o->params;
	uint64_t		 v;
	char			 why[200];

	switch (ch) {
	case 'B':
		if (*arg == '\0')
			return opts_error(st, "address is empty: \"\"");
		o->bind_addr = arg;
		return OPTS_OK;
	case OPT_PSK:
		/* Read, with its mode checked, by main (auth_key_load). */
		if (*arg == '\0')
			return opts_error(st, "key file name is empty: \"\"");
		o->psk_file = arg;
		return OPTS_OK;
	case 'b':
	case 'w':
		if (opts_size(st, arg, GB_MIN_SOCKBUF, GB_MAX_SOCKBUF,
		    "socket buffer size", &p->sndbuf) == OPTS_ERROR)
			return OPTS_ERROR;
		p->rcvbuf = p->sndbuf;
		return OPTS_OK;
	case 'f':
		if (arg[0] == '\0' || arg[1] != '\0' ||
		    !units_rate_letter_ok(arg[0]))
			return opts_error(st, "unknown rate unit "
			    "(k, m, g, K, M, G): %s", opts_shown(arg));
		o->unit = arg[0];
		return OPTS_OK;
	case 'I':
		if (opts_iface(st, arg) == OPTS_ERROR)
			return OPTS_ERROR;
		o->iface = arg;
		return OPTS_OK;
	case 'i':
		st->interval_arg = arg;
		return opts_seconds(st, arg, GB_MIN_INTERVAL_MS,
		    GB_MAX_INTERVAL_MS, "report interval", &p->interval_ms);
	case 'l':
		return opts_size(st, arg, GB_MIN_BUFLEN, GB_MAX_BUFLEN,
		    "buffer length", &p->buflen);
	case 'M':
		if (opts_uint(st, arg, GB_MIN_MSS, GB_MAX_MSS, "MSS", &v) ==
		    OPTS_ERROR)
			return OPTS_ERROR;
		p->mss = (uint32_t)v;
		return OPTS_OK;
	case 'n':
		return opts_uint(st, arg, 1, GB_MAX_NBUF, "buffer count",
		    &p->nbuf);
	case 'P':
		if (opts_uint(st, arg, 1, GB_MAX_STREAMS, "number of streams",
		    &v) == OPTS_ERROR)
			return OPTS_ERROR;
		p->streams = (uint32_t)v;
		return OPTS_OK;
	case 'p':
		if (opts_uint(st, arg, 1, 65535, "port", &v) == OPTS_ERROR)
			return OPTS_ERROR;
		o->port = (uint16_t)v;
		return OPTS_OK;
	case 'T':
		st->duration_arg = arg;
		return opts_seconds(st, arg, GB_MIN_DURATION_MS,
		    GB_MAX_DURATION_MS, "test duration", &p->duration_ms);
	case 'C':
		if (*arg == '\0' || strlen(arg) >= sizeof(p->cc) ||
		    !params_cc_ok(arg))
			return opts_error(st, "congestion control name is "
			    "invalid: %s", opts_shown(arg));
		snprintf(p->cc, sizeof(p->cc), "%s", arg);
		return OPTS_OK;
	case 'A':
		return opts_affinity(st, arg, p);
	case OPT_FQ_RATE:
		if (datapath_parse_rate(arg, &p->fq_rate, why,
		    sizeof(why)) == -1)
			return opts_error(st, "%s", why);
		return OPTS_OK;
	case OPT_TOS:
		if (datapath_parse_tos(arg, &p->tos, why, sizeof(why)) == -1)
			return opts_error(st, "%s", why);
		return OPTS_OK;
	case OPT_CONFIDENCE:
		return opts_confidence(o, st, arg);
	case OPT_LIMIT:
		/* st->name is "--max-rate" and so on: long options only. */
		if (opts_bounds_parse(&o->bounds, st->name + 2, arg, why,
		    sizeof(why)) == -1)
			return opts_error(st, "%s", why);
		if (opts_bounds_listener_only(st->name + 2))
			snprintf(st->listener_only,
			    sizeof(st->listener_only), "%s", st->name);
		return OPTS_OK;
	case OPT_CSV:
	case OPT_PLOT:
		if (*arg == '\0')
			return opts_error(st, "file name is empty: \"\"");
		if (ch == OPT_CSV)
			o->csv_path = arg;
		else
			o->plot_path = arg;
		return OPTS_OK;
	case OPT_MTU:
		if (opts_uint(st, arg, GB_MIN_MTU, GB_MAX_MTU, "MTU", &v) ==
		    OPTS_ERROR)
			return OPTS_ERROR;
		p->mtu = (uint32_t)v;
		return OPTS_OK;
	case OPT_REPEAT:
		if (opts_uint(st, arg, 1, OPTS_MAX_REPEAT, "repeat count",
		    &v) == OPTS_ERROR)
			return OPTS_ERROR;
		o->repeat = (unsigned)v;
		return OPTS_OK;
	case OPT_SWEEP:
		/* sweep.c's messages start with "--sweep:" already. */
		if (sweep_parse(&o->sweep, arg, why, sizeof(why)) == -1) {
			if (st->err != NULL && st->errlen > 0) {
				snprintf(st->err, st->errlen, "%s", why);
				opts_printable(st->err);
			}
			return OPTS_ERROR;
		}
		return OPTS_OK;
	case OPT_LINK_RATE:
		if (units_parse_rate_mbps(arg, 1, GB_MAX_LINK_MBPS,
		    "link rate", &p->link_mbps, why, sizeof(why)) == -1)
			return opts_error(st, "%s", why);
		return OPTS_OK;
	case OPT_RCVBUF:
		return opts_size(st, arg, GB_MIN_SOCKBUF, GB_MAX_SOCKBUF,
		    "receive buffer size", &p->rcvbuf);
	case OPT_SNDBUF:
		return opts_size(st, arg, GB_MIN_SOCKBUF, GB_MAX_SOCKBUF,
		    "send buffer size", &p->sndbuf);
	}
	/* Only when the option table and the switches disagree. */
	return opts_error(st, "not handled");
}

static int
opts_size(struct opts_state *st, const char *arg, uint64_t min,
    uint64_t max, const char *what, uint32_t *out)
{
	char		why[200];
	uint64_t	v;

	if (units_parse_size(arg, min, max, what, &v, why, sizeof(why)) == -1)
		return opts_error(st, "%s", why);
	*out = (uint32_t)v;	/* every size limit fits 32 bits */
	return OPTS_OK;
}

static int
opts_uint(struct opts_state *st, const char *arg, uint64_t min,
    uint64_t max, const char *what, uint64_t *out)
{
	char	why[200];

	if (units_parse_uint(arg, min, max, what, out, why, sizeof(why)) == -1)
		return opts_error(st, "%s", why);
	return OPTS_OK;
}

static int
opts_seconds(struct opts_state *st, const char *arg, uint32_t min_ms,
    uint32_t max_ms, const char *what, uint32_t *out_ms)
{
	char	why[200];

	if (units_parse_seconds(arg, min_ms, max_ms, what, out_ms, why,
	    sizeof(why)) == -1)
		return opts_error(st, "%s", why);
	return OPTS_OK;
}

/* -A: checked here as the listener will check it (params_check). */
static int
opts_affinity(struct opts_state *st, const char *arg, struct gb_params *p)
{
	char	why[200];
	size_t	n;

	if (strlen(arg) >= sizeof(p->affinity))
		return opts_error(st, "CPU list is too long (max %zu "
		    "characters): %s", sizeof(p->affinity) - 1, arg);
	if (cpulist_parse(arg, NULL, 0, &n, why, sizeof(why)) == -1)
		return opts_error(st, "%s", why);
	snprintf(p->affinity, sizeof(p->affinity), "%s", arg);
	return OPTS_OK;
}

/*
 * The name goes into /sys/class/net/NAME paths, so hold it to the kernel's
 * own rule (dev_valid_name): 1 to IFNAMSIZ-1 bytes, not "." or "..", no
 * '/', ':' or white space.
 */
static int
opts_iface(struct opts_state *st, const char *arg)
{
	if (*arg == '\0')
		return opts_error(st, "interface name is empty: \"\"");
	if (strlen(arg) >= IFNAMSIZ)
		return opts_error(st, "interface name is too long "
		    "(max %d characters): %s", IFNAMSIZ - 1, arg);
	if (!netif_name_ok(arg))
		return opts_error(st, "interface name is invalid: %s", arg);
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

/* The combinations, once the whole line is known. */
static int
opts_points_ok(const struct gb_opts *o, char *why, size_t len)
{
	struct gb_params	 p;
	struct sweep_setting	 set;
	unsigned		 i, n = sweep_npoints(&o->sweep);
	char			 sub[GB_ERR_LEN], v[32];

	for (i = 0; i < n; i++) {
		p = o->params;
		memset(&set, 0, sizeof(set));
		sweep_apply(&o->sweep, i, &p, &set);
		if (params_check(&p, sub, sizeof(sub)) == 0)
			continue;
		if (o->sweep.naxes == 0)
			snprintf(why, len, "%s", sub);
		else
			snprintf(why, len, "--sweep point %u (%s=%s): %.180s",
			    i + 1,
			    sweep_param_name(o->sweep.axes[0].param),
			    sweep_value_text(&o->sweep, 0, i, v, sizeof(v)),
			    sub);
		return -1;
	}
	return 0;
}

/* "95,2": the level (90, 95 or 99 %) and the width, % of the mean. */
static int
opts_confidence(struct gb_opts *o, struct opts_state *st, const char *arg)
{
	char	*end;
	long	 level;
	double	 width;

	level = strtol(arg, &end, 10);
	if (end == arg || *end != ',' || (level != 90 && level != 95 &&
	    level != 99))
		return opts_error(st, "confidence is not LEVEL,WIDTH with a "
		    "level of 90, 95 or 99: %s", opts_shown(arg));
	width = strtod(end + 1, &end);
	if (end[-1] == ',' || *end != '\0' || !(width >= 0.1 && width <= 50))
		return opts_error(st, "confidence width is out of range "
		    "(0.1-50 %%): %s", opts_shown(arg));
	o->conf_level = level / 100.0;
	o->conf_width_pct = width;
	return OPTS_OK;
}

/* One path per end: -Z or --sendfile; --skip-rx-copy or --splice. */
static int
opts_paths(struct opts_state *st)
{
	if (st->zflag && st->sendfile) {
		snprintf(st->name, sizeof(st->name), "--sendfile");
		return opts_error(st, "cannot be used with -Z");
	}
	if (st->skip_rx_copy && st->splice) {
		snprintf(st->name, sizeof(st->name), "--splice");
		return opts_error(st, "cannot be used with --skip-rx-copy");
	}
	return OPTS_OK;
}

static int
opts_check(struct gb_opts *o, struct opts_state *st)
{
	struct gb_params	*p = &o->params;
	char			 dur[32], why[GB_ERR_LEN];

	if (st->restore) {
		if (st->tflag || st->rflag || st->Sflag || o->host != NULL)
			return opts_error(st, "--restore takes no other role "
			    "or host");
		o->role = GB_ROLE_RESTORE;
		return OPTS_OK;
	}
	if (!st->tflag && !st->rflag && !st->Sflag)
		return opts_error(st, "one of -t, -r or -S is needed");
	snprintf(st->name, sizeof(st->name), "%s",
	    st->tflag ? "-t" : st->Sflag ? "-S" : "-r");
	if (st->tflag && st->rflag)
		return opts_error(st, "cannot be used with -r");
	if (st->tflag && st->Sflag)
		return opts_error(st, "cannot be used with -S");
	if (st->tflag && o->host == NULL)
		return opts_error(st, "needs a host to transmit to");
	if (st->Sflag && o->host != NULL)
		return opts_error(st, "takes no host: %s", o->host);
	if (st->inet4 && st->inet6) {
		snprintf(st->name, sizeof(st->name), "-6");
		return opts_error(st, "cannot be used with -4");
	}

	if (p->mtu != 0 && sweep_has(&o->sweep, SWEEP_MTU)) {
		snprintf(st->name, sizeof(st->name), "--mtu");
		return opts_error(st, "cannot be used with --sweep mtu=...");
	}
	if (opts_paths(st) == OPTS_ERROR)
		return OPTS_ERROR;
	if (p->cc[0] != '\0' && sweep_has(&o->sweep, SWEEP_CC)) {
		snprintf(st->name, sizeof(st->name), "-C");
		return opts_error(st, "cannot be used with --sweep cc=...");
	}
	o->role = o->host != NULL ? GB_ROLE_CONNECT : GB_ROLE_LISTEN;
	if (o->host != NULL && st->listener_only[0] != '\0') {
		snprintf(st->name, sizeof(st->name), "%s", st->listener_only);
		return opts_error(st, "only a listener takes it (no host): %s",
		    o->host);
	}
	p->direction = st->rflag && o->host != NULL ?
	    GB_DIR_CLIENT_RECEIVES : GB_DIR_CLIENT_SENDS;
	/* ttcp's -n alone runs until the count is done. */
	if (p->nbuf != 0 && st->duration_arg == NULL)
		p->duration_ms = GB_MAX_DURATION_MS;
	if (p->interval_ms > p->duration_ms) {
		if (st->duration_arg == NULL)
			snprintf(dur, sizeof(dur), "%u",
			    GB_DEFAULT_DURATION_MS / 1000);
		else
			snprintf(dur, sizeof(dur), "%s", st->duration_arg);
		snprintf(st->name, sizeof(st->name), "-i");
		return opts_error(st, "report interval is longer than the "
		    "test (-T %s): %s", dur, st->interval_arg);
	}
	/* What the listener would refuse is a usage error here, at every
	 * point of a sweep, not half way through it. */
	if (opts_points_ok(o, why, sizeof(why)) == -1) {
		*st->name = '\0';
		return opts_error(st, "%s", why);
	}
	return OPTS_OK;
}
