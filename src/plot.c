/*
 * plot.c: --plot FILE.  Checks the file name, writes the data and the
 * script (plot_script.c; plot_rr.c for --rr; plot_mesh.c for gigebench
 * merge) into temporary files, runs gnuplot on them as a child process
 * and checks that a picture arrived.
 *
 * gnuplot runs by fork and execvp, never through a shell, so no name is
 * parsed by sh.  Two names reach gnuplot's own parser: the data file, which
 * we make ourselves under an absolute directory, and the output file,
 * between single quotes, where only a quote or a newline could break out;
 * both are refused.  gnuplot's stderr goes into an unlinked temporary file
 * and its error line becomes our message.
 *
 * This file keeps no state and prints nothing; errors go into the
 * caller's buffer.  The child calls _exit, not exit, if exec fails.  The
 * caller must not reap children behind our back (a SIGCHLD handler that
 * waits for any pid) while plot_write runs.
 */

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "out/plot.h"
#include "out/plot_script.h"
#include "plot_internal.h"

#define PLOT_PROGRAM	"gnuplot"
#define PLOT_NOT_FOUND	"plot: gnuplot is not installed " \
			"(apt-get install gnuplot-nox); the CSV has the data"
/* execvp's own when PATH is unset */
#define PLOT_DEFAULT_PATH "/bin:/usr/bin"
#define PLOT_PATH_MAX	4096

static void	 plot_error(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static int	 plot_term_of(const char *, enum plot_term *, char *, size_t);
static int	 plot_name_ok(const char *, const char *, char *, size_t);
static const char *plot_tmpdir(void);
static int	 plot_preflight(const char *, int *, char *, size_t);
static FILE	*plot_tmpfile(const char *, char *, size_t, char *, size_t);
static int	 plot_close(FILE *, const char *, char *, size_t);
/*
 * What one picture is drawn from: a sweep's layout, one histogram, or a
 * mesh's matrix (in the unit of -f).
 */
struct plot_job {
	const struct plot_script	*ps;
	const struct lathist		*cdf;
	const char			*title;
	const struct mesh		*mesh;
	char				 unit;
	const struct bloat_run		*runs;	/* --under-load */
	unsigned			 nruns;
};

static int	 plot_files(const struct plot_job *, enum plot_term,
		    const char *, char *, char *, size_t, char *, size_t);
static int	 plot_run(const char *, char *, size_t);
static void	 plot_run_message(int, char *, size_t);

static void
plot_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* As execvp looks: each PATH element, an empty one being ".". */
int
plot_available(void)
{
	const char	*path, *p, *end;
	char		 file[PLOT_PATH_MAX];
	struct stat	 st;
	int		 len;

	if ((path = getenv("PATH")) == NULL)
		path = PLOT_DEFAULT_PATH;
	for (p = path; ; p = end + 1) {
		if ((end = strchr(p, ':')) == NULL)
			end = p + strlen(p);
		len = (int)(end - p);
		snprintf(file, sizeof(file), "%.*s%s%s", len, p,
		    len > 0 ? "/" : "", PLOT_PROGRAM);
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(file, X_OK) == 0)
			return 1;
		if (*end == '\0')
			return 0;
	}
}

static int
plot_term_of(const char *path, enum plot_term *term, char *err,
    size_t errlen)
{
	const char	*dot = strrchr(path, '.');

	if (dot != NULL && strchr(dot, '/') == NULL) {
		if (strcasecmp(dot, ".svg") == 0) {
			*term = PLOT_SVG;
			return 0;
		}
		if (strcasecmp(dot, ".png") == 0) {
			*term = PLOT_PNG;
			return 0;
		}
	}
	plot_error(err, errlen,
	    "plot: unknown file type (use .svg or .png): %s", path);
	return -1;
}

/* A name that goes between single quotes in the script. */
static int
plot_name_ok(const char *what, const char *name, char *err, size_t errlen)
{
	if (strpbrk(name, "\n\r") != NULL) {
		plot_error(err, errlen, "plot: %s contains a newline, which "
		    "gnuplot cannot take", what);
		return -1;
	}
	if (strchr(name, '\'') != NULL) {
		plot_error(err, errlen, "plot: %s contains a single quote, "
		    "which gnuplot cannot take: %s", what, name);
		return -1;
	}
	return 0;
}

/*
 * $TMPDIR when it is absolute and quotable, else /tmp: a relative data
 * file name could start with '<', which gnuplot would run as a command.
 */
static const char *
plot_tmpdir(void)
{
	const char	*d = getenv("TMPDIR");

	if (d == NULL || d[0] != '/' || strlen(d) > PLOT_PATH_MAX / 2 ||
	    plot_name_ok("TMPDIR", d, NULL, 0) == -1)
		return "/tmp";
	return d;
}

/*
 * Can we write the output?  Asked before gnuplot runs so that the message
 * names the file and the reason; *created says whether to remove it again
 * when gnuplot fails.
 */
