/*
 * test_mtu.c: the MTU journal's parser, the runtime directory, and, as
 * root, real MTU changes.
 *
 * Without root only the pure parts and the refusals run: nothing here
 * changes an interface of the host.  As root, the test process first moves
 * itself into a network namespace of its own (unshare(CLONE_NEWNET), and
 * checks that it did), makes a veth pair there and changes that: it lives
 * exactly as long as the test, so a child can change an MTU and die
 * without restoring (a crash) while the namespace stays for the check.
 * The root-only runtime directory cases run in a child with a mount
 * namespace of its own, over tmpfs /run and /tmp.  When the namespace
 * cannot be made (not root, no veth), each of its cases is reported as
 * skipped, by name; with the CI environment variable set, as failed,
 * naming what was missing (issue 13).
 */

#include <sys/types.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <net/if.h>

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/mtu.h"

#define NOBODY		65534
#define VETH		"gbm0"		/* made in the test's own namespace */
#define VETH_PEER	"gbm1"
#define MACVLAN		"gbm0mv"	/* on VETH: its MTU cannot exceed it */

/* A check inside a forked child: cmocka's longjmp must not run there. */
#define CHILD_CHECK(c) do {						\
	if (!(c)) {							\
		fprintf(stderr, "child: %s:%d: %s\n", __FILE__,		\
		    __LINE__, #c);					\
		_exit(1);						\
	}								\
} while (0)

/* The runtime directory of the namespace tests, and its namespace. */
static char		ns_rundir[64];
static unsigned long	ns_inode;
/* Why the namespace cases cannot run ("" when they can). */
static char		ns_missing[128];
static int		ns_has_macvlan;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static unsigned long
netns_inode(void)
{
	struct stat	st;

	if (stat("/proc/self/ns/net", &st) == -1)
		return 0;
	return (unsigned long)st.st_ino;
}

static void
write_file(const char *path, const char *text)
{
	FILE	*fp;

	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* The file's text into buf; -1 when it does not exist. */
static int
read_file(const char *path, char *buf, size_t len)
{
	FILE	*fp;
	size_t	 n;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return 0;
}

static void
journal_path(char *buf, size_t len, const char *ifname, unsigned long ino)
{
	snprintf(buf, len, "%s/mtu-%s-%lu", ns_rundir, ifname, ino);
}

/* How many mtu-* files the namespace tests' runtime directory holds. */
static int
journal_count(void)
{
	DIR		*d;
	struct dirent	*de;
	int		 n = 0;

	d = opendir(ns_rundir);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "mtu-", 4) == 0)
			n++;
	closedir(d);
	return n;
}

static sighandler_t
handler_of(int sig)
{
	struct sigaction	sa;

	assert_int_equal(sigaction(sig, NULL, &sa), 0);
	return sa.sa_handler;
}

