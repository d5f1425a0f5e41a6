/*
 * units.h: sizes, durations and rates.  Sizes take K/M/G suffixes that are
 * powers of 1024 (as ttcp and nuttcp); rates are 10^3-based bits or
 * 2^10-based bytes per second as ttcp's -f letters say, or packets per
 * second for -R.  Pure functions.
 */
#ifndef GB_UNITS_H
#define GB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse "64K", "1M", "131072" into bytes within [min, max].  On error
 * returns -1 and writes "WHAT is too large (max 64M): 9G" into err.
 */
int		 units_parse_size(const char *s, uint64_t min, uint64_t max,
		    const char *what, uint64_t *out, char *err, size_t errlen);
/* Parse "10", "2.5" seconds into milliseconds within [min_ms, max_ms]. */
int		 units_parse_seconds(const char *s, uint32_t min_ms,
		    uint32_t max_ms, const char *what, uint32_t *out_ms,
		    char *err, size_t errlen);
/* Parse a decimal integer within [min, max]. */
int		 units_parse_uint(const char *s, uint64_t min, uint64_t max,
		    const char *what, uint64_t *out, char *err, size_t errlen);
/*
 * Rates are 1000-based bits per second with a suffix letter, and a bare
 * number is Mbit/s.  A link rate "1g", "2500m", "100" (m, g, t) into
 * Mbit/s within [min, max]:
 */
int		 units_parse_rate_mbps(const char *s, uint64_t min,
		    uint64_t max, const char *what, uint64_t *out,
		    char *err, size_t errlen);
/* A pacing rate "500m", "1k", "10t" (k, m, g, t) into bytes/s: */
int		 units_parse_rate_bytes(const char *s, uint64_t min,
		    uint64_t max, const char *what, uint64_t *out,
		    char *err, size_t errlen);
/*
 * -R: "100m", "2.5g", "64000" bit/s (10^3-based k m g t; a bare number
 * is bit/s), or packets per second with a p suffix ("100kp", "5000p",
 * "1.5mp"); "0" is as fast as the sender can.  Exactly one of *bps,
 * *pps is nonzero, or both are 0 for "0".  Bit rates up to
 * GB_MAX_LINK_MBPS * 10^6 (params.h: 10 Tbit/s), packet rates 1 to
 * UNITS_MAX_SEND_PPS; on error returns -1 and writes "WHAT is not a
 * rate (...): 12x" into err.
 */
#define UNITS_MAX_SEND_PPS	UINT64_C(100000000)	/* 100mp */
int		 units_parse_send_rate(const char *s, const char *what,
		    uint64_t *bps, uint64_t *pps, char *err, size_t errlen);
/* Format bytes as "64K"/"1M"/"1000" when exact, for messages. */
const char	*units_format_size(uint64_t bytes, char *buf, size_t len);
/* Is c one of ttcp's -f letters: k m g K M G? */
int		 units_rate_letter_ok(char c);
/*
 * Express bits_per_s in the unit of a -f letter: 'm' -> Mbps (10^6 bit/s),
 * 'K' -> KB/sec (2^10 byte/s), ...  *label gets "Mbps", "KB/sec", ...
 */
double		 units_rate(double bits_per_s, char letter, const char **label);
/*
 * Microseconds since the epoch as ISO 8601 UTC with microseconds,
 * "2026-12-02T07:46:51.123456Z"; "" for 0 (unknown).  buf: 32 bytes.
 */
#define UNITS_TIME_LEN	32
const char	*units_format_utc(int64_t us, char *buf, size_t len);
/*
 * A megabyte figure (2^20 bytes) without pointless decimals: "4564"
 * when whole, else up to four places without trailing zeros ("62.5").
 */
const char	*units_format_mb(uint64_t bytes, char *buf, size_t len);

#endif /* GB_UNITS_H */
