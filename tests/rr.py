#!/usr/bin/env python3
"""rr.py: --rr (issue 18) against a real listener on loopback, TCP here
and -u in rr_udp.py (its cases run after these):

  counts      both ends count the same transactions, with -P 2 and a
              burst; the asker's latency histogram holds one sample for
              each (its buckets add up to the count), its percentiles are
              ordered min <= P50 <= P90 <= P99 <= P99.9 <= max, each
              bucket at most 3.125 % wide; each end's bytes are its
              transactions' requests and answers.
  text        the parameters line says rr, the sizes and the burst; each
              end's rr and per-transaction lines; the asker's latency
              line; the summary line in trans/s with P50 and P99.
  costs       per transaction: process and host CPU in us on each end.
  intervals   -i: each slice's transactions (the client's add up to
              its count), the client's P50 <= P99 <= max by slice, the
              listener's slice of each as "peer"; each end's cost of a
              slice's transaction (process CPU, its own process CPU
              seconds over its transactions; host CPU at least that;
              NET_RX softirqs); the text lines in trans/s with the
              percentiles, the other end's rate and both ends' cost.
  crr         --crr (a connection a transaction), -P 2: both ends count
              the same transactions, and each end as many connections as
              transactions (the listener counts the connections it took
              into the test and answered, one transaction each, or the
              test fails); bytes, one latency a transaction, percentiles
              ordered, the text lines; result.rr.crr by the JSON parser.
  psk         --crr with --psk (the token is derived from the key) and
              -P 4, answers larger than requests (a keyed test may):
              counts and connections equal on both ends.
  strangers   while a --crr test runs: a connection that is not
              gigebench, one with a data message of an unknown token
              (and a request after it), and a silent one are each closed
              without an answer (the silent one by --handshake-timeout),
              a second client is refused as busy (exit 3); the test ends
              well, its counts equal on both ends.
  trickle     a hand-made --crr client whose transaction's connection
              trickles its 1 MiB request a byte every 0.5 s, under the
              listener's --silent-timeout of 2 s: the listener drops
              that connection when the silent timeout has passed since
              it was handed over, says so, and a real test runs within
              --max-duration + --silent-timeout + 2 s; the same with 2
              streams on 1 thread (the many-flow engine's answerer);
              while the trickle goes on, SIGTERM ends the listener
              within 2 s.
  crr interrupt
              SIGINT to a --crr client while its listener is stopped
              (SIGSTOP) in the middle of a transaction: the client ends
              within 2 s (not after its silent timeout), interrupted.
  thief       a hand-made --crr client (tests/lib/gbhello.py's hello)
              with its token: a transaction by hand is answered; the
              same token from another address of this host
              (127.0.0.2), for a stream the test has not, or a third
              connection of a stream (one answered, one waiting) is
              closed without an answer; the two kept are answered in
              turn, and a real test runs after it.
  refusals    answers larger than requests from a listener without
              --allow-reverse: exit 3, and the listener says why; -n,
              --omit with --rr and --request-size without it: exit 2; a
              burst over 128 KiB in flight: exit 2; --crr with
              --rr-burst, --cport, -u or -r: exit 2; --crr of more
              streams than the listener's --max-pending-source: exit 3.
  sweep       --sweep request-size=1,1K --sweep burst=1,2 with --csv,
              --plot and -J: 4 points in cross-product order, each with
              its rr statistics; each run's JSON has its rr; 4 CSV rows
              whose parameters follow the axes, with the run's
              transactions, trans/s and ordered percentiles (the same
              as its JSON); the plot draws P50/P99 against request-size.
  repeat      one --rr test with --repeat 2, --csv and --plot: the
              table's --rr columns with a CI, 2 CSV rows, the latency
              CDF; --sweep burst= without --rr and --rr with --sweep
              length=: exit 2.

    GIGEBENCH=build/gigebench python3 tests/rr.py

About 20 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import csv
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbhello  # noqa: E402
import gbpeer  # noqa: E402
import rr_udp  # noqa: E402
from gbpeer import check  # noqa: E402


def case_counts(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "1", "-P", "2",
                          "--rr-burst", "4", "--request-size", "100",
                          "--response-size", "4K", "-J")
    finally:
        lst.stop()
    if not check("counts: the test runs", r.rc == 0, r.why()):
        return
    res = json.loads(r.out)["result"]
    rr = res.get("rr") or {}
    lat = rr.get("latency") or {}
    n = rr.get("transactions", 0)
    snd, rcv = res["sender"], res["receiver"]
    check("counts: both ends count the same transactions",
          n > 100 and snd["rr"]["transactions"] == n and
          rcv["rr"]["transactions"] == n, "%s %s %s" % (
              n, snd.get("rr"), rcv.get("rr")))
    check("counts: each end's bytes are its requests and answers",
          snd["bytes"] == n * 4196 and rcv["bytes"] == n * 4196,
          "%d %d %d" % (snd["bytes"], rcv["bytes"], n * 4196))
    b = lat.get("buckets_ns", [])
    check("counts: one latency a transaction, in buckets at most 3.125 % "
          "wide", lat.get("count") == n and sum(x[2] for x in b) == n and
          all(x[0] <= x[1] and (x[1] < 64 or
                                x[1] - x[0] + 1 <= x[0] / 32 + 1)
              for x in b) and lat.get("resolution_pct") == 3.125,
          str(lat)[:300])
    keys = ["min_us", "p50_us", "p90_us", "p99_us", "p99_9_us", "max_us"]
    vals = [lat.get(k, -1) for k in keys]
    check("counts: min <= P50 <= P90 <= P99 <= P99.9 <= max, mean within",
          vals == sorted(vals) and vals[0] > 0 and
          vals[0] <= lat.get("mean_us", -1) <= vals[-1], str(vals))
    check("counts: the rate and the sizes in JSON",
          rr.get("request_size") == 100 and rr.get("response_size") == 4096
          and rr.get("burst") == 4 and
          abs(rr.get("per_s", 0) - n / snd["seconds"]) < 1,
          str({k: v for k, v in rr.items() if k != "latency"}))
    ctx, crx = rr.get("per_transaction_tx"), rr.get("per_transaction_rx")
    check("costs: process and host CPU per transaction on each end",
          all(isinstance(c, dict) and c["cpu_us"] > 0 and
              c["host_cpu_us"] > 0 for c in (ctx, crx)), str((ctx, crx)))


def case_text(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.5")
    finally:
        lst.stop()
    if not check("text: the test runs", r.rc == 0, r.why()):
        return
    out = [l for l in r.out.splitlines() if l]
    check("text: the parameters line says rr, its sizes and burst",
          out[0].startswith("gigebench-t: rr request=1 response=1 burst=1 "
                            "streams=1 duration=0.50s nodelay=1 "), out[0])
    for pre in ("gigebench-t", "gigebench-r"):
        check("text: %s's rr and per-transaction lines" % pre,
              any(re.match(r"^%s: rr \d+ transactions in [\d.]+ s = "
                           r"[\d.]+ /s, request 1 B, answer 1 B, burst 1$"
                           % pre, l) for l in out) and
              any(re.match(r"^%s: per transaction: [\d.]+ us process cpu, "
                           r"[\d.]+ us host cpu, " % pre, l) for l in out),
              "\n".join(out))
    check("text: the asker's latency line",
          any(re.match(r"^gigebench-t: latency min [\d.]+ us, mean [\d.]+, "
                       r"P50 [\d.]+, P90 [\d.]+, P99 [\d.]+, P99.9 [\d.]+, "
                       r"max [\d.]+ us \(\d+ samples, buckets 3.125 % wide\)$",
                       l) for l in out), "\n".join(out))
    check("text: the summary line in trans/s with P50 and P99",
          re.match(r"^ *[\d.]+ trans/s P50 [\d.]+ us P99 [\d.]+ us \d+ %TX "
                   r"\d+ %RX \S+ irq/trans-TX \S+ irq/trans-RX$", out[-1])
          is not None, out[-1])


def case_intervals(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        j = gbpeer.client(lst.port, "--rr", "-T", "1.5", "-i", "0.5", "-J")
        t = gbpeer.client(lst.port, "--rr", "-T", "1", "-i", "0.5")
    finally:
        lst.stop()
    if not check("intervals: the tests run", j.rc == 0 and t.rc == 0,
                 j.why() + t.why()):
        return
    doc = json.loads(j.out)
    ivs = doc.get("intervals") or []
    n = doc["result"]["rr"]["transactions"]
    check("intervals: three slices, their transactions add up",
          len(ivs) == 3 and all(iv["transactions"] > 0 for iv in ivs) and
          sum(iv["transactions"] for iv in ivs) == n,
          "%s / %d" % ([iv.get("transactions") for iv in ivs], n))
    lat = [iv.get("latency") or {} for iv in ivs]
    check("intervals: the client's P50 <= P99 <= max by slice",
          all(0 < x.get("p50_us", 0) <= x.get("p99_us", -1) <=
              x.get("max_us", -2) for x in lat), str(lat))
    check("intervals: the listener's slice of each, its transactions",
          all(isinstance(iv.get("peer"), dict) and
              iv["peer"]["transactions"] > 0 and
              iv["peer"]["latency"] is None for iv in ivs),
          str([iv.get("peer") for iv in ivs])[:300])
    costs = []
    for iv in ivs:
        for end in (iv, iv.get("peer") or {}):
            c, n = end.get("per_transaction") or {}, end.get("transactions")
            slice_s = end.get("end", 0) - end.get("start", 0)
            cpus = (end.get("host_cpu") or {}).get("ncpus", 0)
            busy = (end.get("host_cpu") or {}).get("busy_pct", -1)
            costs.append(
                bool(n) and end.get("process_cpu_s") is not None and
                abs(c.get("cpu_us", -1) -
                    end["process_cpu_s"] * 1e6 / n) < 0.01 and
                abs(c.get("host_cpu_us", -1) -
                    busy / 100 * cpus * slice_s * 1e6 / n) < 0.01 and
                c["host_cpu_us"] > 0 and c["cpu_us"] > 0 and
                end.get("net_rx_softirqs") is not None and
                abs(c.get("softirqs", -1) -
                    end["net_rx_softirqs"] / n) < 1e-6)
    check("intervals: each end's cost of a slice's transaction, from its "
          "process CPU, host CPU and softirqs",
          len(costs) == 6 and all(costs),
          str([(iv.get("per_transaction"), iv.get("process_cpu_s"),
                iv.get("transactions")) for iv in ivs])[:400])
    out = [l for l in t.out.splitlines()
           if re.match(r"^gigebench-t: +\d+\.\d\d- *\d", l)]
    cost = r"[\d.]+/[\d.]+ us \S+ irq [\d.]+ sirq"
    check("intervals: the text lines in trans/s, percentiles, both ends",
          len(out) == 2 and all(re.search(
              r"sec +[\d.]+ trans/s  P50 [\d.]+ us P99 [\d.]+ us max "
              r"[\d.]+ us  RX +[\d.]+ trans/s  host \d+/\d+ %TX \d+/\d+ "
              r"%RX  /trans TX " + cost + "  RX " + cost + "$", l)
              for l in out), "\n".join(out))


def case_crr(tmp):
    lst = gbpeer.Listener(tmp, "--allow-reverse", probe="ss")
    try:
        r = gbpeer.client(lst.port, "--crr", "-T", "1", "-P", "2",
                          "--request-size", "100", "--response-size",
                          "200", "-J")
        t = gbpeer.client(lst.port, "--crr", "-T", "0.5")
    finally:
        lst.stop()
    if not check("crr: the tests run", r.rc == 0 and t.rc == 0,
                 r.why() + t.why()):
        return
    res = json.loads(r.out)["result"]
    rr = res.get("rr") or {}
    lat = rr.get("latency") or {}
    n = rr.get("transactions", 0)
    snd, rcv = res["sender"], res["receiver"]
    check("crr: result.rr.crr is true, burst 1",
          rr.get("crr") is True and rr.get("burst") == 1, str(rr)[:200])
    check("crr: both ends count the same transactions",
          n > 50 and snd["rr"]["transactions"] == n and
          rcv["rr"]["transactions"] == n,
          "%s %s %s" % (n, snd.get("rr"), rcv.get("rr")))
    check("crr: a connection a transaction, counted on each end",
          snd["rr"]["connections"] == n and rcv["rr"]["connections"] == n,
          "%s %s %s" % (n, snd.get("rr"), rcv.get("rr")))
    check("crr: each end's bytes are its requests and answers",
          snd["bytes"] == n * 300 and rcv["bytes"] == n * 300,
          "%d %d %d" % (snd["bytes"], rcv["bytes"], n * 300))
    keys = ["min_us", "p50_us", "p90_us", "p99_us", "p99_9_us", "max_us"]
    vals = [lat.get(k, -1) for k in keys]
    check("crr: one latency a transaction, min <= P50 <= ... <= max",
          lat.get("count") == n and vals == sorted(vals) and vals[0] > 0
          and sum(x[2] for x in lat.get("buckets_ns", [])) == n, str(vals))
    check("crr: the data paths are crr_ask and crr_answer",
          snd.get("data_path") == "crr_ask" and
          rcv.get("data_path") == "crr_answer",
          "%s %s" % (snd.get("data_path"), rcv.get("data_path")))
    out = [l for l in t.out.splitlines() if l]
    check("crr: the text says crr, and the connections",
          out[0].startswith("gigebench-t: crr request=1 response=1 burst=1 ")
          and any(re.match(r"^gigebench-[tr]: rr (\d+) transactions in "
                           r"[\d.]+ s = [\d.]+ /s, request 1 B, answer 1 B, "
                           r"burst 1, \1 connections$", l) for l in out) and
          re.match(r"^ *[\d.]+ trans/s P50 [\d.]+ us P99 ", out[-1]),
          "\n".join(out))


def case_crr_psk(tmp):
    key = os.path.join(tmp, "key")
    with open(key, "wb") as f:
        f.write(os.urandom(24).hex().encode() + b"\n")
    os.chmod(key, 0o600)
    lst = gbpeer.Listener(tmp, "--psk", key, probe="ss")
    try:
        r = gbpeer.client(lst.port, "--crr", "-T", "0.5", "-P", "4",
                          "--response-size", "2K", "--psk", key, "-J")
    finally:
        lst.stop()
    if not check("psk: the keyed --crr test runs", r.rc == 0, r.why()):
        return
    res = json.loads(r.out)["result"]
    n = res["rr"]["transactions"]
    check("psk: counts and connections equal on both ends",
          n > 10 and all(res[e]["rr"] == {"transactions": n,
                                          "connections": n,
                                          "udp": None}
                         for e in ("sender", "receiver")),
          "%s %s" % (res["sender"]["rr"], res["receiver"]["rr"]))


def stranger_closed(port, payload, wait):
    """Connects, sends payload; True when the listener closes the
    connection within wait seconds without a byte of an answer."""
    s = socket.create_connection(("127.0.0.1", port), 2)
    try:
        s.sendall(payload)
        s.settimeout(wait)
        got = b""
        while True:
            b = s.recv(4096)
            if not b:
                return b"g" not in got
            got += b
    except (socket.timeout, OSError) as e:
        return isinstance(e, ConnectionResetError)
    finally:
        s.close()


def case_strangers(tmp):
    lst = gbpeer.Listener(tmp, "--handshake-timeout", "1", probe="ss")
    try:
        c = gbpeer.client_start(lst.port, "--crr", "-T", "3", "-J")
        time.sleep(0.8)
        # The first refusal from a source is logged (then one a minute).
        tok = stranger_closed(lst.port, gbpeer.frame(4, {
            "token": "0123456789abcdef" * 2, "stream": 0}) + b"g", 2)
        junk = stranger_closed(lst.port, b"GET / HTTP/1.0\r\n\r\n", 2)
        t0 = time.monotonic()
        silent = stranger_closed(lst.port, b"", 3)
        silent_s = time.monotonic() - t0
        busy = gbpeer.client(lst.port, "--crr", "-T", "0.3")
        r = gbpeer.client_wait(c, 15)
        log = lst.log()
        alive = lst.alive()
    finally:
        lst.stop()
    check("strangers: not gigebench: closed, no answer", junk)
    check("strangers: a data message of an unknown token: closed, no "
          "answer", tok and "unknown token" in log, log[-400:])
    check("strangers: a silent one: closed by --handshake-timeout",
          silent and 0.8 < silent_s < 2.5, "%s %.2f s" % (silent, silent_s))
    check("strangers: a second client: refused as busy (exit 3)",
          busy.rc == 3 and "busy" in busy.err, busy.why())
    if not check("strangers: the test ends well, the listener lives",
                 r.rc == 0 and alive, r.why(300)):
        return
    res = json.loads(r.out)["result"]
    n = res["rr"]["transactions"]
    check("strangers: the counts are equal on both ends",
          n > 0 and res["sender"]["rr"]["transactions"] == n and
          res["receiver"]["rr"]["transactions"] == n and
          res["receiver"]["rr"]["connections"] == n,
          "%s %s" % (res["sender"]["rr"], res["receiver"]["rr"]))


def recv_msg(s):
    """One control message from s: (type, body as JSON)."""
    def exact(n):
        b = b""
        while len(b) < n:
            c = s.recv(n - len(b))
            if not c:
                raise ConnectionError("closed")
            b += c
        return b
    hdr = exact(12)
    return hdr[5], json.loads(exact(int.from_bytes(hdr[8:12], "big")))


def crr_conn(port, token, stream, src=None):
    """A --crr transaction's connection: the data message sent."""
    s = socket.socket()
    if src is not None:
        s.bind((src, 0))
    s.settimeout(3)
    s.connect((gbpeer.HOST, port))
    s.sendall(gbpeer.frame(4, {"token": token, "stream": stream}))
    return s


