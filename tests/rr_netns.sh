#!/usr/bin/env bash
# --rr's latency on the namespace test bed, against an independent
# measurement of the same bed (root; issue 18, "Tests").  Two namespaces
# joined by a veth pair (tests/lib/netns.sh, no qdisc: nothing but the
# stack between them), the client in A, the listener in B.  Run from the
# top of the tree as
#	GIGEBENCH=build/gigebench bash tests/rr_netns.sh
# (make check-netns).  ROUNDS rounds (default 5), each running, in turn
# (the order alternating, so that load from elsewhere falls on both
# alike), for SECONDS_RUN seconds (default 2):
#   gigebench --rr --request-size 64 --response-size 64, one stream, and
#   sockperf ping-pong --tcp -m 64 --full-rtt (Debian package sockperf),
#   the round-trip time of the same exchange by another program.
# It checks:
#  1. every run of both gave its figures;
#  2. gigebench's P50 is within 0.5x-2x of sockperf's P50, each tool's
#     lowest P50 over the rounds (or, when those are not, the medians
#     over the rounds: one tool's lone quick round is an outlier, not
#     the bed's round trip): other work on the host can only add
#     latency (a vCPU that is busy or asleep when a request or an answer
#     arrives), so each tool's least disturbed round is its best estimate
#     of the bed's own round trip;
#  3. the kernel's own round-trip time of gigebench's connection
#     (TCP_INFO's smoothed RTT on the asking end, the JSON's
#     sender.tcp.rtt_us) is within 0.5x-2x of gigebench's P50, the
#     median over the rounds of each round's ratio (a round's rtt and
#     P50 saw the same disturbance): with TCP_NODELAY each request's ACK
#     rides on its answer, so the kernel times the same exchange from the
#     segment sent to its ACK processed, without the system calls and the
#     wake-up of the asking thread that gigebench's clock includes;
#  4. Little's law: mean latency x transactions a second is within
#     0.8-1.02 (the median over the rounds; one stream, one in flight: a
#     transaction is in flight all the time but for the asking loop's own
#     turn-around, so the product is just under 1; a latency that left
#     part of the wait out, or counted a wait twice, would move it);
# and that its namespaces are gone at the end.  Every check prints "ok" or
# "FAIL" with the figures it compared, and every round's figures are
# printed ("# "); the last line is "N passed, M failed".  Without root, or
# without sockperf, it prints "# SKIP <reason>" and "0 passed, 0 failed,
# 1 skipped"; with CI set that is a failure (tests/lib/skip.sh).
#
# The bounds against what 4 runs of this script measured here (2 vCPUs
# shared with other builds and tests; 20 rounds of 2 s): a round's P50
# was 8.2-27.1 us for gigebench and 7.3-27.1 us for sockperf (medians
# 12.4 and 12.5), bimodal: about 12 us when the vCPUs were awake, 25 us
# when a wake-up was in the path, for either tool in any round.  So the
# medians of 5 rounds could compare one tool's fast mode with the other's
# slow one (a first version of this check, on medians, failed at 2.16);
# the best rounds' ratio was 0.85-1.62 (check 2), TCP_INFO's best srtt
# 8-10 us over gigebench's best P50, 0.64-1.10 (check 3), and Little's
# product 0.993-0.995 (check 4).  A latency measured wrong (the wrong
# clock or end of the exchange, a unit off by 1000, the answer's wait left
# out) misses a factor of 2 by far.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
GB=${GIGEBENCH:-$(dirname "$HERE")/build/gigebench}
PY=${PYTHON:-python3}
ROUNDS=${ROUNDS:-5}
SECONDS_RUN=${SECONDS_RUN:-2}
SIZE=64		# bytes each way; sockperf's messages carry a 14-byte header

# shellcheck source=tests/lib/netns.sh
. "$HERE/lib/netns.sh"
if ! netns_need_root >/dev/null; then
	skip_or_fail "$NETNS_MISSING"	# under CI: a failure
	exit $?
fi
if ! command -v sockperf >/dev/null 2>&1; then
	skip_or_fail "sockperf is not installed (Debian package sockperf)"
	exit $?
fi

# shellcheck source=tests/lib/tally.sh
. "$HERE/lib/tally.sh"

if [ ! -x "$GB" ]; then
	fail "gigebench is built: $GB (make)"
	finish || exit 1
fi

