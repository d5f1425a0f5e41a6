/*
 * member.h: the one checked reader of JSON object members, for every
 * decoder of what a peer or a file sends (control messages, a side's
 * figures with its context and capture, params), and the one clamp its
 * encoders put counters through.
 *
 * The checks (member_check_*) take a member's value, NULL when it is
 * missing, check its type, range and size, and say why they refuse it as
 * the end of a sentence whose subject is the member, in one wording for
 * every decoder:
 *
 *	is missing
 *	is not an integer
 *	is negative: -1
 *	is out of range (max 255): 256		(1-67108864) when min > 0
 *	is out of range (0 to 4294967295): -1	a signed C field
 *	is not a number / is not finite		reals
 *	is not a string / is too long (max 15 bytes): 22 / holds a NUL byte
 *	holds a byte that is not printable ASCII	(below 0x20, 0x7f and up)
 *	is not a boolean
 *
 * Each decoder names the member its own way in front of that: the control
 * messages by key (member_uint() and its siblings below: member "buflen"
 * is out of range (1-67108864): 0), a side by its path
 * ("capture.histogram.rx[3] is negative: -1").  Pure: no I/O, no
 * allocation.
 */
#ifndef GB_MEMBER_H
#define GB_MEMBER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define MEMBER_WHY_LEN	96	/* room for any reason below */

/*
 * A JSON integer within [min, max], for an unsigned C field: a negative
 * value is refused as negative, not as out of range.
 */
int	member_check_uint(const json_t *, uint64_t min, uint64_t max,
	    uint64_t *out, char *why, size_t whylen);
/* A JSON integer within [min, max], for a signed C field. */
int	member_check_int(const json_t *, int64_t min, int64_t max,
	    int64_t *out, char *why, size_t whylen);
/* A finite, non-negative number (an integer is taken as a real too). */
int	member_check_real(const json_t *, double *out, char *why,
	    size_t whylen);
/* A string of printable ASCII shorter than outlen, copied into out. */
int	member_check_string(const json_t *, char *out, size_t outlen,
	    char *why, size_t whylen);
/* A JSON true or false, as 1 or 0. */
int	member_check_bool(const json_t *, int *out, char *why, size_t whylen);

/*
 * The control messages' readers: member key of object o, checked as
 * above; 0, or -1 with member "key" and why in err.
 */
int	member_uint(const json_t *, const char *key, uint64_t min,
	    uint64_t max, uint64_t *out, char *err, size_t errlen);
int	member_string(const json_t *, const char *key, char *out,
	    size_t outlen, char *err, size_t errlen);
int	member_bool(const json_t *, const char *key, int *out, char *err,
	    size_t errlen);

/*
 * v as a JSON integer for an encoder: jansson's integers are signed
 * 64-bit, so a counter past 2^63 - 1 is clamped there rather than wrapped
 * to a negative that the decoder would refuse (no counter gets there).
 */
json_int_t member_jint(uint64_t v);
/* member_jint(v) as a JSON integer, or a JSON null when !has. */
json_t	*member_uint_or_null(int has, uint64_t v);
/* v as a JSON real, or a JSON null when !has; NULL when v is not finite. */
json_t	*member_real_or_null(int has, double v);

#endif /* GB_MEMBER_H */
