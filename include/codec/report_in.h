/*
 * report_in.h: the member readers that report_in.c and report_in_detail.c
 * share to decode a side's JSON.  Internal to the report_in* files.
 *
 * Each reader returns -1 on error (message in the caller's buffer, naming
 * "obj.key"), 0 for a null and 1 for a value.
 */
#ifndef GB_REPORT_IN_H
#define GB_REPORT_IN_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/result.h"

/* What a member must hold; WANT_ANY lets the first of a group decide. */
#define REPORT_WANT_NULL	0
#define REPORT_WANT_VALUE	1
#define REPORT_WANT_ANY		(-1)

struct report_in {
	const char	*obj;		/* enclosing member, "" at the top */
	const char	*leader;	/* "obj.key" that a group follows */
	char		*err;
	size_t		 errlen;
};

int	report_in_fail(const struct report_in *, const char *,
	    const char *, ...) __attribute__((__format__(__printf__, 3, 4)));
int	report_in_member(const struct report_in *, const json_t *,
	    const char *, int, const json_t **);
int	report_in_uint(const struct report_in *, const json_t *, const char *,
	    uint64_t, int, uint64_t *);
int	report_in_u32(const struct report_in *, const json_t *, const char *,
	    int, uint32_t *);
int	report_in_int(const struct report_in *, const json_t *, const char *,
	    int, int *);
int	report_in_real(const struct report_in *, const json_t *, const char *,
	    int, double *);
int	report_in_string(const struct report_in *, const json_t *,
	    const char *, int, char *, size_t);
int	report_in_object(struct report_in *, const json_t *, const char *,
	    int, const json_t **);
/* report_in_detail.c: the members issue 3 added (lines, context, ...). */
int	report_in_details(struct report_in *, const json_t *, struct gb_side *);

#endif /* GB_REPORT_IN_H */
