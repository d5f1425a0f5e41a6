/*
 * profile_json.c: --profile's figures as JSON and back
 * (codec/profile_json.h).  No I/O.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "codec/member.h"
#include "codec/profile_json.h"

static json_t *
profile_cats_json(const struct gb_profile *p)
{
	json_t *a;
	int i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < GB_NCAT; i++)
		if (json_array_append_new(a, json_pack("{s:s, s:I, s:f}",
		    "name", profile_cat_name(i), "samples",
		    member_jint(p->cat[i]), "pct",
		    profile_share(p, p->cat[i]))) == -1) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
profile_top_json(const struct gb_profile *p)
{
	const struct gb_prof_fn *f;
	json_t *a;
	unsigned i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < p->ntop && i < GB_PROFILE_TOP; i++) {
		f = &p->top[i];
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:s?, s:s,"
		    " s:I, s:f}", "name", f->name, "kind", f->user ? "process" :
		    "function", "module", f->module[0] != '\0' ? f->module :
		    NULL, "category", profile_cat_name(f->cat), "samples",
		    member_jint(f->samples), "pct",
		    profile_share(p, f->samples))) == -1) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *
profile_json(const struct gb_profile *p)
{
	if (!p->has)
		return json_null();
	return json_pack("{s:s, s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:f, s:f,"
	    " s:f, s:I, s:I, s:s?, s:o, s:o, s:{s:f, s:f, s:f}}",
	    "event", p->event, "hz", (json_int_t)p->hz,
	    "ncpus", (json_int_t)p->ncpus, "seconds", p->seconds,
	    "samples", member_jint(p->samples), "idle", member_jint(p->idle),
	    "kernel", member_jint(p->kernel), "user", member_jint(p->user),
	    "idle_pct", profile_split(p, p->idle),
	    "kernel_pct", profile_split(p, p->kernel),
	    "user_pct", profile_split(p, p->user),
	    "lost", member_jint(p->lost), "unknown", member_jint(p->unknown),
	    "driver", p->driver[0] != '\0' ? p->driver : NULL,
	    "categories", profile_cats_json(p), "top", profile_top_json(p),
	    "cost", "handled_per_s", p->handled_per_s, "cpu_s", p->cpu_s,
	    "cpu_pct", p->seconds > 0 ? 100.0 * p->cpu_s / p->seconds : 0.0);
}

json_t *
profile_missing_json(const struct gb_profile *p)
{
	return p->asked && !p->has && p->missing[0] != '\0' ?
	    json_string(p->missing) : json_null();
}

static int
profile_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static int
profile_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Member key of o as a count; path names o ("profile", "profile.top[2]"). */
static int
profile_uint(const json_t *o, const char *path, const char *key,
    uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	char why[MEMBER_WHY_LEN];

	if (member_check_uint(json_object_get(o, key), 0, max, out, why,
	    sizeof(why)) == -1)
		return profile_fail(err, errlen, "%s.%s %s", path, key, why);
	return 0;
}

static int
profile_real(const json_t *o, const char *path, const char *key,
    double *out, char *err, size_t errlen)
{
	char why[MEMBER_WHY_LEN];

	if (member_check_real(json_object_get(o, key), out, why,
	    sizeof(why)) == -1)
		return profile_fail(err, errlen, "%s.%s %s", path, key, why);
	return 0;
}

/* A string member, or with nullable a null for "". */
static int
profile_string(const json_t *o, const char *path, const char *key,
    int nullable, char *out, size_t outlen, char *err, size_t errlen)
{
	const json_t *v = json_object_get(o, key);
	char why[MEMBER_WHY_LEN];

	if (nullable && json_is_null(v)) {
		out[0] = '\0';
		return 0;
	}
	if (member_check_string(v, out, outlen, why, sizeof(why)) == -1)
		return profile_fail(err, errlen, "%s.%s %s", path, key, why);
	return 0;
}

