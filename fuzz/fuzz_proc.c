/*
 * fuzz_proc.c: libFuzzer target for the pure parsers of host text: every
 * /proc and /sys parser (through fmemopen, as the unit tests feed them),
 * the MTU journal, --sweep lists and size/duration/rate units; and, as
 * the one parser of bytes from the wire outside the protocol, the frame
 * classifier of --capture.
 *
 * Input: a sample, optionally a NUL byte and a second sample.  Parsers of
 * counters that are diffed (/proc/stat, /proc/interrupts) read the first
 * as "before" and the second (or the first again) as "after", and the
 * pure code downstream runs on the pair as in a test: cpustat_diff(),
 * irqline_select(), irqline_diff(), irqline_report(), and the spread's
 * spread_cpus() on the pair read as /proc/stat and /proc/softirqs.  Every other parser
 * reads the first sample; the frame classifier reads the whole input as
 * one frame of each link type it knows.  Running them all on each input
 * keeps the seeds plain copies of real files.
 *
 * Oracles beyond the sanitizers: a failed sweep_parse() leaves the sweep
 * as it was; a successful parse leaves its counts within their caps.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "host/capture.h"
#include "host/context.h"
#include "host/cpustat.h"
#include "host/irqline.h"
#include "host/irqstat.h"
#include "host/mtu.h"
#include "host/netif.h"
#include "host/spread.h"
#include "base/sweep.h"
#include "base/units.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A sample: heap bytes of exactly its length, plus a C-string copy. */
struct sample {
	char	*bytes;
	size_t	 len;
	char	*str;
};

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz_proc: %s\n", what);
	abort();
}

static void
sample_init(struct sample *s, const uint8_t *p, size_t len)
{
	/* malloc(0) may be NULL; one byte more keeps every path alike. */
	if ((s->bytes = malloc(len + 1)) == NULL ||
	    (s->str = malloc(len + 1)) == NULL)
		abort();
	memcpy(s->bytes, p, len);
	memcpy(s->str, p, len);
	s->str[len] = '\0';
	s->len = len;
}

static void
sample_free(struct sample *s)
{
	free(s->bytes);
	free(s->str);
}

/* NULL when glibc refuses (a zero-length buffer, on old versions). */
static FILE *
sample_open(const struct sample *s)
{
	return fmemopen(s->bytes, s->len, "r");
}

static void
proc_stat(const struct sample *a, const struct sample *b)
{
	struct cpustat before, after;
	struct gb_host_cpu h;
	char err[GB_ERR_LEN];
	FILE *fa, *fb;

	cpustat_init(&before);
	cpustat_init(&after);
	if ((fa = sample_open(a)) != NULL) {
		cpustat_parse(fa, &before, err, sizeof(err));
		fclose(fa);
	}
	if ((fb = sample_open(b)) != NULL) {
		cpustat_parse(fb, &after, err, sizeof(err));
		fclose(fb);
	}
	if (before.ncpus > before.cap || after.ncpus > after.cap ||
	    after.ncpus > CPUSTAT_MAX_CPUS + 1)
		fail("cpustat holds more CPUs than it allocated");
	memset(&h, 0, sizeof(h));
	cpustat_diff(&before, &after, &h);
	cpustat_free(&before);
	cpustat_free(&after);
}

static void
proc_interrupts(const struct sample *a, const struct sample *b)
{
	static const unsigned msi[] = { 41, 150, 151, 152, 1274 };
	struct irqstat before, after;
	struct gb_irq_line lines[GB_MAX_IRQ_LINES];
	char err[GB_ERR_LEN], names[24];
	FILE *fa, *fb;

	irqstat_init(&before);
	irqstat_init(&after);
	if ((fa = sample_open(a)) != NULL) {
		irqstat_parse(fa, &before, err, sizeof(err));
		fclose(fa);
	}
	if ((fb = sample_open(b)) != NULL) {
		irqstat_parse(fb, &after, err, sizeof(err));
		fclose(fb);
	}
	if (after.nlines > after.cap || after.counts_len > after.counts_cap ||
	    after.ncpus > IRQSTAT_MAX_CPUS)
		fail("irqstat holds more than it allocated");
	irqline_names(&after, names, sizeof(names));
	irqline_select(&before, "eth0", msi, sizeof(msi) / sizeof(msi[0]));
	irqline_select(&after, "eth0", msi, sizeof(msi) / sizeof(msi[0]));
	(void)irqline_diff(&before, &after);
	irqline_report(&before, &after, "eth0", lines, GB_MAX_IRQ_LINES);
	irqline_report(&before, &after, "eth0", lines, 2);
	irqline_names(&after, names, sizeof(names));
	irqstat_free(&before);
	irqstat_free(&after);
}

