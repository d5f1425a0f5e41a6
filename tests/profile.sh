#!/usr/bin/env bash
# tests/profile.sh: --profile over loopback (issue 21).  Both ends sample
# the same host here, so the tests send with --sendfile (no copy on the
# sending side) and the receiver's copy is the host's:
#   1. a 3 s test with --profile to a listener with --allow-profile: exit
#      0; both ends' profile in the JSON, its members (event, 499 Hz, the
#      CPUs, the split adding up to the samples, the ten categories in
#      order adding up to the busy samples, at most 10 top entries most
#      first, the cost), and data-copy functions among the receiver's top
#      10; under cpu-clock the top's irq re-enables (the irqrestore
#      unlocks, the paravirt irq_enable hooks) in "irqs off (attributed
#      to the re-enable)", not locking; under cycles that category 0;
#   2. the same with --skip-rx-copy: the receiver's copy share falls to
#      half or less;
#   3. the text report's profile lines on both sides, one event line
#      each naming the event (for cpu-clock, where the irqs-off time
#      goes); data_copy in the diagnosis exactly when an end's copy
#      share is 25 % or more;
#   4. a listener without --allow-profile: the test passes, its profile
#      is null with the reason, the client's is there;
#   5. not root, perf_event_paranoid raised to 3 (put back after): the
#      test passes and both profiles are null, the reason naming
#      perf_event_paranoid;
#   6. a sweep (length=128K,1M) has the copy%TX and copy%RX columns,
#      each point's copy_tx/copy_rx in its JSON, and its CSV the profile
#      columns.
# Root (system-wide sampling); without it "# SKIP" (a failure under CI).
# About 30 s.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
GB=${GIGEBENCH:-$top/build/gigebench}
PY=${PY:-python3}
. "$here/lib/tally.sh"
. "$here/lib/skip.sh"
. "$here/lib/listener.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip_or_fail "sampling every CPU needs root"
	exit $?
fi
for t in setpriv ss; do
	if ! command -v "$t" >/dev/null; then
		skip_or_fail "$t is not installed (util-linux, iproute2)"
		exit $?
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gigebench-profile.XXXXXX")
chmod 755 "$tmp"
paranoid=/proc/sys/kernel/perf_event_paranoid
paranoid_was=$(cat "$paranoid")
lpid=
cleanup()
{
	[ -z "$lpid" ] || kill "$lpid" 2>/dev/null
	echo "$paranoid_was" >"$paranoid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run NAME LISTENER-ARGS -- CLIENT-ARGS: one test, the client's JSON in
# NAME.json, its exit status in NAME.rc, the listener's output NAME.l.
run() {
	local name=$1 rc=0 once=-1
	shift
	case $name in sweep*) once=-v ;; esac	# a sweep is several tests
	local largs=()
	while [ "$1" != -- ]; do largs+=("$1"); shift; done
	shift
	listener_start "$GB" "$tmp/$name.l" "$tmp/$name.le" "$once" \
	    "${largs[@]}" || return 1
	lpid=$LISTENER_PID
	"$GB" -t 127.0.0.1 -p "$LISTENER_PORT" --no-progress "$@" \
	    >"$tmp/$name.json" 2>"$tmp/$name.err" || rc=$?
	echo "$rc" >"$tmp/$name.rc"
	[ "$once" = -1 ] || kill "$lpid"
	listener_wait_exit "$lpid" 5000
	[ "$LISTENER_RC" != -1 ] || kill -KILL "$lpid" 2>/dev/null
	lpid=
}

run copy --allow-profile -- -T 3 --sendfile --profile -J
run skip --allow-profile -- -T 3 --sendfile --skip-rx-copy --profile -J
run text --allow-profile -- -T 2 --sendfile --profile
mv "$tmp/text.json" "$tmp/text.out"
run refused -- -T 1 --profile -J
echo 3 >"$paranoid"
# Both ends as nobody (a wrapper that execs: the listener's pid stays).
printf '#!/bin/sh\nexec setpriv --reuid 65534 --regid 65534 --clear-groups %s "$@"\n' \
    "$GB" >"$tmp/asnobody"
chmod 755 "$tmp/asnobody"
GB_REAL=$GB
GB=$tmp/asnobody
run paranoid --allow-profile -- -T 1 --profile -J
GB=$GB_REAL
echo "$paranoid_was" >"$paranoid"
run sweep --allow-profile -- -T 1 --sendfile --profile \
    --sweep length=128K,1M -J
