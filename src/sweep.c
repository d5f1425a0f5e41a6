/*
 * sweep.c: --sweep PARAM=LIST, the axes of a sweep and the walk over
 * their cross product.
 *
 * A list is comma separated items; an item is a value or a range,
 * FROM..TO*FACTOR (geometric) or FROM..TO+STEP (arithmetic).  A range
 * includes TO when it lands on it and never passes it.  Every value, and
 * both ends of a range, is checked against its parameter's limits (the
 * ones -b, -l, -M and -P take), so a sweep cannot ask for what the option
 * parser would refuse.  Sizes read K/M/G through units.c.  Congestion
 * control names are only checked for their shape here; whether the
 * kernel has them is the caller's question.
 *
 * Expansion stops at SWEEP_MAX_VALUES, so "1..64M+1" fails at once
 * instead of counting to 64M.  The axis being parsed lives on the stack
 * and is copied into the sweep only when it is whole: a failed
 * sweep_parse leaves the sweep as it was.
 *
 * Pure: no I/O, no state but the caller's struct sweep, which starts
 * zeroed.  sweep_apply writes only what the sweep's axes name.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/sweep.h"
#include "base/units.h"

#define SWEEP_ITEM_LEN	96	/* longest list item we read */
#define SWEEP_MSG_LEN	256

enum sweep_kind {
	SWEEP_KIND_UINT,	/* a decimal integer */
	SWEEP_KIND_SIZE,	/* bytes, K/M/G */
	SWEEP_KIND_NAME,	/* a congestion control name */
	SWEEP_KIND_RATE		/* -R: 100m, 1g, 100kp; a list, no range */
};

static const struct {
	const char	*name;
	enum sweep_kind	 kind;
	uint64_t	 min, max;
} sweep_params[SWEEP_NPARAMS] = {
	[SWEEP_MTU] = { "mtu", SWEEP_KIND_UINT, GB_MIN_MTU, GB_MAX_MTU },
	[SWEEP_MSS] = { "mss", SWEEP_KIND_UINT, GB_MIN_MSS, GB_MAX_MSS },
	[SWEEP_WINDOW] = { "window", SWEEP_KIND_SIZE, GB_MIN_SOCKBUF,
	    GB_MAX_SOCKBUF },
	[SWEEP_SNDBUF] = { "sndbuf", SWEEP_KIND_SIZE, GB_MIN_SOCKBUF,
	    GB_MAX_SOCKBUF },
	[SWEEP_RCVBUF] = { "rcvbuf", SWEEP_KIND_SIZE, GB_MIN_SOCKBUF,
	    GB_MAX_SOCKBUF },
	[SWEEP_LENGTH] = { "length", SWEEP_KIND_SIZE, GB_MIN_BUFLEN,
	    GB_MAX_BUFLEN },
	[SWEEP_STREAMS] = { "streams", SWEEP_KIND_UINT, 1, GB_MAX_FLOWS },
	[SWEEP_CC] = { "cc", SWEEP_KIND_NAME, 1, SWEEP_CC_LEN - 1 },
	[SWEEP_RATE] = { "rate", SWEEP_KIND_RATE, 0, UINT64_MAX },
	[SWEEP_REQ_SIZE] = { "request-size", SWEEP_KIND_SIZE, 1,
	    GB_MAX_RR_SIZE },
	[SWEEP_RESP_SIZE] = { "response-size", SWEEP_KIND_SIZE, 1,
	    GB_MAX_RR_SIZE },
	[SWEEP_BURST] = { "burst", SWEEP_KIND_UINT, 1, GB_MAX_RR_BURST },
};

