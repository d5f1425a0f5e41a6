/*
 * safetext.h: the one rule for a foreign string on its way to a terminal,
 * a log, a JSON or CSV cell or a plot: a byte that is not printable ASCII
 * (C0 controls, DEL, and every byte from 0x80 on, which covers C1 controls
 * and their UTF-8 forms) is shown as "\xHH", never emitted.  A backslash
 * is kept as it is, so the escaped text reads as the bytes did; the
 * escaping only ever adds characters that are printable.  Pure: no I/O.
 */
#ifndef GB_SAFETEXT_H
#define GB_SAFETEXT_H

#include <stddef.h>

/* The longest escaped form of one byte: "\xHH". */
#define SAFETEXT_ESC_LEN	4

/* Is every byte of s (NUL-terminated) printable ASCII? */
int	 safetext_is_printable(const char *s);
/*
 * Copy src into dst (dstlen bytes, NUL-terminated), escaping as above.
 * An escape that would not fit is left out whole, never cut: the copy
 * ends before it.  Returns dst; dstlen 0 writes nothing.
 */
char	*safetext_escape(char *dst, size_t dstlen, const char *src);
/* safetext_escape of the first n bytes of src, which may hold NULs. */
char	*safetext_escape_n(char *dst, size_t dstlen, const char *src,
	    size_t n);
/* Escape s in place, in its own buffer of size bytes. */
void	 safetext_inplace(char *s, size_t size);

#endif /* GB_SAFETEXT_H */
