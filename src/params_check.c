/*
 * params_check.c: the checks a listener makes on a test's parameters
 * before it acts on them, and the option parser at every point of a sweep
 * (so that what the listener would refuse is a usage error).  The hello's
 * decoder has already held each member to its range of the field table;
 * here is what a range cannot say: a memory total, "0 or at least the
 * minimum", the CPU list, the data paths, the congestion control name and
 * the interval against the duration.  Pure: no I/O; a reason goes into
 * the caller's buffer.
 */
#include <stdio.h>

#include "base/cpulist.h"
#include "base/datapath.h"
#include "base/params.h"
#include "base/result.h"

/* Below the field's minimum but not its "default" 0. */
static int
params_below(const struct gb_params *p, enum params_field_id id)
{
	uint64_t v = params_get(p, id);

	return v != 0 && v < params_field(id)->min;
}

/* Neither 0 where 0 is the default, nor within [min, max]. */
static int
params_outside(const struct gb_params *p, enum params_field_id id)
{
	const struct params_field *f = params_field(id);
	uint64_t v = params_get(p, id);

	if (v == 0 && f->zero_off)
		return 0;
	return v < f->min || v > f->max;
}

/*
 * A peer must not make the listener allocate gigabytes: streams x the
 * buffers of one stream, which are -Z's whole ring (params_zc_ring_count,
 * as the sender allocates it) or one buffer.
 */
static int
params_memory_check(const struct gb_params *p, char *err, size_t errlen)
{
	uint64_t per = p->buflen, nbuf;
	int zc = p->tx_path == GB_PATH_ZEROCOPY;
	unsigned dirs = p->bidir ? 2 : 1;

	if (p->rr)	/* --rr: one request and one answer a stream */
		per = (uint64_t)params_rr_size(p->req_size) +
		    params_rr_size(p->resp_size);
	else if (p->udp)	/* a batch of datagrams, or of --gro trains */
		per = (uint64_t)(p->batch != 0 ? p->batch : GB_DEFAULT_BATCH) *
		    (p->gro ? GB_GRO_BYTES : p->buflen);
	else if (zc)
		per *= params_zc_ring_count(p->buflen);
	/*
	 * The many-flow engine's flows share their thread's buffer: one a
	 * thread, at most GB_AUTO_MAX_THREADS of them when not asked; but
	 * -Z's ring is each flow's own (a buffer is reused only once its
	 * own send completed).
	 */
	nbuf = params_conns(p);
	if (!zc)
		nbuf = datapath_threads(p, p->streams, p->threads != 0 ?
		    p->threads : GB_AUTO_MAX_THREADS) * dirs;
	if (nbuf * per <= GB_MAX_BUF_TOTAL)
		return 0;
	snprintf(err, errlen, "%s x buffer memory is over the limit of "
	    "%u MiB: %llu x %llu bytes%s", nbuf != params_conns(p) ?
	    "threads" : "streams", GB_MAX_BUF_TOTAL >> 20,
	    (unsigned long long)nbuf, (unsigned long long)per, zc ?
	    " (with -Z's ring)" : "");
	return -1;
}

/*
 * -u --rr: a request and an answer each one datagram with gigebench's
 * header (dgram.h), so that the answer is matched to its request.
 */
static int
params_rr_dgram_check(const struct gb_params *p, char *err, size_t errlen)
{
	uint32_t req = params_rr_size(p->req_size);
	uint32_t resp = params_rr_size(p->resp_size);

	if (!p->rr || !p->udp)
		return 0;
	if (req < GB_MIN_DGRAM || req > GB_MAX_DGRAM || resp < GB_MIN_DGRAM ||
	    resp > GB_MAX_DGRAM) {
		snprintf(err, errlen, "%s size is out of range for -u --rr "
		    "(%u-%u bytes: one datagram with gigebench's %u-byte "
		    "header): %u", req < GB_MIN_DGRAM || req > GB_MAX_DGRAM ?
		    "request" : "response", GB_MIN_DGRAM, GB_MAX_DGRAM,
		    GB_MIN_DGRAM,
		    req < GB_MIN_DGRAM || req > GB_MAX_DGRAM ? req : resp);
		return -1;
	}
	return 0;
}

/*
 * --rr, in this version: the connecting side asking, for -T, by its
 * own loops (stream_rr.c, stream_rr_dgram.c with -u).
 */
