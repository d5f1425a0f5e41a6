/*
 * mesh_json.c: the runs of gigebench --json documents for gigebench merge
 * (codec/mesh_json.h).
 *
 * Which end sent: provenance.host is the end that wrote the document,
 * provenance.peer_host the other.  The writer was the client unless its
 * control connection's local port is the test's port (result.port) and
 * the remote one is not: then it was the listener, whose documents say
 * the direction from the client's side all the same.  params.direction
 * "client_sends" (or "client_receives", which -r writes) then tells the
 * sender.  A host is named by its hostname; when one is missing or both
 * ends have the same one (containers, loopback), both are named by the
 * control connection's addresses instead, without their ports.
 *
 * A failed sweep prints its document and then an error document: the
 * text is read as documents one after the other, and an error document
 * after another document is that summary, not one more run.  A failed
 * run carries no provenance: it belongs to the pair its document's other
 * runs name, or to none when no run of the document succeeded.
 *
 * What a hostile file may say is mesh_json_check.c's: the bounds on the
 * text, the ranges of the numbers, the escaping of every string kept.
 * A string is escaped before it is compared, so that two names that
 * print the same are one host.
 *
 * Pure but for mesh_json_read, which only reads the file into memory.
 */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/result.h"
#include "base/safetext.h"
#include "codec/mesh_json.h"
#include "mesh_json_internal.h"

#define MESH_JSON_ADDR_LEN	64
#define MESH_JSON_HOST_LEN	256	/* a host name or address, escaped */
#define MESH_JSON_NAME_LEN	1024	/* the file's name, escaped */

