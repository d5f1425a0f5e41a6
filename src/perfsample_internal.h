/*
 * perfsample_internal.h: the sampler's parts that do not need the kernel
 * (host/perfsample.h), shared by src/perfsample.c (the events, the rings,
 * the reader thread), src/perfsample_tally.c (what the records count) and
 * tests/test_perfsample.c, nothing else: the records, the tally (counters
 * and the two hash tables), one ring's drain over memory laid out as
 * perf's mmap (a test builds one by hand, records straddling the end
 * included), the counts made from a tally, a process's name, the event
 * chosen from how cycles' open went, and the reason perf_event_open(2)
 * was refused.
 */
#ifndef GB_PERFSAMPLE_INTERNAL_H
#define GB_PERFSAMPLE_INTERNAL_H

#include <linux/perf_event.h>

#include <stddef.h>
#include <stdint.h>

#include "host/perfsample.h"

/* The records of sample_type PERF_SAMPLE_IP | PERF_SAMPLE_TID, and a loss. */
struct perfsample_rec_sample {
	struct perf_event_header	h;
	uint64_t			ip;
	uint32_t			pid, tid;
};

struct perfsample_rec_lost {
	struct perf_event_header	h;
	uint64_t			id;
	uint64_t			lost;
};

/* A count by key (an instruction address, or a pid and its name). */
struct perfsample_slot {
	uint64_t	key;
	uint64_t	n;		/* 0: an empty slot */
	char		comm[16];	/* the pid table's only */
};

/* Open addressing, linear probing, at most half full. */
struct perfsample_table {
	struct perfsample_slot	*slot;
	size_t			 cap;	/* a power of two, or 0 */
	size_t			 used;
};

struct perfsample_tally {
	const char		*procroot;	/* where PID/comm is read */
	uint64_t		 idle, kernel, user, lost, records;
	struct perfsample_table	 ips;		/* kernel samples by ip */
	struct perfsample_table	 pids;		/* user samples by pid */
	int			 nomem;		/* a sample was dropped */
};

/* One CPU's ring: the mmap's first page, then size bytes of records. */
struct perfsample_ring {
	struct perf_event_mmap_page	*meta;
	const unsigned char		*data;
	size_t				 size;	/* a power of two */
};

/* perfsample_tally.c */

void	perfsample_tally_init(struct perfsample_tally *, const char *procroot);
void	perfsample_tally_free(struct perfsample_tally *);
/* Every record from data_tail to data_head into t; data_tail moves. */
void	perfsample_ring_drain(struct perfsample_ring *,
	    struct perfsample_tally *t);
/*
 * The arrays of c from t (ips by count, comms merged by name, by count);
 * the counters are the caller's.  0, or -1 when memory ran out.
 */
int	perfsample_tally_counts(const struct perfsample_tally *t,
	    struct perfsample_counts *c);
/* procroot/PID/comm, else "pid PID" (the process has exited). */
void	perfsample_comm_read(const char *procroot, uint32_t pid,
	    char comm[16]);
/* perfsample.c */

/*
 * The event perfsample_start() samples, from how opening cycles on
 * every CPU went: cycles_rc 0 (it opened): cycles; -1 with errno e, at
 * the perf_event_open(2) of a CPU (at_open) or at its ring's mmap(2)
 * (!at_open): cpu-clock when e says the host has no PMU to count
 * cycles (ENOENT, EOPNOTSUPP, ENODEV from the open), else none, cycles'
 * error being the reason.  Pure.
 */
enum perfsample_pick {
	PERFSAMPLE_PICK_CYCLES,	/* keep cycles */
	PERFSAMPLE_PICK_CLOCK,	/* no PMU: close them, open cpu-clock */
	PERFSAMPLE_PICK_FAIL	/* neither: report cycles' error */
};
enum perfsample_pick	perfsample_event_pick(int cycles_rc, int at_open,
	    int e);
/*
 * Why perf_event_open(2) of event on CPU cpu failed with errno e:
 * EACCES and EPERM name procroot/sys/kernel/perf_event_paranoid.
 */
void	perfsample_open_error(const char *procroot, const char *event,
	    int cpu, int e, char *err, size_t errlen);

#endif /* GB_PERFSAMPLE_INTERNAL_H */
