/*
 * kallsyms.h: the kernel's symbols from /proc/kallsyms, for --profile:
 * a pure parser (kallsyms_parse, fed from fixtures in tests), a reader
 * under a root tests can move, the lookup of an instruction address, and
 * profile_build(), which turns the sampler's counts into the report's
 * struct gb_profile (base/profile.h).
 *
 * Only text symbols count (t, T, w, W); a module's are tagged
 * "[module]".  Where the kernel hides them every address reads 0
 * (kptr_restrict 1 or more to a process without CAP_SYSLOG, and even at
 * 0 when perf_event_paranoid is above 1): kallsyms_parse() then fails
 * and kallsyms_read() says which sysctl.
 */
#ifndef GB_KALLSYMS_H
#define GB_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/profile.h"
#include "host/perfsample.h"

struct ksym {
	uint64_t	 addr;
	const char	*name;
	const char	*module;	/* "" built in */
};

struct kallsyms;

/* NULL with the reason in err: no text symbol, or every address 0. */
struct kallsyms	*kallsyms_parse(FILE *, char *err, size_t errlen);
/* procroot/kallsyms ("/proc"). */
struct kallsyms	*kallsyms_read(const char *procroot, char *err,
		    size_t errlen);
/* The symbol ip is in (the last at or below it), NULL when none. */
const struct ksym *kallsyms_find(const struct kallsyms *, uint64_t ip);
size_t		 kallsyms_count(const struct kallsyms *);
void		 kallsyms_free(struct kallsyms *);

/*
 * From the sampler's counts: the split, the categories (driver: the
 * test interface's driver, "" unknown), the top GB_PROFILE_TOP
 * functions and processes (kernel functions by symbol, summed over
 * their addresses; user samples by process), the cost.  ks NULL: the
 * kernel samples are "unknown", counted in GB_CAT_KERNEL.  Sets has.
 */
void	profile_build(struct gb_profile *, const struct perfsample_counts *,
	    const struct kallsyms *ks, const char *driver);

#endif /* GB_KALLSYMS_H */
