/*
 * context_json.c: struct gb_context as a JSON object and back.  The
 * listener sends its context to the connecting side, so the decoder reads
 * what a possibly hostile peer wrote.
 *
 * One table drives both directions, so that they cannot drift apart: it
 * names each member, its group ("offloads", "coalesce", "rings",
 * "sysctl" or the top), its C field and its range.  An unknown value
 * (-1, "") is a JSON null; so is a value outside the range, which the
 * decoder would refuse.  Offloads and adaptive coalescing are booleans.
 *
 * The decoder wants every member of the table, with the type the encoder
 * writes, and strings of printable ASCII that fit their field (they reach
 * terminals); it takes "" as unknown and ignores members it does not
 * know, so that a newer peer may add some.  Types, ranges and sizes are
 * checked by member.h.  A bad document gives -1 and
 * "context.coalesce.rx_usecs is not an integer".  No I/O.
 */

#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "base/context_value.h"
#include "codec/context_json.h"
#include "codec/member.h"

enum context_kind {
	CONTEXT_STR,		/* char[], printable ASCII */
	CONTEXT_NUMS,		/* char[], "4096 131072 6291456" */
	CONTEXT_DUPLEX,		/* char[], "full" or "half" */
	CONTEXT_INT,		/* int */
	CONTEXT_I64,		/* int64_t */
	CONTEXT_BOOL		/* int, 1 true, 0 false */
};

struct context_member {
	const char	*group;		/* NULL for the top level */
	const char	*key;
	int		 kind;		/* enum context_kind */
	size_t		 off;		/* in struct gb_context */
	size_t		 size;		/* of a char[] */
	int64_t		 min, max;	/* of an integer */
	int		 optional;	/* may be missing (a peer of 0.1.0
					   before it sent the member) */
};

#define CONTEXT_OFF(f)	offsetof(struct gb_context, f)
#define CONTEXT_SIZE(f)	sizeof(((struct gb_context *)NULL)->f)
#define CONTEXT_S(g, k, kind, f) \
	{ g, k, kind, CONTEXT_OFF(f), CONTEXT_SIZE(f), 0, 0, 0 }
#define CONTEXT_N(g, k, kind, f, min, max) \
	{ g, k, kind, CONTEXT_OFF(f), 0, min, max, 0 }
#define CONTEXT_OPT_S(k, f) \
	{ NULL, k, CONTEXT_STR, CONTEXT_OFF(f), CONTEXT_SIZE(f), 0, 0, 1 }
#define CONTEXT_B(g, k, f) \
	{ g, k, CONTEXT_BOOL, CONTEXT_OFF(f), 0, 0, 1, 0 }
#define CONTEXT_U32(g, k, f) \
	CONTEXT_N(g, k, CONTEXT_I64, f, 0, CONTEXT_MAX_ETHTOOL)

