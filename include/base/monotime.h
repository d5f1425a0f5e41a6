/*
 * monotime.h: milliseconds on CLOCK_MONOTONIC, the one clock deadlines
 * and timeouts are measured on (never the wall clock, which can jump).
 */
#ifndef GB_MONOTIME_H
#define GB_MONOTIME_H

#include <stdint.h>
#include <time.h>

static inline int64_t
monotime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif /* GB_MONOTIME_H */
