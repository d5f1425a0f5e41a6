/*
 * capture_json.h: struct gb_capture (result.h, --capture's counts) as
 * JSON, both ways: the listener sends its capture in its side, so the
 * decoder reads what a possibly hostile peer wrote.  Pure: no I/O.
 */
#ifndef GB_CAPTURE_JSON_H
#define GB_CAPTURE_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "base/result.h"

/*
 * {frames_rx, frames_tx, bytes_rx, bytes_tx, max_frame_rx, max_frame_tx,
 * drops, histogram: {bounds: [64, ..., null], rx: [...], tx: [...]}}, or
 * a JSON null when !has.  NULL when memory runs out.
 */
json_t	*capture_json(const struct gb_capture *);
/*
 * The inverse, for a peer's document: a null gives has = 0; otherwise
 * every member must be there with the type and range the encoder writes,
 * the bounds must be this version's and each histogram must add up to
 * its frame count.  -1 with a message naming the member ("capture.
 * histogram.rx[3] is negative: -1"), and out untouched, when not.
 */
int	capture_from_json(const json_t *, struct gb_capture *, char *err,
	    size_t errlen);

#endif /* GB_CAPTURE_JSON_H */
