/*
 * datapath.c: data path names and the --fq-rate and --tos values.
 *
 * The names are the protocol's and the JSON's, so they never change.
 * Rates follow --link-rate: 1000-based bits with k, m, g or t, and a bare
 * number is Mbit/s; SO_MAX_PACING_RATE wants bytes per second, so the
 * value is divided by 8 here, once.  No I/O.
 */
#include <stdio.h>
#include <string.h>

#include "base/datapath.h"

static const char *const datapath_names[GB_PATH_COUNT] = {
	[GB_PATH_SEND] = "send",
	[GB_PATH_ZEROCOPY] = "zerocopy",
	[GB_PATH_SENDFILE] = "sendfile",
	[GB_PATH_RECV] = "recv",
	[GB_PATH_SKIP_RX_COPY] = "skip_rx_copy",
	[GB_PATH_SPLICE] = "splice",
};

const char *
datapath_name(int path)
{
	if (path < 0 || path >= GB_PATH_COUNT)
		return "?";
	return datapath_names[path];
}

int
datapath_lookup(const char *name)
{
	int i;

	for (i = 0; i < GB_PATH_COUNT; i++)
		if (strcmp(name, datapath_names[i]) == 0)
			return i;
	return -1;
}

int
datapath_of(const struct gb_params *p, int is_tx)
{
	if (is_tx)
		return p->tx_path != 0 ? p->tx_path : GB_PATH_SEND;
	return p->rx_path != 0 ? p->rx_path : GB_PATH_RECV;
}

/* Decimal digits only; 0 past UINT64_MAX / 10 digits' worth. */
static int
datapath_digits(const char **sp, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*sp = s;
	*out = v;
	return 0;
}

int
datapath_parse_rate(const char *s, uint64_t *bytes_s, char *err,
    size_t errlen)
{
	static const struct {
		char		letter;
		uint64_t	bits;
	} mult[] = {
		{ 'k', 1000 }, { 'm', 1000000 }, { 'g', 1000000000 },
		{ 't', UINT64_C(1000000000000) },
	};
	const char *p = s;
	uint64_t v, bits = 1000000;	/* bare: Mbit/s */
	size_t i;

	if (*s == '\0') {
		snprintf(err, errlen, "pacing rate is empty: \"\"");
		return -1;
	}
	if (datapath_digits(&p, &v) == -1 || (p[0] != '\0' && p[1] != '\0'))
		goto bad;
	if (*p != '\0') {
		for (i = 0; i < sizeof(mult) / sizeof(mult[0]); i++)
			if (mult[i].letter == (*p | 0x20))
				break;
		if (i == sizeof(mult) / sizeof(mult[0]))
			goto bad;
		bits = mult[i].bits;
	}
	/* Past 10 Tbit/s either way, without overflowing on the way. */
	if (v > GB_MAX_FQ_RATE * 8 / bits || v * bits / 8 < GB_MIN_FQ_RATE) {
		snprintf(err, errlen, "pacing rate is out of range (1k-10t): "
		    "%s", s);
		return -1;
	}
	*bytes_s = v * bits / 8;
	return 0;
bad:
	snprintf(err, errlen, "pacing rate is not a rate (like 500m, 1g; "
	    "bare: Mbit/s): %s", s);
	return -1;
}

int
datapath_parse_tos(const char *s, uint32_t *out, char *err, size_t errlen)
{
	const char *p = s;
	uint64_t v = 0;
	int d;

	if (*s == '\0') {
		snprintf(err, errlen, "TOS is empty: \"\"");
		return -1;
	}
	/* Decimal or 0x hex; a leading 0 is not octal, to avoid surprises. */
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		for (p += 2; *p != '\0' && v <= GB_MAX_TOS; p++) {
			if (*p >= '0' && *p <= '9')
				d = *p - '0';
			else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
				d = (*p | 0x20) - 'a' + 10;
			else
				break;
			v = v * 16 + (uint64_t)d;
		}
		if (p == s + 2)
			p = s;	/* "0x" alone */
	} else if (datapath_digits(&p, &v) == -1)
		p = s;
	if (p == s || *p != '\0' || v > GB_MAX_TOS) {
		snprintf(err, errlen, "TOS is not 0-255 or 0x00-0xff: %s", s);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}
