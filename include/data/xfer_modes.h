/*
 * xfer_modes.h: internal to xfer.c: how one data connection moves its
 * payload (enum gb_path), the loops that do it, and the CPU its thread
 * runs on.  One struct xfer_mode per stream, opened before its thread
 * starts and closed after it is joined; the loops read no clock and
 * allocate nothing.
 */
#ifndef GB_XFER_MODES_H
#define GB_XFER_MODES_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/result.h"

/* Zero-copy sends in flight per stream, each with its own buffer. */
#define XFER_ZC_RING	8

struct xfer_mode {
	int		 fd;		/* the data socket, not owned */
	int		 path;		/* enum gb_path really in use */
	size_t		 len;		/* bytes per call (-l) */
	_Atomic uint64_t bytes;		/* sampled by the interval timer */
	uint64_t	 calls;		/* calls that moved data */
	char		*buf;		/* len bytes; -Z: nring buffers */
	size_t		 buflen;	/* bytes allocated at buf */
	/* -Z: slot i holds the id of the send that still uses it. */
	unsigned	 nring;
	uint32_t	 zc_id[XFER_ZC_RING];
	unsigned char	 zc_busy[XFER_ZC_RING];
	uint64_t	 zc_sends, zc_completions, zc_copied;
	int		 memfd;		/* --sendfile */
	int		 pipe[2];	/* --splice */
	int		 devnull;
	int		 pin_cpu;	/* -A: its CPU, -1 none */
	int		 pin_err;	/* pthread_setaffinity_np's error */
	int		 pinned;	/* read back: its one CPU, -1 */
	int		 cpu;		/* sched_getcpu() as it ended, -1 */
	int		 silent_ms;	/* a wait on a silent peer ends */
	uint32_t	 lowat;		/* SO_RCVLOWAT read back, 0: not set */
	int		 slice_ms;	/* with lowat: one read's SO_RCVTIMEO */
	int		 short_timeo;	/* SO_RCVTIMEO is below slice_ms */
	/* Caps (xfer_config): over is 1 past cap, 2 past total_cap. */
	uint64_t	 cap;		/* this stream's bytes, 0: none */
	_Atomic uint64_t *total;	/* all streams' bytes, or NULL */
	uint64_t	 total_cap;
	int		 over;
	const char	*what;		/* the call that failed */
	char		 note[128];	/* why the path is not the one asked */
};

/*
 * Set up path on fd: buffers, the memfd, the pipe; a wait on a peer
 * silent for silent_ms fails.  A kernel that refuses the path
 * (SO_ZEROCOPY) gives the plain one and a note; -1 with err when
 * resources run out.
 */
int	xfer_mode_open(struct xfer_mode *, int fd, int path, size_t len,
	    int silent_ms, char *err, size_t errlen);
/*
 * Send until *stop is set or nbuf buffers (0: no limit) are sent.  0, or
 * -1 with errno and m->what.
 */
int	xfer_mode_send(struct xfer_mode *, atomic_int *stop, uint64_t nbuf);
/* Receive to the end of the stream; 0, or -1 with errno and m->what. */
int	xfer_mode_recv(struct xfer_mode *);
/* -Z, after the receiver's FIN: collect the completions still queued. */
void	xfer_mode_drain(struct xfer_mode *);
void	xfer_mode_close(struct xfer_mode *);
/* On the stream's thread, first: pin it to pin_cpu, read back pinned. */
void	xfer_mode_pin(struct xfer_mode *);
/* The stream's figures but seconds; add -Z's counts to z. */
void	xfer_mode_figures(const struct xfer_mode *, struct gb_stream *,
	    struct gb_zerocopy *z);

#endif /* GB_XFER_MODES_H */
