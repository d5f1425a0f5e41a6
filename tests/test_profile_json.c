/*
 * test_profile_json.c: --profile's figures on the wire and on paper: the
 * JSON codec (profile_json.c) both ways, a round trip, then a table of
 * broken documents a hostile listener could send, each refused with the
 * member named; the event and the irqs-off category as members, and a
 * document from before that category; the null forms (not asked,
 * missing with its reason); and the text lines (profile_text.c) against
 * the expected text, under cpu-clock and cycles.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/profile.h"
#include "codec/profile_json.h"
#include "out/profile_text.h"

/* A receiver's profile: 2000 samples, 1200 busy, three functions. */
static void
sample(struct gb_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->asked = p->has = 1;
	snprintf(p->event, sizeof(p->event), "cpu-clock");
	p->hz = 997;
	p->ncpus = 2;
	p->seconds = 1.003;
	p->samples = 2000;
	p->idle = 800;
	p->kernel = 1150;
	p->user = 50;
	p->lost = 3;
	p->unknown = 10;
	p->cat[GB_CAT_COPY] = 600;
	p->cat[GB_CAT_STACK] = 300;
	p->cat[GB_CAT_SOFTIRQ] = 150;
	p->cat[GB_CAT_DRIVER] = 60;
	p->cat[GB_CAT_IRQOFF] = 24;
	p->cat[GB_CAT_KERNEL] = 16;
	p->cat[GB_CAT_USER] = 50;
	snprintf(p->driver, sizeof(p->driver), "veth");
	p->ntop = 3;
	snprintf(p->top[0].name, sizeof(p->top[0].name), "_copy_to_iter");
	p->top[0].cat = GB_CAT_COPY;
	p->top[0].samples = 540;
	snprintf(p->top[1].name, sizeof(p->top[1].name), "veth_xmit");
	snprintf(p->top[1].module, sizeof(p->top[1].module), "veth");
	p->top[1].cat = GB_CAT_DRIVER;
	p->top[1].samples = 60;
	snprintf(p->top[2].name, sizeof(p->top[2].name), "gigebench");
	p->top[2].user = 1;
	p->top[2].cat = GB_CAT_USER;
	p->top[2].samples = 50;
	p->handled_per_s = 1994.0;
	p->cpu_s = 0.004;
}

static void
test_round_trip(void **state)
{
	struct gb_profile p, q;
	json_t *j;
	char err[256];

	(void)state;
	sample(&p);
	j = profile_json(&p);
	assert_non_null(j);
	assert_true(json_is_object(j));
	assert_int_equal(profile_from_json(j, NULL, &q, err, sizeof(err)), 0);
	assert_true(q.asked && q.has);
	assert_string_equal(q.event, "cpu-clock");
	assert_int_equal(q.hz, 997);
	assert_int_equal(q.ncpus, 2);
	assert_int_equal(q.samples, 2000);
	assert_int_equal(q.idle, 800);
	assert_int_equal(q.kernel, 1150);
	assert_int_equal(q.user, 50);
	assert_int_equal(q.lost, 3);
	assert_int_equal(q.unknown, 10);
	assert_memory_equal(q.cat, p.cat, sizeof(p.cat));
	assert_string_equal(q.driver, "veth");
	assert_int_equal(q.ntop, 3);
	assert_string_equal(q.top[1].name, "veth_xmit");
	assert_string_equal(q.top[1].module, "veth");
	assert_int_equal(q.top[1].cat, GB_CAT_DRIVER);
	assert_true(q.top[2].user);
	assert_string_equal(q.top[0].module, "");
	assert_true(q.handled_per_s == 1994.0 && q.cpu_s == 0.004);
	/* The shares: of the busy samples. */
	assert_true(json_real_value(json_object_get(json_array_get(
	    json_object_get(j, "categories"), 0), "pct")) == 50.0);
	assert_true(json_real_value(json_object_get(j, "idle_pct")) == 40.0);
	json_decref(j);
}