/* Both samples as /proc/softirqs and as /proc/stat, and the spread. */
static void
proc_softirqs(const struct sample *a, const struct sample *b)
{
	const struct sample *smp[2] = { a, b };
	struct irqstat_softirq si[2];
	struct cpustat cs[2];
	struct gb_spread *sp;
	char err[GB_ERR_LEN];
	uint64_t rx, tx;
	FILE *f;
	int i;

	if ((sp = calloc(1, sizeof(*sp))) == NULL)
		abort();
	for (i = 0; i < 2; i++) {
		irqstat_softirq_init(&si[i]);
		cpustat_init(&cs[i]);
		if ((f = sample_open(smp[i])) == NULL)
			continue;
		irqstat_softirq_parse(f, &si[i], err, sizeof(err));
		rewind(f);
		cpustat_parse(f, &cs[i], err, sizeof(err));
		fclose(f);
	}
	if (irqstat_softirq_cpu(&si[1], 0, &rx, &tx) == 0 && !si[1].has)
		fail("a per-CPU count from a sample that was not read");
	spread_cpus(&cs[0], &cs[1], &si[0], &si[1], sp);
	if (sp->ncpu > GB_SPREAD_MAX_CPUS || sp->ncpu > sp->ncpus)
		fail("the spread holds more CPUs than it may");
	for (i = 0; i < 2; i++) {
		irqstat_softirq_free(&si[i]);
		cpustat_free(&cs[i]);
	}
	free(sp);
}

static void
sys_netif(const struct sample *a)
{
	char devtype[NETIF_DEVTYPE_LEN], small[4];
	uint64_t v;
	FILE *f;

	if ((f = sample_open(a)) == NULL)
		return;
	netif_counter_parse(f, &v);
	rewind(f);
	netif_uevent_parse(f, devtype, sizeof(devtype));
	rewind(f);
	netif_uevent_parse(f, small, sizeof(small));
	fclose(f);
	netif_name_ok(a->str);
	netif_queue_kind(a->str);
}

static void
context_files(const struct sample *a)
{
	struct gb_context ctx;
	char model[96], line[64], triple[48], tiny[8];
	int64_t v;
	int ncpus;
	FILE *f;

	if ((f = sample_open(a)) == NULL)
		return;
	context_cpuinfo_parse(f, model, sizeof(model), &ncpus);
	rewind(f);
	context_cpuinfo_parse(f, tiny, sizeof(tiny), &ncpus);
	rewind(f);
	context_int_parse(f, &v);
	rewind(f);
	context_line_parse(f, line, sizeof(line));
	rewind(f);
	context_line_parse(f, tiny, sizeof(tiny));
	rewind(f);
	context_triple_parse(f, triple, sizeof(triple));
	rewind(f);
	context_triple_parse(f, tiny, sizeof(tiny));
	fclose(f);
	context_init(&ctx);
	context_note(&ctx, "%s", a->str);
	context_note(&ctx, "%s", a->str);
	context_copy(line, sizeof(line), a->str);
}

static void
journal(const struct sample *a)
{
	char ifname[16], tiny[4];
	unsigned long netns;
	int mtu;

	mtu_journal_parse(a->str, ifname, sizeof(ifname), &mtu, &netns);
	mtu_journal_parse(a->str, tiny, sizeof(tiny), &mtu, &netns);
}

/* One --sweep per line, as repeated options add axes. */
static void
sweeps(const struct sample *a)
{
	struct sweep *s, *copy;
	struct gb_params p;
	struct sweep_setting set;
	char err[256], text[64], *line, *save = NULL, *buf;
	unsigned n, i;
	int k = 0;

	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (copy = malloc(sizeof(*copy))) == NULL ||
	    (buf = strdup(a->str)) == NULL)
		abort();
	for (line = strtok_r(buf, "\n", &save); line != NULL && k++ < 6;
	    line = strtok_r(NULL, "\n", &save)) {
		memcpy(copy, s, sizeof(*s));
		if (sweep_parse(s, line, err, sizeof(err)) == -1 &&
		    memcmp(copy, s, sizeof(*s)) != 0)
			fail("a failed sweep_parse changed the sweep");
	}
	n = sweep_npoints(s);
	if (n == 0 || n > SWEEP_MAX_POINTS || s->naxes > SWEEP_MAX_AXES)
		fail("a sweep of no or too many points");
	for (i = 0; i < s->naxes; i++)
		if (s->axes[i].nvalues == 0 ||
		    s->axes[i].nvalues > SWEEP_MAX_VALUES)
			fail("an axis of no or too many values");
	params_init(&p);
	memset(&set, 0, sizeof(set));
	sweep_apply(s, 0, &p, &set);
	sweep_apply(s, n - 1, &p, &set);
	for (i = 0; i < s->naxes; i++) {
		sweep_value_text(s, i, n - 1, text, sizeof(text));
		(void)sweep_value(s, i, n - 1);
		(void)sweep_param_name(s->axes[i].param);
	}
	free(buf);
	free(copy);
	free(s);
}

