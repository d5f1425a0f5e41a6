/*
 * test_capture.c: the capture module (capture.c).
 *
 * Without pcap: histogram binning, counting, the flow and its filter
 * text, and the classification of hand-made Ethernet, VLAN, Linux
 * cooked, null and raw frames carrying IPv4 and IPv6; the JSON codec both
 * ways (a round trip, then a table of broken documents that must be
 * refused with the member named); the text lines.
 *
 * With CAP_NET_RAW (root): a real capture on lo of a TCP connection this
 * test opens itself, next to a second TCP connection and UDP datagrams
 * the filter must leave out, and a stop with no traffic at all, which
 * must not wait for a packet.  Without it those tests print why and skip.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
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
#include <jansson.h>
#include <pcap/pcap.h>

#include "codec/capture_json.h"
#include "host/capture.h"
#include "out/capture_text.h"

#define PORT		5001
#define EPHEMERAL	40000

/* ---- addresses and flows ---- */

static struct sockaddr_storage
sa_make(const char *addr, uint16_t port)
{
	struct sockaddr_storage	 ss;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
	} else {
		assert_int_equal(inet_pton(AF_INET6, addr, &sin6->sin6_addr),
		    1);
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
	}
	return ss;
}

static void
flow_make(struct capture_flow *f, const char *local, uint16_t lport,
    const char *peer, uint16_t pport)
{
	struct sockaddr_storage	 l = sa_make(local, lport);
	struct sockaddr_storage	 p = sa_make(peer, pport);
	char			 err[GB_ERR_LEN] = "";

	assert_int_equal(capture_flow_init(f, (struct sockaddr *)&l,
	    (struct sockaddr *)&p, PORT, err, sizeof(err)), 0);
}

/* ---- binning and counting ---- */

static const struct {
	uint32_t	len;
	unsigned	bin;
} bins[] = {
	{ 0, 0 }, { 54, 0 }, { 64, 0 }, { 65, 1 }, { 66, 1 }, { 128, 1 },
	{ 129, 2 }, { 256, 2 }, { 257, 3 }, { 512, 3 }, { 513, 4 },
	{ 1024, 4 }, { 1025, 5 }, { 1514, 5 }, { 1518, 5 }, { 1519, 6 },
	{ 4096, 6 }, { 4097, 7 }, { 9014, 7 }, { 9018, 7 }, { 9019, 8 },
	{ 16384, 8 }, { 16385, 9 }, { 65226, 9 }, { UINT32_MAX, 9 },
};

static void
test_capture_bin(void **state)
{
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(bins) / sizeof(bins[0]); i++) {
		if (capture_bin(bins[i].len) != bins[i].bin)
			fail_msg("len %u: bin %u, want %u", bins[i].len,
			    capture_bin(bins[i].len), bins[i].bin);
	}
	assert_int_equal(capture_bin_max[5], 1518);
	assert_int_equal(capture_bin_max[GB_HIST_BINS - 1], UINT32_MAX);
}

static void
test_capture_count(void **state)
{
	struct gb_capture	 c;

	(void)state;
	memset(&c, 0, sizeof(c));
	capture_count(&c, CAPTURE_TX, 1514);
	capture_count(&c, CAPTURE_TX, 9014);
	capture_count(&c, CAPTURE_TX, 66);
	capture_count(&c, CAPTURE_RX, 66);
	capture_count(&c, CAPTURE_OTHER, 1000);
	assert_int_equal(c.frames_tx, 3);
	assert_int_equal(c.bytes_tx, 1514 + 9014 + 66);
	assert_int_equal(c.max_frame_tx, 9014);
	assert_int_equal(c.hist_tx[5], 1);
	assert_int_equal(c.hist_tx[7], 1);
	assert_int_equal(c.hist_tx[1], 1);
	assert_int_equal(c.frames_rx, 1);
	assert_int_equal(c.bytes_rx, 66);
	assert_int_equal(c.max_frame_rx, 66);
	assert_int_equal(c.hist_rx[1], 1);
	assert_int_equal(c.hist_rx[4], 0);
}

/* ---- flows and filters ---- */

