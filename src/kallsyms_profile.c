/*
 * kallsyms_profile.c: profile_build() (kallsyms.h), the sampler's counts
 * (perfsample.h) made into the report's struct gb_profile
 * (base/profile.h): each kernel address to its symbol and category (by
 * the event sampled: under cpu-clock the functions that enable
 * interrupts again are GB_CAT_IRQOFF), the functions summed over their
 * addresses, the processes over their
 * samples, the top GB_PROFILE_TOP of both.
 *
 * The split (idle, kernel, user) is the sampler's, whose addresses add
 * up to its kernel samples and whose processes (one entry a name) to
 * its user ones; a kernel sample at no symbol is "unknown" and counted
 * as GB_CAT_KERNEL, so the categories add up to the busy samples.
 * Pure: no I/O, and out of memory only the kernel functions drop out of
 * the top.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/kallsyms.h"

/* The samples of one symbol, found from an address. */
struct profile_hit {
	const struct ksym	*sym;
	uint64_t		 n;
};

static void	profile_copy(char *, size_t, const char *, size_t);
static int	profile_fn_cmp(const struct gb_prof_fn *,
		    const struct gb_prof_fn *);
static void	profile_top_add(struct gb_profile *, const struct gb_prof_fn *);
static int	profile_hit_cmp(const void *, const void *);
static void	profile_functions(struct gb_profile *, struct profile_hit *,
		    size_t, const char *);
static void	profile_kernel(struct gb_profile *,
		    const struct perfsample_counts *, const struct kallsyms *,
		    const char *);
static void	profile_user(struct gb_profile *,
		    const struct perfsample_counts *);

/* At most len bytes of src into dst of size, cut to fit, terminated. */
static void
profile_copy(char *dst, size_t size, const char *src, size_t len)
{
	if (len > size - 1)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* The top's order: most samples first, then by name, kernel first. */
static int
profile_fn_cmp(const struct gb_prof_fn *a, const struct gb_prof_fn *b)
{
	int	c;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	if (a->user != b->user)
		return a->user - b->user;
	return strcmp(a->module, b->module);
}

/* fn into p's top, in order, when it is among the first GB_PROFILE_TOP. */
static void
profile_top_add(struct gb_profile *p, const struct gb_prof_fn *fn)
{
	unsigned	i = p->ntop;

	if (i == GB_PROFILE_TOP) {
		if (profile_fn_cmp(fn, &p->top[i - 1]) >= 0)
			return;
		i--;
	} else
		p->ntop++;
	for (; i > 0 && profile_fn_cmp(fn, &p->top[i - 1]) < 0; i--)
		p->top[i] = p->top[i - 1];
	p->top[i] = *fn;
}

/* By symbol: one symbol is one entry of the table. */
static int
profile_hit_cmp(const void *a, const void *b)
{
	uintptr_t	x = (uintptr_t)((const struct profile_hit *)a)->sym;
	uintptr_t	y = (uintptr_t)((const struct profile_hit *)b)->sym;

	return x < y ? -1 : x > y;
}

/* The n hits summed by symbol into p's categories and top. */
static void
profile_functions(struct gb_profile *p, struct profile_hit *hits,
    size_t n, const char *driver)
{
	struct gb_prof_fn	 fn;
	const struct ksym	*s;
	size_t			 i, j;

	qsort(hits, n, sizeof(*hits), profile_hit_cmp);
	for (i = 0; i < n; i = j) {
		s = hits[i].sym;
		memset(&fn, 0, sizeof(fn));
		for (j = i; j < n && hits[j].sym == s; j++)
			fn.samples += hits[j].n;
		fn.cat = profile_cat_of(s->name, s->module, driver,
		    p->event);
		p->cat[fn.cat] += fn.samples;
		profile_copy(fn.name, sizeof(fn.name), s->name,
		    strlen(s->name));
		profile_copy(fn.module, sizeof(fn.module), s->module,
		    strlen(s->module));
		profile_top_add(p, &fn);
	}
}

static void
profile_kernel(struct gb_profile *p, const struct perfsample_counts *c,
    const struct kallsyms *ks, const char *driver)
{
	struct profile_hit	*hits = NULL;
	const struct ksym	*s;
	uint64_t		 v;
	size_t			 i, n = 0;

	if (c->nips > 0)
		hits = malloc(c->nips * sizeof(*hits));
	for (i = 0; i < c->nips; i++) {
		v = c->ips[i].n;
		if ((s = kallsyms_find(ks, c->ips[i].ip)) == NULL)
			p->unknown += v;
		else if (hits == NULL)	/* no memory: no functions */
			p->cat[profile_cat_of(s->name, s->module, driver,
			    p->event)] += v;
		else {
			hits[n].sym = s;
			hits[n++].n = v;
		}
	}
	if (hits != NULL)
		profile_functions(p, hits, n, driver);
	free(hits);
	p->cat[GB_CAT_KERNEL] += p->unknown;
}

/* The processes, one entry a name (the sampler merged them). */
static void
profile_user(struct gb_profile *p, const struct perfsample_counts *c)
{
	const struct perfsample_comm	*cm;
	struct gb_prof_fn		 fn;
	size_t				 i;

	for (i = 0; i < c->ncomms; i++) {
		cm = &c->comms[i];
		memset(&fn, 0, sizeof(fn));
		fn.samples = cm->n;
		profile_copy(fn.name, sizeof(fn.name), cm->comm,
		    strnlen(cm->comm, sizeof(cm->comm)));
		fn.user = 1;
		fn.cat = GB_CAT_USER;
		profile_top_add(p, &fn);
	}
	p->cat[GB_CAT_USER] = p->user;
}

void
profile_build(struct gb_profile *p, const struct perfsample_counts *c,
    const struct kallsyms *ks, const char *driver)
{
	if (driver == NULL)
		driver = "";
	memset(p, 0, sizeof(*p));
	p->asked = 1;
	p->has = 1;
	profile_copy(p->event, sizeof(p->event), c->event,
	    strnlen(c->event, sizeof(c->event)));
	p->hz = c->hz;
	p->ncpus = c->ncpus;
	p->seconds = c->seconds;
	p->idle = c->idle;
	p->kernel = c->kernel;
	p->user = c->user;
	p->lost = c->lost;
	profile_copy(p->driver, sizeof(p->driver), driver, strlen(driver));
	profile_kernel(p, c, ks, driver);
	profile_user(p, c);
	p->samples = p->idle + p->kernel + p->user;
	p->handled_per_s = c->seconds > 0 ?
	    (double)c->records / c->seconds : 0;
	p->cpu_s = c->cpu_s;
}
