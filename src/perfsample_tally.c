/*
 * perfsample_tally.c: the sampler's counts (perfsample_internal.h),
 * without the kernel: one ring's records drained into a tally, the
 * tally's two tables (kernel samples by instruction address, user
 * samples by pid, named from PROCFS/PID/comm when first seen) and the
 * counts made of it, the names merged.  perfsample.c owns the events,
 * the rings and the thread that calls this; nothing here reads a clock,
 * prints or exits.
 *
 * Classification by the sample's cpumode (header.misc):
 *   user                       user, by pid
 *   guest kernel, guest user   user, by pid: the instruction address is
 *                              the guest's and means nothing to the
 *                              host's kallsyms, but the pid is the
 *                              vCPU thread's, so a guest's time counts
 *                              for the process that runs it (qemu)
 *   kernel, hypervisor, other  kernel, by ip (an ip that is no kernel
 *                              text is kallsyms.c's "unknown")
 * except that a sample of pid 0 that is not user is idle: the idle
 * task (swapper/N) is pid 0, and nothing else is in the kernel as pid 0
 * but tasks outside our pid namespace, which perf also reports as pid 0
 * (sample from the host's pid namespace).  A user sample of pid 0 can
 * only be such a task: user, named "?".
 */
#include <linux/perf_event.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/perfsample.h"
#include "perfsample_internal.h"

#define PERFSAMPLE_TABLE_MIN	256	/* slots when a table is first used */
#define PERFSAMPLE_PATH_MAX	4096
/* The largest record read whole; longer ones are read in part. */
#define PERFSAMPLE_REC_MAX	64

void
perfsample_tally_init(struct perfsample_tally *t, const char *procroot)
{
	memset(t, 0, sizeof(*t));
	t->procroot = procroot;
}

void
perfsample_tally_free(struct perfsample_tally *t)
{
	free(t->ips.slot);
	free(t->pids.slot);
	perfsample_tally_init(t, t->procroot);
}

/* A 64-bit mix (MurmurHash3's finalizer): ips differ in their low bits. */
static size_t
perfsample_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (size_t)k;
}

/* The slot of key, or the empty one where it would go. */
static struct perfsample_slot *
perfsample_table_slot(const struct perfsample_table *tb, uint64_t key)
{
	size_t	mask = tb->cap - 1, i;

	for (i = perfsample_hash(key) & mask; tb->slot[i].n != 0;
	    i = (i + 1) & mask)
		if (tb->slot[i].key == key)
			break;
	return &tb->slot[i];
}

static int
perfsample_table_grow(struct perfsample_table *tb)
{
	struct perfsample_table	 nt;
	size_t			 i;

	nt.cap = tb->cap == 0 ? PERFSAMPLE_TABLE_MIN : tb->cap * 2;
	nt.used = tb->used;
	if ((nt.slot = calloc(nt.cap, sizeof(*nt.slot))) == NULL)
		return -1;
	for (i = 0; i < tb->cap; i++)
		if (tb->slot[i].n != 0)
			*perfsample_table_slot(&nt, tb->slot[i].key) =
			    tb->slot[i];
	free(tb->slot);
	*tb = nt;
	return 0;
}

/*
 * The slot of key, added (n 0, for the caller to count) when new; NULL
 * when the table had to grow and could not.
 */
static struct perfsample_slot *
perfsample_table_get(struct perfsample_table *tb, uint64_t key)
{
	struct perfsample_slot	*s;

	if (tb->cap != 0 && (s = perfsample_table_slot(tb, key))->n != 0)
		return s;
	if ((tb->used + 1) * 2 > tb->cap && perfsample_table_grow(tb) == -1)
		return NULL;
	s = perfsample_table_slot(tb, key);
	s->key = key;
	tb->used++;
	return s;
}

void
perfsample_comm_read(const char *procroot, uint32_t pid, char comm[16])
{
	char	 path[PERFSAMPLE_PATH_MAX];
	FILE	*fp;
	size_t	 n = 0;

	snprintf(path, sizeof(path), "%s/%u/comm", procroot, (unsigned)pid);
	if ((fp = fopen(path, "re")) != NULL) {
		n = fread(comm, 1, 15, fp);	/* TASK_COMM_LEN - 1 */
		fclose(fp);
	}
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	if (comm[0] == '\0')
		snprintf(comm, 16, "pid %u", (unsigned)pid);
}

static void
perfsample_sample(struct perfsample_tally *t, unsigned mode, uint64_t ip,
    uint32_t pid)
{
	struct perfsample_slot	*s;
	int			 user;

	user = mode == PERF_RECORD_MISC_USER ||
	    mode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    mode == PERF_RECORD_MISC_GUEST_USER;
	if (pid == 0 && !user) {
		t->idle++;
		return;
	}
	s = perfsample_table_get(user ? &t->pids : &t->ips, user ? pid : ip);
	if (s == NULL) {
		t->nomem = 1;
		return;
	}
	if (user && s->n == 0) {
		if (pid == 0)
			snprintf(s->comm, sizeof(s->comm), "?");
		else
			perfsample_comm_read(t->procroot, pid, s->comm);
	}
	s->n++;
	if (user)
		t->user++;
	else
		t->kernel++;
}

