/*
 * monotime.h: CLOCK_MONOTONIC, the one clock deadlines and timeouts are
 * measured on (never the wall clock, which can jump), in milliseconds and,
 * for the datagrams' send times and pacing, in nanoseconds.  The wall
 * clock (walltime_us) only stamps results with when they were made.
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

static inline uint64_t
monotime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CLOCK_REALTIME in microseconds since the epoch: provenance only. */
static inline int64_t
walltime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#endif /* GB_MONOTIME_H */
