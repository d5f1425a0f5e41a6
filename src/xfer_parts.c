/*
 * xfer_parts.c: a test's transfers beside its load on the same loop:
 * --bidir's half going back (xfer_start_rev) and --under-load's probes
 * (xfer_start_probes), each an xfer of its own, and the rule that the
 * caller hears of the test once, when every part has ended.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include "base/params.h"
#include "data/stream.h"
#include "data/xfer.h"
#include "xfer_measure.h"
#include "xfer_state.h"

/*
 * --bidir, --under-load: a part (the load, its half going back, the
 * probes) that ends first waits for the others, and one that failed
 * stops the others rather than let them run out their duration; the
 * caller hears of the test once, when all have ended.
 */
void
xfer_half_done(struct xfer *x)
{
	struct xfer *lead = x->fwd != NULL ? x->fwd : x->lead != NULL ?
	    x->lead : x;
	struct xfer *part[3] = { lead, lead->rev, lead->probe };
	char why[GB_ERR_LEN];
	unsigned i;

	for (i = 0; xfer_failed(x, why, sizeof(why)) && i < 3; i++)
		if (part[i] != NULL && !part[i]->done)
			xfer_abort(part[i], why);
	for (i = 0; i < 3; i++)
		if (part[i] != NULL && !part[i]->done)
			return;
	lead->done_cb(lead->arg);
}

/*
 * --bidir: the second half of the connections, going the other way, as
 * a transfer of its own (its streams, timers and host samples) on the
 * same loop.  Its -i slices say reverse; it has no progress line.
 */
int
xfer_start_rev(struct xfer *x, const struct xfer_config *c, char *err,
    size_t errlen)
{
	struct xfer_config rc = *c;
	struct gb_params p = *c->params;
	char sub[GB_ERR_LEN];

	p.bidir = 0;
	p.probes = 0;	/* the load's (xfer_start_probes) */
	rc.params = &p;
	rc.is_tx = !c->is_tx;
	rc.fds = c->fds + c->params->streams;
	rc.progress_cb = NULL;
	if ((x->rev = xfer_start(x->base, &rc, sub, sizeof(sub))) == NULL) {
		snprintf(err, errlen, "the reverse direction: %s", sub);
		return -1;
	}
	x->rev->fwd = x;
	return 0;
}

struct xfer *
xfer_reverse(struct xfer *x)
{
	return x->rev;
}

/*
 * --under-load: the probes (params_probe's test) on the connections
 * after the load's, asked by the connecting side, on the same loop;
 * no interval callback or progress line: their slices (--plot) stay in
 * the part, for xfer_probe_figures.
 */
int
xfer_start_probes(struct xfer *x, const struct xfer_config *c, char *err,
    size_t errlen)
{
	struct xfer_config pc = *c;
	struct gb_params p;
	char sub[GB_ERR_LEN];

	params_probe(c->params, &p);
	pc.params = &p;
	pc.is_tx = c->is_tx == (c->params->direction == GB_DIR_CLIENT_SENDS);
	pc.fds = c->fds + params_load_conns(c->params);
	pc.crr = p.crr ? c->crr : NULL;	/* --probe-crr: the load has none */
	pc.rate_cap = 0;
	pc.interval_cb = NULL;
	pc.progress_cb = NULL;
	if ((x->probe = xfer_start(x->base, &pc, sub, sizeof(sub))) == NULL) {
		snprintf(err, errlen, "the probes: %s", sub);
		return -1;
	}
	x->probe->lead = x;
	return 0;
}

struct xfer *
xfer_probes(struct xfer *x)
{
	return x->probe;
}

