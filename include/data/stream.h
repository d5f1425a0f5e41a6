/*
 * stream.h: what the two directions of one data stream share: the
 * per-stream state (struct stream_io: its socket, its buffer, what it
 * moved and the caps on that, its CPU), the values of the stop flag that
 * every loop reads, and the byte senders fill their buffers with.  The
 * send paths are sender.c's, the receive paths receiver.c's; each opens
 * a struct stream_io before the stream's thread starts, and
 * stream_io_close releases it after the thread is joined.
 *
 * Nothing here reads a clock, allocates inside a loop or knows the
 * event loop: it runs on the stream's thread.  stream_io_count is inline
 * because every loop calls it once for each call that moved data.
 */
#ifndef GB_STREAM_H
#define GB_STREAM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "base/lathist.h"
#include "base/params.h"
#include "base/result.h"
#include "base/seqstat.h"
#include "data/dgram.h"
#include "data/rrslots.h"
#include "host/sock.h"

struct mmsghdr;
struct iovec;

/*
 * Every sender fills its buffer (or memfd) with this byte, and the
 * receiver of --skip-rx-copy receives into zeros: finding this byte in
 * its buffer afterwards means the kernel copied despite MSG_TRUNC.  A
 * contract between the two ends: change both or neither.
 */
#define STREAM_FILL_BYTE	'g'

/* The stop flag (an atomic_int of the test) the loops read. */
enum stream_stop {
	STREAM_RUNNING = 0,
	STREAM_STOP_DURATION,	/* -T is over: senders end cleanly */
	STREAM_STOP_ABORT,	/* a stream failed or the test was aborted */
};

/*
 * What a path's loop returns besides 0 (done) and -1 (failed, errno) on
 * a non-blocking socket (stream_io.nonblock, the many-flow engine): wait
 * until the socket is readable or writable, come back after the other
 * flows had their turn (STREAM_BUDGET calls moved data), or come back at
 * stream_io.wake_ns at the latest (-u's pace, its END datagrams' gaps,
 * its receiver's drain; sooner when the socket is ready).  A blocking
 * socket never gets them: its calls wait in the kernel or sleep instead.
 */
enum stream_want {
	STREAM_WANT_READ = 1,
	STREAM_WANT_WRITE,
	STREAM_YIELD,
	STREAM_WANT_TIME,
};
#define STREAM_BUDGET	16

/* Where a sender is in its stream (stream_io.phase). */
enum stream_phase {
	STREAM_PHASE_MOVE = 0,	/* its path's loop */
	STREAM_PHASE_FINISH,	/* the end: FIN, completions */
};

/* Which cap a stream passed (stream_io.over). */
enum stream_over {
	STREAM_UNDER_CAPS = 0,
	STREAM_OVER_CAP,	/* this stream's bytes past cap */
	STREAM_OVER_TOTAL,	/* all streams' bytes past total_cap */
};

/* sender.c's part: -Z's ring, --sendfile's memfd. */
struct stream_tx {
	/* -Z: slot i holds the id of the send that still uses it. */
	unsigned	 nring;
	uint32_t	 zc_id[GB_ZC_RING_MAX];
	unsigned char	 zc_busy[GB_ZC_RING_MAX];
	uint64_t	 zc_sends, zc_completions, zc_copied;
	unsigned	 zc_looks;	/* the end's looks for the last ones */
	int		 memfd;		/* --sendfile */
	/* send: the buffers sent whole (-n counts them), bytes of the next. */
	uint64_t	 bufs;
	size_t		 off;
	/* a blocking send's wait: TCP_INFO's bytes acked at the last one */
	uint64_t	 acked;
};

/* receiver.c's part: SO_RCVLOWAT's timeout slices, --splice's pipe. */
struct stream_rx {
	uint32_t	 lowat;		/* SO_RCVLOWAT read back, 0: not set */
	int		 slice_ms;	/* with lowat: one read's SO_RCVTIMEO */
	int		 short_timeo;	/* SO_RCVTIMEO is below slice_ms */
	int		 pipe[2];	/* --splice */
	int		 devnull;
};

/*
 * -u: one stream's datagrams (sender.c's and receiver.c's mmsg paths).
 * The configuration is set before sender_open/receiver_open; the arrays
 * (batch messages, their iovecs, the receiver's control buffers for the
 * kernel's arrival times) are allocated there, once.
 */
