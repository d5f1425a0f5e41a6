/*
 * side_member.c: the side decoder's member readers (side_member.h): the
 * null discipline of a side and the path naming in front of member.h's
 * checks, which do the type, range and size.  No I/O.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "codec/member.h"
#include "side_member.h"

/* Write "host_cpu.busy_pct is not a number" into the caller's buffer. */
int
side_member_fail(const struct side_in *in, const char *key, const char *fmt,
    ...)
{
	char what[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(in->err, in->errlen, "%s%s%s %s", in->obj,
	    in->obj[0] != '\0' ? "." : "", key, what);
	return -1;
}

/* -1 on error, 0 for a null, 1 for a value in *v. */
int
side_member_get(const struct side_in *in, const json_t *o, const char *key,
    int want, const json_t **v)
{
	const char *leader = in->leader != NULL ? in->leader : "";

	if ((*v = json_object_get(o, key)) == NULL)
		return side_member_fail(in, key, "is missing");
	if (json_is_null(*v)) {
		if (want == SIDE_WANT_VALUE)
			return side_member_fail(in, key, "is null%s%s",
			    leader[0] != '\0' ? ", unlike " : "", leader);
		return 0;
	}
	if (want == SIDE_WANT_NULL)
		return side_member_fail(in, key, "is not null, unlike %s",
		    leader);
	return 1;
}

int
side_member_uint(const struct side_in *in, const json_t *o, const char *key,
    uint64_t max, int want, uint64_t *out)
{
	char why[MEMBER_WHY_LEN];
	const json_t *v;
	int rc;

	if ((rc = side_member_get(in, o, key, want, &v)) != 1)
		return rc;
	if (member_check_uint(v, 0, max, out, why, sizeof(why)) == -1)
		return side_member_fail(in, key, "%s", why);
	return 1;
}

int
side_member_u32(const struct side_in *in, const json_t *o, const char *key,
    int want, uint32_t *out)
{
	uint64_t v = 0;
	int rc;

	rc = side_member_uint(in, o, key, UINT32_MAX, want, &v);
	*out = (uint32_t)v;
	return rc;
}

int
side_member_int(const struct side_in *in, const json_t *o, const char *key,
    int want, int *out)
{
	uint64_t v = 0;
	int rc;

	rc = side_member_uint(in, o, key, INT_MAX, want, &v);
	*out = (int)v;
	return rc;
}

/* A real may be written as an integer by another encoder: both are taken. */
int
side_member_real(const struct side_in *in, const json_t *o, const char *key,
    int want, double *out)
{
	char why[MEMBER_WHY_LEN];
	const json_t *v;
	int rc;

	if ((rc = side_member_get(in, o, key, want, &v)) != 1)
		return rc;
	if (member_check_real(v, out, why, sizeof(why)) == -1)
		return side_member_fail(in, key, "%s", why);
	return 1;
}

int
side_member_string(const struct side_in *in, const json_t *o,
    const char *key, int want, char *buf, size_t len)
{
	char why[MEMBER_WHY_LEN];
	const json_t *v;
	int rc;

	if ((rc = side_member_get(in, o, key, want, &v)) != 1)
		return rc;
	if (member_check_string(v, buf, len, why, sizeof(why)) == -1)
		return side_member_fail(in, key, "%s", why);
	return 1;
}

int
side_member_bool(const struct side_in *in, const json_t *o, const char *key,
    int want, int *out)
{
	char why[MEMBER_WHY_LEN];
	const json_t *v;
	int rc;

	if ((rc = side_member_get(in, o, key, want, &v)) != 1)
		return rc;
	if (member_check_bool(v, out, why, sizeof(why)) == -1)
		return side_member_fail(in, key, "%s", why);
	return 1;
}

int
side_member_object(struct side_in *in, const json_t *top, const char *key,
    int want, const json_t **o)
{
	int rc;

	in->obj = "";
	in->leader = NULL;
	if ((rc = side_member_get(in, top, key, want, o)) != 1)
		return rc;
	if (!json_is_object(*o))
		return side_member_fail(in, key, "is not an object");
	in->obj = key;
	return 1;
}
