/*
 * member.c: the checked reader of JSON members (member.h).  Integer
 * members: jansson parses integers into json_int_t (long long), so a
 * negative value is caught before any cast.
 */
#include <stdio.h>

#include "codec/member.h"

int
member_uint(const json_t *o, const char *key, uint64_t min, uint64_t max,
    uint64_t *out, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);
	json_int_t i;

	if (v == NULL) {
		snprintf(err, errlen, "missing member \"%s\"", key);
		return -1;
	}
	if (!json_is_integer(v)) {
		snprintf(err, errlen, "member \"%s\" is not an integer", key);
		return -1;
	}
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i < min || (uint64_t)i > max) {
		snprintf(err, errlen, "member \"%s\" is out of range "
		    "(%llu-%llu): %lld", key, (unsigned long long)min,
		    (unsigned long long)max, (long long)i);
		return -1;
	}
	*out = (uint64_t)i;
	return 0;
}

int
member_string(const json_t *o, const char *key, char *out, size_t outlen,
    char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);

	if (v == NULL || !json_is_string(v)) {
		snprintf(err, errlen, "member \"%s\" is %s", key,
		    v == NULL ? "missing" : "not a string");
		return -1;
	}
	if (json_string_length(v) >= outlen) {
		snprintf(err, errlen, "member \"%s\" is too long", key);
		return -1;
	}
	/* json_string_value() may hold a NUL; copy what fits the C view. */
	snprintf(out, outlen, "%s", json_string_value(v));
	return 0;
}

int
member_bool(const json_t *o, const char *key, int *out, char *err,
    size_t errlen)
{
	const json_t *v = json_object_get(o, key);

	if (v == NULL || !json_is_boolean(v)) {
		snprintf(err, errlen, "member \"%s\" is %s", key,
		    v == NULL ? "missing" : "not a boolean");
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}