struct stream_dg {
	uint8_t		 token[DGRAM_TOKEN_LEN];
	uint16_t	 id;		/* the stream's number */
	uint32_t	 batch;		/* datagrams per call */
	double		 pps;		/* pacing, datagrams/s; 0: unpaced */
	atomic_int	*stop;		/* receiver: the test's stop flag */
	/* Counts. */
	uint64_t	 sent;		/* sender: datagrams */
	uint64_t	 enobufs;	/* sender: ENOBUFS/EAGAIN */
	uint64_t	 refused;	/* sender: ECONNREFUSED */
	uint64_t	 stray;		/* receiver: not this stream's */
	uint64_t	 sock_drops;	/* receiver: SO_RXQ_OVFL's, latest */
	uint64_t	 gro_trains;	/* receiver: --gro messages of many */
	uint32_t	 length;	/* the test's datagram length (-l) */
	/* For -i, stored once per call: sent or received, seqs seen. */
	_Atomic uint64_t iv_count;
	_Atomic uint64_t iv_expect;
	_Atomic uint64_t iv_jitter_ns;
	int		 ended;		/* receiver: the sender's END came */
	/* Between the steps of a non-blocking loop (stream_io.nonblock). */
	uint64_t	 t0_ns;		/* sender: the pace's start, 0 before */
	unsigned	 ends;		/* sender: END datagrams sent */
	uint64_t	 drain_ns;	/* receiver: the drain's end, 0 none */
	struct timespec	 last;		/* the last data sent or received */
	struct seqstat	 seq;		/* receiver */
	/* Arrays. */
	struct mmsghdr	*msgs;
	struct iovec	*iov;
	char		*cmsg;		/* receiver: batch x DG_CMSG_LEN */
};

/*
 * --crr: a new connection a transaction (stream_rr.c).  The asker
 * connects to `to` from `local` with the test's socket options (p) and
 * sends msg, the stream's data message (token and stream number, as
 * client.c encoded it), before each request.  On the listener the event
 * loop hands each such connection, its token checked, to the answerer:
 * crr_give stores it in `next` and wakes the thread by the eventfd
 * `wake`, which crr_abort also uses; on the asker, crr_abort shuts down
 * the connection of the transaction under way (`cur`).  conns:
 * connections made (asker) or answered (listener).
 */
struct stream_crr {
	const struct sock_addr	*to;
	struct sock_local	 local;
	const struct gb_params	*p;
	const char		*msg;
	size_t			 msglen;
	int			 wake;		/* answerer: eventfd, else -1 */
	atomic_int		 next;		/* answerer: a socket, or -1 */
	atomic_int		 aborted;	/* crr_abort */
	/* The asker: its transaction's connection, for crr_abort. */
	pthread_mutex_t		 cur_lock;
	int			 cur;		/* the connection, or -1 */
	/* The many-flow engine: where the transaction is (stream_crr.c). */
	int			 step;		/* enum crr_step */
	uint64_t		 t0;		/* asker: its start; else deadline */
	_Atomic uint64_t	 conns;
};

/*
 * --rr: one stream's transactions (stream_rr.c).  The sizes and the burst are
 * set before the open; the asking end keeps the send time of each
 * request in flight in a ring of burst entries and its latencies in hist.
 */
struct stream_rr {
	uint32_t	 req, resp;	/* bytes a request, an answer */
	uint32_t	 burst;		/* in flight at once */
	uint64_t	*sent_ns;	/* the asker's ring */
	struct lathist	*hist;		/* the asker's latencies */
	_Atomic uint64_t trans;		/* done: answered (asked) or sent */
	/*
	 * -i, the asker: the latencies since the last slice, which the
	 * event loop takes under lock (set before the open: sliced).
	 */
	int		 sliced;
	int		 locked;	/* lock is initialised */
	pthread_mutex_t	 lock;
	struct lathist	*slice;
	/*
	 * -u (stream_rr_dgram.c): the asker's timeout and requests in
	 * flight; the answerer's count of requests it took (its answers
	 * sent are trans).  The datagrams' token and stream are in dg.
	 */
	uint32_t	 timeout_ms;
	struct rrslots	*slots;
	uint64_t	 taken;
	/*
	 * -u --rr paced (the UDP probes, rr_rate): a request every gap_ns
	 * whatever the answers, the next one due at next_ns; the asker's
	 * requests (less those in flight) and losses when it first saw the
	 * omit over (omit_seen), so that the figures leave the omit out.
	 */
	uint64_t	 gap_ns, next_ns;
	int		 omit_seen;
	uint64_t	 requests0, lost0;
	struct stream_crr crr;		/* --crr */
	/*
	 * --under-load's probes during the load's --omit: answered, in
	 * the -i slices, but not counted; the event loop clears it as the
	 * omit ends.
	 */
	atomic_int	 omitting;
	/*
	 * Where a transaction is, between calls on a non-blocking socket:
	 * the asker's oldest request in flight (head) and how many are,
	 * the bytes of the request (sent) and the answer (got) done so far.
	 */
	uint32_t	 head, inflight;
	size_t		 sent, got;
};

