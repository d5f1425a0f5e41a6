/*
 * params_json.h: struct gb_params as the hello's "params" member.  The
 * encoder writes every field; the decoder reads every member by name,
 * holds each number to its range of the field table (base/params.h),
 * refuses a member of the wrong type instead of coercing it, and ends
 * with params_check().  Pure: no I/O.
 */
#ifndef GB_PARAMS_JSON_H
#define GB_PARAMS_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "base/params.h"

/* A new object (NULL when memory runs out). */
json_t	*params_to_json(const struct gb_params *);
/* 0, or -1 with "member \"buflen\" is out of range (1-67108864): 0". */
int	 params_from_json(const json_t *, struct gb_params *, char *err,
	    size_t errlen);

#endif /* GB_PARAMS_JSON_H */
