#!/usr/bin/env bash
# check-service.sh: check contrib/gigebench.service without installing it
# or starting it (which needs systemd as PID 1).  Root; Debian packages
# systemd (systemd-analyze), strace, man-db.  Not part of make check:
# CI's container has neither systemd nor strace.
#
#	GIGEBENCH=build/gigebench bash contrib/check-service.sh
#
#  1. systemd-analyze verify, with ExecStart pointed at $GIGEBENCH and
#     the man page of this tree on MANPATH (Documentation=man:...);
#  2. the same for the --allow-mtu drop-in the unit describes;
#  3. systemd-analyze security --offline=true of both: the exposure
#     level and what it still counts against them;
#  4. every system call the listener makes, traced with strace over a
#     test on each data path, both directions, -P 4, -A, -C, --fq-rate,
#     --tos, -i and -b, must be in the unit's SystemCallFilter= (the
#     syscalls of @system-service, minus those of @privileged), and
#     every socket() family it opens in RestrictAddressFamilies=
#     (--capture's AF_PACKET is left out on purpose and is expected).
# Prints "ok" or "FAIL" per check and "N passed, M failed".
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=$(realpath "${GIGEBENCH:-$top/build/gigebench}")
unit=$top/contrib/gigebench.service
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-unit.XXXXXX")
srv=""
passed=0
failed=0

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

for c in systemd-analyze strace python3; do
	if ! command -v "$c" >/dev/null; then
		echo "SKIP: $c is not installed (apt-get install systemd strace)"
		finish
	fi
done
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: strace of the listener and verify need root"
	finish
fi

mkdir -p "$tmp/man/man1" "$tmp/base" "$tmp/mtu"
cp "$top/man/gigebench.1" "$tmp/man/man1/"
sed "s#/usr/local/bin/gigebench#$GB#" "$unit" >"$tmp/base/gigebench.service"
# The drop-in of the unit's comment, merged into a copy.
sed -e 's/^CapabilityBoundingSet=$/CapabilityBoundingSet=CAP_NET_ADMIN/' \
    -e 's/^AmbientCapabilities=$/AmbientCapabilities=CAP_NET_ADMIN/' \
    -e 's/^PrivateUsers=yes$/PrivateUsers=no/' \
    -e 's/^\(ExecStart=.* -S -q\)$/\1 --allow-mtu/' \
    -e 's#^\[Install\]#RuntimeDirectory=gigebench\nRuntimeDirectoryMode=0700\nRuntimeDirectoryPreserve=yes\nEnvironment=GIGEBENCH_RUNDIR=%t/gigebench\n\n[Install]#' \
    "$tmp/base/gigebench.service" >"$tmp/mtu/gigebench.service"

for v in base mtu; do
	if (cd "$tmp/$v" && MANPATH=$tmp/man systemd-analyze verify \
	    ./gigebench.service) >"$tmp/verify.$v" 2>&1; then
		pass "systemd-analyze verify ($v)"
	else
		fail "systemd-analyze verify ($v)"
		sed 's/^/# /' "$tmp/verify.$v"
	fi
	(cd "$tmp/$v" && systemd-analyze security --offline=true \
	    ./gigebench.service) >"$tmp/security.$v" 2>&1 || true
	level=$(sed -n 's/.*Overall exposure level for [^:]*: *//p' \
	    "$tmp/security.$v")
	echo "# systemd-analyze security ($v): ${level:-no figure}; against it:"
	grep '✗' "$tmp/security.$v" | awk '{ print "#   " $2 }'
	case $level in
	0.* | 1.* | 2.*) pass "exposure level ($v) at most 2.x: $level" ;;
	*) fail "exposure level ($v) at most 2.x: ${level:-none}" ;;
	esac
done

# The listener under strace, then a test on every path.
port=$((20000 + RANDOM % 10000))
strace -f -qq -o "$tmp/strace.log" "$GB" -S -q -p "$port" \
    >"$tmp/srv.out" 2>&1 &
srv=$!
for _ in $(seq 1 50); do
	ss -Htln "sport = :$port" | grep -q . && break
	sleep 0.1
done
rc_all=0
for a in "-t" "-r" "-t -P 4 -D" "-r -Z" "-r --sendfile" "-t --splice" \
    "-t --skip-rx-copy" "-t -A 0" "-r -A 0" \
    "-t -C reno --fq-rate 1g --tos 0x10" "-t -i 0.1" "-t -b 1M -M 1000" \
    "-t --capture"; do
	# shellcheck disable=SC2086	# $a is a list of options
	"$GB" $a 127.0.0.1 -p "$port" -T 0.3 -q >/dev/null 2>"$tmp/c.err" ||
	    { rc_all=1; echo "# $a: $(head -c 200 "$tmp/c.err")"; }
done
# SIGTERM to the listener, not to strace, which then ends with it.
kill "$(pgrep -P "$srv")" 2>/dev/null || true
wait "$srv" 2>/dev/null || true
srv=""
if [ "$rc_all" -eq 0 ]; then
	pass "tests on every data path against the traced listener"
else
	fail "tests on every data path against the traced listener"
fi

python3 - "$tmp/strace.log" "$unit" >"$tmp/syscalls" <<'PYEOF' || true
import functools, re, subprocess, sys

@functools.lru_cache(None)
def group(name):
    out = subprocess.run(["systemd-analyze", "syscall-filter", name],
                         capture_output=True, text=True).stdout.splitlines()
    calls = set()
    for line in out[1:]:
        line = line.strip()
        if line and not line.startswith("#"):
            calls |= group(line) if line.startswith("@") else {line}
    return frozenset(calls)

log = open(sys.argv[1]).read()
used = set(re.findall(r"^\d+ +([a-z0-9_]+)\(", log, re.M))
families = set(re.findall(r"socket\((AF_[A-Z0-9]+)", log))
unit = open(sys.argv[2]).read()
allowed = set()
for spec in re.findall(r"^SystemCallFilter=(.*)$", unit, re.M):
    deny = spec.startswith("~")
    names = set()
    for n in spec.lstrip("~").split():
        names |= group(n) if n.startswith("@") else {n}
    allowed = allowed - names if deny else allowed | names
af = set(re.search(r"^RestrictAddressFamilies=(.*)$", unit, re.M)
         .group(1).split())
print("used", len(used), " ".join(sorted(used)))
print("outside", " ".join(sorted(used - allowed)) or "-")
print("families", " ".join(sorted(families)))
print("families_outside", " ".join(sorted(families - af - {"AF_PACKET"}))
      or "-")
PYEOF
sed 's/^/# /' "$tmp/syscalls"
if grep -q '^outside -$' "$tmp/syscalls"; then
	pass "every system call of the listener is in SystemCallFilter="
else
	fail "every system call of the listener is in SystemCallFilter="
fi
if grep -q '^families_outside -$' "$tmp/syscalls"; then
	pass "every socket family it opens is in RestrictAddressFamilies="
else
	fail "every socket family it opens is in RestrictAddressFamilies="
fi
finish
