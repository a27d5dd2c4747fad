"""Settings, constants and small helpers every soak process shares."""

import errno
import math
import os
import select
import socket
import time

EPOLLIN, EPOLLOUT = select.EPOLLIN, select.EPOLLOUT
EPOLLERR, EPOLLHUP = select.EPOLLERR, select.EPOLLHUP
monotonic = time.monotonic

NOBODY = 65534
PROBE_UID = 65533     # a third account: the goal is a ping from an account that is neither
CHILDREN = []          # every process the orchestrator started, killed if it fails midway
MAX_CONNECTIONS = 2048
MAX_ROOMS = 1100
P99_GOAL_MS = 10.0


def env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def env_float(name, default):
    value = os.environ.get(name, "")
    return float(value) if value.strip() else default


def summarize(values):
    """n, p50, p99, max (and mean) of a list of numbers."""
    if not values:
        return {"n": 0}
    s = sorted(values)
    return {"n": len(s), "p50": pct(s, 0.50), "p90": pct(s, 0.90), "p99": pct(s, 0.99),
            "max": s[-1], "min": s[0], "mean": sum(s) / len(s)}


def pct(sorted_values, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(p * len(sorted_values)))
    return sorted_values[rank - 1]


def errname(e):
    return errno.errorcode.get(e.errno, str(e.errno)).lower() if e.errno else type(e).__name__


class BlockingSession:
    """A blocking `session` connection to the service, read line by line (the orchestrator's
    `stats`, the calendar writer's `schedule`). Opened on first use; an OSError (or timeout)
    leaves it to the caller to `close` and try again."""
    name = "session"   # in the error when the service does not answer `session` with ok

    def __init__(self, path, timeout):
        self.path = path
        self.timeout = timeout
        self.sock = None
        self.buf = b""

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        s.connect(self.path)
        s.sendall(b"session\n")
        self.sock, self.buf = s, b""
        line = self.readline()
        if line != b"ok":
            self.close()
            raise OSError("%s: %r" % (self.name, line))

    def close(self):
        if self.sock:
            try:
                self.sock.close()
            except OSError:
                pass
        self.sock = None

    def send(self, request):
        if self.sock is None:
            self.connect()
        self.sock.sendall(request + b"\n")

    def readline(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise OSError("closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def read_answer(self):
        """The lines of one multi-line answer, without the empty line that ends it; an
        ERR answer is its one line."""
        lines = []
        while True:
            line = self.readline()
            if line == b"" or (not lines and line.startswith(b"ERR ")):
                return lines + ([line] if line else [])
            lines.append(line)
