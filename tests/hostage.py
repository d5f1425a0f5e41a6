#!/usr/bin/env python3
"""hostage.py: one cheap peer may not keep a listener's only test slot.

Issue 14, item 1, over loopback, against a real `gigebench -r` listener,
once without and once with --psk.  The attacker, from 127.0.0.2, sends a
valid hello (with --psk: a hello with a random nonce and no proof) and
then nothing; it reconnects as soon as the listener drops it (at most 4
times a second), and opens one more such connection every 5 s.  Must hold:

  - while the attacker runs for 20 s, a real client on 127.0.0.1 runs a
    0.2 s test every 0.5 s: at least 90 % of them succeed;
  - right after the attacker's hello, a real client from another source
    (127.0.0.1) starts its test within 1 s: its 0.2 s test ends, exit 0,
    within 1.6 s of its start.

On a listener that takes the slot at the hello and keeps it until the
handshake timeout, every real test is refused as busy (exit 3).

    GIGEBENCH=build/gigebench python3 tests/hostage.py [--seconds 20]

About 50 s.  Prints "ok - ..." or "FAIL - ..." per check and ends with
"N passed, M failed"; exits 1 when a check failed.
"""

import argparse
import os
import select
import shutil
import socket
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "lib")]
import gbpeer  # noqa: E402  (listener, client, framing, tally)
import hostile  # noqa: E402  (the protocol's messages)
from gbpeer import check  # noqa: E402

ATTACKER = "127.0.0.2"
PERIOD_S = 5.0
MIN_GAP_S = 0.25        # reconnects after a drop, at most 4 a second


def stall_hello(psk):
    body = hostile.hello_body(dict(duration_ms=200))
    if psk:
        body["nonce"] = os.urandom(32).hex()
    return gbpeer.frame(hostile.HELLO, body)


class Attacker(threading.Thread):
    """Hellos that lead nowhere, from ATTACKER, for as long as it runs."""

    def __init__(self, port, psk):
        super().__init__(daemon=True)
        self.port, self.psk = port, psk
        self.stop = threading.Event()
        self.socks = []
        self.hellos = 0
        self.drops = 0

    def open_one(self):
        try:
            s = hostile.connect(self.port, ATTACKER)
            s.sendall(stall_hello(self.psk))
            s.setblocking(False)
            self.socks.append(s)
            self.hellos += 1
        except OSError:
            pass

    def reap(self):
        """Close what the listener dropped; return how many."""
        if not self.socks:
            return 0
        r, _, _ = select.select(self.socks, [], [], 0.1)
        n = 0
        for s in r:
            try:
                if s.recv(65536):
                    continue    # a challenge or a refusal: keep silent
            except BlockingIOError:
                continue
            except OSError:
                pass
            self.socks.remove(s)
            s.close()
            n += 1
        return n

    def run(self):
        last = 0.0
        while not self.stop.is_set():
            now = time.monotonic()
            if now - last >= PERIOD_S or not self.socks:
                self.open_one()
                last = now
            dropped = self.reap()
            self.drops += dropped
            if dropped and now - last >= MIN_GAP_S:
                self.open_one()
                last = now
            if not self.socks:
                time.sleep(0.1)
        for s in self.socks:
            s.close()


def real_test(port, psk_file):
    args = ["-l", "16K", "-T", "0.2", "-q"]
    if psk_file:
        args += ["--psk", psk_file]
    r = gbpeer.client(port, *args, timeout=20)
    return r.rc, r.err, r.secs


def listener(tmp, psk_file):
    return gbpeer.Listener(tmp, "-v", *(["--psk", psk_file] if psk_file
                                        else []))


def hostage_round(tmp, name, psk_file, seconds):
    lst = listener(tmp, psk_file)
    try:
        rc, err, _ = real_test(lst.port, psk_file)
        check("%s: a real test before the attack" % name, rc == 0,
              "exit %d: %s" % (rc, err))
        probe = hostile.connect(lst.port, ATTACKER)
        probe.sendall(stall_hello(psk_file is not None))
        _, msgs = hostile.Reader(probe).outcome(1.0)
        probe.close()
        bad = [m for m in msgs if m[0] in (hostile.REFUSE, hostile.ERROR)]
        check("%s: the attacker's hello is a valid one (not refused)" % name,
              not bad, hostile.describe(msgs))
        time.sleep(0.2)
        att = Attacker(lst.port, psk_file is not None)
        att.start()
        time.sleep(0.3)
        ok = total = 0
        codes = {}
        first = ""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.monotonic()
            rc, err, _ = real_test(lst.port, psk_file)
            total += 1
            ok += rc == 0
            codes[rc] = codes.get(rc, 0) + 1
            if rc != 0 and not first:
                first = "exit %d: %s" % (rc, err[:160])
            time.sleep(max(0.0, 0.5 - (time.monotonic() - t0)))
        att.stop.set()
        att.join(5)
        check("%s: >= 90 %% of real tests succeed while a peer stalls "
              "after its hello" % name, ok * 10 >= total * 9,
              "%d of %d succeeded (exit codes %s; %d attacker hellos, "
              "%d dropped); first failure: %s" % (
                  ok, total, codes, att.hellos, att.drops, first))
        print("# %s: %d of %d real tests succeeded, exit codes %s, %d "
              "attacker hellos, %d dropped by the listener" % (
                  name, ok, total, codes, att.hellos, att.drops))
        other_source(lst, name, psk_file)
        check("%s: the listener is alive" % name, lst.alive(),
              "exit %s" % lst.p.returncode)
    finally:
        lst.stop()


def other_source(lst, name, psk_file):
    """A fresh stalled hello from ATTACKER, then a real client."""
    time.sleep(1.0)
    s = hostile.connect(lst.port, ATTACKER)
    try:
        s.sendall(stall_hello(psk_file is not None))
        time.sleep(0.2)
        rc, err, dt = real_test(lst.port, psk_file)
        check("%s: a real client from 127.0.0.1 starts within 1 s while "
              "%s stalls after its hello" % (name, ATTACKER),
              rc == 0 and dt <= 1.6,
              "exit %d after %.2f s: %s" % (rc, dt, err[:160]))
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0)
    a = ap.parse_args()
    try:
        t = socket.socket()
        t.bind((ATTACKER, 0))
        t.close()
    except OSError as e:
        check("%s is a loopback address here" % ATTACKER, False, str(e))
        return 1
    tmp = tempfile.mkdtemp(prefix="gigebench-hostage.")
    psk = os.path.join(tmp, "key")
    with open(psk, "wb") as f:
        f.write(os.urandom(24).hex().encode() + b"\n")
    os.chmod(psk, 0o600)
    try:
        lst = listener(tmp, None)
        try:
            ok, detail = hostile.learn_protocol(gbpeer.GB, lst.port,
                                                ("-T", "0.2"))
        finally:
            lst.stop()
        check("learn the protocol from a real client", ok, detail)
        hostage_round(tmp, "no --psk", None, a.seconds)
        hostage_round(tmp, "--psk", psk, a.seconds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    gbpeer.run(main)
