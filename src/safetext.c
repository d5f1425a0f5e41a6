/*
 * safetext.c: foreign strings made printable (base/safetext.h).  Every
 * writer that prints a text it did not make itself (a peer's host name,
 * a driver's, a refusal's words, a merged file's strings, an option's
 * value in an error) passes it through here, so that one rule holds for
 * the terminal, the listener's log, JSON, CSV and gnuplot alike.  Pure.
 */
#include <string.h>

#include "base/safetext.h"

static int
safetext_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

int
safetext_is_printable(const char *s)
{
	for (; *s != '\0'; s++)
		if (!safetext_plain((unsigned char)*s))
			return 0;
	return 1;
}

char *
safetext_escape_n(char *dst, size_t dstlen, const char *src, size_t n)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i, o = 0;
	unsigned char		 c;

	if (dstlen == 0)
		return dst;
	for (i = 0; i < n; i++) {
		c = (unsigned char)src[i];
		if (safetext_plain(c)) {
			if (o + 1 >= dstlen)
				break;
			dst[o++] = (char)c;
			continue;
		}
		if (o + SAFETEXT_ESC_LEN >= dstlen)
			break;
		dst[o++] = '\\';
		dst[o++] = 'x';
		dst[o++] = hex[c >> 4];
		dst[o++] = hex[c & 0xf];
	}
	dst[o] = '\0';
	return dst;
}

char *
safetext_escape(char *dst, size_t dstlen, const char *src)
{
	return safetext_escape_n(dst, dstlen, src, strlen(src));
}

void
safetext_inplace(char *s, size_t size)
{
	char	copy[1024];
	size_t	i, n;

	if (size == 0)
		return;
	n = strnlen(s, size);
	if (n == size)
		n = size - 1;
	for (i = 0; i < n && safetext_plain((unsigned char)s[i]); i++)
		;
	if (i == n) {
		s[n] = '\0';
		return;
	}
	/* A longer text is cut to what the copy holds. */
	if (n >= sizeof(copy))
		n = sizeof(copy) - 1;
	memcpy(copy, s, n);
	safetext_escape_n(s, size, copy, n);
}
