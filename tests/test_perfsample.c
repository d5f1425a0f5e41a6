/*
 * test_perfsample.c: --profile's sampler.  Without the kernel: rings
 * laid out by hand as perf's mmap (records straddling the end, a loss,
 * a throttle, a broken header), the classification, names from
 * tests/fixtures/perfsample/ merged, a table grown to thousands of
 * addresses, the event picked from how cycles' open went (no PMU:
 * cpu-clock), the reasons for a refused perf_event_open(2).  With it (root,
 * or perf_event_paranoid at 0 or less; skipped otherwise, with the
 * reason): all CPUs at 997 Hz while this process spins in user space and
 * then reads /dev/zero, a start freed without a stop, a stop twice.
 * Without it (not root, or a child of root that becomes nobody): the
 * refusal, naming the sysctl read under the root given.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <linux/perf_event.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/perfsample.h"
#include "perfsample_internal.h"

#define FIX	"tests/fixtures/perfsample/"
#define KIP	0xffffffff81a00010ULL

/* A ring of size bytes in ordinary memory, its tail at pos. */
struct fake {
	struct perf_event_mmap_page	*meta;
	unsigned char			*data;
	struct perfsample_ring		 ring;
	uint64_t			 head;
};

static void
fake_init(struct fake *f, size_t size, uint64_t pos)
{
	f->meta = calloc(1, sizeof(*f->meta));
	f->data = calloc(1, size);
	assert_non_null(f->meta);
	assert_non_null(f->data);
	f->ring.meta = f->meta;
	f->ring.data = f->data;
	f->ring.size = size;
	f->meta->data_tail = f->meta->data_head = f->head = pos;
}

static void
fake_free(struct fake *f)
{
	free(f->meta);
	free(f->data);
}

static void
fake_put(struct fake *f, const void *rec, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		f->data[(f->head + i) & (f->ring.size - 1)] =
		    ((const unsigned char *)rec)[i];
	f->head += n;
}

static void
fake_sample(struct fake *f, unsigned mode, uint64_t ip, uint32_t pid)
{
	struct perfsample_rec_sample	s;

	memset(&s, 0, sizeof(s));
	s.h.type = PERF_RECORD_SAMPLE;
	s.h.misc = (uint16_t)mode;
	s.h.size = sizeof(s);
	s.ip = ip;
	s.pid = s.tid = pid;
	fake_put(f, &s, sizeof(s));
}

/* Publish what was put and drain it: the tail meets the head. */
static void
fake_drain(struct fake *f, struct perfsample_tally *t)
{
	f->meta->data_head = f->head;
	perfsample_ring_drain(&f->ring, t);
	assert_true(f->meta->data_tail == f->head);
}

static void
test_ring_records(void **state)
{
	struct perfsample_tally		t;
	struct perfsample_counts	c;
	struct perfsample_rec_lost	l;
	struct perf_event_header	h;
	unsigned char			junk[32];
	struct fake			f;

	(void)state;
	perfsample_tally_init(&t, FIX "proc");
	/* Round 1 from 112 of 128: the first record straddles the end. */
	fake_init(&f, 128, 112);
	fake_sample(&f, PERF_RECORD_MISC_KERNEL, KIP, 4242);
	fake_sample(&f, PERF_RECORD_MISC_KERNEL, KIP, 1);
	fake_sample(&f, PERF_RECORD_MISC_KERNEL, KIP + 8, 0);	/* idle */
	fake_sample(&f, PERF_RECORD_MISC_USER, 0x401000, 4242);
	fake_sample(&f, PERF_RECORD_MISC_USER, 0x401000, 4243);
	fake_drain(&f, &t);
	assert_true(t.records == 5 && t.idle == 1 && t.kernel == 2 &&
	    t.user == 2);
	/* Round 2: a record ends at the end, guests, a loss. */
	fake_sample(&f, PERF_RECORD_MISC_USER, 0x401000, 77);
	fake_sample(&f, PERF_RECORD_MISC_GUEST_KERNEL, KIP, 4244);
	fake_sample(&f, PERF_RECORD_MISC_USER, 0x401000, 0);
	memset(&l, 0, sizeof(l));
	l.h.type = PERF_RECORD_LOST;
	l.h.size = sizeof(l);
	l.lost = 5;
	fake_put(&f, &l, sizeof(l));
	fake_drain(&f, &t);
	/* Round 3: a throttle (counted only), then a header of size 0. */
	memset(junk, 0xa5, sizeof(junk));
	memset(&h, 0, sizeof(h));
	h.type = PERF_RECORD_THROTTLE;
	h.size = sizeof(junk);
	memcpy(junk, &h, sizeof(h));
	fake_put(&f, junk, sizeof(junk));
	h.size = 0;
	fake_put(&f, &h, sizeof(h));
	fake_put(&f, junk, 8);
	fake_drain(&f, &t);
	assert_true(t.records == 10 && t.idle == 1 && t.kernel == 2 &&
	    t.user == 5 && t.lost == 5);

	assert_int_equal(perfsample_tally_counts(&t, &c), 0);
	assert_int_equal(c.nips, 1);
	assert_true(c.ips[0].ip == KIP && c.ips[0].n == 2);
	/* 4242 and 4243 merged; then by count, by name. */
	assert_int_equal(c.ncomms, 4);
	assert_string_equal(c.comms[0].comm, "fixture-comm");
	assert_true(c.comms[0].n == 2);
	assert_string_equal(c.comms[1].comm, "?");
	assert_string_equal(c.comms[2].comm, "fifteen-chars-x");
	assert_string_equal(c.comms[3].comm, "pid 77");
	perfsample_counts_free(&c);
	perfsample_tally_free(&t);
	fake_free(&f);
}

