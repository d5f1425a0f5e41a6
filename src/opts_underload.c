/*
 * opts_underload.c: --under-load's options: --phases' list, and what
 * goes with --under-load once the whole line is read (its probes, its
 * phases' tests as the listener would check them).
 */
#include <stdio.h>
#include <string.h>

#include "base/bloat.h"
#include "base/params.h"
#include "cli/opts.h"
#include "opts_state.h"

/* "upload,download,both": each phase at most once, in the order given. */
int
opts_phases(struct gb_opts *o, struct opts_state *st, const char *arg)
{
	char name[16];
	const char *p = arg, *comma;
	unsigned i;
	size_t len;
	int ph;

	o->nphases = 0;
	do {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (len == 0 || len >= sizeof(name))
			ph = -1;
		else {
			memcpy(name, p, len);
			name[len] = '\0';
			ph = bloat_phase_parse(name);
		}
		if (ph == -1)
			return opts_error(st, "phases are a list of upload, "
			    "download and both: %s", opts_shown(arg));
		for (i = 0; i < o->nphases; i++)
			if (o->phases[i] == ph)
				return opts_error(st, "phase %s is in the list "
				    "twice: %s", bloat_phase_name(ph), arg);
		o->phases[o->nphases++] = ph;
		p = comma != NULL ? comma + 1 : NULL;
	} while (p != NULL);
	snprintf(st->underload_only, sizeof(st->underload_only), "%s",
	    st->name);
	return OPTS_OK;
}

int
opts_underload_flag(struct gb_opts *o, struct opts_state *st, int ch)
{
	if (ch == OPT_UNDER_LOAD) {
		o->under_load = 1;
		return 0;
	}
	if (ch != OPT_PROBE_CRR)
		return -1;
	o->params.probe_crr = 1;
	snprintf(st->underload_only, sizeof(st->underload_only), "%s",
	    st->name);
	return 0;
}

/* What --under-load runs its phases with, in this version. */
static const char *
opts_underload_conflict(const struct gb_opts *o)
{
	if (o->sweep.naxes > 0)
		return "--sweep";
	if (o->repeat > 1)
		return "--repeat";
	if (o->conf_level > 0)
		return "--confidence";
	if (o->flow_csv_path != NULL)
		return "--flow-csv";
	if (o->json_stream)
		return "--json-stream";
	if (o->params.interval_ms != 0)
		return "-i in this version";
	return NULL;
}

int
opts_underload_check(struct gb_opts *o, struct opts_state *st)
{
	struct gb_params p;
	const char *no;
	char why[GB_ERR_LEN];
	unsigned i;

	if (!o->under_load && o->host != NULL) {
		if (st->underload_only[0] == '\0')
			return OPTS_OK;
		snprintf(st->name, sizeof(st->name), "%s",
		    st->underload_only);
		return opts_error(st, "needs --under-load");
	}
	/* A listener ignores them, and is told so (opts_client_only). */
	if (o->host == NULL) {
		o->params.probes = o->params.probe_rate = 0;
		o->params.probe_crr = 0;
		return OPTS_OK;
	}
	snprintf(st->name, sizeof(st->name), "--under-load");
	if ((no = opts_underload_conflict(o)) != NULL)
		return opts_error(st, "cannot be used with %s", no);
	if (o->params.probes == 0)
		o->params.probes = 1;
	/*
	 * The queue fills in a TCP load's first seconds: left out.  A UDP
	 * load (-u) fills it at once at its rate, and has no --omit.
	 */
	if (o->params.omit_ms == 0 && !o->params.udp)
		o->params.omit_ms = UNDERLOAD_OMIT_MS;
	if (o->nphases == 0) {
		o->nphases = 1;
		o->phases[0] = o->params.bidir ? GB_PHASE_BOTH :
		    o->params.direction == GB_DIR_CLIENT_RECEIVES ?
		    GB_PHASE_DOWNLOAD : GB_PHASE_UPLOAD;
	}
	for (i = 0; i < o->nphases; i++) {
		bloat_phase_params(&o->params, o->phases[i], &p);
		params_dgram_len_floor(&p);
		if (params_check(&p, why, sizeof(why)) == -1)
			return opts_error(st, "phase %s: %s",
			    bloat_phase_name(o->phases[i]), why);
	}
	return OPTS_OK;
}
