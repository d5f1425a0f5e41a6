/*
 * mtu_signal.c: the table of the interfaces this process has changed, and
 * the handlers of every catchable signal that would end the process,
 * which put them back on the way out (host/mtu.h says how they live with
 * libevent's).
 *
 * This file owns the one mutable static of the program, the signal
 * actions it replaced, and mtu_restore_all() and mtu_guard_signals().
 * The handler makes async-signal-safe calls only.  It does not write
 * journals (mtu_journal.c does), decide the order of a change (mtu.c),
 * print or exit.
 */

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <net/if.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "host/mtu.h"
#include "mtu_internal.h"

/*
 * Every signal whose default action ends the process and that a handler
 * may catch: the MTU goes back before any of them ends it.  The first
 * MTU_STOP_SIGNALS are the ones a caller's event loop may take over
 * instead (mtu_loop_signals): the listener answers them itself.
 */
#define MTU_NSIGNALS		21
#define MTU_STOP_SIGNALS	11

/*
 * The one mutable static of the program (see mtu.h): what the signal
 * handler must put back, and the signal actions it replaced.  Entries are
 * filled with the signals blocked and count is raised last.
 */
static struct {
	struct mtu_entry	entries[MTU_TABLE_MAX];
	volatile sig_atomic_t	count;
	pid_t			owner;		/* who made the changes */
	int			saved_valid;	/* saved[] holds old actions */
	int			loop;		/* mtu_loop_signals(1) */
	struct sigaction	saved[MTU_NSIGNALS];
} mtu_state;

static const int mtu_signals[MTU_NSIGNALS] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
	SIGVTALRM, SIGPROF, SIGPWR, SIGIO,
	SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGXCPU,
	SIGXFSZ, SIGSTKFLT,
};

static void	mtu_handler(int);
static void	mtu_install(void);
static void	mtu_uninstall(void);

int
mtu_table_find(const char *ifname)
{
	int	i;

	for (i = 0; i < mtu_state.count; i++)
		if (strcmp(mtu_state.entries[i].ifr.ifr_name, ifname) == 0)
			return i;
	return -1;
}

struct mtu_entry *
mtu_table_slot(void)
{
	if (mtu_state.count >= MTU_TABLE_MAX)
		return NULL;
	return &mtu_state.entries[mtu_state.count];
}

void
mtu_table_add(void)
{
	if (mtu_state.count == 0)
		mtu_state.owner = getpid();
	mtu_state.count++;
	mtu_install();
}

void
mtu_table_drop(void)
{
	if (--mtu_state.count == 0)
		mtu_uninstall();
}

void
mtu_block(sigset_t *old)
{
	sigset_t	set;
	int		i;

	sigemptyset(&set);
	for (i = 0; i < MTU_NSIGNALS; i++)
		sigaddset(&set, mtu_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void
mtu_unblock(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * Async-signal-safe only: socket, ioctl, unlink, close, getpid, signal,
 * raise.  The re-raised signal stays blocked until the handler returns,
 * then its default action ends the process with the right status.
 */
static void
mtu_handler(int sig)
{
	int	saved = errno, fd, i, n;

	if (getpid() == mtu_state.owner) {
		n = mtu_state.count;
		if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) == -1)
			fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		for (i = 0; i < n; i++) {
			if (fd != -1 && (ioctl(fd, SIOCSIFMTU,
			    &mtu_state.entries[i].ifr) == 0 || errno == ENODEV))
				unlink(mtu_state.entries[i].journal);
			close(mtu_state.entries[i].lockfd);
		}
		mtu_state.count = 0;
		if (fd != -1)
			close(fd);
	}
	signal(sig, SIG_DFL);
	/* returns: sig is blocked until this handler does */
	raise(sig);
	/* cppcheck-suppress unreachableCode */
	errno = saved;
}

/* The old actions are saved once, by the first install. */
static void
mtu_install(void)
{
	struct sigaction	sa;
	int			i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mtu_handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < MTU_NSIGNALS; i++)
		sigaddset(&sa.sa_mask, mtu_signals[i]);
	for (i = 0; i < MTU_NSIGNALS; i++) {
		if (!mtu_state.saved_valid &&
		    sigaction(mtu_signals[i], NULL, &mtu_state.saved[i]) == -1)
			mtu_state.saved[i].sa_handler = SIG_DFL;
		if (mtu_state.saved[i].sa_handler == SIG_IGN ||
		    (mtu_state.loop && i < MTU_STOP_SIGNALS))
			continue;
		sigaction(mtu_signals[i], &sa, NULL);
	}
	mtu_state.saved_valid = 1;
}

/* Put back the saved actions where ours is still in place. */
static void
mtu_uninstall(void)
{
	struct sigaction	cur;
	int			i;

	if (!mtu_state.saved_valid)
		return;
	for (i = 0; i < MTU_NSIGNALS; i++)
		if (sigaction(mtu_signals[i], NULL, &cur) == 0 &&
		    cur.sa_handler == mtu_handler)
			sigaction(mtu_signals[i], &mtu_state.saved[i], NULL);
	mtu_state.saved_valid = 0;
}

void
mtu_loop_signals(int on)
{
	mtu_state.loop = on;
}

void
mtu_guard_signals(void)
{
	if (mtu_state.count > 0 && mtu_state.owner == getpid())
		mtu_install();
}

int
mtu_restore_all(char *err, size_t errlen)
{
	struct mtu_entry	*e;
	sigset_t		 old;
	int			 i, rc = 0;

	mtu_block(&old);
	for (i = mtu_state.count - 1; i >= 0; i--) {
		e = &mtu_state.entries[i];
		if (mtu_ioctl_set(e->ifr.ifr_name, e->ifr.ifr_mtu) == -1 &&
		    errno != ENODEV) {
			if (rc == 0)
				mtu_set_error(e->ifr.ifr_name, e->ifr.ifr_mtu,
				    errno, err, errlen);
			rc = -1;
		} else
			unlink(e->journal);
		close(e->lockfd);
	}
	mtu_state.count = 0;
	mtu_uninstall();
	mtu_unblock(&old);
	return rc;
}
