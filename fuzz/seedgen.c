/*
 * seedgen.c: writes the checked-in seed corpora of the fuzz targets, one
 * seed per known bug class (research/reliability.md): lengths 0, the cap,
 * the cap + 1, 2^31 and 2^32 - 1 in the header; truncated headers and
 * bodies; each member of a hello and of a side with the wrong JSON type;
 * huge and negative counts; duplicate keys; truncated \u escapes; HTTP,
 * TLS and SSH banners; valid messages of every type and whole sessions;
 * command lines; captured frames.  The /proc and /sys seeds are copies of
 * tests/fixtures, made by fuzz.mk.
 *
 *	usage: seedgen DIR	(writes DIR/fuzz_proto/..., DIR/fuzz_side/...)
 *
 * Valid messages come from proto_encode() and side_json(), so the
 * seeds follow the codec when it changes; "make fuzz-seeds" rewrites them.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_util.h"
#include "wire/auth.h"
#include "codec/proto.h"
#include "codec/side.h"

#define PLACEHOLDER	"TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT"
#define TOKEN		"0123456789abcdef0123456789abcdef"

/* A growing byte buffer. */
struct buf {
	uint8_t	*p;
	size_t	 len;
};

static const char *outdir;

static void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "seedgen: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static void
put(struct buf *b, const void *p, size_t len)
{
	if ((b->p = realloc(b->p, b->len + len + 1)) == NULL)
		die("out of memory");
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

static void
puts_buf(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void
put_byte(struct buf *b, uint8_t c)
{
	put(b, &c, 1);
}

static void
save(const char *target, const char *name, const struct buf *b)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, target);
	if (mkdir(path, 0755) == -1 && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(b->p, 1, b->len, f) != b->len || fclose(f) != 0)
		die("%s: %s", path, strerror(errno));
}

/* A frame: header with any length, then the body bytes given. */
static void
frame(struct buf *b, int type, uint32_t length, const void *body,
    size_t blen)
{
	uint8_t h[PROTO_HEADER_LEN];

	proto_header_encode(h, type, length);
	put(b, h, sizeof(h));
	put(b, body, blen);
}

static void
frame_json(struct buf *b, int type, const json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);

	if (s == NULL)
		die("cannot dump a seed's JSON");
	frame(b, type, (uint32_t)strlen(s), s, strlen(s));
	free(s);
}

static void
frame_text(struct buf *b, int type, const char *body)
{
	frame(b, type, (uint32_t)strlen(body), body, strlen(body));
}

static json_t *
msg_json(const struct proto_msg *m)
{
	json_error_t jerr;
	uint8_t *p;
	size_t len;
	json_t *o;

	if ((p = proto_encode(m, &len)) == NULL)
		die("cannot encode a %s", proto_type_str(m->type));
	o = json_loadb((char *)p + PROTO_HEADER_LEN, len - PROTO_HEADER_LEN,
	    0, &jerr);
	free(p);
	if (o == NULL)
		die("our own %s is not JSON", proto_type_str(m->type));
	return o;
}

static struct proto_msg *
msg_new(int type)
{
	struct proto_msg *m = calloc(1, sizeof(*m));

	if (m == NULL)
		die("out of memory");
	m->type = type;
	switch (type) {
	case PROTO_HELLO:
		params_init(&m->params);
		m->params.duration_ms = 100;
		break;
	case PROTO_ACCEPT:
	case PROTO_DATA:
		memcpy(m->token, TOKEN, PROTO_TOKEN_LEN);
		break;
	case PROTO_REFUSE:
		m->refusal = PROTO_REFUSE_BUSY;
		/* FALLTHROUGH */
	case PROTO_ERROR:
		snprintf(m->message, sizeof(m->message), "the listener is busy");
		break;
	case PROTO_DONE:
	case PROTO_RESULT:
		fuzz_fill_side(&m->side);
		break;
	case PROTO_INTERVAL:
		m->interval = (struct gb_interval){ .start_s = 0.5,
		    .end_s = 1.5, .bytes = 117440512, .has_tcp = 1,
		    .retrans = 2, .cwnd = 412, .rtt_us = 450,
		    .has_limited = 1, .rwnd_limited_pct = 12.5,
		    .sndbuf_limited_pct = 0.25, .has_host = 1,
		    .host_busy_pct = 51.5, .host_max_cpu_pct = 98,
		    .host_ncpus = 4, .has_proc = 1, .proc_cpu_s = 0.5,
		    .has_irq = 1, .interrupts = 9000, .has_softirq = 1,
		    .net_rx_softirqs = 12000 };
		break;
	}
	return m;
}

static void
msg_frame(struct buf *b, int type)
{
	struct proto_msg *m = msg_new(type);
	json_t *o = msg_json(m);

	frame_json(b, type, o);
	json_decref(o);
	free(m);
}

/* ---- fuzz_proto: a 4-byte chunking prefix, then the stream ---- */

static void
save_proto(const char *name, const struct buf *stream)
{
	static const uint8_t chunks[][4] = { { 0, 0, 0, 0 }, { 1, 5, 11, 3 } };
	char n[256];
	struct buf b;
	size_t i;

	/* Chunk edges matter for whole messages; one chunking elsewhere. */
	for (i = 0; i < (strncmp(name, "valid-", 6) == 0 ||
	    strncmp(name, "trunc-", 6) == 0 ? 2u : 1u); i++) {
		memset(&b, 0, sizeof(b));
		put(&b, chunks[i], 4);
		put(&b, stream->p, stream->len);
		snprintf(n, sizeof(n), "%s%s", name, i == 0 ? "" : "-chunked");
		save("fuzz_proto", n, &b);
		free(b.p);
	}
}

