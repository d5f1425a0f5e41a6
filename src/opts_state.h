/*
 * opts_state.h: private to the option parser's files (opts.c: the getopt
 * table and loop; opts_value.c: each option's value; opts_check.c: the
 * combinations once the line is read).  What one opts_parse() call
 * remembers between options, and the one way its files write a message.
 * Not an interface: cli/opts.h is.
 */
#ifndef GB_OPTS_STATE_H
#define GB_OPTS_STATE_H

#include <stddef.h>

#include "cli/opts.h"

/* Options with no letter get values past any char. */
enum {
	OPT_RCVBUF = 256,
	OPT_SNDBUF,
	OPT_CAPTURE,
	OPT_FORCE_BUFS,
	OPT_LINK_RATE,
	OPT_ALLOW_MTU,
	OPT_CONFIDENCE,
	OPT_CSV,
	OPT_MTU,
	OPT_PLOT,
	OPT_REPEAT,
	OPT_RESTORE,
	OPT_SWEEP,
	OPT_FQ_RATE,
	OPT_SENDFILE,
	OPT_SKIP_RX_COPY,
	OPT_SPLICE,
	OPT_TOS,
	OPT_PSK,
	OPT_ALLOW_REVERSE,
	OPT_BATCH,
	OPT_GSO,
	OPT_GRO,
	OPT_TTCP,
	OPT_TITLE,
	OPT_OMIT,
	OPT_NO_PROGRESS,
	OPT_JSON_STREAM,
	OPT_RR,
	OPT_CRR,
	OPT_BIDIR,
	OPT_REQ_SIZE,
	OPT_RESP_SIZE,
	OPT_RR_BURST,
	OPT_RR_TIMEOUT,
	OPT_THREADS,
	OPT_FLOW_CSV,
	OPT_TIMESTAMPS,
	OPT_BIND_DEV,
	OPT_CPORT,
	OPT_PROFILE,
	OPT_ALLOW_PROFILE,
	OPT_UNDER_LOAD,
	OPT_PROBES,
	OPT_PROBE_TOS,
	OPT_PROBE_RATE,
	OPT_PROBE_CRR,
	OPT_PHASES,
	OPT_LIMIT		/* every limit; opts_bounds.c by name */
};

/* What one opts_parse() call remembers between options. */
struct opts_state {
	char		 name[32];	/* as typed: -l, --length */
	int		 tflag;		/* -t */
	int		 rflag;		/* -r */
	int		 Sflag;		/* -S */
	int		 inet4;		/* -4 */
	int		 inet6;		/* -6 */
	const char	*interval_arg;	/* -i value, for the -T check */
	const char	*duration_arg;	/* -T's value, or NULL */
	int		 restore;	/* --restore */
	int		 zflag;		/* -Z */
	int		 sendfile;	/* --sendfile */
	int		 skip_rx_copy;	/* --skip-rx-copy */
	int		 splice;	/* --splice */
	int		 lflag;		/* -l */
	int		 rate;		/* -R */
	int		 batch;		/* --batch */
	char		 underload_only[32];	/* --probes given, or "" */
	char		 listener_only[32];	/* a --max-* given, or "" */
	char		 client_only[96];	/* "-b, -l": what a listener
						   gets from the client */
	char		*err;
	size_t		 errlen;
};

/* "NAME: " (when there is one) and the message; returns OPTS_ERROR. */
int	opts_error(struct opts_state *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* Control characters of a message as '?': it stays one line. */
void	opts_printable(char *, size_t);
/* An empty value as "" so that it can be seen. */
const char *opts_shown(const char *);

/* opts_value.c: an option with a value, range-checked. */
int	opts_value(struct gb_opts *, struct opts_state *, int ch,
	    const char *arg);
/* opts_underload.c: --phases' list; --under-load's combinations. */
int	opts_phases(struct gb_opts *, struct opts_state *, const char *arg);
/* --under-load, --probe-crr: 0; -1 for any other option. */
int	opts_underload_flag(struct gb_opts *, struct opts_state *, int ch);
int	opts_underload_check(struct gb_opts *, struct opts_state *);
/* opts_check.c: the combinations, once the whole line is read. */
int	opts_check(struct gb_opts *, struct opts_state *);

#endif /* GB_OPTS_STATE_H */