static int
params_rr_check(const struct gb_params *p, char *err, size_t errlen)
{
	const char *no = NULL;

	if (p->crr && !p->rr) {
		snprintf(err, errlen, "--crr is a kind of --rr: rr is not set");
		return -1;
	}
	if (!p->rr)
		return params_rr_dgram_check(p, err, errlen);
	if (p->crr && params_rr_size(p->rr_burst) > 1) {
		snprintf(err, errlen, "--rr-burst cannot be used with --crr (one "
		    "transaction a connection): %u", p->rr_burst);
		return -1;
	}
	if (p->crr && p->udp)
		no = "-u (a new TCP connection a transaction)";
	else if (p->udp && (p->rate_bps != 0 || p->rate_pps != 0 ||
	    p->batch != 0 || p->gso || p->gro))
		no = "-R, --batch, --gso or --gro (a request waits for its "
		    "answer)";
	else if (p->direction != GB_DIR_CLIENT_SENDS)
		no = "-r (the connecting side asks)";
	else if (p->tx_path != 0 || p->rx_path != 0)
		no = "-Z, --sendfile, --splice or --skip-rx-copy (it moves "
		    "its own way)";
	else if (p->nbuf != 0)
		no = "-n (it runs for -T)";
	else if (p->omit_ms != 0)
		no = "--omit";
	if (no == NULL && params_rr_size(p->rr_burst) > 1 &&
	    (uint64_t)p->rr_burst * (params_rr_size(p->req_size) +
	    params_rr_size(p->resp_size)) > GB_MAX_RR_INFLIGHT) {
		snprintf(err, errlen, "--rr-burst %u of %u-byte requests and "
		    "%u-byte answers keeps more than %u KiB in flight: both "
		    "ends could block sending", p->rr_burst,
		    params_rr_size(p->req_size), params_rr_size(p->resp_size),
		    GB_MAX_RR_INFLIGHT / 1024);
		return -1;
	}
	if (no == NULL)
		return params_rr_dgram_check(p, err, errlen);
	snprintf(err, errlen, "%s cannot be used with %s", p->crr ? "--crr" :
	    "--rr", no);
	return -1;
}

/*
 * --bidir: -P streams each way, so at most half of GB_MAX_FLOWS; in
 * this version without --capture (whose filter would see both directions'
 * frames as one), and not with --rr, which is both ways already.
 */
static int
params_bidir_check(const struct gb_params *p, char *err, size_t errlen)
{
	const char *no = NULL;

	if (!p->bidir)
		return 0;
	if (p->streams > GB_MAX_FLOWS / 2) {
		snprintf(err, errlen, "--bidir runs -P streams each way: at "
		    "most %u, not %u", GB_MAX_FLOWS / 2, p->streams);
		return -1;
	}
	if (p->rr)
		no = "--rr (a request/response test goes both ways already)";
	else if (p->capture)
		no = "--capture in this version";
	if (no == NULL)
		return 0;
	snprintf(err, errlen, "--bidir cannot be used with %s", no);
	return -1;
}

/* The smallest settings: 0 (the kernel's) or at least the minimum. */
static int
params_min_check(const struct gb_params *p, char *err, size_t errlen)
{
	if (params_below(p, PF_MSS)) {
		snprintf(err, errlen, "mss is too small (min %llu): %u",
		    (unsigned long long)params_field(PF_MSS)->min, p->mss);
		return -1;
	}
	if (params_below(p, PF_SNDBUF) || params_below(p, PF_RCVBUF)) {
		snprintf(err, errlen, "socket buffer is too small (min %llu)",
		    (unsigned long long)params_field(PF_SNDBUF)->min);
		return -1;
	}
	if (params_below(p, PF_MTU)) {
		snprintf(err, errlen, "mtu is too small (min %llu): %u",
		    (unsigned long long)params_field(PF_MTU)->min, p->mtu);
		return -1;
	}
	return 0;
}

/* -A, the data paths, --fq-rate and --tos. */
static int
params_path_check(const struct gb_params *p, char *err, size_t errlen)
{
	const struct params_field *fq = params_field(PF_FQ_RATE);
	const struct params_field *tos = params_field(PF_TOS);
	char why[GB_ERR_LEN];
	size_t n;

	if (p->affinity[0] != '\0' && cpulist_parse(p->affinity, NULL, 0, &n,
	    why, sizeof(why)) == -1) {
		snprintf(err, errlen, "affinity: %s", why);
		return -1;
	}
	if ((p->tx_path != 0 && p->tx_path != GB_PATH_ZEROCOPY &&
	    p->tx_path != GB_PATH_SENDFILE) || (p->rx_path != 0 &&
	    p->rx_path != GB_PATH_SKIP_RX_COPY &&
	    p->rx_path != GB_PATH_SPLICE)) {
		snprintf(err, errlen, "data path is invalid: %d, %d",
		    p->tx_path, p->rx_path);
		return -1;
	}
	if (params_outside(p, PF_FQ_RATE)) {
		snprintf(err, errlen, "pacing rate is out of range "
		    "(%llu-%llu bytes/s): %llu", (unsigned long long)fq->min,
		    (unsigned long long)fq->max,
		    (unsigned long long)p->fq_rate);
		return -1;
	}
	if (params_outside(p, PF_TOS)) {
		snprintf(err, errlen, "TOS is out of range (%llu-%llu): %u",
		    (unsigned long long)tos->min,
		    (unsigned long long)tos->max, p->tos);
		return -1;
	}
	return 0;
}

