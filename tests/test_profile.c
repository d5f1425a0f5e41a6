/*
 * test_profile.c: --profile's pure rules (base/profile.h): the category
 * of kernel functions as a table of names seen in real profiles (perf
 * top on a sender and a receiver, veth and e1000), the driver by module
 * and by a built-in's prefix with '-' for '_', the order that settles
 * names two rules take; the functions that enable interrupts again,
 * their own category under cpu-clock only; the category names both
 * ways; the shares.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/profile.h"

struct cat_case {
	const char	*sym;
	const char	*module;
	const char	*driver;
	int		 cat;
};

static const struct cat_case cat_cases[] = {
	/* The driver: its module, or a built-in's driver_* functions. */
	{ "e1000_intr", "e1000", "e1000", GB_CAT_DRIVER },
	{ "e1000_clean", "e1000", "e1000", GB_CAT_DRIVER },
	{ "mlx5e_napi_poll", "mlx5_core", "mlx5-core", GB_CAT_DRIVER },
	{ "mlx5e_napi_poll", "mlx5-core", "mlx5_core", GB_CAT_DRIVER },
	{ "veth_xmit", "", "veth", GB_CAT_DRIVER },
	{ "veth_poll", "", "veth", GB_CAT_DRIVER },
	{ "virtnet_poll", "", "virtio_net", GB_CAT_DRIVER },
	{ "my_nic_rx", "", "my-nic", GB_CAT_DRIVER },
	/* Not the driver: another module, another prefix, none given. */
	{ "veth_xmit", "veth", "e1000", GB_CAT_KERNEL },
	{ "e1000e_clean_rx_irq", "", "e1000", GB_CAT_KERNEL },
	{ "veth_xmit", "", "", GB_CAT_KERNEL },
	{ "napi_gro_receive", "", "veth", GB_CAT_SOFTIRQ },
	/* Copies. */
	{ "_copy_to_iter", "", "", GB_CAT_COPY },
	{ "_copy_from_iter_full", "", "", GB_CAT_COPY },
	{ "copy_user_enhanced_fast_string", "", "", GB_CAT_COPY },
	{ "copy_user_generic_unrolled", "", "", GB_CAT_COPY },
	{ "rep_movs_alternative", "", "", GB_CAT_COPY },
	{ "memcpy_orig", "", "", GB_CAT_COPY },
	{ "__memcpy", "", "", GB_CAT_COPY },
	{ "copy_page_to_iter", "", "", GB_CAT_COPY },
	{ "skb_copy_datagram_iter", "", "", GB_CAT_COPY },
	{ "__skb_datagram_iter", "", "", GB_CAT_COPY },
	{ "copyout", "", "", GB_CAT_COPY },
	{ "copy_mc_enhanced_fast_string", "", "", GB_CAT_COPY },
	/* Checksums, those that copy too. */
	{ "csum_partial", "", "", GB_CAT_CSUM },
	{ "csum_partial_copy_generic", "", "", GB_CAT_CSUM },
	{ "skb_copy_and_csum_datagram", "", "", GB_CAT_CSUM },
	{ "__skb_checksum_complete", "", "", GB_CAT_CSUM },
	{ "do_csum", "", "", GB_CAT_CSUM },
	{ "ip_compute_csum", "", "", GB_CAT_CSUM },
	/* Softirq, NAPI, GRO. */
	{ "__do_softirq", "", "", GB_CAT_SOFTIRQ },
	{ "handle_softirqs", "", "", GB_CAT_SOFTIRQ },
	{ "net_rx_action", "", "", GB_CAT_SOFTIRQ },
	{ "__napi_poll", "", "", GB_CAT_SOFTIRQ },
	{ "__napi_schedule", "", "", GB_CAT_SOFTIRQ },
	{ "tcp4_gro_receive", "", "", GB_CAT_SOFTIRQ },
	{ "inet_gro_receive", "", "", GB_CAT_SOFTIRQ },
	{ "dev_gro_receive", "", "", GB_CAT_SOFTIRQ },
	{ "__netif_receive_skb_core", "", "", GB_CAT_SOFTIRQ },
	{ "process_backlog", "", "", GB_CAT_SOFTIRQ },
	{ "__tasklet_schedule", "", "", GB_CAT_SOFTIRQ },
	/* Locking. */
	{ "_raw_spin_lock_bh", "", "", GB_CAT_LOCK },
	{ "_raw_spin_unlock_irqrestore", "", "", GB_CAT_LOCK },
	{ "native_queued_spin_lock_slowpath", "", "", GB_CAT_LOCK },
	{ "lock_sock_nested", "", "", GB_CAT_LOCK },
	{ "release_sock", "", "", GB_CAT_LOCK },
	{ "mutex_lock", "", "", GB_CAT_LOCK },
	{ "rwsem_down_read_slowpath", "", "", GB_CAT_LOCK },
	/* The scheduler. */
	{ "schedule", "", "", GB_CAT_SCHED },
	{ "__schedule", "", "", GB_CAT_SCHED },
	{ "try_to_wake_up", "", "", GB_CAT_SCHED },
	{ "__wake_up_sync_key", "", "", GB_CAT_SCHED },
	{ "enqueue_task_fair", "", "", GB_CAT_SCHED },
	{ "finish_task_switch.isra.0", "", "", GB_CAT_SCHED },
	{ "__switch_to_asm", "", "", GB_CAT_SCHED },
	/* The stack, also names the scheduler's patterns would take. */
	{ "tcp_recvmsg", "", "", GB_CAT_STACK },
	{ "tcp_sendmsg_locked", "", "", GB_CAT_STACK },
	{ "tcp_schedule_loss_probe", "", "", GB_CAT_STACK },
	{ "enqueue_to_backlog", "", "", GB_CAT_STACK },
	{ "dequeue_skb", "", "", GB_CAT_STACK },
	{ "__netif_schedule", "", "", GB_CAT_STACK },
	{ "__qdisc_run", "", "", GB_CAT_STACK },
	{ "udp_sendmsg", "", "", GB_CAT_STACK },
	{ "ip_finish_output2", "", "", GB_CAT_STACK },
	{ "__dev_queue_xmit", "", "", GB_CAT_STACK },
	{ "sock_def_readable", "", "", GB_CAT_STACK },
	{ "skb_release_data", "", "", GB_CAT_STACK },
	{ "kfree_skb_reason", "", "", GB_CAT_STACK },
	{ "nf_hook_slow", "nf_conntrack", "e1000", GB_CAT_STACK },
	{ "__sys_recvfrom", "", "", GB_CAT_STACK },
	{ "____sys_recvmsg", "", "", GB_CAT_STACK },
	{ "__x64_sys_sendto", "", "", GB_CAT_STACK },
	{ "security_socket_recvmsg", "", "", GB_CAT_STACK },
	/* Anything else. */
	{ "__x64_sys_read", "", "", GB_CAT_KERNEL },
	{ "entry_SYSCALL_64", "", "", GB_CAT_KERNEL },
	{ "kmem_cache_alloc_node", "", "", GB_CAT_KERNEL },
	{ "", "", "", GB_CAT_KERNEL },
};