/* 5,000 addresses, each seen twice, through a 4 KiB ring. */
static void
test_ring_many(void **state)
{
	struct perfsample_tally		t;
	struct perfsample_counts	c;
	struct fake			f;
	uint64_t			sum = 0;
	unsigned			i, round;
	size_t				k;

	(void)state;
	perfsample_tally_init(&t, FIX "proc");
	fake_init(&f, 4096, 4000);
	for (round = 0; round < 2; round++)
		for (i = 0; i < 5000; i++) {
			fake_sample(&f, PERF_RECORD_MISC_KERNEL,
			    KIP + 16 * (uint64_t)i, 1);
			if (i % 100 == 99)
				fake_drain(&f, &t);
		}
	assert_true(t.kernel == 10000 && t.records == 10000);
	assert_int_equal(perfsample_tally_counts(&t, &c), 0);
	assert_int_equal(c.nips, 5000);
	assert_int_equal(c.ncomms, 0);
	assert_null(c.comms);
	for (k = 0; k < c.nips; k++) {
		assert_true(c.ips[k].n == 2);
		sum += c.ips[k].n;
		if (k > 0)	/* equal counts: by address */
			assert_true(c.ips[k - 1].ip < c.ips[k].ip);
	}
	assert_true(sum == 10000);
	perfsample_counts_free(&c);
	assert_null(c.ips);
	perfsample_counts_free(&c);	/* a zeroed struct */
	perfsample_tally_free(&t);
	fake_free(&f);
}

/* /proc/self/comm, read here: "test_perfsample" (valgrind's own else). */
static void
self_comm(char comm[16])
{
	FILE	*fp = fopen("/proc/self/comm", "re");

	assert_non_null(fp);
	assert_non_null(fgets(comm, 16, fp));
	fclose(fp);
	comm[strcspn(comm, "\n")] = '\0';
}

static void
test_comm_read(void **state)
{
	char	comm[16], self[16];

	(void)state;
	perfsample_comm_read(FIX "proc", 4242, comm);
	assert_string_equal(comm, "fixture-comm");
	perfsample_comm_read(FIX "proc", 4244, comm);
	assert_string_equal(comm, "fifteen-chars-x");
	perfsample_comm_read(FIX "proc", 4294967295U, comm);
	assert_string_equal(comm, "pid 4294967295");
	perfsample_comm_read("/proc", (uint32_t)getpid(), comm);
	self_comm(self);
	assert_string_equal(comm, self);
}

