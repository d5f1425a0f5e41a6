/*
 * capture_json.c: struct gb_capture as JSON (both ways, the decoder
 * checking every member a peer sent) and as the report's text lines.
 * The histogram's bounds come from capture.h.  No I/O but the FILE given.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "host/capture.h"

#define CAPTURE_LE		"<="	/* bin labels stay ASCII */

static json_t	*capture_hist_json(const uint64_t *);
static int	 capture_get_uint(const json_t *, const char *, const char *,
		    uint64_t, uint64_t *, char *, size_t);
static int	 capture_get_hist(const json_t *, const char *, uint64_t,
		    uint64_t *, char *, size_t);
static void	 capture_sizes(FILE *, const char *, const uint64_t *);
static int	 capture_fail(char *, size_t, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));

static int
capture_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* JSON integers are signed 64-bit; counts never reach 2^63. */
static json_t *
capture_hist_json(const uint64_t *hist)
{
	json_t		*a;
	unsigned	 i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < GB_HIST_BINS; i++)
		if (json_array_append_new(a, json_integer(hist[i] > INT64_MAX ?
		    INT64_MAX : (json_int_t)hist[i])) == -1) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *
capture_json(const struct gb_capture *c)
{
	json_t		*bounds;
	unsigned	 i;

	if (!c->has)
		return json_null();
	if ((bounds = json_array()) == NULL)
		return NULL;
	for (i = 0; i < GB_HIST_BINS; i++)
		if (json_array_append_new(bounds, i < GB_HIST_BINS - 1 ?
		    json_integer(capture_bin_max[i]) : json_null()) == -1) {
			json_decref(bounds);
			return NULL;
		}
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I,"
	    " s:{s:o, s:o, s:o}}",
	    "frames_rx", (json_int_t)c->frames_rx,
	    "frames_tx", (json_int_t)c->frames_tx,
	    "bytes_rx", (json_int_t)c->bytes_rx,
	    "bytes_tx", (json_int_t)c->bytes_tx,
	    "max_frame_rx", (json_int_t)c->max_frame_rx,
	    "max_frame_tx", (json_int_t)c->max_frame_tx,
	    "drops", (json_int_t)c->drops,
	    "histogram", "bounds", bounds,
	    "rx", capture_hist_json(c->hist_rx),
	    "tx", capture_hist_json(c->hist_tx));
}

static int
capture_get_uint(const json_t *o, const char *obj, const char *key,
    uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const json_t	*v;
	json_int_t	 i;

	if ((v = json_object_get(o, key)) == NULL)
		return capture_fail(err, errlen, "%s%s is missing", obj, key);
	if (!json_is_integer(v))
		return capture_fail(err, errlen, "%s%s is not an integer", obj,
		    key);
	i = json_integer_value(v);
	if (i < 0)
		return capture_fail(err, errlen, "%s%s is negative: %"
		    JSON_INTEGER_FORMAT, obj, key, i);
	if ((uint64_t)i > max)
		return capture_fail(err, errlen, "%s%s is out of range (max %"
		    PRIu64 "): %" JSON_INTEGER_FORMAT, obj, key, max, i);
	*out = (uint64_t)i;
	return 0;
}

/* histogram.KEY: GB_HIST_BINS counts adding up to frames. */
static int
capture_get_hist(const json_t *h, const char *key, uint64_t frames,
    uint64_t *hist, char *err, size_t errlen)
{
	const json_t	*a, *v;
	uint64_t	 sum = 0;
	unsigned	 i;

	if ((a = json_object_get(h, key)) == NULL)
		return capture_fail(err, errlen, "capture.histogram.%s is"
		    " missing", key);
	if (!json_is_array(a) || json_array_size(a) != GB_HIST_BINS)
		return capture_fail(err, errlen, "capture.histogram.%s is not"
		    " an array of %d counts", key, GB_HIST_BINS);
	for (i = 0; i < GB_HIST_BINS; i++) {
		v = json_array_get(a, i);
		if (!json_is_integer(v))
			return capture_fail(err, errlen, "capture.histogram.%s"
			    "[%u] is not an integer", key, i);
		if (json_integer_value(v) < 0)
			return capture_fail(err, errlen, "capture.histogram.%s"
			    "[%u] is negative: %" JSON_INTEGER_FORMAT, key, i,
			    json_integer_value(v));
		hist[i] = (uint64_t)json_integer_value(v);
		/* Compared, not added, so that ten counts cannot wrap. */
		if (hist[i] > frames - sum)
			return capture_fail(err, errlen, "capture.histogram.%s"
			    " adds up to more than frames_%s", key, key);
		sum += hist[i];
	}
	if (sum != frames)
		return capture_fail(err, errlen, "capture.histogram.%s adds up"
		    " to less than frames_%s", key, key);
	return 0;
}