static void	sweep_error(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static int	sweep_param_find(const char *, size_t);
static int	sweep_number(int, const char *, uint64_t *, char *, size_t);
static int	sweep_add(struct sweep_axis *, uint64_t, const char *,
		    const char *, char *, size_t);
static int	sweep_range(struct sweep_axis *, const char *, const char *,
		    char *, size_t);
static int	sweep_item(struct sweep_axis *, const char *, char *, size_t);
static int	sweep_conflict(const struct sweep *, int, char *, size_t);
static unsigned	sweep_index(const struct sweep *, unsigned, unsigned);

/* Every message starts with the option's name. */
static void
sweep_error(char *err, size_t errlen, const char *fmt, ...)
{
	char	msg[SWEEP_MSG_LEN];
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "--sweep: %s", msg);
}

static int
sweep_param_find(const char *name, size_t len)
{
	int	i;

	for (i = 0; i < SWEEP_NPARAMS; i++)
		if (strlen(sweep_params[i].name) == len &&
		    strncmp(sweep_params[i].name, name, len) == 0)
			return i;
	return -1;
}

const char *
sweep_param_name(int param)
{
	if (param < 0 || param >= SWEEP_NPARAMS)
		return "?";
	return sweep_params[param].name;
}

/*
 * One number of a numeric parameter: its shape by units.c, its range
 * here, so that every range error has one form for every parameter.
 */
static int
sweep_number(int param, const char *s, uint64_t *out, char *err,
    size_t errlen)
{
	char		 what[32], why[SWEEP_MSG_LEN], lo[32], hi[32];
	uint64_t	 min = sweep_params[param].min;
	uint64_t	 max = sweep_params[param].max;
	int		 rv;

	snprintf(what, sizeof(what), "%s value", sweep_params[param].name);
	if (sweep_params[param].kind == SWEEP_KIND_SIZE) {
		rv = units_parse_size(s, 0, UINT64_MAX, what, out, why,
		    sizeof(why));
		units_format_size(min, lo, sizeof(lo));
		units_format_size(max, hi, sizeof(hi));
	} else {
		rv = units_parse_uint(s, 0, UINT64_MAX, what, out, why,
		    sizeof(why));
		snprintf(lo, sizeof(lo), "%" PRIu64, min);
		snprintf(hi, sizeof(hi), "%" PRIu64, max);
	}
	/* Shape errors as units.c words them; the rest is out of range. */
	if (rv == -1 && (strstr(why, "is not a") != NULL ||
	    strstr(why, "is empty") != NULL)) {
		sweep_error(err, errlen, "%s", why);
		return -1;
	}
	if (rv == -1 || *out < min || *out > max) {
		sweep_error(err, errlen, "%s out of range (%s-%s): %s", what,
		    lo, hi, s);
		return -1;
	}
	return 0;
}

static int	sweep_add(struct sweep_axis *, uint64_t, const char *,
		    const char *, char *, size_t);

/* rate=: each value as -R takes it (units_parse_send_rate). */
static int
sweep_rate(struct sweep_axis *ax, const char *item, char *err,
    size_t errlen)
{
	char why[SWEEP_MSG_LEN];
	uint64_t bps, pps;

	if (strstr(item, "..") != NULL) {
		sweep_error(err, errlen, "rate takes a list of rates, not a "
		    "range: %s", item);
		return -1;
	}
	if (units_parse_send_rate(item, "rate value", &bps, &pps, why,
	    sizeof(why)) == -1) {
		sweep_error(err, errlen, "%s", why);
		return -1;
	}
	return sweep_add(ax, pps != 0 ? pps | SWEEP_RATE_PPS : bps, NULL,
	    item, err, errlen);
}