static const struct context_member context_members[] = {
	CONTEXT_S(NULL, "kernel", CONTEXT_STR, kernel),
	CONTEXT_S(NULL, "cpu_model", CONTEXT_STR, cpu_model),
	CONTEXT_N(NULL, "ncpus", CONTEXT_INT, ncpus, 1, CONTEXT_MAX_NCPUS),
	CONTEXT_S(NULL, "driver", CONTEXT_STR, driver),
	CONTEXT_S(NULL, "driver_version", CONTEXT_STR, driver_version),
	CONTEXT_S(NULL, "bus", CONTEXT_STR, bus),
	CONTEXT_N(NULL, "speed_mbps", CONTEXT_I64, speed_mbps, 1,
	    GB_MAX_LINK_MBPS),
	CONTEXT_S(NULL, "duplex", CONTEXT_DUPLEX, duplex),
	CONTEXT_N(NULL, "mtu", CONTEXT_I64, mtu, 0, CONTEXT_MAX_MTU),
	CONTEXT_B("offloads", "rx_checksum", rx_checksum),
	CONTEXT_B("offloads", "tx_checksum", tx_checksum),
	CONTEXT_B("offloads", "tso", tso),
	CONTEXT_B("offloads", "gso", gso),
	CONTEXT_B("offloads", "gro", gro),
	CONTEXT_B("offloads", "lro", lro),
	CONTEXT_U32("coalesce", "rx_usecs", rx_usecs),
	CONTEXT_U32("coalesce", "rx_frames", rx_frames),
	CONTEXT_U32("coalesce", "tx_usecs", tx_usecs),
	CONTEXT_U32("coalesce", "tx_frames", tx_frames),
	CONTEXT_B("coalesce", "adaptive_rx", adaptive_rx),
	CONTEXT_B("coalesce", "adaptive_tx", adaptive_tx),
	CONTEXT_U32("rings", "rx", rx_ring),
	CONTEXT_U32("rings", "tx", tx_ring),
	CONTEXT_U32("rings", "rx_max", rx_ring_max),
	CONTEXT_U32("rings", "tx_max", tx_ring_max),
	CONTEXT_N("sysctl", "rmem_max", CONTEXT_I64, rmem_max, 0,
	    CONTEXT_MAX_SYSCTL),
	CONTEXT_N("sysctl", "wmem_max", CONTEXT_I64, wmem_max, 0,
	    CONTEXT_MAX_SYSCTL),
	CONTEXT_S("sysctl", "tcp_rmem", CONTEXT_NUMS, tcp_rmem),
	CONTEXT_S("sysctl", "tcp_wmem", CONTEXT_NUMS, tcp_wmem),
	CONTEXT_S(NULL, "congestion", CONTEXT_STR, congestion),
	CONTEXT_S(NULL, "note", CONTEXT_STR, note),
	CONTEXT_OPT_S("hostname", hostname),
	CONTEXT_OPT_S("version", version),
};

#define CONTEXT_NMEMBERS \
	(sizeof(context_members) / sizeof(context_members[0]))

static int64_t	 context_json_int(const struct context_member *,
		    const struct gb_context *);
static json_t	*context_json_value(const struct context_member *,
		    const struct gb_context *);
static int	 context_nums_ok(const char *);
static const char *context_string_check(const struct context_member *,
		    const char *);
static int	 context_member_set(const struct context_member *,
		    const json_t *, struct gb_context *, char *, size_t);

/* The member's integer, -1 when it is outside its range. */
static int64_t
context_json_int(const struct context_member *m, const struct gb_context *ctx)
{
	const char	*p = (const char *)ctx + m->off;
	int64_t		 v;
	int		 i;

	if (m->kind == CONTEXT_I64)
		memcpy(&v, p, sizeof(v));
	else {
		memcpy(&i, p, sizeof(i));
		v = i;
	}
	return v < m->min || v > m->max ? -1 : v;
}

static json_t *
context_json_value(const struct context_member *m,
    const struct gb_context *ctx)
{
	char	 s[GB_ERR_LEN];
	int64_t	 v;

	switch (m->kind) {
	case CONTEXT_STR:
	case CONTEXT_NUMS:
	case CONTEXT_DUPLEX:
		/* Bounded by the field even if it lacks its NUL. */
		context_copy(s, m->size < sizeof(s) ? m->size : sizeof(s),
		    (const char *)ctx + m->off);
		/* What the decoder would refuse ("fast" duplex) is null. */
		if (s[0] == '\0' || context_string_check(m, s) != NULL)
			return json_null();
		return json_string(s);
	case CONTEXT_BOOL:
		v = context_json_int(m, ctx);
		return v == -1 ? json_null() : json_boolean(v);
	default:
		v = context_json_int(m, ctx);
		return v == -1 ? json_null() : json_integer(v);
	}
}

