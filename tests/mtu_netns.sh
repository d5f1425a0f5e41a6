#!/usr/bin/env bash
# MTU changes always undone (root): a probe changes the MTU of the veth in
# namespace A (tests/lib/netns.sh) and is then ended in every way it can
# be.  Run from anywhere as
#	bash tests/mtu_netns.sh
# It builds the probe (tests/mtu_restore_test.c with src/mtu*.c and
# src/netif.c) with $CC, or runs MTU_PROBE when that is set.  It checks:
#  1. SIGINT, SIGTERM and SIGHUP after a random 1-300 ms (every fourth
#     run 0.05-1 ms, so that some signals land before the change and most
#     after it, even with a probe that starts in a millisecond): the
#     process ends with 128 + the signal, the MTU is back to 1500 and no
#     journal remains;
#  2. SIGKILL after the change: the MTU stays changed and its journal
#     ("gb-va 1500 NETNS_INODE") exists; --restore puts the MTU back and
#     removes the journal;
#  3. as nobody (setpriv), with a runtime directory nobody cannot write
#     and with its own: "needs root", the MTU unchanged, no journal.
# Every check prints "ok" or "FAIL"; the last line is "N passed, M
# failed".  Without root it prints "# SKIP <reason>" and "0 passed, 0
# failed, 1 skipped"; with CI set that is a failure (tests/lib/skip.sh).  About 10 s.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$HERE")
CC=${CC:-gcc}
PROBE_CFLAGS=${MTU_PROBE_CFLAGS:--O1 -g -fsanitize=address,undefined \
-fno-sanitize-recover=all}
RUNS=${MTU_NETNS_RUNS:-24}	# signal runs, at least 20
ORIG=1500
NEW=9000
NOBODY=65534

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
for cmd in setpriv timeout; do
	if ! command -v "$cmd" >/dev/null 2>&1; then
		skip_or_fail "$cmd not found (Debian packages util-linux,\
 coreutils)"
		exit $?
	fi
done

pass=0
failed=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
check() {	# check NAME COMMAND...: passes when the command succeeds
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}

# The probe is readable and runnable by nobody (part 3), the runtime
# directory is root's alone.
TMP=$(mktemp -d)
chmod 755 "$TMP"
RUN=$TMP/run
mkdir -m 700 "$RUN"
cleanup() {
	netns_cleanup
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# The probe: "PROBE IFNAME MTU SECONDS" changes the MTU, prints "changed
# IFNAME to MTU", sleeps, restores; "PROBE --restore" restores from the
# journals and prints what it did.  To drive another program, change
# PROBE (or set MTU_PROBE) and, if its arguments differ, these two arrays.
PROBE=${MTU_PROBE:-$TMP/mtu_restore_test}
if [ -z "${MTU_PROBE:-}" ]; then
	# shellcheck disable=SC2086
	# src/mtu*.c and src/netif*.c: the modules may be split into files
	# named after their headers (include/host/mtu.h, host/netif.h).
	if ! "$CC" -std=gnu11 -D_GNU_SOURCE -I"$TOP/include" -I"$TOP/src" \
	    -Wall -Wextra -Werror $PROBE_CFLAGS -o "$PROBE" \
	    "$HERE/mtu_restore_test.c" "$TOP"/src/mtu*.c \
	    "$TOP"/src/netif*.c; then
		fail "build the probe with $CC"
		echo "$pass passed, $failed failed"
		exit 1
	fi
	chmod 755 "$PROBE"
fi
PROBE_CHANGE=("$PROBE")		# + IFNAME MTU SECONDS
PROBE_RESTORE=("$PROBE" --restore)

netns_setup --mtu "$ORIG"
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
INODE=$(netns_exec a stat -L -c %i /proc/self/ns/net)
JOURNAL=$RUN/mtu-$IF_A-$INODE

mtu_a() { netns_exec a cat "/sys/class/net/$IF_A/mtu"; }
journals() {	# journals DIR: how many mtu-* files DIR holds
	local f n=0
	for f in "$1"/mtu-*; do
		[ -e "$f" ] && n=$((n + 1))
	done
	echo "$n"
}
# restored RC WANT [DIR]: exit status as wanted, the MTU back to ORIG,
# no journal in DIR (the runtime directory)
restored() {
	[ "$1" -eq "$2" ] && [ "$(mtu_a)" -eq "$ORIG" ] &&
	    [ "$(journals "${3:-$RUN}")" -eq 0 ]
}
# said RC OUT GLOB: exit status 0 and output that matches GLOB
said() {
	[ "$1" -eq 0 ] || return 1
	# shellcheck disable=SC2254 # GLOB is a pattern
	case $2 in
	$3) return 0 ;;
	esac
	return 1
}
# refused RC OUT GLOB: a nonzero exit status and output that matches GLOB
refused() {
	[ "$1" -ne 0 ] || return 1
	# shellcheck disable=SC2254 # GLOB is a pattern
	case $2 in
	$3) return 0 ;;
	esac
	return 1
}
positive() {	# positive N...: every N is above 0
	local n
	for n in "$@"; do
		[ "$n" -gt 0 ] || return 1
	done
}

