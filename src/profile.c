/*
 * profile.c: --profile's pure rules (base/profile.h): the category names
 * and shares, and which category a kernel function is in.
 *
 * The categories are a table of name patterns ('*' any run of
 * characters), tried in order, the first match winning: the test
 * interface's driver before any pattern, then copy, checksum, softirq,
 * locking, sched, stack; no match is "kernel".  The order settles the
 * names two rules take: csum_partial_copy_generic is checksum,
 * tcp4_gro_receive softirq, _raw_spin_lock_bh locking.  A few network
 * functions that the scheduler's loose patterns ("*sched*", "enqueue_*")
 * would take are named before them.
 *
 * Sampled with cpu-clock (no PMU), the functions that enable interrupts
 * again for any caller are a category of their own, tried after the
 * driver and before the table: cpu-clock's sample is a timer interrupt
 * (an hrtimer's), which waits while interrupts are disabled and fires
 * at the instruction that enables them, so that those functions are
 * charged with the time their callers ran with interrupts off
 * (spin_lock_irqsave() to spin_unlock_irqrestore(), and hard interrupt
 * handlers that end in one).  An uncontended unlock is a few
 * instructions; on a loopback test _raw_spin_unlock_irqrestore alone
 * read 16 % and "locking" 20 %.  The list is of generic re-enables,
 * whose hidden time is some caller's, not theirs:
 *   _raw_{spin,read,write}_unlock_irq{,restore}  the out-of-line unlocks
 *   native_irq_enable, pv_native_irq_enable,     the paravirt hooks that
 *   pvm_irq_enable, xen_irq_enable*,             local_irq_enable() and
 *   __raw_callee_save_*irq_enable*               local_irq_restore() call
 *   native_restore_fl, xen_restore_fl*           (older kernels' restore_fl)
 *   arch_local_irq_enable, arch_local_irq_restore inline, but a compiler
 *                                                may keep a copy
 * Not in it: __local_bh_enable_ip, _local_bh_enable and the *_unlock_bh
 * unlocks enable softirqs, not interrupts (the timer fires while
 * softirqs are off); irq_enable enables an interrupt line.  Functions
 * that enable interrupts as part of their own work keep their
 * category, the time hidden there being their subsystem's:
 * finish_task_switch (the run queue's lock, sched), handle_softirqs
 * (the hard interrupt that raised them, softirq),
 * net_rps_action_and_irq_enable, timekeeper_unlock_irqrestore.
 */
#include <stdint.h>
#include <string.h>

#include "base/profile.h"

static const char *const profile_cat_names[GB_NCAT] = {
	[GB_CAT_COPY] = "copy",
	[GB_CAT_CSUM] = "checksum",
	[GB_CAT_STACK] = "stack",
	[GB_CAT_SOFTIRQ] = "softirq",
	[GB_CAT_DRIVER] = "driver",
	[GB_CAT_SCHED] = "sched",
	[GB_CAT_LOCK] = "locking",
	[GB_CAT_IRQOFF] = "irqs off (attributed to the re-enable)",
	[GB_CAT_KERNEL] = "kernel",
	[GB_CAT_USER] = "user",
};

struct profile_pattern {
	const char	*glob;
	int		 cat;
};

