/*
 * side_detail.h: internal to the side codec (side.h): the halves of the
 * encoder and of the decoder that handle the members explaining a side's
 * figures, called by the core halves in side.c and side_in.c.
 */
#ifndef GB_SIDE_DETAIL_H
#define GB_SIDE_DETAIL_H

#include <jansson.h>

#include "base/result.h"
#include "side_member.h"

/* side_detail.c: add them to the object side.c built; 0 or -1. */
int	side_detail_json(json_t *, const struct gb_side *);
/* side_in_detail.c: decode them into s; 0 or -1 with the message. */
int	side_in_detail(struct side_in *, const json_t *, struct gb_side *);
/*
 * side_spread.c: the "spread" member (null without one), and its
 * decoder, after the interface's lines: 1, 0 for a null (or none), or -1.
 */
json_t	*side_spread_json(const struct gb_side *);
int	side_spread_in(struct side_in *, const json_t *, struct gb_side *);
/*
 * side_flows.c: the "flows" member (null without a summary), and its
 * decoder, after the streams: 1, 0 for a null (or none), or -1.
 */
json_t	*side_flows_json(const struct gb_side *);
int	side_flows_in(struct side_in *, const json_t *, struct gb_side *);

#endif /* GB_SIDE_DETAIL_H */
