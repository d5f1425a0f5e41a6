/*
 * role.c: what the client and the listener do alike with their
 * configuration (run/role.h): log by level, pass intervals on, pick the
 * control connection's keys.  It prints nothing itself and knows neither
 * the command line nor the renderers.
 */
#include <stddef.h>

#include "run/role.h"

void
role_log(const struct role_config *rc, int level, const char *head,
    const char *text)
{
	if (rc->verbose >= level && rc->log_cb != NULL)
		rc->log_cb(head, text, rc->arg);
}

void
role_interval(const struct role_config *rc, const struct gb_interval *iv,
    int is_tx)
{
	if (rc->interval_cb != NULL)
		rc->interval_cb(iv, is_tx, rc->arg);
}

struct auth_session *
role_keys(struct auth_session *auth, int keyed)
{
	return keyed ? auth : NULL;
}
