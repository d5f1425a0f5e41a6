#!/usr/bin/env python3
"""bench/underload.py: latency under load (issue 33), gigebench
--under-load against irtt's UDP probes and iperf 2's --bounceback, on the
bloated bed of tests/underload_netns.sh (root).

    python3 bench/underload.py [--rounds 3] [--seconds 5] [--limit 1mb]
        [--json FILE]

The bed: three namespaces A - R - B, R forwarding (198.18.1.0/24,
198.18.2.0/24), tbf rate 100mbit burst 32kb limit LIMIT on both of R's
egresses; made for the run, removed after (also on failure or ^C).

Cases, each round in a different order:
  upload  gigebench --under-load --phases upload -P 4 -C cubic: its TCP
          probes, idle and beside the load; the same with --probe-rate
          100 (gigebench-udp: UDP probes every 10 ms, as irtt's below);
          irtt (UDP, one packet every 10 ms) beside the same load
          (gigebench -t -P 4 -C cubic), from 3 s into it for -T s, and
          alone for the idle figure;
  both    gigebench --under-load --phases both -P 4 -C cubic (4 flows
          each way);
          iperf 2 --bounceback --bounceback-congest -Z cubic -i 1 (its
          one full-duplex TCP flow as the working load, its default
          bursts of ten 100-byte bouncebacks a second), the seconds
          after the first 3 (the ramp, as gigebench's --omit).
The table: the medians over the rounds of each tool's idle and loaded
latency (P50, P90 and P99 where the tool gives them: irtt's from its
round trips; iperf 2 prints a mean a second, so its "P50" column is
the count-weighted mean of those) and the added delay.  Nothing is asserted: it is a measurement
(bench/README.md).
"""
import argparse
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GB = os.environ.get("GIGEBENCH", os.path.join(HERE, "..", "build",
                                              "gigebench"))
TAG = "gbu%d" % os.getpid()
NA, NR, NB = TAG + "a", TAG + "r", TAG + "b"
ADDR_B = "198.18.2.1"


def sh(*cmd, **kw):
    return subprocess.run(list(cmd), check=True, **kw)


def bed_up(limit):
    for n in (NA, NR, NB):
        sh("ip", "netns", "add", n)
        sh("ip", "-n", n, "link", "set", "lo", "up")
    sh("ip", "-n", NA, "link", "add", "va", "type", "veth", "peer", "name",
       "ra", "netns", NR)
    sh("ip", "-n", NB, "link", "add", "vb", "type", "veth", "peer", "name",
       "rb", "netns", NR)
    for ns, dev, addr in ((NA, "va", "198.18.1.1/24"),
                          (NR, "ra", "198.18.1.2/24"),
                          (NR, "rb", "198.18.2.2/24"),
                          (NB, "vb", ADDR_B + "/24")):
        sh("ip", "-n", ns, "addr", "add", addr, "dev", dev)
        sh("ip", "-n", ns, "link", "set", dev, "up")
    sh("ip", "-n", NA, "route", "add", "default", "via", "198.18.1.2")
    sh("ip", "-n", NB, "route", "add", "default", "via", "198.18.2.2")
    sh("ip", "netns", "exec", NR, "sysctl", "-qw", "net.ipv4.ip_forward=1")
    for dev in ("ra", "rb"):
        sh("tc", "-n", NR, "qdisc", "add", "dev", dev, "root", "tbf",
           "rate", "100mbit", "burst", "32kb", "limit", limit)


