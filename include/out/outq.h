/*
 * outq.h: a bounded output queue for one descriptor (stdout or stderr)
 * of a process that runs a libevent loop, so that a reader that stalls
 * (a pipe nobody reads, a stopped pager, a full socket) can never block
 * the loop: lines wait in memory and go out when the descriptor is
 * writable.  Droppable lines (interval lines) are dropped and counted
 * when the queue holds cap_bytes; the others (reports, log lines) are
 * kept up to OUTQ_HARD_FACTOR * cap_bytes, beyond which they too are
 * dropped and counted.  After a drop, the next line kept is preceded by
 * one line saying how many were lost:
 *
 *	gigebench: 12 interval lines dropped: stdout is not being read
 *
 * Only pipes and sockets are queued: a terminal or a regular file is
 * written at once, as stdio would (see outq.c for why).  One call is one
 * unit, kept or dropped whole: give it whole lines.  Safe to call from
 * any thread once libevent's threading is on (evthread_use_pthreads).
 */
#ifndef GB_OUTQ_H
#define GB_OUTQ_H

#include <stddef.h>
#include <stdio.h>

struct event_base;
struct outq;

#define OUTQ_HARD_FACTOR	4
/* A reasonable cap for a listener's stdout: ~1,000 interval lines. */
#define OUTQ_DEFAULT_CAP	(64 * 1024)

/*
 * NULL with errno set (ENOMEM; EINVAL for cap_bytes 0).  fd stays the
 * caller's: outq_free does not close it.  Flush any stdio buffer of the
 * same descriptor first, and write to it only through the queue.  The
 * base may be NULL (main.c's queue exists before the run's loop does):
 * without one the queue is drained at each write and at the flush only.
 */
struct outq	*outq_new(struct event_base *, int fd, size_t cap_bytes);
/* Moves the write event to another loop, or to none (NULL): call it with
 * NULL before freeing the base.  -1 (ENOMEM) leaves it on none. */
int		 outq_set_base(struct outq *, struct event_base *);
/* Appends the formatted text; 1 kept (written or queued), 0 dropped. */
int		 outq_printf(struct outq *, int droppable, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
int		 outq_write(struct outq *, int droppable, const void *buf,
		    size_t len);
/*
 * A stdio stream whose every flush becomes one outq_write: for renderers
 * that take a FILE * (report_text, report_interval_line, json_dumpf).
 * Line buffered, so each line is one unit: past the hard cap a report
 * loses whole lines, each counted.  fclose it before outq_free.  NULL
 * with errno on failure.
 */
FILE		*outq_stream(struct outq *, int droppable);
/* At exit: writes what is queued, waiting at most timeout_ms in all;
 * 0 when all went out, -1 when some is left (it is counted as dropped). */
int		 outq_flush_blocking(struct outq *, int timeout_ms);
/* Units (calls) dropped so far, and the bytes queued now. */
size_t		 outq_dropped(const struct outq *);
size_t		 outq_queued_bytes(const struct outq *);
/* Drops what is still queued (no flush); restores the descriptor. */
void		 outq_free(struct outq *);

#endif /* GB_OUTQ_H */