# 0. no signal: the probe changes, restores and exits 0
rc=0
out=$(GIGEBENCH_RUNDIR=$RUN netns_exec a "${PROBE_CHANGE[@]}" "$IF_A" \
    "$NEW" 0 2>&1) || rc=$?
check "no signal: \"$out\", exit $rc, MTU back to $ORIG, no journal" \
    restored "$rc" 0

# 1. SIGINT, SIGTERM, SIGHUP at random points.  timeout(1) delivers them:
# it runs in the foreground, so the probe does not start with SIGINT
# ignored as a background job of a script would (and a signal ignored at
# start stays ignored, on purpose).
sigs=(INT TERM HUP)
early=0
late=0
for i in $(seq 1 "$RUNS"); do
	sig=${sigs[$((i % 3))]}
	# every fourth run within 0.05-1 ms: in ip, or starting up
	if [ $((i % 4)) -eq 1 ]; then
		us=$((50 + RANDOM % 950))
	else
		us=$((1000 * (1 + RANDOM % 300)))
	fi
	delay=$(printf '%d.%06d' $((us / 1000000)) $((us % 1000000)))
	at=$(printf '%d.%03d ms' $((us / 1000)) $((us % 1000)))
	want=$((128 + $(kill -l "$sig")))
	rc=0
	out=$(GIGEBENCH_RUNDIR=$RUN netns_exec a timeout --preserve-status \
	    -s "$sig" "$delay" "${PROBE_CHANGE[@]}" "$IF_A" "$NEW" 5 \
	    2>"$TMP/err") || rc=$?
	case $out in
	changed*)
		late=$((late + 1))
		when="after the change"
		;;
	*)
		early=$((early + 1))
		when="before the change"
		;;
	esac
	check "SIG$sig at $at ($when): exit $rc, MTU $(mtu_a), $(journals \
	    "$RUN") journals" restored "$rc" "$want"
done
check "signals landed before the change ($early) and after it ($late)" \
    positive "$early" "$late"

# 2. SIGKILL after the change: the journal survives, --restore uses it.
# ip netns exec execs the probe, so $! is the probe itself.
GIGEBENCH_RUNDIR=$RUN ip netns exec "$NS_A" "${PROBE_CHANGE[@]}" "$IF_A" \
    "$NEW" 30 >"$TMP/kill.out" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
	grep -q '^changed' "$TMP/kill.out" && break
	sleep 0.05
done
check "SIGKILL: the probe changed the MTU first" \
    grep -q "^changed $IF_A to $NEW" "$TMP/kill.out"
kill -KILL "$pid"
rc=0
wait "$pid" 2>/dev/null || rc=$?
check "SIGKILL: exit $rc (137)" [ "$rc" -eq 137 ]
check "SIGKILL: the MTU stays $NEW" [ "$(mtu_a)" -eq "$NEW" ]
check "SIGKILL: the journal holds \"$IF_A $ORIG $INODE\"" \
    [ "$(cat "$JOURNAL" 2>/dev/null)" = "$IF_A $ORIG $INODE" ]
rc=0
out=$(GIGEBENCH_RUNDIR=$RUN netns_exec a "${PROBE_RESTORE[@]}" 2>&1) ||
    rc=$?
check "--restore: \"$out\", exit $rc" \
    said "$rc" "$out" "restored $IF_A to $ORIG"
check "--restore: MTU back to $ORIG, no journal" restored 0 0
rc=0
out=$(GIGEBENCH_RUNDIR=$RUN netns_exec a "${PROBE_RESTORE[@]}" 2>&1) ||
    rc=$?
check "--restore again: \"$out\", exit $rc" \
    said "$rc" "$out" "no MTU journals*"

# 3. Without privilege: "needs root" whatever the runtime directory.
mkdir -m 700 "$TMP/nobody"
chown "$NOBODY:$NOBODY" "$TMP/nobody"
for dir in "$RUN" "$TMP/nobody"; do
	rc=0
	out=$(GIGEBENCH_RUNDIR=$dir netns_exec a setpriv --reuid=$NOBODY \
	    --regid=$NOBODY --clear-groups "${PROBE_CHANGE[@]}" "$IF_A" \
	    "$NEW" 0 2>&1) || rc=$?
	check "as nobody, rundir ${dir#"$TMP"/}: \"$out\", exit $rc" \
	    refused "$rc" "$out" "*needs root*"
	check "as nobody, rundir ${dir#"$TMP"/}: MTU unchanged, no journal" \
	    restored 0 0 "$dir"
done

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