def answered(s, request=b"g"):
    """Sends the request on s; True when the one-byte answer comes."""
    try:
        s.sendall(request)
        return s.recv(1) == b"g"
    except OSError:
        return False
    finally:
        s.close()


def trickle_start(port, keep, streams=1, threads=0):
    """A hand-made --crr client of streams streams (on threads worker
    threads; 2 on 1: the many-flow engine) and 1 MiB requests: its
    control connection (the accept's type and body, the start's type)
    and its token; the streams' connections go into keep."""
    ctl = socket.create_connection((gbpeer.HOST, port), 3)
    keep.append(ctl)
    ctl.settimeout(3)
    ctl.sendall(gbpeer.frame(1, {
        "program": "gigebench", "version": "1",
        "params": gbhello.params(rr=True, crr=True, nodelay=True,
                                 duration_ms=1000, req_size=1048576,
                                 resp_size=1, streams=streams,
                                 threads=threads)}))
    typ, acc = recv_msg(ctl)
    tok = acc.get("token", "")
    for i in range(streams):
        keep.append(socket.create_connection((gbpeer.HOST, port)))
        keep[-1].sendall(gbpeer.frame(4, {"token": tok, "stream": i}))
    return typ, acc, recv_msg(ctl)[0], tok


def trickle_once(lst, keep, stop, streams, threads, what):
    """One trickled transaction of stream 0: dropped at the silent
    timeout, and a real test after it within the bound."""
    said = lst.log().count("outlasted the silent timeout")
    typ, acc, start, tok = trickle_start(lst.port, keep, streams, threads)
    if not check("trickle%s: the hand-made --crr client is started" % what,
                 typ == 2 and start == 5, str(acc)):
        return False
    conn = crr_conn(lst.port, tok, 0)
    keep.append(conn)
    t0 = time.monotonic()

    def trickle():
        while not stop.is_set():
            try:
                conn.send(b"x")
            except OSError:
                return
            stop.wait(0.5)
    threading.Thread(target=trickle, daemon=True).start()
    r = None
    while time.monotonic() - t0 < 12:
        r = gbpeer.client(lst.port, "-T", "0.2")
        if r.rc == 0:
            break
        time.sleep(0.5)
    waited = time.monotonic() - t0
    check("trickle%s: the listener drops the connection at its silent "
          "timeout and says so" % what,
          lst.log().count("outlasted the silent timeout") > said,
          lst.log()[-400:])
    check("trickle%s: a real test runs within --max-duration + "
          "--silent-timeout + 2 s" % what, r is not None and r.rc == 0 and
          waited < 6.0, "%.1f s: %s" % (waited, r.why() if r else ""))
    return True


