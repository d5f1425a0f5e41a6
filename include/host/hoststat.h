/*
 * hoststat.h: one snapshot of the host counters that explain a test, and
 * the figures between two snapshots.  A snapshot holds /proc/stat (all CPUs),
 * the test interface's lines of /proc/interrupts, NET_RX/NET_TX of
 * /proc/softirqs (per CPU too), the interface's sysfs statistics and
 * queues, getrusage(RUSAGE_SELF) and CLOCK_MONOTONIC.
 *
 * Files are read under roots that tests (and users replaying a captured
 * host) can move: GIGEBENCH_PROCFS and GIGEBENCH_SYSFS, resolved by main.c
 * into struct hoststat_roots.  Nothing here touches a socket.
 */
#ifndef GB_HOSTSTAT_H
#define GB_HOSTSTAT_H

#include <stddef.h>

#include "base/result.h"

struct hoststat_roots {
	const char	*procfs;	/* "/proc" unless overridden */
	const char	*sysfs;		/* "/sys" unless overridden */
};

struct hoststat;	/* opaque snapshot */

/*
 * Take a snapshot.  ifname may be NULL or "" (no interface known).  A
 * missing file is not an error: the matching figures are marked unavailable.
 * Returns NULL only when memory runs out, with a reason in err.
 */
struct hoststat	*hoststat_take(const struct hoststat_roots *,
		    const char *ifname, char *err, size_t errlen);
void		 hoststat_free(struct hoststat *);

/*
 * Fill host_cpu, iface (with irq_per_packet against data_tx ? tx : rx
 * packets) and cpu from two snapshots of the same interface.
 */
void		 hoststat_diff(const struct hoststat *before,
		    const struct hoststat *after, int data_tx,
		    struct gb_host_cpu *, struct gb_iface_figures *,
		    struct gb_proc_cpu *, double *wall_s);

/*
 * The spread between two snapshots (has = 0 when one is NULL): each
 * CPU's figures (host/spread.h) and the interface's queues as the test
 * ended.  The lines' shares are hoststat_diff()'s, in iface.
 */
void		 hoststat_spread(const struct hoststat *before,
		    const struct hoststat *after, struct gb_spread *);

#endif /* GB_HOSTSTAT_H */