static const struct profile_pattern profile_patterns[] = {
	/* Copies between user and kernel memory, and memcpy. */
	{ "copy_user*", GB_CAT_COPY },
	{ "copy_to_user*", GB_CAT_COPY },
	{ "copy_from_user*", GB_CAT_COPY },
	{ "_copy_to_user", GB_CAT_COPY },
	{ "_copy_from_user", GB_CAT_COPY },
	{ "__copy_*", GB_CAT_COPY },
	{ "_copy_to_iter", GB_CAT_COPY },
	{ "_copy_from_iter*", GB_CAT_COPY },
	{ "copy_page_*iter*", GB_CAT_COPY },
	{ "rep_movs*", GB_CAT_COPY },
	{ "memcpy*", GB_CAT_COPY },
	{ "__memcpy*", GB_CAT_COPY },
	{ "skb_copy_datagram_iter", GB_CAT_COPY },
	{ "__skb_datagram_iter", GB_CAT_COPY },
	{ "simple_copy_to_iter", GB_CAT_COPY },
	{ "copyout", GB_CAT_COPY },
	{ "copyin", GB_CAT_COPY },
	{ "copy_mc_*", GB_CAT_COPY },
	/* Checksums, also those that copy as they sum. */
	{ "csum_*", GB_CAT_CSUM },
	{ "*_csum*", GB_CAT_CSUM },
	{ "*checksum*", GB_CAT_CSUM },
	{ "do_csum", GB_CAT_CSUM },
	/* Softirq entry and exit, NAPI, GRO, the backlog. */
	{ "__do_softirq", GB_CAT_SOFTIRQ },
	{ "do_softirq*", GB_CAT_SOFTIRQ },
	{ "handle_softirqs", GB_CAT_SOFTIRQ },
	{ "irq_exit*", GB_CAT_SOFTIRQ },
	{ "__irq_exit_rcu", GB_CAT_SOFTIRQ },
	{ "run_ksoftirqd", GB_CAT_SOFTIRQ },
	{ "net_rx_action", GB_CAT_SOFTIRQ },
	{ "net_tx_action", GB_CAT_SOFTIRQ },
	{ "__napi_*", GB_CAT_SOFTIRQ },
	{ "napi_*", GB_CAT_SOFTIRQ },
	{ "*gro_receive*", GB_CAT_SOFTIRQ },
	{ "gro_*", GB_CAT_SOFTIRQ },
	{ "dev_gro_*", GB_CAT_SOFTIRQ },
	{ "process_backlog", GB_CAT_SOFTIRQ },
	{ "__netif_receive_skb*", GB_CAT_SOFTIRQ },
	{ "netif_receive_skb*", GB_CAT_SOFTIRQ },
	{ "__netif_rx*", GB_CAT_SOFTIRQ },
	{ "netif_rx*", GB_CAT_SOFTIRQ },
	{ "busy_poll*", GB_CAT_SOFTIRQ },
	{ "tasklet_*", GB_CAT_SOFTIRQ },
	{ "__tasklet_*", GB_CAT_SOFTIRQ },
	/* Spinlocks, mutexes, the socket lock. */
	{ "*spin_lock*", GB_CAT_LOCK },
	{ "*spin_unlock*", GB_CAT_LOCK },
	{ "_raw_*", GB_CAT_LOCK },
	{ "queued_spin*", GB_CAT_LOCK },
	{ "native_queued_spin*", GB_CAT_LOCK },
	{ "__pv_queued_spin*", GB_CAT_LOCK },
	{ "mutex_*", GB_CAT_LOCK },
	{ "__mutex_*", GB_CAT_LOCK },
	{ "*rwsem*", GB_CAT_LOCK },
	{ "lock_sock*", GB_CAT_LOCK },
	{ "__lock_sock*", GB_CAT_LOCK },
	{ "release_sock", GB_CAT_LOCK },
	{ "__release_sock", GB_CAT_LOCK },
	{ "*_lock_irqsave*", GB_CAT_LOCK },
	{ "*_unlock_irqrestore*", GB_CAT_LOCK },
	/* The network's, before the scheduler's loose patterns take them. */
	{ "enqueue_to_backlog", GB_CAT_STACK },
	{ "dequeue_skb*", GB_CAT_STACK },
	{ "tcp_*", GB_CAT_STACK },
	{ "mptcp_*", GB_CAT_STACK },
	{ "__netif_schedule", GB_CAT_STACK },
	{ "*qdisc*", GB_CAT_STACK },
	/* The scheduler, context switches, wakeups. */
	{ "schedule*", GB_CAT_SCHED },
	{ "__schedule", GB_CAT_SCHED },
	{ "*sched*", GB_CAT_SCHED },
	{ "pick_next_*", GB_CAT_SCHED },
	{ "enqueue_*", GB_CAT_SCHED },
	{ "dequeue_*", GB_CAT_SCHED },
	{ "try_to_wake_up", GB_CAT_SCHED },
	{ "ttwu_*", GB_CAT_SCHED },
	{ "wake_up*", GB_CAT_SCHED },
	{ "__wake_up*", GB_CAT_SCHED },
	{ "finish_task_switch*", GB_CAT_SCHED },
	{ "update_curr*", GB_CAT_SCHED },
	{ "update_load_avg", GB_CAT_SCHED },
	{ "set_next_entity", GB_CAT_SCHED },
	{ "put_prev_*", GB_CAT_SCHED },
	{ "psi_*", GB_CAT_SCHED },
	{ "__switch_to*", GB_CAT_SCHED },
	{ "switch_mm*", GB_CAT_SCHED },
	{ "context_switch", GB_CAT_SCHED },
	/* The protocols, sockets, qdiscs, netfilter, the socket calls. */
	{ "__tcp_*", GB_CAT_STACK },
	{ "tcp4_*", GB_CAT_STACK },
	{ "tcp6_*", GB_CAT_STACK },
	{ "udp_*", GB_CAT_STACK },
	{ "__udp*", GB_CAT_STACK },
	{ "udp4_*", GB_CAT_STACK },
	{ "udp6_*", GB_CAT_STACK },
	{ "udpv6_*", GB_CAT_STACK },
	{ "ip_*", GB_CAT_STACK },
	{ "__ip_*", GB_CAT_STACK },
	{ "ipv6_*", GB_CAT_STACK },
	{ "ip6_*", GB_CAT_STACK },
	{ "inet_*", GB_CAT_STACK },
	{ "inet6_*", GB_CAT_STACK },
	{ "__inet_*", GB_CAT_STACK },
	{ "__inet6_*", GB_CAT_STACK },
	{ "sock_*", GB_CAT_STACK },
	{ "__sock_*", GB_CAT_STACK },
	{ "sk_*", GB_CAT_STACK },
	{ "__sk_*", GB_CAT_STACK },
	{ "skb_*", GB_CAT_STACK },
	{ "__skb_*", GB_CAT_STACK },
	{ "kfree_skb*", GB_CAT_STACK },
	{ "__kfree_skb*", GB_CAT_STACK },
	{ "consume_skb", GB_CAT_STACK },
	{ "dev_queue_xmit*", GB_CAT_STACK },
	{ "__dev_queue_xmit", GB_CAT_STACK },
	{ "dev_hard_start_xmit", GB_CAT_STACK },
	{ "sch_direct_xmit", GB_CAT_STACK },
	{ "pfifo_fast_*", GB_CAT_STACK },
	{ "fq_codel_*", GB_CAT_STACK },
	{ "tbf_*", GB_CAT_STACK },
	{ "nf_*", GB_CAT_STACK },
	{ "__netif_*", GB_CAT_STACK },
	{ "netif_*", GB_CAT_STACK },
	{ "neigh_*", GB_CAT_STACK },
	{ "___neigh_*", GB_CAT_STACK },
	{ "dst_*", GB_CAT_STACK },
	{ "__sys_sendto", GB_CAT_STACK },
	{ "__sys_recvfrom", GB_CAT_STACK },
	{ "__x64_sys_sendto", GB_CAT_STACK },
	{ "__x64_sys_recvfrom", GB_CAT_STACK },
	{ "__x64_sys_*msg", GB_CAT_STACK },
	{ "____sys_*msg", GB_CAT_STACK },
	{ "___sys_*msg", GB_CAT_STACK },
	{ "__sys_*msg", GB_CAT_STACK },
	{ "sendmsg*", GB_CAT_STACK },
	{ "recvmsg*", GB_CAT_STACK },
	{ "security_socket_*", GB_CAT_STACK },
};
#define PROFILE_NPATTERNS \
	(sizeof(profile_patterns) / sizeof(profile_patterns[0]))

