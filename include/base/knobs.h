/*
 * knobs.h: requested versus effective settings.  After a test, compare
 * what was asked for (socket buffers, MSS) with what the kernel made of it
 * and with what the path allowed, and write a warning for each knob that
 * did not take, saying which sysctl or flag would make it take, and
 * whether the counters read are of the interface the test uses.  Pure:
 * reads one side's figures, writes that side's warnings.
 */
#ifndef GB_KNOBS_H
#define GB_KNOBS_H

#include "base/params.h"
#include "base/result.h"

void	knobs_check(const struct gb_params *, int is_tx, struct gb_side *);
/*
 * A warning when ifname, whose counters are read (named by -I when
 * given, else the interface of the local address), is not egress, the
 * interface the route to the peer leaves by.  Nothing when either is "".
 */
void	knobs_egress(struct gb_side *, int is_tx, const char *ifname,
	    int given, const char *egress);
/* Append one warning; silently drops past GB_MAX_WARNINGS. */
void	knobs_warn(struct gb_side *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif /* GB_KNOBS_H */
