/*
 * capture_text.h: struct gb_capture (result.h, --capture's counts) as the
 * report's text lines.  Formats only.
 */
#ifndef GB_CAPTURE_TEXT_H
#define GB_CAPTURE_TEXT_H

#include <stdio.h>

#include "base/result.h"

/*
 * The capture's lines under prefix ("gigebench-t:"): counts, then the
 * nonzero bins.  Without a capture, one line with the note, or nothing
 * when there is no note (--capture was not asked for).
 */
void	capture_text(FILE *, const struct gb_capture *, const char *prefix);

#endif /* GB_CAPTURE_TEXT_H */