/* A child's exit status, or 128 + the signal that ended it. */
static int
child_wait(pid_t pid)
{
	int	st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static int
mtu_of(const char *ifname)
{
	char	err[256];
	int	mtu = -1;

	if (mtu_get(ifname, &mtu, err, sizeof(err)) == -1)
		fail_msg("%s", err);
	return mtu;
}

/* Journal lines: good ones. */
static void
test_parse_good(void **state)
{
	char		ifname[IFNAMSIZ];
	int		mtu;
	unsigned long	ino;

	(void)state;
	assert_int_equal(mtu_journal_parse("eth0 1500 4026531840\n", ifname,
	    sizeof(ifname), &mtu, &ino), 0);
	assert_string_equal(ifname, "eth0");
	assert_int_equal(mtu, 1500);
	assert_int_equal(ino, 4026531840UL);
	assert_int_equal(mtu_journal_parse("gb-va 9000 1\n", ifname,
	    sizeof(ifname), &mtu, &ino), 0);
	assert_string_equal(ifname, "gb-va");
	assert_int_equal(mtu, 9000);
	assert_int_equal(ino, 1);
	/* loopback's default, above what we set but a real original */
	assert_int_equal(mtu_journal_parse("lo 65536 7\n", ifname,
	    sizeof(ifname), &mtu, &ino), 0);
	assert_int_equal(mtu, 65536);
	assert_int_equal(mtu_journal_parse("a 68 18446744073709551615\n",
	    ifname, sizeof(ifname), &mtu, &ino), 0);
	assert_int_equal(mtu, 68);
	assert_true(ino == 18446744073709551615UL);
	assert_int_equal(mtu_journal_parse("enp0s31f6.100 2147483647 9\n",
	    ifname, sizeof(ifname), &mtu, &ino), 0);
	assert_string_equal(ifname, "enp0s31f6.100");
	assert_int_equal(mtu, 2147483647);
	/* 15 characters: the longest name */
	assert_int_equal(mtu_journal_parse("abcdefghijklmno 1500 9\n",
	    ifname, sizeof(ifname), &mtu, &ino), 0);
	assert_string_equal(ifname, "abcdefghijklmno");
}

/* Every malformed form. */
static void
test_parse_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"\n",
		"eth0\n",
		"eth0 1500\n",
		"eth0 1500 42",			/* no newline */
		"eth0 1500 42\n\n",
		"eth0 1500 42\nx",
		"eth0 1500 42 \n",
		"eth0 1500 42 7\n",		/* a fourth field */
		" eth0 1500 42\n",
		"eth0  1500 42\n",
		"eth0 1500  42\n",
		"eth0\t1500 42\n",
		"eth0 1500\t42\n",
		"eth0 1500 42\r\n",
		"eth0 +1500 42\n",
		"eth0 -1500 42\n",
		"eth0 01500 42\n",		/* not canonical */
		"eth0 1500 042\n",
		"eth0 0x5dc 42\n",
		"eth0 1500.0 42\n",
		"eth0 15k 42\n",
		"eth0 1500 4e2\n",
		"eth0 1500 -42\n",
		"eth0 1500 0\n",		/* no inode is 0 */
		"eth0 1500 18446744073709551616\n",	/* > ULONG_MAX */
		"eth0 1500 99999999999999999999999\n",
		"eth0 67 42\n",			/* below IPv4's minimum */
		"eth0 0 42\n",
		"eth0 2147483648 42\n",		/* > INT_MAX */
		"eth0 99999999999 42\n",
		"eth0  42\n",
		"abcdefghijklmnop 1500 42\n",	/* 16: too long a name */
		". 1500 42\n",
		".. 1500 42\n",
		"a/b 1500 42\n",
		"a:b 1500 42\n",
		"1500 42\n",
	};
	char		ifname[IFNAMSIZ];
	int		mtu;
	unsigned long	ino;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (mtu_journal_parse(bad[i], ifname, sizeof(ifname), &mtu,
		    &ino) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
	assert_int_equal(mtu_journal_parse(NULL, ifname, sizeof(ifname),
	    &mtu, &ino), -1);
}

/* A name that does not fit the caller's buffer is refused, not cut. */
static void
test_parse_small_buffer(void **state)
{
	char		ifname[5] = "xxxx";
	int		mtu = 0;
	unsigned long	ino = 0;

	(void)state;
	assert_int_equal(mtu_journal_parse("eth0 1500 42\n", ifname, 5,
	    &mtu, &ino), 0);
	assert_int_equal(mtu_journal_parse("eth10 1500 42\n", ifname, 5,
	    &mtu, &ino), -1);
	assert_string_equal(ifname, "eth0");
}

static char *
temp_dir(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/gb-test-mtu-XXXXXX");
	assert_non_null(mkdtemp(buf));
	return buf;
}

/* GIGEBENCH_RUNDIR: created 0700 when missing, used as it is. */
static void
test_rundir_env(void **state)
{
	struct stat	st;
	char		tmp[64], dir[128], buf[256];

	(void)state;
	temp_dir(tmp, sizeof(tmp));
	snprintf(dir, sizeof(dir), "%s/run", tmp);
	setenv("GIGEBENCH_RUNDIR", dir, 1);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, dir);
	assert_int_equal(lstat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	/* again: it exists now */
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, dir);
	/* not group- or world-writable is enough: 0755 is fine */
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), 0);
	unsetenv("GIGEBENCH_RUNDIR");
	rm_tree(tmp);
}

