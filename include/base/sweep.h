/*
 * sweep.h: --sweep PARAM=LIST.  Parses each axis ("mtu=1500,4096,9000",
 * "window=4K..1M*2", "length=16K..128K+16K", "cc=cubic,bbr"), walks the
 * cross product of the axes, and applies one point to a test's
 * parameters.  Pure: no I/O, no sockets.
 */
#ifndef GB_SWEEP_H
#define GB_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "base/params.h"

#define SWEEP_MAX_AXES		4
#define SWEEP_MAX_VALUES	256	/* per axis */
#define SWEEP_MAX_POINTS	4096	/* the whole cross product */
#define SWEEP_CC_LEN		16	/* TCP_CA_NAME_MAX */
/* A rate value in packets/s has this bit set, bit/s not. */
#define SWEEP_RATE_PPS		(UINT64_C(1) << 63)

enum sweep_param {
	SWEEP_MTU,	/* interface MTU on both ends, 1280-65535 */
	SWEEP_MSS,	/* TCP_MAXSEG, as -M */
	SWEEP_WINDOW,	/* -b: sndbuf and rcvbuf */
	SWEEP_SNDBUF,
	SWEEP_RCVBUF,
	SWEEP_LENGTH,	/* -l */
	SWEEP_STREAMS,	/* -P */
	SWEEP_CC,	/* congestion control, a name */
	SWEEP_RATE,	/* -u's -R: bit/s, or packets/s (SWEEP_RATE_PPS) */
	SWEEP_REQ_SIZE,	/* --rr's --request-size */
	SWEEP_RESP_SIZE,	/* --rr's --response-size */
	SWEEP_BURST,	/* --rr's --rr-burst */
	SWEEP_NPARAMS
};

struct sweep_axis {
	int		param;			/* enum sweep_param */
	unsigned	nvalues;
	uint64_t	values[SWEEP_MAX_VALUES];	/* numeric params */
	char		names[SWEEP_MAX_VALUES][SWEEP_CC_LEN];	/* cc */
};

struct sweep {
	unsigned		naxes;
	struct sweep_axis	axes[SWEEP_MAX_AXES];
};

/* One point's settings beyond struct gb_params. */
struct sweep_setting {
	uint32_t	mtu;			/* 0: leave the MTU alone */
	char		cc[SWEEP_CC_LEN];	/* "": the default */
};

/*
 * Add the axis "PARAM=LIST" to s.  Lists are comma separated values or
 * ranges FROM..TO*FACTOR (geometric) and FROM..TO+STEP (arithmetic);
 * sizes take K/M/G.  Each value is range-checked for its parameter; a
 * parameter given twice, too many values or points is an error that
 * names the value.  Returns 0 or -1 with the reason in err.  s starts
 * zeroed; a failed call leaves it as it was.
 */
int		 sweep_parse(struct sweep *, const char *arg,
		    char *err, size_t errlen);
/* The size of the cross product; 1 when nothing is swept. */
unsigned	 sweep_npoints(const struct sweep *);
/* Is param one of the axes? */
int		 sweep_has(const struct sweep *, int param);
/*
 * Apply point (0 .. npoints-1; the last axis varies fastest).  Writes
 * only the fields the axes name; the rest keep the caller's values.
 */
void		 sweep_apply(const struct sweep *, unsigned point,
		    struct gb_params *, struct sweep_setting *);
/* "mtu", "window", ... */
const char	*sweep_param_name(int param);
/* The value of axis a at point, as text ("9000", "64K", "bbr"). */
const char	*sweep_value_text(const struct sweep *, unsigned axis,
		    unsigned point, char *buf, size_t len);
/* The value of axis a at point as a number (cc: the value's index). */
double		 sweep_value(const struct sweep *, unsigned axis,
		    unsigned point);

#endif /* GB_SWEEP_H */
