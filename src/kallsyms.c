/*
 * kallsyms.c: the kernel's text symbols from /proc/kallsyms (kallsyms.h),
 * for --profile's instruction addresses.
 *
 * The file is about 120,000 lines ("ffffffff81bad7b0 T _copy_to_iter",
 * a module's with "\t[e1000]" after the name) and is read once a test,
 * after the transfer: it is read whole into one buffer that becomes the
 * names' arena (the separators turned into NULs, nothing copied, no
 * allocation a line), then the text symbols (t, T, w, W) are sorted by
 * address for a binary search.  The kernel shows every address as 0 to
 * a reader kptr_restrict denies; the parser says so rather than handing
 * back a table where every address is the first symbol's.  It knows
 * nothing of the sampler or of categories (kallsyms_profile.c).
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/kallsyms.h"

#define KALLSYMS_PATH_MAX	4096
#define KALLSYMS_CHUNK		(1024 * 1024)
#define KALLSYMS_TEXT_MAX	(256u * 1024 * 1024)	/* ~7 MB today */
/* No kernel function is this long: an address further is in no symbol. */
#define KALLSYMS_FN_MAX		(1024 * 1024)

struct kallsyms {
	struct ksym	*syms;		/* by address */
	size_t		 n;
	char		*text;		/* the file: the names' arena */
};

/* How a parse failed, for kallsyms_read()'s reason. */
enum kallsyms_why {
	KALLSYMS_OK,
	KALLSYMS_IO,		/* reading, too big, no memory */
	KALLSYMS_NONE,		/* no text symbol */
	KALLSYMS_ZEROED		/* text symbols, every address 0 */
};

/* A symbol and its rank in the file, to sort stably. */
struct kallsyms_entry {
	struct ksym	sym;
	size_t		line;
	int		marker;
};

static char	*kallsyms_slurp(FILE *, const char *, size_t *, char *,
		    size_t);
static int	 kallsyms_hex(const char **, uint64_t *);
static int	 kallsyms_line(char **, struct ksym *);
static int	 kallsyms_is_marker(const char *);
static int	 kallsyms_cmp(const void *, const void *);
static struct kallsyms *kallsyms_parse_why(FILE *, const char *,
		    enum kallsyms_why *, char *, size_t);
static int	 kallsyms_collect(struct kallsyms *, struct kallsyms_entry **,
		    size_t *, size_t *, size_t *);
static void	 kallsyms_sysctl(const char *, const char *, char *, size_t);

/*
 * The whole of fp (named name in a reason), NUL-terminated, in *len
 * bytes; NULL with the reason.
 */
static char *
kallsyms_slurp(FILE *fp, const char *name, size_t *len, char *err,
    size_t errlen)
{
	char	*buf = NULL, *nbuf;
	size_t	 cap = 0, n = 0, got;

	for (;;) {
		if (cap - n < KALLSYMS_CHUNK + 1) {
			if (cap >= KALLSYMS_TEXT_MAX) {
				snprintf(err, errlen, "%s is too large: "
				    "over %u MiB", name,
				    KALLSYMS_TEXT_MAX >> 20);
				goto error;
			}
			cap = cap == 0 ? 8 * KALLSYMS_CHUNK : cap * 2;
			if ((nbuf = realloc(buf, cap)) == NULL) {
				snprintf(err, errlen, "%s: %s", name,
				    strerror(errno));
				goto error;
			}
			buf = nbuf;
		}
		got = fread(buf + n, 1, KALLSYMS_CHUNK, fp);
		n += got;
		if (got < KALLSYMS_CHUNK)
			break;
	}
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: read error", name);
		goto error;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
error:
	free(buf);
	return NULL;
}

