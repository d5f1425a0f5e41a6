/*
 * mtu.c: changing an interface's MTU and putting it back, even after a
 * signal or a crash.
 *
 * This file owns the runtime directory, the MTU journals in it, the
 * SIOCGIFMTU/SIOCSIFMTU ioctls and the SIGINT/SIGTERM/SIGHUP handlers
 * that restore on the way out.  It does not parse options, print or exit.
 *
 * The order of a first change is what makes it safe: a no-op SIOCSIFMTU
 * (the current value) first, because the kernel checks CAP_NET_ADMIN
 * before it compares values, so that "needs root" is the answer without
 * privilege whatever the state of the runtime directory; then the journal,
 * written to a temporary file, fsync'ed and renamed into place (a crash
 * leaves the old state or the whole new one, never half a line); only
 * then the change.  The three signals are blocked from the journal to the
 * change, so the handler sees a table entry whole or not at all.  (They
 * are blocked in the calling thread: a program with other threads must
 * block them there too, or let only this one change MTUs.)
 *
 * A journal's name and content both carry the network namespace's inode
 * (st_ino of /proc/self/ns/net), so that a journal written inside a
 * namespace never "restores" a host interface of the same name.
 */

#include <sys/types.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <net/if.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/mtu.h"
#include "host/netif.h"

#define MTU_TABLE_MAX	8	/* interfaces one process changes at once */
#define MTU_PATH_MAX	4096	/* a journal's path */
#define MTU_RUNDIR_MAX	(MTU_PATH_MAX - 512)	/* room for a file name */
#define MTU_TEXT_LEN	64	/* a journal: 15 + 1 + 10 + 1 + 20 + 1 */
#define MTU_NETNS_PATH	"/proc/self/ns/net"
#define MTU_NSIGNALS	3

struct mtu_entry {
	struct ifreq	ifr;		/* name and original MTU, ready */
	int		lockfd;		/* the journal, flock'ed */
	char		journal[MTU_PATH_MAX];
};

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
	struct sigaction	saved[MTU_NSIGNALS];
} mtu_state;

static const int mtu_signals[MTU_NSIGNALS] = { SIGINT, SIGTERM, SIGHUP };

static int	mtu_socket(void);
static int	mtu_ioctl_set(const char *, int);
static void	mtu_set_error(const char *, int, int, char *, size_t);
static int	mtu_rundir_make(char *, size_t, char *, size_t);
static int	mtu_netns(unsigned long *, char *, size_t);
static const char *mtu_decimal(const char *, unsigned long long,
		    unsigned long long *);
static int	mtu_find(const char *);
static int	mtu_journal_write(struct mtu_entry *, const char *,
		    const char *, int, unsigned long, char *, size_t);