static void
test_cat_of(void **state)
{
	size_t	i;
	int	got;

	(void)state;
	for (i = 0; i < sizeof(cat_cases) / sizeof(cat_cases[0]); i++) {
		const struct cat_case *c = &cat_cases[i];

		got = profile_cat_of(c->sym, c->module, c->driver, NULL);
		if (got != c->cat) {
			print_error("%s [%s] with driver \"%s\": %s, expected "
			    "%s\n", c->sym, c->module, c->driver,
			    profile_cat_name(got), profile_cat_name(c->cat));
			fail();
		}
	}
}

/*
 * The functions that enable interrupts again: their own category under
 * cpu-clock (they are charged with the time interrupts were off), as
 * before under cycles; and those that stay put under both.
 */
static const struct {
	const char	*sym;
	const char	*module;
	int		 cycles, clock;
} irq_cases[] = {
	{ "_raw_spin_unlock_irqrestore", "", GB_CAT_LOCK, GB_CAT_IRQOFF },
	{ "_raw_spin_unlock_irq", "", GB_CAT_LOCK, GB_CAT_IRQOFF },
	{ "_raw_read_unlock_irqrestore", "", GB_CAT_LOCK, GB_CAT_IRQOFF },
	{ "_raw_write_unlock_irq", "", GB_CAT_LOCK, GB_CAT_IRQOFF },
	{ "_raw_spin_unlock_irqrestore.part.0", "", GB_CAT_LOCK,
	    GB_CAT_IRQOFF },
	{ "pvm_irq_enable", "", GB_CAT_KERNEL, GB_CAT_IRQOFF },
	{ "__raw_callee_save_pvm_irq_enable", "", GB_CAT_KERNEL,
	    GB_CAT_IRQOFF },
	{ "pv_native_irq_enable", "", GB_CAT_KERNEL, GB_CAT_IRQOFF },
	{ "native_irq_enable", "", GB_CAT_KERNEL, GB_CAT_IRQOFF },
	{ "xen_irq_enable_direct", "", GB_CAT_KERNEL, GB_CAT_IRQOFF },
	{ "native_restore_fl", "", GB_CAT_KERNEL, GB_CAT_IRQOFF },
	{ "arch_local_irq_restore", "", GB_CAT_KERNEL, GB_CAT_IRQOFF },
	/* Softirqs, not interrupts: the timer fires while they are off. */
	{ "__local_bh_enable_ip", "", GB_CAT_KERNEL, GB_CAT_KERNEL },
	{ "_raw_spin_unlock_bh", "", GB_CAT_LOCK, GB_CAT_LOCK },
	/* Taking a lock, not giving it back. */
	{ "_raw_spin_lock_irqsave", "", GB_CAT_LOCK, GB_CAT_LOCK },
	{ "_raw_spin_lock_irq", "", GB_CAT_LOCK, GB_CAT_LOCK },
	{ "_raw_spin_unlock", "", GB_CAT_LOCK, GB_CAT_LOCK },
	/* Their own work's, and an interrupt line's. */
	{ "finish_task_switch.isra.0", "", GB_CAT_SCHED, GB_CAT_SCHED },
	{ "handle_softirqs", "", GB_CAT_SOFTIRQ, GB_CAT_SOFTIRQ },
	{ "timekeeper_unlock_irqrestore", "", GB_CAT_LOCK, GB_CAT_LOCK },
	{ "irq_enable", "", GB_CAT_KERNEL, GB_CAT_KERNEL },
	/* A module's own function of that name is not the kernel's. */
	{ "native_irq_enable", "somemod", GB_CAT_KERNEL, GB_CAT_KERNEL },
};