/* ---- fuzz_session: a script; see fuzz_session.c ---- */

enum { S_WRITE = 0x00, S_DATA = 0x10, S_SEAL = 0x20, S_SHUT = 0x80,
	S_CLOSE = 0x90,
	S_FILL = 0xa0, S_WAIT = 0xb0, S_READ = 0xc0, S_STREAMS = 0xd0 };

static void
s_put(struct buf *s, int op, int slot, const uint8_t *p, size_t len)
{
	size_t n;

	do {
		n = len > 65535 ? 65535 : len;
		put_byte(s, (uint8_t)(op | slot));
		put_byte(s, (uint8_t)(n >> 8));
		put_byte(s, (uint8_t)n);
		put(s, p, n);
		p += n;
		len -= n;
	} while (len > 0);
}

static void
s_write(struct buf *s, int slot, const uint8_t *p, size_t len)
{
	s_put(s, S_WRITE, slot, p, len);
}

static void
s_op(struct buf *s, int op, int slot, int arg)
{
	put_byte(s, (uint8_t)(op | slot));
	if (arg >= 0)
		put_byte(s, (uint8_t)arg);
}

/* Every protocol seed is also a session seed: written on one connection. */
static void
save_both(const char *name, const struct buf *stream)
{
	struct buf s;

	save_proto(name, stream);
	memset(&s, 0, sizeof(s));
	s_write(&s, 0, stream->p, stream->len);
	save("fuzz_session", name, &s);
	free(s.p);
}

static void
save_json_both(const char *name, int type, const json_t *o)
{
	struct buf b;

	memset(&b, 0, sizeof(b));
	frame_json(&b, type, o);
	save_both(name, &b);
	free(b.p);
}

static void
seeds_valid(void)
{
	static const int types[] = { PROTO_HELLO, PROTO_ACCEPT, PROTO_REFUSE,
	    PROTO_DATA, PROTO_START, PROTO_INTERVAL, PROTO_DONE, PROTO_RESULT,
	    PROTO_ERROR };
	char name[64];
	struct buf b;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&b, 0, sizeof(b));
		msg_frame(&b, types[i]);
		snprintf(name, sizeof(name), "valid-%s",
		    proto_type_str(types[i]));
		save_both(name, &b);
		free(b.p);
	}
	/* A whole conversation in one stream, as proto sees it. */
	memset(&b, 0, sizeof(b));
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		msg_frame(&b, types[i]);
	save_proto("valid-all-types", &b);
	free(b.p);
}

/*
 * The --psk messages: a hello with a nonce, a challenge, an auth; nonces of
 * the wrong length, case and type; headers flagged as sealed with lengths
 * below, at and past the tag and the cap.  The listener of fuzz_session
 * has no key, so a sealed message or a nonce must be refused there.
 */
static void
seeds_auth(void)
{
	static const char *const nonces[] = {
		"\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"",
		"\"00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff\"",
		"\"0011\"", "\"\"", "7", "null",
		"\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00\"",
	};
	static const uint32_t sealed_len[] = { 0, PROTO_TAG_LEN - 1,
	    PROTO_TAG_LEN, PROTO_TAG_LEN + 2, PROTO_MAX_BODY + PROTO_TAG_LEN,
	    PROTO_MAX_BODY + PROTO_TAG_LEN + 1 };
	struct proto_msg *m = msg_new(PROTO_HELLO);
	uint8_t h[PROTO_HEADER_LEN], tag[PROTO_TAG_LEN + 2];
	char name[64], body[160];
	json_t *o;
	struct buf b;
	size_t i;

	memcpy(m->nonce, "00112233445566778899aabbccddeeff"
	    "00112233445566778899aabbccddeeff", PROTO_NONCE_HEX);
	o = msg_json(m);
	save_json_both("valid-hello-nonce", PROTO_HELLO, o);
	json_decref(o);
	free(m);
	for (i = 0; i < sizeof(nonces) / sizeof(nonces[0]); i++) {
		snprintf(body, sizeof(body), "{\"nonce\":%s}", nonces[i]);
		snprintf(name, sizeof(name), "challenge-nonce-%zu", i);
		memset(&b, 0, sizeof(b));
		frame_text(&b, PROTO_CHALLENGE, body);
		save_both(name, &b);
		free(b.p);
	}
	memset(&b, 0, sizeof(b));
	frame_text(&b, PROTO_AUTH, "{}");
	save_both("valid-auth-unsealed", &b);
	free(b.p);
	memset(tag, 0xa5, sizeof(tag));
	for (i = 0; i < sizeof(sealed_len) / sizeof(sealed_len[0]); i++) {
		memset(&b, 0, sizeof(b));
		proto_header_encode(h, PROTO_AUTH, 2);
		proto_header_seal(h);
		h[8] = (uint8_t)(sealed_len[i] >> 24);
		h[9] = (uint8_t)(sealed_len[i] >> 16);
		h[10] = (uint8_t)(sealed_len[i] >> 8);
		h[11] = (uint8_t)sealed_len[i];
		put(&b, h, sizeof(h));
		put(&b, "{}", 2);
		put(&b, tag, sealed_len[i] < sizeof(tag) ? sealed_len[i] :
		    sizeof(tag));
		snprintf(name, sizeof(name), "sealed-len-%u",
		    (unsigned)sealed_len[i]);
		save_both(name, &b);
		free(b.p);
	}
}

