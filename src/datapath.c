/*
 * datapath.c: the names of the data paths (enum gb_path).  The names are
 * the protocol's and the JSON's, so they never change.  The loops of each
 * path are the data layer's; the option values that choose them are
 * opts.c's.  Pure: no I/O.
 */
#include <string.h>

#include "base/datapath.h"

static const char *const datapath_names[GB_PATH_COUNT] = {
	[GB_PATH_SEND] = "send",
	[GB_PATH_ZEROCOPY] = "zerocopy",
	[GB_PATH_SENDFILE] = "sendfile",
	[GB_PATH_RECV] = "recv",
	[GB_PATH_SKIP_RX_COPY] = "skip_rx_copy",
	[GB_PATH_SPLICE] = "splice",
	[GB_PATH_SENDMMSG] = "sendmmsg",
	[GB_PATH_RECVMMSG] = "recvmmsg",
	[GB_PATH_GSO] = "gso",
	[GB_PATH_GRO] = "gro",
	[GB_PATH_RR_ASK] = "rr_ask",
	[GB_PATH_RR_ANSWER] = "rr_answer",
	[GB_PATH_UDP_RR_ASK] = "udp_rr_ask",
	[GB_PATH_UDP_RR_ANSWER] = "udp_rr_answer",
	[GB_PATH_CRR_ASK] = "crr_ask",
	[GB_PATH_CRR_ANSWER] = "crr_answer",
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
datapath_asked(const struct gb_params *p, int is_tx)
{
	if (is_tx)
		return p->tx_path != 0 ? p->tx_path : GB_PATH_SEND;
	return p->rx_path != 0 ? p->rx_path : GB_PATH_RECV;
}

int
datapath_of(const struct gb_params *p, int is_tx)
{
	if (p->rr && p->crr)
		return is_tx ? GB_PATH_CRR_ASK : GB_PATH_CRR_ANSWER;
	if (p->rr && p->udp)
		return is_tx ? GB_PATH_UDP_RR_ASK : GB_PATH_UDP_RR_ANSWER;
	if (p->rr)
		return is_tx ? GB_PATH_RR_ASK : GB_PATH_RR_ANSWER;
	if (p->udp && is_tx)
		return p->gso ? GB_PATH_GSO : GB_PATH_SENDMMSG;
	if (p->udp)
		return p->gro ? GB_PATH_GRO : GB_PATH_RECVMMSG;
	return datapath_asked(p, is_tx);
}

unsigned
datapath_threads(const struct gb_params *p, unsigned n, unsigned ncpus)
{
	unsigned t;

	if (n == 0)
		return 0;
	if (p->threads != 0)
		t = p->threads;
	else
		t = ncpus < GB_AUTO_MAX_THREADS ? ncpus : GB_AUTO_MAX_THREADS;
	/*
	 * -u but --rr: half the CPUs, the other half for the kernel's part of each
	 * datagram (its receiving socket's softirq, and on loopback or a
	 * veth the whole receive path in the sender's context).  Measured
	 * on 2 CPUs, 64 B x 2 flows: a thread a flow lost 66 % at 467 kpps,
	 * one thread an end 2.2 % at 700 kpps (bench/README.md).
	 */
	if (p->threads == 0 && p->udp && !p->rr)
		t /= 2;
	if (t == 0)
		t = 1;
	return t < n ? t : n;
}
