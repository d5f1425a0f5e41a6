/*
 * udpstat.c: the kernel's UDP counters (/proc/net/snmp, /proc/net/snmp6)
 * and an interface's drop counters (sysfs statistics), and the figures
 * between two readings (udpstat.h).
 *
 * It owns the two text formats: snmp's pairs of "Udp:" lines, a header of
 * names and a line of values, whose columns are found by name because
 * kernels add them (InCsumErrors in 3.10, IgnoredMulti in 3.19, MemErrors
 * in 5.x) and may one day reorder them; and snmp6's one "Udp6Name value"
 * per line.  The parsers are pure and take the whole text; the readers
 * only open files under a root that tests move.  The sysfs counters are
 * read through netif.c, which owns that directory.  It opens no socket
 * and keeps no state between readings.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/netif.h"
#include "host/udpstat.h"

#define UDPSTAT_PATH_MAX	4096
#define UDPSTAT_TEXT_MAX	(256 * 1024)	/* snmp6 is ~7 KB today */

/* A counter of the kernel's tables, by the name both files give it. */
struct udpstat_col {
	const char	*name;
	size_t		 off;
};

static const struct udpstat_col udpstat_cols[] = {
	{ "InDatagrams",	offsetof(struct udpstat, in_datagrams) },
	{ "NoPorts",		offsetof(struct udpstat, no_ports) },
	{ "InErrors",		offsetof(struct udpstat, in_errors) },
	{ "OutDatagrams",	offsetof(struct udpstat, out_datagrams) },
	{ "RcvbufErrors",	offsetof(struct udpstat, rcvbuf_errors) },
	{ "SndbufErrors",	offsetof(struct udpstat, sndbuf_errors) },
	{ "InCsumErrors",	offsetof(struct udpstat, in_csum_errors) },
};
#define UDPSTAT_NCOLS	(sizeof(udpstat_cols) / sizeof(udpstat_cols[0]))

/* The sysfs statistics files of struct ifdrops. */
static const struct udpstat_col ifdrops_cols[] = {
	{ "rx_dropped",		offsetof(struct ifdrops, rx_dropped) },
	{ "tx_dropped",		offsetof(struct ifdrops, tx_dropped) },
	{ "rx_missed_errors",	offsetof(struct ifdrops, rx_missed_errors) },
	{ "rx_fifo_errors",	offsetof(struct ifdrops, rx_fifo_errors) },
	{ "tx_fifo_errors",	offsetof(struct ifdrops, tx_fifo_errors) },
};
#define IFDROPS_NCOLS	(sizeof(ifdrops_cols) / sizeof(ifdrops_cols[0]))

static const char	*udpstat_line(const char **, const char **);
static size_t	 udpstat_word(const char **, const char *, const char **);
static size_t	 udpstat_nwords(const char *, const char *);
static int	 udpstat_number(const char *, size_t, uint64_t *);
static uint64_t	*udpstat_field(struct udpstat *, const char *, size_t);
static void	 udpstat_add(struct udpstat *, const struct udpstat *);
static int	 udpstat_snmp(const char *, struct udpstat *, const char *,
		    char *, size_t);
static int	 udpstat_snmp6(const char *, struct udpstat *, const char *,
		    char *, size_t);
static int	 udpstat_slurp(const char *, char **, char *, size_t);
static int	 udpstat_read_one(const char *, const char *,
		    int (*)(const char *, struct udpstat *, const char *,
		    char *, size_t), struct udpstat *, char *, size_t);
static void	 udpstat_sub(const void *, const void *, void *,
		    const struct udpstat_col *, size_t);

/*
 * The line at *p (without its newline) as [start, *end), and *p past it;
 * NULL at the end of the text.
 */
static const char *
udpstat_line(const char **p, const char **end)
{
	const char	*s = *p, *nl;

	if (*s == '\0')
		return NULL;
	if ((nl = strchr(s, '\n')) == NULL)
		nl = s + strlen(s);
	*end = nl;
	*p = *nl == '\n' ? nl + 1 : nl;
	return s;
}

/* The next blank-separated word of [*p, end) in *w; its length, 0 at end. */
static size_t
udpstat_word(const char **p, const char *end, const char **w)
{
	const char	*s = *p, *e;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	for (e = s; e < end && *e != ' ' && *e != '\t' && *e != '\r'; e++)
		;
	*w = s;
	*p = e;
	return (size_t)(e - s);
}

static size_t
udpstat_nwords(const char *p, const char *end)
{
	const char	*w;
	size_t		 n = 0;

	while (udpstat_word(&p, end, &w) > 0)
		n++;
	return n;
}