static void
test_open_error(void **state)
{
	char	err[256];

	(void)state;
	perfsample_open_error(FIX "proc", "cycles", 0, EACCES, err,
	    sizeof(err));
	assert_string_equal(err, "perf_event_paranoid is 2: system-wide "
	    "sampling needs root or CAP_PERFMON (or the sysctl at 0 or less)");
	perfsample_open_error(FIX "proc", "cycles", 0, EPERM, err,
	    sizeof(err));
	assert_non_null(strstr(err, "perf_event_paranoid is 2:"));
	/* Refused although the sysctl allows it: something else. */
	perfsample_open_error(FIX "proc-open", "cpu-clock", 1, EPERM, err,
	    sizeof(err));
	assert_non_null(strstr(err, "perf_event_paranoid is -1"));
	assert_non_null(strstr(err, "seccomp"));
	/* The sysctl unreadable. */
	perfsample_open_error(FIX "nowhere", "cycles", 0, EACCES, err,
	    sizeof(err));
	assert_string_equal(err, "perf_event_open: Permission denied: "
	    "system-wide sampling needs root or CAP_PERFMON (or "
	    "perf_event_paranoid at 0 or less)");
	perfsample_open_error(FIX "proc", "cpu-clock", 3, ENODEV, err,
	    sizeof(err));
	assert_string_equal(err, "perf_event_open of cpu-clock on CPU 3: "
	    "No such device");
}

/* How cycles' open went, and the event that is then sampled. */
static const struct {
	int	rc, at_open, e;
	enum perfsample_pick pick;
} picks[] = {
	{ 0, 0, 0, PERFSAMPLE_PICK_CYCLES },	/* a PMU: cycles ran */
	{ 0, 0, ENOENT, PERFSAMPLE_PICK_CYCLES },	/* errno stale */
	/* No PMU: a VM without one (this repository's CI), or no counter. */
	{ -1, 1, ENOENT, PERFSAMPLE_PICK_CLOCK },
	{ -1, 1, EOPNOTSUPP, PERFSAMPLE_PICK_CLOCK },
	{ -1, 1, ENODEV, PERFSAMPLE_PICK_CLOCK },
	/* Refusals cpu-clock would meet too: cycles' reason is given. */
	{ -1, 1, EACCES, PERFSAMPLE_PICK_FAIL },
	{ -1, 1, EPERM, PERFSAMPLE_PICK_FAIL },
	{ -1, 1, EMFILE, PERFSAMPLE_PICK_FAIL },
	{ -1, 1, EINVAL, PERFSAMPLE_PICK_FAIL },
	/* The open went, the ring's mmap did not: not the PMU's doing. */
	{ -1, 0, ENODEV, PERFSAMPLE_PICK_FAIL },
	{ -1, 0, EPERM, PERFSAMPLE_PICK_FAIL },
};

static void
test_event_pick(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
		if (perfsample_event_pick(picks[i].rc, picks[i].at_open,
		    picks[i].e) != picks[i].pick)
			fail_msg("case %zu (rc %d, at_open %d, %s): not %d", i,
			    picks[i].rc, picks[i].at_open,
			    strerror(picks[i].e), (int)picks[i].pick);
}

static void
test_start_refusals(void **state)
{
	char	err[256];

	(void)state;
	perfsample_free(NULL);
	err[0] = '\0';
	assert_null(perfsample_start("/proc", 0, err, sizeof(err)));
	assert_string_equal(err, "sampling rate is out of range (1 to 100000 "
	    "Hz): 0");
	assert_null(perfsample_start("/proc", 100001, err, sizeof(err)));
	/* No stat under the root: cpustat's reason. */
	assert_null(perfsample_start(FIX "nowhere", 997, err, sizeof(err)));
	assert_non_null(strstr(err, FIX "nowhere/stat"));
}

static int
can_sample(void)
{
	FILE	*fp;
	int	 level = 2;

	if (geteuid() == 0)
		return 1;
	if ((fp = fopen("/proc/sys/kernel/perf_event_paranoid", "re")) !=
	    NULL) {
		if (fscanf(fp, "%d", &level) != 1)
			level = 2;
		fclose(fp);
	}
	if (level <= 0)
		return 1;
	print_message("not root and perf_event_paranoid is %d: no "
	    "system-wide sampling; skipped\n", level);
	return 0;
}

static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
spin_user(double s)
{
	volatile uint64_t	x = 0;
	double			end = now_s() + s;
	unsigned		i;

	while (now_s() < end)	/* the vDSO: user space */
		for (i = 0; i < 100000; i++)
			x = x * 6364136223846793005ULL + 1;
}

static void
spin_kernel(double s)
{
	size_t		 len = 1 << 20;
	char		*buf = malloc(len);
	double		 end = now_s() + s;
	int		 fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	assert_non_null(buf);
	assert_true(fd >= 0);
	while (now_s() < end)	/* clear_user(), in the kernel */
		assert_int_equal(read(fd, buf, len), (ssize_t)len);
	close(fd);
	free(buf);
}

