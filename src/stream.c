/*
 * stream.c: what the send and the receive paths of one stream share
 * (data/stream.h): setting up a struct stream_io, its buffer, pinning
 * the stream's thread for -A, releasing what a path opened, and the
 * figures the stream leaves.  It owns no path: sender.c and receiver.c
 * do, and they alone run the loops.  Nothing here runs inside a loop.
 */
#include <sys/socket.h>
#include <sys/uio.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/stream.h"
#include "stream_rr.h"

void
stream_io_init(struct stream_io *io, int fd, int path, size_t len,
    int silent_ms)
{
	io->fd = fd;
	io->path = path;
	io->len = len;
	io->silent_ms = silent_ms;
	io->budget = STREAM_BUDGET;
	io->pin_cpu = io->pinned = io->cpu = -1;
	io->tx.memfd = io->rx.devnull = -1;
	io->rx.pipe[0] = io->rx.pipe[1] = -1;
	io->rr.crr.wake = -1;
	atomic_init(&io->rr.crr.next, -1);
	atomic_init(&io->rr.crr.aborted, 0);
	io->rr.crr.cur_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	io->rr.crr.cur = -1;
	io->watch_fd = -1;
}

int
stream_io_buf(struct stream_io *io, size_t size, int fill, char *err,
    size_t errlen)
{
	void *p;
	long page = sysconf(_SC_PAGESIZE);

	/* The worker's buffer, filled as its paths need (xfer.c). */
	if (io->shared != NULL && size <= io->shared_len) {
		io->buf = io->shared;
		io->buflen = size;
		return 0;
	}
	if (posix_memalign(&p, page > 0 ? (size_t)page : 4096, size) != 0) {
		snprintf(err, errlen, "out of memory for %zu bytes of buffers",
		    size);
		return -1;
	}
	memset(p, fill, size);
	io->buf = p;
	io->buflen = size;
	return 0;
}

int
stream_dg_arrays(struct stream_io *io, int cmsg, char *err, size_t errlen)
{
	struct stream_dg *dg = &io->dg;
	uint32_t i;

	dg->msgs = calloc(dg->batch, sizeof(*dg->msgs));
	dg->iov = calloc(dg->batch, sizeof(*dg->iov));
	dg->cmsg = cmsg ? calloc(dg->batch, DG_CMSG_LEN) : NULL;
	if (dg->msgs == NULL || dg->iov == NULL || (cmsg && dg->cmsg == NULL)) {
		snprintf(err, errlen, "out of memory for %u datagrams",
		    dg->batch);
		return -1;
	}
	for (i = 0; i < dg->batch; i++) {
		dg->iov[i].iov_base = io->buf + (size_t)i * io->len;
		dg->iov[i].iov_len = io->len;
		dg->msgs[i].msg_hdr.msg_iov = &dg->iov[i];
		dg->msgs[i].msg_hdr.msg_iovlen = 1;
		if (cmsg) {
			dg->msgs[i].msg_hdr.msg_control = dg->cmsg +
			    (size_t)i * DG_CMSG_LEN;
			dg->msgs[i].msg_hdr.msg_controllen = DG_CMSG_LEN;
		}
	}
	return 0;
}

void
stream_io_udp(const struct stream_io *io, int is_tx, struct gb_udp *u)
{
	const struct stream_dg *dg = &io->dg;
	double jitter_ms = dg->seq.jitter_ns / 1e6;

	u->has = 1;
	u->receiver = !is_tx;
	u->length = dg->length;
	u->batch = dg->batch;
	if (is_tx) {
		u->datagrams += dg->sent;
		u->enobufs += dg->enobufs;
		u->refused += dg->refused;
		return;
	}
	u->datagrams += dg->seq.received;
	u->gaps += seqstat_lost(&dg->seq, SEQSTAT_SENT_UNKNOWN);
	u->ooo += dg->seq.ooo;
	u->dup += dg->seq.dup;
	u->stray += dg->stray;
	u->gro_trains += dg->gro_trains;
	u->has_sock_drops = 1;
	u->sock_drops += dg->sock_drops;
	if (jitter_ms > u->jitter_ms)
		u->jitter_ms = jitter_ms;
}

void
stream_io_close(struct stream_io *io)
{
	if (io->buf != io->shared)
		free(io->buf);
	io->buf = NULL;
	free(io->dg.msgs);
	free(io->dg.iov);
	free(io->dg.cmsg);
	free(io->rr.sent_ns);
	free(io->rr.hist);
	free(io->rr.slice);
	rrslots_free(io->rr.slots);
	io->rr.slots = NULL;
	if (io->rr.locked)
		pthread_mutex_destroy(&io->rr.lock);
	io->rr.locked = 0;
	io->rr.sent_ns = NULL;
	io->rr.hist = NULL;
	io->rr.slice = NULL;
	io->dg.msgs = NULL;
	io->dg.iov = NULL;
	io->dg.cmsg = NULL;
	if (io->lender == NULL && io->tx.memfd >= 0)
		close(io->tx.memfd);
	if (io->lender == NULL && io->rx.pipe[0] >= 0)
		close(io->rx.pipe[0]);
	if (io->lender == NULL && io->rx.pipe[1] >= 0)
		close(io->rx.pipe[1]);
	if (io->lender == NULL && io->rx.devnull >= 0)
		close(io->rx.devnull);
	io->tx.memfd = io->rx.devnull = io->rx.pipe[0] = io->rx.pipe[1] = -1;
	crr_close(io);
}

/*
 * -A: the thread pins itself before its first byte; a CPU this host does
 * not have leaves it unpinned with pin_err (a warning, not a failed test).
 * What it reads back is the truth either way.
 */
void
stream_io_pin(struct stream_io *io)
{
	cpu_set_t set;
	int i, n = 0;

	if (io->pin_cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET((unsigned)io->pin_cpu, &set);
		io->pin_err = pthread_setaffinity_np(pthread_self(),
		    sizeof(set), &set);
	}
	io->pinned = -1;
	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		return;
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET((unsigned)i, &set) && n++ == 0)
			io->pinned = i;
	if (n != 1)
		io->pinned = -1;
}

void
stream_io_figures(const struct stream_io *io, struct gb_stream *g,
    struct gb_zerocopy *z)
{
	g->bytes = atomic_load(&io->bytes);
	g->cpu = io->cpu;
	g->pinned = io->pinned;
	g->path = io->path;
	if (io->path != GB_PATH_ZEROCOPY)
		return;
	z->has = 1;
	z->sends += io->tx.zc_sends;
	z->completions += io->tx.zc_completions;
	z->copied += io->tx.zc_copied;
}
