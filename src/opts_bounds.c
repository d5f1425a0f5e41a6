/*
 * opts_bounds.c: the listener's limits and timeouts on the command line
 * (struct gb_bounds, bounds.h), one row of a table each: the option, the
 * kind of value, its range (a limit on a test parameter: that field's, from
 * the params field table) and where it goes.  opts.c hands the value
 * over by the option's long name and puts that name in front of the
 * message.  Pure: no printing, no exiting.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/bounds.h"
#include "base/params.h"
#include "cli/opts.h"
#include "base/units.h"

enum kind {
	K_SECONDS,	/* uint32_t milliseconds */
	K_SIZE32,	/* uint32_t bytes */
	K_SIZE64,	/* uint64_t bytes */
	K_COUNT,	/* uint32_t */
	K_RATE		/* uint64_t bytes/s, given in bit/s */
};

/*
 * A limit on a parameter of the test (--max-length on -l, ...) takes that
 * field's range from the params field table; the others state their own.
 */
#define NONE	(-1)

static const struct {
	const char	*name;
	enum kind	 kind;
	int		 field;		/* enum params_field_id, or NONE */
	uint64_t	 min, max;	/* when field is NONE */
	const char	*what;
	size_t		 off;
	int		 both;		/* the connecting side uses it too */
} rows[] = {
#define L(f)	offsetof(struct gb_bounds, f)
	{ "handshake-timeout", K_SECONDS, NONE, GB_MIN_HANDSHAKE_MS,
	    GB_MAX_HANDSHAKE_MS, "handshake timeout", L(handshake_ms), 0 },
	{ "max-bytes", K_SIZE64, NONE, GB_MIN_MAX_BYTES, GB_MAX_MAX_BYTES,
	    "byte limit", L(max_bytes), 0 },
	{ "max-duration", K_SECONDS, PF_DURATION_MS, 0, 0,
	    "duration limit", L(max_duration_ms), 0 },
	{ "max-length", K_SIZE32, PF_BUFLEN, 0, 0,
	    "buffer length limit", L(max_buflen), 0 },
	{ "max-pending", K_COUNT, NONE, 1, GB_MAX_PENDING_LIMIT,
	    "pending connection limit", L(max_pending), 0 },
	{ "max-pending-source", K_COUNT, NONE, 1, GB_MAX_PENDING_LIMIT,
	    "pending connection limit per source", L(max_pending_source), 0 },
	{ "max-rate", K_RATE, NONE, GB_MIN_MAX_RATE_MBPS, GB_MAX_LINK_MBPS,
	    "rate limit", L(max_rate), 0 },
	{ "max-sockbuf", K_SIZE32, PF_SNDBUF, 0, 0,
	    "socket buffer limit", L(max_sockbuf), 0 },
	{ "max-flows", K_COUNT, PF_STREAMS, 0, 0,
	    "flow limit", L(max_streams), 0 },
	{ "max-streams", K_COUNT, PF_STREAMS, 0, 0,	/* the old name */
	    "flow limit", L(max_streams), 0 },
	{ "silent-timeout", K_SECONDS, NONE, GB_MIN_SILENT_MS,
	    GB_MAX_SILENT_MS, "silent-peer timeout", L(silent_ms), 1 },
#undef L
};
#define NROWS	(sizeof(rows) / sizeof(rows[0]))

static int
row_of(const char *name)
{
	size_t i;

	for (i = 0; i < NROWS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
opts_bounds_listener_only(const char *name)
{
	int i = row_of(name);

	return i >= 0 && !rows[i].both;
}

int
opts_bounds_parse(struct gb_bounds *l, const char *name, const char *arg,
    char *why, size_t len)
{
	uint64_t v = 0, min, max;
	uint32_t v32 = 0;
	char *at;
	int i, rc = -1;

	if ((i = row_of(name)) == -1) {
		snprintf(why, len, "not a limit");
		return -1;
	}
	min = rows[i].field == NONE ? rows[i].min :
	    params_field(rows[i].field)->min;
	max = rows[i].field == NONE ? rows[i].max :
	    params_field(rows[i].field)->max;
	switch (rows[i].kind) {
	case K_SECONDS:
		rc = units_parse_seconds(arg, (uint32_t)min, (uint32_t)max,
		    rows[i].what, &v32, why, len);
		v = v32;
		break;
	case K_SIZE32:
	case K_SIZE64:
		rc = units_parse_size(arg, min, max, rows[i].what, &v, why,
		    len);
		break;
	case K_COUNT:
		rc = units_parse_uint(arg, min, max, rows[i].what, &v, why,
		    len);
		break;
	case K_RATE:
		rc = units_parse_rate_mbps(arg, min, max, rows[i].what, &v,
		    why, len);
		v *= 125000;	/* Mbit/s to bytes/s */
		break;
	}
	if (rc == -1)
		return -1;
	at = (char *)l + rows[i].off;
	if (rows[i].kind == K_SIZE64 || rows[i].kind == K_RATE)
		memcpy(at, &v, sizeof(v));
	else {
		v32 = (uint32_t)v;	/* every such range fits 32 bits */
		memcpy(at, &v32, sizeof(v32));
	}
	return 0;
}