/* Refused: writable by others, a symbolic link, a file, no parent. */
static void
test_rundir_refused(void **state)
{
	char	tmp[64], dir[128], buf[256];

	(void)state;
	temp_dir(tmp, sizeof(tmp));
	snprintf(dir, sizeof(dir), "%s/open", tmp);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, 0770), 0);
	setenv("GIGEBENCH_RUNDIR", dir, 1);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), -1);
	assert_non_null(strstr(buf, "is writable by group or others "
	    "(mode 770)"));
	assert_non_null(strstr(buf, dir));
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), -1);
	assert_non_null(strstr(buf, "writable by group or others"));

	snprintf(dir, sizeof(dir), "%s/link", tmp);
	assert_int_equal(symlink(tmp, dir), 0);
	setenv("GIGEBENCH_RUNDIR", dir, 1);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), -1);
	assert_non_null(strstr(buf, "is a symbolic link"));

	snprintf(dir, sizeof(dir), "%s/file", tmp);
	write_file(dir, "x\n");
	setenv("GIGEBENCH_RUNDIR", dir, 1);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), -1);
	assert_non_null(strstr(buf, "is not a directory"));

	snprintf(dir, sizeof(dir), "%s/no/such", tmp);
	setenv("GIGEBENCH_RUNDIR", dir, 1);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), -1);
	assert_non_null(strstr(buf, "cannot create the runtime directory"));

	/* the path does not fit the caller's buffer */
	setenv("GIGEBENCH_RUNDIR", tmp, 1);
	assert_int_equal(mtu_rundir(buf, 8), -1);
	unsetenv("GIGEBENCH_RUNDIR");
	rm_tree(tmp);
}

/* Root: a directory of another user is refused. */
static void
test_rundir_not_ours(void **state)
{
	char	tmp[64], buf[256];

	(void)state;
	if (geteuid() != 0)
		skip();
	temp_dir(tmp, sizeof(tmp));
	assert_int_equal(chown(tmp, NOBODY, NOBODY), 0);
	setenv("GIGEBENCH_RUNDIR", tmp, 1);
	assert_int_equal(mtu_rundir(buf, sizeof(buf)), -1);
	assert_non_null(strstr(buf, "is owned by uid 65534, not by us "
	    "(uid 0)"));
	unsetenv("GIGEBENCH_RUNDIR");
	rm_tree(tmp);
}

/* Refusals that come before any ioctl that could change anything. */
static void
test_change_refused(void **state)
{
	char	err[256];
	int	mtu;

	(void)state;
	assert_int_equal(mtu_change("a/b", 9000, err, sizeof(err)), -1);
	assert_string_equal(err, "invalid interface name: a/b");
	assert_int_equal(mtu_change(NULL, 9000, err, sizeof(err)), -1);
	assert_int_equal(mtu_change("lo", 1279, err, sizeof(err)), -1);
	assert_string_equal(err, "MTU is out of range (1280-65535): 1279");
	assert_int_equal(mtu_change("lo", 65536, err, sizeof(err)), -1);
	assert_string_equal(err, "MTU is out of range (1280-65535): 65536");
	assert_int_equal(mtu_change("gbnosuch0", 9000, err, sizeof(err)), -1);
	assert_string_equal(err, "no such interface: gbnosuch0");
	assert_int_equal(mtu_get("gbnosuch0", &mtu, err, sizeof(err)), -1);
	assert_string_equal(err, "no such interface: gbnosuch0");
	assert_int_equal(mtu_get("", &mtu, err, sizeof(err)), -1);
	assert_int_equal(mtu_get("lo", &mtu, err, sizeof(err)), 0);
	assert_true(mtu > 0);
	/* nothing changed: restoring is a no-op, twice */
	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_true(handler_of(SIGINT) == SIG_DFL);
}

/*
 * Journals that must be left alone, without privilege: another
 * namespace's, malformed, misnamed, one a running process holds.
 */
static void
test_journals_left(void **state)
{
	char	tmp[64], path[128], msg[1024];
	int	fd;

	(void)state;
	temp_dir(tmp, sizeof(tmp));
	setenv("GIGEBENCH_RUNDIR", tmp, 1);
	assert_int_equal(mtu_restore_journals(msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "no MTU journals in "));

	snprintf(path, sizeof(path), "%s/mtu-gbx0-1", tmp);
	write_file(path, "gbx0 1500 1\n");
	snprintf(path, sizeof(path), "%s/mtu-junk", tmp);
	write_file(path, "junk\n");
	snprintf(path, sizeof(path), "%s/mtu-gbx1-2", tmp);
	write_file(path, "gbx2 1500 2\n");
	snprintf(path, sizeof(path), "%s/mtu-long", tmp);
	write_file(path, "gbx0 1500 1\n                                  "
	    "                                                            \n");
	snprintf(path, sizeof(path), "%s/mtu-gbx3-3", tmp);
	write_file(path, "gbx3 1500 3\n");
	fd = open(path, O_RDONLY);
	assert_true(fd != -1);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	snprintf(path, sizeof(path), "%s/.mtu-gbx0-1.77.tmp", tmp);
	write_file(path, "gbx0 1500 1\n");

	assert_int_equal(mtu_restore_journals(msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "skipped gbx0: another network "
	    "namespace (1)"));
	assert_non_null(strstr(msg, "skipped mtu-junk: malformed"));
	assert_non_null(strstr(msg, "skipped mtu-long: malformed"));
	assert_non_null(strstr(msg, "skipped mtu-gbx1-2: its name does not "
	    "match its content"));
	assert_non_null(strstr(msg, "skipped mtu-gbx3-3: in use by a "
	    "running process"));
	assert_null(strstr(msg, ".mtu-"));
	assert_null(strstr(msg, "restored"));
	close(fd);
	/* all still there */
	snprintf(path, sizeof(path), "%s/mtu-gbx0-1", tmp);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/mtu-junk", tmp);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/mtu-gbx3-3", tmp);
	assert_int_equal(access(path, F_OK), 0);

	/* a message buffer too small is cut, not overrun */
	assert_int_equal(mtu_restore_journals(msg, 16), 0);
	assert_int_equal(strlen(msg) < 16, 1);
	unsetenv("GIGEBENCH_RUNDIR");
	rm_tree(tmp);
}