run sweeptext --allow-profile -- -T 1 --sendfile --profile \
    --sweep length=128K,1M --csv "$tmp/t.csv"
mv "$tmp/sweeptext.json" "$tmp/sweeptext.out"

"$PY" - "$tmp" <<'EOF' >"$tmp/judge.out"
import csv, json, os, re, sys
d = sys.argv[1]
ok = lambda c, t: print(("ok - " if c else "FAIL - ") + t)
IRQOFF = "irqs off (attributed to the re-enable)"
CATS = ["copy", "checksum", "stack", "softirq", "driver", "sched",
        "locking", IRQOFF, "kernel", "user"]
REENABLE = re.compile(r"^(_raw_\w+_unlock_irq\w*|\w*pvm_irq_enable|"
                      r"pv_native_irq_enable|native_irq_enable)(\..*)?$")

def load(name):
    rc = open(os.path.join(d, name + ".rc")).read().strip()
    try:
        doc = json.load(open(os.path.join(d, name + ".json")))
    except (OSError, ValueError) as e:
        doc = {"error": "not JSON: %s" % e}
    return rc, doc

def shape(p):
    """The reasons a profile object is not what the man page says."""
    bad = []
    if p.get("event") not in ("cycles", "cpu-clock"):
        bad.append("event %r" % p.get("event"))
    if p.get("hz") != 499:
        bad.append("hz %r" % p.get("hz"))
    if not p.get("ncpus", 0) >= 1:
        bad.append("ncpus")
    if not p.get("samples", 0) > 0 or \
            p["idle"] + p["kernel"] + p["user"] != p["samples"]:
        bad.append("split %r" % [p.get(k) for k in
                                 ("samples", "idle", "kernel", "user")])
    cats = p.get("categories", [])
    if [c.get("name") for c in cats] != CATS:
        bad.append("categories %r" % [c.get("name") for c in cats])
    elif sum(c["samples"] for c in cats) != p["kernel"] + p["user"]:
        bad.append("categories do not add up")
    top = p.get("top", [])
    if not 1 <= len(top) <= 10 or \
            [t["samples"] for t in top] != sorted(
                (t["samples"] for t in top), reverse=True) or \
            any(t["kind"] not in ("function", "process") or
                t["category"] not in CATS for t in top):
        bad.append("top %r" % top[:2])
    cost = p.get("cost", {})
    if not cost.get("handled_per_s", 0) > 0 or cost.get("cpu_s", -1) < 0:
        bad.append("cost %r" % cost)
    return bad

def copy(p):
    return next(c["pct"] for c in p["categories"] if c["name"] == "copy")

rc, doc = load("copy")
r = doc.get("result", {})
snd = (r.get("sender") or {}).get("profile")
rcv = (r.get("receiver") or {}).get("profile")
ok(rc == "0" and snd and rcv, "1. --profile: exit %s, both ends' profile "
   "(%s)" % (rc, doc.get("error", "")))
if snd and rcv:
    b = shape(snd) + shape(rcv)
    ok(not b, "1. the profile's members as the man page says%s" %
       (": " + "; ".join(b) if b else ""))
    # All ten reported, not five: on cpu-clock (no PMU) the functions
    # that re-enable interrupts (pvm_irq_enable, the irqrestore unlocks)
    # take the time spent with them off and can push the copy down
    # (a fresh-clone CI run: copy sixth; issue 31's profile item).
    top = [t["name"] for t in rcv["top"]]
    ok(any(t["category"] == "copy" for t in rcv["top"]),
       "1. data copy among the receiver's top %d (%s)" %
       (len(top), ", ".join(top)))
def irqs_off(p):
    """The reasons p's irq re-enables are not where its event puts them."""
    bad = []
    cat = next(c for c in p["categories"] if c["name"] == IRQOFF)
    for t in p["top"]:
        if t["kind"] != "function" or not REENABLE.match(t["name"]):
            continue
        want = IRQOFF if p["event"] == "cpu-clock" else "locking" \
            if t["name"].startswith("_raw_") else "kernel"
        if t["category"] != want:
            bad.append("%s in %s, not %s" % (t["name"], t["category"], want))
    if p["event"] != "cpu-clock" and cat["samples"] != 0:
        bad.append("%d irqs-off samples under %s" % (cat["samples"],
                                                   p["event"]))
    return bad