/* A decimal counter of exactly len bytes.  0, or -1 (not one, too big). */
static int
udpstat_number(const char *w, size_t len, uint64_t *v)
{
	uint64_t	n = 0;
	size_t		i;

	if (len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		if (w[i] < '0' || w[i] > '9' ||
		    n > (UINT64_MAX - (uint64_t)(w[i] - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(w[i] - '0');
	}
	*v = n;
	return 0;
}

/* The counter named [name, name + len), or NULL when we do not keep it. */
static uint64_t *
udpstat_field(struct udpstat *st, const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < UDPSTAT_NCOLS; i++)
		if (strlen(udpstat_cols[i].name) == len &&
		    memcmp(udpstat_cols[i].name, name, len) == 0)
			return (uint64_t *)(void *)((char *)st +
			    udpstat_cols[i].off);
	return NULL;
}

static void
udpstat_add(struct udpstat *st, const struct udpstat *more)
{
	uint64_t	a, b;
	size_t		i;

	for (i = 0; i < UDPSTAT_NCOLS; i++) {
		memcpy(&a, (char *)st + udpstat_cols[i].off, sizeof(a));
		memcpy(&b, (const char *)more + udpstat_cols[i].off, sizeof(b));
		a += b;
		memcpy((char *)st + udpstat_cols[i].off, &a, sizeof(a));
	}
}

/* /proc/net/snmp's Udp table; file names the text in err. */
static int
udpstat_snmp(const char *text, struct udpstat *st, const char *file,
    char *err, size_t errlen)
{
	struct udpstat	 got;
	const char	*p = text, *h, *he, *v, *ve, *hw, *vw;
	size_t		 nh, nv, hl, vl;
	uint64_t	*f;

	while ((h = udpstat_line(&p, &he)) != NULL)
		if (he - h >= 4 && memcmp(h, "Udp:", 4) == 0)
			break;
	if (h == NULL) {
		snprintf(err, errlen, "%s: no Udp table", file);
		return -1;
	}
	if ((v = udpstat_line(&p, &ve)) == NULL || ve - v < 4 ||
	    memcmp(v, "Udp:", 4) != 0) {
		snprintf(err, errlen, "%s: Udp header without a values line",
		    file);
		return -1;
	}
	h += 4;
	v += 4;
	if ((nh = udpstat_nwords(h, he)) != (nv = udpstat_nwords(v, ve))) {
		snprintf(err, errlen, "%s: Udp values line has %zu fields, "
		    "its header %zu", file, nv, nh);
		return -1;
	}
	memset(&got, 0, sizeof(got));
	while ((hl = udpstat_word(&h, he, &hw)) > 0) {
		vl = udpstat_word(&v, ve, &vw);
		if ((f = udpstat_field(&got, hw, hl)) != NULL &&
		    udpstat_number(vw, vl, f) == -1) {
			snprintf(err, errlen, "%s: Udp %.*s is not a number: "
			    "%.*s", file, (int)hl, hw, (int)vl, vw);
			return -1;
		}
	}
	udpstat_add(st, &got);
	st->has = 1;
	return 0;
}

/* /proc/net/snmp6's Udp6 lines; file names the text in err. */
static int
udpstat_snmp6(const char *text, struct udpstat *st, const char *file,
    char *err, size_t errlen)
{
	struct udpstat	 got;
	const char	*p = text, *l, *le, *nw, *vw;
	size_t		 nl, vl;
	uint64_t	*f;

	memset(&got, 0, sizeof(got));
	while ((l = udpstat_line(&p, &le)) != NULL) {
		nl = udpstat_word(&l, le, &nw);
		if (nl < 4 || memcmp(nw, "Udp6", 4) != 0 ||
		    (f = udpstat_field(&got, nw + 4, nl - 4)) == NULL)
			continue;
		vl = udpstat_word(&l, le, &vw);
		if (udpstat_number(vw, vl, f) == -1 ||
		    udpstat_nwords(l, le) != 0) {
			snprintf(err, errlen, "%s: %.*s is not a number: %.*s",
			    file, (int)nl, nw, (int)(le - vw), vw);
			return -1;
		}
	}
	udpstat_add(st, &got);
	return 0;
}

int
udpstat_parse_snmp(const char *text, struct udpstat *st, char *err,
    size_t errlen)
{
	return udpstat_snmp(text, st, "/proc/net/snmp", err, errlen);
}

int
udpstat_parse_snmp6(const char *text, struct udpstat *st, char *err,
    size_t errlen)
{
	return udpstat_snmp6(text, st, "/proc/net/snmp6", err, errlen);
}

/*
 * The whole file at path, NUL-terminated, in a malloc'd *text.  /proc
 * files have no size to stat, so read until the end.  -1 with errno kept
 * from fopen() (ENOENT: there is no such file).
 */
static int
udpstat_slurp(const char *path, char **text, char *err, size_t errlen)
{
	FILE	*fp;
	char	*buf;
	size_t	 n;
	int	 e;

	if ((fp = fopen(path, "re")) == NULL) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if ((buf = malloc(UDPSTAT_TEXT_MAX + 1)) == NULL) {
		fclose(fp);
		snprintf(err, errlen, "%s: out of memory", path);
		errno = ENOMEM;
		return -1;
	}
	n = fread(buf, 1, UDPSTAT_TEXT_MAX + 1, fp);
	e = ferror(fp) ? errno : n > UDPSTAT_TEXT_MAX ? EFBIG : 0;
	fclose(fp);
	if (e != 0) {
		snprintf(err, errlen, "%s: %s", path, e == EFBIG ?
		    "longer than 256 KB" : strerror(e));
		free(buf);
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	*text = buf;
	return 0;
}

/* PROCFS/net/NAME through parse.  -1 with errno ENOENT when it is absent. */
static int
udpstat_read_one(const char *procfs, const char *name,
    int (*parse)(const char *, struct udpstat *, const char *, char *,
    size_t), struct udpstat *st, char *err, size_t errlen)
{
	char	path[UDPSTAT_PATH_MAX], *text;
	int	r;

	if ((size_t)snprintf(path, sizeof(path), "%s/net/%s", procfs, name) >=
	    sizeof(path)) {
		snprintf(err, errlen, "procfs root is too long: %s", procfs);
		errno = ENAMETOOLONG;
		return -1;
	}
	if (udpstat_slurp(path, &text, err, errlen) == -1)
		return -1;
	r = parse(text, st, path, err, errlen);
	free(text);
	if (r == -1)
		errno = EINVAL;
	return r;
}

int
udpstat_read(const struct hoststat_roots *roots, struct udpstat *st,
    char *err, size_t errlen)
{
	const char	*procfs = "/proc";
	struct udpstat	 got;

	if (roots != NULL && roots->procfs != NULL)
		procfs = roots->procfs;
	memset(st, 0, sizeof(*st));
	memset(&got, 0, sizeof(got));
	if (udpstat_read_one(procfs, "snmp", udpstat_snmp, &got, err,
	    errlen) == -1)
		return -1;
	/* A kernel without IPv6 has no snmp6: IPv4 is then all of UDP. */
	if (udpstat_read_one(procfs, "snmp6", udpstat_snmp6, &got, err,
	    errlen) == -1 && errno != ENOENT)
		return -1;
	*st = got;
	return 0;
}

/* out = after - before over cols, 0 where a counter went backwards. */
static void
udpstat_sub(const void *before, const void *after, void *out,
    const struct udpstat_col *cols, size_t ncols)
{
	uint64_t	b, a;
	size_t		i;

	for (i = 0; i < ncols; i++) {
		memcpy(&b, (const char *)before + cols[i].off, sizeof(b));
		memcpy(&a, (const char *)after + cols[i].off, sizeof(a));
		a = a > b ? a - b : 0;
		memcpy((char *)out + cols[i].off, &a, sizeof(a));
	}
}

void
udpstat_diff(const struct udpstat *before, const struct udpstat *after,
    struct udpstat *out)
{
	memset(out, 0, sizeof(*out));
	if (!before->has || !after->has)
		return;
	udpstat_sub(before, after, out, udpstat_cols, UDPSTAT_NCOLS);
	out->has = 1;
}

int
ifdrops_read(const struct hoststat_roots *roots, const char *ifname,
    struct ifdrops *d, char *err, size_t errlen)
{
	const char	*sysfs = "/sys";
	uint64_t	 v;
	size_t		 i;

	if (roots != NULL && roots->sysfs != NULL)
		sysfs = roots->sysfs;
	memset(d, 0, sizeof(*d));
	for (i = 0; i < IFDROPS_NCOLS; i++) {
		if (netif_stat_read(sysfs, ifname, ifdrops_cols[i].name, &v,
		    err, errlen) == -1) {
			memset(d, 0, sizeof(*d));
			return -1;
		}
		memcpy((char *)d + ifdrops_cols[i].off, &v, sizeof(v));
	}
	d->has = 1;
	return 0;
}

void
ifdrops_diff(const struct ifdrops *before, const struct ifdrops *after,
    struct ifdrops *out)
{
	memset(out, 0, sizeof(*out));
	if (!before->has || !after->has)
		return;
	udpstat_sub(before, after, out, ifdrops_cols, IFDROPS_NCOLS);
	out->has = 1;
}