/* Header lengths at and around the cap, with and without a body. */
static void
seeds_lengths(void)
{
	struct proto_msg *m = msg_new(PROTO_HELLO);
	json_t *o = msg_json(m);
	char *body = json_dumps(o, JSON_COMPACT);
	uint8_t *pad;
	size_t blen = strlen(body);
	struct buf b;

	if ((pad = malloc(PROTO_MAX_BODY + 1)) == NULL)
		die("out of memory");
	/* A valid hello padded with blanks to exactly the cap. */
	memset(pad, ' ', PROTO_MAX_BODY + 1);
	memcpy(pad, body, blen);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, PROTO_MAX_BODY, pad, PROTO_MAX_BODY);
	save_both("len-cap-65536-valid", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, PROTO_MAX_BODY + 1, pad, PROTO_MAX_BODY + 1);
	save_both("len-cap+1-65537", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, PROTO_MAX_BODY, body, blen);
	save_both("len-cap-65536-truncated", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, 0, "", 0);
	save_both("len-0-hello", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_START, 0, "", 0);
	save_both("len-0-start", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, UINT32_C(0xffffffff), body, blen);
	save_both("len-2^32-1", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_DONE, UINT32_C(0x80000000), "{}", 2);
	save_both("len-2^31", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, 1, "{", 1);
	save_both("len-1", &b);
	free(b.p);
	/* Truncation: a header cut short, a header alone, half a body. */
	memset(&b, 0, sizeof(b));
	frame(&b, PROTO_HELLO, (uint32_t)blen, "", 0);
	b.len = 7;
	save_both("trunc-header-7-bytes", &b);
	b.len = 0;
	frame(&b, PROTO_HELLO, (uint32_t)blen, "", 0);
	save_both("trunc-header-only", &b);
	b.len = 0;
	frame(&b, PROTO_HELLO, (uint32_t)blen, body, blen / 2);
	save_both("trunc-half-body", &b);
	free(b.p);
	free(pad);
	free(body);
	json_decref(o);
	free(m);
}

/* Version, type and flags a listener of version 1 must refuse. */
static void
seeds_header(void)
{
	static const struct {
		const char	*name;
		uint8_t		 h[PROTO_HEADER_LEN];
	} h[] = {
		{ "hdr-version-0", { 'G','B','C','P', 0, 1, 0, 0, 0, 0, 0, 2 } },
		{ "hdr-version-2", { 'G','B','C','P', 2, 1, 0, 0, 0, 0, 0, 2 } },
		{ "hdr-version-255", { 'G','B','C','P', 255, 1, 0,0,0,0,0,2 } },
		{ "hdr-type-0", { 'G','B','C','P', 1, 0, 0, 0, 0, 0, 0, 2 } },
		{ "hdr-type-9", { 'G','B','C','P', 1, 9, 0, 0, 0, 0, 0, 2 } },
		{ "hdr-type-255", { 'G','B','C','P', 1, 255, 0, 0, 0,0,0,2 } },
		{ "hdr-flags-ffff", { 'G','B','C','P', 1, 1, 255, 255, 0,0,0,2 } },
		{ "hdr-magic-lower", { 'g','b','c','p', 1, 1, 0, 0, 0, 0, 0, 2 } },
	};
	struct buf b;
	size_t i;

	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		memset(&b, 0, sizeof(b));
		put(&b, h[i].h, PROTO_HEADER_LEN);
		puts_buf(&b, "{}");
		save_both(h[i].name, &b);
		free(b.p);
	}
}

/* What a scanner or a confused client sends to any port. */
static void
seeds_banners(void)
{
	static const uint8_t tls[] = {
		0x16, 0x03, 0x01, 0x00, 0x31, 0x01, 0x00, 0x00, 0x2d, 0x03,
		0x03, 0x5b, 0x2f, 0x8a, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55,
		0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
		0xaa, 0xbb, 0xcc, 0x00, 0x00, 0x04, 0x13, 0x01, 0x13, 0x02,
		0x01, 0x00, 0x00, 0x00,
	};
	static const char *const text[][2] = {
		{ "banner-http", "GET / HTTP/1.1\r\nHost: gigebench\r\n"
		    "User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n" },
		{ "banner-http-post", "POST /GBCP HTTP/1.0\r\nContent-Length: "
		    "4294967295\r\n\r\n{" },
		{ "banner-ssh", "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u2\r\n" },
		{ "banner-smtp", "EHLO scanner.example\r\n" },
		{ "banner-iperf3-cookie",
		    "abcdefghijklmnopqrstuvwxyz234567abcd\0" },
		{ "banner-gbcp-text", "GBCP" },
	};
	struct buf b;
	size_t i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		memset(&b, 0, sizeof(b));
		puts_buf(&b, text[i][1]);
		save_both(text[i][0], &b);
		free(b.p);
	}
	memset(&b, 0, sizeof(b));
	put(&b, tls, sizeof(tls));
	save_both("banner-tls-clienthello", &b);
	free(b.p);
}

/*
 * The wrong JSON for one member: first WRONG_TYPES other types, then
 * edge values of integers and of strings.
 */
#define WRONG_TYPES	6
static const struct {
	const char	*name;
	const char	*json;
} wrongs[] = {
	{ "string", "\"1\"" },
	{ "null", "null" },
	{ "array", "[1]" },
	{ "object", "{\"a\":1}" },
	{ "bool", "true" },
	{ "real", "1.5" },
	{ "int-max", "9223372036854775807" },
	{ "int-min", "-9223372036854775808" },
	{ "int-2^64", "18446744073709551616" },
	{ "minus-1", "-1" },
	{ "1e308", "1e308" },
	{ "zero", "0" },
	{ "empty-string", "\"\"" },
	{ "u-truncated", "\"\\u\"" },
	{ "uC-truncated", "\"\\uC\"" },
	{ "lone-surrogate", "\"\\uD800\"" },
	{ "nul-escape", "\"a\\u0000b\"" },
	{ "long-string", "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxx\"" },
};

