/*
 * profile_text.h: struct gb_profile (base/profile.h, --profile's figures)
 * as the report's text lines.  Formats only.
 */
#ifndef GB_PROFILE_TEXT_H
#define GB_PROFILE_TEXT_H

#include <stdio.h>

#include "base/profile.h"

/*
 * Under prefix ("gigebench-r:"): the split and the categories, the top
 * functions, the sampling's cost; or one line with why there is no
 * profile; nothing when --profile was not asked.
 */
void	profile_text(FILE *, const struct gb_profile *, const char *prefix);

#endif /* GB_PROFILE_TEXT_H */
