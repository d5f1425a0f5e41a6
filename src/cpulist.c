/*
 * cpulist.c: "0,2" and "0-3" into CPU numbers.  The syntax is the one of
 * /sys/devices/system/cpu/online and taskset -c: numbers and ranges
 * separated by commas, nothing else (no blanks, no strides).  A CPU may
 * appear twice; round robin then simply visits it twice.  No I/O: whether
 * a CPU exists is the business of the end that pins a thread to it.
 */
#include <stdint.h>
#include <stdio.h>

#include "base/cpulist.h"
#include "base/params.h"

/* A CPU number: 1 to 4 digits, at most GB_MAX_CPU; -1 and err else. */
static int
cpulist_number(const char **sp, const char *s, unsigned *out, char *err,
    size_t errlen)
{
	const char *p = *sp;
	unsigned v = 0;

	if (*p < '0' || *p > '9') {
		snprintf(err, errlen, "CPU list is not like 0,2 or 0-3: %s", s);
		return -1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > GB_MAX_CPU) {
			snprintf(err, errlen, "CPU number is too large "
			    "(max %u): %s", GB_MAX_CPU, s);
			return -1;
		}
	}
	*sp = p;
	*out = v;
	return 0;
}

int
cpulist_parse(const char *s, unsigned *cpus, size_t max, size_t *n,
    char *err, size_t errlen)
{
	const char *p = s;
	unsigned lo, hi, c;
	size_t count = 0;

	if (*s == '\0') {
		snprintf(err, errlen, "CPU list is empty: \"\"");
		return -1;
	}
	for (;;) {
		if (cpulist_number(&p, s, &lo, err, errlen) == -1)
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			if (cpulist_number(&p, s, &hi, err, errlen) == -1)
				return -1;
			if (hi < lo) {
				snprintf(err, errlen, "CPU range is backwards: "
				    "%s", s);
				return -1;
			}
		}
		for (c = lo; c <= hi; c++, count++)
			if (count < max)
				cpus[count] = c;
		if (*p == '\0')
			break;
		if (*p != ',' || p[1] == '\0') {
			snprintf(err, errlen, "CPU list is not like 0,2 or "
			    "0-3: %s", s);
			return -1;
		}
		p++;
	}
	*n = count;
	return 0;
}
