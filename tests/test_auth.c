/*
 * test_auth.c: auth.c and authlimit.c.  HMAC-SHA256 against the seven
 * RFC 4231 vectors; sealing and opening through proto.c's reader, with a
 * flipped byte anywhere, a replay, a reflection, a dropped message and a
 * wrong key each refused; the key file's checks; the per-source limit.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire/auth.h"
#include "wire/authlimit.h"
#include "codec/proto.h"

struct hmac_case {
	const char	*name;
	uint8_t		 key_byte;	/* 0: key_str */
	size_t		 key_len;
	const char	*key_str;
	uint8_t		 data_byte;	/* 0: data_str */
	size_t		 data_len;
	const char	*data_str;
	const char	*want;		/* hex; shorter = truncated */
};

/* RFC 4231, section 4: test cases 1-7, HMAC-SHA-256. */
static const char tc7_data[] = "This is a test using a larger than "
    "block-size key and a larger than block-size data. The key needs to "
    "be hashed before being used by the HMAC algorithm.";

static const struct hmac_case hmac_cases[] = {
	{ "4.2", 0x0b, 20, NULL, 0, 0, "Hi There",
	  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
	{ "4.3", 0, 4, "Jefe", 0, 0, "what do ya want for nothing?",
	  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	{ "4.4", 0xaa, 20, NULL, 0xdd, 50, NULL,
	  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
	{ "4.5", 0, 25, NULL, 0xcd, 50, NULL,	/* key 0x01..0x19 */
	  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
	{ "4.6", 0x0c, 20, NULL, 0, 0, "Test With Truncation",
	  "a3b6167473100ee06e0c796c2955552b" },
	{ "4.7", 0xaa, 131, NULL, 0, 0,
	  "Test Using Larger Than Block-Size Key - Hash Key First",
	  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
	{ "4.8", 0xaa, 131, NULL, 0, 0, tc7_data,
	  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
};

static void
test_rfc4231(void **state)
{
	uint8_t key[256], data[256], mac[AUTH_HASH_LEN];
	char hex[2 * AUTH_HASH_LEN + 1];
	const struct hmac_case *c;
	size_t i, j, dlen;

	(void)state;
	assert_int_equal(auth_init(), 0);
	for (i = 0; i < sizeof(hmac_cases) / sizeof(hmac_cases[0]); i++) {
		c = &hmac_cases[i];
		for (j = 0; j < c->key_len; j++)
			key[j] = c->key_str != NULL ? (uint8_t)c->key_str[j] :
			    c->key_byte != 0 ? c->key_byte : (uint8_t)(j + 1);
		if (c->data_str != NULL) {
			dlen = strlen(c->data_str);
			memcpy(data, c->data_str, dlen);
		} else {
			dlen = c->data_len;
			memset(data, c->data_byte, dlen);
		}
		auth_hmac(key, c->key_len, data, dlen, mac);
		auth_hex(mac, sizeof(mac), hex);
		hex[strlen(c->want)] = '\0';
		if (strcmp(hex, c->want) != 0)
			fail_msg("RFC 4231 %s: got %s, want %s", c->name, hex,
			    c->want);
	}
}

static void
test_hex(void **state)
{
	uint8_t b[4] = { 0x00, 0x7f, 0xa5, 0xff }, back[4];
	char hex[9];

	(void)state;
	auth_hex(b, sizeof(b), hex);
	assert_string_equal(hex, "007fa5ff");
	assert_int_equal(auth_unhex(hex, back, sizeof(back)), 0);
	assert_memory_equal(b, back, sizeof(b));
	assert_int_equal(auth_unhex("007fa5f", back, 4), -1);
	assert_int_equal(auth_unhex("007fa5ff0", back, 4), -1);
	assert_int_equal(auth_unhex("007fa5fg", back, 4), -1);
	assert_int_equal(auth_unhex("", back, 4), -1);
}

/* Two ends keyed from one exchange, as the handshake does. */
struct pair {
	struct auth_key		k;
	struct auth_session	c, l;
};

static void
pair_init(struct pair *p, const char *key, const char *lkey)
{
	static const uint8_t hello[] = "GBCP\1\1\0\0\0\0\0\2{}";
	uint8_t nc[AUTH_NONCE_LEN], ns[AUTH_NONCE_LEN];

	auth_nonce(nc);
	auth_nonce(ns);
	memset(&p->k, 0, sizeof(p->k));
	p->k.len = strlen(key);
	memcpy(p->k.bytes, key, p->k.len);
	auth_session_init(&p->c, &p->k, nc, ns, hello, sizeof(hello) - 1, 1);
	p->k.len = strlen(lkey);
	memcpy(p->k.bytes, lkey, p->k.len);
	auth_session_init(&p->l, &p->k, nc, ns, hello, sizeof(hello) - 1, 0);
}

static uint8_t *
sealed(struct auth_session *a, int type, const char *text, size_t *len)
{
	struct proto_msg m;
	uint8_t *buf;

	memset(&m, 0, sizeof(m));
	m.type = type;
	snprintf(m.message, sizeof(m.message), "%s", text);
	buf = proto_encode(&m, len);
	assert_non_null(buf);
	assert_int_equal(auth_seal(a, &buf, len), 0);
	return buf;
}

/* The reader takes a header, then a body: push until it stops. */
static int
fill(struct proto_reader *r, const uint8_t *buf, size_t len)
{
	size_t off = 0;
	long n;

	while (off < len && (n = proto_reader_push(r, buf + off,
	    len - off)) > 0)
		off += (size_t)n;
	return off == len && proto_reader_done(r) ? 0 : -1;
}

/* Feed buf to a fresh reader and open it with a; the status of both. */
static int
opened(struct auth_session *a, const uint8_t *buf, size_t len,
    struct proto_msg *m)
{
	struct proto_reader r;
	char err[256];
	int rc = -1;

	proto_reader_init(&r);
	if (fill(&r, buf, len) == 0 && auth_open(a, &r, err, sizeof(err)) == 0)
		rc = proto_reader_decode(&r, m, err, sizeof(err));
	proto_reader_reset(&r);
	return rc;
}

static void
test_seal_open(void **state)
{
	struct pair p;
	struct proto_msg m;
	uint8_t *buf;
	size_t len;

	(void)state;
	pair_init(&p, "0123456789abcdef", "0123456789abcdef");
	buf = sealed(&p.c, PROTO_ERROR, "from the client", &len);
	assert_int_equal(opened(&p.l, buf, len, &m), PROTO_OK);
	assert_int_equal(m.type, PROTO_ERROR);
	assert_string_equal(m.message, "from the client");
	free(buf);
	buf = sealed(&p.l, PROTO_ERROR, "from the listener", &len);
	assert_int_equal(opened(&p.c, buf, len, &m), PROTO_OK);
	assert_string_equal(m.message, "from the listener");
	free(buf);
}

/* Every byte of a sealed message, flipped one bit at a time. */
static void
test_flipped_bytes(void **state)
{
	struct pair p;
	struct proto_msg m;
	uint8_t *buf;
	size_t len, i;
	int bit;

	(void)state;
	pair_init(&p, "0123456789abcdef", "0123456789abcdef");
	buf = sealed(&p.c, PROTO_ERROR, "payload", &len);
	for (i = 0; i < len; i++)
		for (bit = 0; bit < 8; bit++) {
			buf[i] ^= (uint8_t)(1 << bit);
			p.l.seq_in = 0;
			if (opened(&p.l, buf, len, &m) == PROTO_OK)
				fail_msg("byte %zu bit %d flipped: accepted",
				    i, bit);
			buf[i] ^= (uint8_t)(1 << bit);
		}
	p.l.seq_in = 0;
	assert_int_equal(opened(&p.l, buf, len, &m), PROTO_OK);
	free(buf);
}

static void
test_replay_reflect_drop(void **state)
{
	struct pair p;
	struct proto_msg m;
	uint8_t *a, *b;
	size_t alen, blen;

	(void)state;
	pair_init(&p, "0123456789abcdef", "0123456789abcdef");
	a = sealed(&p.c, PROTO_ERROR, "first", &alen);
	b = sealed(&p.c, PROTO_ERROR, "second", &blen);
	/* Dropped: the second before the first. */
	assert_int_not_equal(opened(&p.l, b, blen, &m), PROTO_OK);
	p.l.seq_in = 0;
	assert_int_equal(opened(&p.l, a, alen, &m), PROTO_OK);
	/* Replayed: the first again. */
	assert_int_not_equal(opened(&p.l, a, alen, &m), PROTO_OK);
	/* Reflected: the client's own message back to it. */
	assert_int_not_equal(opened(&p.c, a, alen, &m), PROTO_OK);
	free(a);
	free(b);
}

static void
test_wrong_key(void **state)
{
	struct pair p;
	struct proto_msg m;
	uint8_t *buf;
	size_t len;
	char tc[PROTO_TOKEN_LEN + 1], tl[PROTO_TOKEN_LEN + 1];

	(void)state;
	pair_init(&p, "0123456789abcdef", "0123456789abcdeF");
	buf = sealed(&p.c, PROTO_AUTH, "", &len);
	assert_int_not_equal(opened(&p.l, buf, len, &m), PROTO_OK);
	free(buf);
	auth_token(&p.c, tc);
	auth_token(&p.l, tl);
	assert_int_equal(strlen(tc), PROTO_TOKEN_LEN);
	assert_string_not_equal(tc, tl);
	pair_init(&p, "0123456789abcdef", "0123456789abcdef");
	auth_token(&p.c, tc);
	auth_token(&p.l, tl);
	assert_string_equal(tc, tl);
}

/* Unsealed and sealed messages each refused where the other is wanted. */
static void
test_plain_vs_sealed(void **state)
{
	struct pair p;
	struct proto_msg m, out;
	struct proto_reader r;
	uint8_t *buf;
	size_t len;
	char err[256];

	(void)state;
	pair_init(&p, "0123456789abcdef", "0123456789abcdef");
	memset(&out, 0, sizeof(out));
	out.type = PROTO_START;
	buf = proto_encode(&out, &len);
	assert_int_not_equal(opened(&p.l, buf, len, &m), PROTO_OK);
	free(buf);
	buf = sealed(&p.c, PROTO_START, "", &len);
	proto_reader_init(&r);
	assert_int_equal(fill(&r, buf, len), 0);
	assert_int_equal(proto_reader_decode(&r, &m, err, sizeof(err)),
	    PROTO_E_AUTH);
	proto_reader_reset(&r);
	free(buf);
}

static char tmpdir[] = "/tmp/test_auth.XXXXXX";

static const char *
keyfile(const char *name, const char *content, size_t len, mode_t mode)
{
	static char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd != -1);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

static void
key_refused(const char *path, const char *why)
{
	struct auth_key k;
	char err[512];

	assert_int_equal(auth_key_load(path, &k, err, sizeof(err)), -1);
	if (strstr(err, why) == NULL || strstr(err, path) == NULL)
		fail_msg("%s: \"%s\" lacks \"%s\" or the path", path, err,
		    why);
	assert_int_equal(k.len, 0);
}

static void
test_key_file(void **state)
{
	struct auth_key k;
	char err[512], big[AUTH_KEY_MAX + 8], path[160];

	(void)state;
	assert_non_null(mkdtemp(tmpdir));
	assert_int_equal(auth_key_load(keyfile("ok", "0123456789abcdef\n", 17,
	    0600), &k, err, sizeof(err)), 0);
	assert_int_equal(k.len, 16);	/* the newline is not the key's */
	assert_memory_equal(k.bytes, "0123456789abcdef", 16);
	assert_int_equal(auth_key_load(keyfile("crlf", "0123456789abcdef\r\n",
	    18, 0400), &k, err, sizeof(err)), 0);
	assert_int_equal(k.len, 16);
	key_refused(keyfile("g", "0123456789abcdef", 16, 0640), "mode 0640");
	key_refused(keyfile("o", "0123456789abcdef", 16, 0604), "mode 0604");
	key_refused(keyfile("gw", "0123456789abcdef", 16, 0620), "group");
	key_refused(keyfile("empty", "", 0, 0600), "empty");
	key_refused(keyfile("nl", "\n", 1, 0600), "empty");
	key_refused(keyfile("short", "0123456789abcde", 15, 0600),
	    "15 bytes");
	memset(big, 'k', sizeof(big));
	key_refused(keyfile("big", big, sizeof(big), 0600), "longer");
	/* Within the size check's CR LF allowance, but no newline to strip. */
	key_refused(keyfile("1025", big, AUTH_KEY_MAX + 1, 0600), "longer");
	key_refused(keyfile("1026", big, AUTH_KEY_MAX + 2, 0600), "longer");
	big[AUTH_KEY_MAX + 1] = '\n';
	key_refused(keyfile("1025nl", big, AUTH_KEY_MAX + 2, 0600), "longer");
	big[AUTH_KEY_MAX] = '\n';
	assert_int_equal(auth_key_load(keyfile("1024nl", big, AUTH_KEY_MAX + 1,
	    0600), &k, err, sizeof(err)), 0);
	assert_int_equal(k.len, AUTH_KEY_MAX);
	big[AUTH_KEY_MAX] = '\r';
	big[AUTH_KEY_MAX + 1] = '\n';
	assert_int_equal(auth_key_load(keyfile("1024crlf", big,
	    AUTH_KEY_MAX + 2, 0600), &k, err, sizeof(err)), 0);
	assert_int_equal(k.len, AUTH_KEY_MAX);
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	key_refused(path, "No such file");
	key_refused(tmpdir, "not a regular file");
	snprintf(path, sizeof(path), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	key_refused(path, "not a regular file");	/* and no hang */
	unlink(path);
}

static void
test_authlimit(void **state)
{
	struct authlimit *al = calloc(1, sizeof(*al));
	char addr[32];
	int64_t t = 1000000;
	int i;

	(void)state;
	assert_non_null(al);
	authlimit_init(al);
	for (i = 0; i < AUTHLIMIT_FAILS - 1; i++) {
		authlimit_fail(al, "192.0.2.1", t + i);
		assert_int_equal(authlimit_blocked(al, "192.0.2.1", t + i), 0);
	}
	authlimit_fail(al, "192.0.2.1", t + 10);
	assert_int_equal(authlimit_blocked(al, "192.0.2.1", t + 10),
	    AUTHLIMIT_BLOCK_MS);
	assert_int_equal(authlimit_blocked(al, "192.0.2.2", t + 10), 0);
	assert_int_equal(authlimit_blocked(al, "192.0.2.1",
	    t + 10 + AUTHLIMIT_BLOCK_MS), 0);
	/* Failures spread wider than the window never block. */
	for (i = 0; i < 3 * AUTHLIMIT_FAILS; i++) {
		authlimit_fail(al, "192.0.2.3", t + (int64_t)i *
		    (AUTHLIMIT_WINDOW_MS / (AUTHLIMIT_FAILS - 1) + 1));
		assert_int_equal(authlimit_blocked(al, "192.0.2.3", t +
		    (int64_t)i * (AUTHLIMIT_WINDOW_MS /
		    (AUTHLIMIT_FAILS - 1) + 1)), 0);
	}
	/* A success forgets the failures. */
	for (i = 0; i < AUTHLIMIT_FAILS - 1; i++)
		authlimit_fail(al, "192.0.2.4", t);
	authlimit_ok(al, "192.0.2.4");
	authlimit_fail(al, "192.0.2.4", t);
	assert_int_equal(authlimit_blocked(al, "192.0.2.4", t), 0);
	/* Failures from many sources do not free a blocked one. */
	for (i = 0; i < 4 * AUTHLIMIT_SLOTS; i++) {
		snprintf(addr, sizeof(addr), "198.51.100.%d/%d", i % 250, i);
		authlimit_fail(al, addr, t + 20 + i);
	}
	assert_true(authlimit_blocked(al, "192.0.2.1", t + 20 +
	    4 * AUTHLIMIT_SLOTS) > 0);
	free(al);
}

/* IPv6 sources are /64s: one host's many addresses count as one. */
static void
test_authlimit_v6(void **state)
{
	struct authlimit *al = calloc(1, sizeof(*al));
	char addr[64];
	int64_t t = 1000000;
	int i;

	(void)state;
	assert_non_null(al);
	authlimit_init(al);
	for (i = 0; i < AUTHLIMIT_FAILS; i++) {
		snprintf(addr, sizeof(addr), "2001:db8:1:2::%x", i + 1);
		authlimit_fail(al, addr, t + i * 1000);
	}
	assert_true(authlimit_blocked(al, "2001:db8:1:2:ffff::1",
	    t + AUTHLIMIT_FAILS * 1000) > 0);
	assert_int_equal(authlimit_blocked(al, "2001:db8:1:3::1",
	    t + AUTHLIMIT_FAILS * 1000), 0);
	/* A mapped IPv4 address is that IPv4 source. */
	authlimit_init(al);
	for (i = 0; i < AUTHLIMIT_FAILS; i++)
		authlimit_fail(al, "::ffff:192.0.2.9", t + i * 1000);
	assert_true(authlimit_blocked(al, "192.0.2.9",
	    t + AUTHLIMIT_FAILS * 1000) > 0);
	free(al);
}

/* Failures from rotating addresses are bounded in all. */
static void
test_authlimit_global(void **state)
{
	struct authlimit *al = calloc(1, sizeof(*al));
	char addr[32];
	int64_t t = 1000000;
	int i;

	(void)state;
	assert_non_null(al);
	authlimit_init(al);
	for (i = 0; i < AUTHLIMIT_GLOBAL_FAILS - 1; i++) {
		snprintf(addr, sizeof(addr), "198.51.100.%d", i + 1);
		authlimit_fail(al, addr, t + i);
	}
	assert_int_equal(authlimit_blocked(al, "203.0.113.1", t + 100), 0);
	authlimit_fail(al, "198.51.100.250", t + 100);
	/* Every source waits until the window ends, then all is well. */
	assert_int_equal(authlimit_blocked(al, "203.0.113.1", t + 100),
	    AUTHLIMIT_GLOBAL_MS - 100);
	assert_int_equal(authlimit_blocked(al, "203.0.113.1",
	    t + AUTHLIMIT_GLOBAL_MS), 0);
	/* The same number spread over more than a window blocks no one. */
	for (i = 0; i < 2 * AUTHLIMIT_GLOBAL_FAILS; i++) {
		snprintf(addr, sizeof(addr), "192.0.2.%d", i + 1);
		authlimit_fail(al, addr, t + 10 * AUTHLIMIT_GLOBAL_MS +
		    (int64_t)i * (AUTHLIMIT_GLOBAL_MS / 8));
		assert_int_equal(authlimit_blocked(al, "203.0.113.1", t + 10 *
		    AUTHLIMIT_GLOBAL_MS + (int64_t)i *
		    (AUTHLIMIT_GLOBAL_MS / 8)), 0);
	}
	free(al);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc4231),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_seal_open),
		cmocka_unit_test(test_flipped_bytes),
		cmocka_unit_test(test_replay_reflect_drop),
		cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_plain_vs_sealed),
		cmocka_unit_test(test_key_file),
		cmocka_unit_test(test_authlimit),
		cmocka_unit_test(test_authlimit_v6),
		cmocka_unit_test(test_authlimit_global),
	};
	int rc;

	if (auth_init() == -1)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmpdir[sizeof(tmpdir) - 2] != 'X') {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd) != 0)
			rc = 1;
	}
	return rc;
}
