/*
 * server_signals.c: what each signal means to a listener, a long-running
 * daemon (man page, SIGNALS).  Every catchable signal whose default
 * action would end or stop the process is taken by the listener's event
 * loop (evsignal), so that none of them kills it by surprise or leaves a
 * changed MTU behind:
 *
 *	SIGINT, SIGTERM, SIGQUIT	stop: a test under way is told "the
 *					listener was stopped (SIGTERM)", the
 *					MTU goes back, exit status 0
 *	SIGUSR1				one status line on stderr
 *	SIGHUP				ignored, said at -v (there is no log
 *					file or configuration to reopen)
 *	SIGUSR2, SIGALRM, SIGPIPE,	ignored
 *	SIGVTALRM, SIGPROF, SIGPWR, SIGIO
 *
 * The faults (SIGSEGV, SIGBUS, SIGABRT, ...) keep their default action;
 * while an MTU is changed the MTU guard puts it back first (host/mtu.h,
 * mtu_loop_signals).  SIGTSTP and SIGCONT keep theirs (job control).
 * This file decides and says; stopping is the session's (server.c).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <event2/event.h>

#include "host/mtu.h"
#include "server_session.h"

enum sig_action { SIG_STOP, SIG_STATUS, SIG_HANGUP, SIG_IGNORE };

static const struct {
	int		 sig;
	const char	*name;
	enum sig_action	 action;
} server_signal_table[SERVER_NSIGNALS] = {
	{ SIGINT, "SIGINT", SIG_STOP },
	{ SIGTERM, "SIGTERM", SIG_STOP },
	{ SIGQUIT, "SIGQUIT", SIG_STOP },
	{ SIGUSR1, "SIGUSR1", SIG_STATUS },
	{ SIGHUP, "SIGHUP", SIG_HANGUP },
	{ SIGUSR2, "SIGUSR2", SIG_IGNORE },
	{ SIGALRM, "SIGALRM", SIG_IGNORE },
	{ SIGPIPE, "SIGPIPE", SIG_IGNORE },
	{ SIGVTALRM, "SIGVTALRM", SIG_IGNORE },
	{ SIGPROF, "SIGPROF", SIG_IGNORE },
	{ SIGPWR, "SIGPWR", SIG_IGNORE },
	{ SIGIO, "SIGIO", SIG_IGNORE },
};

static void
server_status(const struct server *s)
{
	char msg[160];

	if (s->sess == NULL)
		snprintf(msg, sizeof(msg), "status: idle, %d test%s served",
		    s->tests, s->tests == 1 ? "" : "s");
	else
		snprintf(msg, sizeof(msg), "status: busy with a test from %s, "
		    "%d test%s served before it", s->sess->result->peer,
		    s->tests, s->tests == 1 ? "" : "s");
	server_log(s, 0, NULL, msg);
}

static void
on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct server_signals *ss = arg;
	size_t i;

	(void)what;
	for (i = 0; i < SERVER_NSIGNALS; i++)
		if (server_signal_table[i].sig == (int)sig)
			break;
	if (i == SERVER_NSIGNALS)
		return;
	switch (server_signal_table[i].action) {
	case SIG_STOP:
		if (ss->stopped_by == NULL)
			ss->stopped_by = server_signal_table[i].name;
		event_base_loopbreak(ss->s->base);
		break;
	case SIG_STATUS:
		server_status(ss->s);
		break;
	case SIG_HANGUP:
		server_log(ss->s, 1, NULL, "SIGHUP: ignored (nothing to "
		    "reopen)");
		break;
	case SIG_IGNORE:
		break;
	}
}

int
server_signals_start(struct server_signals *ss, struct server *s)
{
	size_t i;

	memset(ss, 0, sizeof(*ss));
	ss->s = s;
	for (i = 0; i < SERVER_NSIGNALS; i++) {
		ss->ev[i] = evsignal_new(s->base, server_signal_table[i].sig,
		    on_signal, ss);
		if (ss->ev[i] == NULL || event_add(ss->ev[i], NULL) == -1)
			return -1;
	}
	/* This loop answers the stop signals; the guard keeps the faults. */
	mtu_loop_signals(1);
	return 0;
}

void
server_signals_stop(struct server_signals *ss)
{
	size_t i;

	mtu_loop_signals(0);
	for (i = 0; i < SERVER_NSIGNALS; i++)
		if (ss->ev[i] != NULL)
			event_free(ss->ev[i]);
	memset(ss->ev, 0, sizeof(ss->ev));
}
