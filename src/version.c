/*
 * version.c: the build's revision (base/version.h).  The Makefile passes
 * GB_REVISION to this file alone, so a new commit rebuilds one object,
 * not the tree.
 */
#include "base/version.h"

#ifndef GB_REVISION
#define GB_REVISION	""
#endif

const char *
version_revision(void)
{
	return GB_REVISION;
}
