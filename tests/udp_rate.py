#!/usr/bin/env python3
"""udp_rate.py: a listener's --max-rate holds while a UDP test runs, not
only in the hello (issue 15: "a sender over it is stopped with a
reason").

A real client says -R within the listener's --max-rate, so the hello is
accepted; between the two sits a relay on 127.0.0.1 that passes the
control connection through and sends each of the client's datagrams on
to the listener COPIES times.  With 3 copies the listener receives three
times what the hello declared and must stop the test, saying why; with 1
copy (the same relay, the same rate, at the --max-rate itself) the test
must run to its end with nothing lost, so the bound does not misfire on
an honest sender and the relay is shown to carry a test.

    GIGEBENCH=build/gigebench python3 tests/udp_rate.py

Checks:
  1. through the relay, 1 copy, -R 20m, listener --max-rate 20: exit 0,
     nothing lost, the listener received what the client sent;
  2. through the relay, 3 copies, -R 15m: the client fails (exit 1) with
     the listener's reason naming --max-rate, within 2 s of the start of
     a 4 s test; the listener logged it and still serves: a direct test
     right after works.

What it must not do: send anywhere but 127.0.0.1, or leave a thread,
socket or process behind (the relay's threads are daemons and its
sockets close in stop()).
"""

import json
import os
import select
import socket
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
import gbpeer                       # noqa: E402
from gbpeer import check            # noqa: E402

HOST = gbpeer.HOST


class Relay:
    """TCP and UDP on one port, both passed on to the listener's port; each
    datagram from a client source is sent on `copies` times from a socket
    of that source's own, and the listener's answers go back to it."""

    def __init__(self, upstream, copies):
        self.upstream, self.copies = upstream, copies
        self.port = gbpeer.free_port()
        self.tcp = socket.socket()
        self.tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.tcp.bind((HOST, self.port))
        self.tcp.listen(8)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind((HOST, self.port))
        self.peers = {}             # client source -> upstream socket
        self.socks = []
        self.forwarded = 0
        self.running = True
        for f in (self._accept, self._datagrams):
            threading.Thread(target=f, daemon=True).start()

    def _pipe(self, a, b):
        try:
            while True:
                d = a.recv(65536)
                if not d:
                    break
                b.sendall(d)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _accept(self):
        while self.running:
            try:
                c, _ = self.tcp.accept()
            except OSError:
                return
            u = socket.create_connection((HOST, self.upstream))
            self.socks += [c, u]
            for a, b in ((c, u), (u, c)):
                threading.Thread(target=self._pipe, args=(a, b),
                                 daemon=True).start()

    def _datagrams(self):
        back = {}                   # upstream socket -> client source
        while self.running:
            r, _, _ = select.select([self.udp] + list(back), [], [], 0.2)
            for s in r:
                try:
                    d, src = s.recvfrom(65536)
                except OSError:
                    continue
                if s is not self.udp:
                    self.udp.sendto(d, back[s])
                    continue
                up = self.peers.get(src)
                if up is None:
                    up = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                    up.connect((HOST, self.upstream))
                    self.peers[src] = up
                    back[up] = src
                    self.socks.append(up)
                for _ in range(self.copies):
                    try:
                        up.send(d)
                        self.forwarded += 1
                    except OSError:
                        pass

    def stop(self):
        self.running = False
        for s in [self.tcp, self.udp] + self.socks:
            try:
                s.close()
            except OSError:
                pass


def main():
    tmp = tempfile.mkdtemp(prefix="gb-udprate.")
    lst = gbpeer.Listener(tmp, "--max-rate", "20m")
    try:
        relay = Relay(lst.port, 1)
        try:
            r = gbpeer.client(relay.port, "-u", "-R", "20m", "-T", "2",
                              "-l", "1400", "-b", "2M", "-q", "--json")
        finally:
            relay.stop()
        ok = r.rc == 0
        u = {}
        if ok:
            u = json.loads(r.out)["result"]["udp"]
        check("through the relay, 1 copy, -R 20m at --max-rate 20: "
              "exit 0, nothing lost (sent %s, received %s, %d relayed)" %
              (u.get("sent"), u.get("received"), relay.forwarded),
              ok and u["lost"] == 0 and u["sent"] == u["received"] > 0,
              r.why(300))

        relay = Relay(lst.port, 3)
        try:
            r = gbpeer.client(relay.port, "-u", "-R", "15m", "-T", "4",
                              "-l", "1400", "-b", "2M", "-q")
        finally:
            relay.stop()
        check("through the relay, 3 copies of -R 15m: exit 1 with the "
              "listener's reason naming --max-rate (%.1f s)" % r.secs,
              r.rc == 1 and "--max-rate of 20 Mbit/s: stopped" in r.err,
              r.why(300))
        # the set-up (about 0.1 s) and the stop within the first second
        check("stopped within 2 s of a 4 s test (%.1f s)" % r.secs,
              r.secs < 2.0, r.why(300))
        check("the listener logged the reason",
              "--max-rate of 20 Mbit/s: stopped" in lst.log(),
              lst.log()[-300:])
        r = gbpeer.client(lst.port, "-u", "-R", "10m", "-T", "0.5", "-q")
        check("the listener still serves: a direct test after it",
              r.rc == 0 and lst.alive(), r.why(300))
    finally:
        lst.stop()


if __name__ == "__main__":
    gbpeer.run(main)
