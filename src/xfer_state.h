/*
 * xfer_state.h: internal to the stream engine: one test's transfer
 * (struct xfer) and its streams, shared by xfer.c (threads and timers)
 * and xfer_finish.c (the side's figures once every stream has ended).
 */
#ifndef GB_XFER_STATE_H
#define GB_XFER_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include <event2/event.h>

#include "host/tcpinfo.h"
#include "data/stream.h"
#include "data/xfer.h"
#include "xfer_measure.h"
#include "xfer_slice.h"

struct stream {
	struct xfer		*x;
	int			 fd;
	int			 opened;	/* io needs stream_io_close */
	struct stream_io	 io;
	struct timespec		 end;
	struct tcpinfo_sample	 ti;
	/* --omit: the counts as it ended, which the figures leave out. */
	uint64_t		 bytes0, calls0;
	uint64_t		 seen;		/* xfer_flow_bytes' last */
	struct tcpinfo_sample	 ti0;
	char			 error[200];
};

/*
 * A worker thread (xfer_worker.c) and its share of the flows: flow
 * first, first + x->nw, ...  One flow: its blocking socket, the path's
 * loop run to the end.  More: non-blocking sockets in one epoll, their
 * loops stepped as each is ready, one buffer for all of them (buf).
 */
struct worker {
	struct xfer		*x;
	pthread_t		 tid;
	int			 started;
	unsigned		 first;
	unsigned		 nflows;
	char			*buf;
	size_t			 buflen;
};

struct xfer {
	struct event_base	*base;
	struct gb_params	 p;
	int			 is_tx;
	void			(*done_cb)(void *);
	void			(*interval_cb)(const struct gb_interval *,
				    int, void *);
	void			(*progress_cb)(const struct gb_progress *,
				    void *);
	void			*arg;
	struct stream		*s;
	unsigned		 n;
	struct worker		*w;
	unsigned		 nw;		/* worker threads */
	struct gb_stream	*flows;		/* n, by xfer_finish */
	atomic_int		 stop;		/* enum stream_stop */
	atomic_uint		 finished;
	uint32_t		 silent_ms;
	uint64_t		 deadline_ms;	/* 0: duration + 3 silent */
	uint64_t		 stream_cap, total_cap;
	uint64_t		 rate_cap;	/* -u receiver, bytes/s */
	_Atomic uint64_t	 total;		/* with total_cap only */
	int			 done;
	char			 abort_why[128];
	struct event		*done_ev;
	struct event		*stop_ev;	/* duration, sender only */
	struct event		*iv_ev;		/* -i */
	struct event		*deadline_ev;	/* receiver's upper bound */
	struct event		*rate_ev;	/* with rate_cap */
	struct event		*omit_ev;	/* --omit */
	struct event		*progress_ev;	/* with progress_cb */
	struct timespec		 began;		/* start, --omit or not */
	uint64_t		 prog_bytes;	/* at the last progress */
	double			 prog_s;
	int			 omit_done;	/* its end is the start */
	struct timespec		 start;
	struct timespec		 end;
	struct xfer_measure	 ms;		/* around the transfer */
	uint8_t			 dg_token[DGRAM_TOKEN_LEN];	/* -u */
	uint64_t		 iv_bytes;
	uint64_t		 iv_count, iv_expect;	/* -u */
	uint64_t		 iv_trans;		/* --rr */
	double			 iv_start_s;
	unsigned		 niv;
	struct gb_interval	*iv;
	struct xfer_slice	 slice;		/* -i: TCP and host by slice */
	/*
	 * --bidir: the half that goes the other way, on the same loop, and
	 * for that half the one it belongs to (whose done_cb waits for both).
	 */
	struct xfer		*rev;
	struct xfer		*fwd;
	/*
	 * --under-load: the probes' transfer on the same loop, and for it
	 * the load it runs beside (whose done_cb waits for all parts).
	 */
	struct xfer		*probe;
	struct xfer		*lead;
};

/*
 * xfer_parts.c: the parts beside the load (--bidir's half going back,
 * --under-load's probes), started by xfer_start (0, or -1 with err), and
 * what each part's on_done calls: done_cb once all parts have ended.
 */
int	xfer_start_rev(struct xfer *, const struct xfer_config *, char *err,
	    size_t errlen);
int	xfer_start_probes(struct xfer *, const struct xfer_config *,
	    char *err, size_t errlen);
void	xfer_half_done(struct xfer *);

/*
 * xfer_worker.c: the workers' threads, started once the flows are set
 * up (0, or -1 with err); xfer_worker_stop shuts one flow's socket down
 * (abort), xfer_worker_failed stops every flow after one failed.
 */
int	xfer_workers_start(struct xfer *, char *err, size_t errlen);
void	xfer_worker_stop(struct stream *);
void	xfer_workers_join(struct xfer *);

/*
 * xfer_tick.c.  --omit ends: the last omitted slice, the streams' counts
 * and TCP_INFO and the host sample taken again, the clock and the -i
 * slices started again from here.
 */
void	xfer_omit_end(struct xfer *, const struct timespec *now);
/* -i: the slice up to now; final: the last, at the last byte. */
void	xfer_sample_interval(struct xfer *, const struct timespec *now,
	    int final);
/* The bytes all streams have moved so far. */
uint64_t xfer_bytes_now(struct xfer *);
/* progress_cb's figures now; done: the last, as the test ends. */
void	xfer_progress(struct xfer *, int done);

static inline double
ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

#endif /* GB_XFER_STATE_H */
