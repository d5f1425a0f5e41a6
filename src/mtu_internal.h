/*
 * mtu_internal.h: internal to the MTU module (host/mtu.h), shared by its
 * three files: mtu.c (the ioctls and the order of a change),
 * mtu_journal.c (the runtime directory and the journals in it) and
 * mtu_signal.c (the table of changed interfaces and the handlers that
 * restore it).  Nothing outside src/mtu*.c includes it.
 */
#ifndef GB_MTU_INTERNAL_H
#define GB_MTU_INTERNAL_H

#include <sys/types.h>
#include <sys/socket.h>

#include <net/if.h>

#include <signal.h>
#include <stddef.h>

#define MTU_TABLE_MAX	8	/* interfaces one process changes at once */
#define MTU_PATH_MAX	4096	/* a journal's path */
#define MTU_RUNDIR_MAX	(MTU_PATH_MAX - 512)	/* room for a file name */

/* One changed interface: what the signal handler puts back. */
struct mtu_entry {
	struct ifreq	ifr;		/* name and original MTU, ready */
	int		lockfd;		/* the journal, flock'ed */
	char		journal[MTU_PATH_MAX];
};

/* mtu.c: the interface ioctls. */

/* A socket for the interface ioctls: IPv4 if the kernel has it. */
int	mtu_socket(void);
/* SIOCSIFMTU; 0, or -1 with errno. */
int	mtu_ioctl_set(const char *ifname, int mtu);
/* The reason a SIOCSIFMTU failed with error e; errno is e afterwards. */
void	mtu_set_error(const char *ifname, int mtu, int e, char *err,
	    size_t errlen);

/* mtu_journal.c: the runtime directory and the journals. */

/* mtu_rundir() with the reason in err instead of buf. */
int	mtu_rundir_make(char *buf, size_t len, char *err, size_t errlen);
/* This process's network namespace: the inode of /proc/self/ns/net. */
int	mtu_netns(unsigned long *ino, char *err, size_t errlen);
/*
 * e->journal for ifname in rundir and namespace ino; -1 with the reason
 * ("changed by another running process", "run gigebench --restore
 * first") when a journal is there already.
 */
int	mtu_journal_claim(struct mtu_entry *e, const char *rundir,
	    const char *ifname, unsigned long ino, char *err, size_t errlen);
/* Write e->journal ("IFNAME MTU INO\n") atomically, lock in e->lockfd. */
int	mtu_journal_write(struct mtu_entry *e, const char *rundir,
	    const char *ifname, int mtu, unsigned long ino, char *err,
	    size_t errlen);

/* mtu_signal.c: the table and the signals that restore it. */

/* Block SIGINT, SIGTERM and SIGHUP in this thread; old gets the mask. */
void	mtu_block(sigset_t *old);
void	mtu_unblock(const sigset_t *old);
/* The table entry of ifname, or -1. */
int	mtu_table_find(const char *ifname);
/* The free entry the next change fills (not yet counted); NULL if full. */
struct mtu_entry *mtu_table_slot(void);
/*
 * Count the slot in (signals blocked): from now on the handler restores
 * it; the first entry makes this process the owner and installs the
 * handlers.
 */
void	mtu_table_add(void);
/* Take the last entry out again; the handlers go with the last one. */
void	mtu_table_drop(void);

#endif /* GB_MTU_INTERNAL_H */