/* Member key of o, one of the category names. */
static int
profile_cat_member(const json_t *o, const char *path, const char *key,
    int *cat, char *err, size_t errlen)
{
	char name[48];

	if (profile_string(o, path, key, 0, name, sizeof(name), err,
	    errlen) == -1)
		return -1;
	if ((*cat = profile_cat_lookup(name)) == -1)
		return profile_fail(err, errlen, "%s.%s is not a category: "
		    "\"%s\"", path, key, name);
	return 0;
}

/*
 * Every category, in order; a peer or a file from before GB_CAT_IRQOFF
 * has all but that one, which is then 0 (its samples are in locking).
 */
static int
profile_cats_from(const json_t *j, struct gb_profile *p, char *err,
    size_t errlen)
{
	const json_t *a = json_object_get(j, "categories"), *o;
	char path[48];
	uint64_t sum = 0;
	size_t n = json_array_size(a), k;
	int i, cat;

	if (!json_is_array(a) || (n != GB_NCAT && n != GB_NCAT - 1))
		return profile_fail(err, errlen, "profile.categories is not "
		    "an array of %d categories", GB_NCAT);
	for (i = 0, k = 0; i < GB_NCAT; i++) {
		if (i == GB_CAT_IRQOFF && n == GB_NCAT - 1)
			continue;
		snprintf(path, sizeof(path), "profile.categories[%zu]", k);
		o = json_array_get(a, k++);
		if (!json_is_object(o))
			return profile_fail(err, errlen, "%s is not an "
			    "object", path);
		if (profile_cat_member(o, path, "name", &cat, err,
		    errlen) == -1)
			return -1;
		if (cat != i)
			return profile_fail(err, errlen, "%s is not \"%s\"",
			    path, profile_cat_name(i));
		if (profile_uint(o, path, "samples", p->samples, &p->cat[i],
		    err, errlen) == -1)
			return -1;
		sum += p->cat[i];
	}
	if (sum != p->kernel + p->user)
		return profile_fail(err, errlen, "profile.categories do not "
		    "add up to the busy samples (%llu, not %llu)",
		    (unsigned long long)sum,
		    (unsigned long long)(p->kernel + p->user));
	if (p->cat[GB_CAT_IRQOFF] != 0 &&
	    !profile_event_hides_irqs_off(p->event))
		return profile_fail(err, errlen, "profile.categories has "
		    "%llu samples \"%s\" under %s, which does not hide the "
		    "time interrupts are off",
		    (unsigned long long)p->cat[GB_CAT_IRQOFF],
		    profile_cat_name(GB_CAT_IRQOFF), p->event);
	return 0;
}

static int
profile_top_from(const json_t *j, struct gb_profile *p, char *err,
    size_t errlen)
{
	const json_t *a = json_object_get(j, "top"), *o;
	struct gb_prof_fn *f;
	char path[32], kind[16];
	size_t i;

	if (!json_is_array(a) || json_array_size(a) > GB_PROFILE_TOP)
		return profile_fail(err, errlen, "profile.top is not an array "
		    "of at most %d functions", GB_PROFILE_TOP);
	p->ntop = (unsigned)json_array_size(a);
	for (i = 0; i < p->ntop; i++) {
		snprintf(path, sizeof(path), "profile.top[%zu]", i);
		o = json_array_get(a, i);
		f = &p->top[i];
		if (!json_is_object(o))
			return profile_fail(err, errlen, "%s is not an "
			    "object", path);
		if (profile_string(o, path, "name", 0, f->name,
		    sizeof(f->name), err, errlen) == -1 ||
		    profile_string(o, path, "kind", 0, kind, sizeof(kind), err,
		    errlen) == -1 ||
		    profile_string(o, path, "module", 1, f->module,
		    sizeof(f->module), err, errlen) == -1 ||
		    profile_cat_member(o, path, "category", &f->cat, err,
		    errlen) == -1 ||
		    profile_uint(o, path, "samples", p->kernel + p->user,
		    &f->samples, err, errlen) == -1)
			return -1;
		if (strcmp(kind, "function") != 0 &&
		    strcmp(kind, "process") != 0)
			return profile_fail(err, errlen, "%s.kind is neither "
			    "\"function\" nor \"process\"", path);
		f->user = kind[0] == 'p';
	}
	return 0;
}