static int	mtu_journal_busy(const char *);
static int	mtu_first_change(const char *, int, int, char *, size_t);
static void	mtu_block(sigset_t *);
static void	mtu_unblock(const sigset_t *);
static void	mtu_handler(int);
static void	mtu_install(void);
static void	mtu_uninstall(void);
static void	mtu_msg_add(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static int	mtu_journal_restore(const char *, const char *,
		    unsigned long, char *, size_t);

/* A socket for the interface ioctls: IPv4 if the kernel has it. */
static int
mtu_socket(void)
{
	int	fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return fd;
}

/* SIOCSIFMTU; 0, or -1 with errno. */
static int
mtu_ioctl_set(const char *ifname, int mtu)
{
	struct ifreq	ifr;
	int		fd, rc, saved;

	if ((fd = mtu_socket()) == -1)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	ifr.ifr_mtu = mtu;
	rc = ioctl(fd, SIOCSIFMTU, &ifr);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

/* The reason a SIOCSIFMTU failed with error e; errno is e afterwards. */
static void
mtu_set_error(const char *ifname, int mtu, int e, char *err,
    size_t errlen)
{
	switch (e) {
	case EPERM:
	case EACCES:
		snprintf(err, errlen, "changing the MTU of %s needs root "
		    "(CAP_NET_ADMIN)", ifname);
		break;
	case ENODEV:
	case ENXIO:
		snprintf(err, errlen, "no such interface: %s", ifname);
		break;
	case EINVAL:
		snprintf(err, errlen, "%s refuses MTU %d: %s", ifname, mtu,
		    strerror(e));
		break;
	default:
		snprintf(err, errlen, "cannot set the MTU of %s to %d: %s",
		    ifname, mtu, strerror(e));
		break;
	}
	errno = e;
}

static int
mtu_rundir_make(char *buf, size_t len, char *err, size_t errlen)
{
	struct stat	 st;
	const char	*env;
	uid_t		 uid = geteuid();
	int		 n;

	if ((env = getenv("GIGEBENCH_RUNDIR")) != NULL && *env != '\0')
		n = snprintf(buf, len, "%s", env);
	else if (uid == 0)
		n = snprintf(buf, len, "/run/gigebench");
	else if ((env = getenv("XDG_RUNTIME_DIR")) != NULL && *env == '/')
		n = snprintf(buf, len, "%s/gigebench", env);
	else
		n = snprintf(buf, len, "/tmp/gigebench-%lu",
		    (unsigned long)uid);
	if (n < 0 || (size_t)n >= len || n >= MTU_RUNDIR_MAX) {
		snprintf(err, errlen, "runtime directory path is too long");
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(buf, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create the runtime directory "
		    "%s: %s", buf, strerror(errno));
		return -1;
	}
	/*
	 * lstat: a symbolic link squatting /tmp is not our directory, and
	 * someone else's directory may not even be readable to us.
	 */
	if (lstat(buf, &st) == -1) {
		snprintf(err, errlen, "runtime directory %s: %s", buf,
		    strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "runtime directory %s is %s", buf,
		    S_ISLNK(st.st_mode) ? "a symbolic link" :
		    "not a directory");
		errno = ENOTDIR;
		return -1;
	}
	if (st.st_uid != uid) {
		snprintf(err, errlen, "runtime directory %s is owned by uid "
		    "%lu, not by us (uid %lu)", buf, (unsigned long)st.st_uid,
		    (unsigned long)uid);
		errno = EPERM;
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen, "runtime directory %s is writable by "
		    "group or others (mode %03o)", buf,
		    (unsigned)(st.st_mode & 0777));
		errno = EPERM;
		return -1;
	}
	return 0;
}

int
mtu_rundir(char *buf, size_t len)
{
	char	err[MTU_RUNDIR_MAX + 128];
	int	saved;

	if (mtu_rundir_make(buf, len, err, sizeof(err)) == -1) {
		saved = errno;
		snprintf(buf, len, "%s", err);
		errno = saved;
		return -1;
	}
	return 0;
}

/* This process's network namespace: the inode of /proc/self/ns/net. */
static int
mtu_netns(unsigned long *ino, char *err, size_t errlen)
{
	struct stat	st;

	if (stat(MTU_NETNS_PATH, &st) == -1) {
		snprintf(err, errlen, "cannot tell the network namespace "
		    "(%s): %s", MTU_NETNS_PATH, strerror(errno));
		return -1;
	}
	*ino = (unsigned long)st.st_ino;
	return 0;
}

int
mtu_get(const char *ifname, int *mtu, char *err, size_t errlen)
{
	struct ifreq	ifr;
	int		fd, e;

	if (!netif_name_ok(ifname)) {
		snprintf(err, errlen, "invalid interface name: %s",
		    ifname == NULL ? "(null)" : ifname);
		errno = EINVAL;
		return -1;
	}
	if ((fd = mtu_socket()) == -1) {
		snprintf(err, errlen, "cannot open a socket for the MTU "
		    "ioctl: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == -1) {
		e = errno;
		close(fd);
		if (e == ENODEV || e == ENXIO)
			snprintf(err, errlen, "no such interface: %s", ifname);
		else
			snprintf(err, errlen, "cannot read the MTU of %s: %s",
			    ifname, strerror(e));
		errno = e;
		return -1;
	}
	close(fd);
	*mtu = ifr.ifr_mtu;
	return 0;
}

/*
 * A canonical decimal (no sign, no leading zero) of at most max at p;
 * the character after it, or NULL.
 */
static const char *
mtu_decimal(const char *p, unsigned long long max, unsigned long long *v)
{
	const char		*start = p;
	unsigned long long	 n = 0, d;

	if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		d = (unsigned long long)(*p - '0');
		if (n > (max - d) / 10)
			return NULL;
		n = n * 10 + d;
	}
	if (p == start)
		return NULL;
	*v = n;
	return p;
}

int
mtu_journal_parse(const char *text, char *ifname, size_t iflen, int *mtu,
    unsigned long *netns)
{
	char			 name[IFNAMSIZ];
	const char		*p, *sp;
	unsigned long long	 m, ino;
	size_t			 n;

	if (text == NULL || (sp = strchr(text, ' ')) == NULL)
		return -1;
	if ((n = (size_t)(sp - text)) == 0 || n >= sizeof(name))
		return -1;
	memcpy(name, text, n);
	name[n] = '\0';
	if (!netif_name_ok(name) || n >= iflen)
		return -1;
	if ((p = mtu_decimal(sp + 1, MTU_JOURNAL_MAX, &m)) == NULL ||
	    *p != ' ' || m < MTU_JOURNAL_MIN)
		return -1;
	if ((p = mtu_decimal(p + 1, ULONG_MAX, &ino)) == NULL ||
	    ino == 0 || strcmp(p, "\n") != 0)
		return -1;
	memcpy(ifname, name, n + 1);
	*mtu = (int)m;
	*netns = (unsigned long)ino;
	return 0;
}

/* The table entry for ifname, or -1. */
static int
mtu_find(const char *ifname)
{
	int	i;

	for (i = 0; i < mtu_state.count; i++)
		if (strcmp(mtu_state.entries[i].ifr.ifr_name, ifname) == 0)
			return i;
	return -1;
}

/*
 * Write e->journal atomically: a temporary file, flock'ed at once (so
 * that a restore run elsewhere sees it in use from its first byte),
 * fsync'ed, renamed into place, then the directory fsync'ed so that the
 * rename itself survives a power cut.  The lock stays in e->lockfd.
 */
static int
mtu_journal_write(struct mtu_entry *e, const char *rundir,
    const char *ifname, int mtu, unsigned long ino, char *err,
    size_t errlen)
{
	char	tmp[MTU_PATH_MAX], text[MTU_TEXT_LEN];
	int	fd, dfd, n, saved;

	snprintf(tmp, sizeof(tmp), "%s/.mtu-%s-%lu.%ld.tmp", rundir, ifname,
	    ino, (long)getpid());
	n = snprintf(text, sizeof(text), "%s %d %lu\n", ifname, mtu, ino);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "cannot write the MTU journal %s: %s",
		    tmp, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1 ||
	    write(fd, text, (size_t)n) != n || fsync(fd) == -1 ||
	    rename(tmp, e->journal) == -1) {
		saved = errno;
		snprintf(err, errlen, "cannot write the MTU journal %s: %s",
		    e->journal, strerror(saved));
		unlink(tmp);
		close(fd);
		errno = saved;
		return -1;
	}
	if ((dfd = open(rundir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	e->lockfd = fd;
	return 0;
}

static void
mtu_block(sigset_t *old)
{
	sigset_t	set;
	int		i;

	sigemptyset(&set);
	for (i = 0; i < MTU_NSIGNALS; i++)
		sigaddset(&set, mtu_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void
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
		if (mtu_state.saved[i].sa_handler == SIG_IGN)
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
mtu_guard_signals(void)
{
	if (mtu_state.count > 0 && mtu_state.owner == getpid())
		mtu_install();
}

/* Does a running process hold the journal at path (flock)?  1 or 0. */
static int
mtu_journal_busy(const char *path)
{
	int	fd, busy;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return 0;
	busy = flock(fd, LOCK_EX | LOCK_NB) == -1 && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

/* The first change of ifname in this process: journal, table, change. */
static int
mtu_first_change(const char *ifname, int orig, int mtu, char *err,
    size_t errlen)
{
	struct mtu_entry	*e;
	struct stat		 st;
	char			 rundir[MTU_RUNDIR_MAX];
	unsigned long		 ino;
	sigset_t		 old;
	int			 saved;

	if (orig < MTU_JOURNAL_MIN) {
		snprintf(err, errlen, "%s has MTU %d, below %d: not changing "
		    "what could not be journaled", ifname, orig,
		    MTU_JOURNAL_MIN);
		errno = ERANGE;
		return -1;
	}
	if (mtu_state.count >= MTU_TABLE_MAX) {
		snprintf(err, errlen, "cannot change the MTU of %s: %d "
		    "interfaces are changed already", ifname, MTU_TABLE_MAX);
		errno = ENOSPC;
		return -1;
	}
	if (mtu_rundir_make(rundir, sizeof(rundir), err, errlen) == -1 ||
	    mtu_netns(&ino, err, errlen) == -1)
		return -1;
	e = &mtu_state.entries[mtu_state.count];
	memset(e, 0, sizeof(*e));
	snprintf(e->journal, sizeof(e->journal), "%s/mtu-%s-%lu", rundir,
	    ifname, ino);
	if (lstat(e->journal, &st) == 0) {
		if (mtu_journal_busy(e->journal))
			snprintf(err, errlen, "the MTU of %s is changed by "
			    "another running process (%s)", ifname,
			    e->journal);
		else
			snprintf(err, errlen, "%s has a journal from an "
			    "earlier run (%s): run gigebench --restore first",
			    ifname, e->journal);
		errno = EEXIST;
		return -1;
	}
	memcpy(e->ifr.ifr_name, ifname, strlen(ifname) + 1);
	e->ifr.ifr_mtu = orig;

	mtu_block(&old);
	if (mtu_journal_write(e, rundir, ifname, orig, ino, err,
	    errlen) == -1) {
		saved = errno;
		mtu_unblock(&old);
		errno = saved;
		return -1;
	}
	if (mtu_state.count == 0)
		mtu_state.owner = getpid();
	mtu_state.count++;
	mtu_install();
	if (mtu_ioctl_set(ifname, mtu) == -1) {
		saved = errno;
		unlink(e->journal);
		close(e->lockfd);
		if (--mtu_state.count == 0)
			mtu_uninstall();
		mtu_unblock(&old);
		mtu_set_error(ifname, mtu, saved, err, errlen);
		return -1;
	}
	mtu_unblock(&old);
	return 0;
}

int
mtu_change(const char *ifname, int mtu, char *err, size_t errlen)
{
	int	cur;

	if (!netif_name_ok(ifname)) {
		snprintf(err, errlen, "invalid interface name: %s",
		    ifname == NULL ? "(null)" : ifname);
		errno = EINVAL;
		return -1;
	}
	if (mtu < MTU_MIN || mtu > MTU_MAX) {
		snprintf(err, errlen, "MTU is out of range (%d-%d): %d",
		    MTU_MIN, MTU_MAX, mtu);
		errno = ERANGE;
		return -1;
	}
	if (mtu_get(ifname, &cur, err, errlen) == -1)
		return -1;
	/* setting the current value changes nothing, but needs privilege */
	if (mtu_ioctl_set(ifname, cur) == -1) {
		mtu_set_error(ifname, cur, errno, err, errlen);
		return -1;
	}
	if (mtu_find(ifname) == -1) {
		if (mtu == cur)
			return 0;
		return mtu_first_change(ifname, cur, mtu, err, errlen);
	}
	if (mtu_ioctl_set(ifname, mtu) == -1) {
		mtu_set_error(ifname, mtu, errno, err, errlen);
		return -1;
	}
	return 0;
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

/* Append "; "-separated text to msg. */
static void
mtu_msg_add(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list	ap;
	size_t	n;

	n = strnlen(msg, msglen);
	if (n > 0 && n + 2 < msglen) {
		memcpy(msg + n, "; ", 3);
		n += 2;
	}
	if (n + 1 >= msglen)
		return;
	va_start(ap, fmt);
	vsnprintf(msg + n, msglen - n, fmt, ap);
	va_end(ap);
}

/*
 * One journal file, name in dir: 1 restored, 0 left or removed (said in
 * msg), -1 failed to restore.
 */
static int
mtu_journal_restore(const char *dir, const char *name, unsigned long ino,
    char *msg, size_t msglen)
{
	struct stat	 st;
	char		 path[MTU_PATH_MAX], text[MTU_TEXT_LEN + 1];
	char		 ifname[IFNAMSIZ], want[MTU_TEXT_LEN];
	char		 err[256];
	unsigned long	 jino;
	ssize_t		 n;
	int		 fd, mtu, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* O_NONBLOCK: a FIFO named mtu-x must not hang the restore */
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1) {
		mtu_msg_add(msg, msglen, "skipped %s: %s", name,
		    strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		mtu_msg_add(msg, msglen, "skipped %s: not a regular file",
		    name);
		goto done;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		mtu_msg_add(msg, msglen, "skipped %s: in use by a running "
		    "process", name);
		goto done;
	}
	n = read(fd, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = '\0';
	if (n <= 0 || n >= (ssize_t)sizeof(text) - 1 ||
	    strlen(text) != (size_t)n ||
	    mtu_journal_parse(text, ifname, sizeof(ifname), &mtu,
	    &jino) == -1) {
		mtu_msg_add(msg, msglen, "skipped %s: malformed", name);
		goto done;
	}
	snprintf(want, sizeof(want), "mtu-%s-%lu", ifname, jino);
	if (strcmp(want, name) != 0) {
		mtu_msg_add(msg, msglen, "skipped %s: its name does not match "
		    "its content", name);
		goto done;
	}
	if (jino != ino) {
		mtu_msg_add(msg, msglen, "skipped %s: another network "
		    "namespace (%lu)", ifname, jino);
		goto done;
	}
	if (mtu_ioctl_set(ifname, mtu) == 0) {
		unlink(path);
		mtu_msg_add(msg, msglen, "restored %s to %d", ifname, mtu);
		rc = 1;
	} else if (errno == ENODEV) {
		unlink(path);
		mtu_msg_add(msg, msglen, "%s no longer exists: removed its "
		    "journal", ifname);
	} else {
		mtu_set_error(ifname, mtu, errno, err, sizeof(err));
		mtu_msg_add(msg, msglen, "%s", err);
		rc = -1;
	}
done:
	close(fd);
	return rc;
}

int
mtu_restore_journals(char *msg, size_t msglen)
{
	char		 dir[MTU_RUNDIR_MAX];
	DIR		*d;
	struct dirent	*de;
	unsigned long	 ino;
	int		 count = 0, failed = 0, r;

	if (msglen > 0)
		msg[0] = '\0';
	if (mtu_rundir_make(dir, sizeof(dir), msg, msglen) == -1 ||
	    mtu_netns(&ino, msg, msglen) == -1)
		return -1;
	if ((d = opendir(dir)) == NULL) {
		snprintf(msg, msglen, "cannot read the runtime directory %s: "
		    "%s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "mtu-", 4) != 0)
			continue;
		r = mtu_journal_restore(dir, de->d_name, ino, msg, msglen);
		if (r == 1)
			count++;
		else if (r == -1)
			failed = 1;
	}
	closedir(d);
	if (msglen > 0 && msg[0] == '\0')
		snprintf(msg, msglen, "no MTU journals in %s", dir);
	return failed ? -1 : count;
}

void
mtu_recover(void)
{
	char msg[1024];

	if (mtu_restore_journals(msg, sizeof(msg)) > 0)
		fprintf(stderr, "gigebench: %s\n", msg);
}