/* The event and the new category as members, by name. */
static void
test_members(void **state)
{
	struct gb_profile p;
	json_t *j, *c;

	(void)state;
	sample(&p);
	j = profile_json(&p);
	assert_string_equal(json_string_value(json_object_get(j, "event")),
	    "cpu-clock");
	c = json_array_get(json_object_get(j, "categories"), GB_CAT_IRQOFF);
	assert_string_equal(json_string_value(json_object_get(c, "name")),
	    "irqs off (attributed to the re-enable)");
	assert_int_equal(json_integer_value(json_object_get(c, "samples")),
	    24);
	assert_true(json_real_value(json_object_get(c, "pct")) == 2.0);
	assert_int_equal(json_array_size(json_object_get(j, "categories")),
	    GB_NCAT);
	json_decref(j);
	/* Under cycles the category is there, and 0. */
	snprintf(p.event, sizeof(p.event), "cycles");
	p.cat[GB_CAT_LOCK] += p.cat[GB_CAT_IRQOFF];
	p.cat[GB_CAT_IRQOFF] = 0;
	j = profile_json(&p);
	assert_string_equal(json_string_value(json_object_get(j, "event")),
	    "cycles");
	c = json_array_get(json_object_get(j, "categories"), GB_CAT_IRQOFF);
	assert_int_equal(json_integer_value(json_object_get(c, "samples")),
	    0);
	json_decref(j);
}

/*
 * A peer (or a file) from before the category: nine, the irqs-off one
 * absent, read as 0.
 */
static void
test_before_irqs_off(void **state)
{
	struct gb_profile p, q;
	json_t *j, *a;
	char err[256];

	(void)state;
	sample(&p);
	p.cat[GB_CAT_LOCK] += p.cat[GB_CAT_IRQOFF];
	p.cat[GB_CAT_IRQOFF] = 0;
	j = profile_json(&p);
	a = json_object_get(j, "categories");
	assert_int_equal(json_array_remove(a, GB_CAT_IRQOFF), 0);
	assert_int_equal(profile_from_json(j, NULL, &q, err, sizeof(err)), 0);
	assert_memory_equal(q.cat, p.cat, sizeof(p.cat));
	/* Eight is not enough. */
	assert_int_equal(json_array_remove(a, 0), 0);
	assert_int_equal(profile_from_json(j, NULL, &q, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "profile.categories is not an array of 10 "
	    "categories");
	json_decref(j);
}

static void
test_nulls(void **state)
{
	struct gb_profile p, q;
	json_t *m;
	char err[256];

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_true(json_is_null(profile_json(&p)));
	assert_true(json_is_null(profile_missing_json(&p)));
	p.asked = 1;
	snprintf(p.missing, sizeof(p.missing), "perf_event_paranoid is 2");
	m = profile_missing_json(&p);
	assert_string_equal(json_string_value(m), "perf_event_paranoid is 2");
	assert_int_equal(profile_from_json(json_null(), m, &q, err,
	    sizeof(err)), 0);
	assert_true(q.asked && !q.has);
	assert_string_equal(q.missing, "perf_event_paranoid is 2");
	/* Absent members: a peer that does not profile. */
	assert_int_equal(profile_from_json(NULL, NULL, &q, err, sizeof(err)),
	    0);
	assert_true(!q.asked && !q.has);
	json_decref(m);
}

/* Each edit of a good document, and the start of the message it gives. */
static const struct {
	const char	*path;		/* where, "" the top */
	const char	*key;
	const char	*json;		/* the new value */
	const char	*why;
} broken[] = {
	{ "", "samples", "-1", "profile.samples is negative" },
	{ "", "idle", "801", "profile.idle, kernel and user do not add up" },
	{ "", "kernel", "3000", "profile.kernel is out of range" },
	{ "", "event", "7", "profile.event is not a string" },
	{ "", "event", "\"cycles\"", "profile.categories has 24 samples "
	    "\"irqs off (attributed to the re-enable)\" under cycles" },
	{ "", "hz", "\"997\"", "profile.hz is not an integer" },
	{ "", "seconds", "-2.0", "profile.seconds is negative" },
	{ "", "driver", "\"a\\u0001b\"", "profile.driver holds a byte" },
	{ "", "categories", "[]", "profile.categories is not an array" },
	{ "", "top", "{}", "profile.top is not an array" },
	{ "", "cost", "null", "profile.cost is not an object" },
	{ "categories", "0", "{\"name\": \"checksum\", \"samples\": 600}",
	    "profile.categories[0] is not \"copy\"" },
	{ "categories", "1", "{\"name\": \"checksum\", \"samples\": 5}",
	    "profile.categories do not add up" },
	{ "categories", "2", "{\"name\": \"nope\", \"samples\": 300}",
	    "profile.categories[2].name is not a category" },
	{ "categories", "7", "{\"name\": \"kernel\", \"samples\": 24}",
	    "profile.categories[7] is not \"irqs off (attributed to the "
	    "re-enable)\"" },
	{ "top", "0", "{\"name\": \"f\", \"kind\": \"thing\", \"module\": "
	    "null, \"category\": \"copy\", \"samples\": 1}",
	    "profile.top[0].kind is neither" },
	{ "top", "1", "{\"name\": \"f\", \"kind\": \"function\", \"module\": "
	    "null, \"category\": \"copy\", \"samples\": 99999}",
	    "profile.top[1].samples is out of range" },
	{ "top", "2", "7", "profile.top[2] is not an object" },
};

static void
test_broken(void **state)
{
	struct gb_profile p, q;
	json_t *j, *v, *in;
	char err[256];
	size_t i;

	(void)state;
	sample(&p);
	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		j = profile_json(&p);
		v = json_loads(broken[i].json, JSON_DECODE_ANY, NULL);
		assert_non_null(v);
		if (broken[i].path[0] == '\0')
			json_object_set_new(j, broken[i].key, v);
		else {
			in = json_object_get(j, broken[i].path);
			json_array_set_new(in, (size_t)atoi(broken[i].key), v);
		}
		memset(&q, 0x5a, sizeof(q));
		err[0] = '\0';
		assert_int_equal(profile_from_json(j, NULL, &q, err,
		    sizeof(err)), -1);
		if (strncmp(err, broken[i].why, strlen(broken[i].why)) != 0)
			fail_msg("case %zu: \"%s\", not \"%s...\"", i, err,
			    broken[i].why);
		json_decref(j);
	}
	/* A profile and a reason for its absence at once. */
	j = profile_json(&p);
	v = json_string("no");
	assert_int_equal(profile_from_json(j, v, &q, err, sizeof(err)), -1);
	assert_string_equal(err, "profile_missing is not null beside a "
	    "profile");
	json_decref(j);
	json_decref(v);
}

