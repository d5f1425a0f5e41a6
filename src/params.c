/*
 * params.c: the defaults of one test and the field table, the one place
 * that says which range each numeric field of struct gb_params has and
 * whether 0 stands for "default" there.  The option parser, the hello's
 * decoder and params_check() take their numbers from here; the limits
 * themselves are named in params.h.  Pure: no I/O, no state.
 */

#include <string.h>

#include "base/params.h"

#define F(id, k, lo, hi, zero) [id] = { #k, lo, hi, zero, \
	offsetof(struct gb_params, k), sizeof(((struct gb_params *)0)->k) }

static const struct params_field params_fields[PF_COUNT] = {
	F(PF_DIRECTION, direction, 0, 1, 0),
	F(PF_BUFLEN, buflen, GB_MIN_BUFLEN, GB_MAX_BUFLEN, 1),	/* 0: -l mtu */
	F(PF_NBUF, nbuf, 1, GB_MAX_NBUF, 1),		/* 0: no count */
	F(PF_DURATION_MS, duration_ms, GB_MIN_DURATION_MS,
	    GB_MAX_DURATION_MS, 0),
	F(PF_STREAMS, streams, 1, GB_MAX_FLOWS, 0),
	F(PF_SNDBUF, sndbuf, GB_MIN_SOCKBUF, GB_MAX_SOCKBUF, 1),
	F(PF_RCVBUF, rcvbuf, GB_MIN_SOCKBUF, GB_MAX_SOCKBUF, 1),
	F(PF_MSS, mss, GB_MIN_MSS, GB_MAX_MSS, 1),
	F(PF_INTERVAL_MS, interval_ms, GB_MIN_INTERVAL_MS,
	    GB_MAX_INTERVAL_MS, 1),				/* 0: no reports */
	F(PF_LINK_MBPS, link_mbps, 1, GB_MAX_LINK_MBPS, 1), /* 0: measured */
	F(PF_MTU, mtu, GB_MIN_MTU, GB_MAX_MTU, 1),	/* 0: unchanged */
	F(PF_FQ_RATE, fq_rate, GB_MIN_FQ_RATE, GB_MAX_FQ_RATE, 1),
	F(PF_TOS, tos, 0, GB_MAX_TOS, 0),
	F(PF_RATE_BPS, rate_bps, 1, GB_MAX_RATE_BPS, 1),	/* 0: see -R */
	F(PF_RATE_PPS, rate_pps, 1, GB_MAX_RATE_PPS, 1),
	F(PF_BATCH, batch, 1, GB_MAX_BATCH, 1),		/* 0: default */
	F(PF_OMIT_MS, omit_ms, GB_MIN_OMIT_MS, GB_MAX_OMIT_MS, 1), /* 0: none */
	F(PF_REQ_SIZE, req_size, 1, GB_MAX_RR_SIZE, 1),		/* 0: 1 */
	F(PF_RESP_SIZE, resp_size, 1, GB_MAX_RR_SIZE, 1),	/* 0: 1 */
	F(PF_RR_BURST, rr_burst, 1, GB_MAX_RR_BURST, 1),	/* 0: 1 */
	F(PF_RR_TIMEOUT_MS, rr_timeout_ms, 1, GB_MAX_RR_TIMEOUT_MS, 1),
	F(PF_THREADS, threads, 1, GB_MAX_THREADS, 1),	/* 0: default */
	F(PF_PROBES, probes, 1, GB_MAX_PROBES, 1),	/* 0: none */
	F(PF_PROBE_TOS, probe_tos, 0, GB_MAX_TOS, 0),	/* 0: as tos */
	F(PF_PROBE_RATE, probe_rate, 1, GB_MAX_PROBE_RATE, 1),	/* 0: TCP */
};
#undef F

/* direction is an int of 0 or 1, read and written as its 4 bytes. */
_Static_assert(sizeof(int) == sizeof(uint32_t), "int is not 32 bits");

void
params_init(struct gb_params *p)
{
	memset(p, 0, sizeof(*p));
	p->direction = GB_DIR_CLIENT_SENDS;
	p->buflen = GB_DEFAULT_BUFLEN;
	p->nbuf = 0;
	p->duration_ms = GB_DEFAULT_DURATION_MS;
	p->streams = 1;
	p->sndbuf = 0;
	p->rcvbuf = 0;
	p->mss = 0;
	p->nodelay = 0;
	p->interval_ms = 0;
}

void
params_probe(const struct gb_params *load, struct gb_params *probe)
{
	params_init(probe);
	probe->duration_ms = load->duration_ms;
	probe->omit_ms = load->omit_ms;	/* its latencies leave it out */
	probe->streams = load->probes != 0 ? load->probes : 1;
	probe->nodelay = 1;
	probe->rr = 1;
	probe->tos = load->probe_tos != 0 ? load->probe_tos : load->tos;
	probe->threads = 1;
	probe->link_mbps = load->link_mbps;
	probe->interval_ms = load->interval_ms;	/* its latency over time */
	probe->crr = load->probe_crr;
	if (load->probe_rate == 0)
		return;
	probe->udp = 1;
	probe->nodelay = 0;
	probe->buflen = GB_MIN_DGRAM;
	probe->req_size = GB_MIN_DGRAM;		/* gigebench's header alone */
	probe->resp_size = GB_MIN_DGRAM;
	probe->rr_rate = load->probe_rate;
	probe->rr_timeout_ms = GB_PROBE_TIMEOUT_MS;
	/* Slots for every probe a timeout holds, and the one being sent. */
	probe->rr_burst = load->probe_rate * GB_PROBE_TIMEOUT_MS / 1000 + 1;
	if (probe->rr_burst > GB_MAX_RR_BURST)
		probe->rr_burst = GB_MAX_RR_BURST;
}

void
params_dgram_len_floor(struct gb_params *p)
{
	if (p->udp && p->buflen == GB_DGRAM_FROM_MTU)
		p->buflen = GB_MIN_MTU - 48;
}

const struct params_field *
params_field(enum params_field_id id)
{
	return &params_fields[id];
}

uint64_t
params_wire_min(enum params_field_id id)
{
	return params_fields[id].zero_off ? 0 : params_fields[id].min;
}

uint64_t
params_get(const struct gb_params *p, enum params_field_id id)
{
	const struct params_field *f = &params_fields[id];
	uint64_t v;
	uint32_t v32;

	if (f->size == sizeof(v)) {
		memcpy(&v, (const char *)p + f->off, sizeof(v));
		return v;
	}
	memcpy(&v32, (const char *)p + f->off, sizeof(v32));
	return v32;
}

void
params_set(struct gb_params *p, enum params_field_id id, uint64_t v)
{
	const struct params_field *f = &params_fields[id];
	uint32_t v32 = (uint32_t)v;	/* every 4-byte field's max fits */

	if (f->size == sizeof(v))
		memcpy((char *)p + f->off, &v, sizeof(v));
	else
		memcpy((char *)p + f->off, &v32, sizeof(v32));
}

unsigned
params_zc_ring_count(uint32_t buflen)
{
	unsigned n = GB_ZC_RING_MAX;

	while (n > 1 && (uint64_t)n * buflen > GB_ZC_RING_BYTES)
		n /= 2;
	return n;
}