/* From here on: root, in the test's own network namespace. */

static int
ns_group_setup(void **state)
{
	(void)state;
	setenv("GIGEBENCH_RUNDIR", ns_rundir, 1);
	return 0;
}

static int
ns_group_teardown(void **state)
{
	(void)state;
	unsetenv("GIGEBENCH_RUNDIR");
	return 0;
}

/* Each test starts and ends with VETH at 1500 and no journal. */
static int
ns_setup(void **state)
{
	(void)state;
	if (mtu_of(VETH) != 1500 || journal_count() != 0)
		return -1;
	return 0;
}

static int
ns_teardown(void **state)
{
	char	err[256];

	(void)state;
	mtu_restore_all(err, sizeof(err));
	return 0;
}

static void
test_ns_change_restore(void **state)
{
	char	path[128], text[64], want[64], err[256];

	(void)state;
	assert_int_equal(mtu_change(VETH, 9000, err, sizeof(err)), 0);
	assert_int_equal(mtu_of(VETH), 9000);
	journal_path(path, sizeof(path), VETH, ns_inode);
	assert_int_equal(read_file(path, text, sizeof(text)), 0);
	snprintf(want, sizeof(want), VETH " 1500 %lu\n", ns_inode);
	assert_string_equal(text, want);
	assert_int_equal(journal_count(), 1);
	assert_true(handler_of(SIGINT) != SIG_DFL);
	assert_true(handler_of(SIGTERM) != SIG_DFL);
	assert_true(handler_of(SIGHUP) != SIG_DFL);

	/* a second change keeps the first original */
	assert_int_equal(mtu_change(VETH, 4000, err, sizeof(err)), 0);
	assert_int_equal(mtu_of(VETH), 4000);
	assert_int_equal(read_file(path, text, sizeof(text)), 0);
	assert_string_equal(text, want);
	/* and back to the original value still needs the restore */
	assert_int_equal(mtu_change(VETH, 1500, err, sizeof(err)), 0);
	assert_int_equal(mtu_change(VETH, 65535, err, sizeof(err)), 0);
	assert_int_equal(mtu_of(VETH), 65535);

	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_int_equal(mtu_of(VETH), 1500);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(journal_count(), 0);
	assert_true(handler_of(SIGINT) == SIG_DFL);
	assert_true(handler_of(SIGTERM) == SIG_DFL);
	assert_true(handler_of(SIGHUP) == SIG_DFL);
	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_int_equal(mtu_of(VETH), 1500);
}

/* Setting the MTU it has: nothing to journal, no handlers. */
static void
test_ns_same_mtu(void **state)
{
	char	err[256];

	(void)state;
	assert_int_equal(mtu_change(VETH, 1500, err, sizeof(err)), 0);
	assert_int_equal(journal_count(), 0);
	assert_true(handler_of(SIGINT) == SIG_DFL);
}

