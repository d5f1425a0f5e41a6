/*
 * mtu.h: changing an interface's MTU for a test, and always putting it
 * back.  Before a change, the original MTU is written to a journal file
 * in the runtime directory (one file per interface and network
 * namespace), so that after a SIGKILL the next start, or
 * "gigebench --restore", puts it back.  A restore removes the journal.
 * While this process has an interface changed, it holds a flock(2) on
 * that interface's journal, so that a restore run by another process
 * leaves it alone.
 *
 * Every catchable signal whose default action ends the process (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, ..., and the faults
 * SIGSEGV, SIGBUS, SIGABRT, ...): while an MTU is changed, a handler
 * restores every changed interface with async-signal-safe calls only (socket,
 * ioctl, unlink, close) and then re-raises the signal with its default
 * action, so that the process ends with the signal's status.  The table it
 * reads is the one mutable static of the program, and only a signal
 * handler can need it.  A signal that was ignored when the first change
 * was made (nohup, a background job) stays ignored.
 *
 * libevent: a test's event loop installs its own SIGINT and SIGTERM
 * handlers (evsignal_new) for the length of the transfer and puts the
 * previous ones (these) back afterwards.  A signal during a transfer
 * therefore ends the test with an error instead; the caller then calls
 * mtu_restore_all() and exits.  mtu_guard_signals() reinstalls the
 * handlers after anything that may have replaced them; the sweep runner
 * calls it before and after each test.
 *
 * Not for a forked child: the table and the handlers belong to the
 * process that made the changes (the handler in a child restores nothing).
 */
#ifndef GB_MTU_H
#define GB_MTU_H

#include <stddef.h>

#define MTU_MIN		1280	/* IPv6's minimum; the test bed's range */
#define MTU_MAX		65535
/*
 * What a journal may hold: any original MTU an interface could have had
 * (loopback's default is 65536, outside what we set), from IPv4's minimum
 * to the kernel's int.
 */
#define MTU_JOURNAL_MIN	68
#define MTU_JOURNAL_MAX	2147483647

/*
 * The runtime directory: GIGEBENCH_RUNDIR, /run/gigebench when root,
 * $XDG_RUNTIME_DIR/gigebench (when absolute), else /tmp/gigebench-UID.
 * Created with mode 0700 when missing; one that is a symbolic link, not
 * ours, or writable by group or others is refused.  0 with the path in
 * buf, or -1 with the reason in buf.
 */
int	mtu_rundir(char *buf, size_t len);

/* 0, or -1 with a reason ("no such interface: eth9"). */
int	mtu_get(const char *ifname, int *mtu, char *err, size_t errlen);
/*
 * Set ifname's MTU (MTU_MIN..MTU_MAX), journaling the original first
 * (only on the first change of that interface; later changes keep it).
 * -1 with a reason and no change on failure: "changing the MTU of eth0
 * needs root (CAP_NET_ADMIN)", "no such interface: eth9", "eth0 refuses
 * MTU 9000: Invalid argument" (above the driver's maximum), "the MTU of
 * eth0 is changed by another running process", or a journal left by an
 * earlier run ("run gigebench --restore first").
 */
int	mtu_change(const char *ifname, int mtu, char *err, size_t errlen);
/*
 * Restore every interface this process changed, remove the journals,
 * put the signal actions back.  Idempotent.  -1 with the first failure
 * in err (the journal of an interface that could not be restored stays).
 */
int	mtu_restore_all(char *err, size_t errlen);
/*
 * (Re)install those handlers while an MTU is changed; nothing otherwise.
 */
void	mtu_guard_signals(void);
/*
 * on: the caller's event loop handles the signals that stop or ask
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
 * SIGPROF, SIGPWR, SIGIO) and restores the MTU itself when it stops: the guard
 * then leaves them to it and covers the faults only.  The listener's
 * choice, made before its first change.
 */
void	mtu_loop_signals(int on);
/*
 * Restore what journals in the runtime directory hold for this network
 * namespace (after a crash), remove them.  Journals of other namespaces,
 * of a running process, or malformed ones are left and named in msg; the
 * journal of an interface that no longer exists is removed.  Writes what
 * it did to msg ("restored eth0 to 1500").  Returns the count restored, or
 * -1 when the directory could not be read or a journal of this namespace
 * could not be restored.
 */
int	mtu_restore_journals(char *msg, size_t msglen);
/*
 * At the start of a run that will change an MTU: put back what a killed
 * earlier run left (journals of this namespace no live process holds),
 * saying so on stderr.
 */
void	mtu_recover(void);
/*
 * Journal text: exactly "IFNAME MTU NETNS_INODE\n", single spaces,
 * canonical decimals (no sign, no leading zero), MTU within
 * MTU_JOURNAL_MIN..MTU_JOURNAL_MAX, inode nonzero.  Pure, for tests.
 * 0, or -1 when malformed or the name does not fit iflen.
 */
int	mtu_journal_parse(const char *text, char *ifname, size_t iflen,
	    int *mtu, unsigned long *netns);

/*
 * mtu_iface.c: the interface of a test whose MTU a role sets: ifname (-I)
 * when not NULL, else the one that holds fd's local address (the control
 * connection's).  Its name into name.  1 when its MTU is not mtu yet
 * (the caller then calls mtu_change(name, ...)), 0 when it is, -1 with
 * err when it cannot be read, MTU_IFACE_UNKNOWN (err untouched: the
 * caller names what to do) when no interface holds the address.
 */
#define MTU_IFACE_UNKNOWN	(-2)
int	mtu_iface_differs(const char *ifname, int fd, int mtu, char *name,
	    size_t namelen, char *err, size_t errlen);

#endif /* GB_MTU_H */
