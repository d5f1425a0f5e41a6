/*
 * cpuwrap - run a command and report the CPU time its processes used,
 * read from /proc/PID/stat just before each of them is reaped.
 *
 *	cpuwrap OUTFILE COMMAND [ARG...]
 *
 *	$ cc -O2 -o cpuwrap bench/cpuwrap.c
 *	$ ./cpuwrap /tmp/cpu ./bareloop -l 1M -T 2 >/dev/null; cat /tmp/cpu
 *	procs=1 utime_ticks=0 stime_ticks=86 cutime_ticks=0 cstime_ticks=193
 *	clk_tck=100 cpu_s=2.790000 ru_cpu_s=2.796431 maxrss_kib=2816 status=0
 *
 * (one line in the file; bareloop's receiver is the process, its sender a
 * child it reaps itself, hence cstime)
 *
 * The benchmark (bench/run.sh) runs every tool's sender and receiver
 * under this wrapper, so that the CPU cost of gigebench, iperf3, nuttcp,
 * iperf and the bare loop is taken by one method, not from each tool's
 * own report.  The method:
 *
 * - The wrapper makes itself a child subreaper (PR_SET_CHILD_SUBREAPER),
 *   so that a tool that daemonizes or forks workers (nuttcp -1 does both)
 *   leaves every process of its tree to be reaped here.
 * - waitid(WNOWAIT) returns when a process has exited but before it is
 *   reaped.  Its /proc/PID/stat is then still readable and final:
 *   utime and stime (fields 14, 15) sum all of its threads, cutime and
 *   cstime (16, 17) every child it reaped itself.  Their sum over every
 *   process reaped here is the tree's CPU time, each counted once.
 * - The rusage that wait4() returns for the same process is added up too
 *   (ru_cpu_s) as a cross-check at microsecond resolution; the two agree
 *   to a clock tick per process.  Its ru_maxrss, the process's peak
 *   resident size, gives maxrss_kib: the largest of the tree's processes
 *   (bench/memory.sh reads it).
 *
 * SIGINT, SIGTERM and SIGHUP sent to the wrapper are passed on to its
 * children (found by their PPid, so daemons reparented here get them
 * too); the wrapper then keeps waiting and still writes OUTFILE.  It
 * exits with the status of the command (128 + signal if it was killed,
 * 127 if it could not be run).
 *
 * What it must not do: write anything to stdout or stderr on success
 * (they belong to the command), or leave a process of the tree behind.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cpu_total {
	int			 procs;
	unsigned long long	 ticks[4];	/* utime stime cutime cstime */
	double			 ru_s;
	long			 maxrss_kib;	/* largest ru_maxrss */
};

static volatile sig_atomic_t forward_sig;
static volatile pid_t command_pid;	/* 0 once reaped */

/*
 * The handler passes the signal to the command at once (kill() is
 * async-signal-safe), which also ends a waitid() that the signal did not
 * interrupt; the main loop then passes it to the other children.
 */
static void
signal_note(int sig)
{
	forward_sig = sig;
	if (command_pid > 0)
		kill(command_pid, sig);
}

/* stat_read_ticks: fields 14-17 of /proc/PID/stat into ticks[4]. */
static int
stat_read_ticks(pid_t pid, unsigned long long ticks[4])
{
	char path[64], buf[4096], *p;
	unsigned long long v[15];
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: fields start after the last ')' */
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	p++;
	/* field 3 (state) is a letter; skip it, then read fields 4-17 */
	while (*p == ' ')
		p++;
	if (*p == '\0')
		return -1;
	p++;
	for (i = 0; i < 14; i++) {
		char *end;

		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (end == p || errno != 0)
			return -1;
		p = end;
	}
	for (i = 0; i < 4; i++)
		ticks[i] = v[10 + i];
	return 0;
}

/* children_signal: sends sig to every process whose parent is us. */
static void
children_signal(int sig)
{
	char path[288], buf[512], *p;
	struct dirent *de;
	pid_t self = getpid();
	DIR *d;
	FILE *f;

	if ((d = opendir("/proc")) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t n;
		int ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		if ((p = strrchr(buf, ')')) == NULL ||
		    sscanf(p + 1, " %*c %d", &ppid) != 1)
			continue;
		if (ppid == self)
			kill((pid_t)atoi(de->d_name), sig);
	}
	closedir(d);
}

/* reap_all: waits for every process of the tree; returns the command's status. */
static int
reap_all(pid_t cmd, struct cpu_total *t)
{
	int cmd_status = -1;

	for (;;) {
		unsigned long long ticks[4];
		struct rusage ru;
		siginfo_t si;
		int status, i;
		pid_t pid;

		if (forward_sig != 0) {
			int sig = forward_sig;

			forward_sig = 0;
			children_signal(sig);
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) == -1) {
			if (errno == EINTR)
				continue;
			break;		/* ECHILD: the tree is gone */
		}
		pid = si.si_pid;
		if (pid == cmd)
			command_pid = 0;	/* a zombie still: no reuse yet */
		if (stat_read_ticks(pid, ticks) == 0) {
			for (i = 0; i < 4; i++)
				t->ticks[i] += ticks[i];
		}
		while (wait4(pid, &status, 0, &ru) == -1) {
			if (errno != EINTR)
				return cmd_status;
		}
		t->procs++;
		t->ru_s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		if (ru.ru_maxrss > t->maxrss_kib)
			t->maxrss_kib = ru.ru_maxrss;
		if (pid == cmd) {
			if (WIFEXITED(status))
				cmd_status = WEXITSTATUS(status);
			else if (WIFSIGNALED(status))
				cmd_status = 128 + WTERMSIG(status);
		}
	}
	return cmd_status;
}

int
main(int argc, char *argv[])
{
	struct cpu_total t;
	struct sigaction sa;
	long hz = sysconf(_SC_CLK_TCK);
	pid_t cmd;
	FILE *out;
	int status;

	if (argc < 3) {
		fprintf(stderr, "usage: cpuwrap outfile command [arg ...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) == -1) {
		perror("cpuwrap: PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signal_note;	/* no SA_RESTART: waitid must see EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	switch (cmd = fork()) {
	case -1:
		perror("cpuwrap: fork");
		return 2;
	case 0:
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "cpuwrap: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	command_pid = cmd;
	memset(&t, 0, sizeof(t));
	status = reap_all(cmd, &t);

	if ((out = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	fprintf(out, "procs=%d utime_ticks=%llu stime_ticks=%llu "
	    "cutime_ticks=%llu cstime_ticks=%llu clk_tck=%ld cpu_s=%.6f "
	    "ru_cpu_s=%.6f maxrss_kib=%ld status=%d\n", t.procs, t.ticks[0],
	    t.ticks[1], t.ticks[2], t.ticks[3], hz,
	    (double)(t.ticks[0] + t.ticks[1] + t.ticks[2] + t.ticks[3]) / hz,
	    t.ru_s, t.maxrss_kib, status);
	if (fclose(out) == EOF) {
		perror(argv[1]);
		return 2;
	}
	return status < 0 ? 2 : status;
}