static int
plot_preflight(const char *path, int *created, char *err, size_t errlen)
{
	int	fd;

	*created = 0;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0666)) != -1)
		*created = 1;
	else if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd == -1) {
		plot_error(err, errlen, "plot: cannot write %s: %s", path,
		    strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* A new temporary file, its name in path; NULL with the reason in err. */
static FILE *
plot_tmpfile(const char *what, char *path, size_t len, char *err,
    size_t errlen)
{
	FILE	*f;
	int	 fd;

	snprintf(path, len, "%s/gigebench-%s-XXXXXX", plot_tmpdir(), what);
	if ((fd = mkstemp(path)) == -1) {
		plot_error(err, errlen, "plot: cannot create %s: %s", path,
		    strerror(errno));
		path[0] = '\0';
		return NULL;
	}
	if ((f = fdopen(fd, "w")) == NULL) {
		plot_error(err, errlen, "plot: %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

/* Close a file we wrote; a write that failed on the way shows here. */
static int
plot_close(FILE *f, const char *path, char *err, size_t errlen)
{
	int	failed = ferror(f);

	if (fclose(f) == EOF || failed) {
		plot_error(err, errlen, "plot: cannot write %s: %s", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* Write the data into data[] and the script into script[], both new. */
static int
plot_files(const struct plot_job *job, enum plot_term term,
    const char *out, char *data, char *script, size_t len, char *err,
    size_t errlen)
{
	FILE	*f;

	if ((f = plot_tmpfile("data", data, len, err, errlen)) == NULL)
		return -1;
	if (job->ps != NULL)
		plot_script_data(f, job->ps);
	else if (job->runs != NULL)
		plot_bloat_data(f, job->runs, job->nruns);
	else if (job->mesh != NULL)
		plot_mesh_data(f, job->mesh, job->unit);
	else
		plot_cdf_data(f, job->cdf);
	if (plot_close(f, data, err, errlen) == -1)
		return -1;
	if ((f = plot_tmpfile("script", script, len, err, errlen)) == NULL)
		return -1;
	if (job->ps != NULL)
		plot_script_write(f, job->ps, term, data, out);
	else if (job->runs != NULL)
		plot_bloat_write(f, job->runs, job->nruns, job->title, term,
		    data, out);
	else if (job->mesh != NULL)
		plot_mesh_write(f, job->mesh, job->unit, term, data, out);
	else
		plot_cdf_write(f, job->cdf, job->title, term, data, out);
	return plot_close(f, script, err, errlen);
}

/*
 * gnuplot says where and what in lines like
 *	"/tmp/gigebench-script-Ab12Cd" line 5: cannot open file; ...
 *	system error: No such file or directory
 * after echoing the command and a caret under it.  The place means
 * nothing once the script is gone: keep what follows it and the lines
 * after, joined by "; ", behind what err already says.
 */
static void
plot_run_message(int fd, char *err, size_t errlen)
{
	char		 buf[1024], *p, *line, *next;
	struct stat	 st;
	off_t		 off = 0;
	ssize_t		 n;
	size_t		 used;

	if (err == NULL || errlen == 0 || (used = strlen(err)) == 0 ||
	    fstat(fd, &st) == -1)
		return;
	if (st.st_size >= (off_t)sizeof(buf))
		off = st.st_size - (off_t)sizeof(buf) + 1;
	if ((n = pread(fd, buf, sizeof(buf) - 1, off)) <= 0)
		return;
	buf[n] = '\0';
	line = buf;
	for (p = buf; (p = strstr(p, "\" line ")) != NULL; p++)
		if ((next = strstr(p, ": ")) != NULL)
			line = next + 2;
	for (; line != NULL && used < errlen; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (*line == '\0' || *line == ' ' || *line == '\t')
			continue;	/* the echoed command, the caret */
		used += snprintf(err + used, errlen - used, "%s%s",
		    err[used - 1] == ' ' ? "" : "; ", line);
	}
}

/* Run gnuplot on the script; 0, or -1 with gnuplot's complaint. */
static int
plot_run(const char *script, char *err, size_t errlen)
{
	static const char execmsg[] = "cannot run " PLOT_PROGRAM "\n";
	char		 errpath[PLOT_PATH_MAX];
	char		*argv[] = { PLOT_PROGRAM, NULL, NULL };
	pid_t		 pid;
	int		 efd, nullfd, status;

	argv[1] = (char *)script;	/* execvp's argv is not const */
	snprintf(errpath, sizeof(errpath), "%s/gigebench-stderr-XXXXXX",
	    plot_tmpdir());
	if ((efd = mkstemp(errpath)) == -1) {
		plot_error(err, errlen, "plot: cannot create %s: %s",
		    errpath, strerror(errno));
		return -1;
	}
	unlink(errpath);
	if ((nullfd = open("/dev/null", O_RDWR)) == -1) {
		plot_error(err, errlen, "plot: /dev/null: %s",
		    strerror(errno));
		close(efd);
		return -1;
	}
	if ((pid = fork()) == -1) {
		plot_error(err, errlen, "plot: fork: %s", strerror(errno));
		close(nullfd);
		close(efd);
		return -1;
	}
	if (pid == 0) {
		/* Only system calls until exec: we may have threads. */
		if (dup2(nullfd, STDIN_FILENO) == -1 ||
		    dup2(nullfd, STDOUT_FILENO) == -1 ||
		    dup2(efd, STDERR_FILENO) == -1)
			_exit(127);
		closefrom(STDERR_FILENO + 1);
		execvp(PLOT_PROGRAM, argv);
		(void)!write(STDERR_FILENO, execmsg, sizeof(execmsg) - 1);
		_exit(127);
	}
	close(nullfd);
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR) {
			plot_error(err, errlen, "plot: waitpid: %s",
			    strerror(errno));
			close(efd);
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		close(efd);
		return 0;
	}
	if (WIFSIGNALED(status))
		plot_error(err, errlen, "plot: gnuplot was killed by signal "
		    "%d ", WTERMSIG(status));
	else
		plot_error(err, errlen, "plot: gnuplot failed (exit %d): ",
		    WEXITSTATUS(status));
	plot_run_message(efd, err, errlen);
	close(efd);
	return -1;
}

/* The file name, its type, gnuplot: what every picture needs. */
static int
plot_check(const char *path, enum plot_term *term, char *err, size_t errlen)
{
	if (path == NULL || *path == '\0') {
		plot_error(err, errlen, "plot: no file name");
		return -1;
	}
	if (plot_term_of(path, term, err, errlen) == -1 ||
	    plot_name_ok("the file name", path, err, errlen) == -1)
		return -1;
	if (!plot_available()) {
		plot_error(err, errlen, "%s", PLOT_NOT_FOUND);
		return -1;
	}
	return 0;
}

/* Write the files, run gnuplot, check the picture; tidy up after. */
static int
plot_render(const char *path, enum plot_term term,
    const struct plot_job *job, char *err, size_t errlen)
{
	struct stat	 st;
	char		 data[PLOT_PATH_MAX] = "";
	char		 script[PLOT_PATH_MAX] = "";
	int		 created = 0, rv = -1;

	if (plot_preflight(path, &created, err, errlen) == -1 ||
	    plot_files(job, term, path, data, script, sizeof(data), err,
	    errlen) == -1 ||
	    plot_run(script, err, errlen) == -1)
		goto out;
	if (stat(path, &st) == -1 || st.st_size == 0) {
		plot_error(err, errlen, "plot: gnuplot wrote nothing to %s",
		    path);
		goto out;
	}
	rv = 0;
out:
	if (data[0] != '\0')
		unlink(data);
	if (script[0] != '\0')
		unlink(script);
	if (rv == -1 && created)
		unlink(path);
	return rv;
}

int
plot_write(const char *path, const struct sweep *s,
    const struct table_point *pts, unsigned npoints, char unit,
    const char *title, char *err, size_t errlen)
{
	struct plot_script	 ps;
	struct plot_job		 job = { &ps, NULL, NULL, NULL, 0, NULL, 0 };
	enum plot_term		 term;
	int			 rv;

	if (plot_check(path, &term, err, errlen) == -1)
		return -1;
	if (s == NULL || pts == NULL || npoints == 0) {
		plot_error(err, errlen, "plot: no points to plot");
		return -1;
	}
	if (plot_script_init(&ps, s, pts, npoints, unit, err, errlen) == -1)
		return -1;
	ps.title = title;
	rv = plot_render(path, term, &job, err, errlen);
	plot_script_free(&ps);
	return rv;
}

int
plot_write_cdf(const char *path, const struct lathist *h, const char *title,
    char *err, size_t errlen)
{
	struct plot_job	job = { NULL, h, title, NULL, 0, NULL, 0 };
	enum plot_term	term;

	if (plot_check(path, &term, err, errlen) == -1)
		return -1;
	if (h == NULL || h->count == 0) {
		plot_error(err, errlen, "plot: no transaction was timed");
		return -1;
	}
	return plot_render(path, term, &job, err, errlen);
}

int
plot_write_mesh(const char *path, const struct mesh *m, char unit,
    char *err, size_t errlen)
{
	struct plot_job	job = { NULL, NULL, NULL, m, unit, NULL, 0 };
	enum plot_term	term;

	if (plot_check(path, &term, err, errlen) == -1)
		return -1;
	if (m == NULL || m->nrated == 0) {
		plot_error(err, errlen, "plot: no pair has a rate");
		return -1;
	}
	return plot_render(path, term, &job, err, errlen);
}

int
plot_write_bloat(const char *path, const struct bloat_run *runs, unsigned n,
    const char *title, char *err, size_t errlen)
{
	struct plot_job	job = { NULL, NULL, title, NULL, 0, runs, n };
	enum plot_term	term;

	if (plot_check(path, &term, err, errlen) == -1)
		return -1;
	if (runs == NULL || n == 0) {
		plot_error(err, errlen, "plot: no phase ran");
		return -1;
	}
	return plot_render(path, term, &job, err, errlen);
}