/* Append a value (v, or the name for cc), refusing repeats and overflow. */
static int
sweep_add(struct sweep_axis *ax, uint64_t v, const char *name,
    const char *item, char *err, size_t errlen)
{
	const char	*pname = sweep_params[ax->param].name;
	unsigned	 i;

	for (i = 0; i < ax->nvalues; i++) {
		if (name != NULL ? strcmp(ax->names[i], name) == 0 :
		    ax->values[i] == v) {
			sweep_error(err, errlen, "%s value given twice: %s",
			    pname, item);
			return -1;
		}
	}
	if (ax->nvalues == SWEEP_MAX_VALUES) {
		sweep_error(err, errlen, "too many %s values (max %d): %s",
		    pname, SWEEP_MAX_VALUES, item);
		return -1;
	}
	if (name != NULL) {
		snprintf(ax->names[ax->nvalues], SWEEP_CC_LEN, "%s", name);
		v = ax->nvalues;
	}
	ax->values[ax->nvalues++] = v;
	return 0;
}

/* "FROM..TO*FACTOR" or "FROM..TO+STEP"; dots points at the "..". */
static int
sweep_range(struct sweep_axis *ax, const char *item, const char *dots,
    char *err, size_t errlen)
{
	char		 from[SWEEP_ITEM_LEN], to[SWEEP_ITEM_LEN];
	char		 why[SWEEP_MSG_LEN];
	const char	*op, *what;
	uint64_t	 lo, hi, by, v;
	int		 rv;

	op = dots + 2 + strcspn(dots + 2, "*+");
	if (*op == '\0') {
		sweep_error(err, errlen, "range %s: expected FROM..TO*FACTOR "
		    "or FROM..TO+STEP", item);
		return -1;
	}
	snprintf(from, sizeof(from), "%.*s", (int)(dots - item), item);
	snprintf(to, sizeof(to), "%.*s", (int)(op - dots - 2), dots + 2);
	if (sweep_number(ax->param, from, &lo, err, errlen) == -1 ||
	    sweep_number(ax->param, to, &hi, err, errlen) == -1)
		return -1;
	what = *op == '*' ? "factor" : "step";
	if (*op == '+' && sweep_params[ax->param].kind == SWEEP_KIND_SIZE)
		rv = units_parse_size(op + 1, 0, UINT64_MAX, what, &by, why,
		    sizeof(why));
	else
		rv = units_parse_uint(op + 1, 0, UINT64_MAX, what, &by, why,
		    sizeof(why));
	if (rv == -1) {
		sweep_error(err, errlen, "range %s: %s", item, why);
		return -1;
	}
	if (by < (*op == '*' ? 2u : 1u)) {
		sweep_error(err, errlen, "range %s: %s must be at least %d",
		    item, what, *op == '*' ? 2 : 1);
		return -1;
	}
	if (lo > hi) {
		sweep_error(err, errlen, "range %s: %s is above %s", item,
		    from, to);
		return -1;
	}
	/* Every value is >= 1, so the geometric walk always moves. */
	for (v = lo;;) {
		if (sweep_add(ax, v, NULL, item, err, errlen) == -1)
			return -1;
		if (*op == '*' ? v > hi / by : hi - v < by)
			break;
		v = *op == '*' ? v * by : v + by;
	}
	return 0;
}

