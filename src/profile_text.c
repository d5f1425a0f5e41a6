/*
 * profile_text.c: --profile's lines in the text report
 * (out/profile_text.h):
 *
 *   gigebench-r: profile cpu-clock 499 Hz x 2 CPUs, 9980 samples, 0 lost:
 *       idle 38.5 %, kernel 61.2 %, user 0.3 %; of the busy samples: copy
 *       45.8 %, checksum 0.0 %, stack 29.6 %, ...
 *   gigebench-r: profile event: cpu-clock (no PMU): time with interrupts
 *       disabled is charged to the function that enables them again,
 *       "irqs off (attributed to the re-enable)"
 *   gigebench-r: profile top: 44.1 % _copy_to_iter, 6.0 % tcp_recvmsg, ...
 *   gigebench-r: profile cost: 1994 samples/s handled, sampler 0.4 % of
 *       a CPU
 *
 * (each one line).  The category of the re-enables is printed only
 * for an event that hides that time; it is 0 under any other.  No I/O
 * but the stream it is given.
 */
#include <stdio.h>

#include "out/profile_text.h"

static void
profile_text_split(FILE *fp, const struct gb_profile *p, const char *pre)
{
	int i;

	fprintf(fp, "%s profile %s %u Hz x %u CPU%s, %llu samples, %llu lost: "
	    "idle %.1f %%, kernel %.1f %%, user %.1f %%; of the busy samples:",
	    pre, p->event, p->hz, p->ncpus, p->ncpus == 1 ? "" : "s",
	    (unsigned long long)p->samples, (unsigned long long)p->lost,
	    profile_split(p, p->idle), profile_split(p, p->kernel),
	    profile_split(p, p->user));
	for (i = 0; i < GB_NCAT; i++) {
		if (i == GB_CAT_IRQOFF &&
		    !profile_event_hides_irqs_off(p->event))
			continue;
		fprintf(fp, "%s %s %.1f %%", i > 0 ? "," : "",
		    profile_cat_name(i), profile_share(p, p->cat[i]));
		if (i == GB_CAT_DRIVER && p->driver[0] != '\0')
			fprintf(fp, " (%s)", p->driver);
	}
	fputc('\n', fp);
}

/* What the event can see: the line that names it. */
static void
profile_text_event(FILE *fp, const struct gb_profile *p, const char *pre)
{
	if (profile_event_hides_irqs_off(p->event))
		fprintf(fp, "%s profile event: %s (no PMU): time with "
		    "interrupts disabled is charged to the function that "
		    "enables them again, \"%s\"\n", pre, p->event,
		    profile_cat_name(GB_CAT_IRQOFF));
	else
		fprintf(fp, "%s profile event: %s\n", pre, p->event);
}

static void
profile_text_top(FILE *fp, const struct gb_profile *p, const char *pre)
{
	const struct gb_prof_fn *f;
	unsigned i;

	fprintf(fp, "%s profile top:", pre);
	for (i = 0; i < p->ntop && i < GB_PROFILE_TOP; i++) {
		f = &p->top[i];
		fprintf(fp, "%s %.1f %% %s%s%s%s", i > 0 ? "," : "",
		    profile_share(p, f->samples), f->name, f->user ?
		    " (process)" : "", f->module[0] != '\0' ? " [" : "",
		    f->module);
		if (f->module[0] != '\0')
			fputc(']', fp);
	}
	if (p->ntop == 0)
		fputs(" no busy samples", fp);
	fputc('\n', fp);
}

void
profile_text(FILE *fp, const struct gb_profile *p, const char *pre)
{
	if (!p->asked)
		return;
	if (!p->has) {
		fprintf(fp, "%s profile n/a: %s\n", pre, p->missing[0] != '\0' ?
		    p->missing : "not reported");
		return;
	}
	profile_text_split(fp, p, pre);
	profile_text_event(fp, p, pre);
	profile_text_top(fp, p, pre);
	fprintf(fp, "%s profile cost: %.0f samples/s handled, the sampler "
	    "%.2f %% of a CPU\n", pre, p->handled_per_s, p->seconds > 0 ?
	    100.0 * p->cpu_s / p->seconds : 0.0);
}
