/*
 * perfsample.c: --profile's sampler (host/perfsample.h).  One
 * perf_event_open(2) event per online CPU, system-wide (pid -1), each
 * with an mmap ring that a reader thread of ours drains into counts:
 * kernel samples by instruction address, user samples by pid (named
 * from PROCFS/PID/comm when first seen, merged by name at the end),
 * samples of the idle task as a number.  It owns the events, the rings,
 * the thread and the counts; it does not read symbols (kallsyms.c does,
 * after the test), print, or exit.
 *
 * The online CPUs are the cpuN lines of PROCFS/stat (cpustat.h): the
 * kernel prints a line for each online CPU and none for the others, and
 * it keeps the root tests can move.
 */
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/cpustat.h"
#include "host/perfsample.h"
#include "perfsample_internal.h"

#define PERFSAMPLE_HZ_MAX	100000U	/* perf_event_max_sample_rate's default */
#define PERFSAMPLE_POLL_MS	100	/* the reader drains at least this often */
/*
 * A ring holds PERFSAMPLE_RING_S seconds of samples at hz, in 8 to 256
 * pages: at 499 Hz, 8 pages (32 KiB) for 2.7 s.  The reader drains it
 * every 100 ms, so it may fall behind by a second and more (a starved
 * reader on a machine the test keeps busy) before the kernel drops
 * records and says so with PERF_RECORD_LOST.
 */
#define PERFSAMPLE_RING_S	2
#define PERFSAMPLE_PAGES_MIN	8
#define PERFSAMPLE_PAGES_MAX	256
#define PERFSAMPLE_PATH_MAX	4096

struct perfsample_event {
	const char	*name;
	uint32_t	 type;
	uint64_t	 config;
};

/*
 * Cycles where there is a PMU, else the timer (a VM without one):
 * perfsample_event_pick() says which, PERFSAMPLE_PICK_* indexes this.
 */
static const struct perfsample_event perfsample_events[] = {
	{ "cycles",	PERF_TYPE_HARDWARE,	PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-clock",	PERF_TYPE_SOFTWARE,	PERF_COUNT_SW_CPU_CLOCK },
};

struct perfsample_cpu {
	int			id;
	int			fd;
	void			*map;	/* MAP_FAILED: none */
	struct perfsample_ring	ring;
};

struct perfsample {
	char			*procroot;
	char			 event[16];
	unsigned		 hz;
	struct perfsample_cpu	*cpu;
	size_t			 ncpus;
	size_t			 page, map_bytes;
	struct pollfd		*pfd;	/* the rings, then wakefd */
	int			 wakefd;	/* eventfd: stop now */
	pthread_t		 reader;
	int			 reading;	/* the thread is to be joined */
	atomic_int		 stop;
	struct perfsample_tally	 tally;	/* the reader's until joined */
	double			 cpu_s;	/* the reader's, at its end */
	struct timespec		 t0;
};

/* procroot/sys/kernel/perf_event_paranoid; -1 when it cannot be read. */
static int
perfsample_paranoid_read(const char *procroot, int *level)
{
	char	 path[PERFSAMPLE_PATH_MAX];
	FILE	*fp;
	int	 r;

	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid",
	    procroot);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	r = fscanf(fp, "%d", level) == 1 ? 0 : -1;
	fclose(fp);
	return r;
}

void
perfsample_open_error(const char *procroot, const char *event, int cpu,
    int e, char *err, size_t errlen)
{
	int	level;

	if (e != EACCES && e != EPERM)
		snprintf(err, errlen, "perf_event_open of %s on CPU %d: %s",
		    event, cpu, strerror(e));
	else if (perfsample_paranoid_read(procroot, &level) == -1)
		snprintf(err, errlen, "perf_event_open: %s: system-wide "
		    "sampling needs root or CAP_PERFMON (or "
		    "perf_event_paranoid at 0 or less)", strerror(e));
	else if (level > 0)
		snprintf(err, errlen, "perf_event_paranoid is %d: system-wide "
		    "sampling needs root or CAP_PERFMON (or the sysctl at 0 "
		    "or less)", level);
	else
		snprintf(err, errlen, "perf_event_open of %s on CPU %d: %s "
		    "although perf_event_paranoid is %d: a seccomp filter "
		    "(a container's) or a security module refuses it",
		    event, cpu, strerror(e), level);
}