static char *
render(const struct gb_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	profile_text(f, p, "gigebench-r:");
	fclose(f);
	return buf;
}

static void
test_text(void **state)
{
	struct gb_profile p;
	char *t;

	(void)state;
	sample(&p);
	t = render(&p);
	assert_string_equal(t,
	    "gigebench-r: profile cpu-clock 997 Hz x 2 CPUs, 2000 samples, 3 "
	    "lost: idle 40.0 %, kernel 57.5 %, user 2.5 %; of the busy "
	    "samples: copy 50.0 %, checksum 0.0 %, stack 25.0 %, softirq "
	    "12.5 %, driver 5.0 % (veth), sched 0.0 %, locking 0.0 %, irqs off "
	    "(attributed to the re-enable) 2.0 %, kernel 1.3 %, user 4.2 %\n"
	    "gigebench-r: profile event: cpu-clock (no PMU): time with "
	    "interrupts disabled is charged to the function that enables "
	    "them again, \"irqs off (attributed to the re-enable)\"\n"
	    "gigebench-r: profile top: 45.0 % _copy_to_iter, 5.0 % veth_xmit "
	    "[veth], 4.2 % gigebench (process)\n"
	    "gigebench-r: profile cost: 1994 samples/s handled, the sampler "
	    "0.40 % of a CPU\n");
	free(t);
	/* Cycles: the event named, no irqs-off category. */
	snprintf(p.event, sizeof(p.event), "cycles");
	p.cat[GB_CAT_LOCK] += p.cat[GB_CAT_IRQOFF];
	p.cat[GB_CAT_IRQOFF] = 0;
	t = render(&p);
	assert_non_null(strstr(t, "sched 0.0 %, locking 2.0 %, kernel 1.3 %"));
	assert_null(strstr(t, "irqs off"));
	assert_non_null(strstr(t, "\ngigebench-r: profile event: cycles\n"
	    "gigebench-r: profile top:"));
	free(t);
	memset(&p, 0, sizeof(p));
	t = render(&p);
	assert_string_equal(t, "");
	free(t);
	p.asked = 1;
	snprintf(p.missing, sizeof(p.missing), "the listener does not allow "
	    "--profile (start it with --allow-profile)");
	t = render(&p);
	assert_string_equal(t, "gigebench-r: profile n/a: the listener does "
	    "not allow --profile (start it with --allow-profile)\n");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_before_irqs_off),
		cmocka_unit_test(test_nulls),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
