/*
 * profile_json.h: struct gb_profile (base/profile.h, --profile's figures)
 * as JSON, both ways: the listener sends its profile in its side, so the
 * decoder reads what a possibly hostile peer wrote.  Pure: no I/O.
 *
 *	{"event": "cpu-clock", "hz": 499, "ncpus": 2, "seconds": 10.0,
 *	 "samples": 19940, "idle": ..., "kernel": ..., "user": ...,
 *	 "idle_pct": ..., "kernel_pct": ..., "user_pct": ...,
 *	 "lost": 0, "unknown": 0, "driver": "veth" | null,
 *	 "categories": [{"name": "copy", "samples": n, "pct": x}, ...],
 *	 "top": [{"name": "_copy_to_iter", "kind": "function" | "process",
 *	          "module": null | "e1000", "category": "copy",
 *	          "samples": n, "pct": x}, ...],
 *	 "cost": {"handled_per_s": x, "cpu_s": x, "cpu_pct": x}}
 *
 * The percentages are the decoder's to recompute, not to trust: it reads
 * the counts only.
 */
#ifndef GB_PROFILE_JSON_H
#define GB_PROFILE_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "base/profile.h"

/* The object above, or a JSON null when !has.  NULL when memory runs out. */
json_t	*profile_json(const struct gb_profile *);
/* profile_missing's value: the reason when asked && !has, else null. */
json_t	*profile_missing_json(const struct gb_profile *);
/*
 * The inverse, for a peer's document: j the "profile" member, missing the
 * "profile_missing" one (either may be NULL: absent, a peer that does not
 * profile).  A null profile gives has = 0 (asked when a reason came);
 * otherwise every member must be there with its type and range, the
 * split must add up to the samples and the categories to the busy ones.
 * -1 with a message naming the member ("profile.top[2].samples is
 * negative: -1"), and out untouched, when not.
 */
int	profile_from_json(const json_t *j, const json_t *missing,
	    struct gb_profile *out, char *err, size_t errlen);

#endif /* GB_PROFILE_JSON_H */
