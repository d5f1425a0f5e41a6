# tests/lib/skip.sh - what a test does when it cannot run its cases, for
# the shell tests that source it (tests/lib/netns.sh sources it too).
#
#	. tests/lib/skip.sh
#	skip_or_fail "network namespaces need root"; exit $?
#
# Outside CI a test that cannot run is a skip, printed and counted as one,
# never as a pass: "# SKIP <reason>" and "0 passed, 0 failed, 1 skipped",
# status 0.  In CI (the CI environment variable set, as CI services set
# it to "true"; "", "false" and "0" mean not CI) it is a failure that
# names what was missing: "FAIL - cannot run: <reason> (CI is set)" and
# "0 passed, 1 failed", status 1 (issue 13).
#
# What it must not do: exit the caller's shell (the caller exits with the
# status), or read anything but CI.

# in_ci: 0 when the CI environment variable says this is a CI run.
in_ci() {
	case ${CI:-} in
	'' | false | 0) return 1 ;;
	*) return 0 ;;
	esac
}

# skip_or_fail REASON: prints the skip (status 0) or, in CI, the failure
# (status 1), each with its summary line.
skip_or_fail() {
	if in_ci; then
		echo "FAIL - cannot run: $1 (CI is set)"
		echo "0 passed, 1 failed"
		return 1
	fi
	echo "# SKIP $1"
	echo "0 passed, 0 failed, 1 skipped"
	return 0
}
