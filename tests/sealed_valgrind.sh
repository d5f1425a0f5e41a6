#!/usr/bin/env bash
#
# sealed_valgrind.sh: a listener without a key, run under valgrind, is fed
# sealed first messages (header flag 1, a body and a tag, but no key on
# the connection) and other early-return cases of the decoder, and must
# read no uninitialised byte answering them (issue 14, item 7: the
# pending-connection code named the type of a message the decoder had
# returned before clearing; valgrind counted an error per connection).
#
#	GIGEBENCH=build/gigebench bash tests/sealed_valgrind.sh
#
# About 15 s (valgrind).  Needs valgrind (skipped without it outside CI,
# a failure with CI set).  Prints "ok - ..." or "FAIL - ..." per check and
# ends with "N passed, M failed".

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
# shellcheck source=tests/lib/skip.sh
. "$HERE/lib/skip.sh"
# shellcheck source=tests/lib/listener.sh
. "$HERE/lib/listener.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	skip_or_fail "valgrind is not installed"
	exit $?
fi

TMP=$(mktemp -d)
passed=0
failed=0
SRV=""
# shellcheck disable=SC2317	# called by the trap
cleanup() { [ -z "$SRV" ] || kill -KILL "$SRV" 2>/dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }

PORT=$(listener_free_port)
valgrind -q --error-exitcode=99 --log-file="$TMP/vg.log" \
    "$GB" -r -p "$PORT" -v >/dev/null 2>"$TMP/srv.err" &
SRV=$!
up=0
for _ in $(seq 1 100); do
	if ss -Htln "sport = :$PORT" | grep -q .; then up=1; break; fi
	sleep 0.1
done
if [ "$up" -eq 1 ]; then
	pass "a listener under valgrind comes up"
else
	fail "a listener under valgrind comes up"
fi

# Sealed hellos, a sealed data message, a short sealed message, a bad
# magic: each answered or closed.
python3 - "$PORT" <<'PY' >"$TMP/py.out" 2>&1 || true
import socket, struct, sys
port = int(sys.argv[1])
def header(mtype, length, flags=1, magic=b"GBCP"):
    return magic + bytes([1, mtype]) + struct.pack(">HI", flags, length)
cases = [
    header(1, 2 + 32) + b"{}" + b"t" * 32,      # sealed hello
    header(1, 2 + 32) + b"{}" + b"t" * 32,
    header(4, 2 + 32) + b"{}" + b"t" * 32,      # sealed data message
    header(1, 10) + b"{}" + b"t" * 8,           # shorter than a tag
    header(1, 2, 0, b"XXXX") + b"{}",           # not gigebench
]
for c in cases:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(c)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
    s.close()
print("%d cases sent" % len(cases))
PY
sed 's/^/# /' "$TMP/py.out"
# A real test still passes on the same listener.
if timeout 60 "$GB" -t 127.0.0.1 -p "$PORT" -T 0.5 -q >/dev/null \
    2>"$TMP/c.err"; then
	pass "a real test passes after them"
else
	fail "a real test passes after them # $(head -c 200 "$TMP/c.err")"
fi
kill -TERM "$SRV"
rc=0
wait "$SRV" || rc=$?
SRV=""
errors=$(grep -c 'uninitialised\|Invalid read\|Invalid write' "$TMP/vg.log" || true)
if [ "$rc" -eq 0 ] && [ "$errors" -eq 0 ]; then
	pass "valgrind: no error answering them (exit $rc)"
else
	fail "valgrind: no error answering them # exit $rc, $errors errors:" \
	    "$(grep -m3 'uninitialised\|Invalid' "$TMP/vg.log" | tr '\n' ' ')"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