/* The reader thread. */

static void *
perfsample_reader(void *arg)
{
	struct perfsample	*ps = arg;
	struct timespec		 ts;
	size_t			 i;
	int			 stop;

	/*
	 * perfsample_stop() disables the events before it sets stop: the
	 * drain after stop is seen is the last, and finds every record.
	 */
	for (;;) {
		stop = atomic_load(&ps->stop);
		for (i = 0; i < ps->ncpus; i++)
			perfsample_ring_drain(&ps->cpu[i].ring, &ps->tally);
		if (stop)
			break;
		(void)poll(ps->pfd, ps->ncpus + 1, PERFSAMPLE_POLL_MS);
	}
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		ps->cpu_s = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return NULL;
}

static void
perfsample_reader_end(struct perfsample *ps)
{
	atomic_store(&ps->stop, 1);
	if (eventfd_write(ps->wakefd, 1) == -1) {
		/* Cannot fail below 2^64 - 1; the poll timeout would do. */
	}
	pthread_join(ps->reader, NULL);
	ps->reading = 0;
}

/* The thread, with every signal blocked: they are the main thread's. */
static int
perfsample_reader_start(struct perfsample *ps, char *err, size_t errlen)
{
	sigset_t	all, old;
	int		e;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&ps->reader, NULL, perfsample_reader, ps);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		snprintf(err, errlen, "profile reader thread: %s", strerror(e));
		return -1;
	}
	ps->reading = 1;
	return 0;
}

/* Opening. */

static int
perfsample_event_open(const struct perfsample_event *ev, int cpu,
    unsigned hz, size_t watermark)
{
	struct perf_event_attr	a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = ev->type;
	a.config = ev->config;
	a.freq = 1;
	a.sample_freq = hz;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.disabled = 1;		/* enabled together, once all are open */
	/*
	 * The poll timeout drains every ring ten times a second; the
	 * kernel wakes the reader early only when a ring is a quarter
	 * full (records faster than planned), not per record.
	 */
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)watermark;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
}

static void
perfsample_close_all(struct perfsample *ps)
{
	size_t	i;

	for (i = 0; i < ps->ncpus; i++) {
		if (ps->cpu[i].map != MAP_FAILED)
			munmap(ps->cpu[i].map, ps->map_bytes);
		if (ps->cpu[i].fd != -1)
			close(ps->cpu[i].fd);
		ps->cpu[i].map = MAP_FAILED;
		ps->cpu[i].fd = -1;
	}
}

/* Event ev and its ring on every CPU; -1 with errno and *failed. */
static int
perfsample_open_all(struct perfsample *ps, const struct perfsample_event *ev,
    size_t *failed)
{
	struct perfsample_cpu	*c;
	size_t			 data = ps->map_bytes - ps->page;

	for (*failed = 0; *failed < ps->ncpus; (*failed)++) {
		c = &ps->cpu[*failed];
		c->fd = perfsample_event_open(ev, c->id, ps->hz, data / 4);
		if (c->fd == -1)
			return -1;
		/* Writable: data_tail is ours to move (else the ring
		 * would be overwritten without a word of loss). */
		c->map = mmap(NULL, ps->map_bytes, PROT_READ | PROT_WRITE,
		    MAP_SHARED, c->fd, 0);
		if (c->map == MAP_FAILED)
			return -1;
		c->ring.meta = c->map;
		c->ring.data = (const unsigned char *)c->map + ps->page;
		c->ring.size = data;
		ps->pfd[*failed].fd = c->fd;
		ps->pfd[*failed].events = POLLIN;
	}
	return 0;
}