TMP=$(mktemp -d)
SERVER=""
cleanup() {
	[ -z "$SERVER" ] || kill "$SERVER" 2>/dev/null || true
	wait 2>/dev/null || true
	netns_cleanup
	rm -rf "$TMP"
}
set_traps() {	# netns_setup replaces the traps with its own; put ours back
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 143' TERM
}
set_traps

# judge.py WHAT TMP ROUNDS: reads every round's gb.N.json and sp.N.txt, prints
# each run's figures ("# ") and the checks ("ok - ", "FAIL - ").
cat >"$TMP/judge.py" <<'PYEOF'
import json, os, re, statistics, sys

def gb(path):
    try:
        with open(path) as f:
            r = json.load(f)["result"]
        lat = r["rr"]["latency"]
        return dict(per_s=r["rr"]["per_s"], p50=lat["p50_us"],
                    p99=lat["p99_us"], mean=lat["mean_us"],
                    rtt=r["sender"]["tcp"]["rtt_us"])
    except (OSError, ValueError, KeyError, TypeError):
        return None

def sp(path):
    try:
        with open(path) as f:
            out = f.read()
    except OSError:
        return None
    v = re.search(r"\[Valid Duration\] RunTime=([\d.]+) sec; "
                  r"SentMessages=\d+; ReceivedMessages=(\d+)", out)
    p50 = re.search(r"percentile 50\.000 = +([\d.]+)", out)
    p99 = re.search(r"percentile 99\.000 = +([\d.]+)", out)
    if not (v and p50 and p99) or float(v.group(1)) <= 0:
        return None
    return dict(per_s=int(v.group(2)) / float(v.group(1)),
                p50=float(p50.group(1)), p99=float(p99.group(1)))

def within(name, got, ref, lo, hi):
    ratio = got / ref if ref > 0 else float("inf")
    good = lo <= ratio <= hi
    print("%s - %s: %.2f over %.2f = %.3f (allowed %g-%g)" %
          ("ok" if good else "FAIL", name, got, ref, ratio, lo, hi))

def main(tmp, rounds):
    g, s = [], []
    for n in range(1, rounds + 1):
        a = gb(os.path.join(tmp, "gb.%d.json" % n))
        b = sp(os.path.join(tmp, "sp.%d.txt" % n))
        print("# round %d: gigebench %s; sockperf %s" % (n, a and
              "%.0f trans/s, P50 %.1f us, P99 %.1f, mean %.1f, TCP_INFO "
              "rtt %s us" % (a["per_s"], a["p50"], a["p99"], a["mean"],
                             a["rtt"]) or "no figures", b and
              "%.0f trans/s, P50 %.1f us, P99 %.1f" % (b["per_s"], b["p50"],
                                                       b["p99"]) or
              "no figures"))
        g += [a] if a else []
        s += [b] if b else []
    print("%s - every run gave its figures: gigebench %d, sockperf %d of %d"
          % ("ok" if len(g) == len(s) == rounds else "FAIL", len(g), len(s),
             rounds))
    if not g or not s:
        return
    # Load only adds latency: each tool's least disturbed round; or,
    # when one tool had a round far quicker than all its others (sockperf
    # once: 5.6 us in a CI run whose other rounds were 54-58 us, as were
    # gigebench's five), the medians over the rounds.
    best = lambda runs: min(r["p50"] for r in runs)
    mid = lambda runs: statistics.median(r["p50"] for r in runs)
    print("# medians over the rounds: gigebench P50 %.1f us, sockperf "
          "P50 %.1f us; best rounds %.1f and %.1f us" %
          (mid(g), mid(s), best(g), best(s)))
    name = "gigebench's P50 over sockperf's (each tool's best round, us)"
    if not 0.5 <= best(g) / best(s) <= 2 and 0.5 <= mid(g) / mid(s) <= 2:
        name = "gigebench's P50 over sockperf's (medians over the " \
               "rounds, us; the best rounds' ratio %.3f is one tool's " \
               "outlier)" % (best(g) / best(s))
        within(name, mid(g), mid(s), 0.5, 2)
    else:
        within(name, best(g), best(s), 0.5, 2)
    rtts = [r for r in g if r["rtt"]]
    if rtts:
        # One round's rtt against the same round's P50: the smoothed RTT
        # and the P50 of a disturbed round move apart, and the lowest of
        # each taken from different rounds compared a quiet moment of one
        # with a quiet moment of the other (13 us over 26.1 us, 0.498, in
        # a CI run whose five rounds' own ratios were 0.42-1.84).
        ratio = statistics.median(r["rtt"] / r["p50"] for r in rtts)
        print("%s - TCP_INFO rtt of the connection over gigebench's P50, "
              "the median of the rounds' ratios: %.3f (allowed 0.5-2)" %
              ("ok" if 0.5 <= ratio <= 2 else "FAIL", ratio))
    else:
        print("FAIL - TCP_INFO rtt: no run reported it")
    little = statistics.median(r["mean"] * r["per_s"] / 1e6 for r in g)
    print("%s - Little's law: mean latency x trans/s = %.4f (median; "
          "allowed 0.8-1.02)" % ("ok" if 0.8 <= little <= 1.02 else "FAIL",
                                 little))