static void
test_cat_irqs_off(void **state)
{
	size_t	i;
	int	cy, cl, nul;

	(void)state;
	assert_true(profile_event_hides_irqs_off("cpu-clock"));
	assert_false(profile_event_hides_irqs_off("cycles"));
	assert_false(profile_event_hides_irqs_off(""));
	assert_false(profile_event_hides_irqs_off(NULL));
	for (i = 0; i < sizeof(irq_cases) / sizeof(irq_cases[0]); i++) {
		cy = profile_cat_of(irq_cases[i].sym, irq_cases[i].module,
		    "veth", "cycles");
		nul = profile_cat_of(irq_cases[i].sym, irq_cases[i].module,
		    "veth", NULL);
		cl = profile_cat_of(irq_cases[i].sym, irq_cases[i].module,
		    "veth", "cpu-clock");
		if (cy != irq_cases[i].cycles || nul != cy ||
		    cl != irq_cases[i].clock)
			fail_msg("%s [%s]: cycles %s, none %s, cpu-clock %s",
			    irq_cases[i].sym, irq_cases[i].module,
			    profile_cat_name(cy), profile_cat_name(nul),
			    profile_cat_name(cl));
	}
	/* The driver comes first, whatever the event. */
	assert_int_equal(profile_cat_of("veth_unlock_irqrestore", "", "veth",
	    "cpu-clock"), GB_CAT_DRIVER);
}

static void
test_cat_names(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < GB_NCAT; i++) {
		assert_non_null(profile_cat_name(i));
		assert_int_equal(profile_cat_lookup(profile_cat_name(i)), i);
	}
	assert_string_equal(profile_cat_name(GB_CAT_LOCK), "locking");
	assert_string_equal(profile_cat_name(GB_CAT_CSUM), "checksum");
	assert_string_equal(profile_cat_name(GB_CAT_IRQOFF),
	    "irqs off (attributed to the re-enable)");
	assert_null(profile_cat_name(-1));
	assert_null(profile_cat_name(GB_NCAT));
	assert_int_equal(profile_cat_lookup("nonsense"), -1);
	assert_int_equal(profile_cat_lookup(""), -1);
}

static void
test_share(void **state)
{
	struct gb_profile	p;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_true(profile_share(&p, 0) == 0);
	assert_true(profile_share(&p, 5) == 0);
	p.idle = 1000;			/* not in the shares */
	p.kernel = 300;
	p.user = 100;
	assert_true(profile_share(&p, 100) == 25.0);
	assert_true(profile_share(&p, 400) == 100.0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cat_of),
		cmocka_unit_test(test_cat_irqs_off),
		cmocka_unit_test(test_cat_names),
		cmocka_unit_test(test_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
