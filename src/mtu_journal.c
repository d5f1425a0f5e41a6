/*
 * mtu_journal.c: the runtime directory and the MTU journals in it, and
 * "gigebench --restore" (mtu_restore_journals), which puts back what they
 * hold after a crash.
 *
 * A journal's name and content both carry the network namespace's inode
 * (st_ino of /proc/self/ns/net), so that a journal written inside a
 * namespace never "restores" a host interface of the same name.  A
 * journal is written before its change (mtu.c says in which order) and
 * flock'ed for as long as the change lasts, so that a restore run by
 * another process leaves a live change alone.
 *
 * This file owns the paths, the journal text, its atomic write and its
 * restore; it changes an MTU only to restore a journal, keeps no table
 * (mtu_signal.c does) and prints only in mtu_recover(), on stderr.
 */

#include <sys/types.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <net/if.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/mtu.h"
#include "host/netif.h"
#include "mtu_internal.h"

#define MTU_TEXT_LEN	64	/* a journal: 15 + 1 + 10 + 1 + 20 + 1 */
#define MTU_NETNS_PATH	"/proc/self/ns/net"

static const char *mtu_decimal(const char *, unsigned long long,
		    unsigned long long *);
static int	mtu_journal_busy(const char *);
static void	mtu_msg_add(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static int	mtu_journal_restore(const char *, const char *,
		    unsigned long, char *, size_t);

/* The directory of mtu_rundir() (host/mtu.h), with the reason in err. */
int
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

int
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

/*
 * e->journal is RUNDIR/mtu-IFNAME-INO.  One already there is a running
 * process's (it holds the flock) or a killed run's, and either way not
 * ours to overwrite.
 */
int
mtu_journal_claim(struct mtu_entry *e, const char *rundir,
    const char *ifname, unsigned long ino, char *err, size_t errlen)
{
	struct stat	st;

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
	return 0;
}

/*
 * Write e->journal atomically: a temporary file, flock'ed at once (so
 * that a restore run elsewhere sees it in use from its first byte),
 * fsync'ed, renamed into place, then the directory fsync'ed so that the
 * rename itself survives a power cut.  The lock stays in e->lockfd.
 */
int
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
