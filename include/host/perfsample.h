/*
 * perfsample.h: --profile's sampler.  System-wide sampling of every
 * online CPU with perf_event_open(2): the cycles hardware event where
 * the host has a PMU, else the cpu-clock software event (virtual
 * machines without one), at hz samples a second per CPU, read from each
 * CPU's mmap ring buffer by a thread of its own until perfsample_stop().
 * No external program.  Counts only: kernel samples by instruction
 * address (symbols are kallsyms.h's job, after the test), user samples
 * by process name (/proc/PID/comm, read when a pid is first seen), idle
 * ones (the idle task, pid 0) as a number.
 *
 * It needs what perf needs: root or CAP_PERFMON, or perf_event_paranoid
 * at most 0 for system-wide events; otherwise perfsample_start() fails
 * and says so ("perf_event_paranoid is 2: system-wide sampling needs root
 * or CAP_PERFMON (or the sysctl at 0 or less)").
 */
#ifndef GB_PERFSAMPLE_H
#define GB_PERFSAMPLE_H

#include <stddef.h>
#include <stdint.h>

struct perfsample_ip {
	uint64_t	ip;
	uint64_t	n;
};

struct perfsample_comm {
	char		comm[16];
	uint64_t	n;
};

struct perfsample_counts {
	char		event[16];	/* "cycles" or "cpu-clock" */
	unsigned	hz;
	unsigned	ncpus;		/* CPUs sampled */
	double		seconds;	/* start to stop */
	uint64_t	samples;	/* idle + kernel + user */
	uint64_t	idle, kernel, user;
	uint64_t	lost;		/* PERF_RECORD_LOST's counts */
	struct perfsample_ip	*ips;	/* kernel, not idle; malloc'd */
	size_t		nips;
	struct perfsample_comm	*comms;	/* user, by process; malloc'd */
	size_t		ncomms;
	double		cpu_s;		/* the reader thread's CPU time */
	uint64_t	records;	/* ring records handled */
};

struct perfsample;

/*
 * Opens an event on each online CPU and starts the reader; NULL with
 * the reason in err when sampling cannot be had.  procroot: where
 * perf_event_paranoid, comm and the online CPUs are read ("/proc"; tests
 * move it).
 */
struct perfsample *perfsample_start(const char *procroot, unsigned hz,
	    char *err, size_t errlen);
/* Stops the events and the reader; the counts into c (free with below). */
int	perfsample_stop(struct perfsample *, struct perfsample_counts *c,
	    char *err, size_t errlen);
void	perfsample_free(struct perfsample *);
void	perfsample_counts_free(struct perfsample_counts *);

#endif /* GB_PERFSAMPLE_H */
