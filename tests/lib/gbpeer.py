"""gbpeer.py: what the Python tests that run a real gigebench listener
share: a free port, a listener started with given arguments (and waited
for until it listens), the control protocol's framing, a real client
run to its end, and the "ok - ..." / "FAIL - ..." tally.

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
    import gbpeer
    from gbpeer import check

    def main():
        lst = gbpeer.Listener(tmp, "-v")
        try:
            r = gbpeer.client(lst.port, "-l", "16K", "-T", "0.2", "-q")
            check("a real test", r.rc == 0, r.why())
        finally:
            lst.stop()

    if __name__ == "__main__":
        gbpeer.run(main)

run() prints "N passed, M failed" at the end and exits 1 when a check
failed or main raised (the exception is counted as a FAIL line).

What it must not do: know any test's cases or the fake client's protocol
logic (that is tests/hostile.py), or leave a process it started running.
"""

import json
import os
import random
import socket
import struct
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
GB = os.environ.get("GIGEBENCH", os.path.join(TOP, "build", "gigebench"))
HOST = "127.0.0.1"


# --- the tally

class Tally:
    """ok/FAIL lines and their counts."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, cond, detail=""):
        if cond:
            self.passed += 1
            print("ok - " + name)
        else:
            self.failed += 1
            print("FAIL - " + name + (": " + detail if detail else ""))
        sys.stdout.flush()
        return bool(cond)

    def finish(self):
        """Prints the final line; the exit status to use."""
        print("%d passed, %d failed" % (self.passed, self.failed))
        sys.stdout.flush()
        return 1 if self.failed else 0


TALLY = Tally()
check = TALLY.check


def run(main):
    """Runs main() (its return value is ignored unless it is a non-zero
    int) and exits with the tally's status: 1 on any FAIL, exception or
    non-zero return."""
    rc = 0
    try:
        if not os.access(GB, os.X_OK):
            check("gigebench binary at %s (run make)" % GB, False)
        else:
            rc = main() or 0
    except KeyboardInterrupt:
        check("interrupted", False)
    except BaseException as e:     # SystemExit from a helper included
        if isinstance(e, SystemExit) and e.code in (None, 0):
            pass
        else:
            check("no exception", False, "%s: %s" % (type(e).__name__, e))
    status = TALLY.finish()
    sys.exit(status or (1 if rc else 0))


# --- ports and listeners

def free_port():
    """A TCP port on 127.0.0.1 nobody holds now (20000-32000)."""
    for _ in range(200):
        p = random.randint(20000, 32000)
        s = socket.socket()
        try:
            s.bind((HOST, p))
            return p
        except OSError:
            continue
        finally:
            s.close()
    raise RuntimeError("no free port")


def listening(port, how="connect"):
    """True when something listens on TCP port on 127.0.0.1.  how:
    "connect" (a connection the listener sees, accepts and logs as closed
    by its peer, as the tests always did) or "ss" (ss -Htln, which the
    listener does not see)."""
    if how == "ss":
        out = subprocess.run(["ss", "-Htln", "sport = :%d" % port],
                             stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout
        return bool(out.strip())
    try:
        socket.create_connection((HOST, port), 0.2).close()
        return True
    except OSError:
        return False


class Listener:
    """`gigebench -r -p PORT ARGS...` on a free port, its stderr in
    TMP/l.PORT.err (self.err), its stdout in TMP/l.PORT.out (self.out)
    when out=True, else /dev/null.  The constructor returns once the port
    listens (5 s at most; else RuntimeError, the listener stopped), as
    listening(port, probe) sees it."""

    def __init__(self, tmp, *args, out=False, preexec_fn=None,
                 probe="connect"):
        self.port = free_port()
        self.err = os.path.join(tmp, "l.%d.err" % self.port)
        self.out = os.path.join(tmp, "l.%d.out" % self.port) if out else None
        with open(self.err, "wb") as fe:
            fo = open(self.out, "wb") if out else subprocess.DEVNULL
            try:
                self.p = subprocess.Popen(
                    [GB, "-r", "-p", str(self.port)] + list(args),
                    stdout=fo, stderr=fe, preexec_fn=preexec_fn)
            finally:
                if out:
                    fo.close()
        for _ in range(50):
            if listening(self.port, probe):
                return
            if self.p.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the listener did not come up on port %d: %s" %
                           (self.port, self.log()[-300:]))

    def alive(self):
        return self.p.poll() is None

    def log(self):
        """Its stderr so far."""
        with open(self.err, errors="replace") as f:
            return f.read()

    def stop(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()


# --- the real client

class Result:
    """A finished client: rc (-1: timed out), out, err (text), secs."""

    def __init__(self, rc, out, err, secs):
        self.rc, self.out, self.err, self.secs = rc, out, err, secs

    def why(self, n=None):
        """ "exit RC: STDERR" (STDERR cut to n characters)."""
        return "exit %d: %s" % (self.rc, self.err[:n] if n else self.err)


def client_argv(port, *args):
    return [GB, "-t", HOST, "-p", str(port)] + list(args)


def client(port, *args, timeout=20):
    """Runs `gigebench -t 127.0.0.1 -p PORT ARGS...` to its end."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(client_argv(port, *args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        rc, out = p.returncode, p.stdout.decode(errors="replace")
        err = p.stderr.decode(errors="replace").strip()
    except subprocess.TimeoutExpired:
        rc, out, err = -1, "", "timed out after %g s" % timeout
    return Result(rc, out, err, time.monotonic() - t0)


def client_start(port, *args):
    """The same client in the background; finish it with client_wait."""
    return subprocess.Popen(client_argv(port, *args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def client_wait(proc, timeout=15):
    """Waits for a client_start process (killed after timeout s); the
    Result's secs is the time waited here."""
    t0 = time.monotonic()
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return Result(proc.returncode, out.decode(errors="replace"),
                  err.decode(errors="replace").strip(),
                  time.monotonic() - t0)


# --- the control protocol's framing (src/proto.c)

def jbytes(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def frame(mtype, body=b"", version=1, flags=0, length=None, magic=b"GBCP"):
    """One control message: magic, version, type, flags, body length (big
    endian), body (bytes, str, or an object sent as JSON); length
    overrides the real body length."""
    if not isinstance(body, bytes):
        body = jbytes(body) if not isinstance(body, str) else body.encode()
    n = len(body) if length is None else length
    return (magic + bytes([version, mtype]) + struct.pack(">HI", flags, n) +
            body)
