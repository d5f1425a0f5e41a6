/*
 * tsfile.h: --timestamps.  A stream that writes through to another, each
 * line prefixed with the wall-clock time its first byte was written
 * ("2026-12-02 07:46:51 gigebench-t: ..."), as iperf3's --timestamps
 * does.  The renderers write to it as to any FILE and know nothing of
 * it.
 */
#ifndef GB_TSFILE_H
#define GB_TSFILE_H

#include <stdint.h>
#include <stdio.h>

/* The default FORMAT of --timestamps: strftime(3), local time. */
#define TSFILE_DEFAULT_FORMAT	"%Y-%m-%d %H:%M:%S"

/*
 * A line-buffered stream onto under (which it flushes after each write
 * and does not close); fmt is strftime's, followed by one space.  now_us
 * gives the time in microseconds since the epoch (NULL: the wall clock;
 * tests pass their own).  NULL when out of memory.
 */
FILE	*tsfile_open(FILE *under, const char *fmt, int64_t (*now_us)(void));

#endif /* GB_TSFILE_H */
