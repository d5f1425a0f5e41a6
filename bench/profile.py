#!/usr/bin/env python3
"""bench/profile.py - what --profile costs: gigebench's throughput over
loopback with and without --profile, in interleaved rounds (the order
alternates each round, so that load from elsewhere on the shared machine
falls on both alike), the medians and their ratio.  Not a test: the
figures and what they mean are in bench/README.md ("--profile").

    python3 bench/profile.py                   # 7 rounds of 5 s, 1 stream
    python3 bench/profile.py --rounds 9 --seconds 10 --streams 2
    python3 bench/profile.py --json profile.json

Root (the profile samples every CPU).  Each run is a fresh listener
(-1 --allow-profile) and a client -t 127.0.0.1 -T SECONDS -J; from the
runs with --profile it also reports the sampling's own cost as both ends
measured it: the records handled a second and the sampling thread's CPU
as a share of one CPU.

Exit status 0 when every run worked, 1 when one did not (the table still
prints).
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_run(gb, seconds, streams, profile):
    """The client's --json document of one test, or None."""
    port = free_port()
    lst = subprocess.Popen([gb, "-S", "-1", "-q", "-p", str(port),
                            "--allow-profile"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        # Waited for with ss: a probe's connection would be a client.
        t0 = time.monotonic()
        while time.monotonic() - t0 < 5:
            out = subprocess.run(["ss", "-Htln", "sport = :%d" % port],
                                 capture_output=True, text=True).stdout
            if out.strip():
                break
            time.sleep(0.05)
        cmd = [gb, "-t", "127.0.0.1", "-p", str(port), "-T", str(seconds),
               "-P", str(streams), "--no-progress", "-J"]
        if profile:
            cmd.append("--profile")
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=seconds + 60)
        if r.returncode != 0:
            sys.stderr.write("run failed (exit %d): %s\n" %
                             (r.returncode, r.stderr.strip()[:300]))
            return None
        return json.loads(r.stdout)
    finally:
        try:
            lst.wait(timeout=10)
        except subprocess.TimeoutExpired:
            lst.kill()
            lst.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--streams", type=int, default=1)
    ap.add_argument("--gigebench",
                    default=os.path.join(TOP, "build", "gigebench"))
    ap.add_argument("--json", help="write every run's figures here")
    a = ap.parse_args()
    if os.geteuid() != 0:
        print("bench/profile.py: --profile samples every CPU: run as root",
              file=sys.stderr)
        return 1
    runs = {False: [], True: []}
    cost = []
    ok = True
    for k in range(a.rounds):
        for profile in ((False, True) if k % 2 == 0 else (True, False)):
            doc = one_run(a.gigebench, a.seconds, a.streams, profile)
            if doc is None:
                ok = False
                continue
            res = doc["result"]
            runs[profile].append(res["mbps"])
            if profile:
                for side in ("sender", "receiver"):
                    p = (res.get(side) or {}).get("profile")
                    if p is None:
                        ok = False
                        continue
                    cost.append((p["cost"]["handled_per_s"],
                                 p["cost"]["cpu_pct"], p["lost"],
                                 p["event"]))
            print("round %d %s: %.0f Mbps" % (k + 1, "--profile" if profile
                                              else "plain    ", res["mbps"]),
                  flush=True)
    if not runs[False] or not runs[True]:
        return 1
    plain = statistics.median(runs[False])
    prof = statistics.median(runs[True])
    print()
    print("%-22s %10s %10s %10s" % ("", "median", "min", "max"))
    for name, v in (("without --profile", runs[False]),
                    ("with --profile", runs[True])):
        print("%-22s %10.0f %10.0f %10.0f Mbps (%d runs)" %
              (name, statistics.median(v), min(v), max(v), len(v)))
    print("ratio with / without: %.3f" % (prof / plain))
    if cost:
        print("sampling (%s, both ends): %.0f records/s handled, the "
              "thread %.2f %% of a CPU, %d lost (medians)" %
              (cost[0][3], statistics.median(c[0] for c in cost),
               statistics.median(c[1] for c in cost),
               statistics.median(c[2] for c in cost)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"plain_mbps": runs[False], "profile_mbps":
                       runs[True], "cost": cost}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