/* The driver refuses: no journal left, no handlers, no change. */
static void
test_ns_refused_by_driver(void **state)
{
	char	err[256];

	(void)state;
	if (!ns_has_macvlan) {
		print_message("macvlan is not available; skipped\n");
		skip();
	}
	assert_int_equal(mtu_change(MACVLAN, 9000, err, sizeof(err)), -1);
	assert_string_equal(err, MACVLAN " refuses MTU 9000: Invalid "
	    "argument");
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mtu_of(MACVLAN), 1500);
	assert_int_equal(journal_count(), 0);
	assert_true(handler_of(SIGINT) == SIG_DFL);
	/* a later refusal keeps the table whole */
	assert_int_equal(mtu_change(MACVLAN, 1400, err, sizeof(err)), 0);
	assert_int_equal(mtu_change(MACVLAN, 9000, err, sizeof(err)), -1);
	assert_int_equal(mtu_of(MACVLAN), 1400);
	assert_int_equal(journal_count(), 1);
	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_int_equal(mtu_of(MACVLAN), 1500);
	assert_int_equal(journal_count(), 0);
}

/*
 * A journal left by an earlier run is not overwritten with a wrong
 * original; one a running process holds is named as such.
 */
static void
test_ns_journal_exists(void **state)
{
	char	path[128], text[64], err[256], c;
	int	go[2], done[2];
	pid_t	pid;

	(void)state;
	journal_path(path, sizeof(path), VETH, ns_inode);
	snprintf(text, sizeof(text), VETH " 1400 %lu\n", ns_inode);
	write_file(path, text);
	assert_int_equal(mtu_change(VETH, 9000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, VETH " has a journal from an earlier "
	    "run"));
	assert_non_null(strstr(err, "run gigebench --restore first"));
	assert_int_equal(mtu_of(VETH), 1500);
	assert_int_equal(unlink(path), 0);

	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	if ((pid = fork()) == 0) {
		close(go[0]);
		close(done[1]);
		CHILD_CHECK(mtu_change(VETH, 4000, err, sizeof(err)) == 0);
		CHILD_CHECK(write(go[1], "x", 1) == 1);
		CHILD_CHECK(read(done[0], &c, 1) == 0);	/* parent's close */
		CHILD_CHECK(mtu_restore_all(err, sizeof(err)) == 0);
		_exit(0);
	}
	assert_true(pid > 0);
	close(go[1]);
	close(done[0]);
	assert_int_equal(read(go[0], &c, 1), 1);
	assert_int_equal(mtu_change(VETH, 9000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the MTU of " VETH " is changed by "
	    "another running process"));
	assert_int_equal(mtu_of(VETH), 4000);
	close(done[1]);
	close(go[0]);
	assert_int_equal(child_wait(pid), 0);
	assert_int_equal(mtu_of(VETH), 1500);
}

/* SIGINT, SIGTERM, SIGHUP after a change: restored, and the status. */
static void
test_ns_signals(void **state)
{
	static const int	sigs[] = { SIGINT, SIGTERM, SIGHUP };
	char			err[256];
	pid_t			pid;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if ((pid = fork()) == 0) {
			CHILD_CHECK(mtu_change(VETH, 9000, err,
			    sizeof(err)) == 0);
			CHILD_CHECK(mtu_change(VETH, 4000, err,
			    sizeof(err)) == 0);
			raise(sigs[i]);
			_exit(2);
		}
		assert_true(pid > 0);
		assert_int_equal(child_wait(pid), 128 + sigs[i]);
		assert_int_equal(mtu_of(VETH), 1500);
		assert_int_equal(journal_count(), 0);
	}
}

/* SIGKILL: the change stays, the journal puts it back. */
static void
test_ns_crash(void **state)
{
	char	path[128], msg[512], err[256];
	pid_t	pid;

	(void)state;
	if ((pid = fork()) == 0) {
		CHILD_CHECK(mtu_change(VETH, 9000, err, sizeof(err)) == 0);
		raise(SIGKILL);
		_exit(2);
	}
	assert_true(pid > 0);
	assert_int_equal(child_wait(pid), 128 + SIGKILL);
	assert_int_equal(mtu_of(VETH), 9000);
	journal_path(path, sizeof(path), VETH, ns_inode);
	assert_int_equal(access(path, F_OK), 0);
	/* a change now would journal 9000 as the original: refused */
	assert_int_equal(mtu_change(VETH, 4000, err, sizeof(err)), -1);
	assert_int_equal(mtu_restore_journals(msg, sizeof(msg)), 1);
	assert_string_equal(msg, "restored " VETH " to 1500");
	assert_int_equal(mtu_of(VETH), 1500);
	assert_int_equal(access(path, F_OK), -1);
}

