/*
 * opts_value.c: the options that take a value, each checked as it is
 * read.  A parameter of the test (-l, -P, --fq-rate, ...) is a row of the
 * table below: its syntax (a size, a count, seconds, a rate, a TOS byte)
 * and its words in the message are the option's; its range is the params
 * field table's (params.c), the one the listener checks.  The others
 * (names, files, -A, --confidence, the limits, --sweep) follow.  Writes
 * only into struct gb_opts and the message of opts_state.h; no I/O.
 */

#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/dscp.h"
#include "base/params.h"
#include "base/sweep.h"
#include "base/units.h"
#include "cli/opts.h"
#include "host/netif.h"
#include "opts_state.h"

#define OPTS_MAX_REPEAT	1000

/* The syntax of a value on the command line. */
enum opts_syntax {
	SYN_SIZE,	/* 64K, 1M: powers of 1024 */
	SYN_COUNT,	/* a decimal integer */
	SYN_SECONDS,	/* 10, 2.5 */
	SYN_MBPS,	/* 1g, 2500m: into Mbit/s */
	SYN_PACING,	/* 500m, 1k: into bytes/s */
	SYN_TOS		/* 16, 0x10, EF */
};

static const struct opts_param {
	int			 ch;
	enum params_field_id	 id;
	enum opts_syntax	 syntax;
	const char		*what;	/* in the message */
} opts_params[] = {
	{ 'b', PF_SNDBUF, SYN_SIZE, "socket buffer size" },	/* and rcvbuf */
	{ 'i', PF_INTERVAL_MS, SYN_SECONDS, "report interval" },
	{ 'l', PF_BUFLEN, SYN_SIZE, "buffer length" },
	{ 'M', PF_MSS, SYN_COUNT, "MSS" },
	{ 'n', PF_NBUF, SYN_COUNT, "buffer count" },
	{ 'P', PF_STREAMS, SYN_COUNT, "number of flows" },
	{ 'T', PF_DURATION_MS, SYN_SECONDS, "test duration" },
	{ 'w', PF_SNDBUF, SYN_SIZE, "socket buffer size" },	/* and rcvbuf */
	{ OPT_BATCH, PF_BATCH, SYN_COUNT, "batch" },
	{ OPT_FQ_RATE, PF_FQ_RATE, SYN_PACING, "pacing rate" },
	{ OPT_LINK_RATE, PF_LINK_MBPS, SYN_MBPS, "link rate" },
	{ OPT_MTU, PF_MTU, SYN_COUNT, "MTU" },
	{ OPT_OMIT, PF_OMIT_MS, SYN_SECONDS, "omitted time" },
	{ OPT_REQ_SIZE, PF_REQ_SIZE, SYN_SIZE, "request size" },
	{ OPT_RESP_SIZE, PF_RESP_SIZE, SYN_SIZE, "response size" },
	{ OPT_RR_BURST, PF_RR_BURST, SYN_COUNT, "burst" },
	{ OPT_RR_TIMEOUT, PF_RR_TIMEOUT_MS, SYN_COUNT, "request timeout" },
	{ OPT_THREADS, PF_THREADS, SYN_COUNT, "number of threads" },
	{ OPT_RCVBUF, PF_RCVBUF, SYN_SIZE, "receive buffer size" },
	{ OPT_SNDBUF, PF_SNDBUF, SYN_SIZE, "send buffer size" },
	{ OPT_TOS, PF_TOS, SYN_TOS, "TOS" },
	{ OPT_PROBES, PF_PROBES, SYN_COUNT, "number of probes" },
	{ OPT_PROBE_TOS, PF_PROBE_TOS, SYN_TOS, "TOS" },
	{ OPT_PROBE_RATE, PF_PROBE_RATE, SYN_COUNT, "probe rate" },
};
#define NPARAMS	(sizeof(opts_params) / sizeof(opts_params[0]))

/*
 * --tos as a number: decimal or 0x hex, a leading 0 not octal, to avoid
 * surprises.  Reading stops once past max, so nothing overflows.
 */
