/*
 * diag_profile.c: what --profile adds to the diagnosis (base/diag.h): an
 * end whose busy samples are mostly copying data says so and names the
 * way to measure without the copy; a driver's interrupt handler near the
 * top of the profile backs up the no_coalescing finding.  Pure.
 */
#include <stdio.h>
#include <string.h>

#include "base/profile.h"
#include "diag_internal.h"

/* An end this busy copying data is told so (the seed thread's case). */
#define DIAG_COPY_PCT		25.0
/* The handler counts when it is among this many top functions. */
#define DIAG_HANDLER_RANK	3

/* The function of category cat with the most samples, or NULL. */
static const struct gb_prof_fn *
diag_top_of(const struct gb_profile *p, int cat)
{
	unsigned i;

	for (i = 0; i < p->ntop && i < GB_PROFILE_TOP; i++)
		if (!p->top[i].user && p->top[i].cat == cat)
			return &p->top[i];
	return NULL;
}

void
diag_profile_copy(struct gb_result *r, const struct gb_side *s,
    const char *side, int is_tx)
{
	const struct gb_profile		*p = &s->profile;
	const struct gb_prof_fn		*f;
	char				 most[GB_PROFILE_NAME_LEN + 48] = "";
	double				 pct;

	if (!s->has || !p->has)
		return;
	pct = profile_share(p, p->cat[GB_CAT_COPY]);
	if (!(pct >= DIAG_COPY_PCT))
		return;
	if ((f = diag_top_of(p, GB_CAT_COPY)) != NULL)
		snprintf(most, sizeof(most), " (%s the most, %.1f %%)",
		    f->name, profile_share(p, f->samples));
	diag_add(r, "data_copy", side, "%.1f %% of the %s's busy samples "
	    "copy data%s: %s", pct, side,
	    most, is_tx ? "-Z (MSG_ZEROCOPY) or --sendfile sends without "
	    "that copy" : "--skip-rx-copy (or --splice) receives without "
	    "that copy, to measure the path alone");
}

/*
 * A driver function that handles interrupts among the top
 * DIAG_HANDLER_RANK: "; the profile has e1000_intr 2nd (8.1 % of the
 * busy samples)" into buf; 0 when there is none.
 */
int
diag_profile_handler(const struct gb_side *s, char *buf, size_t len)
{
	static const char *const marks[] = { "intr", "irq", "interrupt",
	    "isr", "msix" };
	const struct gb_profile	*p = &s->profile;
	const struct gb_prof_fn	*f;
	unsigned		 i, k;

	if (!p->has)
		return 0;
	for (i = 0; i < p->ntop && i < DIAG_HANDLER_RANK; i++) {
		f = &p->top[i];
		if (f->user || f->cat != GB_CAT_DRIVER)
			continue;
		for (k = 0; k < sizeof(marks) / sizeof(marks[0]); k++)
			if (strstr(f->name, marks[k]) != NULL)
				break;
		if (k == sizeof(marks) / sizeof(marks[0]))
			continue;
		snprintf(buf, len, "; the profile has its driver's handler "
		    "%s %u%s of all functions (%.1f %% of the busy samples)",
		    f->name, i + 1, i == 0 ? "st" : i == 1 ? "nd" : "rd",
		    profile_share(p, f->samples));
		return 1;
	}
	return 0;
}