/* The member at path (a.b.c, array indexes as numbers), or NULL. */
static json_t *
member_at(const json_t *o, const char *path)
{
	char buf[128], *key, *next;
	json_t *at = (json_t *)o;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = buf; at != NULL; key = next + 1) {
		if ((next = strchr(key, '.')) != NULL)
			*next = '\0';
		at = json_is_array(at) ? json_array_get(at,
		    (size_t)atoi(key)) : json_object_get(at, key);
		if (next == NULL)
			break;
	}
	return at;
}

/* A copy of o with the member at path (a.b.c) replaced by text. */
static json_t *
with_member(const json_t *o, const char *path, const char *text,
    int remove)
{
	json_t *copy = json_deep_copy(o), *at = copy, *v;
	char buf[128], *key, *next;
	json_error_t jerr;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = buf; (next = strchr(key, '.')) != NULL; key = next + 1) {
		*next = '\0';
		at = json_is_array(at) ? json_array_get(at,
		    (size_t)atoi(key)) : json_object_get(at, key);
	}
	if (remove) {
		json_object_del(at, key);
		return copy;
	}
	if ((v = json_loads(text, JSON_DECODE_ANY, &jerr)) == NULL) {
		json_decref(copy);
		return NULL;	/* text that jansson will not build */
	}
	if (json_is_array(at))
		json_array_set_new(at, (size_t)atoi(key), v);
	else
		json_object_set_new(at, key, v);
	return copy;
}

/* Every member of o, as dotted paths, into paths (objects recursed). */
static size_t
member_paths(const json_t *o, const char *prefix, char paths[][96],
    size_t n, size_t max)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(o)) {
		json_object_foreach((json_t *)o, key, v) {
			if (n >= max)
				break;
			snprintf(paths[n++], 96, "%s%s%s", prefix,
			    prefix[0] != '\0' ? "." : "", key);
			if (json_is_object(v) || json_is_array(v))
				n = member_paths(v, paths[n - 1], paths, n,
				    max);
		}
	} else if (json_is_array(o)) {
		for (i = 0; i < json_array_size(o) && n < max; i++) {
			snprintf(paths[n++], 96, "%s.%zu", prefix, i);
			n = member_paths(json_array_get(o, i), paths[n - 1],
			    paths, n, max);
		}
	}
	return n;
}

/* A body with its bytes spliced: for what jansson will not build. */
static void
save_text_both(const char *name, int type, const char *body)
{
	struct buf b;

	memset(&b, 0, sizeof(b));
	frame_text(&b, type, body);
	save_both(name, &b);
	free(b.p);
}

static void
seeds_hello_types(void)
{
	static char paths[64][96];
	struct proto_msg *m = msg_new(PROTO_HELLO);
	json_t *o = msg_json(m), *w;
	char name[160], *body, *dup;
	size_t i, j, n;
	int kind;

	n = member_paths(o, "", paths, 0, 64);
	for (i = 0; i < n; i++) {
		kind = json_typeof(member_at(o, paths[i]));
		for (j = 0; j < sizeof(wrongs) / sizeof(wrongs[0]); j++) {
			/* Every type for every member; edges by kind. */
			if (j >= WRONG_TYPES && !(kind == JSON_INTEGER &&
			    wrongs[j].json[0] != '"') && !(kind == JSON_STRING &&
			    wrongs[j].json[0] == '"'))
				continue;
			if ((w = with_member(o, paths[i], wrongs[j].json,
			    0)) == NULL)
				continue;
			snprintf(name, sizeof(name), "hello-%s-%s", paths[i],
			    wrongs[j].name);
			save_json_both(name, PROTO_HELLO, w);
			json_decref(w);
		}
		w = with_member(o, paths[i], NULL, 1);
		snprintf(name, sizeof(name), "hello-%s-missing", paths[i]);
		save_json_both(name, PROTO_HELLO, w);
		json_decref(w);
	}
	/* Duplicate keys (jansson builds none; splice the text). */
	body = json_dumps(o, JSON_COMPACT);
	if (asprintf(&dup, "{\"version\":\"x\",%s", body + 1) == -1)
		die("out of memory");
	save_text_both("hello-dup-version", PROTO_HELLO, dup);
	free(dup);
	if ((dup = strstr(body, "\"params\":{")) == NULL)
		die("no params in a hello");
	dup += strlen("\"params\":{");
	{
		char *d2;

		if (asprintf(&d2, "%.*s\"streams\":128,%s", (int)(dup - body),
		    body, dup) == -1)
			die("out of memory");
		save_text_both("hello-dup-streams", PROTO_HELLO, d2);
		free(d2);
	}
	/* Truncated escapes in the version's value: CVE-2016-4303. */
	{
		static const char *const esc[][2] = {
			{ "u", "\\u" }, { "uC", "\\uC" },
			{ "uD800", "\\uD800" }, { "uDBFF-u", "\\uDBFF\\u" },
			{ "backslash", "\\" },
		};
		char *v = strstr(body, "\"version\":\""), *e, *d2;

		if (v == NULL || (e = strchr(v + 11, '"')) == NULL)
			die("no version in a hello");
		for (i = 0; i < sizeof(esc) / sizeof(esc[0]); i++) {
			if (asprintf(&d2, "%.*s%s%s", (int)(v + 11 - body),
			    body, esc[i][1], e) == -1)
				die("out of memory");
			snprintf(name, sizeof(name), "hello-version-escape-%s",
			    esc[i][0]);
			save_text_both(name, PROTO_HELLO, d2);
			free(d2);
		}
	}
	/* Truncated escapes where the body ends. */
	save_text_both("hello-u-at-end", PROTO_HELLO, "{\"version\":\"\\u");
	save_text_both("hello-uC-at-end", PROTO_HELLO, "{\"version\":\"\\uC");
	save_text_both("error-u-escape", PROTO_ERROR, "{\"message\":\"\\u\"}");
	save_text_both("json-deep", PROTO_HELLO,
	    "{\"params\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
	    "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
	    "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}");
	save_text_both("json-trailing", PROTO_START, "{} {}");
	save_text_both("json-not-object", PROTO_START, "[]");
	{
		struct buf b;

		memset(&b, 0, sizeof(b));
		frame(&b, PROTO_START, 3, "{}", 3);	/* the NUL too */
		save_both("json-nul-in-body", &b);
		free(b.p);
	}
	free(body);
	json_decref(o);
	free(m);
}

