/*
 * result.c: the few figures derived from a struct gb_result after both
 * sides are known.  Units as ttcp and nuttcp: Mbps is 10^6 bit/s, MB is
 * 2^20 bytes.  Pure arithmetic; no I/O, no formatting.
 */
#include <stdint.h>

#include "base/result.h"

double
result_mbps(uint64_t bytes, double seconds)
{
	/* Also rejects NaN: a rate over no time is no rate. */
	if (!(seconds > 0))
		return 0;
	return (double)bytes * 8 / seconds / 1e6;
}

double
result_megabytes(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}
