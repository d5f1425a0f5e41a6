/*
 * member.h: the one checked reader of JSON object members, for every
 * decoder of what a peer or a file sends (control messages, a side's
 * figures, params).  Each reader takes the member by name, checks that it
 * is present and of its type (and, for numbers, within a range), and
 * writes one message in one shape into err:
 *
 *	missing member "buflen"
 *	member "buflen" is not an integer
 *	member "buflen" is out of range (1-67108864): 0
 *	member "cc" is too long
 *
 * Pure: no I/O, no allocation.
 */
#ifndef GB_MEMBER_H
#define GB_MEMBER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* An integer within [min, max]; 0, or -1 with err. */
int	member_uint(const json_t *, const char *key, uint64_t min,
	    uint64_t max, uint64_t *out, char *err, size_t errlen);
/* A string shorter than outlen (its C view: up to a NUL). */
int	member_string(const json_t *, const char *key, char *out,
	    size_t outlen, char *err, size_t errlen);
/* A JSON true or false, as 1 or 0. */
int	member_bool(const json_t *, const char *key, int *out, char *err,
	    size_t errlen);

#endif /* GB_MEMBER_H */
