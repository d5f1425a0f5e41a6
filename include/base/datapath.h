/*
 * datapath.h: the names of the data paths (enum gb_path) as the protocol
 * and the reports write them, and the parsers of the two data socket
 * knobs that have their own syntax: --fq-rate and --tos.  Pure.
 */
#ifndef GB_DATAPATH_H
#define GB_DATAPATH_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"

/* "send", "zerocopy", ..., "splice"; "?" out of range. */
const char	*datapath_name(int path);
/* The enum gb_path of a name, or -1. */
int		 datapath_lookup(const char *name);
/* The path an end really starts with: params' 0 is the plain one. */
int		 datapath_of(const struct gb_params *, int is_tx);
/*
 * A bit rate "500m", "1g", "100" (bare: Mbit/s), 1000-based, into bytes
 * per second within [GB_MIN_FQ_RATE, GB_MAX_FQ_RATE].  -1 with
 * "pacing rate is ...: VALUE" in err.
 */
int		 datapath_parse_rate(const char *, uint64_t *bytes_s,
		    char *err, size_t errlen);
/* A TOS byte, "16" or "0x10", 0-255; -1 with a reason in err. */
int		 datapath_parse_tos(const char *, uint32_t *,
		    char *err, size_t errlen);

#endif /* GB_DATAPATH_H */
