/*
 * auth.h: the pre-shared-key scheme (--psk), on libsodium.
 *
 *	C->L hello {..., nonce: Nc}		32 random bytes, hex
 *	L->C challenge {nonce: Ns}
 *	C->L auth {}				sealed
 *	L->C accept {token}			sealed; so is everything after
 *
 * Both ends derive a session key from the key file's bytes K:
 *
 *	Ks = HMAC-SHA256(K, "gigebench psk 1" || Nc || Ns || SHA-256(hello))
 *
 * where hello is the hello message as sent (header and body), so the test
 * parameters are bound to it.  A sealed message carries PROTO_F_MAC in its
 * header and ends in a 32-byte tag (counted in the header's length):
 *
 *	tag = HMAC-SHA256(Ks, sender || seq || header || body)
 *
 * sender is 'C' or 'L', seq the sender's count of sealed messages (u64, big
 * endian, from 0), header the 12 bytes as sent.  Fresh nonces on both sides
 * make a replayed message fail; seq makes a dropped, repeated or reordered
 * one fail; the sender byte keeps a message from being reflected.  The data
 * connections present a token derived from Ks, HMAC-SHA256(Ks, "gigebench
 * data token") cut to 16 bytes, and must come from the control connection's
 * address.  Nothing is encrypted: this authenticates, it does not hide.
 */
#ifndef GB_AUTH_H
#define GB_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "codec/proto.h"

#define AUTH_KEY_MIN	16	/* bytes in the key file */
#define AUTH_KEY_MAX	1024
#define AUTH_NONCE_LEN	32
#define AUTH_HASH_LEN	32

struct auth_key {
	uint8_t		bytes[AUTH_KEY_MAX];
	size_t		len;
};

struct auth_session {
	uint8_t		key[AUTH_HASH_LEN];	/* Ks */
	uint64_t	seq_out, seq_in;
	char		me, peer;		/* 'C' or 'L' */
};

/* libsodium's set-up; -1 when it cannot run (no entropy source). */
int	auth_init(void);
/*
 * Read a key file: a regular file, not readable or writable by group or
 * others, AUTH_KEY_MIN to AUTH_KEY_MAX bytes; one trailing newline (CR LF
 * too) is not part of the key.  The error names the file.
 */
int	auth_key_load(const char *path, struct auth_key *, char *err,
	    size_t errlen);
void	auth_key_wipe(struct auth_key *);

void	auth_nonce(uint8_t out[AUTH_NONCE_LEN]);
void	auth_hex(const uint8_t *, size_t, char *out);	/* 2n + 1 bytes */
/* Exactly 2 * len lowercase or uppercase hex digits into out. */
int	auth_unhex(const char *hex, uint8_t *out, size_t len);

/* One-shot HMAC-SHA256 with a key of any length (RFC 2104). */
void	auth_hmac(const uint8_t *key, size_t keylen, const uint8_t *msg,
	    size_t len, uint8_t out[AUTH_HASH_LEN]);

/* Ks and the sequence numbers; is_client picks the sender bytes. */
void	auth_session_init(struct auth_session *, const struct auth_key *,
	    const uint8_t nc[AUTH_NONCE_LEN], const uint8_t ns[AUTH_NONCE_LEN],
	    const uint8_t *hello, size_t hello_len, int is_client);
void	auth_session_wipe(struct auth_session *);
/* The data connections' token, PROTO_TOKEN_LEN hex digits. */
void	auth_token(const struct auth_session *,
	    char out[PROTO_TOKEN_LEN + 1]);

/*
 * Seal an encoded message (proto_encode's buffer, reallocated): set the
 * flag, grow the length, append the tag.  -1 when memory runs out.
 */
int	auth_seal(struct auth_session *, uint8_t **buf, size_t *len);
/*
 * Check and strip the tag of a complete message in r.  0 when it is sealed
 * and the tag is right; -1 with a reason otherwise (r is then unusable).
 */
int	auth_open(struct auth_session *, struct proto_reader *r, char *err,
	    size_t errlen);

#endif /* GB_AUTH_H */