def case_trickle(tmp):
    """A --crr transaction's request a byte at a time, under the timeout."""
    lst = gbpeer.Listener(tmp, "--max-duration", "2", "--silent-timeout",
                          "2", probe="ss")
    keep, stop = [], threading.Event()
    try:
        if not trickle_once(lst, keep, stop, 1, 0, ""):
            return
        stop.set()
        for s in keep:
            s.close()
        keep, stop = [], threading.Event()
        if not trickle_once(lst, keep, stop, 2, 1, " (2 flows on 1 thread)"):
            return
        # A second one, held while the listener is asked to stop.
        tok = trickle_start(lst.port, keep)[3]
        conn2 = crr_conn(lst.port, tok, 0)
        keep.append(conn2)
        conn2.send(b"x")
        time.sleep(0.3)
        t1 = time.monotonic()
        lst.p.terminate()
        try:
            lst.p.wait(5)
        except subprocess.TimeoutExpired:
            pass
        gone = time.monotonic() - t1
        check("trickle: SIGTERM ends the listener within 2 s while a "
              "transaction's connection is held",
              lst.p.poll() is not None and gone < 2.0, "%.1f s" % gone)
    finally:
        stop.set()
        for s in keep:
            s.close()
        lst.stop()


def case_crr_interrupt(tmp):
    """SIGINT to a --crr client whose listener stopped answering."""
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        c = gbpeer.client_start(lst.port, "--crr", "-T", "20",
                                "--json-stream")
        c.stdout.readline()             # "start": the test runs
        time.sleep(0.5)
        os.kill(lst.p.pid, signal.SIGSTOP)
        time.sleep(0.5)
        t0 = time.monotonic()
        c.send_signal(signal.SIGINT)
        r = gbpeer.client_wait(c, timeout=15)
        took = time.monotonic() - t0
    finally:
        os.kill(lst.p.pid, signal.SIGCONT)
        lst.stop()
    check("crr interrupt: SIGINT ends a --crr client within 2 s while its "
          "transaction waits on a stopped listener",
          took < 2.0 and "interrupted" in r.err,
          "%.1f s: %s" % (took, r.why(300)))