/* GB_CAT_IRQOFF's, where the event hides the time interrupts are off. */
static const char *const profile_irq_enables[] = {
	"_raw_*_unlock_irq*",	/* and irqrestore, and .part.0 copies */
	"native_irq_enable",
	"pv_native_irq_enable",
	"pvm_irq_enable",
	"xen_irq_enable*",
	"__raw_callee_save_*irq_enable*",
	"native_restore_fl",
	"xen_restore_fl*",
	"arch_local_irq_enable",
	"arch_local_irq_restore",
};
#define PROFILE_NIRQ_ENABLES \
	(sizeof(profile_irq_enables) / sizeof(profile_irq_enables[0]))

/*
 * Built-in drivers whose functions are not named after the driver (a
 * module's are its own whatever their names).
 */
static const struct {
	const char	*driver;
	const char	*prefix;
} profile_driver_prefixes[] = {
	{ "virtio_net", "virtnet_" },
};
#define PROFILE_NDRIVER_PREFIXES \
	(sizeof(profile_driver_prefixes) / sizeof(profile_driver_prefixes[0]))

static int	profile_glob(const char *, const char *);
static int	profile_same(const char *, const char *, size_t);
static int	profile_is_driver(const char *, const char *, const char *);

const char *
profile_cat_name(int cat)
{
	return cat >= 0 && cat < GB_NCAT ? profile_cat_names[cat] : NULL;
}