static void
test_live(void **state)
{
	struct perfsample_counts	 c;
	struct perfsample		*ps;
	char				 err[256], self[16];
	size_t				 i, found = 0;

	(void)state;
	if (!can_sample())
		skip();
	ps = perfsample_start("/proc", 997, err, sizeof(err));
	if (ps == NULL)
		fail_msg("perfsample_start: %s", err);
	spin_user(0.3);
	spin_kernel(0.3);
	if (perfsample_stop(ps, &c, err, sizeof(err)) == -1)
		fail_msg("perfsample_stop: %s", err);
	perfsample_free(ps);
	print_message("%s, %u CPUs, %.3f s: %ju samples (%ju idle, %ju "
	    "kernel at %zu ips, %ju user in %zu processes), %ju lost, "
	    "%ju records, reader %.4f s\n", c.event, c.ncpus, c.seconds,
	    (uintmax_t)c.samples, (uintmax_t)c.idle, (uintmax_t)c.kernel,
	    c.nips, (uintmax_t)c.user, c.ncomms, (uintmax_t)c.lost,
	    (uintmax_t)c.records, c.cpu_s);
	assert_true(strcmp(c.event, "cycles") == 0 ||
	    strcmp(c.event, "cpu-clock") == 0);
	assert_int_equal(c.hz, 997);
	assert_int_equal(c.ncpus, sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(c.seconds >= 0.5 && c.seconds <= 3);
	assert_true(c.samples > 0);
	assert_true(c.samples == c.idle + c.kernel + c.user);
	assert_true(c.records >= c.samples);
	assert_true(c.user > 0 && c.kernel > 0 && c.nips > 0);
	assert_true(c.cpu_s >= 0);
	self_comm(self);
	for (i = 0; i < c.ncomms; i++)
		if (strcmp(c.comms[i].comm, self) == 0)
			found = c.comms[i].n;
	print_message("%s: %zu user samples\n", self, found);
	assert_true(found > 0);
	perfsample_counts_free(&c);
}

/* Freed while running (the caller's error paths), and stopped twice. */
static void
test_lifecycle(void **state)
{
	struct perfsample_counts	 c;
	struct perfsample		*ps;
	char				 err[256];

	(void)state;
	if (!can_sample())
		skip();
	ps = perfsample_start("/proc", 997, err, sizeof(err));
	if (ps == NULL)
		fail_msg("perfsample_start: %s", err);
	perfsample_free(ps);
	ps = perfsample_start("/proc", 4000, err, sizeof(err));
	if (ps == NULL)
		fail_msg("perfsample_start: %s", err);
	assert_int_equal(perfsample_stop(ps, &c, err, sizeof(err)), 0);
	perfsample_counts_free(&c);
	assert_int_equal(perfsample_stop(ps, &c, err, sizeof(err)), -1);
	assert_string_equal(err, "the profile's sampler is not running");
	assert_null(c.ips);
	perfsample_free(ps);
}

/*
 * 0 when perfsample_start() is refused with the fixture's value (2) in
 * the reason: the sysctl is read under the root given.  77 when it is
 * not refused (the kernel's sysctl allows this user).
 */
static int
refused(void)
{
	struct perfsample	*ps;
	char			 err[256];

	ps = perfsample_start(FIX "proc", 997, err, sizeof(err));
	if (ps != NULL) {
		perfsample_free(ps);
		return 77;
	}
	fprintf(stderr, "refused: %s\n", err);
	return strcmp(err, "perf_event_paranoid is 2: system-wide sampling "
	    "needs root or CAP_PERFMON (or the sysctl at 0 or less)") != 0;
}

/* Not root: here.  Root: in a child that becomes nobody. */
static void
test_refused_unprivileged(void **state)
{
	pid_t	pid;
	int	st;

	(void)state;
	if (geteuid() != 0) {
		st = refused();
	} else if ((pid = fork()) == 0) {
		if (setgid(65534) == -1 || setuid(65534) == -1)
			_exit(2);
		_exit(refused());
	} else {
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		st = WEXITSTATUS(st);
	}
	if (st == 77) {
		print_message("perf_event_paranoid allows nobody; skipped\n");
		skip();
	}
	assert_int_equal(st, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_records),
		cmocka_unit_test(test_ring_many),
		cmocka_unit_test(test_comm_read),
		cmocka_unit_test(test_open_error),
		cmocka_unit_test(test_event_pick),
		cmocka_unit_test(test_start_refusals),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_lifecycle),
		cmocka_unit_test(test_refused_unprivileged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