json_t *
context_json(const struct gb_context *ctx)
{
	const struct context_member	*m;
	json_t				*top, *o, *v;

	if (!ctx->has)
		return json_null();
	if ((top = json_object()) == NULL)
		return NULL;
	for (m = context_members; m < context_members + CONTEXT_NMEMBERS;
	    m++) {
		o = top;
		if (m->group != NULL && (o = json_object_get(top,
		    m->group)) == NULL &&
		    json_object_set_new(top, m->group,
		    o = json_object()) == -1)
			goto fail;
		if ((v = context_json_value(m, ctx)) == NULL ||
		    json_object_set_new(o, m->key, v) == -1)
			goto fail;
	}
	return top;
fail:
	json_decref(top);
	return NULL;
}

/* "4096 131072 6291456": three numbers, single spaces. */
static int
context_nums_ok(const char *s)
{
	int	n = 0;

	for (;;) {
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
		n++;
		if (*s == '\0')
			return n == 3;
		if (*s++ != ' ')
			return 0;
	}
}

/*
 * NULL when s, already checked for its size and to printable ASCII
 * (member_check_string), may be in its field; or why not.
 */
static const char *
context_string_check(const struct context_member *m, const char *s)
{
	size_t	i = strlen(s);

	if (i > 0 && m->kind == CONTEXT_NUMS && !context_nums_ok(s))
		return "is not three numbers";
	if (i > 0 && m->kind == CONTEXT_DUPLEX && strcmp(s, "full") != 0 &&
	    strcmp(s, "half") != 0)
		return "is not \"full\" or \"half\"";
	return NULL;
}

/*
 * Store v (not null; NULL when missing) in ctx: 0, or -1 and why not in
 * why.  A refused string may be left in its field: the caller resets ctx.
 */
static int
context_member_set(const struct context_member *m, const json_t *v,
    struct gb_context *ctx, char *why, size_t whylen)
{
	char		*p = (char *)ctx + m->off;
	const char	*no;
	int64_t		 i64;
	int		 in;

	switch (m->kind) {
	case CONTEXT_STR:
	case CONTEXT_NUMS:
	case CONTEXT_DUPLEX:
		if (member_check_string(v, p, m->size, why, whylen) == -1)
			return -1;
		if ((no = context_string_check(m, p)) != NULL) {
			snprintf(why, whylen, "%s", no);
			return -1;
		}
		return 0;
	case CONTEXT_BOOL:
		if (member_check_bool(v, &in, why, whylen) == -1)
			return -1;
		memcpy(p, &in, sizeof(in));
		return 0;
	}
	if (member_check_int(v, m->min, m->max, &i64, why, whylen) == -1)
		return -1;
	if (m->kind == CONTEXT_INT) {
		in = (int)i64;
		memcpy(p, &in, sizeof(in));
	} else
		memcpy(p, &i64, sizeof(i64));
	return 0;
}

int
context_from_json(const json_t *j, struct gb_context *ctx, char *err,
    size_t errlen)
{
	const struct context_member	*m;
	const json_t			*o, *v;
	char				 why[MEMBER_WHY_LEN];

	context_init(ctx);
	if (j == NULL) {
		snprintf(err, errlen, "context is missing");
		return -1;
	}
	if (json_is_null(j))
		return 0;
	if (!json_is_object(j)) {
		snprintf(err, errlen, "context is not an object");
		return -1;
	}
	for (m = context_members; m < context_members + CONTEXT_NMEMBERS;
	    m++) {
		o = j;
		if (m->group != NULL) {
			if ((o = json_object_get(j, m->group)) == NULL) {
				snprintf(err, errlen, "context.%s is missing",
				    m->group);
				goto fail;
			}
			if (!json_is_object(o)) {
				snprintf(err, errlen, "context.%s is not an "
				    "object", m->group);
				goto fail;
			}
		}
		v = json_object_get(o, m->key);
		if (v == NULL && m->optional)
			continue;
		if ((v == NULL || !json_is_null(v)) && context_member_set(m, v,
		    ctx, why, sizeof(why)) == -1) {
			snprintf(err, errlen, "context.%s%s%s %s",
			    m->group != NULL ? m->group : "",
			    m->group != NULL ? "." : "", m->key, why);
			goto fail;
		}
	}
	ctx->has = 1;
	return 0;
fail:
	context_init(ctx);
	return -1;
}