/* One record, len bytes of it (all, or PERFSAMPLE_REC_MAX). */
static void
perfsample_record(struct perfsample_tally *t, const unsigned char *rec,
    size_t len)
{
	struct perfsample_rec_sample	s;
	struct perfsample_rec_lost	l;

	t->records++;
	memcpy(&s.h, rec, sizeof(s.h));
	if (s.h.type == PERF_RECORD_SAMPLE && len >= sizeof(s)) {
		memcpy(&s, rec, sizeof(s));
		perfsample_sample(t, s.h.misc & PERF_RECORD_MISC_CPUMODE_MASK,
		    s.ip, s.pid);
	} else if (s.h.type == PERF_RECORD_LOST && len >= sizeof(l)) {
		memcpy(&l, rec, sizeof(l));
		t->lost += l.lost;
	}
	/* THROTTLE, UNTHROTTLE: counted in records only. */
}

/* n bytes from the ring's position pos, across its end if need be. */
static void
perfsample_ring_copy(const struct perfsample_ring *r, uint64_t pos,
    void *dst, size_t n)
{
	size_t	off = (size_t)(pos & (r->size - 1)), first = r->size - off;

	if (first >= n) {
		memcpy(dst, r->data + off, n);
	} else {
		memcpy(dst, r->data + off, first);
		memcpy((unsigned char *)dst + first, r->data, n - first);
	}
}

/*
 * The kernel writes records, then data_head (with a barrier): the
 * acquire load pairs with it.  We read the records, then give their
 * room back by moving data_tail with a release store, so that the
 * kernel cannot overwrite a record before we have read it.  Records
 * are copied out (64 bytes at most, whatever their size): one may
 * straddle the end of the ring.
 */
void
perfsample_ring_drain(struct perfsample_ring *r, struct perfsample_tally *t)
{
	struct perf_event_header	h;
	unsigned char			rec[PERFSAMPLE_REC_MAX];
	uint64_t			head, tail;
	size_t				len;

	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	tail = r->meta->data_tail;	/* ours alone */
	while (head - tail >= sizeof(h)) {
		perfsample_ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail) {
			tail = head;	/* not a record: drop the rest */
			break;
		}
		len = h.size < sizeof(rec) ? h.size : sizeof(rec);
		perfsample_ring_copy(r, tail, rec, len);
		perfsample_record(t, rec, len);
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

/* By count, most first; then by address, so that the order is stable. */
static int
perfsample_ip_cmp(const void *a, const void *b)
{
	const struct perfsample_ip *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int
perfsample_name_cmp(const void *a, const void *b)
{
	const struct perfsample_comm *x = a, *y = b;

	return strcmp(x->comm, y->comm);
}

static int
perfsample_comm_cmp(const void *a, const void *b)
{
	const struct perfsample_comm *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

/* The pid table into c->comms, one entry per name. */
static int
perfsample_comms_make(const struct perfsample_table *tb,
    struct perfsample_counts *c)
{
	size_t	i, n = 0;

	if (tb->used == 0)
		return 0;
	if ((c->comms = calloc(tb->used, sizeof(*c->comms))) == NULL)
		return -1;
	for (i = 0; i < tb->cap; i++) {
		if (tb->slot[i].n == 0)
			continue;
		memcpy(c->comms[n].comm, tb->slot[i].comm,
		    sizeof(c->comms[n].comm));
		c->comms[n++].n = tb->slot[i].n;
	}
	qsort(c->comms, n, sizeof(*c->comms), perfsample_name_cmp);
	for (i = 0, c->ncomms = 0; i < n; i++) {
		if (c->ncomms > 0 && strcmp(c->comms[c->ncomms - 1].comm,
		    c->comms[i].comm) == 0)
			c->comms[c->ncomms - 1].n += c->comms[i].n;
		else
			c->comms[c->ncomms++] = c->comms[i];
	}
	qsort(c->comms, c->ncomms, sizeof(*c->comms), perfsample_comm_cmp);
	return 0;
}

int
perfsample_tally_counts(const struct perfsample_tally *t,
    struct perfsample_counts *c)
{
	size_t	i;

	c->ips = NULL;
	c->comms = NULL;
	c->nips = c->ncomms = 0;
	if (t->ips.used > 0) {
		if ((c->ips = calloc(t->ips.used, sizeof(*c->ips))) == NULL)
			return -1;
		for (i = 0; i < t->ips.cap; i++) {
			if (t->ips.slot[i].n == 0)
				continue;
			c->ips[c->nips].ip = t->ips.slot[i].key;
			c->ips[c->nips++].n = t->ips.slot[i].n;
		}
		qsort(c->ips, c->nips, sizeof(*c->ips), perfsample_ip_cmp);
	}
	if (perfsample_comms_make(&t->pids, c) == -1) {
		free(c->ips);
		c->ips = NULL;
		c->nips = 0;
		return -1;
	}
	return 0;
}