/* Loopback's 65536 is an original that a journal must hold. */
static void
test_ns_loopback(void **state)
{
	char	path[128], text[64], want[64], msg[512], err[256];
	pid_t	pid;

	(void)state;
	if (mtu_of("lo") != 65536)
		skip();
	if ((pid = fork()) == 0) {
		CHILD_CHECK(mtu_change("lo", 9000, err, sizeof(err)) == 0);
		_exit(0);	/* no restore */
	}
	assert_int_equal(child_wait(pid), 0);
	assert_int_equal(mtu_of("lo"), 9000);
	journal_path(path, sizeof(path), "lo", ns_inode);
	assert_int_equal(read_file(path, text, sizeof(text)), 0);
	snprintf(want, sizeof(want), "lo 65536 %lu\n", ns_inode);
	assert_string_equal(text, want);
	assert_int_equal(mtu_restore_journals(msg, sizeof(msg)), 1);
	assert_string_equal(msg, "restored lo to 65536");
	assert_int_equal(mtu_of("lo"), 65536);
}

/*
 * After a crash: ours restored, another namespace's left, a vanished
 * interface's removed, malformed ones left.
 */
static void
test_ns_restore_journals(void **state)
{
	char	path[128], text[64], msg[1024], err[256];
	pid_t	pid;

	(void)state;
	if ((pid = fork()) == 0) {
		CHILD_CHECK(mtu_change(VETH, 9000, err, sizeof(err)) == 0);
		_exit(0);
	}
	assert_int_equal(child_wait(pid), 0);
	assert_int_equal(mtu_of(VETH), 9000);
	/* the same name in another namespace: never ours to restore */
	journal_path(path, sizeof(path), VETH, ns_inode + 1);
	snprintf(text, sizeof(text), VETH " 4000 %lu\n", ns_inode + 1);
	write_file(path, text);
	journal_path(path, sizeof(path), "gbgone0", ns_inode);
	snprintf(text, sizeof(text), "gbgone0 1500 %lu\n", ns_inode);
	write_file(path, text);
	journal_path(path, sizeof(path), VETH_PEER, ns_inode);
	snprintf(text, sizeof(text), VETH " 1400 %lu\n", ns_inode);
	write_file(path, text);

	assert_int_equal(mtu_restore_journals(msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "restored " VETH " to 1500"));
	assert_non_null(strstr(msg, "skipped " VETH ": another network "
	    "namespace"));
	assert_non_null(strstr(msg, "gbgone0 no longer exists: removed its "
	    "journal"));
	assert_non_null(strstr(msg, "its name does not match its content"));
	assert_int_equal(mtu_of(VETH), 1500);
	assert_int_equal(journal_count(), 2);
	journal_path(path, sizeof(path), "gbgone0", ns_inode);
	assert_int_equal(access(path, F_OK), -1);
	journal_path(path, sizeof(path), VETH, ns_inode + 1);
	assert_int_equal(unlink(path), 0);
	journal_path(path, sizeof(path), VETH_PEER, ns_inode);
	assert_int_equal(unlink(path), 0);
}

/* A restore run while this process has the MTU changed leaves it. */
static void
test_ns_journal_in_use(void **state)
{
	char	msg[512], err[256];

	(void)state;
	assert_int_equal(mtu_change(VETH, 9000, err, sizeof(err)), 0);
	assert_int_equal(mtu_restore_journals(msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "in use by a running process"));
	assert_int_equal(mtu_of(VETH), 9000);
	assert_int_equal(journal_count(), 1);
	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_int_equal(mtu_of(VETH), 1500);
}

static void
noop_handler(int sig)
{
	(void)sig;
}

/*
 * The actions in place before the first change come back; an ignored
 * signal stays ignored; mtu_guard_signals() puts the handler back after
 * something (libevent) replaced it.
 */