enum perfsample_pick
perfsample_event_pick(int cycles_rc, int at_open, int e)
{
	if (cycles_rc == 0)
		return PERFSAMPLE_PICK_CYCLES;
	/*
	 * What perf_event_open(2) says when the hardware event is not
	 * there: ENOENT (no PMU driver takes PERF_TYPE_HARDWARE, a VM
	 * without a virtual PMU), EOPNOTSUPP (the PMU cannot sample, as
	 * in a guest whose PMU counts but has no overflow interrupt),
	 * ENODEV (no such counter on this CPU).  Any other errno, or a
	 * ring that mmap(2) refused, is not about the PMU: cpu-clock
	 * would fail the same way, so cycles' reason is the one given.
	 */
	if (at_open && (e == ENOENT || e == EOPNOTSUPP || e == ENODEV))
		return PERFSAMPLE_PICK_CLOCK;
	return PERFSAMPLE_PICK_FAIL;
}

static int
perfsample_open(struct perfsample *ps, char *err, size_t errlen)
{
	const struct perfsample_event	*ev = &perfsample_events[0];
	size_t				 failed;
	int				 rc, e;

	rc = perfsample_open_all(ps, ev, &failed);
	e = errno;
	if (perfsample_event_pick(rc, rc == -1 && ps->cpu[failed].fd == -1,
	    e) == PERFSAMPLE_PICK_CLOCK) {
		perfsample_close_all(ps);	/* no cycles: no PMU */
		ev = &perfsample_events[1];
		rc = perfsample_open_all(ps, ev, &failed);
		e = errno;
	}
	if (rc == 0) {
		snprintf(ps->event, sizeof(ps->event), "%s", ev->name);
		return 0;
	}
	if (ps->cpu[failed].fd == -1)
		perfsample_open_error(ps->procroot, ev->name,
		    ps->cpu[failed].id, e, err, errlen);
	else
		snprintf(err, errlen, "perf ring of CPU %d (%zu KiB): %s%s",
		    ps->cpu[failed].id, ps->map_bytes / 1024, strerror(e),
		    e == EPERM ? " (perf_event_mlock_kb)" : "");
	return -1;
}

/* The sampler before its events: the CPUs, the arrays, the eventfd. */
static struct perfsample *
perfsample_new(const char *procroot, unsigned hz, char *err, size_t errlen)
{
	struct perfsample	*ps;
	struct cpustat		 cs;
	size_t			 i, pages;

	cpustat_init(&cs);
	if (cpustat_read(procroot, &cs, err, errlen) == -1)
		return NULL;
	if (cs.ncpus == 0) {
		snprintf(err, errlen, "%s/stat names no CPU", procroot);
		cpustat_free(&cs);
		return NULL;
	}
	if ((ps = calloc(1, sizeof(*ps))) == NULL ||
	    (ps->cpu = calloc(cs.ncpus, sizeof(*ps->cpu))) == NULL ||
	    (ps->pfd = calloc(cs.ncpus + 1, sizeof(*ps->pfd))) == NULL ||
	    (ps->procroot = strdup(procroot)) == NULL) {
		snprintf(err, errlen, "profile: %s", strerror(ENOMEM));
		if (ps != NULL) {
			free(ps->cpu);
			free(ps->pfd);
			free(ps);
		}
		cpustat_free(&cs);
		return NULL;
	}
	ps->wakefd = -1;
	ps->ncpus = cs.ncpus;
	for (i = 0; i < ps->ncpus; i++) {
		ps->cpu[i].id = cs.cpu[i].id;
		ps->cpu[i].fd = -1;
		ps->cpu[i].map = MAP_FAILED;
	}
	cpustat_free(&cs);
	ps->hz = hz;
	ps->page = (size_t)sysconf(_SC_PAGESIZE);
	for (pages = PERFSAMPLE_PAGES_MIN; pages < PERFSAMPLE_PAGES_MAX &&
	    pages * ps->page < (size_t)hz * PERFSAMPLE_RING_S *
	    sizeof(struct perfsample_rec_sample); pages *= 2)
		continue;
	ps->map_bytes = (1 + pages) * ps->page;
	atomic_init(&ps->stop, 0);
	perfsample_tally_init(&ps->tally, ps->procroot);
	return ps;
}