/* ---- fuzz_side: side JSON documents ---- */

static void
save_side(const char *name, const json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);
	struct buf b;

	if (s == NULL)
		die("cannot dump a side");
	memset(&b, 0, sizeof(b));
	puts_buf(&b, s);
	save("fuzz_side", name, &b);
	free(b.p);
	free(s);
}

static void
seeds_side(void)
{
	static char paths[256][96];
	struct gb_side *s;
	json_t *full, *sparse, *w;
	char name[160];
	size_t i, j, n;
	struct buf b;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		die("out of memory");
	fuzz_fill_side(s);
	if ((full = side_json(s)) == NULL)
		die("a full side does not encode");
	save_side("valid-full", full);
	memset(s, 0, sizeof(*s));
	s->has = 1;
	s->bytes = 1;
	s->host_cpu.max_cpu = -1;
	if ((sparse = side_json(s)) == NULL)
		die("a sparse side does not encode");
	save_side("valid-sparse", sparse);
	/* One wrong type for each member, the three kinds in turn. */
	n = member_paths(full, "", paths, 0, 256);
	for (i = 0; i < n; i++) {
		j = i % 3;	/* string, null, array */
		if ((w = with_member(full, paths[i], wrongs[j].json, 0)) ==
		    NULL)
			continue;
		snprintf(name, sizeof(name), "side-%s-%s", paths[i],
		    wrongs[j].name);
		save_side(name, w);
		json_decref(w);
	}
	/* Huge counts and edge strings on a few members of each kind. */
	{
		static const char *const some[] = { "bytes", "seconds",
		    "interface.name", "interface.lines.0.count",
		    "context.mtu", "capture.frames_rx", "warnings.0",
		    "tcp.cwnd", "host_cpu.max_cpu" };

		for (i = 0; i < sizeof(some) / sizeof(some[0]); i++)
			for (j = WRONG_TYPES; j < sizeof(wrongs) /
			    sizeof(wrongs[0]); j++) {
				if ((w = with_member(full, some[i],
				    wrongs[j].json, 0)) == NULL)
					continue;
				snprintf(name, sizeof(name), "edge-%s-%s",
				    some[i], wrongs[j].name);
				save_side(name, w);
				json_decref(w);
			}
	}
	memset(&b, 0, sizeof(b));
	puts_buf(&b, "{\"bytes\":1,\"bytes\":2}");
	save("fuzz_side", "dup-bytes", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	puts_buf(&b, "{\"interface\":{\"name\":\"\\u");
	save("fuzz_side", "u-at-end", &b);
	free(b.p);
	memset(&b, 0, sizeof(b));
	/* Not JSON: the first byte picks a string member (fuzz_side.c). */
	puts_buf(&b, "\x03SSH-2.0-OpenSSH_9.2p1\r\n");
	save("fuzz_side", "not-json-ssh", &b);
	free(b.p);
	/* A done message carrying the full side, for fuzz_proto too. */
	w = json_pack("{s:O}", "side", full);
	save_json_both("done-full-side", PROTO_DONE, w);
	json_decref(w);
	/* --bidir's: the end's other half as side2. */
	w = json_pack("{s:O, s:O}", "side", full, "side2", sparse);
	save_json_both("done-bidir-side2", PROTO_DONE, w);
	json_decref(w);
	json_decref(full);
	json_decref(sparse);
	free(s);
}

/* ---- fuzz_session: whole conversations ---- */

/* m, written as it is (S_WRITE) or sealed by the harness (S_SEAL). */
static void
s_send(struct buf *s, int op, int slot, const struct proto_msg *m)
{
	uint8_t *p;
	size_t len;

	if ((p = proto_encode(m, &len)) == NULL)
		die("cannot encode a %s", proto_type_str(m->type));
	s_put(s, op, slot, p, len);
	free(p);
}

static void
s_msg(struct buf *s, int slot, const struct proto_msg *m)
{
	s_send(s, S_WRITE, slot, m);
}

/*
 * The handshake on slot 0.  Keyed (fuzz_session_psk): the hello with a
 * nonce, the challenge read, the proof sealed, the accept read; else the
 * hello and a WAIT, which reads the accept.
 */
static void
s_handshake(struct buf *s, struct proto_msg *hello, int keyed)
{
	struct proto_msg *auth = msg_new(PROTO_AUTH);

	if (keyed)
		memset(hello->nonce, '5', 2 * AUTH_NONCE_LEN);
	s_msg(s, 0, hello);
	if (keyed) {
		s_op(s, S_READ, 0, -1);
		s_send(s, S_SEAL, 0, auth);
		s_op(s, S_READ, 0, -1);
	} else {
		s_op(s, S_WAIT, 0, -1);
	}
	free(auth);
}

/*
 * A whole test: hello, data connections (slots 1.. or, past 7 streams,
 * the STREAMS pool), payload, half-closes, done, the result.  path is
 * the listener's data path (GB_PATH_*), 0 for the plain one.
 */
static void
session(const char *name, int keyed, int direction, unsigned streams,
    int done, int extra, int path)
{
	struct proto_msg *hello = msg_new(PROTO_HELLO);
	struct proto_msg *dn = msg_new(PROTO_DONE);
	struct buf s;
	unsigned i;

	hello->params.direction = direction;
	hello->params.streams = streams;
	hello->params.buflen = 16384;
	if (direction == GB_DIR_CLIENT_RECEIVES)
		hello->params.tx_path = path;
	else
		hello->params.rx_path = path;
	if (extra == 6)		/* -i: the listener sends its slices */
		hello->params.interval_ms = 100;
	if (extra == 7)		/* --rr: the listener answers */
		hello->params.rr = hello->params.nodelay = 1;
	memset(&s, 0, sizeof(s));
	s_handshake(&s, hello, keyed);
	if (streams > 7) {
		s_op(&s, S_STREAMS, 0, (int)streams);
		streams = 0;	/* the pool is half-closed at the end */
	}
	for (i = 0; i < streams; i++)
		s_op(&s, S_DATA, 1 + (int)i, (int)i);
	switch (extra) {
	case 1:		/* a stream twice */
		s_op(&s, S_DATA, 5, 0);
		break;
	case 2:		/* a stream past the count */
		s_op(&s, S_DATA, 5, (int)streams);
		break;
	case 3:		/* a hello while busy */
		s_msg(&s, 6, hello);
		break;
	case 4:		/* a second hello on the control connection */
		s_msg(&s, 0, hello);
		break;
	case 5:		/* the token spelled out in a written message */
		{
			struct buf d;
			char body[96];

			memset(&d, 0, sizeof(d));
			snprintf(body, sizeof(body), "{\"token\":\"%s\","
			    "\"stream\":0}", PLACEHOLDER);
			frame_text(&d, PROTO_DATA, body);
			s_write(&s, 5, d.p, d.len);
			free(d.p);
		}
		break;
	}
	for (i = 0; i < streams; i++)
		if (direction == GB_DIR_CLIENT_SENDS)
			s_op(&s, S_FILL, 1 + (int)i, 8);
	for (i = 0; i < streams; i++)
		s_op(&s, S_SHUT, 1 + (int)i, -1);
	if (done) {
		s_op(&s, S_WAIT, 0, -1);
		s_send(&s, keyed ? S_SEAL : S_WRITE, 0, dn);
		s_op(&s, S_READ, 0, -1);	/* the result */
	}
	save(keyed ? "fuzz_session_psk" : "fuzz_session", name, &s);
	free(s.p);
	free(hello);
	free(dn);
}

static void
seeds_sessions(void)
{
	struct proto_msg *m;
	struct buf s;

	session("session-send-1", 0, GB_DIR_CLIENT_SENDS, 1, 1, 0, 0);
	session("session-send-2", 0, GB_DIR_CLIENT_SENDS, 2, 1, 0, 0);
	session("session-send-128", 0, GB_DIR_CLIENT_SENDS, 128, 1, 0, 0);
	session("session-receive-1", 0, GB_DIR_CLIENT_RECEIVES, 1, 1, 0, 0);
	session("session-no-done", 0, GB_DIR_CLIENT_SENDS, 1, 0, 0, 0);
	session("session-stream-twice", 0, GB_DIR_CLIENT_SENDS, 2, 1, 1, 0);
	session("session-stream-past", 0, GB_DIR_CLIENT_SENDS, 1, 1, 2, 0);
	session("session-hello-busy", 0, GB_DIR_CLIENT_SENDS, 1, 1, 3, 0);
	session("session-hello-twice", 0, GB_DIR_CLIENT_SENDS, 1, 1, 4, 0);
	session("session-token-text", 0, GB_DIR_CLIENT_SENDS, 1, 1, 5, 0);
	session("session-interval", 0, GB_DIR_CLIENT_RECEIVES, 1, 1, 6, 0);
	session("session-rr", 0, GB_DIR_CLIENT_SENDS, 2, 1, 7, 0);
	/* Every data path of the listener's end. */
	session("session-path-skip_rx_copy", 0, GB_DIR_CLIENT_SENDS, 1, 1, 0,
	    GB_PATH_SKIP_RX_COPY);
	session("session-path-splice", 0, GB_DIR_CLIENT_SENDS, 1, 1, 0,
	    GB_PATH_SPLICE);
	session("session-path-zerocopy", 0, GB_DIR_CLIENT_RECEIVES, 1, 1, 0,
	    GB_PATH_ZEROCOPY);
	session("session-path-sendfile", 0, GB_DIR_CLIENT_RECEIVES, 1, 1, 0,
	    GB_PATH_SENDFILE);
	/* Data, done and start before any hello. */
	memset(&s, 0, sizeof(s));
	m = msg_new(PROTO_DATA);
	s_msg(&s, 0, m);
	free(m);
	m = msg_new(PROTO_DONE);
	s_msg(&s, 1, m);
	free(m);
	m = msg_new(PROTO_START);
	s_msg(&s, 2, m);
	free(m);
	save("fuzz_session", "session-out-of-order", &s);
	free(s.p);
	/* Connect and close at once; connect and half-close. */
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < 8; i++)
		s_op(&s, i % 2 ? S_CLOSE : S_SHUT, i, -1);
	save("fuzz_session", "session-connect-close", &s);
	free(s.p);
	/* -u: the accept opens the greeter; no datagram comes. */
	memset(&s, 0, sizeof(s));
	m = msg_new(PROTO_HELLO);
	m->params.udp = 1;
	m->params.buflen = 1472;
	m->params.rate_bps = 10000000;
	s_msg(&s, 0, m);
	s_op(&s, S_WAIT, 0, -1);
	free(m);
	save("fuzz_session", "session-udp-hello", &s);
	free(s.p);
	/* A hello asking for an MTU (refused: no --allow-mtu). */
	memset(&s, 0, sizeof(s));
	m = msg_new(PROTO_HELLO);
	m->params.mtu = 9000;
	s_msg(&s, 0, m);
	free(m);
	save("fuzz_session", "session-hello-mtu", &s);
	free(s.p);
	/* A hello cut in the middle, then the connection reset. */
	memset(&s, 0, sizeof(s));
	m = msg_new(PROTO_HELLO);
	{
		uint8_t *p;
		size_t len;

		if ((p = proto_encode(m, &len)) == NULL)
			die("cannot encode a hello");
		s_write(&s, 0, p, len / 2);
		s_op(&s, S_FILL, 1, 1);
		s_op(&s, S_CLOSE, 0, -1);
		free(p);
	}
	free(m);
	save("fuzz_session", "session-half-hello-reset", &s);
	free(s.p);
}