int
capture_from_json(const json_t *j, struct gb_capture *out, char *err,
    size_t errlen)
{
	struct gb_capture	 c;
	const json_t		*h, *b, *v;
	uint64_t		 max_rx = 0, max_tx = 0;
	unsigned		 i;

	memset(&c, 0, sizeof(c));
	if (j == NULL)
		return capture_fail(err, errlen, "capture is missing");
	if (json_is_null(j)) {
		*out = c;
		return 0;
	}
	if (!json_is_object(j))
		return capture_fail(err, errlen, "capture is not an object");
	if (capture_get_uint(j, "capture.", "frames_rx", INT64_MAX,
	    &c.frames_rx, err, errlen) == -1 ||
	    capture_get_uint(j, "capture.", "frames_tx", INT64_MAX,
	    &c.frames_tx, err, errlen) == -1 ||
	    capture_get_uint(j, "capture.", "bytes_rx", INT64_MAX,
	    &c.bytes_rx, err, errlen) == -1 ||
	    capture_get_uint(j, "capture.", "bytes_tx", INT64_MAX,
	    &c.bytes_tx, err, errlen) == -1 ||
	    capture_get_uint(j, "capture.", "max_frame_rx", UINT32_MAX,
	    &max_rx, err, errlen) == -1 ||
	    capture_get_uint(j, "capture.", "max_frame_tx", UINT32_MAX,
	    &max_tx, err, errlen) == -1 ||
	    capture_get_uint(j, "capture.", "drops", INT64_MAX, &c.drops,
	    err, errlen) == -1)
		return -1;
	c.max_frame_rx = (uint32_t)max_rx;
	c.max_frame_tx = (uint32_t)max_tx;

	if ((h = json_object_get(j, "histogram")) == NULL)
		return capture_fail(err, errlen, "capture.histogram is"
		    " missing");
	if (!json_is_object(h))
		return capture_fail(err, errlen, "capture.histogram is not an"
		    " object");
	b = json_object_get(h, "bounds");
	if (b == NULL || !json_is_array(b) ||
	    json_array_size(b) != GB_HIST_BINS)
		return capture_fail(err, errlen, "capture.histogram.bounds is"
		    " not an array of %d bounds", GB_HIST_BINS);
	for (i = 0; i < GB_HIST_BINS; i++) {
		v = json_array_get(b, i);
		if (i == GB_HIST_BINS - 1 ? !json_is_null(v) :
		    !json_is_integer(v) ||
		    json_integer_value(v) != (json_int_t)capture_bin_max[i])
			return capture_fail(err, errlen, "capture.histogram."
			    "bounds[%u] differs from this version's", i);
	}
	if (capture_get_hist(h, "rx", c.frames_rx, c.hist_rx, err,
	    errlen) == -1 ||
	    capture_get_hist(h, "tx", c.frames_tx, c.hist_tx, err,
	    errlen) == -1)
		return -1;
	c.has = 1;
	*out = c;
	return 0;
}

/* "tx <=1518:412345 >16384:12", the nonzero bins only. */
static void
capture_sizes(FILE *fp, const char *dir, const uint64_t *hist)
{
	unsigned	 i;

	fprintf(fp, "%s", dir);
	for (i = 0; i < GB_HIST_BINS; i++) {
		if (hist[i] == 0)
			continue;
		if (i < GB_HIST_BINS - 1)
			fprintf(fp, " " CAPTURE_LE "%" PRIu32 ":%" PRIu64,
			    capture_bin_max[i], hist[i]);
		else
			fprintf(fp, " >%" PRIu32 ":%" PRIu64,
			    capture_bin_max[i - 1], hist[i]);
	}
}

void
capture_text(FILE *fp, const struct gb_capture *c, const char *prefix)
{
	if (!c->has) {
		if (c->note[0] != '\0')
			fprintf(fp, "%s capture: n/a (%s)\n", prefix, c->note);
		return;
	}
	fprintf(fp, "%s capture: tx %" PRIu64 " frames", prefix, c->frames_tx);
	if (c->frames_tx > 0)
		fprintf(fp, " (max %" PRIu32 " B)", c->max_frame_tx);
	fprintf(fp, ", rx %" PRIu64 " frames", c->frames_rx);
	if (c->frames_rx > 0)
		fprintf(fp, " (max %" PRIu32 " B)", c->max_frame_rx);
	fprintf(fp, ", %" PRIu64 " dropped", c->drops);
	if (c->note[0] != '\0')
		fprintf(fp, " (%s)", c->note);
	fprintf(fp, "\n");
	if (c->frames_tx == 0 && c->frames_rx == 0)
		return;
	fprintf(fp, "%s capture sizes: ", prefix);
	if (c->frames_tx > 0)
		capture_sizes(fp, "tx", c->hist_tx);
	if (c->frames_tx > 0 && c->frames_rx > 0)
		fprintf(fp, "; ");
	if (c->frames_rx > 0)
		capture_sizes(fp, "rx", c->hist_rx);
	fprintf(fp, "\n");
}