struct perfsample *
perfsample_start(const char *procroot, unsigned hz, char *err,
    size_t errlen)
{
	struct perfsample	*ps;
	size_t			 i;

	if (hz == 0 || hz > PERFSAMPLE_HZ_MAX) {
		snprintf(err, errlen, "sampling rate is out of range (1 to %u "
		    "Hz): %u", PERFSAMPLE_HZ_MAX, hz);
		return NULL;
	}
	if ((ps = perfsample_new(procroot, hz, err, errlen)) == NULL)
		return NULL;
	ps->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ps->wakefd == -1) {
		snprintf(err, errlen, "profile eventfd: %s", strerror(errno));
		goto fail;
	}
	ps->pfd[ps->ncpus].fd = ps->wakefd;
	ps->pfd[ps->ncpus].events = POLLIN;
	if (perfsample_open(ps, err, errlen) == -1)
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &ps->t0);
	for (i = 0; i < ps->ncpus; i++)
		if (ioctl(ps->cpu[i].fd, PERF_EVENT_IOC_ENABLE, 0) == -1) {
			snprintf(err, errlen, "enabling %s on CPU %d: %s",
			    ps->event, ps->cpu[i].id, strerror(errno));
			goto fail;
		}
	if (perfsample_reader_start(ps, err, errlen) == -1)
		goto fail;
	return ps;
fail:
	perfsample_free(ps);
	return NULL;
}

int
perfsample_stop(struct perfsample *ps, struct perfsample_counts *c,
    char *err, size_t errlen)
{
	struct timespec	t1;
	size_t		i;

	memset(c, 0, sizeof(*c));
	if (!ps->reading) {
		snprintf(err, errlen, "the profile's sampler is not running");
		return -1;
	}
	/* Cannot fail on an fd of ours; the last drain would count on. */
	for (i = 0; i < ps->ncpus; i++)
		(void)ioctl(ps->cpu[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	perfsample_reader_end(ps);
	if (ps->tally.nomem || perfsample_tally_counts(&ps->tally, c) == -1) {
		snprintf(err, errlen, "profile: %s", strerror(ENOMEM));
		return -1;
	}
	snprintf(c->event, sizeof(c->event), "%s", ps->event);
	c->hz = ps->hz;
	c->ncpus = (unsigned)ps->ncpus;
	c->seconds = (double)(t1.tv_sec - ps->t0.tv_sec) +
	    (double)(t1.tv_nsec - ps->t0.tv_nsec) / 1e9;
	c->idle = ps->tally.idle;
	c->kernel = ps->tally.kernel;
	c->user = ps->tally.user;
	c->samples = c->idle + c->kernel + c->user;
	c->lost = ps->tally.lost;
	c->records = ps->tally.records;
	c->cpu_s = ps->cpu_s;
	return 0;
}

void
perfsample_free(struct perfsample *ps)
{
	if (ps == NULL)
		return;
	if (ps->reading)
		perfsample_reader_end(ps);
	perfsample_close_all(ps);
	if (ps->wakefd != -1)
		close(ps->wakefd);
	perfsample_tally_free(&ps->tally);
	free(ps->cpu);
	free(ps->pfd);
	free(ps->procroot);
	free(ps);
}

void
perfsample_counts_free(struct perfsample_counts *c)
{
	free(c->ips);
	free(c->comms);
	memset(c, 0, sizeof(*c));
}
