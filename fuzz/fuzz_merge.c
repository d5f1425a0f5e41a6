/*
 * fuzz_merge.c: libFuzzer target for gigebench merge's reader
 * (codec/mesh_json.h) and what merge does with what it read: the matrix
 * (mesh_build, mesh_explain), the text and the CSV, written to
 * /dev/null.  The files merge reads come from other hosts; this is the
 * path a hostile one takes.  (The plot's script is out/plot.h's, which
 * runs gnuplot; its one string writer has unit tests of its own.)
 *
 * Input: up to four files, separated by NUL bytes, read as by
 * "gigebench merge f1 f2 ...": each by host name into one list of runs,
 * and again by address into another.
 *
 * Oracles beyond the sanitizers: a refused file leaves the list as it
 * was and says why; every string a run keeps is printable ASCII (the
 * reader escapes what it keeps); every figure is unknown (NaN) or a
 * finite number no less than 0, and a rate that is not a failed run's
 * is one too.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mesh.h"
#include "codec/mesh_json.h"
#include "out/mesh_csv.h"
#include "out/mesh_text.h"
#include "fuzz_util.h"

#define FUZZ_MERGE_FILES	4

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_merge: %s: %s\n", what, detail);
	abort();
}

static void
printable(const char *what, const char *s)
{
	const char	*p;

	if (s == NULL)
		return;
	for (p = s; *p != '\0'; p++)
		if (*p < 0x20 || *p > 0x7e)
			fail("a kept string is not printable ASCII", what);
}

static void
number(const char *what, double v)
{
	if (!isnan(v) && (isinf(v) || v < 0))
		fail("a figure is infinite or negative", what);
}

static void
check_run(const struct mesh_run *r)
{
	unsigned	i;

	printable("sender", r->sender);
	printable("receiver", r->receiver);
	printable("origin", r->origin);
	printable("error", r->error);
	if ((r->sender == NULL) != (r->receiver == NULL))
		fail("a run names one end only", r->origin);
	if (!r->failed && (r->sender == NULL || isnan(r->mbps)))
		fail("a measured run without its ends or its rate", r->origin);
	number("mbps", r->mbps);
	for (i = 0; i < MESH_NVALUES; i++)
		number(mesh_figure_name((int)i), r->fig[i]);
	for (i = 0; i < r->ndiag; i++) {
		printable("diagnosis code", r->diag[i].code);
		printable("diagnosis side", r->diag[i].side);
		printable("diagnosis text", r->diag[i].text);
	}
}

/* Each file into runs; a refused one leaves them as they were. */
static void
read_files(const uint8_t *data, size_t size, enum mesh_by by,
    struct mesh_runs *runs)
{
	static const char *const names[FUZZ_MERGE_FILES] = {
		"h1-h2.json", "h\x1b[2J.json", "-", "dir/x`y`.json"
	};
	const uint8_t	*p = data, *nul;
	size_t		 n, len, before, i;
	char		 err[1024], *text;

	for (n = 0; n < FUZZ_MERGE_FILES && p <= data + size; n++) {
		nul = memchr(p, '\0', (size_t)(data + size - p));
		len = nul != NULL ? (size_t)(nul - p) : (size_t)(data + size - p);
		/* Exactly len bytes on the heap: ASan sees one past. */
		if ((text = malloc(len > 0 ? len : 1)) == NULL)
			abort();
		memcpy(text, p, len);
		before = runs->n;
		err[0] = '\0';
		if (mesh_json_parse(text, len, names[n], by, runs, err,
		    sizeof(err)) == -1) {
			if (runs->n != before)
				fail("a refused file left runs", err);
			if (err[0] == '\0')
				fail("a refused file", "no reason");
		}
		free(text);
		for (i = before; i < runs->n; i++)
			check_run(&runs->v[i]);
		if (nul == NULL)
			break;
		p = nul + 1;
	}
}

/* What merge_run does with the runs, into /dev/null. */
static void
write_all(const struct mesh_runs *runs)
{
	static const char units[] = "mgK";
	struct mesh		 m;
	struct mesh_style	 st;
	char			 err[1024];
	FILE			*out = fuzz_devnull();
	size_t			 i;

	memset(&m, 0, sizeof(m));
	if (mesh_build(&m, runs, MESH_FACTOR_DEFAULT, err, sizeof(err)) ==
	    -1) {
		if (err[0] == '\0')
			fail("mesh_build refused", "no reason");
		mesh_free(&m);
		return;
	}
	for (i = 0; i < sizeof(units) - 1; i++) {
		st.unit = units[i];
		st.figure = (int)(i % MESH_NFIGURES);
		st.nfiles = FUZZ_MERGE_FILES;
		mesh_text(out, &m, &st);
		mesh_csv(out, &m, units[i], st.figure);
	}
	fflush(out);
	mesh_free(&m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mesh_runs	byname = { NULL, 0, 0 }, byaddr = { NULL, 0, 0 };

	read_files(data, size, MESH_BY_HOSTNAME, &byname);
	read_files(data, size, MESH_BY_ADDRESS, &byaddr);
	write_all(&byname);
	write_all(&byaddr);
	mesh_runs_free(&byname);
	mesh_runs_free(&byaddr);
	return 0;
}