if snd and rcv:
    b = irqs_off(snd) + irqs_off(rcv)
    ok(not b, "1. %s: the irq re-enables' category (%s %.1f %%, locking "
       "%.1f %% at the receiver)%s" % (rcv["event"], IRQOFF,
       next(c["pct"] for c in rcv["categories"] if c["name"] == IRQOFF),
       next(c["pct"] for c in rcv["categories"] if c["name"] == "locking"),
       ": " + "; ".join(b) if b else ""))
rc2, doc2 = load("skip")
r2 = doc2.get("result", {})
rcv2 = (r2.get("receiver") or {}).get("profile")
if rcv and rcv2:
    ok(copy(rcv2) <= copy(rcv) / 2, "2. --skip-rx-copy: the receiver's "
       "copy share %.1f %% -> %.1f %% (half or less)" % (copy(rcv),
                                                       copy(rcv2)))
else:
    ok(False, "2. --skip-rx-copy: exit %s, a profile" % rc2)
for name, res in (("copy", r), ("skip", r2)):
    for side in ("sender", "receiver"):
        p = (res.get(side) or {}).get("profile")
        if not p:
            continue
        found = any(f["code"] == "data_copy" and f["side"] == side
                    for f in res.get("diagnosis", []))
        ok(found == (copy(p) >= 25), "3. %s, %s: data_copy %s with a "
           "copy share of %.1f %%" % (name, side, "found" if found else
                                      "not found", copy(p)))
text = open(os.path.join(d, "text.out")).read()
ok(all(s in text for s in ("gigebench-t: profile top:",
                           "gigebench-r: profile top:",
                           "gigebench-t: profile cost:",
                           "gigebench-r: profile cpu")),
   "3. the text report's profile lines on both sides")
ev = re.findall(r"^gigebench-[tr]: profile event: (\S+)(.*)$", text, re.M)
ok(len(ev) == 2 and all(e in ("cycles", "cpu-clock") and
                        (("charged to the function that enables them "
                          "again" in rest) == (e == "cpu-clock"))
                        for e, rest in ev),
   "3. one event line each side: %s" % ", ".join(e for e, _ in ev))
try:
    rows = list(csv.DictReader(open(os.path.join(d, "t.csv"))))
    row = rows[0]
    vals = [row.get(k, "") for k in ("tx_profile_copy_pct",
                                     "rx_profile_copy_pct",
                                     "rx_profile_top",
                                     "rx_profile_top_pct")]
    ok(all(v != "" for v in vals), "6. the CSV's profile columns (%s)" %
       ", ".join(vals))
except (OSError, IndexError) as e:
    ok(False, "6. the CSV's profile columns: %s" % e)
rc, doc = load("refused")
r = doc.get("result", {})
rv = r.get("receiver") or {}
ok(rc == "0" and rv.get("profile") is None and
   "--allow-profile" in (rv.get("profile_missing") or "") and
   (r.get("sender") or {}).get("profile"),
   "4. a listener without --allow-profile: exit %s, its profile null: %s" %
   (rc, rv.get("profile_missing")))
rc, doc = load("paranoid")
r = doc.get("result", {})
why = [(r.get(s) or {}).get("profile_missing") or "" for s in
       ("sender", "receiver")]
ok(rc == "0" and all("perf_event_paranoid" in w for w in why) and
   all((r.get(s) or {}).get("profile") is None
       for s in ("sender", "receiver")),
   "5. not root, perf_event_paranoid 3: exit %s, null with the reason (%s)"
   % (rc, why[0]))
rc, doc = load("sweep")
pts = doc.get("points", [])
ok(rc == "0" and len(pts) == 2 and all(
    (p.get("copy_tx") or {}).get("n") == 1 and
    (p.get("copy_rx") or {}).get("n") == 1 for p in pts),
   "6. a sweep's points have copy_tx and copy_rx (exit %s)" % rc)
st = open(os.path.join(d, "sweeptext.out")).read()
ok("copy%TX" in st and "copy%RX" in st, "6. and its table the copy "
   "columns")
EOF
tally "$tmp/judge.out"
finish
