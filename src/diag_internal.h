/*
 * diag_internal.h: internal to the diagnosis (base/diag.h), shared by its
 * files: diag.c (the run, the figures every finding reads, CPU,
 * retransmits, goodput, the renderers), diag_window.c (the TCP window
 * against the path) and diag_irq.c (interrupts: coalescing, shared and
 * legacy lines), diag_spread.c (queues and CPUs), diag_udp.c and
 * diag_rr.c.  Nothing outside src/diag*.c
 * includes it.
 */
#ifndef GB_DIAG_INTERNAL_H
#define GB_DIAG_INTERNAL_H

#include "base/result.h"

#define DIAG_TOKLEN		64	/* a number with its unit, a clause */

/* Append a finding; findings past GB_MAX_FINDINGS are dropped. */
void	 diag_add(struct gb_result *, const char *code, const char *side,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The streams of the test, at least 1. */
int	 diag_streams(const struct gb_result *);
/* The delivered rate: the receiver's, or the sender's; 0 when unknown. */
double	 diag_rate_mbps(const struct gb_result *);
/* --link-rate, else the slower known interface speed; 0 when unknown. */
double	 diag_link_mbps(const struct gb_result *);
/*
 * The MTU the data frames were cut to: the sender's, else the receiver's,
 * else 1500 with *assumed set.
 */
unsigned diag_mtu(const struct gb_result *, int *assumed);

/* diag_window.c */
void	 diag_window_limited(struct gb_result *);
void	 diag_window_size(struct gb_result *);

/* diag_irq.c: side is "sender" or "receiver" */
void	 diag_coalescing(struct gb_result *, const struct gb_side *,
	    const char *side, int data_tx);
void	 diag_irq_shared(struct gb_result *, const struct gb_side *,
	    const char *side);
/*
 * diag_spread.c: one queue's line with most of the interrupts
 * (irq_pile), one CPU's softirqs the bottleneck (cpu_softirq_bound),
 * more rx queues than interrupt lines (few_vectors).
 */
void	 diag_irq_pile(struct gb_result *, const struct gb_side *,
	    const char *side);
void	 diag_cpu_softirq(struct gb_result *, const struct gb_side *,
	    const char *side);
void	 diag_few_vectors(struct gb_result *, const struct gb_side *,
	    const char *side);
/* diag_rr.c: --rr's interrupts a transaction and wake-up latency. */
void	 diag_rr(struct gb_result *);
/* diag_udp.c: -u's loss, by place, and a sender below its pace. */
void	 diag_udp(struct gb_result *);
void	 diag_irq_legacy(struct gb_result *, const struct gb_side *,
	    const char *side);
/*
 * diag_profile.c: --profile's findings.  An end that spends 25 % or
 * more of its busy samples copying data (is_tx: the sender); and the
 * clause diag_coalescing() adds when a driver interrupt handler is among
 * the profile's top 3 (0: none).
 */
void	 diag_profile_copy(struct gb_result *, const struct gb_side *,
	    const char *side, int is_tx);
int	 diag_profile_handler(const struct gb_side *, char *buf, size_t len);

#endif /* GB_DIAG_INTERNAL_H */