/*
 * fuzz_session_psk: the keyed listener.  Whole tests with the key proven;
 * then handshakes that fail: no nonce, no proof, a proof not sealed, a
 * proof twice, a sealed message other than the proof, data connections
 * before the proof, and five failures from one source before a sixth
 * hello (refused before any key work).
 */
static void
seeds_sessions_psk(void)
{
	static const char *const T = "fuzz_session_psk";
	struct proto_msg *hello = msg_new(PROTO_HELLO);
	struct proto_msg *auth = msg_new(PROTO_AUTH);
	struct proto_msg *dn = msg_new(PROTO_DONE);
	struct buf s;
	int i;

	session("psk-send-1", 1, GB_DIR_CLIENT_SENDS, 1, 1, 0, 0);
	session("psk-send-2", 1, GB_DIR_CLIENT_SENDS, 2, 1, 0, 0);
	session("psk-receive-1", 1, GB_DIR_CLIENT_RECEIVES, 1, 1, 0, 0);
	session("psk-no-done", 1, GB_DIR_CLIENT_SENDS, 1, 0, 0, 0);
	session("psk-hello-busy", 1, GB_DIR_CLIENT_SENDS, 1, 1, 3, 0);
	memset(&s, 0, sizeof(s));
	s_msg(&s, 0, hello);
	save(T, "psk-no-nonce", &s);
	memset(hello->nonce, '5', 2 * AUTH_NONCE_LEN);
	s.len = 0;
	s_msg(&s, 0, hello);
	s_op(&s, S_READ, 0, -1);
	s_op(&s, S_SHUT, 0, -1);
	save(T, "psk-no-proof", &s);
	s.len = 0;
	s_msg(&s, 0, hello);
	s_op(&s, S_READ, 0, -1);
	s_msg(&s, 0, auth);
	s_op(&s, S_READ, 0, -1);
	save(T, "psk-proof-unsealed", &s);
	s.len = 0;
	s_handshake(&s, hello, 1);
	s_send(&s, S_SEAL, 0, auth);
	s_op(&s, S_READ, 0, -1);
	save(T, "psk-proof-twice", &s);
	s.len = 0;
	s_msg(&s, 0, hello);
	s_op(&s, S_READ, 0, -1);
	s_send(&s, S_SEAL, 0, dn);
	s_op(&s, S_READ, 0, -1);
	save(T, "psk-done-for-proof", &s);
	s.len = 0;
	s_msg(&s, 0, hello);
	s_op(&s, S_READ, 0, -1);
	s_op(&s, S_DATA, 1, 0);
	s_send(&s, S_SEAL, 0, auth);
	s_op(&s, S_READ, 0, -1);
	save(T, "psk-data-before-proof", &s);
	s.len = 0;
	for (i = 0; i < 6; i++) {
		s_msg(&s, i, hello);
		s_op(&s, S_READ, i, -1);
		s_msg(&s, i, auth);
		s_op(&s, S_READ, i, -1);
		s_op(&s, S_CLOSE, i, -1);
	}
	save(T, "psk-six-failures", &s);
	free(s.p);
	free(hello);
	free(auth);
	free(dn);
}

