/*
 * context_parse.c: the pure half of the context readers: parsers that
 * turn the text of one /proc or /sys file into a value, and the helpers
 * that keep struct gb_context's note short (context_init() and
 * context_copy() are base/context_value.h's).
 * No file is opened here; the tests feed these with fmemopen().
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/context.h"

static char	*context_trim(char *);

void
context_note(struct gb_context *ctx, const char *fmt, ...)
{
	char	what[GB_ERR_LEN], all[sizeof(ctx->note) + sizeof(what) + 2];
	size_t	len, max = sizeof(ctx->note) - 1;
	va_list	ap;

	len = strnlen(ctx->note, sizeof(ctx->note));
	if (len == sizeof(ctx->note) ||
	    (len >= 3 && strcmp(ctx->note + len - 3, "...") == 0))
		return;		/* full */
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(all, sizeof(all), "%s%s%s", ctx->note, len > 0 ? "; " : "",
	    what);
	if (strlen(all) > max)
		memcpy(all + max - 3, "...", 4);
	context_copy(ctx->note, sizeof(ctx->note), all);
}

/* Without leading and trailing white space, in place. */
static char *
context_trim(char *s)
{
	char	*e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int
context_cpuinfo_parse(FILE *fp, char *model, size_t modellen, int *ncpus)
{
	/* In order of preference; ARM's "Processor" is the old banner. */
	static const char *const keys[] = {
		"model name", "cpu", "Processor", "CPU part"
	};
	const size_t	 nkeys = sizeof(keys) / sizeof(keys[0]);
	char		*line = NULL, *colon, *key, *val;
	size_t		 cap = 0, i, best = nkeys;
	int		 n = 0;

	if (modellen > 0)
		model[0] = '\0';
	while (getline(&line, &cap, fp) != -1) {
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		key = context_trim(line);
		val = context_trim(colon + 1);
		if (strcmp(key, "processor") == 0) {
			if (n < CONTEXT_MAX_NCPUS)
				n++;
			continue;
		}
		for (i = 0; i < best && *val != '\0'; i++)
			if (strcmp(key, keys[i]) == 0) {
				context_copy(model, modellen, val);
				best = i;
			}
	}
	free(line);
	*ncpus = n;
	return best == nkeys && n == 0 ? -1 : 0;
}

int
context_int_parse(FILE *fp, int64_t *v)
{
	long long	 ll;
	char		 buf[64], *end;

	if (fgets(buf, sizeof(buf), fp) == NULL ||
	    (strchr(buf, '\n') == NULL && !feof(fp)) ||	/* too long */
	    (!isdigit((unsigned char)buf[0]) &&
	    (buf[0] != '-' || !isdigit((unsigned char)buf[1]))))
		return -1;
	errno = 0;
	ll = strtoll(buf, &end, 10);
	if (errno != 0 || (*end != '\n' && *end != '\0'))
		return -1;
	*v = ll;
	return 0;
}

int
context_line_parse(FILE *fp, char *buf, size_t len)
{
	char	*line = NULL, *s;
	size_t	 cap = 0;
	int	 r = -1;

	if (getline(&line, &cap, fp) != -1 &&
	    *(s = context_trim(line)) != '\0') {
		context_copy(buf, len, s);
		r = 0;
	}
	free(line);
	return r;
}

int
context_triple_parse(FILE *fp, char *buf, size_t len)
{
	unsigned long long	 v[3];
	char			*line = NULL, *p, *end;
	size_t			 cap = 0, i;
	int			 r = -1;

	if (getline(&line, &cap, fp) == -1)
		goto out;
	for (p = line, i = 0; i < 3; i++, p = end) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			goto out;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno != 0 || v[i] > INT64_MAX)
			goto out;
	}
	if (*context_trim(p) != '\0')
		goto out;
	if ((size_t)snprintf(buf, len, "%llu %llu %llu", v[0], v[1],
	    v[2]) < len)
		r = 0;
out:
	if (r == -1 && len > 0)
		buf[0] = '\0';
	free(line);
	return r;
}
