#!/usr/bin/env bash
#
# unpriv.sh: the receiver as an unprivileged user (issue 6), as
# contrib/gigebench.service runs it.  Root only (it makes the user
# switch); otherwise it prints "# SKIP <reason>" and "0 passed, 0 failed,
# 1 skipped", and with CI set fails (tests/lib/skip.sh).
#
#	GIGEBENCH=build/gigebench bash tests/unpriv.sh
#
# The listener runs as nobody (uid and gid 65534, no supplementary
# groups, an empty capability bounding set, no_new_privs: setpriv), with
# socket() limited to the unit's RestrictAddressFamilies= (read from the
# unit, enforced by tests/restrict_af.c, a seccomp filter like systemd's).
# A root client on 127.0.0.1 then checks:
#  1. the listener is what it should be: uid 65534, no capabilities,
#     no_new_privs, a seccomp filter;
#  2. a test where it receives (-t), and one where it transmits (-r: the
#     listener runs with --allow-reverse), also with -Z: exit 0, bytes > 0 on both ends, and the listener's own
#     figures: process CPU, host CPU, the interface (lo) and its packet
#     counts, TCP_INFO, kernel, CPU model, MTU;
#  3. --force-bufs, which needs CAP_NET_ADMIN on the listener: the test
#     is refused before any data, exit 3, with a message naming
#     CAP_NET_ADMIN, and the listener serves the next one;
#  4. in a network namespace of its own (so that nothing can change the
#     host's loopback), a listener with --allow-mtu and no privilege:
#     --mtu 9000 is refused before any data, exit 3, with a message
#     naming CAP_NET_ADMIN; the MTU stays 65536, no journal is left, and
#     the next test passes;
#  5. the same with CAP_NET_ADMIN alone (ambient, what the unit's
#     --allow-mtu drop-in gives): the test runs at MTU 9000 on both
#     ends, and the MTU is 65536 again afterwards, no journal left;
#  6. the listener exits 0 on SIGTERM, with no sanitizer report (the
#     ASan build works too).
# Prints "ok - ..." or "FAIL - ..." per check and "N passed, M failed";
# exits 1 when a check failed.  About 5 s.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PYTHON:-python3}
CC=${CC:-cc}
UNIT=${GIGEBENCH_UNIT:-$top/contrib/gigebench.service}
NOBODY=65534

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
finish()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}
# shellcheck source=tests/lib/skip.sh
. "$top/tests/lib/skip.sh"
skip() { skip_or_fail "$1"; exit $?; }	# under CI: a failure

