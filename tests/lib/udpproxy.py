"""udpproxy.py: a man in the middle for -u tests on loopback, to make
datagram loss happen where a test says, exactly: a listener's port for
the client, which relays the control connection (TCP) as it is and each
stream's datagrams through a socket of its own (so the listener still
sees one source a stream, all from 127.0.0.1, the control connection's
address), and drops, delays or adds the datagrams it is told to.

Only data datagrams (gigebench's header, kind 0) are numbered, from 1,
in each direction: hellos, their acks and the end datagrams always pass.

    px = udpproxy.Proxy(listener_port, drop_req={100, 300},
                        drop_ans={200}, delay_ans={700: 0.8})
    ... client to px.port ...
    px.stop(); px.dropped_req, px.dropped_ans, px.delayed_ans

inject, when given, is called with each numbered request datagram and
its number, and returns extra datagrams to send to the listener after it
on the same stream (a stray of the same source).
"""

import heapq
import selectors
import socket
import struct
import threading
import time

HOST = "127.0.0.1"
MAGIC = 0x47424447


def is_data(d):
    """A gigebench data datagram (dgram.h: magic, version, kind 0)."""
    return len(d) >= 40 and struct.unpack(">I", d[:4])[0] == MAGIC and \
        d[5] == 0


class Proxy:
    def __init__(self, upstream, drop_req=(), drop_ans=(), delay_ans=None,
                 inject=None):
        self.up = upstream
        self.drop_req, self.drop_ans = set(drop_req), set(drop_ans)
        self.delay_ans = dict(delay_ans or {})
        self.inject = inject
        self.nreq = self.nans = 0
        self.dropped_req = self.dropped_ans = self.delayed_ans = 0
        self.injected = 0
        self.tcp = socket.socket()
        self.tcp.bind((HOST, 0))
        self.port = self.tcp.getsockname()[1]
        self.tcp.listen(8)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind((HOST, self.port))
        self.udp.setblocking(False)
        self.streams = {}       # client address -> upstream socket
        self.back = {}          # upstream socket -> client address
        self.later = []         # (when, seq, datagram, client address)
        self.done = False
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.udp, selectors.EVENT_READ)
        self.threads = [threading.Thread(target=self._udp_loop, daemon=True),
                        threading.Thread(target=self._accept, daemon=True)]
        for t in self.threads:
            t.start()

    def stop(self):
        self.done = True
        for t in self.threads:
            t.join(2)
        self.tcp.close()
        self.udp.close()
        for s in self.back:
            s.close()

    # --- TCP: the control connection, as it is

    def _accept(self):
        self.tcp.settimeout(0.2)
        while not self.done:
            try:
                c, _ = self.tcp.accept()
            except OSError:
                continue
            u = socket.create_connection((HOST, self.up))
            for a, b in ((c, u), (u, c)):
                threading.Thread(target=self._pipe, args=(a, b),
                                 daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        try:
            while True:
                d = a.recv(65536)
                if not d:
                    break
                b.sendall(d)
        except OSError:
            pass
        try:
            b.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    # --- UDP: a socket a stream, the datagrams numbered

    def _to_listener(self, d, src):
        u = self.streams.get(src)
        if u is None:
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            u.connect((HOST, self.up))
            u.setblocking(False)
            self.streams[src], self.back[u] = u, src
            self.sel.register(u, selectors.EVENT_READ)
        extra = []
        if is_data(d):
            self.nreq += 1
            if self.nreq in self.drop_req:
                self.dropped_req += 1
                return
            if self.inject is not None:
                extra = self.inject(d, self.nreq)
        u.send(d)
        for x in extra:
            self.injected += 1
            u.send(x)

    def _to_client(self, d, u):
        src = self.back[u]
        if is_data(d):
            self.nans += 1
            if self.nans in self.drop_ans:
                self.dropped_ans += 1
                return
            if self.nans in self.delay_ans:
                self.delayed_ans += 1
                heapq.heappush(self.later, (time.monotonic() +
                                            self.delay_ans[self.nans],
                                            self.nans, d, src))
                return
        self.udp.sendto(d, src)

    def _udp_loop(self):
        while not self.done:
            while self.later and self.later[0][0] <= time.monotonic():
                _, _, d, src = heapq.heappop(self.later)
                self.udp.sendto(d, src)
            for key, _ in self.sel.select(0.01):
                s = key.fileobj
                try:
                    if s is self.udp:
                        d, src = s.recvfrom(65536)
                        self._to_listener(d, src)
                    else:
                        self._to_client(s.recv(65536), s)
                except (BlockingIOError, ConnectionRefusedError):
                    pass
