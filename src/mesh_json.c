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
 * Pure but for mesh_json_read, which only reads the file into memory.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "codec/mesh_json.h"

#define MESH_JSON_ADDR_LEN	64

/* One document's context for its runs. */
struct mesh_doc {
	const char		*name;		/* the file's */
	enum mesh_by		 by;
	struct mesh_runs	*runs;
	size_t			 first;		/* its first run in runs */
	char			*err;
	size_t			 errlen;
};

static int	 mesh_json_error(const struct mesh_doc *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static int
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

/* The member at a dotted path ("sender.host_cpu.busy_pct"), or NULL. */
static json_t *
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

static double
mesh_json_num(json_t *o, const char *path)
{
	json_t	*v = mesh_json_at(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *
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

/* Did the writer of this document connect (1) or listen (0)? */
static int
mesh_json_is_client(json_t *doc)
{
	char		 a[MESH_JSON_ADDR_LEN];
	unsigned	 lport, rport;
	double		 port = mesh_json_num(doc, "result.port");

	if (!isfinite(port))
		return 1;
	mesh_json_addr(mesh_json_str(doc, "provenance.control.local"), a,
	    sizeof(a), &lport);
	mesh_json_addr(mesh_json_str(doc, "provenance.control.remote"), a,
	    sizeof(a), &rport);
	return !(lport == (unsigned)port && rport != (unsigned)port);
}

/* This end's and the peer's names: hostnames, else addresses. */
static int
mesh_json_ends(const struct mesh_doc *d, json_t *doc, char *mine,
    char *peer, size_t len)
{
	const char	*h = mesh_json_str(doc, "provenance.host.hostname");
	const char	*p = mesh_json_str(doc,
			    "provenance.peer_host.hostname");

	if (d->by == MESH_BY_HOSTNAME && h != NULL && p != NULL &&
	    strcmp(h, p) != 0) {
		snprintf(mine, len, "%s", h);
		snprintf(peer, len, "%s", p);
		return 0;
	}
	mesh_json_addr(mesh_json_str(doc, "provenance.control.local"), mine,
	    len, NULL);
	mesh_json_addr(mesh_json_str(doc, "provenance.control.remote"), peer,
	    len, NULL);
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
	char		 mine[256], peer[256];
	const char	*dir = mesh_json_str(doc, "params.direction");
	int		 sends;

	if (dir == NULL)
		return mesh_json_error(d, "missing params.direction");
	if (strcmp(dir, "client_sends") == 0)
		sends = 1;
	else if (strcmp(dir, "client_receives") == 0 ||
	    strcmp(dir, "server_sends") == 0)
		sends = 0;
	else
		return mesh_json_error(d, "params.direction is neither "
		    "client_sends nor client_receives: %s", dir);
	if (!json_is_object(json_object_get(doc, "provenance")))
		return mesh_json_error(d, "missing provenance");
	if (mesh_json_ends(d, doc, mine, peer, sizeof(mine)) == -1)
		return -1;
	/* This end sent when it was the client that sends, or the reverse. */
	sends = (sends == mesh_json_is_client(doc)) != reverse;
	if ((r->sender = strdup(sends ? mine : peer)) == NULL ||
	    (r->receiver = strdup(sends ? peer : mine)) == NULL)
		return mesh_json_error(d, "out of memory");
	return 0;
}

static int
mesh_json_diag(const struct mesh_doc *d, json_t *res, struct mesh_run *r)
{
	json_t		*a = json_object_get(res, "diagnosis"), *e;
	const char	*code, *side, *text;
	size_t		 i;

	if (!json_is_array(a) || json_array_size(a) == 0)
		return 0;
	if ((r->diag = calloc(json_array_size(a), sizeof(*r->diag))) == NULL)
		return mesh_json_error(d, "out of memory");
	json_array_foreach(a, i, e) {
		code = mesh_json_str(e, "code");
		side = mesh_json_str(e, "side");
		text = mesh_json_str(e, "text");
		if (code == NULL)
			return mesh_json_error(d, "result.diagnosis[%zu] has "
			    "no code", i);
		snprintf(r->diag[r->ndiag].code, MESH_CODE_LEN, "%s", code);
		snprintf(r->diag[r->ndiag].side, MESH_SIDE_LEN, "%s",
		    side != NULL ? side : "-");
		if ((r->diag[r->ndiag++].text = strdup(text != NULL ? text :
		    "")) == NULL)
			return mesh_json_error(d, "out of memory");
	}
	return 0;
}

/* The rate, the figures and the diagnosis of one direction's result. */
static int
mesh_json_figures(const struct mesh_doc *d, json_t *res, const char *what,
    struct mesh_run *r)
{
	r->mbps = mesh_json_num(res, "mbps");
	if (!isfinite(r->mbps) || r->mbps < 0)
		return mesh_json_error(d, "missing %s.mbps", what);
	r->fig[MESH_CPU_TX] = mesh_json_num(res, "sender.host_cpu.busy_pct");
	r->fig[MESH_CPU_RX] = mesh_json_num(res,
	    "receiver.host_cpu.busy_pct");
	r->fig[MESH_PROC_TX] = mesh_json_num(res, "sender.cpu.process_pct");
	r->fig[MESH_PROC_RX] = mesh_json_num(res,
	    "receiver.cpu.process_pct");
	r->fig[MESH_IRQ_TX] = mesh_json_num(res, "sender.irq_per_packet");
	r->fig[MESH_IRQ_RX] = mesh_json_num(res, "receiver.irq_per_packet");
	r->fig[MESH_RETRANS] = mesh_json_num(res, "sender.tcp.retransmits");
	r->fig[MESH_RTT] = mesh_json_num(res, "sender.tcp.rtt_us");
	r->fig[MESH_BUSIEST_TX] = mesh_json_num(res,
	    "sender.host_cpu.max_cpu_busy_pct");
	r->fig[MESH_BUSIEST_RX] = mesh_json_num(res,
	    "receiver.host_cpu.max_cpu_busy_pct");
	return mesh_json_diag(d, res, r);
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
	return mesh_runs_add(d->runs, &r) == -1 ?
	    mesh_json_error(d, "out of memory") : 0;
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
	    (why != NULL && (r.error = strdup(why)) == NULL)) {
		mesh_run_clear(&r);
		return mesh_json_error(d, "out of memory");
	}
	/* An interrupted or cut-short test may still say who it was. */
	if (json_is_object(json_object_get(doc, "provenance")) &&
	    mesh_json_who(d, doc, 0, &r) == -1) {
		mesh_run_clear(&r);
		return -1;
	}
	return mesh_runs_add(d->runs, &r) == -1 ?
	    mesh_json_error(d, "out of memory") : 0;
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

int
mesh_json_parse(const char *text, size_t len, const char *name,
    enum mesh_by by, struct mesh_runs *runs, char *err, size_t errlen)
{
	struct mesh_doc	 d = { name, by, runs, runs->n, err, errlen };
	json_error_t	 e;
	json_t		*doc;
	size_t		 start = runs->n, off, ndocs = 0;

	off = mesh_json_skip_space(text, len, 0);
	if (off == len)
		return mesh_json_error(&d, "empty: not a gigebench JSON "
		    "result");
	while (off < len) {
		doc = json_loadb(text + off, len - off,
		    JSON_DISABLE_EOF_CHECK, &e);
		if (doc == NULL) {
			mesh_json_error(&d, "not JSON (line %d: %s)",
			    mesh_json_line(text, off) + e.line - 1, e.text);
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

int
mesh_json_read(const char *path, enum mesh_by by, struct mesh_runs *runs,
    char *err, size_t errlen)
{
	struct mesh_doc	 d = { path, by, runs, 0, err, errlen };
	FILE		*f;
	char		*buf, *more;
	size_t		 len = 0, cap = 1 << 16, n;
	int		 rv;

	if ((f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r")) == NULL)
		return mesh_json_error(&d, "cannot read: %s", strerror(errno));
	if ((buf = malloc(cap)) == NULL) {
		rv = mesh_json_error(&d, "out of memory");
		goto out;
	}
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		if ((len += n) < cap)
			continue;
		if (cap >= MESH_JSON_MAX_BYTES) {
			rv = mesh_json_error(&d, "larger than %u MiB: not a "
			    "gigebench result", MESH_JSON_MAX_BYTES >> 20);
			goto out;
		}
		if ((more = realloc(buf, cap * 2)) == NULL) {
			rv = mesh_json_error(&d, "out of memory");
			goto out;
		}
		buf = more;
		cap *= 2;
	}
	if (ferror(f))
		rv = mesh_json_error(&d, "cannot read: %s", strerror(errno));
	else
		rv = mesh_json_parse(buf, len, path, by, runs, err, errlen);
out:
	free(buf);
	if (f != stdin)
		fclose(f);
	return rv;
}