/* One list item: a value or a range. */
static int
sweep_item(struct sweep_axis *ax, const char *item, char *err,
    size_t errlen)
{
	const char	*pname = sweep_params[ax->param].name;
	const char	*dots;
	uint64_t	 v;
	size_t		 len;

	if (sweep_params[ax->param].kind == SWEEP_KIND_RATE)
		return sweep_rate(ax, item, err, errlen);
	if (sweep_params[ax->param].kind != SWEEP_KIND_NAME) {
		if ((dots = strstr(item, "..")) != NULL)
			return sweep_range(ax, item, dots, err, errlen);
		if (sweep_number(ax->param, item, &v, err, errlen) == -1)
			return -1;
		return sweep_add(ax, v, NULL, item, err, errlen);
	}
	len = strlen(item);
	if (len == 0 || len > sweep_params[SWEEP_CC].max) {
		sweep_error(err, errlen, "%s value must be 1-%" PRIu64
		    " characters: \"%s\"", pname, sweep_params[SWEEP_CC].max,
		    item);
		return -1;
	}
	if (strspn(item, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != len) {
		sweep_error(err, errlen, "%s value is not a congestion "
		    "control name (letters, digits, _ and -): \"%s\"", pname,
		    item);
		return -1;
	}
	return sweep_add(ax, 0, item, item, err, errlen);
}

/* window sets sndbuf and rcvbuf: it cannot be swept with either. */
static int
sweep_conflict(const struct sweep *s, int param, char *err, size_t errlen)
{
	unsigned	i;
	int		p;

	for (i = 0; i < s->naxes; i++) {
		p = s->axes[i].param;
		if (p == param) {
			sweep_error(err, errlen, "parameter %s given twice",
			    sweep_params[param].name);
			return -1;
		}
		if ((p == SWEEP_WINDOW && (param == SWEEP_SNDBUF ||
		    param == SWEEP_RCVBUF)) || (param == SWEEP_WINDOW &&
		    (p == SWEEP_SNDBUF || p == SWEEP_RCVBUF))) {
			sweep_error(err, errlen, "window sets sndbuf and "
			    "rcvbuf, it cannot be swept with %s",
			    sweep_params[p == SWEEP_WINDOW ? param : p].name);
			return -1;
		}
	}
	return 0;
}

int
sweep_parse(struct sweep *s, const char *arg, char *err, size_t errlen)
{
	struct sweep_axis	 ax;
	char			 item[SWEEP_ITEM_LEN];
	const char		*eq, *p;
	size_t			 n;
	unsigned		 npoints;

	if ((eq = strchr(arg, '=')) == NULL) {
		sweep_error(err, errlen, "expected PARAM=LIST: \"%s\"", arg);
		return -1;
	}
	memset(&ax, 0, sizeof(ax));
	if ((ax.param = sweep_param_find(arg, (size_t)(eq - arg))) == -1) {
		sweep_error(err, errlen, "unknown parameter \"%.*s\" (mtu, mss,"
		    " window, sndbuf, rcvbuf, length, streams, cc, rate, "
		    "request-size, response-size, burst)",
		    (int)(eq - arg), arg);
		return -1;
	}
	if (sweep_conflict(s, ax.param, err, errlen) == -1)
		return -1;
	if (s->naxes == SWEEP_MAX_AXES) {
		sweep_error(err, errlen, "too many parameters (max %d): %s",
		    SWEEP_MAX_AXES, arg);
		return -1;
	}
	if (eq[1] == '\0') {
		sweep_error(err, errlen, "no values for %s",
		    sweep_params[ax.param].name);
		return -1;
	}
	for (p = eq + 1;; p += n + 1) {
		n = strcspn(p, ",");
		if (n >= sizeof(item)) {
			sweep_error(err, errlen, "%s value is too long: %.*s",
			    sweep_params[ax.param].name, (int)n, p);
			return -1;
		}
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		if (n == 0) {
			sweep_error(err, errlen, "empty value in the %s list: "
			    "%s", sweep_params[ax.param].name, eq + 1);
			return -1;
		}
		if (sweep_item(&ax, item, err, errlen) == -1)
			return -1;
		if (p[n] == '\0')
			break;
	}
	npoints = sweep_npoints(s);
	if (npoints * ax.nvalues > SWEEP_MAX_POINTS) {
		sweep_error(err, errlen, "too many points: %u x %u %s values "
		    "is %u (max %d)", npoints, ax.nvalues,
		    sweep_params[ax.param].name, npoints * ax.nvalues,
		    SWEEP_MAX_POINTS);
		return -1;
	}
	s->axes[s->naxes++] = ax;
	return 0;
}

/* The product of the axes' lengths; 1 for no axes (one plain test). */
unsigned
sweep_npoints(const struct sweep *s)
{
	unsigned	i, n = 1;

	for (i = 0; i < s->naxes; i++)
		n *= s->axes[i].nvalues;
	return n;
}

/* Axis a's value index at point: a mixed-radix digit, last axis lowest. */
static unsigned
sweep_index(const struct sweep *s, unsigned axis, unsigned point)
{
	unsigned	i;

	for (i = s->naxes; i-- > axis + 1;)
		point /= s->axes[i].nvalues;
	return point % s->axes[axis].nvalues;
}

/* rate=: -R of the point, in bit/s or in packets/s. */
static void
sweep_apply_rate(struct gb_params *p, uint64_t v)
{
	p->rate_pps = v & SWEEP_RATE_PPS ? v & ~SWEEP_RATE_PPS : 0;
	p->rate_bps = v & SWEEP_RATE_PPS ? 0 : v;
}

/* "100m", "1.5g" as -R writes them: the largest exact suffix; "100kp". */
static void
sweep_rate_text(uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "tgmk";
	uint64_t n = v & ~SWEEP_RATE_PPS, div = UINT64_C(1000000000000);
	const char *p = (v & SWEEP_RATE_PPS) ? "p" : "";
	int i;

	for (i = 0; i < 4; i++, div /= 1000)
		if (n >= div && n % div == 0) {
			snprintf(buf, len, "%" PRIu64 "%c%s", n / div, sfx[i], p);
			return;
		}
	snprintf(buf, len, "%" PRIu64 "%s", n, p);
}

void
sweep_apply(const struct sweep *s, unsigned point, struct gb_params *p,
    struct sweep_setting *set)
{
	const struct sweep_axis	*ax;
	unsigned		 a, k;
	uint32_t		 v;

	for (a = 0; a < s->naxes; a++) {
		ax = &s->axes[a];
		k = sweep_index(s, a, point);
		v = (uint32_t)ax->values[k];	/* every limit fits */
		switch (ax->param) {
		case SWEEP_MTU:
			set->mtu = v;
			break;
		case SWEEP_MSS:
			p->mss = v;
			break;
		case SWEEP_WINDOW:
			p->sndbuf = p->rcvbuf = v;
			break;
		case SWEEP_SNDBUF:
			p->sndbuf = v;
			break;
		case SWEEP_RCVBUF:
			p->rcvbuf = v;
			break;
		case SWEEP_LENGTH:
			p->buflen = v;
			break;
		case SWEEP_RATE:
			sweep_apply_rate(p, ax->values[k]);
			break;
		case SWEEP_STREAMS:
			p->streams = v;
			break;
		case SWEEP_CC:
			snprintf(set->cc, sizeof(set->cc), "%s", ax->names[k]);
			break;
		case SWEEP_REQ_SIZE:
			p->req_size = v;
			break;
		case SWEEP_RESP_SIZE:
			p->resp_size = v;
			break;
		case SWEEP_BURST:
			p->rr_burst = v;
			break;
		}
	}
}

const char *
sweep_value_text(const struct sweep *s, unsigned axis, unsigned point,
    char *buf, size_t len)
{
	const struct sweep_axis	*ax = &s->axes[axis];
	unsigned		 k = sweep_index(s, axis, point);

	switch (sweep_params[ax->param].kind) {
	case SWEEP_KIND_NAME:
		snprintf(buf, len, "%s", ax->names[k]);
		break;
	case SWEEP_KIND_RATE:
		sweep_rate_text(ax->values[k], buf, len);
		break;
	case SWEEP_KIND_SIZE:
		units_format_size(ax->values[k], buf, len);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, ax->values[k]);
		break;
	}
	return buf;
}

double
sweep_value(const struct sweep *s, unsigned axis, unsigned point)
{
	return (double)(s->axes[axis].values[sweep_index(s, axis, point)] &
	    ~SWEEP_RATE_PPS);
}

int
sweep_has(const struct sweep *s, int param)
{
	unsigned i;

	for (i = 0; i < s->naxes; i++)
		if (s->axes[i].param == param)
			return 1;
	return 0;
}