int
params_cc_ok(const char *cc)
{
	size_t i;

	for (i = 0; cc[i] != '\0'; i++)
		if (!((cc[i] >= 'a' && cc[i] <= 'z') ||
		    (cc[i] >= 'A' && cc[i] <= 'Z') ||
		    (cc[i] >= '0' && cc[i] <= '9') || cc[i] == '_' ||
		    cc[i] == '-'))
			return 0;
	return i < 16;
}

/*
 * -u: a datagram holds gigebench's header and fits in IPv4 UDP; one rate
 * at most; the stream-only settings (TCP options, paths) are refused.
 * Without -u, the datagram settings are refused.
 */
static int
params_udp_check(const struct gb_params *p, char *err, size_t errlen)
{
	if (!p->udp) {
		if (p->rate_bps == 0 && p->rate_pps == 0 && p->batch == 0 &&
		    !p->gso && !p->gro)
			return 0;
		snprintf(err, errlen, "rate, batch, gso and gro are for UDP "
		    "tests (-u)");
		return -1;
	}
	if (p->buflen < GB_MIN_DGRAM || p->buflen > GB_MAX_DGRAM) {
		snprintf(err, errlen, "datagram length is out of range "
		    "(%u-%u bytes): %u", GB_MIN_DGRAM, GB_MAX_DGRAM, p->buflen);
		return -1;
	}
	if (p->rate_bps != 0 && p->rate_pps != 0) {
		snprintf(err, errlen, "rate is given both in bit/s and in "
		    "packets/s");
		return -1;
	}
	if (p->mss != 0 || p->nodelay || p->cc[0] != '\0' || p->tx_path != 0 ||
	    p->rx_path != 0) {
		snprintf(err, errlen, "a UDP test takes no TCP setting (MSS, "
		    "nodelay, congestion control, data path)");
		return -1;
	}
	return 0;
}

/*
 * --under-load's probes, in this version: beside a timed stream load,
 * TCP (its own connections are its self probes) or UDP (-u: none).
 */
static int
params_probes_check(const struct gb_params *p, char *err, size_t errlen)
{
	const char *no = NULL;

	if (p->probes == 0 && (p->probe_rate != 0 || p->probe_crr)) {
		snprintf(err, errlen, "%s needs probes (--under-load)",
		    p->probe_crr ? "--probe-crr" : "--probe-rate");
		return -1;
	}
	if (p->probes == 0)
		return 0;
	if (params_conns(p) > GB_MAX_FLOWS) {
		snprintf(err, errlen, "the load's %u connections and %u probes "
		    "are more than %u in all", params_load_conns(p), p->probes,
		    GB_MAX_FLOWS);
		return -1;
	}
	if (p->rr)
		no = "--rr or --crr (the load is a stream)";
	else if (p->probe_crr && p->probe_rate != 0)
		no = "both --probe-rate (UDP) and --probe-crr (TCP)";
	else if (p->nbuf != 0)
		no = "-n (the probes run for -T)";
	else if (p->capture)
		no = "--capture in this version";
	if (no == NULL)
		return 0;
	snprintf(err, errlen, "probes (--under-load) cannot be used with %s",
	    no);
	return -1;
}

int
params_check(const struct gb_params *p, char *err, size_t errlen)
{
	if (params_probes_check(p, err, errlen) == -1 ||
	    params_memory_check(p, err, errlen) == -1 ||
	    params_min_check(p, err, errlen) == -1 ||
	    params_path_check(p, err, errlen) == -1 ||
	    params_udp_check(p, err, errlen) == -1 ||
	    params_rr_check(p, err, errlen) == -1 ||
	    params_bidir_check(p, err, errlen) == -1)
		return -1;
	if (!params_cc_ok(p->cc)) {
		snprintf(err, errlen, "congestion control name is invalid: "
		    "\"%s\"", p->cc);
		return -1;
	}
	if (p->omit_ms != 0 && (p->udp || p->nbuf != 0)) {
		snprintf(err, errlen, "--omit needs a timed TCP test (no -n%s)",
		    p->udp ? ", no -u" : "");
		return -1;
	}
	if ((uint64_t)p->omit_ms + p->duration_ms > GB_MAX_DURATION_MS) {
		snprintf(err, errlen, "--omit and -T are more than %u s "
		    "together: %g s", GB_MAX_DURATION_MS / 1000,
		    ((uint64_t)p->omit_ms + p->duration_ms) / 1000.0);
		return -1;
	}
	/* The interval's upper bound is this test's duration. */
	if (p->interval_ms != 0 && (p->interval_ms <
	    params_field(PF_INTERVAL_MS)->min ||
	    p->interval_ms > p->duration_ms)) {
		snprintf(err, errlen, "interval is out of range (%llu ms-%u ms): "
		    "%u ms", (unsigned long long)params_field(PF_INTERVAL_MS)->min,
		    p->duration_ms, p->interval_ms);
		return -1;
	}
	return 0;
}
