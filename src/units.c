/*
 * units.c: sizes, durations and rates, as data and pure functions.
 *
 * Sizes are decimal integers with an optional K, M or G suffix (powers of
 * 1024, either case), as ttcp and nuttcp read them; seconds are decimal
 * numbers with an optional fraction, kept to the millisecond; rates are
 * 1000-based bits per second with a k, m, g or t suffix (a bare number is
 * Mbit/s), read by one scanner for the link rate, the pacing rate and
 * -R's send rate (where a bare number is bit/s, a fraction is allowed
 * when it makes a whole number, and a p after the number makes it
 * packets per second).
 * Nothing else is accepted: no sign, no blanks, no hex, no exponent, no
 * trailing junk.
 * A number is first checked for its shape and only then for its range, so
 * "12Q" is "not a size" and "99999999999G" is "too large".
 *
 * Every error is written into the caller's buffer as "WHAT is PROBLEM:
 * VALUE"; the option parser puts the option's name in front.  This file
 * never prints, never exits and keeps no state.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/params.h"
#include "base/units.h"

/* The outcome of scanning a number, before its range is known. */
enum units_scan {
	UNITS_OK = 0,
	UNITS_INVALID,		/* not the expected shape */
	UNITS_NEGATIVE,		/* the right shape behind a '-' */
	UNITS_OVERFLOW,		/* the right shape, more than 64 bits */
	UNITS_RANGE		/* the right shape, outside [min, max] */
};

/* Size suffixes, largest first so formatting picks the largest exact one. */
static const struct {
	char		letter;
	unsigned	shift;
} size_units[] = {
	{ 'G', 30 },
	{ 'M', 20 },
	{ 'K', 10 },
};
#define NSIZE_UNITS	(sizeof(size_units) / sizeof(size_units[0]))

/* ttcp's -f letters: k m g are 10^n bit/s, K M G are 2^n byte/s. */
static const struct {
	char		letter;
	int		bytes;		/* divide bytes, not bits */
	double		divisor;
	const char	*label;
} rate_units[] = {
	{ 'k', 0, 1e3, "kbps" },
	{ 'm', 0, 1e6, "Mbps" },
	{ 'g', 0, 1e9, "Gbps" },
	{ 'K', 1, 1024.0, "KB/sec" },
	{ 'M', 1, 1024.0 * 1024, "MB/sec" },
	{ 'G', 1, 1024.0 * 1024 * 1024, "GB/sec" },
};
#define NRATE_UNITS	(sizeof(rate_units) / sizeof(rate_units[0]))

static void		 units_error(char *, size_t, const char *,
			    const char *, const char *, ...)
			    __attribute__((format(printf, 5, 6)));
static enum units_scan	 units_scan_digits(const char **, uint64_t *,
			    unsigned *);
static enum units_scan	 units_scan_size(const char *, uint64_t *);
static enum units_scan	 units_scan_ms(const char *, uint64_t *);
static const char	*units_format_ms(uint64_t, char *, size_t);

/*
 * Write "WHAT is PROBLEM: VALUE".  An empty value is shown as "" so the
 * message never ends in a dangling colon.
 */
static void
units_error(char *err, size_t errlen, const char *what, const char *value,
    const char *fmt, ...)
{
	char	problem[128];
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(problem, sizeof(problem), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s %s: %s", what, problem,
	    *value == '\0' ? "\"\"" : value);
}

/*
 * Read one or more decimal digits at *sp into *out, advancing *sp.  *ndigits
 * gets the count.  A value past 64 bits is reported as UNITS_OVERFLOW, but
 * only after every digit has been consumed, so the caller can still check
 * what follows.
 */