/* The hexadecimal number at *s, up to a blank; 0, or -1 when not one. */
static int
kallsyms_hex(const char **s, uint64_t *v)
{
	static const signed char digit[256] = {
		['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
		['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
		['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
		['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
		['E'] = 15, ['F'] = 16,
	};
	const unsigned char	*p = (const unsigned char *)*s;
	uint64_t		 n = 0;
	int			 len = 0;

	for (; digit[*p] != 0; p++, len++) {
		if (len == 16)
			return -1;
		n = n << 4 | (uint64_t)(digit[*p] - 1);
	}
	if (len == 0 || *p != ' ')
		return -1;
	*s = (const char *)p;
	*v = n;
	return 0;
}

/*
 * The line at *p, cut in place, into sym (name and module point into
 * it); *p past it.  1 for a text symbol, 0 for any other line (data,
 * garbage), -1 at the end.
 */
static int
kallsyms_line(char **p, struct ksym *sym)
{
	char		*s = *p, *nl, *name, *mod, *end;
	const char	*q = s;
	char		 type;

	if (*s == '\0')
		return -1;
	if ((nl = strchr(s, '\n')) != NULL) {
		*nl = '\0';
		*p = nl + 1;
	} else
		*p = s + strlen(s);
	if (kallsyms_hex(&q, &sym->addr) == -1 || q[1] == '\0' ||
	    q[2] != ' ' || q[3] == '\0' || q[3] == '\t')
		return 0;
	type = q[1];
	name = (char *)q + 3;
	sym->module = "";
	if ((mod = strchr(name, '\t')) != NULL) {
		*mod++ = '\0';
		if (*mod == '[' && (end = strchr(mod, ']')) != NULL) {
			*end = '\0';
			sym->module = mod + 1;
		}
	}
	sym->name = name;
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/*
 * Section bounds and other labels that share an address with a real
 * function ("_stext", "__noinstr_text_start"): the function is named
 * before them.
 */
static int
kallsyms_is_marker(const char *name)
{
	size_t	n = strlen(name);

	if (strcmp(name, "_text") == 0 || strcmp(name, "_stext") == 0 ||
	    strcmp(name, "_etext") == 0 || strcmp(name, "_sinittext") == 0 ||
	    strcmp(name, "_einittext") == 0)
		return 1;
	if (strncmp(name, "__", 2) != 0)
		return 0;
	return (n > 6 && strcmp(name + n - 6, "_start") == 0) ||
	    (n > 4 && strcmp(name + n - 4, "_end") == 0);
}

/* By address; at one address functions before markers, then file order. */
static int
kallsyms_cmp(const void *a, const void *b)
{
	const struct kallsyms_entry	*x = a, *y = b;

	if (x->sym.addr != y->sym.addr)
		return x->sym.addr < y->sym.addr ? -1 : 1;
	if (x->marker != y->marker)
		return x->marker - y->marker;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * The text symbols of ks->text but those at 0 into *out (*n of them);
 * *lines lines seen, *zeroed text symbols at 0.  0, or -1 out of memory.
 */
static int
kallsyms_collect(struct kallsyms *ks, struct kallsyms_entry **out,
    size_t *n, size_t *lines, size_t *zeroed)
{
	struct kallsyms_entry	*e = NULL, *ne;
	struct ksym		 sym;
	size_t			 cap = 0;
	char			*p = ks->text;
	int			 r;

	*n = *lines = *zeroed = 0;
	while ((r = kallsyms_line(&p, &sym)) != -1) {
		(*lines)++;
		if (r == 1 && sym.addr == 0)
			(*zeroed)++;
		if (r == 0 || sym.addr == 0)
			continue;
		if (*n == cap) {
			cap = cap == 0 ? 4096 : cap * 2;
			if ((ne = realloc(e, cap * sizeof(*e))) == NULL) {
				free(e);
				return -1;
			}
			e = ne;
		}
		e[*n].sym = sym;
		e[*n].line = *lines;
		e[*n].marker = kallsyms_is_marker(sym.name);
		(*n)++;
	}
	*out = e;
	return 0;
}

/* kallsyms_parse(), naming fp name in a reason, and saying why it failed. */
static struct kallsyms *
kallsyms_parse_why(FILE *fp, const char *name, enum kallsyms_why *why,
    char *err, size_t errlen)
{
	struct kallsyms		*ks;
	struct kallsyms_entry	*e = NULL;
	size_t			 len, n, lines, zeroed, i;

	*why = KALLSYMS_IO;
	if ((ks = calloc(1, sizeof(*ks))) == NULL) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return NULL;
	}
	if ((ks->text = kallsyms_slurp(fp, name, &len, err, errlen)) == NULL)
		goto error;
	if (kallsyms_collect(ks, &e, &n, &lines, &zeroed) == -1) {
		snprintf(err, errlen, "%s: %s", name, strerror(ENOMEM));
		goto error;
	}
	if (n == 0) {
		*why = zeroed > 0 ? KALLSYMS_ZEROED : KALLSYMS_NONE;
		if (*why == KALLSYMS_ZEROED)
			snprintf(err, errlen, "kptr_restrict hides the "
			    "kernel's addresses (every one reads 0: "
			    "/proc/sys/kernel/kptr_restrict is 1 or more and "
			    "this process lacks CAP_SYSLOG): no symbols");
		else
			snprintf(err, errlen, "%s has no text symbol in "
			    "%zu lines", name, lines);
		goto error;
	}
	qsort(e, n, sizeof(*e), kallsyms_cmp);
	/* The table keeps the symbols; rank and marker were for the sort. */
	if ((ks->syms = malloc(n * sizeof(*ks->syms))) == NULL) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto error;
	}
	for (i = 0; i < n; i++)
		ks->syms[i] = e[i].sym;
	ks->n = n;
	free(e);
	*why = KALLSYMS_OK;
	return ks;
error:
	free(e);
	kallsyms_free(ks);
	return NULL;
}

struct kallsyms *
kallsyms_parse(FILE *fp, char *err, size_t errlen)
{
	enum kallsyms_why	why;

	return kallsyms_parse_why(fp, "kallsyms", &why, err, errlen);
}

/* The first line of procroot/rel, trimmed, or "?" when unreadable. */
static void
kallsyms_sysctl(const char *procroot, const char *rel, char *buf,
    size_t len)
{
	char	 path[KALLSYMS_PATH_MAX];
	FILE	*fp;

	snprintf(buf, len, "?");
	snprintf(path, sizeof(path), "%s/%s", procroot, rel);
	if ((fp = fopen(path, "re")) == NULL)
		return;
	if (fgets(buf, (int)len, fp) == NULL)
		snprintf(buf, len, "?");
	buf[strcspn(buf, " \t\r\n")] = '\0';
	fclose(fp);
}

/*
 * Linux's kallsyms_show_value(): kptr_restrict 0 shows the addresses to
 * whoever may use perf (perf_event_paranoid at most 1) or has
 * CAP_SYSLOG, 1 only to CAP_SYSLOG, 2 to nobody; as the opener's
 * credentials were.
 */
struct kallsyms *
kallsyms_read(const char *procroot, char *err, size_t errlen)
{
	struct kallsyms		*ks;
	enum kallsyms_why	 why;
	char			 path[KALLSYMS_PATH_MAX], kptr[16], para[16];
	FILE			*fp;

	if (procroot == NULL)
		procroot = "/proc";
	snprintf(path, sizeof(path), "%s/kallsyms", procroot);
	if ((fp = fopen(path, "re")) == NULL) {
		snprintf(err, errlen, "cannot open %s: %s", path,
		    strerror(errno));
		return NULL;
	}
	ks = kallsyms_parse_why(fp, path, &why, err, errlen);
	fclose(fp);
	if (ks != NULL || why != KALLSYMS_ZEROED)
		return ks;
	kallsyms_sysctl(procroot, "sys/kernel/kptr_restrict", kptr,
	    sizeof(kptr));
	kallsyms_sysctl(procroot, "sys/kernel/perf_event_paranoid", para,
	    sizeof(para));
	if (strcmp(kptr, "0") == 0)
		snprintf(err, errlen, "kptr_restrict is 0 and "
		    "perf_event_paranoid %s: %s shows every address as 0 to "
		    "a process without CAP_SYSLOG: no symbols", para, path);
	else if (strcmp(kptr, "1") == 0)
		snprintf(err, errlen, "kptr_restrict is 1: %s shows every "
		    "address as 0 to a process without CAP_SYSLOG: no "
		    "symbols", path);
	else if (strcmp(kptr, "?") == 0)
		snprintf(err, errlen, "kptr_restrict hides the kernel's "
		    "addresses: %s shows every one as 0: no symbols", path);
	else
		snprintf(err, errlen, "kptr_restrict is %s: %s shows every "
		    "address as 0 to every process: no symbols", kptr, path);
	return NULL;
}

const struct ksym *
kallsyms_find(const struct kallsyms *ks, uint64_t ip)
{
	const struct ksym	*s;
	size_t			 lo = 0, hi, mid;

	if (ks == NULL || ks->n == 0 || ip < ks->syms[0].addr)
		return NULL;
	/* The last symbol at or below ip: syms[lo].addr <= ip < syms[hi]. */
	hi = ks->n;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	/* Of those at that address, the first: functions before markers. */
	while (lo > 0 && ks->syms[lo - 1].addr == ks->syms[lo].addr)
		lo--;
	s = &ks->syms[lo];
	/* Past the end of the kernel's text or of any plausible function. */
	if (strcmp(s->name, "_etext") == 0 ||
	    strcmp(s->name, "_einittext") == 0 ||
	    ip - s->addr > KALLSYMS_FN_MAX)
		return NULL;
	return s;
}

size_t
kallsyms_count(const struct kallsyms *ks)
{
	return ks != NULL ? ks->n : 0;
}

void
kallsyms_free(struct kallsyms *ks)
{
	if (ks == NULL)
		return;
	free(ks->syms);
	free(ks->text);
	free(ks);
}