static int
opts_tos_number(const char *s, uint64_t max, uint64_t *out)
{
	const char *p = s, *digits;
	unsigned base = 10, d;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (digits = p; *p != '\0' && v <= max; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (unsigned)((*p | 0x20) - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	if (p == digits || *p != '\0')
		return -1;
	*out = v;
	return 0;
}

/*
 * --tos: a number, or a DSCP name (base/dscp.h) that puts its code point
 * in the six high bits with ECN 0, since TCP sets ECN itself: EF is 184,
 * 0xb8.  Every bad value, the empty one too, gets the one message, which
 * names the three forms.
 */
static int
opts_tos(const char *s, const struct params_field *f, uint64_t *out,
    char *why, size_t len)
{
	uint64_t v = 0;
	int dscp, ok;

	if ((dscp = dscp_parse(s)) != -1) {
		v = (uint64_t)dscp << DSCP_TOS_SHIFT;
		ok = 1;
	} else
		ok = opts_tos_number(s, f->max, &v) == 0;
	if (!ok || v < f->min || v > f->max) {
		snprintf(why, len, "TOS is not %llu-%llu, 0x%02llx-0x%02llx or "
		    "a DSCP name (EF, CS0-CS7, AF11-AF43, VA, LE): %s",
		    (unsigned long long)f->min, (unsigned long long)f->max,
		    (unsigned long long)f->min, (unsigned long long)f->max,
		    opts_shown(s));
		return -1;
	}
	*out = v;
	return 0;
}

/* One parameter of the test, in its syntax, within its field's range. */
static int
opts_param(struct gb_opts *o, struct opts_state *st,
    const struct opts_param *op, const char *arg)
{
	const struct params_field *f = params_field(op->id);
	char why[200];
	uint64_t v = 0;
	uint32_t ms = 0;
	int rc = -1;

	switch (op->syntax) {
	case SYN_SIZE:
		/* -l mtu: buffers of the MSS, datagrams of the path MTU. */
		if (op->ch == 'l' && strcmp(arg, "mtu") == 0) {
			rc = 0;
			v = GB_LEN_MTU;
			break;
		}
		rc = units_parse_size(arg, f->min, f->max, op->what, &v, why,
		    sizeof(why));
		break;
	case SYN_COUNT:
		rc = units_parse_uint(arg, f->min, f->max, op->what, &v, why,
		    sizeof(why));
		break;
	case SYN_SECONDS:
		rc = units_parse_seconds(arg, (uint32_t)f->min,
		    (uint32_t)f->max, op->what, &ms, why, sizeof(why));
		v = ms;
		break;
	case SYN_MBPS:
		rc = units_parse_rate_mbps(arg, f->min, f->max, op->what, &v,
		    why, sizeof(why));
		break;
	case SYN_PACING:
		rc = units_parse_rate_bytes(arg, f->min, f->max, op->what, &v,
		    why, sizeof(why));
		break;
	case SYN_TOS:
		rc = opts_tos(arg, f, &v, why, sizeof(why));
		break;
	}
	if (rc == -1)
		return opts_error(st, "%s", why);
	params_set(&o->params, op->id, v);
	if (op->ch == 'b' || op->ch == 'w')
		o->params.rcvbuf = o->params.sndbuf;
	else if (op->ch == 'i')
		st->interval_arg = arg;
	else if (op->ch == 'T')
		st->duration_arg = arg;
	else if (op->ch == 'l')
		st->lflag = 1;
	else if (op->ch == OPT_BATCH)
		st->batch = 1;
	if (op->ch == OPT_PROBES || op->ch == OPT_PROBE_TOS ||
	    op->ch == OPT_PROBE_RATE)
		snprintf(st->underload_only, sizeof(st->underload_only), "%s",
		    st->name);
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

/* -B, --psk, --csv, --plot: a name, judged when it is used. */
static int
opts_name(struct gb_opts *o, struct opts_state *st, int ch, const char *arg)
{
	if (*arg == '\0')
		return opts_error(st, "%s is empty: \"\"", ch == 'B' ?
		    "address" : ch == OPT_PSK ? "key file name" : "file name");
	if (ch == 'B')
		o->bind_addr = arg;
	else if (ch == OPT_PSK)
		o->psk_file = arg;	/* read, mode checked, by main */
	else if (ch == OPT_CSV)
		o->csv_path = arg;
	else if (ch == OPT_FLOW_CSV)
		o->flow_csv_path = arg;
	else
		o->plot_path = arg;
	return OPTS_OK;
}

/*
 * --title TEXT, --timestamps[=FORMAT]: text that goes into every result
 * (JSON, CSV, the text lines), so printable ASCII only, and bounded.
 */
static int
opts_text(struct gb_opts *o, struct opts_state *st, int ch, const char *arg)
{
	size_t i, max = ch == OPT_TITLE ? GB_TITLE_LEN - 1 : 63;

	if (ch == OPT_TIMESTAMPS) {
		o->timestamps = 1;
		o->ts_format = NULL;	/* out/tsfile.h's default */
		if (arg == NULL)
			return OPTS_OK;
	}
	if (*arg == '\0')
		return opts_error(st, "%s is empty: \"\"", ch == OPT_TITLE ?
		    "title" : "format");
	if (strlen(arg) > max)
		return opts_error(st, "%s is too long (max %zu characters): "
		    "%s", ch == OPT_TITLE ? "title" : "format", max,
		    opts_shown(arg));
	for (i = 0; arg[i] != '\0'; i++)
		if ((unsigned char)arg[i] < 0x20 || (unsigned char)arg[i] >=
		    0x7f)
			return opts_error(st, "%s holds a byte that is not "
			    "printable ASCII: %s", ch == OPT_TITLE ? "title" :
			    "format", opts_shown(arg));
	if (ch == OPT_TITLE)
		o->title = arg;
	else
		o->ts_format = arg;
	return OPTS_OK;
}

/* --max-*, --*-timeout (opts_bounds.c), and --sweep (sweep.c). */
static int
opts_table(struct gb_opts *o, struct opts_state *st, int ch, const char *arg)
{
	char why[200];

	if (ch == OPT_LIMIT) {
		/* st->name is "--max-rate" and so on: long options only. */
		if (opts_bounds_parse(&o->bounds, st->name + 2, arg, why,
		    sizeof(why)) == -1)
			return opts_error(st, "%s", why);
		if (opts_bounds_listener_only(st->name + 2))
			snprintf(st->listener_only,
			    sizeof(st->listener_only), "%s", st->name);
		return OPTS_OK;
	}
	/* sweep.c's messages start with "--sweep:" already. */
	if (sweep_parse(&o->sweep, arg, why, sizeof(why)) == -1) {
		if (st->err != NULL && st->errlen > 0) {
			snprintf(st->err, st->errlen, "%s", why);
			opts_printable(st->err, st->errlen);
		}
		return OPTS_ERROR;
	}
	return OPTS_OK;
}

int
opts_value(struct gb_opts *o, struct opts_state *st, int ch, const char *arg)
{
	char why[200];
	uint64_t v;
	size_t i;

	for (i = 0; i < NPARAMS; i++)
		if (opts_params[i].ch == ch)
			return opts_param(o, st, &opts_params[i], arg);
	switch (ch) {
	case 'B':
	case OPT_PSK:
	case OPT_CSV:
	case OPT_FLOW_CSV:
	case OPT_PLOT:
		return opts_name(o, st, ch, arg);
	case OPT_LIMIT:
	case OPT_SWEEP:
		return opts_table(o, st, ch, arg);
	case OPT_TITLE:
	case OPT_TIMESTAMPS:
		return opts_text(o, st, ch, arg);
	case 'f':
		if (arg[0] == '\0' || arg[1] != '\0' ||
		    !units_rate_letter_ok(arg[0]))
			return opts_error(st, "unknown rate unit "
			    "(k, m, g, K, M, G): %s", opts_shown(arg));
		o->unit = arg[0];
		return OPTS_OK;
	case 'I':
	case OPT_BIND_DEV:
		if (opts_iface(st, arg) == OPTS_ERROR)
			return OPTS_ERROR;
		if (ch == 'I')
			o->iface = arg;
		else
			o->bind_dev = arg;
		return OPTS_OK;
	case OPT_CPORT:
		if (opts_uint(st, arg, 1, 65535, "port", &v) == OPTS_ERROR)
			return OPTS_ERROR;
		o->cport = (uint16_t)v;
		return OPTS_OK;
	case 'p':
		if (opts_uint(st, arg, 1, 65535, "port", &v) == OPTS_ERROR)
			return OPTS_ERROR;
		o->port = (uint16_t)v;
		return OPTS_OK;
	case 'C':
		if (*arg == '\0' || strlen(arg) >= sizeof(o->params.cc) ||
		    !params_cc_ok(arg))
			return opts_error(st, "congestion control name is "
			    "invalid: %s", opts_shown(arg));
		snprintf(o->params.cc, sizeof(o->params.cc), "%s", arg);
		return OPTS_OK;
	case 'A':
		return opts_affinity(st, arg, &o->params);
	case 'R':
		if (units_parse_send_rate(arg, "sending rate", &o->params.rate_bps,
		    &o->params.rate_pps, why, sizeof(why)) == -1)
			return opts_error(st, "%s", why);
		st->rate = 1;
		return OPTS_OK;
	case OPT_CONFIDENCE:
		return opts_confidence(o, st, arg);
	case OPT_PHASES:
		return opts_phases(o, st, arg);
	case OPT_REPEAT:
		if (opts_uint(st, arg, 1, OPTS_MAX_REPEAT, "repeat count",
		    &v) == OPTS_ERROR)
			return OPTS_ERROR;
		o->repeat = (unsigned)v;
		return OPTS_OK;
	}
	/* Only when the option table and the switches disagree. */
	return opts_error(st, "not handled");
}