static void
test_ns_signal_actions(void **state)
{
	sighandler_t	ours;
	char		err[256];

	(void)state;
	mtu_guard_signals();		/* nothing changed: a no-op */
	assert_true(handler_of(SIGINT) == SIG_DFL);
	signal(SIGTERM, noop_handler);
	signal(SIGHUP, SIG_IGN);
	assert_int_equal(mtu_change(VETH, 9000, err, sizeof(err)), 0);
	ours = handler_of(SIGINT);
	assert_true(ours != SIG_DFL && ours != SIG_IGN);
	assert_true(handler_of(SIGTERM) == ours);
	assert_true(handler_of(SIGHUP) == SIG_IGN);

	signal(SIGINT, noop_handler);	/* as evsignal_add() does */
	mtu_guard_signals();
	assert_true(handler_of(SIGINT) == ours);
	assert_true(handler_of(SIGHUP) == SIG_IGN);

	assert_int_equal(mtu_restore_all(err, sizeof(err)), 0);
	assert_true(handler_of(SIGINT) == SIG_DFL);
	assert_true(handler_of(SIGTERM) == noop_handler);
	assert_true(handler_of(SIGHUP) == SIG_IGN);
	mtu_guard_signals();
	assert_true(handler_of(SIGINT) == SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

/* Without CAP_NET_ADMIN: "needs root", whatever the runtime directory. */
static void
test_ns_no_privilege(void **state)
{
	char	err[256];
	pid_t	pid;

	(void)state;
	if ((pid = fork()) == 0) {
		CHILD_CHECK(setgroups(0, NULL) == 0);
		CHILD_CHECK(setresgid(NOBODY, NOBODY, NOBODY) == 0);
		CHILD_CHECK(setresuid(NOBODY, NOBODY, NOBODY) == 0);
		CHILD_CHECK(mtu_change(VETH, 9000, err, sizeof(err)) == -1);
		CHILD_CHECK(strcmp(err, "changing the MTU of " VETH
		    " needs root (CAP_NET_ADMIN)") == 0);
		CHILD_CHECK(errno == EPERM);
		_exit(0);
	}
	assert_int_equal(child_wait(pid), 0);
	assert_int_equal(mtu_of(VETH), 1500);
	assert_int_equal(journal_count(), 0);
}

/*
 * Which directory, without GIGEBENCH_RUNDIR: /run/gigebench as root,
 * then, as nobody, $XDG_RUNTIME_DIR/gigebench (when absolute) or
 * /tmp/gigebench-UID.  In a mount namespace over tmpfs, so that the
 * host's /run and /tmp see nothing.
 */
static void
test_rundir_selection(void **state)
{
	struct stat	st;
	char		buf[256];
	pid_t		pid;

	(void)state;
	if ((pid = fork()) == 0) {
		if (unshare(CLONE_NEWNS) == -1 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == -1 ||
		    mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") == -1 ||
		    mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777") == -1)
			_exit(77);
		unsetenv("GIGEBENCH_RUNDIR");
		setenv("XDG_RUNTIME_DIR", "/tmp/xdg", 1);
		CHILD_CHECK(mtu_rundir(buf, sizeof(buf)) == 0);
		CHILD_CHECK(strcmp(buf, "/run/gigebench") == 0);
		CHILD_CHECK(lstat(buf, &st) == 0 && S_ISDIR(st.st_mode) &&
		    (st.st_mode & 0777) == 0700 && st.st_uid == 0);

		CHILD_CHECK(mkdir("/tmp/xdg", 0700) == 0);
		CHILD_CHECK(chown("/tmp/xdg", NOBODY, NOBODY) == 0);
		CHILD_CHECK(mkdir("/tmp/squat", 0755) == 0);
		CHILD_CHECK(mkdir("/tmp/squat/gigebench", 0700) == 0);
		CHILD_CHECK(setgroups(0, NULL) == 0);
		CHILD_CHECK(setresgid(NOBODY, NOBODY, NOBODY) == 0);
		CHILD_CHECK(setresuid(NOBODY, NOBODY, NOBODY) == 0);

		CHILD_CHECK(mtu_rundir(buf, sizeof(buf)) == 0);
		CHILD_CHECK(strcmp(buf, "/tmp/xdg/gigebench") == 0);
		CHILD_CHECK(lstat(buf, &st) == 0 && st.st_uid == NOBODY &&
		    (st.st_mode & 0777) == 0700);
		setenv("XDG_RUNTIME_DIR", "xdg", 1);	/* not absolute */
		CHILD_CHECK(mtu_rundir(buf, sizeof(buf)) == 0);
		CHILD_CHECK(strcmp(buf, "/tmp/gigebench-65534") == 0);
		unsetenv("XDG_RUNTIME_DIR");
		CHILD_CHECK(mtu_rundir(buf, sizeof(buf)) == 0);
		CHILD_CHECK(strcmp(buf, "/tmp/gigebench-65534") == 0);
		CHILD_CHECK(lstat(buf, &st) == 0 && st.st_uid == NOBODY &&
		    (st.st_mode & 0777) == 0700);
		/* someone else's directory where ours should be */
		setenv("XDG_RUNTIME_DIR", "/tmp/squat", 1);
		CHILD_CHECK(mtu_rundir(buf, sizeof(buf)) == -1);
		CHILD_CHECK(strstr(buf, "owned by uid 0, not by us") != NULL);
		_exit(0);
	}
	assert_true(pid > 0);
	switch (child_wait(pid)) {
	case 0:
		break;
	case 77:
		print_message("no mount namespace over tmpfs; skipped\n");
		skip();
		break;
	default:
		fail_msg("the child's checks failed (see above)");
	}
}

/*
 * Moves this process into a network namespace of its own, with a veth
 * pair (and a macvlan on it when the kernel has one).  0, or -1 with the
 * reason in ns_missing.
 */
static int
ns_enter(void)
{
	unsigned long	host = netns_inode();

	if (unshare(CLONE_NEWNET) == -1) {
		snprintf(ns_missing, sizeof(ns_missing),
		    "unshare(CLONE_NEWNET): %s", strerror(errno));
		return -1;
	}
	ns_inode = netns_inode();
	if (host == 0 || ns_inode == 0 || ns_inode == host) {
		snprintf(ns_missing, sizeof(ns_missing),
		    "cannot tell this namespace from the host's");
		return -1;
	}
	if (system("ip link add " VETH " type veth peer name " VETH_PEER
	    " >/dev/null 2>&1") != 0 ||
	    system("ip link set " VETH " mtu 1500 >/dev/null 2>&1") != 0) {
		snprintf(ns_missing, sizeof(ns_missing),
		    "ip link add ... type veth failed");
		return -1;
	}
	ns_has_macvlan = system("ip link add link " VETH " name " MACVLAN
	    " type macvlan >/dev/null 2>&1") == 0;
	snprintf(ns_rundir, sizeof(ns_rundir), "/tmp/gb-test-mtu-ns-XXXXXX");
	if (mkdtemp(ns_rundir) == NULL) {
		snprintf(ns_missing, sizeof(ns_missing), "mkdtemp: %s",
		    strerror(errno));
		ns_rundir[0] = '\0';
		return -1;
	}
	return 0;
}

/* The CI environment variable says this is a CI run ("", "false", "0": no). */
static int
in_ci(void)
{
	const char	*ci = getenv("CI");

	return ci != NULL && ci[0] != '\0' && strcmp(ci, "false") != 0 &&
	    strcmp(ci, "0") != 0;
}

/*
 * Stands in for a namespace case that cannot run: a skip, counted as one
 * by cmocka, or under CI a failure naming what was missing (issue 13).
 */
static void
test_ns_cannot_run(void **state)
{
	(void)state;
	if (in_ci())
		fail_msg("cannot run the namespace case: %s (CI is set)",
		    ns_missing);
	print_message("cannot run the namespace case: %s; skipped\n",
	    ns_missing);
	skip();
}

int
main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_parse_small_buffer),
		cmocka_unit_test(test_rundir_env),
		cmocka_unit_test(test_rundir_refused),
		cmocka_unit_test(test_rundir_not_ours),
		cmocka_unit_test(test_change_refused),
		cmocka_unit_test(test_journals_left),
	};
	struct CMUnitTest netns[] = {
		cmocka_unit_test_setup_teardown(test_ns_change_restore,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_same_mtu,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_refused_by_driver,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_journal_exists,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_signals,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_crash,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_loopback,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_restore_journals,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_journal_in_use,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_signal_actions,
		    ns_setup, ns_teardown),
		cmocka_unit_test_setup_teardown(test_ns_no_privilege,
		    ns_setup, ns_teardown),
		cmocka_unit_test(test_rundir_selection),
	};
	size_t	i;
	int	failed;

	/*
	 * The tests check that the handlers are put back to SIG_DFL, so
	 * they start from it: a shell without job control starts
	 * background jobs (make check &) with SIGINT ignored, and an
	 * ignored signal is one mtu.c leaves alone.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	failed = cmocka_run_group_tests_name("mtu", unit, NULL, NULL);
	if (geteuid() != 0)
		snprintf(ns_missing, sizeof(ns_missing),
		    "MTU changes in a network namespace need root");
	else
		(void)ns_enter();
	if (ns_missing[0] != '\0') {
		/* Each namespace case, by its name, is a skip (a failure in CI). */
		for (i = 0; i < sizeof(netns) / sizeof(netns[0]); i++) {
			if (netns[i].setup_func != ns_setup)
				continue;
			netns[i].test_func = test_ns_cannot_run;
			netns[i].setup_func = NULL;
			netns[i].teardown_func = NULL;
		}
	}
	failed += cmocka_run_group_tests_name("mtu_netns", netns,
	    ns_group_setup, ns_group_teardown);
	if (ns_rundir[0] != '\0')
		rm_tree(ns_rundir);
	return failed;
}
