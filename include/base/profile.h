/*
 * profile.h: --profile's figures for one end (struct gb_profile, a member
 * of struct gb_side) and the pure rules that make them: the categories an
 * engineer reads first, and the shares.  The sampling itself is
 * host/perfsample.h's, the symbols host/kallsyms.h's; profile_build()
 * (host/kallsyms.h) turns their counts into this.  Plain data, no I/O.
 *
 * Samples are the host's, all CPUs, over the transfer: every sample is
 * idle (the idle task, pid 0), kernel or user.  Function and category
 * shares are of the busy samples (kernel + user), so that they compare
 * across tests whose idle time differs; the split is of all samples.
 */
#ifndef GB_PROFILE_H
#define GB_PROFILE_H

#include <stdint.h>

#define GB_PROFILE_TOP		10	/* functions reported */
#define GB_PROFILE_HZ		499	/* samples per second per CPU */
#define GB_PROFILE_NAME_LEN	64
#define GB_PROFILE_MOD_LEN	32
#define GB_PROFILE_MISSING_LEN	256	/* GB_ERR_LEN: a reason fits whole */

/* The categories, in report order; every busy sample is in one. */
enum gb_prof_cat {
	GB_CAT_COPY,		/* copy_*_user, _copy_to_iter, rep_movs*, memcpy */
	GB_CAT_CSUM,		/* csum_*, checksum */
	GB_CAT_STACK,		/* tcp_, udp_, ip_, inet_, sock_, sk_, skb_ */
	GB_CAT_SOFTIRQ,		/* softirq entry, NAPI, GRO, net_rx_action */
	GB_CAT_DRIVER,		/* the test interface's driver */
	GB_CAT_SCHED,		/* the scheduler, wakeups */
	GB_CAT_LOCK,		/* spinlocks, mutexes, lock_sock */
	/* cpu-clock only: the functions that enable interrupts again */
	GB_CAT_IRQOFF,
	GB_CAT_KERNEL,		/* any other kernel function */
	GB_CAT_USER,		/* user space, any process */
	GB_NCAT
};

/* One function (or, in user space, one process) and its samples. */
struct gb_prof_fn {
	char		name[GB_PROFILE_NAME_LEN];	/* "_copy_to_iter" */
	char		module[GB_PROFILE_MOD_LEN];	/* "e1000", "" built in */
	int		user;		/* a process name, not a function */
	int		cat;		/* enum gb_prof_cat */
	uint64_t	samples;
};

struct gb_profile {
	int		asked;		/* --profile was given */
	int		has;		/* the figures below are known */
	/* asked && !has: why not ("perf_event_paranoid is 3: ...") */
	char		missing[GB_PROFILE_MISSING_LEN];
	char		event[16];	/* "cpu-clock" or "cycles" */
	unsigned	hz;		/* asked of the kernel, per CPU */
	unsigned	ncpus;		/* CPUs sampled */
	double		seconds;	/* sampled, start to stop */
	uint64_t	samples;	/* all: idle + kernel + user */
	uint64_t	idle;
	uint64_t	kernel;		/* busy, in the kernel */
	uint64_t	user;		/* busy, in user space */
	uint64_t	lost;		/* the kernel's PERF_RECORD_LOST count */
	uint64_t	unknown;	/* kernel samples at no known symbol */
	uint64_t	cat[GB_NCAT];	/* busy samples by category */
	/* The driver taken as GB_CAT_DRIVER ("veth"), "" when unknown. */
	char		driver[GB_PROFILE_MOD_LEN];
	unsigned	ntop;
	struct gb_prof_fn top[GB_PROFILE_TOP];	/* most samples first */
	/* What the sampling cost: records handled, the reader's CPU. */
	double		handled_per_s;
	double		cpu_s;
};

/* "copy", "checksum", "stack", "softirq", "driver", "sched", "locking",
 * "irqs off (attributed to the re-enable)", "kernel", "user"; NULL out
 * of range. */
const char	*profile_cat_name(int cat);
/* The inverse: the category named name, or -1. */
int		 profile_cat_lookup(const char *name);
/*
 * Whether event's samples cannot fall where interrupts are disabled:
 * "cpu-clock", whose sample is taken by a timer interrupt that waits
 * until they are enabled again, so that the time they were off is
 * charged to the function that enables them (GB_CAT_IRQOFF).  Not
 * "cycles": the PMU's overflow interrupt is an NMI on x86 (on arm64
 * without pseudo-NMIs it is not, and cycles is blind there too; the
 * report cannot tell).
 */
int		 profile_event_hides_irqs_off(const char *event);
/*
 * The category of the kernel function sym, in module ("" when built
 * in), where driver is the test interface's driver ("" unknown): its
 * module, or a built-in function named driver_*, is GB_CAT_DRIVER.
 * Sampled with event (NULL: "cycles"), a function that enables
 * interrupts again is GB_CAT_IRQOFF where the event hides the time
 * they were off, its usual category (locking, most) otherwise.
 */
int		 profile_cat_of(const char *sym, const char *module,
		    const char *driver, const char *event);
/* samples as a percentage of p's busy samples; 0 when none. */
double		 profile_share(const struct gb_profile *p, uint64_t samples);
/* The same of all its samples (the idle/kernel/user split). */
double		 profile_split(const struct gb_profile *p, uint64_t samples);

#endif /* GB_PROFILE_H */
