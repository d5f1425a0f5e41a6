/*
 * capture_json.c: struct gb_capture as JSON, both ways (capture_json.h),
 * the decoder checking every member a peer sent with member.h's checks.
 * The histogram's bounds come from result.h.  No I/O.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "codec/capture_json.h"
#include "codec/member.h"

static json_t	*capture_hist_json(const uint64_t *);
static int	 capture_get_uint(const json_t *, const char *, uint64_t,
		    uint64_t *, char *, size_t);
static int	 capture_get_hist(const json_t *, const char *, uint64_t,
		    uint64_t *, char *, size_t);
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
		if (json_array_append_new(a,
		    json_integer(member_jint(hist[i]))) == -1) {
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

/* capture.KEY, checked by member.h. */
static int
capture_get_uint(const json_t *o, const char *key, uint64_t max,
    uint64_t *out, char *err, size_t errlen)
{
	char	why[MEMBER_WHY_LEN];

	if (member_check_uint(json_object_get(o, key), 0, max, out, why,
	    sizeof(why)) == -1)
		return capture_fail(err, errlen, "capture.%s %s", key, why);
	return 0;
}

/* histogram.KEY: GB_HIST_BINS counts adding up to frames. */
static int
capture_get_hist(const json_t *h, const char *key, uint64_t frames,
    uint64_t *hist, char *err, size_t errlen)
{
	const json_t	*a;
	char		 why[MEMBER_WHY_LEN];
	uint64_t	 sum = 0;
	unsigned	 i;

	if ((a = json_object_get(h, key)) == NULL)
		return capture_fail(err, errlen, "capture.histogram.%s is"
		    " missing", key);
	if (!json_is_array(a) || json_array_size(a) != GB_HIST_BINS)
		return capture_fail(err, errlen, "capture.histogram.%s is not"
		    " an array of %d counts", key, GB_HIST_BINS);
	for (i = 0; i < GB_HIST_BINS; i++) {
		if (member_check_uint(json_array_get(a, i), 0, UINT64_MAX,
		    &hist[i], why, sizeof(why)) == -1)
			return capture_fail(err, errlen, "capture.histogram.%s"
			    "[%u] %s", key, i, why);
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
	if (capture_get_uint(j, "frames_rx", INT64_MAX, &c.frames_rx, err,
	    errlen) == -1 ||
	    capture_get_uint(j, "frames_tx", INT64_MAX, &c.frames_tx, err,
	    errlen) == -1 ||
	    capture_get_uint(j, "bytes_rx", INT64_MAX, &c.bytes_rx, err,
	    errlen) == -1 ||
	    capture_get_uint(j, "bytes_tx", INT64_MAX, &c.bytes_tx, err,
	    errlen) == -1 ||
	    capture_get_uint(j, "max_frame_rx", UINT32_MAX, &max_rx, err,
	    errlen) == -1 ||
	    capture_get_uint(j, "max_frame_tx", UINT32_MAX, &max_tx, err,
	    errlen) == -1 ||
	    capture_get_uint(j, "drops", INT64_MAX, &c.drops, err,
	    errlen) == -1)
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