/* The sampling's own figures: the event, the rate, the cost. */
static int
profile_head_from(const json_t *j, struct gb_profile *p, char *err,
    size_t errlen)
{
	const char *P = "profile";
	const json_t *cost = json_object_get(j, "cost");
	uint64_t hz, ncpus;

	if (profile_string(j, P, "event", 0, p->event, sizeof(p->event), err,
	    errlen) == -1 ||
	    profile_uint(j, P, "hz", 1000000, &hz, err, errlen) == -1 ||
	    profile_uint(j, P, "ncpus", 65536, &ncpus, err, errlen) == -1 ||
	    profile_real(j, P, "seconds", &p->seconds, err, errlen) == -1 ||
	    profile_string(j, P, "driver", 1, p->driver, sizeof(p->driver),
	    err, errlen) == -1)
		return -1;
	p->hz = (unsigned)hz;
	p->ncpus = (unsigned)ncpus;
	if (!json_is_object(cost))
		return profile_fail(err, errlen, "profile.cost is not an "
		    "object");
	return profile_real(cost, "profile.cost", "handled_per_s",
	    &p->handled_per_s, err, errlen) == -1 || profile_real(cost,
	    "profile.cost", "cpu_s", &p->cpu_s, err, errlen) == -1 ? -1 : 0;
}

/* The counts: the split must add up to the samples. */
static int
profile_counts_from(const json_t *j, struct gb_profile *p, char *err,
    size_t errlen)
{
	const char *P = "profile";

	if (profile_uint(j, P, "samples", INT64_MAX, &p->samples, err,
	    errlen) == -1 ||
	    profile_uint(j, P, "idle", p->samples, &p->idle, err,
	    errlen) == -1 ||
	    profile_uint(j, P, "kernel", p->samples, &p->kernel, err,
	    errlen) == -1 ||
	    profile_uint(j, P, "user", p->samples, &p->user, err,
	    errlen) == -1 ||
	    profile_uint(j, P, "lost", INT64_MAX, &p->lost, err, errlen) == -1 ||
	    profile_uint(j, P, "unknown", p->kernel, &p->unknown, err,
	    errlen) == -1)
		return -1;
	if (p->idle + p->kernel + p->user != p->samples)
		return profile_fail(err, errlen, "profile.idle, kernel and "
		    "user do not add up to its samples");
	return 0;
}

int
profile_from_json(const json_t *j, const json_t *missing,
    struct gb_profile *out, char *err, size_t errlen)
{
	struct gb_profile p;
	char why[MEMBER_WHY_LEN];

	memset(&p, 0, sizeof(p));
	if (j == NULL || json_is_null(j)) {
		if (missing != NULL && !json_is_null(missing)) {
			if (member_check_string(missing, p.missing,
			    sizeof(p.missing), why, sizeof(why)) == -1)
				return profile_fail(err, errlen,
				    "profile_missing %s", why);
			p.asked = 1;
		}
		*out = p;
		return 0;
	}
	if (!json_is_object(j))
		return profile_fail(err, errlen, "profile is not an object");
	if (missing != NULL && !json_is_null(missing))
		return profile_fail(err, errlen, "profile_missing is not null "
		    "beside a profile");
	if (profile_head_from(j, &p, err, errlen) == -1 ||
	    profile_counts_from(j, &p, err, errlen) == -1 ||
	    profile_cats_from(j, &p, err, errlen) == -1 ||
	    profile_top_from(j, &p, err, errlen) == -1)
		return -1;
	p.asked = p.has = 1;
	*out = p;
	return 0;
}
