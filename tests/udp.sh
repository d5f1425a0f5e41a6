#!/usr/bin/env bash
#
# udp.sh: -u over loopback (issue 15), with real listener and client
# processes on 127.0.0.1:
#
#  1. -t and -r, one stream, -T 1 -R 20m -l 1400, --json: exit 0;
#     (the lossless runs have -b 2M: on a loaded machine a receiver
#     off the CPU for 50 ms overflows the default 208K buffer, which is
#     real loss the report names, not what these checks are about)
#     params.protocol "udp"; result.udp and both sides' udp objects with
#     every member the man page's OUTPUT promises; nothing lost at this
#     rate (lost 0, sent == received, the same bytes on both ends); the
#     data paths sendmmsg and recvmmsg, per side and per stream; the
#     sender's pps within 3 % of 20e6 / (8 x 1400).
#  2. -P 4 both ways: the same datagram count on both ends, four streams
#     in each side's streams array.
#  3. -n 500 -l 1000 -R 10m: exactly 500 sent, 500 received.
#  4. -R 100kp -l 64 -T 1: the sender's pps within 5 % of 100000 (the
#     figure and the loss are printed either way).
#  5. The text report: the params line's "udp", both udp lines, the data
#     path lines, and the summary's "lost / sent drop/pkt %loss msJitter"
#     tokens agreeing with the udp lines.
#  6. Usage errors, exit 2 with the option named: the TCP-only options
#     with -u, -R and --batch without it, -l out of 40-65507 with -u, -u
#     on a listener.
#  7. Strangers: while a -t -u -T 2 test runs, 200 garbage datagrams and
#     200 of the right magic with a wrong token reach the listener's UDP
#     port from another socket; that socket receives nothing back during
#     the test, and the test still exits 0 with nothing lost.
#  8. -r -u against a listener without --allow-reverse: refused, exit 3.
#
#	GIGEBENCH=build/gigebench bash tests/udp.sh
#
# About 30 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
# "N passed, M failed"; exits 1 when a check failed.  Clients are bounded
# by timeout(1) (generous: a loaded machine is slow, not wrong); every
# wait is for an event (a port, a line, a process), never a fixed sleep.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PYTHON:-python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-udp.XXXXXX")
pids=""
# A client that has not ended by then is hung, not slow.
bound=120

# shellcheck source=tests/lib/listener.sh
. "$top/tests/lib/listener.sh"