int
profile_cat_lookup(const char *name)
{
	int i;

	for (i = 0; i < GB_NCAT; i++)
		if (strcmp(profile_cat_names[i], name) == 0)
			return i;
	return -1;
}

/*
 * Whether s matches glob, whose '*' is any run of characters: the
 * usual backtracking to the last '*', linear for one star.
 */
static int
profile_glob(const char *glob, const char *s)
{
	const char	*star = NULL, *resume = NULL;

	while (*s != '\0') {
		if (*glob == '*') {
			star = ++glob;
			resume = s;
		} else if (*glob == *s) {
			glob++;
			s++;
		} else if (star != NULL) {
			glob = star;
			s = ++resume;
		} else
			return 0;
	}
	while (*glob == '*')
		glob++;
	return *glob == '\0';
}

/* The first n bytes of a and b equal, '-' and '_' the same. */
static int
profile_same(const char *a, const char *b, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return 0;
		if (x == '\0')
			return 1;
	}
	return 1;
}

/*
 * Ethtool names a driver as its module is named, but with '-' where
 * the module has '_' at times ("virtio_net", "mlx5_core", "e1000e"); a
 * built-in driver's functions are named driver_*.
 */
static int
profile_is_driver(const char *sym, const char *module, const char *driver)
{
	size_t	len = strlen(driver), i;

	if (len == 0)
		return 0;
	if (*module != '\0')
		return profile_same(module, driver, SIZE_MAX);
	if (profile_same(sym, driver, len) && sym[len] == '_')
		return 1;
	for (i = 0; i < PROFILE_NDRIVER_PREFIXES; i++) {
		const char *pre = profile_driver_prefixes[i].prefix;

		if (profile_same(profile_driver_prefixes[i].driver, driver,
		    SIZE_MAX) && strncmp(sym, pre, strlen(pre)) == 0)
			return 1;
	}
	return 0;
}

int
profile_event_hides_irqs_off(const char *event)
{
	return event != NULL && strcmp(event, "cpu-clock") == 0;
}

int
profile_cat_of(const char *sym, const char *module, const char *driver,
    const char *event)
{
	size_t	i;

	if (module == NULL)
		module = "";
	if (driver == NULL)
		driver = "";
	if (profile_is_driver(sym, module, driver))
		return GB_CAT_DRIVER;
	if (profile_event_hides_irqs_off(event) && *module == '\0')
		for (i = 0; i < PROFILE_NIRQ_ENABLES; i++)
			if (profile_glob(profile_irq_enables[i], sym))
				return GB_CAT_IRQOFF;
	for (i = 0; i < PROFILE_NPATTERNS; i++)
		if (profile_glob(profile_patterns[i].glob, sym))
			return profile_patterns[i].cat;
	return GB_CAT_KERNEL;
}

static double
profile_pct(uint64_t part, uint64_t all)
{
	return all > 0 ? 100.0 * (double)part / (double)all : 0;
}

double
profile_share(const struct gb_profile *p, uint64_t samples)
{
	return profile_pct(samples, p->kernel + p->user);
}

double
profile_split(const struct gb_profile *p, uint64_t samples)
{
	return profile_pct(samples, p->samples);
}