def case_thief(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    ctl, keep = None, []
    try:
        ctl = socket.create_connection((gbpeer.HOST, lst.port), 3)
        ctl.settimeout(3)
        ctl.sendall(gbpeer.frame(1, {
            "program": "gigebench", "version": "1",
            "params": gbhello.params(rr=True, crr=True, nodelay=True,
                                     streams=2, duration_ms=3000)}))
        typ, acc = recv_msg(ctl)
        tok = acc.get("token", "")
        for i in (0, 1):
            keep.append(socket.create_connection((gbpeer.HOST, lst.port)))
            keep[-1].sendall(gbpeer.frame(4, {"token": tok, "stream": i}))
        start = recv_msg(ctl)[0]
        if not check("thief: the hand-made --crr client is accepted and "
                     "started", typ == 2 and start == 5, str(acc)):
            return
        check("thief: a transaction by hand is answered",
              answered(crr_conn(lst.port, tok, 0)))
        check("thief: the token from 127.0.0.2: closed, no answer",
              not answered(crr_conn(lst.port, tok, 0, "127.0.0.2")))
        check("thief: stream 2 of a test of 2: closed, no answer",
              not answered(crr_conn(lst.port, tok, 2)))
        first = crr_conn(lst.port, tok, 1)    # answering thread takes it
        time.sleep(0.2)
        second = crr_conn(lst.port, tok, 1)   # waits for the thread
        time.sleep(0.2)
        check("thief: a third connection of one stream: closed, no "
              "answer", not answered(crr_conn(lst.port, tok, 1)))
        check("thief: the one answered and the one waiting are answered "
              "in turn", answered(first) and answered(second))
    finally:
        for s in keep + ([ctl] if ctl else []):
            s.close()
    time.sleep(0.3)
    try:
        r = gbpeer.client(lst.port, "--crr", "-T", "0.3")
    finally:
        lst.stop()
    check("thief: a real --crr test runs after it", r.rc == 0, r.why())


def case_refusals(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.3", "--response-size",
                          "2")
        ok = gbpeer.client(lst.port, "--rr", "-T", "0.3", "--request-size",
                           "2", "--response-size", "2")
    finally:
        lst.stop()
    check("refusals: answers larger than requests, no --allow-reverse: "
          "exit 3, says why", r.rc == 3 and "--allow-reverse" in r.err and
          ok.rc == 0, r.why() + ok.why())
    port = gbpeer.free_port()
    for args, what in ((["-n", "10"], "-n"),
                       (["--omit", "1"], "--omit"),
                       (["--rr-burst", "64", "--request-size", "2K",
                         "--response-size", "2K"], "128 KiB")):
        u = gbpeer.client(port, "--rr", *args)
        check("refusals: --rr %s: exit 2, says why" % " ".join(args),
              u.rc == 2 and what in u.err, u.why())
    for args, what in ((["--rr-burst", "2"], "--rr-burst: cannot be used "
                        "with --crr"),
                       (["--cport", "30000"], "--cport: cannot be used "
                        "with --crr"),
                       (["-u"], "-u"), (["-r"], "-r")):
        argv = ["--crr"] + args
        if args == ["-r"]:	# the connecting side receives: -r HOST
            p = subprocess.run([gbpeer.GB, "-r", gbpeer.HOST, "-p",
                                str(port), "--crr"], capture_output=True,
                               timeout=10)
            u = gbpeer.Result(p.returncode, "", p.stderr.decode(), 0)
        else:
            u = gbpeer.client(port, *argv)
        check("refusals: %s: exit 2, says why" % " ".join(argv),
              u.rc == 2 and what in u.err, u.why())
    lst = gbpeer.Listener(tmp, "--max-pending-source", "2", probe="ss")
    try:
        c = gbpeer.client(lst.port, "--crr", "-T", "0.3", "-P", "3")
        ok = gbpeer.client(lst.port, "--crr", "-T", "0.3", "-P", "2")
    finally:
        lst.stop()
    check("refusals: --crr -P 3 to a listener of --max-pending-source 2: "
          "exit 3, says why; -P 2 runs", c.rc == 3 and
          "--max-pending-source" in c.err and ok.rc == 0,
          c.why() + ok.why())
    p = gbpeer.client(port, "--request-size", "10")
    check("refusals: --request-size without --rr: exit 2",
          p.rc == 2 and "needs --rr" in p.err, p.why())


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def ordered_pcts(row):
    v = [float(row["latency_" + k + "_us"]) for k in
         ("min", "p50", "p90", "p99", "p999", "max")]
    return all(a <= b for a, b in zip(v, v[1:]))


def case_sweep(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    csvp, svg = os.path.join(tmp, "sw.csv"), os.path.join(tmp, "sw.svg")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.4", "--sweep",
                          "request-size=1,1K", "--sweep", "burst=1,2",
                          "--csv", csvp, "--plot", svg, "-J", timeout=40)
    finally:
        lst.stop()
    if not check("sweep: 4 --rr points run, exit 0", r.rc == 0, r.why()):
        return
    doc = json.loads(r.out)
    pts, runs = doc["points"], doc["runs"]
    want = [{"request-size": a, "burst": b} for a in (1, 1024)
            for b in (1, 2)]
    check("sweep: JSON points in cross-product order, each with its rr",
          [p["values"] for p in pts] == want and all(
              p["rr"] and p["rr"]["trans_per_s"]["n"] == 1 and
              p["rr"]["trans_per_s"]["mean"] > 0 and
              p["rr"]["p50_us"]["mean"] <= p["rr"]["p99_us"]["mean"]
              for p in pts), json.dumps(pts)[:400])
    check("sweep: each run's JSON has its rr at the point's sizes",
          len(runs) == 4 and all(
              u["result"]["rr"]["request_size"] == want[i]["request-size"]
              and u["result"]["rr"]["burst"] == want[i]["burst"]
              for i, u in enumerate(runs)), json.dumps(runs)[:300])
    rows = csv_rows(csvp)
    ok = len(rows) == 4
    for i, row in enumerate(rows if ok else []):
        res = runs[i]["result"]["rr"]
        ok = ok and row["request-size"] == str(want[i]["request-size"]) \
            and row["request_size"] == row["request-size"] \
            and row["rr_burst"] == str(want[i]["burst"]) \
            and int(row["rr_transactions"]) == res["transactions"] \
            and abs(float(row["rr_trans_per_s"]) - res["per_s"]) < \
            1e-6 * res["per_s"] and ordered_pcts(row) \
            and float(row["rr_tx_cpu_us_per_trans"]) > 0 \
            and row["error"] == ""
    check("sweep: 4 CSV rows with the point's sizes, its transactions, "
          "trans/s and ordered percentiles", ok, str(rows)[:600])
    if shutil.which("gnuplot"):
        with open(svg) as f:
            pic = f.read()
        check("sweep: the plot draws --rr latency against request-size",
              "--rr latency vs request-size" in pic and ">P99<" in pic,
              pic[:200])


def case_repeat(tmp):
    lst = gbpeer.Listener(tmp, probe="ss")
    csvp, svg = os.path.join(tmp, "one.csv"), os.path.join(tmp, "cdf.svg")
    try:
        r = gbpeer.client(lst.port, "--rr", "-T", "0.3", "--repeat", "2",
                          "--csv", csvp, "--plot", svg, timeout=30)
    finally:
        lst.stop()
    if not check("repeat: --rr --repeat 2 runs, exit 0", r.rc == 0,
                 r.why()):
        return
    out = r.out.splitlines()
    check("repeat: the table has --rr's columns and a CI of 2 runs",
          len(out) == 2 and out[0].startswith("trans/s (95% CI)") and
          "P99 us" in out[0] and "irq/trans-RX" in out[0] and
          re.match(r"[0-9.]+ \+- [0-9.]+ +[0-9.]+ +[0-9.]+ ", out[1]),
          r.out)
    rows = csv_rows(csvp)
    check("repeat: 2 CSV rows, repeat 0 and 1, percentiles ordered",
          [x["repeat"] for x in rows] == ["0", "1"] and
          all(ordered_pcts(x) and x["protocol"] == "tcp" for x in rows),
          str(rows)[:400])
    if shutil.which("gnuplot"):
        with open(svg) as f:
            pic = f.read()
        check("repeat: the plot is the latency CDF of both runs",
              "latency CDF, %d transactions" % sum(
                  int(x["rr_transactions"]) for x in rows) in pic,
              pic[:200])
    port = gbpeer.free_port()
    u = gbpeer.client(port, "--sweep", "burst=1,2")
    v = gbpeer.client(port, "--rr", "--sweep", "length=1,2")
    check("repeat: --sweep burst= without --rr, --rr with --sweep "
          "length=: exit 2", u.rc == 2 and "needs --rr" in u.err and
          v.rc == 2 and "is not for --rr" in v.err, u.why() + v.why())


def main():
    tmp = tempfile.mkdtemp(prefix="gigebench-rr.")
    try:
        case_counts(tmp)
        case_text(tmp)
        case_intervals(tmp)
        case_crr(tmp)
        case_crr_psk(tmp)
        case_strangers(tmp)
        case_trickle(tmp)
        case_crr_interrupt(tmp)
        case_thief(tmp)
        case_refusals(tmp)
        case_sweep(tmp)
        case_repeat(tmp)
        rr_udp.cases(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