# shellcheck disable=SC2317	# called by the trap
cleanup()
{
	# shellcheck disable=SC2086	# a list of pids
	listener_stop $pids
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck source=tests/lib/tally.sh
. "$top/tests/lib/tally.sh"

if [ ! -x "$GB" ]; then
	fail "gigebench binary at $GB (run make)"
	finish; exit $?
fi

# The JSON checks, one named set per kind of run.  Prints "ok - ..." and
# "FAIL - ..." lines (tally reads them), each with the figures behind it.
cat >"$tmp/check.py" <<'PYEOF'
import json, sys

UDP = ("sent", "received", "lost", "lost_pct", "sender_pps",
       "receiver_pps", "jitter_ms", "lost_by_gaps")
SIDE_UDP = ("length", "batch", "datagrams", "enobufs", "refused", "gaps",
            "ooo", "dup", "stray", "jitter_ms")


def say(ok, what):
    print(("ok - " if ok else "FAIL - ") + what)


def within(got, want, pct):
    return abs(got - want) <= want * pct / 100.0


name, kind, path = sys.argv[1:4]
args = sys.argv[4:]
try:
    d = json.load(open(path))
    r = d["result"]
    tx, rx, u = r["sender"], r["receiver"], r["udp"]
except Exception as e:  # not a document, or not a UDP one
    say(False, "%s: a JSON result with both sides and udp: %r" % (name, e))
    sys.exit(0)

if kind == "basic":
    streams, length, rate_bps = int(args[0]), int(args[1]), float(args[2])
    say(d["params"].get("protocol") == "udp",
        "%s: params.protocol is udp (%r)" % (name,
                                              d["params"].get("protocol")))
    missing = [k for k in UDP if k not in u]
    say(not missing, "%s: result.udp has every member (missing %s)" %
        (name, missing))
    for s, o in (("sender", tx), ("receiver", rx)):
        su = o.get("udp") or {}
        missing = [k for k in SIDE_UDP if k not in su]
        say(not missing, "%s: result.%s.udp has every member (missing %s)"
            % (name, s, missing))
        say(su.get("length") == length and su.get("batch") == 32,
            "%s: %s length %r == -l %d, batch %r == 32 (the default)" %
            (name, s, su.get("length"), length, su.get("batch")))
    say(u["lost"] == 0 and u["sent"] == u["received"] > 0 and
        u["lost_pct"] == 0 and u["lost_by_gaps"] is False,
        "%s: nothing lost: lost %r, sent %r, received %r, %r %%" %
        (name, u["lost"], u["sent"], u["received"], u["lost_pct"]))
    say(tx["udp"]["datagrams"] == rx["udp"]["datagrams"] == u["sent"],
        "%s: datagrams on both ends %r == %r == sent %r" %
        (name, tx["udp"]["datagrams"], rx["udp"]["datagrams"], u["sent"]))
    say(tx["bytes"] == rx["bytes"] == u["sent"] * length,
        "%s: bytes on both ends %r == %r == sent x -l %r" %
        (name, tx["bytes"], rx["bytes"], u["sent"] * length))
    paths = ([tx["data_path"]] + [st["data_path"] for st in tx["streams"]],
             [rx["data_path"]] + [st["data_path"] for st in rx["streams"]])
    say(set(paths[0]) == {"sendmmsg"} and set(paths[1]) == {"recvmmsg"},
        "%s: data paths sendmmsg / recvmmsg, sides and streams (%s / %s)"
        % (name, ",".join(paths[0]), ",".join(paths[1])))
    say(len(tx["streams"]) == len(rx["streams"]) == streams ==
        d["params"]["streams"],
        "%s: %d streams in each side's array (%d, %d)" %
        (name, streams, len(tx["streams"]), len(rx["streams"])))
    # -R is per stream; sender_pps is the test's, all streams.
    want = streams * rate_bps / (8.0 * length)
    say(within(u["sender_pps"], want, 3),
        "%s: sender_pps %.1f within 3 %% of %.1f" %
        (name, u["sender_pps"], want))
    say(u["jitter_ms"] >= 0 and u["jitter_ms"] == rx["udp"]["jitter_ms"],
        "%s: jitter_ms %r is the receiver's %r" %
        (name, u["jitter_ms"], rx["udp"]["jitter_ms"]))
elif kind == "count":
    n = int(args[0])
    say(tx["udp"]["datagrams"] == n and u["sent"] == n,
        "%s: exactly %d sent (side %r, result %r)" %
        (name, n, tx["udp"]["datagrams"], u["sent"]))
    say(rx["udp"]["datagrams"] == n and u["received"] == n and
        u["lost"] == 0,
        "%s: %d received (side %r, result %r, lost %r)" %
        (name, n, rx["udp"]["datagrams"], u["received"], u["lost"]))
elif kind == "pps":
    want, pct = float(args[0]), float(args[1])
    print("# %s: sender %.0f pps, receiver %.0f pps, lost %d of %d "
          "(%.2f %%); sender process %.1f %% CPU, host %.1f %% busy" %
          (name, u["sender_pps"], u["receiver_pps"], u["lost"], u["sent"],
           u["lost_pct"], tx["cpu"]["process_pct"],
           tx["host_cpu"]["busy_pct"]))
    held = [f for f in r["diagnosis"] if f["code"] == "udp_held_back"]
    if held:
        # A loaded machine may not give the sender the CPU: then the
        # report must say so (not call it loss), and never overshoot.
        print("# %s: %s" % (name, held[0]["text"]))
        say(u["sender_pps"] < 0.99 * want * 1.001,
            "%s: held back, said so, and sender_pps %.0f is below %.0f" %
            (name, u["sender_pps"], want))
    else:
        say(within(u["sender_pps"], want, pct),
            "%s: sender_pps %.0f within %g %% of %.0f" %
            (name, u["sender_pps"], pct, want))
elif kind == "clean":
    say(u["lost"] == 0 and u["sent"] == u["received"] > 0,
        "%s: nothing lost (lost %r, sent %r, received %r)" %
        (name, u["lost"], u["sent"], u["received"]))
    # The listener received: its greeter counted the strangers' datagrams
    # (a few may overflow its buffer), never as data.
    say(1 <= rx["udp"]["stray"] <= int(args[0]),
        "%s: the receiver counted %r stray datagrams of %s sent" %
        (name, rx["udp"]["stray"], args[0]))
else:
    say(False, "%s: unknown check kind %s" % (name, kind))
PYEOF


# jcheck NAME KIND FILE ARG...: the named set of JSON checks on FILE.
jcheck()
{
	"$PY" "$tmp/check.py" "$@" >"$tmp/check.out" 2>&1 || true
	tally "$tmp/check.out"
}

# client NAME ARG...: runs gigebench ARG... against the listener, stdout
# to $tmp/NAME.out and stderr to $tmp/NAME.err; sets $rc.
client()
{
	local name=$1
	shift
	rc=0
	timeout -k 5 "$bound" "$GB" -p "$LISTENER_PORT" "$@" \
	    >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
}

# exits NAME WANT: the last client exited WANT.
exits()
{
	if [ "$rc" -eq "$2" ]; then
		pass "$1: exit $rc"
	else
		fail "$1: exit $rc, want $2: $(head -c 300 "$tmp/$1.err")"
	fi
}

# The listener of every test but 8's, logging "test started" (-v).
if ! listener_start "$GB" "$tmp/l.out" "$tmp/l.err" --allow-reverse -v; then
	pids="$pids $LISTENER_PID"
	fail "a listener comes up: $(head -c 300 "$tmp/l.err")"
	finish; exit $?
fi
pids="$pids $LISTENER_PID"
lpid=$LISTENER_PID

# ------------------------------------------------- 1. both directions
for dir in t r; do
	client "u-$dir" "-$dir" 127.0.0.1 -u -T 1 -R 20m -l 1400 -b 2M -J
	exits "u-$dir" 0
	jcheck "-$dir -u -T 1 -R 20m -l 1400" basic "$tmp/u-$dir.out" 1 1400 \
	    20e6
done

# ------------------------------------------------- 2. -P 4
for dir in t r; do
	client "p4-$dir" "-$dir" 127.0.0.1 -u -P 4 -T 1 -R 20m -l 1400 -b 2M -J
	exits "p4-$dir" 0
	jcheck "-$dir -u -P 4" basic "$tmp/p4-$dir.out" 4 1400 20e6
done

# ------------------------------------------------- 3. -n
client n500 -t 127.0.0.1 -u -n 500 -l 1000 -R 10m -b 2M -J
exits n500 0
jcheck "-u -n 500 -l 1000 -R 10m" count "$tmp/n500.out" 500

# ------------------------------------------------- 4. packets per second
client pps -t 127.0.0.1 -u -R 100kp -l 64 -T 1 -J
exits pps 0
jcheck "-u -R 100kp -l 64 -T 1" pps "$tmp/pps.out" 100000 5

# ------------------------------------------------- 5. the text report
# udp_text NAME: the lines of a clean -T 1 -R 20m -l 1400 run's report.
udp_text()
{
	local f=$tmp/$1.out sent recv sum
	sent=$(sed -En 's/^gigebench-t: udp ([0-9]+) datagrams of 1400 bytes, [0-9]+ pps, batch 32, 0 ENOBUFS\/EAGAIN, 0 refused$/\1/p' "$f")
	recv=$(sed -En 's/^gigebench-r: udp ([0-9]+) datagrams, [0-9]+ pps, lost 0 \(0\.000 %\), 0 late, 0 dup, 0 stray, jitter [0-9]+\.[0-9]{3} ms$/\1/p' "$f")
	sum=$(sed -En 's/^ *[0-9.]+ MB \/ +[0-9.]+ sec = +[0-9.]+ Mbps [0-9]+ %TX [0-9]+ %RX ([0-9]+) \/ ([0-9]+) drop\/pkt ([0-9.]+) %loss [0-9]+\.[0-9]{3} msJitter [^ ]+ irq\/pkt-TX [^ ]+ irq\/pkt-RX$/\1 \2 \3/p' "$f")
	if grep -Eq '^gigebench-[tr]: buflen=1400 .* port=[0-9]+ udp( ->| <-|,)' \
	    "$f"; then
		pass "$1: params line says udp"
	else
		fail "$1: params line says udp: $(grep -m1 buflen= "$f")"
	fi
	if grep -q '^gigebench-t: data path sendmmsg$' "$f" &&
	    grep -q '^gigebench-r: data path recvmmsg$' "$f"; then
		pass "$1: data path lines sendmmsg, recvmmsg"
	else
		fail "$1: data path lines: $(grep 'data path' "$f" | tr '\n' ' ')"
	fi
	if [ -n "$sent" ] && [ "$sent" = "$recv" ] && [ "$sent" -gt 0 ]; then
		pass "$1: udp lines, $sent sent and $recv received, none lost"
	else
		fail "$1: udp lines (sent '$sent', received '$recv'):" \
		    "$(grep ' udp ' "$f" | tr '\n' ' ')"
	fi
	if [ "$sum" = "0 $sent 0.00" ]; then
		pass "$1: summary '0 / $sent drop/pkt 0.00 %loss ... msJitter'"
	else
		fail "$1: summary drop/pkt, %loss, msJitter ('$sum', sent" \
		    "'$sent'): $(tail -1 "$f")"
	fi
}
for dir in t r; do
	client "text-$dir" "-$dir" 127.0.0.1 -u -T 1 -R 20m -l 1400 -b 2M
	exits "text-$dir" 0
	udp_text "text-$dir"
done

# ------------------------------------------------- 6. usage errors
# usage NAME NEEDLE ARG...: exit 2, NEEDLE in the message; no listener
# needed (port 1: nothing may be connected to).
usage()
{
	local name=$1 needle=$2
	shift 2
	rc=0
	timeout -k 5 "$bound" "$GB" -p 1 "$@" >/dev/null 2>"$tmp/usage.err" ||
	    rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$needle" "$tmp/usage.err"; then
		pass "$name: exit 2, '$(head -1 "$tmp/usage.err")'"
	else
		fail "$name: exit $rc, want 2 naming '$needle':" \
		    "$(head -c 300 "$tmp/usage.err")"
	fi
}
for o in "-M 1000" "-D" "-C cubic" "-Z" "--sendfile" "--splice" \
    "--skip-rx-copy"; do
	# shellcheck disable=SC2086	# the option and its value
	usage "-u $o" "${o%% *}: is for TCP tests" -t 127.0.0.1 -u $o -T 1
done
usage "-R 1m without -u" "-R: is for UDP tests" -t 127.0.0.1 -R 1m -T 1
usage "--batch 4 without -u" "--batch: is for UDP tests" -t 127.0.0.1 \
    --batch 4 -T 1
usage "-u -l 39" "length is out of range (40-65507 bytes): 39" \
    -t 127.0.0.1 -u -l 39 -T 1
usage "-u -l 65508" "length is out of range (40-65507 bytes): 65508" \
    -t 127.0.0.1 -u -l 65508 -T 1
usage "-r -u, a listener" "-u: only a client takes it" -r -u

# ------------------------------------------------- 7. strangers
# stranger.py PORT DONE OUT: 200 garbage datagrams and 200 with the right
# magic and a wrong token (100 DATA, 100 HELLO) at 127.0.0.1:PORT from a
# socket of its own; then reads until the file DONE exists (the test is
# over) and prints what came back: "datagrams N", "icmp N" (the kernel's
# port unreachable, read off IP_RECVERR's queue: the kernel's, not
# gigebench's), "sent_during_test 0|1".
cat >"$tmp/stranger.py" <<'PYEOF'
import os, random, select, socket, struct, sys, time

port, done, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, 11, 1)  # IP_RECVERR
s.bind(("127.0.0.1", 0))
rng = random.Random(15)
dgrams = []
for i in range(200):
    dgrams.append(bytes(rng.getrandbits(8)
                        for _ in range(rng.randint(1, 300))))
