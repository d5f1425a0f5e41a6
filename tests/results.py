#!/usr/bin/env python3
"""results.py: what a result says of itself (issue 17), over loopback,
against real listeners:

  provenance  --json of both ends: the version, UTC start and end (ISO
              8601 with microseconds, start <= end, within the test's
              wall-clock time), both hosts' names and kernels (as uname
              gives them), the control and data connections' ends (the
              listener's as the client's, mirrored), the command line,
              --title, and the peer's version.
  header      the params line comes first, before the first interval
              line; a count test (-n) shows nbuf= and no duration=, a
              timed one duration= and no nbuf=; whole megabytes print
              without decimals; the title ends the summary line; the
              receiver's cwnd and MSS are labelled as the reverse
              direction's; each end's socket buffers, initial and final
              (and in JSON the peak: the receiver's autotuned one grows).
  timestamps  --timestamps: every line on stdout starts with the time,
              in the default format and in one given.
  csv         --csv of a single test: time_utc, peer and title columns.
  too short   a 20-buffer test's diagnosis is the one "too_short"
              finding.
  interrupt   SIGINT in the middle of a -T 20 -i 0.5 test: exit 1 within
              2 s, the report of what ran marked "(interrupted)" with its
              interval lines; and with --json, one valid document whose
              provenance.interrupted is true, with the intervals so far.
  listener    at default verbosity (`gigebench -r`, no -v): one line with
              its address, port and limits; each test's params line as it
              starts, then its report; three HTTP probes from one source
              give one line (the rest are counted into the next, a minute
              later: tests/test_pending.c).  With -q: nothing for a good
              test or a probe, and still the error of a client gone
              mid-test.
  bind        (root) --cport P -P 2 binds the data connections to P and
              P + 1, with --bind-dev lo on both ends.
  intervals   -i 0.5 with both ends: each --json interval has this end's
              figures and the listener's slice of the same index as
              "peer"; the sender's TCP_INFO (retransmits, cwnd, RTT,
              rwnd/sndbuf-limited shares) wherever the sender is (the
              client's own slices when it sends, the peer's when it
              receives, -r); both ends' host CPU; the slices add up to
              each end's bytes; the text lines carry the other end's
              rate, the TCP state and both ends' host CPU; the listener's
              own lines its end's alone.
  omit        --omit 1 -T 1 -i 0.5: two slices marked omitted and two
              measured, from 0 again; the figures are of the measured
              second only (its seconds, its slices' bytes, the sender's
              retransmits as its slices have them); the params line and
              --json say omit; a listener whose --max-duration the two
              pass refuses the test (exit 3) and says --omit.
  progress    stderr on a terminal (a pty): the progress line, redrawn
              in place once a second (elapsed/total, Mbps, MB) and wiped
              at the end; none with --no-progress, -i, -J, or a stderr
              that is a pipe.
  json-stream --json-stream: every line one valid JSON object; first the
              start event (provenance, params), then one interval event
              for each slice, read while the test runs (the first before
              the test ends), last the end event whose report is the
              --json document with the same slices (the last may have
              grown by the test's last moment); a failed test's last
              line is an error event; a sweep is refused (exit 2).
  spread      a replayed host (GIGEBENCH_PROCFS/SYSFS: host-pile, 8
              queues on 8 CPUs, swapped from its before to its after
              files during a -P 4 test): the sender's spread has its 8
              CPUs (cpu3 98 % busy, 71 % softirq), its queues and each
              line's share and top CPU; irq_pile and cpu_softirq_bound
              say so; the listener's spread is its own host's, none of
              those findings on its loopback.

    GIGEBENCH=build/gigebench python3 tests/results.py

About 20 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import csv
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402
from gbpeer import check  # noqa: E402

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ")


def iso(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def ends(e):
    return e.get("local"), e.get("remote")


def case_provenance(tmp):
    lst = gbpeer.Listener(tmp, "-v", "-J", out=True)
    t0 = time.time()
    try:
        r = gbpeer.client(lst.port, "-T", "0.5", "-P", "2", "-l", "64K",
                          "--title", "lab A, run 1", "-J")
        t1 = time.time()
        time.sleep(0.3)
    finally:
        lst.stop()
    if not check("provenance: the client's test runs", r.rc == 0, r.why()):
        return
    doc = json.loads(r.out)
    p = doc.get("provenance", {})
    uname = os.uname()
    check("provenance: version and revision",
          p.get("version") == "0.1.0" and "revision" in p, str(p))
    good_times = (ISO.match(p.get("start") or "") is not None and
                  ISO.match(p.get("end") or "") is not None)
    check("provenance: UTC start and end, ISO 8601 with microseconds",
          good_times, "%s %s" % (p.get("start"), p.get("end")))
    if good_times:
        s, e = iso(p["start"]), iso(p["end"])
        check("provenance: start <= end, within the run's wall clock, "
              "and 0.5 s apart", t0 - 1 <= s <= e <= t1 + 1 and
              0.4 <= e - s <= 1.5, "%.3f %.3f (%.3f-%.3f)" % (s, e, t0, t1))
    check("provenance: both hosts named, with their kernels",
          p.get("host", {}).get("hostname") == uname.nodename and
          p.get("peer_host", {}).get("hostname") == uname.nodename and
          p.get("host", {}).get("kernel") == uname.release and
          p.get("peer_host", {}).get("kernel") == uname.release,
          json.dumps([p.get("host"), p.get("peer_host")]))
    check("provenance: the peer's version",
          (p.get("peer_host", {}).get("version") or "").startswith("0.1.0"),
          str(p.get("peer_host")))
    check("provenance: --title and the command line",
          p.get("title") == "lab A, run 1" and
          "--title 'lab A, run 1'" in (p.get("command") or "") and
          (p.get("command") or "").endswith("-J"), str(p.get("command")))
    cl, cr = ends(p.get("control", {}))
    check("provenance: the control connection's ends",
          cl is not None and cl.startswith("127.0.0.1:") and
          cr == "127.0.0.1:%d" % lst.port, "%s %s" % (cl, cr))
    data = p.get("data", [])
    check("provenance: two data connections, each its own local port",
          len(data) == 2 and all(d.get("remote") == "127.0.0.1:%d" %
                                 lst.port for d in data) and
          len({d.get("local") for d in data}) == 2 and
          cl not in {d.get("local") for d in data}, str(data))
    check("provenance: not interrupted", p.get("interrupted") is False)
    rb = doc.get("result", {}).get("receiver", {}).get("rcvbuf", {})
    sb = doc.get("result", {}).get("sender", {}).get("sndbuf", {})
    check("socket buffers: initial, final and peak of each end, the "
          "autotuned receive buffer grown past its initial size",
          all(isinstance(b.get(k), int) for b in (rb, sb)
              for k in ("actual", "final", "peak")) and
          rb["peak"] >= rb["final"] > rb["actual"] and
          sb["peak"] >= sb["final"], "%s %s" % (rb, sb))
    try:
        with open(lst.out) as f:
            ldoc = json.loads(f.read())
        lp = ldoc.get("provenance", {})
    except (OSError, ValueError) as ex:
        lp = {"error": str(ex)}
    check("provenance: the listener's ends mirror the client's",
          ends(lp.get("control", {})) == (cr, cl) and
          sorted(ends(d) for d in lp.get("data", [])) ==
          sorted(tuple(reversed(ends(d))) for d in data), str(lp)[:300])
    check("provenance: the listener knows the client's version",
          (lp.get("peer_host", {}).get("version") or "").startswith(
              "0.1.0"), str(lp.get("peer_host")))


def lines(text):
    return [l for l in text.splitlines() if l]


def case_header(tmp):
    lst = gbpeer.Listener(tmp, "-v")
    try:
        r = gbpeer.client(lst.port, "-T", "1", "-i", "0.5", "-l", "1M",
                          "--title", "t 2")
        n = gbpeer.client(lst.port, "-n", "64", "-l", "1M")
    finally:
        lst.stop()
    if not check("header: the timed test runs", r.rc == 0, r.why()):
        return
    out = lines(r.out)
    first_iv = next((i for i, l in enumerate(out)
                     if re.match(r"^gigebench-t: +\d+\.\d\d- *\d", l)), None)
    check("header: the params line first, before the intervals",
          out and out[0].startswith("gigebench-t: buflen=1048576") and
          first_iv is not None and first_iv > 0, "\n".join(out[:3]))
    check("header: a timed test says its duration and no nbuf",
          "duration=1.00s" in out[0] and "nbuf=" not in out[0], out[0])
    bufs = [l for l in out if re.match(r"^gigebench-[tr]: sndbuf "
                                        r"requested default, initial \d+, "
                                        r"final \d+", l)]
    check("header: both ends' socket buffers, initial and final",
          len(bufs) == 2 and all("; rcvbuf requested default, initial" in l
                                 for l in bufs), "\n".join(out))
    check("header: this end's params line is printed once",
          sum(1 for l in out if l.startswith("gigebench-t: buflen=")) == 1,
          r.out)
    check("header: the title ends the summary line",
          out[-1].endswith(" [t 2]"), out[-1])
    rx = [l for l in out if l.startswith("gigebench-r: tcp ")]
    check("header: the receiver's cwnd and MSS are labelled as the "
          "reverse direction's", len(rx) == 1 and
          "reverse direction" in rx[0] and "retrans" not in rx[0],
          str(rx))
    if not check("header: the count test runs", n.rc == 0, n.why()):
        return
    nout = lines(n.out)
    check("header: a count test says its count and no duration",
          "nbuf=64" in nout[0] and "duration=" not in nout[0], nout[0])
    check("header: whole megabytes without decimals",
          re.search(r"\(64 MB\), 64 calls$", nout[2] if len(nout) > 2 else
                    "") is not None, "\n".join(nout[:3]))


def case_timestamps(tmp):
    lst = gbpeer.Listener(tmp, "-v")
    try:
        r = gbpeer.client(lst.port, "-T", "0.6", "-i", "0.3",
                          "--timestamps")
        f = gbpeer.client(lst.port, "-T", "0.3", "-q",
                          "--timestamps=[%s]")
    finally:
        lst.stop()
    out = lines(r.out)
    check("timestamps: every line on stdout starts with the time",
          r.rc == 0 and len(out) > 8 and all(STAMP.match(l) for l in out),
          r.why() + "\n" + r.out[:400])
    now = time.time()
    m = re.match(r"^\[(\d+)\] ", f.out)
    check("timestamps: a format of one's own (%s, seconds since the "
          "epoch)", f.rc == 0 and m is not None and
          abs(int(m.group(1)) - now) < 30, f.why() + " " + f.out)


def case_csv(tmp):
    path = os.path.join(tmp, "one.csv")
    lst = gbpeer.Listener(tmp, "-v")
    try:
        r = gbpeer.client(lst.port, "-T", "0.3", "--csv", path,
                          "--title", "csv, \"q\"")
    finally:
        lst.stop()
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        rows = [{"error": str(e)}]
    row = rows[0] if len(rows) == 1 else {}
    check("csv: a single test's row has time_utc, peer and title",
          r.rc == 0 and ISO.match(row.get("time_utc", "")) is not None and
          row.get("peer") == "127.0.0.1" and
          row.get("title") == "csv, \"q\"" and
          row.get("protocol") == "tcp" and
          row.get("direction") == "client_sends", r.why() + str(rows))


def case_too_short(tmp):
    lst = gbpeer.Listener(tmp, "-v")
    try:
        r = gbpeer.client(lst.port, "-n", "20", "-l", "1K", "-J")
    finally:
        lst.stop()
    try:
        diag = json.loads(r.out)["result"]["diagnosis"]
    except (ValueError, KeyError) as e:
        diag = [{"error": str(e)}]
    check("too short: a 20-buffer test is too short to diagnose",
          r.rc == 0 and len(diag) == 1 and diag[0].get("code") ==
          "too_short" and "too short to diagnose" in diag[0].get("text"),
          r.why() + str(diag))


def interrupted(port, *args):
    """A -T 20 -i 0.5 client, SIGINT after 1.3 s: (rc, out, err, secs)."""
    p = subprocess.Popen(gbpeer.client_argv(port, "-T", "20", "-i", "0.5",
                                            "-l", "128K", *args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.3)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return (p.returncode, out.decode(errors="replace"),
            err.decode(errors="replace"), time.monotonic() - t0)


def case_interrupt(tmp):
    lst = gbpeer.Listener(tmp, "-v")
    try:
        rc, out, err, secs = interrupted(lst.port)
        jrc, jout, jerr, jsecs = interrupted(lst.port, "-J")
    finally:
        lst.stop()
    out_l = lines(out)
    ivs = [l for l in out_l if re.match(r"^gigebench-t: +\d+\.\d\d-", l)]
    check("interrupt: SIGINT ends the client within 2 s, exit 1",
          rc == 1 and secs < 2.0, "exit %d after %.2f s: %s" % (rc, secs,
                                                              err))
    check("interrupt: the text report of what ran, marked, with its "
          "intervals", len(ivs) >= 2 and out_l and
          out_l[-1].endswith("(interrupted)") and
          any(re.match(r"^gigebench-t: \d+ bytes in 1\.\d\d real", l)
              for l in out_l), out)
    check("interrupt: stderr says why", "interrupted (SIGINT)" in err, err)
    try:
        doc = json.loads(jout)
    except ValueError as e:
        doc = {"error": "not one JSON document: %s" % e}
    check("interrupt: --json is one document, provenance.interrupted, "
          "the intervals so far, exit 1",
          jrc == 1 and doc.get("provenance", {}).get("interrupted") is True
          and len(doc.get("intervals", [])) >= 2 and
          doc.get("result", {}).get("sender", {}).get("bytes", 0) > 0,
          "exit %d: %s" % (jrc, jout[:300]))


def http_probes(port, n):
    for _ in range(n):
        c = socket.create_connection(("127.0.0.1", port), 2)
        c.sendall(b"GET / HTTP/1.0\r\n\r\n")
        c.recv(100)         # the listener closes it
        c.close()


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def case_listener(tmp):
    lst = gbpeer.Listener(tmp, out=True, probe="ss")
    try:
        r = gbpeer.client(lst.port, "-T", "0.3", "-l", "64K", "-P", "2")
        http_probes(lst.port, 3)
        time.sleep(0.3)
    finally:
        lst.stop()
    err = lines(read(lst.err))
    out = lines(read(lst.out))
    check("listener: at default verbosity, one line with its address, "
          "port and limits", len([l for l in err if "listening on" in l])
          == 1 and err and re.match(r"^gigebench: listening on "
                                    r"(\[::\]|0\.0\.0\.0):%d " % lst.port,
                                    err[0]) is not None and
          "--max-duration 300 s" in err[0] and "--max-flows 1024" in err[0],
          "\n".join(err[:3]))
    check("listener: the test's line as it starts (peer, direction, "
          "protocol, streams, length, duration), then its report",
          r.rc == 0 and out and out[0].startswith(
              "gigebench-r: buflen=65536 streams=2 duration=0.30s") and
          out[0].endswith("tcp <- 127.0.0.1") and
          any(l.startswith("gigebench-t: buflen=65536") and
              "reported by" in l for l in out[1:]) and
          re.match(r"^ *\d+(\.\d+)? MB / ", out[-1]) is not None,
          r.why() + "\n" + "\n".join(out[:4]))
    foreign = [l for l in err if "not gigebench" in l]
    check("listener: three HTTP probes from one source in a minute give "
          "one line", len(foreign) == 1 and "HTTP" in foreign[0],
          "\n".join(err))
    q = gbpeer.Listener(tmp, "-q", out=True, probe="ss")
    try:
        r = gbpeer.client(q.port, "-T", "0.3", "-l", "64K")
        http_probes(q.port, 2)
        rc, _, _, _ = interrupted(q.port)
        time.sleep(0.5)
    finally:
        q.stop()
    qerr, qout = read(q.err), read(q.out)
    check("listener: -q prints nothing for a good test or a probe",
          r.rc == 0 and qout == "" and "listening" not in qerr and
          "not gigebench" not in qerr, r.why() + " out=%r err=%r" % (
              qout[:200], qerr[:300]))
    check("listener: -q still prints errors (a client gone mid-test)",
          rc == 1 and len(lines(qerr)) >= 1 and
          qerr.startswith("gigebench: 127.0.0.1: "), repr(qerr[:300]))


def case_bind(tmp):
    if os.geteuid() != 0:
        print("# SKIP bind: --bind-dev needs root (SO_BINDTODEVICE)")
        return
    port = gbpeer.free_port()
    lst = gbpeer.Listener(tmp, "--bind-dev", "lo", probe="ss")
    try:
        r = gbpeer.client(lst.port, "-T", "0.3", "-P", "2", "--cport",
                          str(port), "--bind-dev", "lo", "-J")
    finally:
        lst.stop()
    try:
        data = json.loads(r.out)["provenance"]["data"]
    except (ValueError, KeyError) as e:
        data = [{"error": str(e)}]
    check("bind: --cport P binds stream i to P + i, --bind-dev lo on both "
          "ends", r.rc == 0 and [d.get("local") for d in data] ==
          ["127.0.0.1:%d" % port, "127.0.0.1:%d" % (port + 1)],
          r.why() + str(data))


def iv_slices(doc):
    return doc.get("intervals") or []


def case_intervals(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", out=True, probe="ss")
    try:
        j = gbpeer.client(lst.port, "-T", "2", "-i", "0.5", "-J")
        t = gbpeer.client(lst.port, "-T", "1", "-i", "0.5")
        p = subprocess.run([gbpeer.GB, "-r", gbpeer.HOST, "-p",
                            str(lst.port), "-T", "1", "-i", "0.5", "-J"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=20)
    finally:
        lst.stop()
    if not check("intervals: the tests run", j.rc == 0 and t.rc == 0 and
                 p.returncode == 0, j.why() + t.why() + p.stderr.decode()):
        return
    doc = json.loads(j.out)
    ivs = iv_slices(doc)
    peers = [iv.get("peer") for iv in ivs]
    check("intervals: four slices, each with the listener's of the same "
          "index", len(ivs) == 4 and all(isinstance(x, dict) for x in peers)
          and all(abs(x["start"] - iv["start"]) < 0.1 for x, iv in
                  zip(peers, ivs)), json.dumps(ivs)[:600])
    tcp = [iv.get("tcp") for iv in ivs]
    check("intervals: the sending client's TCP_INFO by slice (cwnd and "
          "RTT set, limited shares within 0-100 %)",
          all(isinstance(x, dict) and x["cwnd"] > 0 and x["rtt_us"] > 0 and
              x["retransmits"] >= 0 and
              0 <= x["rwnd_limited_pct"] <= 100 and
              0 <= x["sndbuf_limited_pct"] <= 100 for x in tcp) and
          all(x.get("tcp") is None for x in peers if x), str(tcp))
    check("intervals: both ends' host CPU by slice",
          all(isinstance(iv.get("host_cpu"), dict) and
              isinstance(x.get("host_cpu"), dict) and
              0 <= x["host_cpu"]["busy_pct"] <= 100 for iv, x in
              zip(ivs, peers) if x), json.dumps(ivs)[:600])
    res = doc["result"]
    check("intervals: each end's slices add up to its bytes",
          sum(iv["bytes"] for iv in ivs) == res["sender"]["bytes"] and
          abs(sum(x["bytes"] for x in peers if x) -
              res["receiver"]["bytes"]) <= res["receiver"]["bytes"] / 20,
          "%d/%d %d/%d" % (sum(iv["bytes"] for iv in ivs),
                           res["sender"]["bytes"],
                           sum(x["bytes"] for x in peers if x),
                           res["receiver"]["bytes"]))
    ivl = [l for l in lines(t.out)
           if re.match(r"^gigebench-t: +\d+\.\d\d- *\d", l)]
    pat = re.compile(r" MB +[\d.]+ Mbps  RX +[\d.]+ Mbps +\d+ retrans +\d+ "
                     r"cwnd +[\d.]+ msRTT +\d+ %rwnd-lim +\d+ %sndbuf-lim  "
                     r"host \d+/\d+ %TX \d+/\d+ %RX$")
    check("intervals: each text line has the receiver's rate, the TCP "
          "state and both ends' host CPU",
          len(ivl) == 2 and all(pat.search(l) for l in ivl), "\n".join(ivl))
    out = lines(read(lst.out))
    own = [l for l in out if re.match(r"^gigebench-r: +\d+\.\d\d- *\d", l)]
    check("intervals: the listener's own lines have its end alone",
          len(own) >= 4 and all(re.search(r"Mbps  host \d+/\d+ %RX$", l)
                                for l in own), "\n".join(own[:4]))
    rdoc = json.loads(p.stdout.decode())
    rivs = iv_slices(rdoc)
    check("intervals: a receiving client's slices carry the listener's "
          "TCP_INFO as the peer's, none of its own",
          len(rivs) == 2 and all(iv.get("tcp") is None and
                                 isinstance(iv.get("peer"), dict) and
                                 isinstance(iv["peer"].get("tcp"), dict) and
                                 iv["peer"]["tcp"]["cwnd"] > 0
                                 for iv in rivs), json.dumps(rivs)[:600])


def case_omit(tmp):
    lst = gbpeer.Listener(tmp, out=True, probe="ss")
    try:
        j = gbpeer.client(lst.port, "-T", "1", "--omit", "1", "-i", "0.5",
                          "-J")
        t = gbpeer.client(lst.port, "-T", "1", "--omit", "0.5", "-i",
                          "0.5")
    finally:
        lst.stop()
    if not check("omit: the tests run", j.rc == 0 and t.rc == 0,
                 j.why() + t.why()):
        return
    doc = json.loads(j.out)
    ivs = iv_slices(doc)
    om = [iv for iv in ivs if iv.get("omitted")]
    me = [iv for iv in ivs if iv.get("omitted") is False]
    check("omit: two slices omitted, two measured from 0 again",
          len(om) == 2 and len(me) == 2 and om[0]["start"] == 0 and
          abs(om[1]["end"] - 1.0) < 0.05 and me[0]["start"] == 0 and
          all(iv["peer"] and iv["peer"]["omitted"] == iv["omitted"]
              for iv in ivs), json.dumps(ivs)[:800])
    snd = doc["result"]["sender"]
    check("omit: the figures are the measured second's",
          0.95 < snd["seconds"] < 1.2 and
          sum(iv["bytes"] for iv in me) == snd["bytes"] and
          snd["tcp"]["retransmits"] ==
          sum(iv["tcp"]["retransmits"] for iv in me),
          "seconds %s bytes %s slices %s retrans %s/%s" % (
              snd["seconds"], snd["bytes"], [iv["bytes"] for iv in me],
              snd["tcp"]["retransmits"],
              [iv["tcp"]["retransmits"] for iv in me]))
    check("omit: --json's params say it", doc["params"].get("omit_s") == 1,
          str(doc["params"].get("omit_s")))
    out = lines(t.out)
    ivl = [l for l in out if re.match(r"^gigebench-t: +\d+\.\d\d- *\d", l)]
    check("omit: the params line says it; the omitted line is marked",
          "duration=1.00s omit=0.50s " in out[0] and len(ivl) == 3 and
          ivl[0].endswith(" (omitted)") and
          not any(l.endswith("(omitted)") for l in ivl[1:]),
          "\n".join(out[:4]))
    lim = gbpeer.Listener(tmp, "--max-duration", "1", probe="ss")
    try:
        r = gbpeer.client(lim.port, "-T", "1", "--omit", "0.5")
    finally:
        lim.stop()
    check("omit: a listener counts it against --max-duration",
          r.rc == 3 and "1.5 s with --omit" in r.err, r.why())


def on_pty(port, *args):
    """A client with its stderr on a pty: (exit status, what the pty got,
    stdout)."""
    import pty
    import select
    m, sl = pty.openpty()
    p = subprocess.Popen(gbpeer.client_argv(port, *args),
                         stdout=subprocess.PIPE, stderr=sl)
    os.close(sl)
    got = b""
    while True:
        r, _, _ = select.select([m], [], [], 10)
        if not r:
            break
        try:
            d = os.read(m, 4096)
        except OSError:
            break
        if not d:
            break
        got += d
    os.close(m)
    out = p.stdout.read().decode(errors="replace")
    p.stdout.close()
    return p.wait(), got.decode(errors="replace"), out


def case_progress(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        rc, tty, out = on_pty(lst.port, "-T", "2.2")
        nrc, ntty, _ = on_pty(lst.port, "-T", "1.2", "--no-progress")
        irc, itty, _ = on_pty(lst.port, "-T", "1.2", "-i", "0.5")
        jrc, jtty, _ = on_pty(lst.port, "-T", "1.2", "-J")
        p = gbpeer.client(lst.port, "-T", "1.2")
    finally:
        lst.stop()
    draws = re.findall(r"\rgigebench: (\d+:\d\d)/0:02 elapsed, [\d.]+ Mbps "
                       r"now, [\d.]+ MB   ", tty)
    check("progress: on a terminal, redrawn in place each second",
          rc == 0 and draws[:2] == ["0:01", "0:02"], repr(tty[:300]))
    check("progress: wiped at the end, the report on stdout",
          re.search(r"\r {20,}\r$", tty) is not None and
          "gigebench" not in tty.rsplit("\r", 2)[-2] and
          re.search(r" Mbps .* irq/pkt-RX$", out.strip()) is not None,
          repr(tty[-120:]))
    check("progress: none with --no-progress, -i or -J",
          nrc == 0 and irc == 0 and jrc == 0 and
          "elapsed" not in ntty + itty + jtty,
          repr((ntty + itty + jtty)[:300]))
    check("progress: none when stderr is not a terminal",
          p.rc == 0 and "elapsed" not in p.err, repr(p.err[:200]))


def replay_swap(host, after):
    """Moves the replayed host from its before tree to its after tree in
    one rename, as the test runs: what the next reading sees."""
    os.rename(host, host + ".before")
    os.rename(after, host)


def case_spread(tmp):
    fix = os.path.join(gbpeer.TOP, "tests", "fixtures")
    host, after = os.path.join(tmp, "pile"), os.path.join(tmp, "pile.after")
    shutil.copytree(os.path.join(fix, "host-pile-before"), host,
                    symlinks=True)
    shutil.copytree(os.path.join(fix, "host-pile-after"), after,
                    symlinks=True)
    env = dict(os.environ, GIGEBENCH_PROCFS=os.path.join(host, "proc"),
               GIGEBENCH_SYSFS=os.path.join(host, "sys"))
    lst = gbpeer.Listener(tmp, "-v")
    try:
        p = subprocess.Popen(gbpeer.client_argv(lst.port, "-T", "2", "-P",
                                                "4", "-I", "eth0", "-J"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env)
        for _ in range(50):
            if "test started" in lst.log():
                break
            time.sleep(0.1)
        time.sleep(0.5)    # inside the 2 s test, after its first reading
        replay_swap(host, after)
        out, err = p.communicate(timeout=20)
    finally:
        lst.stop()
    why = "exit %d: %s" % (p.returncode, err.decode(errors="replace"))
    try:
        r = json.loads(out)["result"]
        snd, rcv = r["sender"], r["receiver"]
        sp = snd["spread"]
        top = [line for line in sp["lines"] if line["name"] == "134"]
        hot = [c for c in sp["per_cpu"] if c["cpu"] == 3]
        codes = {(f["side"], f["code"]): f["text"] for f in r["diagnosis"]}
    except (ValueError, KeyError, TypeError) as e:
        check("spread: a replayed 8-queue host's test", False,
              why + " " + str(e))
        return
    check("spread: the replayed host's 8 CPUs and 8 + 8 queues",
          sp["ncpus"] == 8 and len(sp["per_cpu"]) == 8 and
          sp["rx_queues"] == 8 and sp["tx_queues"] == 8, str(sp)[:300])
    check("spread: cpu3 98 % busy, 71 % softirq, 455000 NET_RX",
          hot and round(hot[0]["busy_pct"], 6) == 98.0 and
          round(hot[0]["softirq_pct"], 6) == 71.0 and
          hot[0]["net_rx"] == 455000, str(hot))
    check("spread: eth0-TxRx-3 (IRQ 134) took 92 % of the interrupts, on "
          "cpu3", len(sp["lines"]) == 9 and top and
          abs(top[0]["share_pct"] - 100.0 * 460000 / 500001) < 1e-9 and
          top[0]["top_cpu"] == 3, str(sp["lines"])[:300])
    check("spread: the listener's own host's, carried in its result",
          rcv["spread"] is not None and rcv["spread"]["lines"] == [] and
          rcv["spread"]["ncpus"] >= 1, str(rcv.get("spread"))[:300])
    check("spread: irq_pile names the queue, its share and the streams",
          codes.get(("sender", "irq_pile")) == "1 of 8 queue lines took "
          "92 % of eth0's interrupts (eth0-TxRx-3, IRQ 134, on cpu3) with "
          "-P 4: the flows hashed to one queue", str(codes))
    check("spread: cpu_softirq_bound names cpu3 and the host's 20 %",
          (codes.get(("sender", "cpu_softirq_bound")) or "").startswith(
              "cpu3 98 % busy, 71 % softirq (92 % of the NET_RX "
              "softirqs), host 20 %: the bottleneck"), str(codes))
    check("spread: no spread finding on the listener's loopback",
          not [k for k in codes if k[0] == "receiver" and k[1] in (
              "irq_pile", "cpu_softirq_bound", "few_vectors")], str(codes))


def case_json_stream(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        p = gbpeer.client_start(lst.port, "-T", "2", "-i", "0.5",
                                "--json-stream")
        t0 = time.monotonic()
        first = p.stdout.readline()
        second = p.stdout.readline()
        t_second = time.monotonic() - t0
        r = gbpeer.client_wait(p)
    finally:
        lst.stop()
    raw = [first.decode(), second.decode()] + r.out.splitlines(True)
    try:
        evs = [json.loads(l) for l in raw if l.strip()]
    except ValueError as e:
        evs = []
        raw.append(str(e))
    if not check("json-stream: the test runs, every line a JSON object",
                 r.rc == 0 and evs and all(l.endswith("\n") and
                                           l.count("\n") == 1
                                           for l in raw), "".join(raw)[:500]):
        return
    kinds = [e.get("event") for e in evs]
    check("json-stream: start, four intervals, end",
          kinds == ["start"] + ["interval"] * 4 + ["end"], str(kinds))
    st = evs[0]
    check("json-stream: the start has the provenance and params",
          ISO.match(st.get("provenance", {}).get("start", "")) is not None
          and st.get("params", {}).get("duration_s") == 2, str(st)[:300])
    check("json-stream: the first interval comes while the test runs",
          t_second < 1.5, "%.2f s" % t_second)
    rep = evs[-1].get("report", {})
    # The last slice may grow by the last moment's bytes (the sliver
    # under a tenth of -i) once the test is over: the report has them.
    check("json-stream: the end's report is the --json document, with "
          "the same slices", "result" in rep and "provenance" in rep and
          [iv["bytes"] for iv in rep.get("intervals", [])][:3] ==
          [e["interval"]["bytes"] for e in evs[1:4]] and
          len(rep.get("intervals", [])) == 4 and
          all(e["interval"].get("peer") for e in evs[1:-1]),
          str(rep)[:300])
    port = gbpeer.free_port()
    f = gbpeer.client(port, "-T", "1", "--json-stream")
    lines_f = [l for l in f.out.splitlines() if l.strip()]
    try:
        last = json.loads(lines_f[-1])
    except (ValueError, IndexError):
        last = {}
    check("json-stream: a failed test ends in an error event",
          f.rc == 1 and len(lines_f) == 1 and last.get("event") == "error"
          and "cannot connect" in last.get("report", {}).get("error", ""),
          f.why() + f.out[:300])
    u = gbpeer.client(port, "--repeat", "2", "--json-stream")
    check("json-stream: one test only (a sweep is refused)",
          u.rc == 2 and "--json-stream" in u.err, u.why())


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-results.")
    try:
        case_provenance(tmp)
        case_header(tmp)
        case_timestamps(tmp)
        case_csv(tmp)
        case_too_short(tmp)
        case_interrupt(tmp)
        case_listener(tmp)
        case_bind(tmp)
        case_intervals(tmp)
        case_omit(tmp)
        case_progress(tmp)
        case_json_stream(tmp)
        case_spread(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
