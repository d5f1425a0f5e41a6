/*
 * context_text.h: struct gb_context (result.h) as the lines -v prints.
 * Formats only.
 */
#ifndef GB_CONTEXT_TEXT_H
#define GB_CONTEXT_TEXT_H

#include <stdio.h>

#include "base/result.h"

/*
 * Three lines (four with a note) for -v, each starting with prefix
 * ("gigebench-t:"); ifname names the interface (NULL or "" when none), as
 * struct gb_context does not.  "n/a" stands for an unknown value; a
 * context that was not read (has = 0) is one line.
 */
void	context_text(FILE *, const struct gb_context *, const char *ifname,
	    const char *prefix);

#endif /* GB_CONTEXT_TEXT_H */
