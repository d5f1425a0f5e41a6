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
/*
 * The stream path of -Z, --sendfile, ... (the hello's tx_path, rx_path):
 * params' 0 is the plain one.
 */
int		 datapath_asked(const struct gb_params *, int is_tx);
/* The path an end's streams take: datapath_asked's, or -u's mmsg paths. */
int		 datapath_of(const struct gb_params *, int is_tx);
/*
 * The worker threads an end runs for its n flows on ncpus online CPUs:
 * --threads, else one a flow up to ncpus (at most GB_AUTO_MAX_THREADS;
 * -u but --rr: half that, at least one), never more than n.  Every path
 * steps, so any count serves any path.
 */
unsigned	 datapath_threads(const struct gb_params *, unsigned n,
		    unsigned ncpus);

#endif /* GB_DATAPATH_H */
