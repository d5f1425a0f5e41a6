/*
 * fuzz_side.c: libFuzzer target for side_from_json() (src/side_in.c,
 * side_in_detail.c and side_member.c, with context_from_json() and
 * capture_from_json() below them): the decoder of the figures a peer sends in its done and
 * result messages, about 150 typed and ranged members.
 *
 * Input: JSON text, loaded as the protocol loads a body (json_loadb, no
 * duplicate keys, no trailing bytes), then decoded as a side.  Bytes that
 * are not JSON still get used: put as a string (when they are UTF-8) into
 * one string member of a valid side, chosen by the first byte, so that
 * the length, NUL and printable checks of every string field are fed
 * whatever a \u escape can carry.
 *
 * Oracles beyond the sanitizers: a decode that fails names a member; a
 * side that decodes re-encodes with side_json(), goes through
 * json_dumps() and json_loadb() as on the wire, and decodes again to the
 * same struct, byte for byte (the decoder memsets first, so padding is
 * zero on both sides).  The decoded side then goes through what the
 * connecting side does with it: diag_run(), report_json(), report_text().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_util.h"
#include "codec/side.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Members that hold text, as "object.member" or "object.array.0.member". */
static const char *const string_members[] = {
	"interface.name", "interface.irq_list", "interface.note",
	"interface.lines.0.name", "interface.lines.0.chip",
	"interface.lines.0.actions", "interface.lines.0.cpus",
	"warnings.0", "context.kernel", "context.cpu_model",
	"context.driver", "context.duplex", "context.sysctl.tcp_rmem",
	"context.congestion", "context.note", "context.hostname",
	"context.version",
};

/* Name the first member whose bytes differ; enough to start a diff. */
static const char *
side_member_at(size_t off)
{
	static const struct {
		const char	*name;
		size_t		 off;
	} m[] = {
#define M(f) { #f, offsetof(struct gb_side, f) }
		M(has), M(bytes), M(seconds), M(mbps), M(calls), M(cpu),
		M(host_cpu), M(iface), M(tcp), M(sndbuf), M(rcvbuf),
		M(context), M(capture), M(nwarnings), M(warnings),
#undef M
	};
	size_t i;

	for (i = sizeof(m) / sizeof(m[0]); i-- > 0; )
		if (off >= m[i].off)
			return m[i].name;
	return "?";
}

static void
fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_side: %s%s%s\n", what, detail != NULL ? ": " :
	    "", detail != NULL ? detail : "");
	abort();
}

/* Replace the member at path (dots, array indexes as digits) with v. */
static void
set_path(json_t *root, const char *path, json_t *v)
{
	char buf[64], *key, *next;
	json_t *o = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = buf; (next = strchr(key, '.')) != NULL; key = next + 1) {
		*next = '\0';
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(key)) :
		    json_object_get(o, key);
	}
	if (json_is_array(o))
		json_array_set_new(o, (size_t)atoi(key), v);
	else
		json_object_set_new(o, key, v);
}

/* Not JSON: the bytes as one string member of a full side. */
static json_t *
side_with_string(const uint8_t *data, size_t size)
{
	struct gb_side *s;
	json_t *j, *v;

	if (size < 1 || (v = json_stringn((const char *)data + 1,
	    size - 1)) == NULL)
		return NULL;
	if ((s = malloc(sizeof(*s))) == NULL)
		abort();
	fuzz_fill_side(s);
	j = side_json(s);
	free(s);
	if (j == NULL)
		fail("a full side does not encode", NULL);
	set_path(j, string_members[data[0] % (sizeof(string_members) /
	    sizeof(string_members[0]))], v);
	return j;
}

/* Decoded side a: encode, dump, load, decode into b, compare. */
static void
roundtrip(const struct gb_side *a, struct gb_side *b)
{
	char err[GB_ERR_LEN], *text;
	json_error_t jerr;
	json_t *j;
	size_t i;

	if ((j = side_json(a)) == NULL)
		fail("a decoded side does not encode", NULL);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (text == NULL)
		fail("a decoded side does not dump", NULL);
	if ((j = json_loadb(text, strlen(text), JSON_REJECT_DUPLICATES,
	    &jerr)) == NULL)
		fail("a re-encoded side is not JSON", jerr.text);
	free(text);
	if (side_from_json(j, b, err, sizeof(err)) != 0)
		fail("a re-encoded side does not decode", err);
	json_decref(j);
	for (i = 0; i < sizeof(*a); i++)
		if (((const uint8_t *)a)[i] != ((const uint8_t *)b)[i])
			fail("a re-encoded side decodes to other figures",
			    side_member_at(i));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gb_side *a, *b;
	json_error_t jerr;
	char err[GB_ERR_LEN];
	json_t *j;

	j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &jerr);
	if (j == NULL && (j = side_with_string(data, size)) == NULL)
		return 0;
	if ((a = malloc(sizeof(*a))) == NULL ||
	    (b = malloc(sizeof(*b))) == NULL)
		abort();
	err[0] = '\0';
	if (side_from_json(j, a, err, sizeof(err)) == 0) {
		roundtrip(a, b);
		fuzz_render(b, a, data[0] & 1);
	} else if (err[0] == '\0')
		fail("a side was refused without a reason", NULL);
	json_decref(j);
	free(b);
	free(a);
	return 0;
}
