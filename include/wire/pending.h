/*
 * pending.h: a listener's connections from accept() until their first
 * message says what they are (a hello or a data message).  It owns the
 * accept loop, the handshake deadline of every such connection, the caps
 * in all and per source (srccap.h) and their derivation from the
 * process's descriptor limit, and what accept() does when the process
 * runs out of descriptors all the same.  It reads exactly one message on each,
 * never a byte past it, answers a malformed one itself and hands a hello
 * or a data message to the listener's callback.  It prints nothing
 * itself: its log lines go to the caller's log_cb.
 *
 * It must not know what a session is: the callback keeps the connection
 * (pending_take) or drops it (pending_drop), and must do one of the two.
 */
#ifndef GB_PENDING_H
#define GB_PENDING_H

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "base/bounds.h"
#include "codec/proto.h"
#include "wire/srccap.h"

struct pending;

struct pconn {
	struct pending		*pd;
	int			 fd;
	struct event		*ev;
	struct event		*timer;
	struct proto_reader	 rd;	/* the message, as it came */
	struct srccap_key	 key;
	char			 peer[64];	/* the address, printable */
	struct pconn		*prev, *next;	/* newest first */
};

struct pending_config {
	struct event_base	*base;
	int			 lfd;		/* non-blocking, listening */
	const struct gb_bounds	*bounds;
	int			 verbose;	/* -v count, for the log */
	int			 quiet;		/* -q: no refusal lines */
	/* Refusal lines, one a source this often at most; 0: 60 s. */
	uint32_t		 note_ms;
	/* One log line, "HEAD: TEXT" (head may be NULL); NULL: none. */
	void			(*log_cb)(const char *head, const char *text,
				    void *arg);
	void			*log_arg;
	/* A complete hello or data message m arrived on pc. */
	void			(*msg_cb)(struct pconn *pc,
				    const struct proto_msg *m, void *arg);
	void			*arg;
};

/*
 * The caps the listener applies (pending_caps): --max-pending and
 * --max-pending-source, lowered to what the descriptor limit leaves once
 * the listener's own files and a test are set aside.
 */
struct pending_caps {
	unsigned	total;		/* pending in all */
	unsigned	per_source;	/* pending from one source */
	uint64_t	nofile;		/* RLIMIT_NOFILE; UINT64_MAX: none */
	uint64_t	reserved;	/* descriptors not for pending ones */
	uint64_t	needed;		/* what a --max-streams test may need */
};

/* Pure: the caps under a descriptor limit of nofile (UINT64_MAX: none). */
void		 pending_caps(const struct gb_bounds *, uint64_t nofile,
		    struct pending_caps *);
/*
 * Starts accepting on cfg->lfd, with the caps of RLIMIT_NOFILE as it is
 * now (reported through log_cb with -v).
 */
struct pending	*pending_new(const struct pending_config *, char *err,
		    size_t errlen);
/* Close every pending connection and stop accepting. */
void		 pending_free(struct pending *);
/* Forget pc and close its socket. */
void		 pending_drop(struct pconn *);
/* Forget pc; its socket (returned) is the caller's now. */
int		 pending_take(struct pconn *);
/*
 * One line about pc refused or closed unheard: at default verbosity at
 * most one a minute from its source, the next saying how many were not
 * logged; every one with -v; none with -q.
 */
void		 pending_note(struct pconn *pc, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/*
 * What RLIMIT_NOFILE should be for a --max-flows test of any path and
 * every pending connection (the listener raises it to this first).
 */
uint64_t	 pending_fds_wanted(const struct gb_bounds *);
/*
 * The descriptors a test of p may need on the listener: its own files
 * and each flow's (one, or PD_FD_STREAM for a path of a thread a flow).
 */
uint64_t	 pending_test_fds(const struct gb_params *p);
/*
 * NULL when a test of p fits the descriptors the caps leave for a test,
 * else why not (in buf).
 */
const char	*pending_fd_refusal(const struct pending *,
		    const struct gb_params *p, char *buf, size_t len);
/* How many are pending now (for tests and logs). */
unsigned	 pending_count(const struct pending *);

#endif /* GB_PENDING_H */
