/*
 * report_detail.h: internal to the JSON renderer: adds the explaining
 * members of a side (report_detail.c) to the object report_json.c built.
 */
#ifndef GB_REPORT_DETAIL_H
#define GB_REPORT_DETAIL_H

#include <jansson.h>

#include "base/result.h"

int	report_side_details(json_t *, const struct gb_side *);

#endif /* GB_REPORT_DETAIL_H */
