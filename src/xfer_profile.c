/*
 * xfer_profile.c: --profile around one transfer (xfer_measure.h).  The
 * sampler starts last before the first byte (again as --omit ends) and
 * stops first after the last one, so that it samples the transfer and
 * nothing else; the symbols are read and the profile made afterwards,
 * outside the measured time.  A profile that cannot be had (the listener
 * does not allow it, perf is closed to this user, kptr_restrict hides
 * the addresses) is null with the reason; the test goes on.
 */
#include <stdio.h>
#include <string.h>

#include "host/kallsyms.h"
#include "host/perfsample.h"
#include "xfer_measure.h"

static void
profile_missing(struct gb_profile *pr, const char *why)
{
	pr->has = 0;
	snprintf(pr->missing, sizeof(pr->missing), "%s", why);
}

void
xfer_profile_start(struct xfer_measure *m)
{
	char err[GB_ERR_LEN];

	if (!m->p->profile)
		return;
	m->profile.asked = 1;
	if (m->profile_refused) {
		profile_missing(&m->profile, "the listener does not allow "
		    "--profile (start it with --allow-profile)");
		return;
	}
	perfsample_free(m->sampler);	/* --omit: from its end on */
	m->sampler = perfsample_start(m->roots->procfs, GB_PROFILE_HZ, err,
	    sizeof(err));
	if (m->sampler == NULL)
		profile_missing(&m->profile, err);
}

void
xfer_profile_stop(struct xfer_measure *m)
{
	char err[GB_ERR_LEN];

	if (m->sampler == NULL)
		return;
	if (perfsample_stop(m->sampler, &m->profile_counts, err,
	    sizeof(err)) == -1)
		profile_missing(&m->profile, err);
	else
		m->profiled = 1;
	perfsample_free(m->sampler);
	m->sampler = NULL;
}

void
xfer_profile_side(const struct xfer_measure *m, struct gb_side *side)
{
	struct kallsyms *ks;
	char err[GB_ERR_LEN];

	side->profile = m->profile;
	if (!m->profiled)
		return;
	if ((ks = kallsyms_read(m->roots->procfs, err, sizeof(err))) == NULL) {
		profile_missing(&side->profile, err);
		return;
	}
	profile_build(&side->profile, &m->profile_counts, ks,
	    m->context.driver);
	kallsyms_free(ks);
}

void
xfer_profile_free(struct xfer_measure *m)
{
	perfsample_free(m->sampler);
	m->sampler = NULL;
	perfsample_counts_free(&m->profile_counts);
	m->profiled = 0;
}
