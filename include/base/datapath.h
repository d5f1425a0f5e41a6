/*
 * datapath.h: the names of the data paths (enum gb_path) as the protocol
 * and the reports write them.  Pure.
 */
#ifndef GB_DATAPATH_H
#define GB_DATAPATH_H

#include "base/params.h"

/* "send", "zerocopy", ..., "splice"; "?" out of range. */
const char	*datapath_name(int path);
/* The enum gb_path of a name, or -1. */
int		 datapath_lookup(const char *name);
/* The path an end really starts with: params' 0 is the plain one. */
int		 datapath_of(const struct gb_params *, int is_tx);

#endif /* GB_DATAPATH_H */