/* ---- fuzz_opts: arguments separated by NUL ('|' below) ---- */

static void
seeds_opts(void)
{
	static const char *const argvs[][2] = {
		{ "listen", "-r" },
		{ "server-once", "-S|-1|-4|-B|127.0.0.1|-p|5002" },
		{ "transmit", "-t|-l|128K|-n|100|localhost" },
		{ "receive-from", "-r|-T|2.5|-i|0.5|-P|4|host" },
		{ "all-values", "-t|-b|1M|-C|cubic|-f|G|-I|eth0|-M|1448|-D|-J|"
		    "-q|-v|-v|--capture|--force-bufs|--link-rate|10g|--mtu|9000|"
		    "--rcvbuf|64K|--sndbuf|64K|::1" },
		{ "long-eq", "--transmit|--length=64M|--count=1099511627776|"
		    "--time=86400|--parallel=128|--port=65535|h" },
		{ "sweep", "-t|--sweep|window=4K..1M*2|--sweep|"
		    "length=16K..128K+16K|--repeat|3|host" },
		{ "sweep-cc-mtu", "-t|--sweep|cc=cubic,bbr,reno|--sweep|"
		    "mtu=1500,4096,9000|--sweep|streams=1..128*2|--sweep|"
		    "mss=88..65535*4|host" },
		{ "confidence", "-t|--confidence|95,2|--csv|out.csv|--plot|"
		    "out.svg|host" },
		{ "overflow", "-t|-l|99999999999999999999999G|host" },
		{ "negative", "-t|-T|-1|host" },
		{ "trailing", "-t|-P|4x|host" },
		{ "empty", "-t|-l||host" },
		{ "missing", "-t|-l" },
		{ "ambiguous", "-t|--s|host" },
		{ "restore", "--restore" },
		{ "help", "-h" },
		{ "interval-over", "-t|-i|20|host" },
		{ "iface-bad", "-r|-I|../../etc" },
		{ "two-hosts", "-t|a|b" },
		/* the classic ttcp's command line (--ttcp) */
		{ "ttcp-classic", "--ttcp|-t|-s|-u|-n|2000|-l|1400|-A|4096|-O|"
		    "8|-f|m|h" },
		{ "ttcp-receiver", "--ttcp|-r|-B|-T|-s|--json|"
		    "--silent-timeout|2" },
	};
	struct buf b;
	size_t i, j;

	for (i = 0; i < sizeof(argvs) / sizeof(argvs[0]); i++) {
		memset(&b, 0, sizeof(b));
		for (j = 0; argvs[i][1][j] != '\0'; j++)
			put_byte(&b, argvs[i][1][j] == '|' ? 0 :
			    (uint8_t)argvs[i][1][j]);
		save("fuzz_opts", argvs[i][0], &b);
		free(b.p);
	}
}

