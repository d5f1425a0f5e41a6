/*
 * fuzz_util.h: what more than one fuzz target (and seedgen.c) needs: a
 * side with every figure known, the renderers a decoded peer side goes
 * through on the connecting end, and a sink for their output.  Harness
 * code only; nothing in src/ includes it.
 */
#ifndef GB_FUZZ_UTIL_H
#define GB_FUZZ_UTIL_H

#include <stdio.h>

#include "base/result.h"

/* Every group known, one IRQ line, one warning, a context and a capture. */
void	fuzz_fill_side(struct gb_side *);
/* /dev/null, opened once: renderers run in full, nothing is printed. */
FILE	*fuzz_devnull(void);
/*
 * What the connecting side does with a peer's figures: diagnosis, JSON
 * and text in every style.  local is this end's side, peer the decoded
 * one; is_tx says which end sent.
 */
void	fuzz_render(const struct gb_side *local, const struct gb_side *peer,
	    int local_is_sender);
/* What main.c does with a finished test: JSON and text, every style. */
void	fuzz_render_result(const struct gb_result *);

#endif /* GB_FUZZ_UTIL_H */