[ "$(id -u)" -eq 0 ] || skip "switching to an unprivileged user needs root"
command -v setpriv >/dev/null || skip "setpriv not found (util-linux)"
[ -x "$GB" ] || { fail "gigebench binary at $GB (run make)"; finish; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-unpriv.XXXXXX")
srv=""
ns=""
# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	if [ -n "$srv" ]; then
		kill -KILL "$srv" 2>/dev/null || true
		wait "$srv" 2>/dev/null || true
	fi
	[ -z "$ns" ] || ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# nobody must reach the binary wherever the tree is (/root is 0700).
chmod 0755 "$tmp"
cp "$GB" "$tmp/gigebench"
chmod 0755 "$tmp/gigebench"
mkdir "$tmp/run"
chown "$NOBODY:$NOBODY" "$tmp/run"
chmod 0700 "$tmp/run"

# The unit's address families, as restrict_af names them.
families=$(sed -n 's/^RestrictAddressFamilies=//p' "$UNIT" |
    tr ' ' '\n' | sed -n 's/^AF_\([A-Z0-9]*\)$/\1/p' |
    tr '[:upper:]' '[:lower:]' | paste -sd, -)
restrict=()
if [ -z "$families" ]; then
	fail "RestrictAddressFamilies= in $UNIT"
elif ! "$CC" -O1 -o "$tmp/restrict_af" "$top/tests/restrict_af.c" \
    2>"$tmp/cc.err"; then
	fail "building tests/restrict_af.c with $CC"
	sed 's/^/# /' "$tmp/cc.err"
else
	rc=0
	"$tmp/restrict_af" "$families" true || rc=$?
	if [ "$rc" -eq 77 ]; then
		echo "# restrict_af: no seccomp filter on this architecture;" \
		    "address families not restricted"
	else
		restrict=("$tmp/restrict_af" "$families")
	fi
fi
echo "# the unit's address families: $families"

# The listener serves reverse tests (--allow-reverse), so they are
# checks: a refusal is a FAIL, never a comment (issue 13).
lopts=(--allow-reverse)

# as_nobody SETPRIV-OPTIONS...: sets $nobody to the command words that
# run a command as nobody, without groups, with no_new_privs and the
# unit's address families; the options give or take capabilities.
as_nobody()
{
	nobody=(setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups
	    --no-new-privs "$@" "${restrict[@]}")
}

port=""
for _ in $(seq 1 50); do
	p=$((20000 + RANDOM % 12000))	# below the ephemeral range
	if ! ss -Htln "sport = :$p" | grep -q .; then port=$p; break; fi
done
[ -n "$port" ] || { fail "a free port"; finish; }

# start [ip netns exec NS] -- command: the listener as $nobody; sets
# $srv, its pid (every wrapper execs the next); 0 when it listens.
start()
{
	local pre=()
	while [ "$1" != -- ]; do pre+=("$1"); shift; done
	shift
	(
		export GIGEBENCH_RUNDIR="$tmp/run"
		exec "${pre[@]}" "${nobody[@]}" "$@"
	) >"$tmp/srv.out" 2>"$tmp/srv.err" &
	srv=$!
	for _ in $(seq 1 50); do
		if "${pre[@]:-env}" ss -Htln "sport = :$port" | grep -q .; then
			return 0
		fi
		kill -0 "$srv" 2>/dev/null || break
		sleep 0.1
	done
	sed 's/^/# listener: /' "$tmp/srv.err"
	return 1
}
stop()	# stop: SIGTERM, exit 0 within 5 s and no sanitizer report
{
	local st=0
	kill -TERM "$srv" 2>/dev/null || true
	for _ in $(seq 1 50); do
		kill -0 "$srv" 2>/dev/null || break
		sleep 0.1
	done
	wait "$srv" || st=$?
	srv=""
	if [ "$st" -eq 0 ]; then
		pass "$1: listener exits 0 on SIGTERM"
	else
		fail "$1: listener exits 0 on SIGTERM (exit $st)"
	fi
	if grep -Eq 'Sanitizer|runtime error:' "$tmp/srv.err"; then
		fail "$1: no sanitizer report from the listener"
		grep -E -A20 'Sanitizer|runtime error:' "$tmp/srv.err" |
		    head -40 | sed 's/^/# /'
	fi
}

# 1. Who the listener is.
as_nobody --inh-caps=-all --bounding-set=-all
if ! start -- "$tmp/gigebench" -S -p "$port" "${lopts[@]}"; then
	fail "listener comes up as uid $NOBODY"
	finish
fi
status() { sed -n "s/^$1:[[:space:]]*//p" "/proc/$srv/status"; }
who="Uid $(status Uid | awk '{ print $2 }') CapEff $(status CapEff)"
who="$who CapBnd $(status CapBnd) NoNewPrivs $(status NoNewPrivs)"
who="$who Seccomp $(status Seccomp)"
want="Uid $NOBODY CapEff 0000000000000000 CapBnd 0000000000000000"
want="$want NoNewPrivs 1 Seccomp $([ "${#restrict[@]}" -gt 0 ] && echo 2 || echo 0)"
if [ "$who" = "$want" ]; then
	pass "listener is unprivileged: $who"
else
	fail "listener is unprivileged: $who (want $want)"
fi

# 2. Tests both ways; the listener's figures must all be there.
figures()	# figures FILE SIDE: the listener's side of a JSON report
{
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["result"]
s = r[sys.argv[2]]
num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
checks = {
    "bytes > 0 on both ends": r["bytes"] > 0 and
        r["sender"]["bytes"] > 0 and r["receiver"]["bytes"] > 0,
    "process CPU": num(s["cpu"]["process_pct"]) and
        num(s["cpu"]["user_s"]) and num(s["cpu"]["sys_s"]),
    "host CPU": num(s["host_cpu"]["busy_pct"]) and
        num(s["host_cpu"]["softirq_pct"]) and s["host_cpu"]["ncpus"] > 0,
    "interface lo": s["interface"]["name"] == "lo",
    "packet counts": num(s["packets"]["rx"]) and s["packets"]["rx"] > 0,
    "softirqs": num(s["softirq"]["net_rx"]),
    "TCP_INFO": num(s["tcp"]["rtt_us"]) and s["tcp"]["mss"] > 0,
    "context": bool(s["context"]["kernel"]) and
        bool(s["context"]["cpu_model"]) and s["context"]["mtu"] == 65536,
}
bad = [k for k, v in checks.items() if not v]
print("missing: " + ", ".join(bad) if bad else
      "bytes %d, process %.1f %% CPU, host %.1f %% busy, lo rx %d packets"
      % (r["bytes"], s["cpu"]["process_pct"], s["host_cpu"]["busy_pct"],
         s["packets"]["rx"]))
sys.exit(1 if bad else 0)
PYEOF
}
run_test()	# run_test NAME SIDE client-options...
{
	local name=$1 side=$2 rc=0 what
	shift 2
	"$GB" "$@" 127.0.0.1 -p "$port" -T 0.5 -J >"$tmp/c.json" \
	    2>"$tmp/c.err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit 0 (exit $rc)"
		sed 's/^/# client: /' "$tmp/c.err" | head -5
		return
	fi
	if what=$(figures "$tmp/c.json" "$side" 2>&1); then
		pass "$name: exit 0; the listener's figures: $what"
	else
		fail "$name: the listener's figures: $what"
	fi
}
run_test "forward test (-t), the listener receives" receiver -t
run_test "reverse test (-r), the listener transmits" sender -r
run_test "reverse test with -Z (MSG_ZEROCOPY under RLIMIT_MEMLOCK)" \
    sender -r -Z

# 3. --force-bufs without CAP_NET_ADMIN on the listener.
rc=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.2 -q --force-bufs -b 8M \
    >/dev/null 2>"$tmp/fb.err" || rc=$?
echo "# --force-bufs: exit $rc: $(head -n 1 "$tmp/fb.err")"
rc2=0
"$GB" -t 127.0.0.1 -p "$port" -T 0.2 -q >/dev/null 2>"$tmp/after.err" ||
    rc2=$?
if [ "$rc" -eq 3 ] && grep -q 'CAP_NET_ADMIN' "$tmp/fb.err" &&
    [ "$rc2" -eq 0 ]; then
	pass "--force-bufs refused (exit 3) naming CAP_NET_ADMIN; the next\
 test passes"
else
	fail "--force-bufs refused (exit $rc, want 3) naming CAP_NET_ADMIN;\
 the next test passes (exit $rc2)"
fi
stop "as nobody"

# 4 and 5. --allow-mtu, in a namespace of our own.
if ! command -v ip >/dev/null; then
	if in_ci; then
		fail "the --allow-mtu checks: ip not found (iproute2; CI is set)"
	else
		echo "# SKIP --allow-mtu checks: ip not found (iproute2)"
	fi
	finish
fi
ns=gb-unpriv-$$
if ! ip netns add "$ns" || ! ip -n "$ns" link set lo up; then
	fail "a network namespace for the --allow-mtu checks"
	finish
fi
mtu_lo() { ip -n "$ns" -o link show lo | sed -n 's/.* mtu \([0-9]*\) .*/\1/p'; }
journals() { find "$tmp/run" -mindepth 1 | wc -l; }

mtu_case()	# mtu_case NAME SETPRIV-OPTIONS...
{
	local name=$1 rc=0
	shift
	as_nobody "$@"
	if ! start ip netns exec "$ns" -- "$tmp/gigebench" -S --allow-mtu \
	    -p "$port"; then
		fail "$name: listener comes up"
		return 1
	fi
	ip netns exec "$ns" "$GB" -t 127.0.0.1 -p "$port" -T 0.3 \
	    --mtu 9000 -J >"$tmp/m.json" 2>"$tmp/m.err" || rc=$?
	mrc=$rc
	# The listener puts its MTU back when the test ends.
	for _ in $(seq 1 30); do
		[ "$(mtu_lo)" != 65536 ] || break
		sleep 0.1
	done
	mtu_after=$(mtu_lo)
}

mtu_case "no privilege" --inh-caps=-all --bounding-set=-all || finish
if [ "$mrc" -eq 3 ] && grep -q 'needs root (CAP_NET_ADMIN)' "$tmp/m.err"
then
	pass "--mtu 9000 against an unprivileged --allow-mtu listener:\
 exit 3, $(head -n 1 "$tmp/m.err")"
else
	fail "--mtu 9000 against an unprivileged --allow-mtu listener:\
 exit $mrc (want 3), $(head -n 1 "$tmp/m.err")"
fi
if [ "$mtu_after" = 65536 ] && [ "$(journals)" -eq 0 ]; then
	pass "the MTU is unchanged (65536), no journal"
else
	fail "the MTU is unchanged (now $mtu_after), no journal\
 ($(journals) files in the runtime directory)"
fi
rc=0
ip netns exec "$ns" "$GB" -t 127.0.0.1 -p "$port" -T 0.2 -q \
    >/dev/null 2>&1 || rc=$?
if [ "$rc" -eq 0 ]; then
	pass "the next test passes"
else
	fail "the next test passes (exit $rc)"
fi
stop "--allow-mtu without privilege"

mtu_case "CAP_NET_ADMIN" --inh-caps=-all,+net_admin \
    --ambient-caps=-all,+net_admin --bounding-set=-all,+net_admin || finish
both=$("$PY" -c 'import json, sys
r = json.load(open(sys.argv[1]))["result"]
print(r["sender"]["context"]["mtu"], r["receiver"]["context"]["mtu"])' \
    "$tmp/m.json" 2>/dev/null || echo "?")
if [ "$mrc" -eq 0 ] && [ "$both" = "9000 9000" ]; then
	pass "with CAP_NET_ADMIN alone, --mtu 9000 runs at MTU 9000 on both ends"
else
	fail "with CAP_NET_ADMIN alone, --mtu 9000: exit $mrc, MTUs $both,\
 $(head -n 1 "$tmp/m.err")"
fi
if [ "$mtu_after" = 65536 ] && [ "$(journals)" -eq 0 ]; then
	pass "and the MTU is 65536 again, no journal"
else
	fail "and the MTU is 65536 again (now $mtu_after), no journal\
 ($(journals) files in the runtime directory)"
fi
stop "--allow-mtu with CAP_NET_ADMIN"
finish