/* ---- fuzz_proc: frames for capture_classify, journals, sweeps ---- */

static void
seeds_proc_text(void)
{
	static const char *const text[][2] = {
		{ "journal", "eth0 1500 4026531992\n" },
		{ "journal-max", "veth-test0 2147483647 18446744073709551615\n" },
		{ "journal-bad", "eth0 01500 0\n" },
		{ "sweep", "window=4K..1M*2\nlength=16K..128K+16K\ncc=cubic,bbr\n"
		    "mtu=1500,9000\n" },
		{ "sweep-huge", "length=1..64M+1\nstreams=1..128*1\n" },
		{ "uevent", "DEVTYPE=veth\nINTERFACE=veth0\nIFINDEX=7\n" },
		{ "counter", "18446744073709551615\n" },
		{ "counter-over", "18446744073709551616\n" },
		{ "units", "64K" },
		{ "triple", "4096 131072 6291456\n" },
	};
	struct buf b;
	size_t i;

	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		memset(&b, 0, sizeof(b));
		puts_buf(&b, text[i][1]);
		save("fuzz_proc", text[i][0], &b);
		free(b.p);
	}
}

static void
seeds_frames(void)
{
	/* Ethernet, IPv4, TCP 127.0.0.1:40000 -> 127.0.0.1:5001, no data. */
	static const uint8_t eth4[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x08, 0x00,
		0x45, 0x00, 0x00, 0x28, 0, 0, 0x40, 0, 0x40, 0x06, 0, 0,
		127, 0, 0, 1, 127, 0, 0, 1,
		0x9c, 0x40, 0x13, 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x10,
		0xff, 0xff, 0, 0, 0, 0,
	};
	/* The same behind two VLAN tags. */
	static const uint8_t vlan[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x88, 0xa8, 0, 1,
		0x81, 0x00, 0, 2, 0x08, 0x00,
		0x45, 0x00, 0x00, 0x28, 0, 0, 0x40, 0, 0x40, 0x06, 0, 0,
		127, 0, 0, 1, 127, 0, 0, 1,
		0x9c, 0x40, 0x13, 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x10,
		0xff, 0xff, 0, 0, 0, 0,
	};
	/* Raw IPv6, TCP 2001:db8::2:5001 -> 2001:db8::1:40000. */
	static const uint8_t ip6[] = {
		0x60, 0, 0, 0, 0, 20, 6, 64,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
		0x13, 0x89, 0x9c, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, 0x10,
		0xff, 0xff, 0, 0, 0, 0,
	};
	/* An IPv4 header that claims options past the frame. */
	static const uint8_t ihl[] = {
		0x4f, 0x00, 0x00, 0x28, 0, 0, 0x40, 0, 0x40, 0x06, 0, 0,
		127, 0, 0, 1, 127, 0, 0, 1,
	};
	struct buf b;

	memset(&b, 0, sizeof(b));
	put(&b, eth4, sizeof(eth4));
	save("fuzz_proc", "frame-eth-ipv4-tcp", &b);
	b.len = 0;
	put(&b, vlan, sizeof(vlan));
	save("fuzz_proc", "frame-qinq-ipv4-tcp", &b);
	b.len = 0;
	put(&b, ip6, sizeof(ip6));
	save("fuzz_proc", "frame-raw-ipv6-tcp", &b);
	b.len = 0;
	put(&b, ihl, sizeof(ihl));
	save("fuzz_proc", "frame-ipv4-ihl-15", &b);
	free(b.p);
}

int
main(int argc, char *argv[])
{
	if (argc != 2) {
		fprintf(stderr, "usage: seedgen DIR\n");
		return 2;
	}
	outdir = argv[1];
	seeds_valid();
	seeds_auth();
	seeds_lengths();
	seeds_header();
	seeds_banners();
	seeds_hello_types();
	seeds_side();
	seeds_sessions();
	seeds_sessions_psk();
	seeds_opts();
	seeds_proc_text();
	seeds_frames();
	return 0;
}