static void
test_capture_flow(void **state)
{
	struct capture_flow	 f;
	struct sockaddr_storage	 a, b;
	struct sockaddr		 un;
	char			 buf[CAPTURE_FILTER_LEN], err[GB_ERR_LEN];

	(void)state;
	flow_make(&f, "198.18.0.1", EPHEMERAL, "198.18.0.2", PORT);
	assert_int_equal(f.family, AF_INET);
	assert_false(f.listener);
	assert_int_equal(capture_filter(&f, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "tcp and host 198.18.0.2 and port 5001");
	assert_int_equal(capture_filter(&f, buf, 20), -1);

	/* A dual-stack listener sees its IPv4 peer as ::ffff:a.b.c.d. */
	flow_make(&f, "::ffff:198.18.0.2", PORT, "::ffff:198.18.0.1",
	    EPHEMERAL);
	assert_int_equal(f.family, AF_INET);
	assert_true(f.listener);
	assert_int_equal(capture_filter(&f, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "tcp and host 198.18.0.1 and port 5001");

	flow_make(&f, "2001:db8::1", EPHEMERAL, "2001:db8::2", PORT);
	assert_int_equal(f.family, AF_INET6);
	assert_int_equal(capture_filter(&f, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "tcp and host 2001:db8::2 and port 5001");

	a = sa_make("2001:db8::1", EPHEMERAL);
	b = sa_make("198.18.0.2", PORT);
	assert_int_equal(capture_flow_init(&f, (struct sockaddr *)&a,
	    (struct sockaddr *)&b, PORT, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "different families"));
	memset(&un, 0, sizeof(un));
	un.sa_family = AF_UNIX;
	assert_int_equal(capture_flow_init(&f, &un, (struct sockaddr *)&b,
	    PORT, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "local address"));
	assert_int_equal(capture_flow_init(&f, (struct sockaddr *)&b, NULL,
	    PORT, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "peer address"));
}

/* ---- hand-made frames ---- */

/* Link types by index, so that 0 (the default) is Ethernet. */
enum { L_ETH, L_SLL, L_SLL2, L_NULL, L_RAW, L_IPV4, L_80211 };
static const int dlt[] = {
	DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_NULL, DLT_RAW,
	DLT_IPV4, DLT_IEEE802_11
};

struct fspec {
	int		 link;		/* L_ETH ... */
	int		 vlans;		/* 802.1Q tags (the first 802.1ad) */
	const char	*src, *dst;
	uint16_t	 sport, dport;
	uint8_t		 proto;		/* 0: TCP */
	int		 optwords;	/* IPv4 options, 4-byte words */
	uint16_t	 frag;		/* IPv4 offset / IPv6 fragment offset */
	int		 ext;		/* IPv6: 1 hop-by-hop, 2 fragment hdr */
	uint16_t	 ethertype;	/* 0: from the address family */
	int		 cut;		/* bytes left out of the capture */
};

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* IP header, TCP header, 8 bytes of payload; returns its length. */
static size_t
ip_make(uint8_t *p, const struct fspec *s)
{
	uint8_t		 proto = s->proto != 0 ? s->proto : 6;
	size_t		 off;

	if (strchr(s->src, ':') == NULL) {
		off = 20 + (size_t)s->optwords * 4;
		p[0] = (uint8_t)(0x40 | (off / 4));
		put16(p + 6, s->frag);
		p[8] = 64;
		p[9] = proto;
		assert_int_equal(inet_pton(AF_INET, s->src, p + 12), 1);
		assert_int_equal(inet_pton(AF_INET, s->dst, p + 16), 1);
	} else {
		p[0] = 0x60;
		p[6] = proto;
		p[7] = 64;
		assert_int_equal(inet_pton(AF_INET6, s->src, p + 8), 1);
		assert_int_equal(inet_pton(AF_INET6, s->dst, p + 24), 1);
		off = 40;
		if (s->ext == 1) {		/* hop-by-hop, 16 bytes */
			p[6] = 0;
			p[off] = proto;
			p[off + 1] = 1;
			off += 16;
		} else if (s->ext == 2) {	/* fragment header */
			p[6] = 44;
			p[off] = proto;
			put16(p + off + 2, s->frag);
			off += 8;
		}
	}
	put16(p + off, s->sport);
	put16(p + off + 2, s->dport);
	p[off + 12] = 5 << 4;
	return off + 20 + 8;
}

static size_t
frame_make(uint8_t *fr, const struct fspec *s)
{
	int		 v6 = strchr(s->src, ':') != NULL;
	uint16_t	 type = s->ethertype != 0 ? s->ethertype :
			    v6 ? 0x86dd : 0x0800;
	size_t		 off;
	int		 i;

	memset(fr, 0, 256);
	switch (dlt[s->link]) {
	case DLT_EN10MB:
		off = 12;
		for (i = 0; i < s->vlans; i++) {
			put16(fr + off, i == 0 && s->vlans > 1 ? 0x88a8 :
			    0x8100);
			put16(fr + off + 2, (uint16_t)(100 + i));
			off += 4;
		}
		put16(fr + off, type);
		off += 2;
		break;
	case DLT_LINUX_SLL:
		put16(fr + 14, type);
		off = 16;
		break;
	case DLT_LINUX_SLL2:
		put16(fr, type);
		off = 20;
		break;
	case DLT_NULL:
		fr[0] = v6 ? 10 : 2;	/* host order, little endian here */
		off = 4;
		break;
	default:
		off = 0;
	}
	return off + ip_make(fr + off, s) - (size_t)s->cut;
}

enum { F4, F6, FLO, FLO_L, NFLOWS };

static const struct {
	const char	*name;
	int		 flow;
	struct fspec	 s;
	int		 want;
} frames[] = {
#define A	"198.18.0.1"
#define B	"198.18.0.2"
#define A6	"2001:db8::1"
#define B6	"2001:db8::2"
#define TX	CAPTURE_TX
#define RX	CAPTURE_RX
#define NO	CAPTURE_OTHER
	{ "eth v4 tx", F4, { .src = A, .dst = B, .sport = EPHEMERAL,
	    .dport = PORT }, TX },
	{ "eth v4 rx", F4, { .src = B, .dst = A, .sport = PORT,
	    .dport = EPHEMERAL }, RX },
	{ "eth v4 third host", F4, { .src = "198.18.0.3", .dst = A,
	    .sport = PORT, .dport = EPHEMERAL }, NO },
	{ "eth v4 from local to elsewhere", F4, { .src = A,
	    .dst = "198.18.0.3", .sport = EPHEMERAL, .dport = PORT }, NO },
	{ "eth v4 other port", F4, { .src = A, .dst = B, .sport = EPHEMERAL,
	    .dport = 5002 }, NO },
	{ "eth v4 udp", F4, { .src = A, .dst = B, .sport = EPHEMERAL,
	    .dport = PORT, .proto = 17 }, NO },
	{ "eth v4 options", F4, { .src = A, .dst = B, .sport = EPHEMERAL,
	    .dport = PORT, .optwords = 3 }, TX },
	{ "eth v4 first fragment", F4, { .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT, .frag = 0x2000 }, TX },
	{ "eth v4 later fragment", F4, { .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT, .frag = 0x00b9 }, NO },
	{ "eth arp", F4, { .src = A, .dst = B, .sport = EPHEMERAL,
	    .dport = PORT, .ethertype = 0x0806 }, NO },
	{ "eth v4 cut in the ports", F4, { .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT, .cut = 26 }, NO },
	{ "eth v4 cut after the ports", F4, { .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT, .cut = 24 }, TX },
	{ "eth v4 cut in the ip header", F4, { .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT, .cut = 40 }, NO },
	{ "eth v4 on a v6 flow", F6, { .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT }, NO },
	{ "802.1q v4 tx", F4, { .vlans = 1, .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT }, TX },
	{ "802.1ad+802.1q v4 rx", F4, { .vlans = 2, .src = B, .dst = A,
	    .sport = PORT, .dport = EPHEMERAL }, RX },
	{ "three vlan tags", F4, { .vlans = 3, .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT }, NO },
	{ "eth v6 tx", F6, { .src = A6, .dst = B6, .sport = EPHEMERAL,
	    .dport = PORT }, TX },
	{ "eth v6 rx", F6, { .src = B6, .dst = A6, .sport = PORT,
	    .dport = EPHEMERAL }, RX },
	{ "eth v6 hop-by-hop", F6, { .src = A6, .dst = B6,
	    .sport = EPHEMERAL, .dport = PORT, .ext = 1 }, TX },
	{ "eth v6 first fragment", F6, { .src = A6, .dst = B6,
	    .sport = EPHEMERAL, .dport = PORT, .ext = 2, .frag = 1 }, TX },
	{ "eth v6 later fragment", F6, { .src = A6, .dst = B6,
	    .sport = EPHEMERAL, .dport = PORT, .ext = 2, .frag = 0x0100 },
	    NO },
	{ "eth v6 cut in the header", F6, { .src = A6, .dst = B6,
	    .sport = EPHEMERAL, .dport = PORT, .cut = 50 }, NO },
	{ "eth v6 on a v4 flow", F4, { .src = A6, .dst = B6,
	    .sport = EPHEMERAL, .dport = PORT }, NO },
	{ "vlan v6 rx", F6, { .vlans = 1, .src = B6, .dst = A6,
	    .sport = PORT, .dport = EPHEMERAL }, RX },
	{ "sll v4 tx", F4, { .link = L_SLL, .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT }, TX },
	{ "sll ipx", F4, { .link = L_SLL, .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT, .ethertype = 0x8137 }, NO },
	{ "sll2 v6 rx", F6, { .link = L_SLL2, .src = B6,
	    .dst = A6, .sport = PORT, .dport = EPHEMERAL }, RX },
	{ "null v4 rx", F4, { .link = L_NULL, .src = B, .dst = A,
	    .sport = PORT, .dport = EPHEMERAL }, RX },
	{ "null v6 tx", F6, { .link = L_NULL, .src = A6, .dst = B6,
	    .sport = EPHEMERAL, .dport = PORT }, TX },
	{ "raw v4 tx", F4, { .link = L_RAW, .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT }, TX },
	{ "raw v6 rx", F6, { .link = L_RAW, .src = B6, .dst = A6,
	    .sport = PORT, .dport = EPHEMERAL }, RX },
	{ "ipv4 linktype", F4, { .link = L_IPV4, .src = A, .dst = B,
	    .sport = EPHEMERAL, .dport = PORT }, TX },
	{ "802.11 linktype", F4, { .link = L_80211, .src = A,
	    .dst = B, .sport = EPHEMERAL, .dport = PORT }, NO },
	/* One address: the listener's port tells who sent it. */
	{ "lo to the listener, connector", FLO, { .src = "127.0.0.1",
	    .dst = "127.0.0.1", .sport = EPHEMERAL, .dport = PORT }, TX },
	{ "lo from the listener, connector", FLO, { .src = "127.0.0.1",
	    .dst = "127.0.0.1", .sport = PORT, .dport = EPHEMERAL }, RX },
	{ "lo to the listener, listener", FLO_L, { .src = "127.0.0.1",
	    .dst = "127.0.0.1", .sport = EPHEMERAL, .dport = PORT }, RX },
	{ "lo from the listener, listener", FLO_L, { .src = "127.0.0.1",
	    .dst = "127.0.0.1", .sport = PORT, .dport = EPHEMERAL }, TX },
	{ "lo port to itself", FLO, { .src = "127.0.0.1", .dst = "127.0.0.1",
	    .sport = PORT, .dport = PORT }, NO },
	{ "lo from 127.0.0.2", FLO, { .src = "127.0.0.2", .dst = "127.0.0.1",
	    .sport = PORT, .dport = EPHEMERAL }, NO },
#undef A
#undef B
#undef A6
#undef B6
#undef TX
#undef RX
#undef NO
};

static void
test_capture_classify(void **state)
{
	struct capture_flow	 flows[NFLOWS];
	uint8_t			 fr[256];
	size_t			 i, len;
	int			 lt, got;

	(void)state;
	flow_make(&flows[F4], "198.18.0.1", EPHEMERAL, "198.18.0.2", PORT);
	flow_make(&flows[F6], "2001:db8::1", EPHEMERAL, "2001:db8::2", PORT);
	flow_make(&flows[FLO], "127.0.0.1", EPHEMERAL, "127.0.0.1", PORT);
	flow_make(&flows[FLO_L], "127.0.0.1", PORT, "127.0.0.1", EPHEMERAL);
	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		len = frame_make(fr, &frames[i].s);
		lt = dlt[frames[i].s.link];
		got = capture_classify(&flows[frames[i].flow], fr, len, lt);
		if (got != frames[i].want)
			fail_msg("%s: %d, want %d", frames[i].name, got,
			    frames[i].want);
	}
	/* Every prefix of a frame is safe to look at (ASan watches). */
	len = frame_make(fr, &frames[0].s);
	for (i = 0; i < len; i++) {
		uint8_t	*cut = malloc(i + 1);

		assert_non_null(cut);
		memcpy(cut, fr, i);
		capture_classify(&flows[F4], cut, i, DLT_EN10MB);
		free(cut);
	}
}

/* ---- JSON ---- */

static void
capture_fill(struct gb_capture *c)
{
	memset(c, 0, sizeof(*c));
	c->has = 1;
	c->hist_tx[5] = 412345;
	c->hist_tx[9] = 12;
	c->hist_tx[1] = 3;
	c->frames_tx = 412345 + 12 + 3;
	c->bytes_tx = UINT64_C(412345) * 1514 + 12 * 65226 + 3 * 66;
	c->max_frame_tx = 65226;
	c->hist_rx[1] = 206001;
	c->frames_rx = 206001;
	c->bytes_rx = UINT64_C(206001) * 66;
	c->max_frame_rx = 66;
	c->drops = 7;
}

/* Member by member: padding is not copied reliably. */
static void
capture_equal(const struct gb_capture *a, const struct gb_capture *b)
{
	assert_int_equal(a->has, b->has);
	assert_int_equal(a->frames_rx, b->frames_rx);
	assert_int_equal(a->frames_tx, b->frames_tx);
	assert_int_equal(a->bytes_rx, b->bytes_rx);
	assert_int_equal(a->bytes_tx, b->bytes_tx);
	assert_memory_equal(a->hist_rx, b->hist_rx, sizeof(a->hist_rx));
	assert_memory_equal(a->hist_tx, b->hist_tx, sizeof(a->hist_tx));
	assert_int_equal(a->max_frame_rx, b->max_frame_rx);
	assert_int_equal(a->max_frame_tx, b->max_frame_tx);
	assert_int_equal(a->drops, b->drops);
	assert_string_equal(a->note, b->note);
}

static const char capture_doc[] =
    "{\"bytes_rx\": 13596066, \"bytes_tx\": 625073240, \"drops\": 7,"
    " \"frames_rx\": 206001, \"frames_tx\": 412360, \"histogram\":"
    " {\"bounds\": [64, 128, 256, 512, 1024, 1518, 4096, 9018, 16384,"
    " null], \"rx\": [0, 206001, 0, 0, 0, 0, 0, 0, 0, 0], \"tx\":"
    " [0, 3, 0, 0, 0, 412345, 0, 0, 0, 12]}, \"max_frame_rx\": 66,"
    " \"max_frame_tx\": 65226}";

static void
test_capture_json(void **state)
{
	struct gb_capture	 in, out;
	json_t			*j, *k;
	json_error_t		 jerr;
	char			*s, err[GB_ERR_LEN] = "";

	(void)state;
	capture_fill(&in);
	assert_non_null(j = capture_json(&in));
	assert_non_null(k = json_loads(capture_doc, 0, &jerr));
	assert_true(json_equal(j, k));
	json_decref(k);

	/* Through text, as the protocol carries it. */
	assert_non_null(s = json_dumps(j, 0));
	json_decref(j);
	assert_non_null(j = json_loads(s, 0, &jerr));
	free(s);
	memset(&out, 0xa5, sizeof(out));
	assert_int_equal(capture_from_json(j, &out, err, sizeof(err)), 0);
	json_decref(j);
	capture_equal(&in, &out);

	/* No capture is a null, and a null is no capture. */
	in.has = 0;
	assert_non_null(j = capture_json(&in));
	assert_true(json_is_null(j));
	out.has = 1;
	assert_int_equal(capture_from_json(j, &out, err, sizeof(err)), 0);
	assert_false(out.has);
	json_decref(j);

	/* An empty but present capture round-trips too. */
	memset(&in, 0, sizeof(in));
	in.has = 1;
	assert_non_null(j = capture_json(&in));
	assert_int_equal(capture_from_json(j, &out, err, sizeof(err)), 0);
	capture_equal(&in, &out);
	json_decref(j);
}

/* Each case replaces (or with value NULL deletes) one member. */
static const struct {
	const char	*path;		/* "histogram.rx[3]" style */
	const char	*value;		/* JSON text, NULL to delete */
	const char	*want;		/* in the message */
} broken[] = {
	{ "frames_rx", NULL, "capture.frames_rx is missing" },
	{ "frames_tx", "\"412360\"", "capture.frames_tx is not an integer" },
	{ "bytes_rx", "-1", "capture.bytes_rx is negative: -1" },
	{ "bytes_tx", "1.5", "capture.bytes_tx is not an integer" },
	{ "max_frame_rx", "4294967296",
	    "capture.max_frame_rx is out of range" },
	{ "max_frame_tx", "null", "capture.max_frame_tx is not an integer" },
	{ "drops", "true", "capture.drops is not an integer" },
	{ "drops", NULL, "capture.drops is missing" },
	{ "histogram", NULL, "capture.histogram is missing" },
	{ "histogram", "[]", "capture.histogram is not an object" },
	{ "histogram.bounds", NULL, "capture.histogram.bounds is not an" },
	{ "histogram.bounds", "[64]", "capture.histogram.bounds is not an" },
	{ "histogram.bounds[0]", "65", "capture.histogram.bounds[0] differs" },
	{ "histogram.bounds[5]", "1514",
	    "capture.histogram.bounds[5] differs" },
	{ "histogram.bounds[9]", "32768",
	    "capture.histogram.bounds[9] differs" },
	{ "histogram.bounds[8]", "null",
	    "capture.histogram.bounds[8] differs" },
	{ "histogram.rx", NULL, "capture.histogram.rx is missing" },
	{ "histogram.rx", "5", "capture.histogram.rx is not an array" },
	{ "histogram.tx", "[1,2,3,4,5,6,7,8,9]",
	    "capture.histogram.tx is not an array of 10" },
	{ "histogram.rx[3]", "-1", "capture.histogram.rx[3] is negative" },
	{ "histogram.tx[0]", "\"x\"",
	    "capture.histogram.tx[0] is not an integer" },
	{ "histogram.tx[9]", "9223372036854775807",
	    "capture.histogram.tx adds up to more than frames_tx" },
	{ "histogram.rx[1]", "206000",
	    "capture.histogram.rx adds up to less than frames_rx" },
	{ "frames_tx", "412361",
	    "capture.histogram.tx adds up to less than frames_tx" },
};

/* Set or delete the member at path ("a", "a.b", "a.b[3]") in doc. */
static void
doc_edit(json_t *doc, const char *path, const char *value)
{
	char		 key[64], *dot, *br;
	json_t		*o = doc, *v = NULL;
	json_error_t	 jerr;

	snprintf(key, sizeof(key), "%s", path);
	if (value != NULL)
		assert_non_null(v = json_loads(value, JSON_DECODE_ANY, &jerr));
	if ((dot = strchr(key, '.')) != NULL) {
		*dot = '\0';
		o = json_object_get(doc, key);
		memmove(key, dot + 1, strlen(dot + 1) + 1);
	}
	if ((br = strchr(key, '[')) != NULL) {
		*br = '\0';
		o = json_object_get(o, key);
		assert_int_equal(json_array_set_new(o,
		    (size_t)atoi(br + 1), v), 0);
	} else if (v == NULL)
		assert_int_equal(json_object_del(o, key), 0);
	else
		assert_int_equal(json_object_set_new(o, key, v), 0);
}

static void
test_capture_from_json_rejects(void **state)
{
	struct gb_capture	 out, before;
	json_t			*doc;
	json_error_t		 jerr;
	char			 err[GB_ERR_LEN];
	size_t			 i;
	const char		*notobj[] = { "[]", "5", "\"x\"", "true" };

	(void)state;
	memset(&before, 0x5a, sizeof(before));
	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		assert_non_null(doc = json_loads(capture_doc, 0, &jerr));
		doc_edit(doc, broken[i].path, broken[i].value);
		out = before;
		err[0] = '\0';
		if (capture_from_json(doc, &out, err, sizeof(err)) != -1)
			fail_msg("%s=%s: accepted", broken[i].path,
			    broken[i].value != NULL ? broken[i].value : "-");
		if (strstr(err, broken[i].want) == NULL)
			fail_msg("%s: \"%s\", want \"%s\"", broken[i].path,
			    err, broken[i].want);
		assert_memory_equal(&out, &before, sizeof(out));
		json_decref(doc);
	}
	for (i = 0; i < sizeof(notobj) / sizeof(notobj[0]); i++) {
		assert_non_null(doc = json_loads(notobj[i], JSON_DECODE_ANY,
		    &jerr));
		assert_int_equal(capture_from_json(doc, &out, err,
		    sizeof(err)), -1);
		assert_string_equal(err, "capture is not an object");
		json_decref(doc);
	}
	assert_int_equal(capture_from_json(NULL, &out, err, sizeof(err)), -1);
	assert_string_equal(err, "capture is missing");

	/* Unknown members are a newer peer's and are ignored. */
	assert_non_null(doc = json_loads(capture_doc, 0, &jerr));
	doc_edit(doc, "gro_segments", "12");
	assert_int_equal(capture_from_json(doc, &out, err, sizeof(err)), 0);
	assert_int_equal(out.frames_tx, 412360);
	json_decref(doc);
}

/* ---- text ---- */

static char *
render(const struct gb_capture *c, const char *prefix)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	capture_text(fp, c, prefix);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_capture_text(void **state)
{
	struct gb_capture	 c;
	char			*s;

	(void)state;
	capture_fill(&c);
	s = render(&c, "gigebench-t:");
	assert_string_equal(s,
	    "gigebench-t: capture: tx 412360 frames (max 65226 B), rx 206001"
	    " frames (max 66 B), 7 dropped\n"
	    "gigebench-t: capture sizes: tx <=128:3 <=1518:412345"
	    " >16384:12; rx <=128:206001\n");
	free(s);

	memset(&c, 0, sizeof(c));
	c.has = 1;
	s = render(&c, "gigebench-r:");
	assert_string_equal(s, "gigebench-r: capture: tx 0 frames, rx 0"
	    " frames, 0 dropped\n");
	free(s);

	c.frames_rx = c.hist_rx[0] = 2;
	c.max_frame_rx = 60;
	snprintf(c.note, sizeof(c.note), "3 frames not classified");
	s = render(&c, "gigebench-r:");
	assert_string_equal(s, "gigebench-r: capture: tx 0 frames, rx 2"
	    " frames (max 60 B), 0 dropped (3 frames not classified)\n"
	    "gigebench-r: capture sizes: rx <=64:2\n");
	free(s);

	memset(&c, 0, sizeof(c));
	s = render(&c, "gigebench-r:");
	assert_string_equal(s, "");
	free(s);
	snprintf(c.note, sizeof(c.note), "--capture needs root");
	s = render(&c, "gigebench-t:");
	assert_string_equal(s, "gigebench-t: capture: n/a (--capture needs"
	    " root)\n");
	free(s);
}

/* ---- start and stop without a capture ---- */

static void
test_capture_start_errors(void **state)
{
	struct sockaddr_storage	 l = sa_make("127.0.0.1", EPHEMERAL);
	struct sockaddr_storage	 p = sa_make("127.0.0.1", PORT);
	struct sockaddr		*lp = (struct sockaddr *)&l;
	struct sockaddr		*pp = (struct sockaddr *)&p;
	struct gb_capture	 out;
	char			 err[GB_ERR_LEN];

	(void)state;
	assert_null(capture_start(NULL, lp, pp, PORT, err, sizeof(err)));
	assert_string_equal(err, "invalid interface name");
	assert_null(capture_start("", lp, pp, PORT, err, sizeof(err)));
	assert_null(capture_start("an-interface-name-far-too-long-for-linux",
	    lp, pp, PORT, err, sizeof(err)));
	assert_string_equal(err, "invalid interface name");
	assert_null(capture_start("lo", lp, NULL, PORT, err, sizeof(err)));
	assert_non_null(strstr(err, "peer address"));

	/* Needs root for a socket, and only then looks for the device. */
	assert_null(capture_start("gb-nosuch0", lp, pp, PORT, err,
	    sizeof(err)));
	if (strstr(err, "needs root") == NULL)
		assert_string_equal(err, "no such interface: gb-nosuch0");
	else
		assert_non_null(strstr(err, "--capture needs root "
		    "(CAP_NET_RAW): "));

	memset(&out, 0, sizeof(out));
	out.has = 1;
	snprintf(out.note, sizeof(out.note), "kept");
	capture_stop(NULL, &out);
	assert_false(out.has);
	assert_string_equal(out.note, "kept");
}

/* ---- a real capture on lo (CAP_NET_RAW) ---- */

struct conn {
	int		 lfd, cfd, sfd;	/* listener, client, server side */
	uint16_t	 port;
	struct sockaddr_storage	 local, peer;	/* the client's ends */
};

static void
conn_open(struct conn *c)
{
	struct sockaddr_in	 sin;
	socklen_t		 len;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true((c->lfd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(c->lfd, (struct sockaddr *)&sin,
	    sizeof(sin)), 0);
	assert_int_equal(listen(c->lfd, 4), 0);
	len = sizeof(c->peer);
	assert_int_equal(getsockname(c->lfd, (struct sockaddr *)&c->peer,
	    &len), 0);
	c->port = ntohs(((struct sockaddr_in *)&c->peer)->sin_port);
	assert_true((c->cfd = socket(AF_INET, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(connect(c->cfd, (struct sockaddr *)&c->peer, len),
	    0);
	assert_true((c->sfd = accept(c->lfd, NULL, NULL)) >= 0);
	len = sizeof(c->local);
	assert_int_equal(getsockname(c->cfd, (struct sockaddr *)&c->local,
	    &len), 0);
}

static void
conn_close(struct conn *c)
{
	close(c->cfd);
	close(c->sfd);
	close(c->lfd);
}

/* Move total bytes from fd to to, in chunks the socket buffers hold. */
static void
pump(int from, int to, size_t total)
{
	static const char	 chunk[64 * 1024];
	char			 sink[64 * 1024];
	size_t			 n, got;
	ssize_t			 r;

	while (total > 0) {
		n = total < sizeof(chunk) ? total : sizeof(chunk);
		assert_int_equal(write(from, chunk, n), (ssize_t)n);
		for (got = 0; got < n; got += (size_t)r)
			assert_true((r = read(to, sink, n - got)) > 0);
		total -= n;
	}
}

static struct capture *
start_or_skip(struct conn *c)
{
	struct capture	*cap;
	char		 err[GB_ERR_LEN];

	cap = capture_start("lo", (struct sockaddr *)&c->local,
	    (struct sockaddr *)&c->peer, c->port, err, sizeof(err));
	if (cap == NULL) {
		print_message("skipped: %s\n", err);
		conn_close(c);
		skip();
	}
	return cap;
}

static double
now_s(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
test_capture_lo(void **state)
{
	struct conn		 mine, other;
	struct capture		*cap;
	struct gb_capture	 out;
	struct sockaddr_in	 to;
	uint64_t		 sum;
	int			 ufd, i;
	const size_t		 mb = 1024 * 1024;

	(void)state;
	conn_open(&mine);
	cap = start_or_skip(&mine);
	conn_open(&other);

	pump(mine.cfd, mine.sfd, mb);
	pump(mine.sfd, mine.cfd, 1000);
	/* Traffic the filter leaves out: another TCP port, UDP on ours. */
	pump(other.cfd, other.sfd, 4 * mb);
	assert_true((ufd = socket(AF_INET, SOCK_DGRAM, 0)) >= 0);
	memset(&to, 0, sizeof(to));
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	to.sin_port = htons(mine.port);
	for (i = 0; i < 10; i++)
		assert_int_equal(sendto(ufd, "x", 1, 0,
		    (struct sockaddr *)&to, sizeof(to)), 1);
	close(ufd);
	conn_close(&other);
	conn_close(&mine);
	capture_stop(cap, &out);

	print_message("lo: tx %llu frames %llu B max %u, rx %llu frames"
	    " %llu B max %u, %llu dropped%s%s\n",
	    (unsigned long long)out.frames_tx,
	    (unsigned long long)out.bytes_tx, out.max_frame_tx,
	    (unsigned long long)out.frames_rx,
	    (unsigned long long)out.bytes_rx, out.max_frame_rx,
	    (unsigned long long)out.drops, out.note[0] != '\0' ? ", " : "",
	    out.note);
	assert_true(out.has);
	assert_true(out.frames_tx > 0);
	assert_true(out.frames_rx > 0);
	/* Our megabyte went out, the other flow's four did not count. */
	assert_true(out.bytes_tx >= mb);
	assert_true(out.bytes_tx < mb + mb / 2);
	assert_true(out.bytes_rx >= 1000);
	assert_true(out.bytes_rx < mb / 2);
	assert_true(out.max_frame_tx > 1000);
	assert_string_equal(out.note, "");
	for (sum = 0, i = 0; i < GB_HIST_BINS; i++)
		sum += out.hist_tx[i];
	assert_int_equal(sum, out.frames_tx);
	for (sum = 0, i = 0; i < GB_HIST_BINS; i++)
		sum += out.hist_rx[i];
	assert_int_equal(sum, out.frames_rx);
}

/* With no traffic the thread must still see the stop in time. */
static void
test_capture_idle_stop(void **state)
{
	struct conn		 mine;
	struct capture		*cap;
	struct gb_capture	 out;
	double			 t0, dt;

	(void)state;
	conn_open(&mine);
	cap = start_or_skip(&mine);
	usleep(250 * 1000);
	t0 = now_s();
	capture_stop(cap, &out);
	dt = now_s() - t0;
	conn_close(&mine);
	print_message("idle stop took %.1f ms\n", dt * 1000);
	assert_true(out.has);
	assert_int_equal(out.frames_tx + out.frames_rx, 0);
	assert_true(dt < 2.0 * CAPTURE_TIMEOUT_MS / 1000 + 0.05);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_bin),
		cmocka_unit_test(test_capture_count),
		cmocka_unit_test(test_capture_flow),
		cmocka_unit_test(test_capture_classify),
		cmocka_unit_test(test_capture_json),
		cmocka_unit_test(test_capture_from_json_rejects),
		cmocka_unit_test(test_capture_text),
		cmocka_unit_test(test_capture_start_errors),
		cmocka_unit_test(test_capture_lo),
		cmocka_unit_test(test_capture_idle_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