main(sys.argv[2], int(sys.argv[3]))  # argv[1]: what it judges
PYEOF

port=5400
# "ip netns exec" execs the command, so $! is the server itself.
serve_in_b() {	# serve_in_b CMD...: background in B, wait for $port
	local socks
	ip netns exec "$NS_B" "$@" &
	SERVER=$!
	for _ in $(seq 1 100); do
		socks=$(netns_exec b ss -Htln "sport = :$port") || return 1
		[ -z "$socks" ] || return 0
		kill -0 "$SERVER" 2>/dev/null || break
		sleep 0.05
	done
	echo "# server on port $port did not come up" >&2
	return 1
}

stop_server() {	# the sockperf server runs until told; the listener exits
	if [ -n "$SERVER" ]; then
		kill "$SERVER" 2>/dev/null || true
		wait "$SERVER" 2>/dev/null || true
	fi
	SERVER=""
}

gb_run() {	# gb_run N: one --rr test from A to B into gb.N.json
	local rc=0
	port=$((port + 1))
	serve_in_b "$GB" -r -1 -q -p "$port" >/dev/null \
	    2>"$TMP/gb.$1.rcv.err" || return 1
	netns_exec a "$GB" -t "$ADDR_B" -p "$port" --rr -T "$SECONDS_RUN" \
	    --request-size "$SIZE" --response-size "$SIZE" --json \
	    >"$TMP/gb.$1.json" 2>"$TMP/gb.$1.err" || rc=$?
	wait "$SERVER" 2>/dev/null || true
	SERVER=""
	[ "$rc" -eq 0 ] || sed 's/^/# gigebench: /' "$TMP/gb.$1.err"
	return "$rc"
}

sp_run() {	# sp_run N: sockperf ping-pong from A to B into sp.N.txt
	local rc=0
	port=$((port + 1))
	serve_in_b sockperf server --tcp -i "$ADDR_B" -p "$port" \
	    >"$TMP/sp.$1.srv" 2>&1 || return 1
	netns_exec a sockperf ping-pong --tcp -i "$ADDR_B" -p "$port" \
	    -t "$SECONDS_RUN" -m "$SIZE" --full-rtt >"$TMP/sp.$1.txt" 2>&1 ||
	    rc=$?
	stop_server
	[ "$rc" -eq 0 ] || tail -n 3 "$TMP/sp.$1.txt" | sed 's/^/# sockperf: /'
	return "$rc"
}

ns_gone() {	# ns_gone NAME...: none of them is in "ip netns list"
	local list n
	list=$(ip netns list) || return 1
	for n in "$@"; do
		if printf '%s\n' "$list" | awk '{print $1}' | grep -qx "$n"; then
			echo "# namespace $n is still there" >&2
			return 1
		fi
	done
	return 0
}

if ! netns_setup; then
	set_traps
	fail "netns_setup"
	finish || exit 1
fi
set_traps
echo "# $ROUNDS rounds of $SECONDS_RUN s, $SIZE-byte requests and answers," \
    "$ADDR_A -> $ADDR_B over a veth pair"
for n in $(seq 1 "$ROUNDS"); do
	if [ $((n % 2)) -eq 1 ]; then
		gb_run "$n" || true
		sp_run "$n" || true
	else
		sp_run "$n" || true
		gb_run "$n" || true
	fi
done
judge "$TMP/judge.py" "the latencies" "$TMP" "$ROUNDS"

a=$NS_A
b=$NS_B
netns_cleanup
check "the namespaces are gone" ns_gone "$a" "$b"
finish
