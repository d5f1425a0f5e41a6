/*
 * knobs.c: warnings for settings that did not take.
 *
 * Linux doubles a SO_SNDBUF/SO_RCVBUF request (half of it is for its own
 * bookkeeping) and silently caps the request at net.core.wmem_max /
 * rmem_max, so "asked 768K, got 416K" is the common case on a default
 * system; the fix is the sysctl, or SO_*BUFFORCE as root (--force-bufs).
 * TCP_MAXSEG only ever lowers the MSS; the path MTU can lower it further.
 * Only the sender's MSS is checked: it is the size of the data segments,
 * and the listener sets the option after accept(), too late for the MSS
 * its SYN-ACK advertised (the connecting side sets it before connect()).
 * The interface whose counters are read (-I, or the one that holds the
 * local address) is checked against the one the route to the peer leaves
 * by.  That route is the sender's data's; the receiver's is its ACKs',
 * and its data come in by the same interface unless the routing is
 * asymmetric.  (An interface beside the route may still see the other
 * direction: the sender's ACKs, with asymmetric routing.)
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/knobs.h"
#include "base/units.h"

void
knobs_warn(struct gb_side *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nwarnings >= GB_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(s->warnings[s->nwarnings], GB_WARNING_LEN, fmt, ap);
	va_end(ap);
	s->nwarnings++;
}

static void
check_buf(struct gb_side *s, const char *opt, const struct gb_sockbuf *b,
    int64_t cap, const char *sysctl)
{
	char asked[32], got[32];

	if (b->requested == 0 || b->actual == 0 ||
	    (uint64_t)b->actual >= 2 * (uint64_t)b->requested)
		return;
	units_format_size(b->requested, asked, sizeof(asked));
	units_format_size(b->actual, got, sizeof(got));
	if (cap > 0 && (uint64_t)b->actual <= 2 * (uint64_t)cap)
		knobs_warn(s, "%s: asked %s, got %s: the kernel caps it at "
		    "2 x %s = %lld; raise %s or use --force-bufs as root",
		    opt, asked, got, sysctl, 2 * (long long)cap, sysctl);
	else
		knobs_warn(s, "%s: asked %s, got %s (the kernel doubles the "
		    "request; this one was capped)", opt, asked, got);
}

void
knobs_check(const struct gb_params *p, int is_tx, struct gb_side *s)
{
	const struct gb_context *c = &s->context;
	const struct gb_tcp *t = &s->tcp;

	if (is_tx)
		check_buf(s, "SO_SNDBUF", &s->sndbuf, c->has ? c->wmem_max :
		    -1, "net.core.wmem_max");
	else
		check_buf(s, "SO_RCVBUF", &s->rcvbuf, c->has ? c->rmem_max :
		    -1, "net.core.rmem_max");
	if (!t->has)
		return;
	if (is_tx && p->mss != 0 && t->mss > p->mss)
		knobs_warn(s, "TCP_MAXSEG: asked %u, the connection sends "
		    "%u-byte segments", p->mss, t->mss);
	/* An IP packet is at most 65535 bytes, whatever lo's MTU says. */
	if (c->has && c->mtu > 0 && t->pmtu > 0 &&
	    t->pmtu < (c->mtu < 65535 ? c->mtu : 65535))
		knobs_warn(s, "path MTU %u is below the interface MTU %lld: "
		    "the peer or a hop has a smaller MTU", t->pmtu,
		    (long long)c->mtu);
}

void
knobs_egress(struct gb_side *s, int is_tx, const char *ifname, int given,
    const char *egress)
{
	char	what[GB_IFNAME_LEN + 24];

	if (ifname[0] == '\0' || egress[0] == '\0' ||
	    strcmp(ifname, egress) == 0)
		return;
	if (given)
		snprintf(what, sizeof(what), "-I %s", ifname);
	else
		snprintf(what, sizeof(what), "%s (holds the local address)",
		    ifname);
	if (is_tx)
		knobs_warn(s, "%s: the test's data leave by %s, so %s's "
		    "interrupt and packet counts miss them", what, egress,
		    ifname);
	else
		knobs_warn(s, "%s: the route to the sender leaves by %s, "
		    "so %s's interrupt and packet counts miss the data unless "
		    "the routing is asymmetric", what, egress, ifname);
}
