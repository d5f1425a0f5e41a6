#!/usr/bin/env bash
# A client whose host vanishes (root; issue 6).  Run from the top of the
# tree as
#	GIGEBENCH=build/gigebench bash tests/vanish_netns.sh
#
# Not a killed or frozen process, whose kernel still closes or answers
# for it, but a host that is gone: the client in namespace A, the listener
# (--silent-timeout 2 --handshake-timeout 2) in B, and in the middle of a
# test the veth in A goes down, so that nothing from A arrives and
# nothing to A is acknowledged.  The listener must be idle again within
# the silent-peer timeout + 1 s, whether it was receiving or transmitting;
# "idle" is a real test from B to itself that passes.  Every check prints "ok" or "FAIL"; the last line
# is "N passed, M failed".  Without root it prints "# SKIP <reason>" and
# "0 passed, 0 failed, 1 skipped"; with CI set that is a failure
# (tests/lib/skip.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PORT=5103
SILENT=2

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi

TMP=$(mktemp -d)
pass=0
failed=0
cleanup() {
	netns_cleanup
	rm -rf "$TMP"
}
ok() { pass=$((pass + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }
now_ms() { date +%s%3N; }

# vanish WHAT CLIENT-ARGS...: the client's host goes away 1 s into its
# test (1 s after the listener says the test started).
vanish() {
	local what=$1 t0 ms rc cpid started inflight
	shift
	netns_setup
	trap 'cleanup' EXIT
	trap 'cleanup; exit 130' INT TERM
	netns_exec b "$GB" -r -p "$PORT" -v --allow-reverse \
	    --silent-timeout "$SILENT" --handshake-timeout "$SILENT" \
	    >/dev/null 2>"$TMP/srv.err" &
	for _ in $(seq 1 50); do
		netns_exec b ss -Htln "sport = :$PORT" | grep -q . && break
		sleep 0.1
	done
	netns_exec a "$@" >/dev/null 2>"$TMP/client.err" &
	cpid=$!
	# The link goes down in the middle of a test: the listener has said
	# "test started" for A, data flows for 1 s more, and the client is
	# still running when it goes (issue 13: a client that had already
	# ended made every check pass).
	started=0
	for _ in $(seq 1 100); do
		if grep -q "$ADDR_A.*test started" "$TMP/srv.err"; then
			started=1
			break
		fi
		kill -0 "$cpid" 2>/dev/null || break
		sleep 0.05
	done
	[ "$started" -eq 0 ] || sleep 1
	inflight=0
	kill -0 "$cpid" 2>/dev/null && inflight=1
	netns_exec a ip link set "$IF_A" down
	t0=$(now_ms)
	if [ "$started" -eq 1 ] && [ "$inflight" -eq 1 ]; then
		ok "$what: the client is in a test when its host vanishes"
	else
		fail "$what: the client is in a test when its host vanishes #" \
		    "listener saw the start: $started, client running:" \
		    "$inflight; client: $(tail -2 "$TMP/client.err" |
		    tr '\n' ' ') listener: $(tail -3 "$TMP/srv.err" |
		    tr '\n' ' ')"
	fi
	rc=1
	for _ in $(seq 1 100); do
		rc=0
		netns_exec b "$GB" -t "$ADDR_B" -p "$PORT" -T 0.1 -q \
		    >/dev/null 2>"$TMP/probe.err" || rc=$?
		[ "$rc" -eq 0 ] && break
		sleep 0.1
	done
	ms=$(($(now_ms) - t0))
	if [ "$rc" -eq 0 ] && [ "$ms" -le $(((SILENT + 1) * 1000)) ]; then
		ok "$what: the listener is idle $ms ms after the client's" \
		    "host vanished"
	else
		fail "$what: the listener is idle within $((SILENT + 1)) s" \
		    "of the client's host vanishing # exit $rc after $ms ms:" \
		    "$(tail -2 "$TMP/probe.err" | tr '\n' ' ') listener:" \
		    "$(tail -3 "$TMP/srv.err" | tr '\n' ' ')"
	fi
	netns_cleanup
}

vanish "receiving" "$GB" -t 198.18.0.2 -p "$PORT" -T 20 -q
vanish "transmitting" "$GB" -r 198.18.0.2 -p "$PORT" -T 20 -q
vanish "transmitting on 4 streams" "$GB" -r 198.18.0.2 -p "$PORT" -T 20 -P 4 -q

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
