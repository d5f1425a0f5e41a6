/*
 * restrict_af.c: run a command with socket() limited to some address
 * families, as systemd's RestrictAddressFamilies= does (a seccomp filter;
 * other families fail with EAFNOSUPPORT).  tests/unpriv.sh runs the
 * listener under it with the families of contrib/gigebench.service, so
 * that the unit's list is tested without systemd as PID 1.
 *
 *	restrict_af inet,inet6,unix,netlink command [arg ...]
 *
 * Families: inet, inet6, unix, netlink, packet.  Sets no_new_privs (an
 * unprivileged process may only install a filter with it), as the unit's
 * NoNewPrivileges= does.  Exit status 127 when the command cannot run,
 * 125 on a usage error, 126 when the filter cannot be installed, 77 on
 * an architecture this file does not know.  Like systemd, it leaves
 * socketpair() alone.
 */

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define RESTRICT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RESTRICT_ARCH	AUDIT_ARCH_AARCH64
#endif

#define FAMILIES_MAX	8

static const struct {
	const char	*name;
	int		 af;
} families[] = {
	{ "inet", AF_INET }, { "inet6", AF_INET6 }, { "unix", AF_UNIX },
	{ "netlink", AF_NETLINK }, { "packet", AF_PACKET },
};

static int	family_parse(const char *, int *);
static int	filter_install(const int *, int);

static int
family_parse(const char *name, int *af)
{
	size_t	i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (strcmp(name, families[i].name) == 0) {
			*af = families[i].af;
			return 0;
		}
	}
	return -1;
}

#ifdef RESTRICT_ARCH
static int
filter_install(const int *af, int naf)
{
	/* The low 32 bits of socket()'s first argument, the family. */
	const unsigned int arg0 = offsetof(struct seccomp_data, args[0]) +
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	    4;
#else
	    0;
#endif
	struct sock_filter	 f[8 + FAMILIES_MAX];
	struct sock_fprog	 prog;
	int			 n = 0, i;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, arch));
	/* Another ABI (32-bit calls on a 64-bit kernel): refuse them all. */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    RESTRICT_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    __NR_socket, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg0);
	/* Family i matches: jump over the other checks and the refusal. */
	for (i = 0; i < naf; i++)
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, (unsigned int)af[i], (unsigned char)(naf - i), 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ERRNO | (EAFNOSUPPORT & SECCOMP_RET_DATA));
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);

	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1) {
		perror("restrict_af: PR_SET_NO_NEW_PRIVS");
		return -1;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == -1) {
		perror("restrict_af: PR_SET_SECCOMP");
		return -1;
	}
	return 0;
}
#else
static int
filter_install(const int *af, int naf)
{
	(void)af;
	(void)naf;
	fprintf(stderr, "restrict_af: unknown architecture\n");
	errno = ENOSYS;
	return -1;
}
#endif

int
main(int argc, char **argv)
{
	int	 af[FAMILIES_MAX];
	int	 naf = 0;
	char	*list, *name, *save = NULL;

	if (argc < 3) {
		fprintf(stderr, "usage: restrict_af family,... command "
		    "[arg ...]\n");
		return 125;
	}
	if ((list = strdup(argv[1])) == NULL) {
		perror("restrict_af");
		return 125;
	}
	for (name = strtok_r(list, ",", &save); name != NULL;
	    name = strtok_r(NULL, ",", &save)) {
		if (naf == FAMILIES_MAX || family_parse(name, &af[naf]) == -1) {
			fprintf(stderr, "restrict_af: unknown or too many "
			    "families: %s\n", argv[1]);
			return 125;
		}
		naf++;
	}
	free(list);
	if (filter_install(af, naf) == -1)
		return errno == ENOSYS ? 77 : 126;
	execvp(argv[2], argv + 2);
	fprintf(stderr, "restrict_af: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