int
mesh_json_error(const struct mesh_doc *d, const char *fmt, ...)
{
	va_list	ap;

	if (d->err != NULL && d->errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(d->err, d->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

json_t *
mesh_json_at(json_t *o, const char *path)
{
	char		 key[64];
	const char	*dot;
	size_t		 n;

	while (o != NULL && *path != '\0') {
		dot = strchr(path, '.');
		n = dot != NULL ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(key) || !json_is_object(o))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path += n + (dot != NULL);
	}
	return o;
}

double
mesh_json_num(json_t *o, const char *path)
{
	json_t	*v = mesh_json_at(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *
mesh_json_str(json_t *o, const char *path)
{
	json_t	*v = mesh_json_at(o, path);

	return json_is_string(v) && *json_string_value(v) != '\0' ?
	    json_string_value(v) : NULL;
}

const char *
mesh_json_addr(const char *end, char *buf, size_t len, unsigned *port)
{
	const char	*colon, *close;
	size_t		 n;

	if (port != NULL)
		*port = 0;
	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (end == NULL)
		return buf;
	if (end[0] == '[' && (close = strchr(end, ']')) != NULL) {
		n = (size_t)(close - end - 1);
		colon = close[1] == ':' ? close + 1 : NULL;
		end++;
	} else if ((colon = strrchr(end, ':')) != NULL &&
	    strchr(end, ':') == colon)
		n = (size_t)(colon - end);
	else {
		n = strlen(end);	/* a bare IPv6 address, or no port */
		colon = NULL;
	}
	snprintf(buf, len, "%.*s", (int)n, end);
	if (colon != NULL && port != NULL)
		*port = (unsigned)strtoul(colon + 1, NULL, 10);
	return buf;
}

/* Did the writer of this document connect (1) or listen (0)?  -1: error. */
static int
mesh_json_is_client(const struct mesh_doc *d, json_t *doc)
{
	char		 a[MESH_JSON_ADDR_LEN];
	unsigned	 lport, rport, port;
	int		 has;

	if ((has = mesh_json_port(d, doc, &port)) <= 0)
		return has == 0 ? 1 : -1;
	mesh_json_addr(mesh_json_str(doc, "provenance.control.local"), a,
	    sizeof(a), &lport);
	mesh_json_addr(mesh_json_str(doc, "provenance.control.remote"), a,
	    sizeof(a), &rport);
	return !(lport == port && rport != port);
}

/* This end's and the peer's names: hostnames, else addresses. */
static int
mesh_json_ends(const struct mesh_doc *d, json_t *doc, char *mine,
    char *peer, size_t len)
{
	const char	*h = mesh_json_text(doc, "provenance.host.hostname",
			    mine, len);
	const char	*p = mesh_json_text(doc,
			    "provenance.peer_host.hostname", peer, len);

	if (d->by == MESH_BY_HOSTNAME && h != NULL && p != NULL &&
	    strcmp(h, p) != 0)
		return 0;
	mesh_json_addr(mesh_json_str(doc, "provenance.control.local"), mine,
	    len, NULL);
	mesh_json_addr(mesh_json_str(doc, "provenance.control.remote"), peer,
	    len, NULL);
	safetext_inplace(mine, len);
	safetext_inplace(peer, len);
	if (mine[0] == '\0' || peer[0] == '\0')
		return mesh_json_error(d, "no %s%s", d->by == MESH_BY_HOSTNAME ?
		    "two different provenance.host.hostname and "
		    "provenance.peer_host.hostname, and no " : "",
		    mine[0] == '\0' ? "provenance.control.local" :
		    "provenance.control.remote");
	if (strcmp(mine, peer) == 0)
		return mesh_json_error(d, "cannot tell the two ends apart: "
		    "both are %s%s", mine, d->by == MESH_BY_HOSTNAME ?
		    " (same hostname, same address)" : "");
	return 0;
}

/* Sender and receiver of a run from its document's provenance. */
static int
mesh_json_who(const struct mesh_doc *d, json_t *doc, int reverse,
    struct mesh_run *r)
{
	char		 mine[MESH_JSON_HOST_LEN], peer[MESH_JSON_HOST_LEN];
	char		 text[MESH_JSON_ADDR_LEN];
	const char	*dir = mesh_json_str(doc, "params.direction");
	int		 sends, client;

	if (dir == NULL)
		return mesh_json_error(d, "missing params.direction");
	if (strcmp(dir, "client_sends") == 0)
		sends = 1;
	else if (strcmp(dir, "client_receives") == 0 ||
	    strcmp(dir, "server_sends") == 0)
		sends = 0;
	else
		return mesh_json_error(d, "params.direction is neither "
		    "client_sends nor client_receives: %s",
		    safetext_escape(text, sizeof(text), dir));
	if (!json_is_object(json_object_get(doc, "provenance")))
		return mesh_json_error(d, "missing provenance");
	if (mesh_json_ends(d, doc, mine, peer, sizeof(mine)) == -1 ||
	    (client = mesh_json_is_client(d, doc)) == -1)
		return -1;
	/* This end sent when it was the client that sends, or the reverse. */
	sends = (sends == client) != reverse;
	if ((r->sender = strdup(sends ? mine : peer)) == NULL ||
	    (r->receiver = strdup(sends ? peer : mine)) == NULL)
		return mesh_json_error(d, "out of memory");
	return 0;
}

static int
mesh_json_diag(const struct mesh_doc *d, json_t *res, struct mesh_run *r)
{
	json_t		*a = json_object_get(res, "diagnosis"), *e;
	const char	*text;
	struct mesh_diag *g;
	size_t		 i;

	if (!json_is_array(a) || json_array_size(a) == 0)
		return 0;
	if (json_array_size(a) > GB_MAX_FINDINGS)
		return mesh_json_error(d, "result.diagnosis has %zu entries: "
		    "gigebench writes at most %d", json_array_size(a),
		    GB_MAX_FINDINGS);
	if ((r->diag = calloc(json_array_size(a), sizeof(*r->diag))) == NULL)
		return mesh_json_error(d, "out of memory");
	json_array_foreach(a, i, e) {
		g = &r->diag[r->ndiag];
		if (mesh_json_text(e, "code", g->code, MESH_CODE_LEN) == NULL)
			return mesh_json_error(d, "result.diagnosis[%zu] has "
			    "no code", i);
		if (mesh_json_text(e, "side", g->side, MESH_SIDE_LEN) == NULL)
			snprintf(g->side, MESH_SIDE_LEN, "-");
		text = mesh_json_str(e, "text");
		if ((g->text = mesh_json_strdup(text != NULL ? text : "")) ==
		    NULL)
			return mesh_json_error(d, "out of memory");
		r->ndiag++;
	}
	return 0;
}

/* The rate, the figures and the diagnosis of one direction's result. */
static int
mesh_json_figures(const struct mesh_doc *d, json_t *res, const char *what,
    struct mesh_run *r)
{
	if (mesh_json_rate(d, res, what, &r->mbps) == -1 ||
	    mesh_json_figures_read(d, res, what, r) == -1)
		return -1;
	return mesh_json_diag(d, res, r);
}

/* Append r to the runs (which then own its strings), within the bound. */
static int
mesh_json_add(const struct mesh_doc *d, struct mesh_run *r)
{
	if (d->runs->n >= MESH_MAX_RUNS) {
		mesh_run_clear(r);
		return mesh_json_error(d, "more than %u runs in all the files",
		    MESH_MAX_RUNS);
	}
	return mesh_runs_add(d->runs, r) == -1 ?
	    mesh_json_error(d, "out of memory") : 0;
}

/* Append one direction of a test; reverse: --bidir's result.reverse. */
static int
mesh_json_direction(const struct mesh_doc *d, json_t *doc,
    const char *origin, int reverse)
{
	struct mesh_run	 r;
	json_t		*res = json_object_get(doc, "result");

	mesh_run_init(&r);
	if (reverse)
		res = json_object_get(res, "reverse");
	if ((r.origin = strdup(origin)) == NULL)
		return mesh_json_error(d, "out of memory");
	if (!json_is_object(res)) {
		mesh_run_clear(&r);
		return mesh_json_error(d, "--bidir test without "
		    "result.reverse");
	}
	if (mesh_json_who(d, doc, reverse, &r) == -1 ||
	    mesh_json_figures(d, res, reverse ? "result.reverse" : "result",
	    &r) == -1) {
		mesh_run_clear(&r);
		return -1;
	}
	return mesh_json_add(d, &r);
}

/* A run that failed: the pair, if its document names one, comes later. */
static int
mesh_json_failed(const struct mesh_doc *d, json_t *doc, const char *origin)
{
	struct mesh_run	 r;
	const char	*why = mesh_json_str(doc, "error");

	mesh_run_init(&r);
	r.failed = 1;
	r.mbps = NAN;
	if ((r.origin = strdup(origin)) == NULL ||
	    (why != NULL && (r.error = mesh_json_strdup(why)) == NULL)) {
		mesh_run_clear(&r);
		return mesh_json_error(d, "out of memory");
	}
	/* An interrupted or cut-short test may still say who it was. */
	if (json_is_object(json_object_get(doc, "provenance")) &&
	    mesh_json_who(d, doc, 0, &r) == -1) {
		mesh_run_clear(&r);
		return -1;
	}
	return mesh_json_add(d, &r);
}

/* params.rr: a latency test, which has no place in a rate matrix. */
static int
mesh_json_refuse_rr(const struct mesh_doc *d, json_t *doc)
{
	if (json_is_true(mesh_json_at(doc, "params.rr")))
		return mesh_json_error(d, "a --rr or --crr test (params.rr is "
		    "true): merge takes throughput tests only");
	return 0;
}

/* One test: both directions of --bidir, or one. */
static int
mesh_json_test(const struct mesh_doc *d, json_t *doc, const char *origin)
{
	json_t	*res = json_object_get(doc, "result");

	if (mesh_json_refuse_rr(d, doc) == -1)
		return -1;
	/* A sweep's failed run is {"error", "point", "repeat"}. */
	if (!json_is_object(res) && (json_is_null(res) ||
	    json_object_get(doc, "error") != NULL))
		return mesh_json_failed(d, doc, origin);
	if (!json_is_object(json_object_get(doc, "params")))
		return mesh_json_error(d, "missing params");
	if (res == NULL)
		return mesh_json_error(d, "missing result");
	if (!json_is_object(res))
		return mesh_json_error(d, "result is not an object");
	if (mesh_json_direction(d, doc, origin, 0) == -1)
		return -1;
	if (!json_is_true(mesh_json_at(doc, "params.bidir")))
		return 0;
	return mesh_json_direction(d, doc, origin, 1);
}

/*
 * The failed runs of a document go to the pair its other runs name
 * (the first run that names one); they stay nobody's when none does.
 */
static int
mesh_json_adopt(const struct mesh_doc *d)
{
	const struct mesh_run	*named = NULL;
	struct mesh_run		*r;
	size_t			 i;

	for (i = d->first; i < d->runs->n && named == NULL; i++)
		if (d->runs->v[i].sender != NULL)
			named = &d->runs->v[i];
	if (named == NULL)
		return 0;
	for (i = d->first; i < d->runs->n; i++) {
		r = &d->runs->v[i];
		if (r->sender != NULL)
			continue;
		if ((r->sender = strdup(named->sender)) == NULL ||
		    (r->receiver = strdup(named->receiver)) == NULL)
			return mesh_json_error(d, "out of memory");
	}
	return 0;
}

/* A sweep's or --repeat's document: each of its "runs". */
static int
mesh_json_sweep(struct mesh_doc *d, json_t *doc)
{
	json_t	*a = json_object_get(doc, "runs"), *run;
	char	 origin[1024], why[512];
	size_t	 i;

	if (mesh_json_refuse_rr(d, doc) == -1)
		return -1;
	if (!json_is_array(a))
		return mesh_json_error(d, "\"runs\" is not an array");
	json_array_foreach(a, i, run) {
		snprintf(origin, sizeof(origin), "%s run %zu", d->name, i + 1);
		if (!json_is_object(run))
			return mesh_json_error(d, "run %zu is not an object",
			    i + 1);
		if (mesh_json_test(d, run, origin) == -1) {
			if (d->err == NULL || d->errlen == 0)
				return -1;
			snprintf(why, sizeof(why), "%s", d->err);
			return mesh_json_error(d, "run %zu: %s", i + 1, why);
		}
	}
	return mesh_json_adopt(d);
}

/* One document; after is 1 for the second and later of a text. */
static int
mesh_json_doc(struct mesh_doc *d, json_t *doc, int after)
{
	const char	*prog = mesh_json_str(doc, "program");

	if (!json_is_object(doc))
		return mesh_json_error(d, "not a gigebench document (not a "
		    "JSON object)");
	if (prog == NULL || strcmp(prog, "gigebench") != 0)
		return mesh_json_error(d, "not a gigebench document (no "
		    "\"program\": \"gigebench\"%s)",
		    json_object_get(doc, "event") != NULL ?
		    "; --json-stream lines are not taken, use --json" : "");
	d->first = d->runs->n;
	if (json_object_get(doc, "runs") != NULL)
		return mesh_json_sweep(d, doc);
	if (json_object_get(doc, "result") == NULL &&
	    json_object_get(doc, "error") != NULL && after)
		return mesh_json_refuse_rr(d, doc);	/* a sweep's summary */
	return mesh_json_test(d, doc, d->name);
}

/* The line of text[off]: where a document's error is. */
static int
mesh_json_line(const char *text, size_t off)
{
	int	line = 1;
	size_t	i;

	for (i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

static size_t
mesh_json_skip_space(const char *text, size_t len, size_t off)
{
	while (off < len && strchr(" \t\r\n", text[off]) != NULL &&
	    text[off] != '\0')
		off++;
	return off;
}

/* The bound on a file, as refusals say it. */
static int
mesh_json_too_large(const struct mesh_doc *d)
{
	return mesh_json_error(d, "larger than %u MiB: not a gigebench "
	    "result", MESH_JSON_MAX_BYTES >> 20);
}

int
mesh_json_parse(const char *text, size_t len, const char *name,
    enum mesh_by by, struct mesh_runs *runs, char *err, size_t errlen)
{
	char		 safe[MESH_JSON_NAME_LEN];
	char		 why[4 * JSON_ERROR_TEXT_LENGTH];
	struct mesh_doc	 d = { safetext_escape(safe, sizeof(safe), name), by,
			    runs, runs->n, err, errlen };
	json_error_t	 e;
	json_t		*doc;
	size_t		 start = runs->n, off, ndocs = 0;

	if (len > MESH_JSON_MAX_BYTES)
		return mesh_json_too_large(&d);
	off = mesh_json_skip_space(text, len, 0);
	if (off == len)
		return mesh_json_error(&d, "empty: not a gigebench JSON "
		    "result");
	if (mesh_json_scan(&d, text, len) == -1)
		return -1;
	while (off < len) {
		doc = json_loadb(text + off, len - off,
		    JSON_DISABLE_EOF_CHECK, &e);
		if (doc == NULL) {
			/* jansson quotes the file's bytes: "near '...'". */
			mesh_json_error(&d, "not JSON (line %d: %s)",
			    mesh_json_line(text, off) + e.line - 1,
			    safetext_escape(why, sizeof(why), e.text));
			goto fail;
		}
		if (mesh_json_doc(&d, doc, ndocs++ > 0) == -1) {
			json_decref(doc);
			goto fail;
		}
		json_decref(doc);
		off = mesh_json_skip_space(text, len, off + (size_t)e.position);
	}
	return 0;
fail:
	while (runs->n > start)
		mesh_run_clear(&runs->v[--runs->n]);
	return -1;
}

/*
 * The whole of f into *buf (*len bytes): a regular file larger than the
 * bound is refused by its size before a byte is read; a pipe is read to
 * one byte past the bound.
 */
static int
mesh_json_slurp(const struct mesh_doc *d, FILE *f, char **buf, size_t *len)
{
	struct stat	 st;
	size_t		 cap = 1 << 16, n;
	char		*more;

	*buf = NULL;
	*len = 0;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > (off_t)MESH_JSON_MAX_BYTES)
		return mesh_json_too_large(d);
	do {
		if (*len == cap || *buf == NULL) {
			if (*buf != NULL)
				cap = cap * 2 > MESH_JSON_MAX_BYTES + 1 ?
				    MESH_JSON_MAX_BYTES + 1 : cap * 2;
			if ((more = realloc(*buf, cap)) == NULL)
				return mesh_json_error(d, "out of memory");
			*buf = more;
		}
		*len += n = fread(*buf + *len, 1, cap - *len, f);
		if (*len > MESH_JSON_MAX_BYTES)
			return mesh_json_too_large(d);
	} while (n > 0);
	if (ferror(f))
		return mesh_json_error(d, "cannot read: %s", strerror(errno));
	return 0;
}

int
mesh_json_read(const char *path, enum mesh_by by, struct mesh_runs *runs,
    char *err, size_t errlen)
{
	char		 safe[MESH_JSON_NAME_LEN];
	struct mesh_doc	 d = { safetext_escape(safe, sizeof(safe), path), by,
			    runs, 0, err, errlen };
	FILE		*f;
	char		*buf;
	size_t		 len;
	int		 rv;

	if ((f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r")) == NULL)
		return mesh_json_error(&d, "cannot read: %s", strerror(errno));
	rv = mesh_json_slurp(&d, f, &buf, &len);
	if (rv == 0)
		rv = mesh_json_parse(buf, len, path, by, runs, err, errlen);
	free(buf);
	if (f != stdin)
		fclose(f);
	return rv;
}
