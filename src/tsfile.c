/*
 * tsfile.c: the --timestamps stream (out/tsfile.h), a fopencookie(3)
 * stream: each write is passed on to the stream under it, and at the
 * start of each line the time goes first.  It must not change a byte of
 * what it passes on, nor hold a line back: the interval lines of a long
 * test are for watching.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/monotime.h"
#include "out/tsfile.h"

struct tsfile {
	FILE		*under;
	const char	*fmt;
	int64_t		(*now_us)(void);
	int		 bol;		/* the next byte starts a line */
};

static void
tsfile_prefix(struct tsfile *t)
{
	char buf[256];
	struct tm tm;
	time_t sec = (time_t)(t->now_us() / 1000000);

	if (localtime_r(&sec, &tm) == NULL ||
	    strftime(buf, sizeof(buf), t->fmt, &tm) == 0)
		return;
	fputs(buf, t->under);
	fputc(' ', t->under);
}

static ssize_t
tsfile_write(void *cookie, const char *buf, size_t n)
{
	struct tsfile *t = cookie;
	const char *nl;
	size_t i = 0, k;

	while (i < n) {
		if (t->bol) {
			tsfile_prefix(t);
			t->bol = 0;
		}
		nl = memchr(buf + i, '\n', n - i);
		k = nl != NULL ? (size_t)(nl - (buf + i)) + 1 : n - i;
		if (fwrite(buf + i, 1, k, t->under) != k)
			return i > 0 ? (ssize_t)i : -1;
		i += k;
		if (nl != NULL)
			t->bol = 1;
	}
	fflush(t->under);
	return (ssize_t)n;
}

static int
tsfile_close(void *cookie)
{
	struct tsfile *t = cookie;

	fflush(t->under);
	free(t);
	return 0;
}

FILE *
tsfile_open(FILE *under, const char *fmt, int64_t (*now_us)(void))
{
	static const cookie_io_functions_t io = {
		.write = tsfile_write, .close = tsfile_close,
	};
	struct tsfile *t;
	FILE *f;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->under = under;
	t->fmt = fmt != NULL ? fmt : TSFILE_DEFAULT_FORMAT;
	t->now_us = now_us != NULL ? now_us : walltime_us;
	t->bol = 1;
	if ((f = fopencookie(t, "w", io)) == NULL) {
		free(t);
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	return f;
}
