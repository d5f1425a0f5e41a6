/*
 * context_json.h: struct gb_context (result.h) as a JSON object and back.
 * The listener sends its context to the connecting side, so the decoder
 * reads what a possibly hostile peer wrote.  Pure: no I/O.
 */
#ifndef GB_CONTEXT_JSON_H
#define GB_CONTEXT_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "base/result.h"

/*
 * The JSON object of ctx (null when ctx->has is 0; NULL only when memory
 * runs out) and its exact inverse, which checks every member's presence,
 * type and range, as a peer may send anything: -1 with a message naming
 * the member, as "context.coalesce.rx_usecs is not an integer"; "" is
 * taken as unknown.  A JSON null gives has = 0 (and 0); a NULL pointer is
 * "context is missing".  Unknown members are ignored.
 */
json_t	*context_json(const struct gb_context *);
int	 context_from_json(const json_t *, struct gb_context *, char *err,
	    size_t errlen);

#endif /* GB_CONTEXT_JSON_H */