static enum units_scan
units_scan_digits(const char **sp, uint64_t *out, unsigned *ndigits)
{
	const char	*s = *sp;
	uint64_t	 v = 0;
	int		 overflow = 0;
	unsigned	 d;

	for (; *s >= '0' && *s <= '9'; s++) {
		d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	*ndigits = (unsigned)(s - *sp);
	*sp = s;
	*out = v;
	if (*ndigits == 0)
		return UNITS_INVALID;
	return overflow ? UNITS_OVERFLOW : UNITS_OK;
}

/* "[-]DIGITS[KMG]" into bytes. */
static enum units_scan
units_scan_size(const char *s, uint64_t *out)
{
	enum units_scan	 r;
	uint64_t	 v;
	unsigned	 n, i, shift = 0;
	int		 neg = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if ((r = units_scan_digits(&s, &v, &n)) == UNITS_INVALID)
		return r;
	if (*s != '\0') {
		for (i = 0; i < NSIZE_UNITS; i++)
			if ((*s & ~0x20) == size_units[i].letter)
				break;
		if (i == NSIZE_UNITS || s[1] != '\0')
			return UNITS_INVALID;
		shift = size_units[i].shift;
	}
	if (neg)
		return UNITS_NEGATIVE;
	if (r == UNITS_OVERFLOW || v > (UINT64_MAX >> shift))
		return UNITS_OVERFLOW;
	*out = v << shift;
	return UNITS_OK;
}

/*
 * "[-]DIGITS[.DIGITS]" seconds into milliseconds, rounded to the nearest
 * one: the timers we feed have no finer resolution.
 */
static enum units_scan
units_scan_ms(const char *s, uint64_t *out)
{
	enum units_scan	 r;
	uint64_t	 sec, frac = 0;	/* frac: tenths of a millisecond */
	unsigned	 n, nf = 0, i;
	int		 neg = 0;
	const char	*f;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if ((r = units_scan_digits(&s, &sec, &n)) == UNITS_INVALID)
		return r;
	if (*s == '.') {
		f = ++s;
		if (units_scan_digits(&s, &frac, &nf) == UNITS_INVALID)
			return UNITS_INVALID;
		/* Keep four digits: three for ms, one to round on. */
		frac = 0;
		for (i = 0; i < 4; i++) {
			frac *= 10;
			if (i < nf)
				frac += (uint64_t)(f[i] - '0');
		}
	}
	if (*s != '\0')
		return UNITS_INVALID;
	if (neg)
		return UNITS_NEGATIVE;
	if (r == UNITS_OVERFLOW || sec > UINT64_MAX / 1000 - 1)
		return UNITS_OVERFLOW;
	*out = sec * 1000 + (frac + 5) / 10;
	return UNITS_OK;
}

int
units_parse_size(const char *s, uint64_t min, uint64_t max, const char *what,
    uint64_t *out, char *err, size_t errlen)
{
	char		 lo[32], hi[32];
	uint64_t	 v = 0;
	enum units_scan	 r;

	if (*s == '\0') {
		units_error(err, errlen, what, s, "is empty");
		return -1;
	}
	if ((r = units_scan_size(s, &v)) == UNITS_INVALID) {
		units_error(err, errlen, what, s,
		    "is not a size (like 1000, 64K, 1M, 1G)");
		return -1;
	}
	if (r == UNITS_NEGATIVE || (r == UNITS_OK && v < min)) {
		units_error(err, errlen, what, s, "is too small (min %s)",
		    units_format_size(min, lo, sizeof(lo)));
		return -1;
	}
	if (r == UNITS_OVERFLOW || v > max) {
		units_error(err, errlen, what, s, "is too large (max %s)",
		    units_format_size(max, hi, sizeof(hi)));
		return -1;
	}
	*out = v;
	return 0;
}

int
units_parse_seconds(const char *s, uint32_t min_ms, uint32_t max_ms,
    const char *what, uint32_t *out_ms, char *err, size_t errlen)
{
	char		 lo[32], hi[32];
	uint64_t	 ms = 0;
	enum units_scan	 r;

	if (*s == '\0') {
		units_error(err, errlen, what, s, "is empty");
		return -1;
	}
	if ((r = units_scan_ms(s, &ms)) == UNITS_INVALID) {
		units_error(err, errlen, what, s,
		    "is not a number of seconds (like 10, 2.5)");
		return -1;
	}
	if (r != UNITS_OK || ms < min_ms || ms > max_ms) {
		units_error(err, errlen, what, s, "is out of range (%s-%s)",
		    units_format_ms(min_ms, lo, sizeof(lo)),
		    units_format_ms(max_ms, hi, sizeof(hi)));
		return -1;
	}
	*out_ms = (uint32_t)ms;
	return 0;
}

int
units_parse_uint(const char *s, uint64_t min, uint64_t max, const char *what,
    uint64_t *out, char *err, size_t errlen)
{
	const char	*p = s;
	enum units_scan	 r;
	uint64_t	 v;
	unsigned	 n;
	int		 neg = 0;

	if (*s == '\0') {
		units_error(err, errlen, what, s, "is empty");
		return -1;
	}
	if (*p == '-') {
		neg = 1;
		p++;
	}
	r = units_scan_digits(&p, &v, &n);
	if (r == UNITS_INVALID || *p != '\0') {
		units_error(err, errlen, what, s, "is not a number");
		return -1;
	}
	if (neg || r == UNITS_OVERFLOW || v < min || v > max) {
		units_error(err, errlen, what, s,
		    "is out of range (%llu-%llu)",
		    (unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

const char *
units_format_size(uint64_t bytes, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; i < NSIZE_UNITS && bytes != 0; i++) {
		if (bytes % (UINT64_C(1) << size_units[i].shift) == 0) {
			snprintf(buf, len, "%llu%c", (unsigned long long)
			    (bytes >> size_units[i].shift),
			    size_units[i].letter);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

/* Milliseconds as the shortest decimal seconds: 100 -> "0.1". */
static const char *
units_format_ms(uint64_t ms, char *buf, size_t len)
{
	char	frac[8];
	size_t	n;

	snprintf(frac, sizeof(frac), "%03u", (unsigned)(ms % 1000));
	for (n = strlen(frac); n > 0 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	snprintf(buf, len, "%llu%s%s", (unsigned long long)(ms / 1000),
	    n > 0 ? "." : "", frac);
	return buf;
}

int
units_rate_letter_ok(char c)
{
	size_t	i;

	for (i = 0; i < NRATE_UNITS; i++)
		if (rate_units[i].letter == c)
			return 1;
	return 0;
}

/* An unknown letter is taken as 'm', the default of -f. */
double
units_rate(double bits_per_s, char letter, const char **label)
{
	size_t	i, m = 1;

	for (i = 0; i < NRATE_UNITS; i++)
		if (rate_units[i].letter == letter)
			m = i;
	if (label != NULL)
		*label = rate_units[m].label;
	if (rate_units[m].bytes)
		return bits_per_s / 8 / rate_units[m].divisor;
	return bits_per_s / rate_units[m].divisor;
}

/* Rate suffixes: 1000-based bits per second. */
static const struct {
	char		letter;
	uint64_t	bits;
} bit_units[] = {
	{ 'k', UINT64_C(1000) },
	{ 'm', UINT64_C(1000000) },
	{ 'g', UINT64_C(1000000000) },
	{ 't', UINT64_C(1000000000000) },
};
#define NBIT_UNITS	(sizeof(bit_units) / sizeof(bit_units[0]))

/* -R's bit rates go as high as a link: 10t. */
#define UNITS_MAX_SEND_BPS	(GB_MAX_LINK_MBPS * UINT64_C(1000000))

/*
 * The one rate number: "DIGITS[.DIGITS][LETTER]" at *sp, LETTER one of
 * `letters` (k m g t, either case) or none (then bare_bits), into bit/s
 * in *bits, advancing *sp past what it read; what follows is the
 * caller's to check.  A fraction is read only when frac_ok, and only
 * one that its letter makes a whole number of bit/s ("2.5k", not "1.5"
 * or "1.0005k"): else UNITS_INVALID.  Digits past 64 bits are
 * UNITS_OVERFLOW, a product past 64 bits UNITS_RANGE.
 */
static enum units_scan
units_scan_bits(const char **sp, const char *letters, uint64_t bare_bits,
    int frac_ok, uint64_t *bits)
{
	enum units_scan	 r;
	const char	*p = *sp, *f = p;
	uint64_t	 v, mult = bare_bits, frac = 0, p10 = 1;
	unsigned	 n, nf = 0, i;

	if ((r = units_scan_digits(&p, &v, &n)) == UNITS_INVALID)
		return r;
	if (frac_ok && *p == '.') {
		for (f = ++p; *p >= '0' && *p <= '9'; p++)
			continue;
		if ((nf = (unsigned)(p - f)) == 0)
			return UNITS_INVALID;
		while (nf > 0 && f[nf - 1] == '0')
			nf--;
	}
	for (i = 0; i < NBIT_UNITS; i++) {
		if (bit_units[i].letter == (*p | 0x20) &&
		    strchr(letters, bit_units[i].letter) != NULL) {
			mult = bit_units[i].bits;
			p++;
			break;
		}
	}
	*sp = p;
	if (nf > 18)		/* more than any letter makes whole */
		return UNITS_INVALID;
	for (i = 0; i < nf; i++) {
		frac = frac * 10 + (uint64_t)(f[i] - '0');
		p10 *= 10;
	}
	if (mult % p10 != 0)
		return UNITS_INVALID;
	if (r == UNITS_OVERFLOW)
		return r;
	frac *= mult / p10;	/* below mult: frac < p10 */
	if (v > (UINT64_MAX - frac) / mult)
		return UNITS_RANGE;
	*bits = v * mult + frac;
	return UNITS_OK;
}

/*
 * A whole link or pacing rate: "DIGITS[LETTER]" (bare: Mbit/s) into *out
 * units of unit_bits bit/s within [min, max] of that unit (max *
 * unit_bits must fit 64 bits).
 */
static enum units_scan
units_scan_rate(const char *s, const char *letters, uint64_t unit_bits,
    uint64_t min, uint64_t max, uint64_t *out)
{
	enum units_scan	 r;
	const char	*p = s;
	uint64_t	 bits;

	r = units_scan_bits(&p, letters, UINT64_C(1000000), 0, &bits);
	if (r == UNITS_INVALID || *p != '\0')
		return UNITS_INVALID;
	if (r != UNITS_OK)
		return r;
	if (bits > max * unit_bits || bits / unit_bits < min)
		return UNITS_RANGE;
	*out = bits / unit_bits;
	return UNITS_OK;
}

/* A rate in bit/s as the largest exact suffix: 1000 -> "1k". */
static const char *
units_format_bits(uint64_t bits, char *buf, size_t len)
{
	size_t	i;

	for (i = NBIT_UNITS; i-- > 0 && bits != 0;) {
		if (bits % bit_units[i].bits == 0) {
			snprintf(buf, len, "%" PRIu64 "%c",
			    bits / bit_units[i].bits, bit_units[i].letter);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64, bits);
	return buf;
}

/*
 * A link rate, "1g", "2500m", "10G", "100" (bare: Mbit/s), into Mbit/s.
 * Rates are bits and 1000-based, as link speeds are quoted.  A number
 * past 64 bits is out of range.
 */
int
units_parse_rate_mbps(const char *s, uint64_t min, uint64_t max,
    const char *what, uint64_t *out, char *err, size_t errlen)
{
	enum units_scan r;

	if (*s == '\0') {
		units_error(err, errlen, what, s, "is empty");
		return -1;
	}
	r = units_scan_rate(s, "mgt", UINT64_C(1000000), min, max, out);
	if (r == UNITS_INVALID) {
		units_error(err, errlen, what, s,
		    "is not a rate (like 100m, 1g, 10g; bare: Mbit/s)");
		return -1;
	}
	if (r != UNITS_OK) {
		units_error(err, errlen, what, s, "is out of range "
		    "(%" PRIu64 "m-%" PRIu64 "m)", min, max);
		return -1;
	}
	return 0;
}

/*
 * A pacing rate, "500m", "1g", "1k" (bare: Mbit/s), into bytes per
 * second: the socket option wants bytes, so the value is divided by 8
 * here, once.  A number past 64 bits is not a rate.
 */
int
units_parse_rate_bytes(const char *s, uint64_t min, uint64_t max,
    const char *what, uint64_t *out, char *err, size_t errlen)
{
	enum units_scan	r;
	char		lo[32], hi[32];

	if (*s == '\0') {
		units_error(err, errlen, what, s, "is empty");
		return -1;
	}
	r = units_scan_rate(s, "kmgt", 8, min, max, out);
	if (r == UNITS_INVALID || r == UNITS_OVERFLOW) {
		units_error(err, errlen, what, s,
		    "is not a rate (like 500m, 1g; bare: Mbit/s)");
		return -1;
	}
	if (r != UNITS_OK) {
		units_error(err, errlen, what, s, "is out of range (%s-%s)",
		    units_format_bits(min * 8, lo, sizeof(lo)),
		    units_format_bits(max * 8, hi, sizeof(hi)));
		return -1;
	}
	return 0;
}

/*
 * -R: "100m", "2.5g", "64000" bit/s (bare: bit/s, unlike the two rates
 * above: a UDP sender's rate is often small), or packets per second
 * with a p after the number ("100kp", "5000p", "1.5mp", as nuttcp
 * writes it); "0" is as fast as the sender can.  A fraction must make a
 * whole number ("1.5" is not a rate).
 */
int
units_parse_send_rate(const char *s, const char *what, uint64_t *bps,
    uint64_t *pps, char *err, size_t errlen)
{
	enum units_scan	 r;
	const char	*p = s;
	uint64_t	 v = 0;
	int		 packets = 0;
	char		 hi[32];

	if (*s == '\0') {
		units_error(err, errlen, what, s, "is empty");
		return -1;
	}
	r = units_scan_bits(&p, "kmgt", 1, 1, &v);
	if ((*p | 0x20) == 'p') {
		packets = 1;
		p++;
	}
	if (r == UNITS_INVALID || *p != '\0') {
		units_error(err, errlen, what, s, "is not a rate (like 100m, "
		    "2.5g, 64000 bit/s; 100kp, 5000p packets/s)");
		return -1;
	}
	if (packets && (r != UNITS_OK || v < 1 || v > UNITS_MAX_SEND_PPS)) {
		units_error(err, errlen, what, s, "is out of range (1p-%sp)",
		    units_format_bits(UNITS_MAX_SEND_PPS, hi, sizeof(hi)));
		return -1;
	}
	if (!packets && (r != UNITS_OK || v > UNITS_MAX_SEND_BPS)) {
		units_error(err, errlen, what, s, "is out of range (0-%s)",
		    units_format_bits(UNITS_MAX_SEND_BPS, hi, sizeof(hi)));
		return -1;
	}
	*bps = packets ? 0 : v;
	*pps = packets ? v : 0;
	return 0;
}

const char *
units_format_utc(int64_t us, char *buf, size_t len)
{
	struct tm tm;
	time_t sec;
	char day[24];

	if (len > 0)
		buf[0] = '\0';
	if (us <= 0)
		return buf;
	sec = (time_t)(us / 1000000);
	if (gmtime_r(&sec, &tm) == NULL ||
	    strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return buf;
	snprintf(buf, len, "%s.%06dZ", day, (int)(us % 1000000));
	return buf;
}

const char *
units_format_mb(uint64_t bytes, char *buf, size_t len)
{
	size_t n;

	if (bytes % (UINT64_C(1) << 20) == 0) {
		snprintf(buf, len, "%" PRIu64, bytes >> 20);
		return buf;
	}
	snprintf(buf, len, "%.4f", (double)bytes / 1048576.0);
	/* "62.5000" is 62.5; "0.0000" (a few bytes) keeps one zero. */
	for (n = strlen(buf); n > 2 && buf[n - 1] == '0' &&
	    buf[n - 2] != '.'; n--)
		buf[n - 1] = '\0';
	return buf;
}
