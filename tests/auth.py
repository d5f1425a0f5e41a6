#!/usr/bin/env python3
"""auth.py: --psk and --allow-reverse against a real listener on loopback.

Run from the top of the tree as
	GIGEBENCH=build/gigebench python3 tests/auth.py

Clients reach the listener through a counting proxy (one per run) that
records every byte each way, can flip one of them, and picks the source
address the listener sees (127.0.0.N, all local on Linux), so the per-source
limit on failed keys is only met where a check wants it.  "Zero payload"
means the proxy saw no connection but the control one, or, once data
connections exist, no byte on them past the data message.

Every check prints "ok" or "FAIL"; the last line is "N passed, M failed".
"""
import json
import os
import random
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

GB = os.environ.get("GIGEBENCH", "build/gigebench")
TMP = tempfile.mkdtemp(prefix="gb-auth.")
HDR = 12
passed = failed = 0
procs = []


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok - " + name)
    else:
        failed += 1
        print("FAIL - " + name + (": " + detail if detail else ""))
    sys.stdout.flush()


def free_port():
    # Below the ephemeral range (32768-60999) that connections take from.
    for _ in range(200):
        p = random.randint(20000, 32000)
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", p))
            return p
        except OSError:
            continue
        finally:
            s.close()
    raise SystemExit("no free port")


def key_file(name, data, mode=0o600):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)
    return path


class Listener:
    def __init__(self, *args):
        for _ in range(3):
            self.port = free_port()
            self.err = os.path.join(TMP, "srv.%d.err" % self.port)
            self.p = subprocess.Popen(
                [GB, "-S", "-p", str(self.port), "-v"] + list(args),
                stdout=subprocess.DEVNULL, stderr=open(self.err, "w"))
            procs.append(self.p)
            for _ in range(100):
                if self.p.poll() is not None:
                    break
                try:
                    socket.create_connection(("127.0.0.1", self.port),
                                             0.2).close()
                    return
                except OSError:
                    time.sleep(0.02)
        raise SystemExit("the listener did not start: " + self.log())

    def log(self):
        with open(self.err) as f:
            return f.read()

    def stop(self):
        self.p.terminate()
        self.p.wait()


class Proxy:
    """
    Counts bytes per connection and direction.  flip=(conn, dir, msg, rel)
    flips the low bit of byte rel of the msg-th message that way (rel < 0
    from its end, "mid" its middle), found as the messages go by.
    """

    def __init__(self, upstream, src="127.0.0.1", data_src=None, flip=None):
        self.upstream, self.src, self.flip = upstream, src, flip
        self.data_src = data_src or src
        self.conns = []
        self.lock = threading.Lock()
        self.threads = []
        self.ls = socket.socket()
        self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(64)
        self.port = self.ls.getsockname()[1]
        t = threading.Thread(target=self.accept_loop, daemon=True)
        t.start()

    def accept_loop(self):
        while True:
            try:
                c, _ = self.ls.accept()
            except OSError:
                return
            with self.lock:
                idx = len(self.conns)
                rec = {"c2s": bytearray(), "s2c": bytearray()}
                self.conns.append(rec)
            u = socket.socket()
            u.bind((self.src if idx == 0 else self.data_src, 0))
            try:
                u.connect(("127.0.0.1", self.upstream))
            except OSError:
                c.close()
                continue
            for a, b, d in ((c, u, "c2s"), (u, c, "s2c")):
                t = threading.Thread(target=self.pump,
                                     args=(a, b, rec[d], idx, d),
                                     daemon=True)
                t.start()
                self.threads.append(t)

    def pump(self, a, b, rec, idx, d):
        try:
            while True:
                buf = a.recv(65536)
                if not buf:
                    break
                buf = bytearray(buf)
                start = len(rec)
                if start < 1 << 20:
                    rec.extend(buf)
                if self.flip and self.flip[:2] == (idx, d):
                    off = self.target(rec) - start
                    if 0 <= off < len(buf):
                        buf[off] ^= 0x01
                self.count(idx, d, len(buf))
                b.sendall(buf)
        except OSError:
            pass
        for s, how in ((b, socket.SHUT_WR), (a, socket.SHUT_RD)):
            try:
                s.shutdown(how)
            except OSError:
                pass

    def target(self, rec):
        msgs = messages(rec)
        if len(msgs) <= self.flip[2]:
            return -1
        off, _, _, length = msgs[self.flip[2]]
        rel = self.flip[3]
        if rel == "mid":
            rel = HDR + length // 2
        return off + (rel if rel >= 0 else HDR + length + rel)

    def count(self, idx, d, n):
        with self.lock:
            rec = self.conns[idx]
            rec[d + "_n"] = rec.get(d + "_n", 0) + n

    def close(self):
        self.ls.close()
        for t in self.threads:
            t.join(5)

    def bytes(self, idx, d):
        return self.conns[idx].get(d + "_n", 0)


