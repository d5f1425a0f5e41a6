/*
 * member.c: the checked reader of JSON members and the encoders' clamp
 * (member.h).  Integer members: jansson parses integers into json_int_t
 * (long long), so a negative value is caught before any cast.  It only
 * checks and words the reason; naming the member is the caller's.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/member.h"

/* jansson's json_int_t is long long where the compiler has it. */
#if JSON_INTEGER_IS_LONG_LONG
#define MEMBER_JINT_MAX	LLONG_MAX
#else
#define MEMBER_JINT_MAX	LONG_MAX
#endif

static int	member_why(char *, size_t, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static int	member_fail(const char *, const char *, char *, size_t);

static int
member_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An integer, any sign: NULL, or why not. */
static const char *
member_integer(const json_t *v)
{
	if (v == NULL)
		return "is missing";
	return json_is_integer(v) ? NULL : "is not an integer";
}

int
member_check_uint(const json_t *v, uint64_t min, uint64_t max,
    uint64_t *out, char *why, size_t whylen)
{
	const char *no;
	json_int_t i;

	if ((no = member_integer(v)) != NULL)
		return member_why(why, whylen, "%s", no);
	i = json_integer_value(v);
	if (i < 0)
		return member_why(why, whylen, "is negative: %"
		    JSON_INTEGER_FORMAT, i);
	if ((uint64_t)i > max && min == 0)
		return member_why(why, whylen, "is out of range (max %" PRIu64
		    "): %" JSON_INTEGER_FORMAT, max, i);
	if ((uint64_t)i < min || (uint64_t)i > max)
		return member_why(why, whylen, "is out of range (%" PRIu64
		    "-%" PRIu64 "): %" JSON_INTEGER_FORMAT, min, max, i);
	*out = (uint64_t)i;
	return 0;
}

int
member_check_int(const json_t *v, int64_t min, int64_t max, int64_t *out,
    char *why, size_t whylen)
{
	const char *no;
	json_int_t i;

	if ((no = member_integer(v)) != NULL)
		return member_why(why, whylen, "%s", no);
	i = json_integer_value(v);
	if (i < min || i > max)
		return member_why(why, whylen, "is out of range (%" PRId64
		    " to %" PRId64 "): %" JSON_INTEGER_FORMAT, min, max, i);
	*out = i;
	return 0;
}

int
member_check_real(const json_t *v, double *out, char *why, size_t whylen)
{
	double d;

	if (v == NULL)
		return member_why(why, whylen, "is missing");
	if (!json_is_number(v))
		return member_why(why, whylen, "is not a number");
	d = json_number_value(v);
	if (!isfinite(d))
		return member_why(why, whylen, "is not finite");
	if (d < 0)
		return member_why(why, whylen, "is negative: %g", d);
	*out = d;
	return 0;
}

static int
member_printable(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

int
member_check_string(const json_t *v, char *out, size_t outlen, char *why,
    size_t whylen)
{
	size_t n;

	if (v == NULL)
		return member_why(why, whylen, "is missing");
	if (!json_is_string(v))
		return member_why(why, whylen, "is not a string");
	n = json_string_length(v);
	if (n >= outlen)
		return member_why(why, whylen, "is too long (max %zu bytes): "
		    "%zu", outlen - 1, n);
	if (memchr(json_string_value(v), '\0', n) != NULL)
		return member_why(why, whylen, "holds a NUL byte");
	/*
	 * What a peer sends is printed on the other end: a newline would
	 * forge a line of its own, an ESC a terminal's control sequence.
	 */
	if (!member_printable(json_string_value(v), n))
		return member_why(why, whylen, "holds a byte that is not "
		    "printable ASCII");
	memcpy(out, json_string_value(v), n + 1);
	return 0;
}

int
member_check_bool(const json_t *v, int *out, char *why, size_t whylen)
{
	if (v == NULL)
		return member_why(why, whylen, "is missing");
	if (!json_is_boolean(v))
		return member_why(why, whylen, "is not a boolean");
	*out = json_is_true(v);
	return 0;
}

/* member "key" and why, into err. */
static int
member_fail(const char *key, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "member \"%s\" %s", key, why);
	return -1;
}

int
member_uint(const json_t *o, const char *key, uint64_t min, uint64_t max,
    uint64_t *out, char *err, size_t errlen)
{
	char why[MEMBER_WHY_LEN];

	if (member_check_uint(json_object_get(o, key), min, max, out, why,
	    sizeof(why)) == -1)
		return member_fail(key, why, err, errlen);
	return 0;
}

int
member_string(const json_t *o, const char *key, char *out, size_t outlen,
    char *err, size_t errlen)
{
	char why[MEMBER_WHY_LEN];

	if (member_check_string(json_object_get(o, key), out, outlen, why,
	    sizeof(why)) == -1)
		return member_fail(key, why, err, errlen);
	return 0;
}

int
member_bool(const json_t *o, const char *key, int *out, char *err,
    size_t errlen)
{
	char why[MEMBER_WHY_LEN];

	if (member_check_bool(json_object_get(o, key), out, why,
	    sizeof(why)) == -1)
		return member_fail(key, why, err, errlen);
	return 0;
}

json_int_t
member_jint(uint64_t v)
{
	return v > (uint64_t)MEMBER_JINT_MAX ? MEMBER_JINT_MAX :
	    (json_int_t)v;
}

json_t *
member_uint_or_null(int has, uint64_t v)
{
	return has ? json_integer(member_jint(v)) : json_null();
}

json_t *
member_real_or_null(int has, double v)
{
	return has ? json_real(v) : json_null();
}
