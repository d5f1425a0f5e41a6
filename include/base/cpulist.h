/*
 * cpulist.h: CPU lists in the kernel's own syntax ("0-3,8,10-11"), as -A
 * takes them.  Pure.
 */
#ifndef GB_CPULIST_H
#define GB_CPULIST_H

#include <stddef.h>

/*
 * Parse s into CPU numbers in the order given, ranges expanded, each at
 * most GB_MAX_CPU.  The first max of them go into cpus (which may be NULL
 * when max is 0); *n gets how many there are in all, so that the i-th of
 * a round robin is cpus[i % *n] for any i < max.  -1 with
 * "CPU list is ...: VALUE" in err.
 */
int	cpulist_parse(const char *s, unsigned *cpus, size_t max, size_t *n,
	    char *err, size_t errlen);

#endif /* GB_CPULIST_H */
