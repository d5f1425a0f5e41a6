/*
 * side_member.h: internal to the side decoder (side_in.c,
 * side_in_detail.c): the side's member readers.  Each finds a member,
 * holds it to the side's null discipline (a member must be a value, a
 * null, or whichever the first of its group was) and checks the value
 * with member.h, naming it by its path in the message: "host_cpu.busy_pct
 * is not a number", "packets.tx is not null, unlike packets.rx".
 *
 * Each reader returns -1 on error (message in the caller's buffer), 0 for
 * a null and 1 for a value.
 */
#ifndef GB_SIDE_MEMBER_H
#define GB_SIDE_MEMBER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* What a member must hold; SIDE_WANT_ANY lets the first of a group decide. */
#define SIDE_WANT_NULL	0
#define SIDE_WANT_VALUE	1
#define SIDE_WANT_ANY	(-1)

struct side_in {
	const char	*obj;		/* enclosing member, "" at the top */
	const char	*leader;	/* "obj.key" that a group follows */
	char		*err;
	size_t		 errlen;
};

int	side_member_fail(const struct side_in *, const char *,
	    const char *, ...) __attribute__((__format__(__printf__, 3, 4)));
int	side_member_get(const struct side_in *, const json_t *,
	    const char *, int, const json_t **);
int	side_member_uint(const struct side_in *, const json_t *, const char *,
	    uint64_t, int, uint64_t *);
int	side_member_u32(const struct side_in *, const json_t *, const char *,
	    int, uint32_t *);
int	side_member_int(const struct side_in *, const json_t *, const char *,
	    int, int *);
int	side_member_real(const struct side_in *, const json_t *, const char *,
	    int, double *);
int	side_member_string(const struct side_in *, const json_t *,
	    const char *, int, char *, size_t);
int	side_member_bool(const struct side_in *, const json_t *, const char *,
	    int, int *);
/* Find top-level member key as an object; following names are in it. */
int	side_member_object(struct side_in *, const json_t *, const char *,
	    int, const json_t **);

#endif /* GB_SIDE_MEMBER_H */