for i in range(200):
    # dgram.h: magic, version 1, kind (DATA 0, HELLO 1), stream, token,
    # seq, send time; then a payload.
    token = bytes(rng.getrandbits(8) for _ in range(16))
    dgrams.append(struct.pack(">IBBH16sQQ", 0x47424447, 1, i % 2, i % 4,
                              token, i, 0) + b"x" * 60)
rng.shuffle(dgrams)
got = icmp = 0


def drain():
    global got, icmp
    while True:
        try:
            s.recvfrom(65536, socket.MSG_DONTWAIT)
            got += 1
        except BlockingIOError:
            break
        except OSError:  # an ICMP error, reported once
            icmp += 1
    while True:
        try:
            s.recvmsg(512, 512, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
        except OSError:
            break


for b in dgrams:
    try:
        s.sendto(b, ("127.0.0.1", port))
    except OSError:
        icmp += 1
    drain()
during = 0 if os.path.exists(done) else 1
t0 = time.monotonic()
while not os.path.exists(done) and time.monotonic() - t0 < 300:
    select.select([s], [], [], 0.05)
    drain()
drain()
with open(out, "w") as f:
    f.write("datagrams %d\nicmp %d\nsent_during_test %d\n" %
            (got, icmp, during))
PYEOF
started=$(grep -c 'test started' "$tmp/l.err" || true)
timeout -k 5 "$bound" "$GB" -p "$LISTENER_PORT" -t 127.0.0.1 -u -T 2 \
    -R 20m -l 1400 -b 2M -J >"$tmp/str.out" 2>"$tmp/str.err" &
cpid=$!
up=0
for _ in $(seq 1 $((bound * 20))); do
	if [ "$(grep -c 'test started' "$tmp/l.err" || true)" -gt "$started" ]
	then
		up=1
		break
	fi
	kill -0 "$cpid" 2>/dev/null || break
	sleep 0.05
done
if [ "$up" -eq 1 ]; then
	"$PY" "$tmp/stranger.py" "$LISTENER_PORT" "$tmp/str.done" \
	    "$tmp/str.res" &
	spid=$!
	rc=0
	wait "$cpid" || rc=$?
	: >"$tmp/str.done"
	wait "$spid" || true
	exits str 0
	if grep -qx 'datagrams 0' "$tmp/str.res" 2>/dev/null &&
	    grep -qx 'sent_during_test 1' "$tmp/str.res"; then
		pass "strangers: 400 datagrams sent during the test," \
		    "nothing came back ($(grep icmp "$tmp/str.res") from" \
		    "the kernel)"
	else
		fail "strangers: sent during the test, nothing back:" \
		    "$(tr '\n' ' ' <"$tmp/str.res" 2>/dev/null)"
	fi
	jcheck "strangers, -t -u -T 2" clean "$tmp/str.out" 400
else
	wait "$cpid" || true
	fail "strangers: the listener logs 'test started':" \
	    "$(head -c 300 "$tmp/str.err")"
fi

# ------------------------------------------------- 7b. sweeps
# --sweep length= and rate= over -u: the table's kpps and loss columns,
# one CSV row per point with the protocol and the datagram counts.
client sweep -t 127.0.0.1 -u -T 0.5 -R 10m -b 2M --sweep length=64,1400 \
    --sweep rate=5m,10kp --csv "$tmp/sweep.csv"
exits sweep 0
if grep -q 'kpps-RX *loss%' "$tmp/sweep.out" &&
    [ "$(grep -c '^\(64\|1400\) ' "$tmp/sweep.out")" -eq 4 ]; then
	pass "sweep: the table has kpps-RX and loss% and 4 rows"
else
	fail "sweep: table: $(tr '\n' '|' <"$tmp/sweep.out" | head -c 400)"
fi
if "$PY" - "$tmp/sweep.csv" <<'PYEOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
want = [("64", "5m"), ("64", "10kp"), ("1400", "5m"), ("1400", "10kp")]
got = [(r["length"], r["rate"]) for r in rows]
ok = got == want and all(
    r["protocol"] == "udp" and int(r["udp_sent"]) > 0 and
    r["udp_sent"] == r["udp_received"] and r["udp_lost"] == "0" and
    r["buflen"] == r["length"] for r in rows)
ok = ok and rows[1]["rate_pps"] == "10000" and rows[0]["rate_bps"] == "5000000"
print("# %s" % [(r["length"], r["rate"], r["udp_sent"], r["udp_received"],
                 r["rate_bps"], r["rate_pps"]) for r in rows])
sys.exit(0 if ok else 1)
PYEOF
then
	pass "sweep: 4 CSV rows, udp, each point's length and rate, no loss"
else
	fail "sweep: CSV rows (above)"
fi

# ------------------------------------------------- 8. reverse refused
listener_stop "$lpid"
if listener_start "$GB" "$tmp/l2.out" "$tmp/l2.err"; then
	pids="$pids $LISTENER_PID"
	client rev -r 127.0.0.1 -u -T 1 -l 1400
	exits rev 3
	if grep -qi 'reverse' "$tmp/rev.err"; then
		pass "reverse refused, saying why: '$(head -1 "$tmp/rev.err")'"
	else
		fail "reverse refused, saying why: $(head -c 300 "$tmp/rev.err")"
	fi
else
	pids="$pids $LISTENER_PID"
	fail "a listener without --allow-reverse comes up:" \
	    "$(head -c 300 "$tmp/l2.err")"
fi

finish