static void
units(const struct sample *a)
{
	char err[256], buf[32];
	uint64_t v;
	uint32_t ms;

	if (units_parse_size(a->str, 0, UINT64_MAX, "size", &v, err,
	    sizeof(err)) == 0)
		units_format_size(v, buf, sizeof(buf));
	units_parse_size(a->str, 1, GB_MAX_SOCKBUF, "size", &v, err,
	    sizeof(err));
	units_parse_seconds(a->str, 0, UINT32_MAX, "time", &ms, err,
	    sizeof(err));
	units_parse_uint(a->str, 0, UINT64_MAX, "count", &v, err,
	    sizeof(err));
	units_parse_rate_mbps(a->str, 1, GB_MAX_LINK_MBPS, "rate", &v, err,
	    sizeof(err));
}

/* The whole input as one captured frame, of every link type. */
static void
frames(const uint8_t *data, size_t size)
{
	static const int linktypes[] = {
		DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_NULL, DLT_LOOP,
		DLT_RAW, DLT_IPV4, DLT_IPV6, DLT_PPP,
	};
	struct sockaddr_in l4, p4;
	struct sockaddr_in6 l6, p6;
	struct capture_flow f4, f6;
	struct gb_capture c;
	char err[GB_ERR_LEN];
	uint8_t *frame;
	size_t i;
	int dir;

	memset(&l4, 0, sizeof(l4));
	l4.sin_family = AF_INET;
	l4.sin_port = htons(5001);
	inet_pton(AF_INET, "127.0.0.1", &l4.sin_addr);
	p4 = l4;
	p4.sin_port = htons(40000);
	memset(&l6, 0, sizeof(l6));
	l6.sin6_family = AF_INET6;
	l6.sin6_port = htons(40000);
	inet_pton(AF_INET6, "2001:db8::1", &l6.sin6_addr);
	p6 = l6;
	p6.sin6_port = htons(5001);
	inet_pton(AF_INET6, "2001:db8::2", &p6.sin6_addr);
	if (capture_flow_init(&f4, (struct sockaddr *)&l4,
	    (struct sockaddr *)&p4, 5001, err, sizeof(err)) == -1 ||
	    capture_flow_init(&f6, (struct sockaddr *)&l6,
	    (struct sockaddr *)&p6, 5001, err, sizeof(err)) == -1)
		fail("a fixed flow does not initialise");
	/* Exactly caplen bytes on the heap: ASan sees one byte past. */
	if ((frame = malloc(size > 0 ? size : 1)) == NULL)
		abort();
	memcpy(frame, data, size);
	memset(&c, 0, sizeof(c));
	for (i = 0; i < sizeof(linktypes) / sizeof(linktypes[0]); i++) {
		dir = capture_classify(&f4, frame, size, linktypes[i]);
		capture_count(&c, dir, (uint32_t)size);
		dir = capture_classify(&f6, frame, size, linktypes[i]);
		if (dir != CAPTURE_OTHER && dir != CAPTURE_RX &&
		    dir != CAPTURE_TX)
			fail("a frame classified in no direction");
		capture_count(&c, dir, (uint32_t)size);
	}
	free(frame);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	struct sample a, b;
	size_t alen = nul != NULL ? (size_t)(nul - data) : size;

	sample_init(&a, data, alen);
	if (nul != NULL)
		sample_init(&b, nul + 1, size - alen - 1);
	else
		sample_init(&b, data, size);
	proc_stat(&a, &b);
	proc_interrupts(&a, &b);
	proc_softirqs(&a, &b);
	sys_netif(&a);
	context_files(&a);
	journal(&a);
	sweeps(&a);
	units(&a);
	frames(data, size);
	sample_free(&a);
	sample_free(&b);
	return 0;
}