def bed_down():
    for n in (NA, NR, NB):
        pids = subprocess.run(["ip", "netns", "pids", n], capture_output=True,
                              text=True).stdout.split()
        for p in pids:
            try:
                os.kill(int(p), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
        subprocess.run(["ip", "netns", "del", n], stderr=subprocess.DEVNULL)


def in_ns(ns, cmd):
    return ["ip", "netns", "exec", ns] + cmd


def pct(v, p):
    v = sorted(v)
    if not v:
        return None
    k = max(0, min(len(v) - 1, int(round(p / 100.0 * len(v) + 0.5)) - 1))
    return v[k]


def gigebench(phase, seconds, extra=()):
    out = subprocess.run(in_ns(NA, [GB, "-t", ADDR_B, "-p", "5400",
                                    "--under-load", "--phases", phase,
                                    "-P", "4", "-C", "cubic", "-T",
                                    str(seconds), "--json"] + list(extra)),
                         capture_output=True, text=True, timeout=120)
    ph = json.loads(out.stdout)["under_load"]["phases"][0]
    if not ph["ok"]:
        raise RuntimeError(ph["error"])
    i, l = ph["idle"], ph["loaded"]
    return {"idle_p50": i["p50_ms"], "p50": l["p50_ms"],
            "p90": l["p90_ms"], "p99": l["p99_ms"],
            "n": l["count"], "load_mbps": ph["load_mbps"]}


def irtt_rtts(seconds, tmp):
    path = os.path.join(tmp, "irtt.json")
    subprocess.run(in_ns(NA, ["irtt", "client", "-Q", "-i", "10ms", "-d",
                              "%ds" % seconds, "-o", path, ADDR_B]),
                   check=True, timeout=seconds + 30)
    with open(path) as f:
        d = json.load(f)
    return [rt["delay"]["rtt"] / 1e6 for rt in d["round_trips"]
            if "delay" in rt and "rtt" in rt["delay"]]


def irtt(seconds, tmp):
    idle = irtt_rtts(2, tmp)
    load = subprocess.Popen(in_ns(NA, [GB, "-t", ADDR_B, "-p", "5400",
                                       "-P", "4", "-C", "cubic", "-T",
                                       str(seconds + 4), "-q"]),
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(3)
    try:
        rtts = irtt_rtts(seconds, tmp)
    finally:
        load.wait(timeout=seconds + 30)
    return {"idle_p50": pct(idle, 50), "p50": pct(rtts, 50),
            "p90": pct(rtts, 90), "p99": pct(rtts, 99), "n": len(rtts),
            "load_mbps": None}


BB = re.compile(r"\]\s+([\d.]+)-([\d.]+) sec\s+\S+\s+\S+Bytes\s+\S+\s+"
                r"\S+bits/sec\s+(\d+)=([\d.]+)/([\d.]+)/([\d.]+)/([\d.]+) ms")


def iperf2_once(seconds, congest, skip):
    """iperf 2's bouncebacks (its default: bursts of 10 a second), -i 1:
    the count-weighted mean of the seconds from skip on."""
    cmd = ["iperf", "-c", ADDR_B, "-p", "5402", "--bounceback", "-Z",
           "cubic", "-i", "1", "-t", str(seconds)]
    if congest:
        cmd.append("--bounceback-congest")
    res = subprocess.run(in_ns(NA, cmd), capture_output=True, text=True,
                         timeout=seconds + 30)
    out = res.stdout + res.stderr
    n = tot = 0
    for m in BB.finditer(out):
        t0, t1 = float(m.group(1)), float(m.group(2))
        if t1 - t0 > 1.5 or t0 < skip:
            continue	# the whole test's line, or the ramp
        n += int(m.group(3))
        tot += int(m.group(3)) * float(m.group(4))
    if n == 0:
        raise RuntimeError("iperf 2 printed no bounceback line (exit %d): "
                           % res.returncode + out[-300:])
    return n, tot / n


def iperf2_retry(seconds, congest, skip):
    """A listener of its own each time: iperf 2.1.8's, serving one test
    after another here, now and then failed the second (the client
    reports "port 0" and nothing more); and once more after 1 s."""
    for attempt in (0, 1):
        srv = subprocess.Popen(in_ns(NB, ["iperf", "-s", "-p", "5402"]),
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        time.sleep(1.5)
        try:
            return iperf2_once(seconds, congest, skip)
        except RuntimeError:
            if attempt == 1:
                raise
            time.sleep(1)
        finally:
            srv.kill()
            srv.wait()


def iperf2(seconds):
    """Its own working load (--bounceback-congest, one full-duplex TCP
    flow), 3 s to ramp as gigebench's --omit, then seconds."""
    _, idle = iperf2_retry(2, False, 0)
    time.sleep(1)
    n, avg = iperf2_retry(seconds + 3, True, 3)
    return {"idle_p50": idle, "p50": avg, "p90": None, "p99": None,
            "n": n, "load_mbps": None, "mean_not_p50": True}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--limit", default="1mb")
    ap.add_argument("--json")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("bench/underload.py: needs root (network namespaces)",
              file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    runs = {}
    tmp = tempfile.mkdtemp()
    procs = []
    try:
        bed_up(a.limit)
        procs.append(subprocess.Popen(in_ns(NB, [GB, "-S", "-p", "5400",
                                                 "--allow-reverse", "-q"]),
                                      stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        procs.append(subprocess.Popen(in_ns(NB, ["irtt", "server", "-b",
                                                 ADDR_B + ":2112"]),
                                      stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        time.sleep(1)
        cases = [("upload", "gigebench", lambda: gigebench("upload",
                                                           a.seconds)),
                 ("upload", "gigebench-udp", lambda: gigebench(
                     "upload", a.seconds, ("--probe-rate", "100"))),
                 ("upload", "irtt", lambda: irtt(a.seconds, tmp)),
                 ("both", "gigebench", lambda: gigebench("both", a.seconds)),
                 ("both", "iperf2", lambda: iperf2(a.seconds))]
        for r in range(a.rounds):
            random.shuffle(cases)
            for case, tool, fn in cases:
                try:
                    res = fn()
                except (RuntimeError, subprocess.SubprocessError,
                        ValueError, KeyError) as e:
                    res = {"error": str(e)[:300]}
                runs.setdefault((case, tool), []).append(res)
                print("# round %d %s %s: %s" % (r + 1, case, tool, res),
                      flush=True)
    finally:
        for p in procs:
            p.kill()
        bed_down()
    print("%-7s %-13s %6s %9s %9s %9s %9s %9s" % (
        "case", "tool", "rounds", "idle P50", "P50", "P90", "P99", "added"))
    table = []
    for (case, tool), rs in sorted(runs.items()):
        ok = [x for x in rs if "error" not in x]

        def med(k):
            v = [x[k] for x in ok if x.get(k) is not None]
            return statistics.median(v) if v else None
        row = {"case": case, "tool": tool, "rounds": len(ok)}
        for k in ("idle_p50", "p50", "p90", "p99"):
            row[k] = med(k)
        row["added"] = (row["p50"] - row["idle_p50"]
                        if row["p50"] is not None and
                        row["idle_p50"] is not None else None)
        table.append(row)
        f = lambda v: "%9.3f" % v if v is not None else "%9s" % "-"
        print("%-7s %-13s %6d %s %s %s %s %s" % (
            case, tool, len(ok), f(row["idle_p50"]), f(row["p50"]),
            f(row["p90"]), f(row["p99"]), f(row["added"])))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"limit": a.limit, "seconds": a.seconds,
                       "rounds": a.rounds, "table": table,
                       "runs": {"%s/%s" % k: v for k, v in runs.items()}},
                      f, indent=1)
    return 0 if all("error" not in x for rs in runs.values()
                    for x in rs) else 1


if __name__ == "__main__":
    sys.exit(main())