struct stream_io {
	int		 fd;		/* the data socket, not owned */
	int		 path;		/* enum gb_path really in use */
	size_t		 len;		/* bytes per call (-l) */
	_Atomic uint64_t bytes;		/* sampled by the interval timer */
	/* Calls that moved data: written by the stream's thread alone. */
	_Atomic uint64_t calls;
	char		*buf;		/* len bytes; -Z: nring buffers */
	size_t		 buflen;	/* bytes allocated at buf */
	int		 silent_ms;	/* a wait on a silent peer ends */
	/* Caps (xfer_config), set before the thread starts. */
	uint64_t	 cap;		/* this stream's bytes, 0: none */
	_Atomic uint64_t *total;	/* all streams' bytes, or NULL */
	uint64_t	 total_cap;
	int		 over;		/* enum stream_over */
	int		 pin_cpu;	/* -A: its CPU, -1 none */
	int		 pin_err;	/* pthread_setaffinity_np's error */
	int		 pinned;	/* read back: its one CPU, -1 */
	int		 cpu;		/* sched_getcpu() as it ended, -1 */
	struct stream_tx tx;
	struct stream_rx rx;
	struct stream_dg dg;
	struct stream_rr rr;
	/*
	 * The many-flow engine: the socket is non-blocking and the loops
	 * return enum stream_want; the buffer is the worker thread's
	 * (shared, shared_len bytes, not this stream's to free).
	 */
	int		 nonblock;
	int		 phase;		/* enum stream_phase, a sender's */
	int		 shut;		/* its write side is shut down */
	unsigned	 budget;	/* calls left in this turn */
	uint64_t	 wake_ns;	/* STREAM_WANT_TIME: CLOCK_MONOTONIC */
	/*
	 * Another socket the worker waits on for this flow (--crr's
	 * transaction), -1 none; watch_gen changes with each new one.
	 */
	int		 watch_fd;
	unsigned	 watch_gen;
	char		*shared;
	size_t		 shared_len;
	/*
	 * The flow of the same worker whose --sendfile memfd, or --splice
	 * pipe and /dev/null, this one uses too (set before the open;
	 * NULL: its own, which stream_io_close closes).
	 */
	const struct stream_io *lender;
	const char	*what;		/* the call that failed */
	char		 note[128];	/* why the path is not the one asked */
};

/* One message's control buffer: SCM_TIMESTAMPNS, SO_RXQ_OVFL, UDP_GRO. */
#define DG_CMSG_LEN	128

/*
 * -u: io->dg.batch messages over io->buf (batch x io->len bytes), each
 * with a control buffer of DG_CMSG_LEN when cmsg.
 */
int	stream_dg_arrays(struct stream_io *, int cmsg, char *err,
	    size_t errlen);
/* -u: this stream's datagram counts into the end's u. */
void	stream_io_udp(const struct stream_io *, int is_tx, struct gb_udp *u);

/* For sender_open and receiver_open: the fields, no resource yet. */
void	stream_io_init(struct stream_io *, int fd, int path, size_t len,
	    int silent_ms);
/* size bytes of page-aligned buffer at io->buf, every byte fill. */
int	stream_io_buf(struct stream_io *, size_t size, int fill, char *err,
	    size_t errlen);
void	stream_io_close(struct stream_io *);
/* On the stream's thread, first: pin it to pin_cpu, read back pinned. */
void	stream_io_pin(struct stream_io *);
/* The stream's figures but seconds; add -Z's counts to z. */
void	stream_io_figures(const struct stream_io *, struct gb_stream *,
	    struct gb_zerocopy *z);

/*
 * One more on a count that only this stream's thread writes and others
 * sample: a relaxed load and store, no locked increment.
 */
static inline void
stream_bump(_Atomic uint64_t *n)
{
	atomic_store_explicit(n, atomic_load_explicit(n, memory_order_relaxed) +
	    1, memory_order_relaxed);
}

/*
 * Count what moved; -1 when it passes a cap.  The caps cost one branch a
 * call when none is set, and the shared total is touched only with
 * --max-bytes.
 */
/*
 * A non-blocking loop's turn: 1 when it has moved data STREAM_BUDGET
 * times and should let the worker's other flows run (STREAM_YIELD).
 */
static inline int
stream_io_spent(struct stream_io *io)
{
	if (!io->nonblock || --io->budget != 0)
		return 0;
	io->budget = STREAM_BUDGET;
	return 1;
}

static inline int
stream_io_count(struct stream_io *io, ssize_t n)
{
	uint64_t b;

	b = atomic_fetch_add_explicit(&io->bytes, (uint64_t)n,
	    memory_order_relaxed) + (uint64_t)n;
	stream_bump(&io->calls);
	if (io->cap == 0 && io->total == NULL)
		return 0;
	if (io->cap != 0 && b > io->cap) {
		io->over = STREAM_OVER_CAP;
		return -1;
	}
	if (io->total != NULL && atomic_fetch_add_explicit(io->total,
	    (uint64_t)n, memory_order_relaxed) + (uint64_t)n > io->total_cap) {
		io->over = STREAM_OVER_TOTAL;
		return -1;
	}
	return 0;
}

#endif /* GB_STREAM_H */