def client(port, *args, env=None):
    e = dict(os.environ)
    e.pop("GIGEBENCH_PSK_FILE", None)
    if env:
        e.update(env)
    p = subprocess.run([GB, "-p", str(port)] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=e, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def messages(stream):
    """Split a recorded stream into (offset, type, flags, length)."""
    out, off = [], 0
    while off + HDR <= len(stream):
        magic, ver, typ, flags, length = struct.unpack(
            ">4sBBHI", bytes(stream[off:off + HDR]))
        if magic != b"GBCP":
            break
        out.append((off, typ, flags, length))
        off += HDR + length
    return out


HELLO, ACCEPT, REFUSE, DATA, START, DONE, RESULT, ERROR, CHALLENGE, AUTH, \
    INTERVAL = range(1, 12)
F_MAC = 0x0001
src_n = [10]


def next_src():
    src_n[0] += 1
    return "127.0.%d.%d" % (src_n[0] // 250, src_n[0] % 250 + 2)


def through(lst, *args, flip=None, data_src=None, src=None):
    """One client run through a fresh proxy; returns (rc, out, err, proxy)."""
    src = src or next_src()
    px = Proxy(lst.port, src=src, data_src=data_src, flip=flip)
    rc, out, err = client(px.port, *args)
    time.sleep(0.05)
    px.close()
    return rc, out, err, px


def zero_payload(px, data_msg_max=200):
    """No data connection, or none carried a byte past its data message."""
    return all(px.bytes(i, "s2c") == 0 and px.bytes(i, "c2s") <= data_msg_max
               for i in range(1, len(px.conns)))


def main():
    k1 = key_file("k1", os.urandom(24).hex().encode() + b"\n")
    k2 = key_file("k2", os.urandom(24).hex().encode() + b"\n")
    lst = Listener("--psk", k1)

    # 1. The right key, both directions; reverse needs no --allow-reverse.
    for name, role in (("forward", "-t"), ("reverse", "-r")):
        rc, out, err, px = through(lst, role, "127.0.0.1", "-T", "0.3",
                                   "-P", "2", "--psk", k1, "-J")
        ok = rc == 0 and json.loads(out)["result"]["bytes"] > 0
        check("right key, %s: exit 0 and bytes moved" % name, ok, err)
        check("right key, %s: control + 2 data connections" % name,
              len(px.conns) == 3, str(len(px.conns)))
    good = px.conns[0]

    # 1b. -i: the listener's slices come sealed, between start and result.
    rc, out, err, px = through(lst, "-t", "127.0.0.1", "-T", "0.5", "-i",
                               "0.1", "--psk", k1, "-J")
    s2c = messages(px.conns[0]["s2c"]) if px.conns else []
    ivs = [m for m in s2c if m[1] == INTERVAL]
    try:
        peers = [iv.get("peer") for iv in json.loads(out)["intervals"]]
    except (ValueError, KeyError):
        peers = []
    # (Its last slice may be folded into the one before, where the
    # client's last moment joined its previous slice.)
    check("right key, -i: the listener's interval messages, each sealed, "
          "before the result, in the client's intervals",
          rc == 0 and len(ivs) >= 4 and all(m[2] & F_MAC for m in ivs) and
          [m[1] for m in s2c][-1] == RESULT and
          len(ivs) - 1 <= len(peers) <= len(ivs) and
          all(isinstance(p, dict) for p in peers),
          "%s %s %s" % (err, [(m[1], m[2]) for m in s2c], peers))

    # 2. A wrong key: refused, exit 3, no data connection at all.
    for name, role in (("forward", "-t"), ("reverse", "-r")):
        rc, out, err, px = through(lst, role, "127.0.0.1", "-T", "0.3",
                                   "--psk", k2)
        check("wrong key, %s: exit 3, says authentication" % name,
              rc == 3 and "authentication failed" in err, err)
        check("wrong key, %s: only the control connection, < 1 KiB each "
              "way" % name,
              len(px.conns) == 1 and px.bytes(0, "c2s") < 1024 and
              px.bytes(0, "s2c") < 1024,
              "%d conns, %d/%d bytes" % (len(px.conns), px.bytes(0, "c2s"),
                                         px.bytes(0, "s2c")))

    # 3. No key against a keyed listener, and the environment variable.
    rc, out, err, px = through(lst, "-t", "127.0.0.1", "-T", "0.3")
    check("no key: exit 3, names --psk, no data connection",
          rc == 3 and "--psk" in err and len(px.conns) == 1, err)
    px = Proxy(lst.port, src=next_src())
    rc, out, err = client(px.port, "-t", "127.0.0.1", "-T", "0.3",
                          env={"GIGEBENCH_PSK_FILE": k1})
    px.close()
    check("GIGEBENCH_PSK_FILE holds the key: exit 0", rc == 0, err)

    # 4. Flipped bytes in a recorded exchange.
    c2s, s2c = messages(good["c2s"]), messages(good["s2c"])
    check("the recording holds hello, auth, done",
          [m[1] for m in c2s] == [HELLO, AUTH, DONE], str(c2s))
    check("the recording holds challenge, accept, start, result",
          [m[1] for m in s2c] == [CHALLENGE, ACCEPT, START, RESULT],
          str(s2c))
    flips = []
    for d, msgs in (("c2s", c2s), ("s2c", s2c)):
        for i, (off, typ, flags, length) in enumerate(msgs):
            # Not the length bytes: a longer length only waits out the
            # deadline (test_auth.c flips those, with every other bit).
            for rel in (0, 3, 4, 5, 7, HDR, "mid", -33, -32, -1):
                flips.append((d, typ, i, rel))
    refused = slow = 0
    bad = []
    for d, typ, i, o in flips:
        t0 = time.monotonic()
        rc, out, err, px = through(lst, "-t", "127.0.0.1", "-T", "0.2",
                                   "--psk", k1, "-J", flip=(0, d, i, o))
        slow = max(slow, time.monotonic() - t0)
        if typ in (HELLO, AUTH, CHALLENGE, ACCEPT):
            good_run = rc != 0 and len(px.conns) == 1
        elif typ == START:
            good_run = rc != 0 and zero_payload(px)
        else:	# done, result: after the data, the figures are refused
            good_run = rc != 0
        if good_run:
            refused += 1
        else:
            bad.append("%s type %d byte %s: rc %d, %d conns" %
                       (d, typ, o, rc, len(px.conns)))
    check("%d flipped bytes (hello, auth, challenge, accept, start, done, "
          "result): every one refused, no payload before the start" %
          len(flips), refused == len(flips), "; ".join(bad[:5]))
    check("each flipped run ended within 6 s (%.1f s at most)" % slow,
          slow < 6)

    # 5. A replayed hello and auth: a fresh challenge, then a refusal.
    rec_c2s = bytes(good["c2s"])
    hello_end = c2s[1][0]
    auth_end = c2s[2][0]
    s = socket.socket()
    s.bind((next_src(), 0))
    s.connect(("127.0.0.1", lst.port))
    s.settimeout(3)
    s.sendall(rec_c2s[:hello_end])
    got = b""
    while len(got) < HDR or len(got) < HDR + struct.unpack(">I",
                                                            got[8:12])[0]:
        chunk = s.recv(4096)
        if not chunk:
            break
        got += chunk
    old_nonce = bytes(good["s2c"][HDR:s2c[1][0]])
    check("replayed hello: a challenge with a new nonce",
          len(got) > HDR and got[5] == CHALLENGE and
          got[HDR:] != old_nonce, repr(got[:40]))
    s.sendall(rec_c2s[hello_end:auth_end])
    reply = b""
    try:
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk
    except socket.timeout:
        pass
    s.close()
    ok = len(reply) > HDR and reply[5] == REFUSE
    check("replayed auth: refused (authentication) and closed",
          ok and json.loads(reply[HDR:])["code"] == 5, repr(reply[:80]))
    # The recorded data token is worthless now.
    acc = s2c[1]
    token = json.loads(bytes(good["s2c"][acc[0] + HDR:
                                         acc[0] + HDR + acc[3] - 32]))["token"]
    body = json.dumps({"token": token, "stream": 0}).encode()
    s = socket.create_connection(("127.0.0.1", lst.port), 2)
    s.sendall(b"GBCP\x01" + bytes([DATA]) + b"\x00\x00" +
              struct.pack(">I", len(body)) + body)
    s.settimeout(3)
    try:
        closed = s.recv(1) == b""
    except OSError:
        closed = True
    s.close()
    check("the recorded data token: connection closed, nothing sent", closed)

    # 6. Data connections from another address than the control one.
    rc, out, err, px = through(lst, "-t", "127.0.0.1", "-T", "0.3",
                               "--psk", k1, src="127.0.1.200",
                               data_src="127.0.1.201")
    check("data connections from another address: test fails, zero payload",
          rc != 0 and zero_payload(px), "rc %d: %s" % (rc, err))
    check("and the listener says so",
          "not from the test's address 127.0.1.200" in lst.log())

    # 7. Failed keys are limited per source address.
    # Each of the five is a key check that fails (exit 3, "authentication
    # failed"), not a source already refused: the limit starts after the
    # fifth (issue 13: only the fifth was checked).
    bad = []
    for i in range(5):
        rc, out, err = client(lst.port, "-t", "127.0.0.1", "-T", "0.2",
                              "-B", "127.0.2.99", "--psk", k2)
        if rc != 3 or "authentication failed" not in err:
            bad.append("run %d: exit %d, %s" % (i + 1, rc,
                                                 err.strip()[:120]))
    check("5 wrong keys from 127.0.2.99: each refused, authentication "
          "failed", not bad, "; ".join(bad))
    rc, out, err = client(lst.port, "-t", "127.0.0.1", "-T", "0.2",
                          "-B", "127.0.2.99", "--psk", k1)
    check("then the right key from 127.0.2.99: refused, retry later",
          rc == 3 and "too many failed authentications" in err, err)
    rc, out, err = client(lst.port, "-t", "127.0.0.1", "-T", "0.2",
                          "-B", "127.0.2.98", "--psk", k1)
    check("while another address still gets in", rc == 0, err)
    lst.stop()

    # 8. Reverse tests: refused without --psk or --allow-reverse.
    plain = Listener()
    rc, out, err, px = through(plain, "-r", "127.0.0.1", "-T", "0.3")
    check("no key, no --allow-reverse: reverse refused with exit 3",
          rc == 3 and "--allow-reverse" in err, err)
    check("and no data connection", len(px.conns) == 1)
    rc, out, err, px = through(plain, "-t", "127.0.0.1", "-T", "0.3")
    check("forward still runs", rc == 0, err)
    rc, out, err, px = through(plain, "-t", "127.0.0.1", "-T", "0.3",
                               "--psk", k1)
    check("a key against a listener without one: exit 3, says so",
          rc == 3 and "no pre-shared key" in err and len(px.conns) == 1, err)
    plain.stop()
    rev = Listener("--allow-reverse")
    rc, out, err, px = through(rev, "-r", "127.0.0.1", "-T", "0.3")
    check("--allow-reverse: reverse runs", rc == 0, err)
    rev.stop()

    # 9. Key files refused at start-up, both roles: exit 2, one message
    # naming the file, nothing on stdout.
    cases = [
        ("mode 0644", key_file("m644", b"0123456789abcdef0", 0o644),
         "mode 0644"),
        ("mode 0640", key_file("m640", b"0123456789abcdef0", 0o640),
         "mode 0640"),
        ("mode 0602", key_file("m602", b"0123456789abcdef0", 0o602),
         "mode 0602"),
        ("empty", key_file("empty", b""), "empty"),
        ("only a newline", key_file("nl", b"\n"), "empty"),
        ("15 bytes", key_file("short", b"0123456789abcde"), "15 bytes"),
        ("missing", os.path.join(TMP, "nonexistent"), "No such file"),
        ("a directory", TMP, "not a regular file"),
    ]
    for name, path, why in cases:
        for role in (["-t", "127.0.0.1"], ["-S"]):
            p = subprocess.run([GB] + role + ["-p", "1", "--psk", path],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=10)
            err = p.stderr.decode()
            check("--psk %s (%s): exit 2, names the file and why" %
                  (name, role[0]),
                  p.returncode == 2 and not p.stdout and path in err and
                  why in err and err.count("\n") <= 2, err)
    p = subprocess.run([GB, "-S", "-p", "1"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=10,
                       env=dict(os.environ, GIGEBENCH_PSK_FILE=cases[0][1]))
    check("GIGEBENCH_PSK_FILE with mode 0644: exit 2, names the variable",
          p.returncode == 2 and b"GIGEBENCH_PSK_FILE" in p.stderr,
          p.stderr.decode())


try:
    main()
finally:
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
    subprocess.run(["rm", "-rf", TMP])
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
