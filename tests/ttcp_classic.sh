#!/usr/bin/env bash
#
# ttcp_classic.sh: gigebench --ttcp against a classic ttcp, on loopback,
# in the four combinations (gigebench or ttcp sending, the other
# receiving), TCP and UDP, and in pipe mode from ttcp into gigebench.
# A classic ttcp is not in Debian: build one by hand from the published
# ttcp.c (outside this repository) and name it:
#
#	make check-ttcp-classic TTCP=/path/to/ttcp
#
# Without TTCP it fails (it is not a test that can pass by skipping); CI
# does not run it.
#
#  1. ttcp -t -s -n 2000 -l 65536 into --ttcp -r -s: both exit 0, the
#     same 131072000 bytes on both ends.
#  2. --ttcp -t -s into ttcp -r -s: both exit 0, 16777216 bytes.
#  3. UDP, ttcp -t -u -s -n 2000 -l 1400 into --ttcp -r -u -s: ended by
#     ttcp's sentinel, a whole number of datagrams received.
#  4. UDP, --ttcp -t -u -s into ttcp -r -u -s: ttcp ends (it saw the
#     start and the end sentinels) with a whole number of datagrams.
#  5. Pipe mode: a 20 MB file from ttcp -t < file into --ttcp -r > out,
#     the same sha256.
#  6. The same lines: for each of ttcp's own output lines of 1 and 2,
#     gigebench's line of the same role matches the same pattern (the
#     numbers replaced by a placeholder).

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
TTCP=${TTCP:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-ttcpc.XXXXXX")
bound=60

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	[ -z "$bg" ] || kill "$bg" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck source=tests/lib/tally.sh
. "$top/tests/lib/tally.sh"
# shellcheck source=tests/lib/peers.sh
. "$top/tests/lib/peers.sh"

if [ -z "$TTCP" ] || [ ! -x "$TTCP" ]; then
	fail "a classic ttcp at TTCP=${TTCP:-(unset)} (build ttcp.c by hand)"
	finish; exit $?
fi

bytes_of() {	# bytes_of FILE ROLE: the N of "ttcp-ROLE: N bytes in"
	sed -n "s/^ttcp-$2: \\([0-9]*\\) bytes in .*/\\1/p" "$1" | head -n 1
}
both_ok() {	# both_ok WHAT: the pair's two exit statuses are 0
	check "$1: both exit 0 ($rc, $rrc)" test "$rc" -eq 0 -a "$rrc" -eq 0
}
# whole WHAT FILE ROLE LEN: FILE's byte count is some datagrams of LEN
whole() {
	local got
	got=$(bytes_of "$2" "$3")
	check "$1: whole datagrams (${got:-none} bytes)" \
	    test "${got:-0}" -gt 0 -a "$(( ${got:-1} % $4 ))" -eq 0
}
H=127.0.0.1
# Ports below 32768: the 1991 ttcp keeps its port in a short and prints
# a higher one as negative.

# 1. ttcp -> gigebench, TCP
port=$(port_free 20000 32767)
pair c1 tcp "$port" "$GB" --ttcp -r -s -p "$port" -- \
    "$TTCP" -t -s -n 2000 -l 65536 -p "$port" "$H"
both_ok "ttcp -t -> --ttcp -r, tcp"
check "ttcp -t -> --ttcp -r, tcp: 131072000 bytes on both ends ($(bytes_of "$tmp/c1-t.out" t), $(bytes_of "$tmp/c1-r.out" r))" \
    test "$(bytes_of "$tmp/c1-t.out" t)" = 131072000 -a \
    "$(bytes_of "$tmp/c1-r.out" r)" = 131072000

# 2. gigebench -> ttcp, TCP
port=$(port_free 20000 32767)
pair c2 tcp "$port" "$TTCP" -r -s -p "$port" -- \
    "$GB" --ttcp -t -s -p "$port" "$H"
both_ok "--ttcp -t -> ttcp -r, tcp"
check "--ttcp -t -> ttcp -r, tcp: 16777216 bytes on both ends ($(bytes_of "$tmp/c2-t.out" t), $(bytes_of "$tmp/c2-r.out" r))" \
    test "$(bytes_of "$tmp/c2-t.out" t)" = 16777216 -a \
    "$(bytes_of "$tmp/c2-r.out" r)" = 16777216

# 3. ttcp -> gigebench, UDP
port=$(port_free 20000 32767)
pair c3 udp "$port" "$GB" --ttcp -r -u -s -l 1400 -p "$port" -- \
    "$TTCP" -t -u -s -n 2000 -l 1400 -p "$port" "$H"
both_ok "ttcp -t -u -> --ttcp -r -u"
whole "ttcp -t -u -> --ttcp -r -u" "$tmp/c3-r.out" r 1400
check "ttcp -t -u -> --ttcp -r -u: ended by the sentinel, not by silence" \
    test -z "$(grep 'no end sentinel' "$tmp/c3-r.out")"

# 4. gigebench -> ttcp, UDP
port=$(port_free 20000 32767)
pair c4 udp "$port" "$TTCP" -r -u -s -l 1400 -p "$port" -- \
    "$GB" --ttcp -t -u -s -n 2000 -l 1400 -p "$port" "$H"
both_ok "--ttcp -t -u -> ttcp -r -u (ttcp saw the sentinels and ended)"
whole "--ttcp -t -u -> ttcp -r -u" "$tmp/c4-r.out" r 1400

# 5. pipe mode, ttcp -> gigebench
head -c 20000000 /dev/urandom >"$tmp/file"
port=$(port_free 20000 32767)
bg_start c5-r tcp "$port" "$GB" --ttcp -r -p "$port"
timeout -k 5 "$bound" "$TTCP" -t -p "$port" "$H" <"$tmp/file" \
    >/dev/null 2>&1 || fail "ttcp -t < file exits 0"
bg_wait || true
check "ttcp -t < file -> --ttcp -r > out: the same sha256" \
    test "$(sha256sum <"$tmp/file" | cut -c1-64)" = \
    "$(sha256sum <"$tmp/c5-r.out" | cut -c1-64)"

# 6. the same line shapes: every line of ttcp's, numbers as N, is one of
# gigebench's of the same role.
shape() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/port=N  tcp  -> .*/port=N  tcp  -> H/' "$@"; }
for p in "c1-t.out c2-t.out t" "c2-r.out c1-r.out r"; do
	read -r classic ours role <<<"$p"
	shape "$tmp/$classic" | grep "^ttcp-$role:" | sort -u >"$tmp/a"
	shape "$tmp/$ours" | grep "^ttcp-$role:" | sort -u >"$tmp/b"
	missing=$(comm -23 "$tmp/a" "$tmp/b")
	check "ttcp-$role: every line shape of ttcp's is gigebench's too${missing:+ (missing: $missing)}" \
	    test -z "$missing"
done

finish
