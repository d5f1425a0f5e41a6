/*
 * auth.c: key file, nonces, session key, sealing (see auth.h).  All the
 * cryptography is libsodium's: HMAC-SHA256, SHA-256, randombytes and the
 * constant-time comparison.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "wire/auth.h"

static const char label_session[] = "gigebench psk 1";
static const char label_token[] = "gigebench data token";

int
auth_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

/*
 * The key and at most a CR LF after it: a file that holds more than that
 * is refused, never cut to AUTH_KEY_MAX (the size from fstat is checked
 * first, and what read() returns again, in case the file grew).
 */
static int
key_read_bytes(int fd, const char *path, uint8_t *buf, size_t size,
    size_t *got, char *err, size_t errlen)
{
	ssize_t n;

	*got = 0;
	while (*got < size &&
	    (n = read(fd, buf + *got, size - *got)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			snprintf(err, errlen, "%s: %s", path,
			    strerror(errno));
			return -1;
		}
		*got += (size_t)n;
	}
	return 0;
}

static int
key_read(int fd, const char *path, const struct stat *st,
    struct auth_key *k, char *err, size_t errlen)
{
	uint8_t buf[AUTH_KEY_MAX + 3];
	size_t got;
	int rc = -1;

	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	if ((st->st_mode & (S_IRWXG | S_IRWXO)) != 0) {
		snprintf(err, errlen, "%s: readable or writable by group "
		    "or others (mode %04o); chmod 600 it", path,
		    (unsigned)(st->st_mode & 07777));
		return -1;
	}
	if (st->st_size > AUTH_KEY_MAX + 2) {
		snprintf(err, errlen, "%s: longer than %d bytes", path,
		    AUTH_KEY_MAX);
		return -1;
	}
	if (key_read_bytes(fd, path, buf, sizeof(buf), &got, err,
	    errlen) == -1)
		goto out;
	if (got > 0 && buf[got - 1] == '\n')
		got--;
	if (got > 0 && buf[got - 1] == '\r')
		got--;
	if (got > AUTH_KEY_MAX) {
		snprintf(err, errlen, "%s: longer than %d bytes (a trailing "
		    "newline not counted)", path, AUTH_KEY_MAX);
		goto out;
	}
	if (got == 0) {
		snprintf(err, errlen, "%s: the file is empty", path);
		goto out;
	}
	if (got < AUTH_KEY_MIN) {
		snprintf(err, errlen, "%s: the key is %zu bytes; use at "
		    "least %d (head -c 32 /dev/urandom | base64 > FILE)", path,
		    got, AUTH_KEY_MIN);
		goto out;
	}
	memcpy(k->bytes, buf, got);
	k->len = got;
	rc = 0;
out:
	sodium_memzero(buf, sizeof(buf));
	return rc;
}

int
auth_key_load(const char *path, struct auth_key *k, char *err, size_t errlen)
{
	struct stat st;
	int fd, rc;

	memset(k, 0, sizeof(*k));
	/* O_NONBLOCK: a FIFO must not hang start-up; it is refused below. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	} else
		rc = key_read(fd, path, &st, k, err, errlen);
	close(fd);
	if (rc == -1)
		auth_key_wipe(k);
	return rc;
}

void
auth_key_wipe(struct auth_key *k)
{
	sodium_memzero(k, sizeof(*k));
}

void
auth_nonce(uint8_t out[AUTH_NONCE_LEN])
{
	randombytes_buf(out, AUTH_NONCE_LEN);
}

void
auth_hex(const uint8_t *in, size_t len, char *out)
{
	sodium_bin2hex(out, 2 * len + 1, in, len);
}

int
auth_unhex(const char *hex, uint8_t *out, size_t len)
{
	size_t got;

	if (strlen(hex) != 2 * len || sodium_hex2bin(out, len, hex, 2 * len,
	    NULL, &got, NULL) != 0 || got != len)
		return -1;
	return 0;
}

void
auth_hmac(const uint8_t *key, size_t keylen, const uint8_t *msg, size_t len,
    uint8_t out[AUTH_HASH_LEN])
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, key, keylen);
	crypto_auth_hmacsha256_update(&st, msg, len);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

void
auth_session_init(struct auth_session *a, const struct auth_key *k,
    const uint8_t nc[AUTH_NONCE_LEN], const uint8_t ns[AUTH_NONCE_LEN],
    const uint8_t *hello, size_t hello_len, int is_client)
{
	crypto_auth_hmacsha256_state st;
	uint8_t h[AUTH_HASH_LEN];

	crypto_hash_sha256(h, hello, hello_len);
	crypto_auth_hmacsha256_init(&st, k->bytes, k->len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label_session,
	    sizeof(label_session) - 1);
	crypto_auth_hmacsha256_update(&st, nc, AUTH_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, ns, AUTH_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, h, sizeof(h));
	crypto_auth_hmacsha256_final(&st, a->key);
	sodium_memzero(&st, sizeof(st));
	a->seq_out = a->seq_in = 0;
	a->me = is_client ? 'C' : 'L';
	a->peer = is_client ? 'L' : 'C';
}

void
auth_session_wipe(struct auth_session *a)
{
	sodium_memzero(a, sizeof(*a));
}

void
auth_token(const struct auth_session *a, char out[PROTO_TOKEN_LEN + 1])
{
	uint8_t h[AUTH_HASH_LEN];

	auth_hmac(a->key, sizeof(a->key), (const uint8_t *)label_token,
	    sizeof(label_token) - 1, h);
	auth_hex(h, PROTO_TOKEN_LEN / 2, out);
}

static void
tag_of(const struct auth_session *a, char sender, uint64_t seq,
    const uint8_t hdr[PROTO_HEADER_LEN], const uint8_t *body, size_t len,
    uint8_t out[AUTH_HASH_LEN])
{
	crypto_auth_hmacsha256_state st;
	uint8_t pre[9];
	int i;

	pre[0] = (uint8_t)sender;
	for (i = 0; i < 8; i++)
		pre[1 + i] = (uint8_t)(seq >> (56 - 8 * i));
	crypto_auth_hmacsha256_init(&st, a->key, sizeof(a->key));
	crypto_auth_hmacsha256_update(&st, pre, sizeof(pre));
	crypto_auth_hmacsha256_update(&st, hdr, PROTO_HEADER_LEN);
	crypto_auth_hmacsha256_update(&st, body, len);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

int
auth_seal(struct auth_session *a, uint8_t **buf, size_t *len)
{
	uint8_t *p;
	size_t body = *len - PROTO_HEADER_LEN;

	if ((p = realloc(*buf, *len + PROTO_TAG_LEN)) == NULL)
		return -1;
	*buf = p;
	proto_header_seal(p);
	tag_of(a, a->me, a->seq_out++, p, p + PROTO_HEADER_LEN, body,
	    p + *len);
	*len += PROTO_TAG_LEN;
	return 0;
}

int
auth_open(struct auth_session *a, struct proto_reader *r, char *err,
    size_t errlen)
{
	uint8_t want[AUTH_HASH_LEN], got[PROTO_TAG_LEN];
	int ok;

	if (proto_reader_take_tag(r, got) == -1) {
		snprintf(err, errlen, "%s message is not authenticated",
		    proto_type_str(r->h.type));
		return -1;
	}
	tag_of(a, a->peer, a->seq_in++, r->hdr, r->body, r->h.length, want);
	ok = sodium_memcmp(want, got, sizeof(want)) == 0;
	if (!ok)
		snprintf(err, errlen, "%s message failed authentication (wrong "
		    "key, or altered on the way)", proto_type_str(r->h.type));
	return ok ? 0 : -1;
}
