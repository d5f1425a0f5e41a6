/*
 * context_value.h: what the values of a struct gb_context (result.h) mean
 * to every layer that reads, sends or prints one: which value stands for
 * "unknown", how a string is kept printable, and the ranges the host
 * readers clamp to and the JSON decoder checks.  Pure: no I/O.
 */
#ifndef GB_CONTEXT_VALUE_H
#define GB_CONTEXT_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "base/result.h"

/* Ranges shared by the readers and the JSON decoder. */
#define CONTEXT_MAX_NCPUS	(1 << 20)
#define CONTEXT_MAX_MTU		INT32_MAX
#define CONTEXT_MAX_SYSCTL	INT32_MAX	/* net.core.[rw]mem_max: int */
#define CONTEXT_MAX_ETHTOOL	UINT32_MAX	/* coalescing, rings: u32 */

/* Every value unknown (-1, ""), has = 0. */
void	context_init(struct gb_context *);
/* Copy src into dst (dstlen bytes), escaped as safetext.h says. */
void	context_copy(char *dst, size_t dstlen, const char *src);

#endif /* GB_CONTEXT_VALUE_H */
