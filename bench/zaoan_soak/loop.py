"""One event loop per process (epoll, level-triggered, a heap of timers), the counters a
client process keeps and writes as JSON, and the connections the clients build on."""

import collections
import errno
import heapq
import json
import math
import os
import random
import resource
import select
import signal
import socket
import time

from .common import *  # noqa: F401,F403


# ------------------------------------------------------------------------------------------
# One event loop per process: epoll, level-triggered, plus a heap of timers.
# ------------------------------------------------------------------------------------------

class Loop:
    def __init__(self):
        self.ep = select.epoll()
        self.handlers = {}
        self.timers = []
        self.seq = 0
        self.running = True

    def later(self, delay, fn, *args):
        self.seq += 1
        heapq.heappush(self.timers, (monotonic() + delay, self.seq, fn, args))

    def register(self, conn, mask):
        self.ep.register(conn.fd, mask)
        self.handlers[conn.fd] = conn

    def modify(self, conn, mask):
        try:
            self.ep.modify(conn.fd, mask)
        except OSError:
            pass

    def unregister(self, conn):
        if self.handlers.pop(conn.fd, None) is not None:
            try:
                self.ep.unregister(conn.fd)
            except OSError:
                pass

    def run(self):
        timers, handlers, poll = self.timers, self.handlers, self.ep.poll
        while self.running:
            now = monotonic()
            while timers and timers[0][0] <= now:
                _, _, fn, args = heapq.heappop(timers)
                fn(*args)
                if not self.running:
                    return
            timeout = 0.2
            if timers:
                timeout = min(timeout, max(0.0, timers[0][0] - monotonic()))
            for fd, ev in poll(timeout, 1024):
                conn = handlers.get(fd)
                if conn is not None:
                    conn.on_event(ev)


# ------------------------------------------------------------------------------------------
# Counters kept by a client process and written as JSON for the orchestrator.
# ------------------------------------------------------------------------------------------

class Worker:
    def __init__(self, cfg, role):
        self.cfg = cfg
        self.role = role
        self.path = cfg["socket"]
        self.t0 = cfg["t0"]
        self.out = cfg["out"]
        self.loop = Loop()
        self.counts = collections.Counter()      # "kind|key"
        self.answers = collections.Counter()     # "kind|label"
        self.errors = collections.Counter()      # "kind|code"
        self.open = collections.Counter()        # kind -> open now
        self.peak = collections.Counter()        # kind -> most open at once
        self.minutes = collections.defaultdict(collections.Counter)
        self.minute_open = collections.defaultdict(dict)
        self.minute = 0
        self.last_minute = max(0, int(math.ceil(cfg["duration"] / 60.0)) - 1)
        self.stopping = False
        self.clients = []
        self.extra = {}
        self.lists = collections.defaultdict(list)   # name -> samples (latencies, lifetimes)
        self.ppid = os.getppid()

    def count(self, kind, key, n=1):
        self.counts[kind + "|" + key] += n

    def answer(self, kind, label, line):
        """Counts one answer; returns its ERR code or None."""
        if line.startswith(b"ERR "):
            code = line[4:].split(b" ", 1)[0].decode("ascii", "replace") or "?"
            self.errors[kind + "|" + code] += 1
            m = self.minutes[self.minute]
            if code == "busy":
                m["busy"] += 1
                m["busy|" + kind] += 1
            else:
                m["errors"] += 1
            return code
        self.answers[kind + "|" + label] += 1
        self.minutes[self.minute]["answers"] += 1
        return None

    def refused(self, kind, why):
        self.count(kind, "refused-" + why)
        m = self.minutes[self.minute]
        m["busy"] += 1
        m["busy|" + kind] += 1

    def opened(self, kind):
        self.open[kind] += 1
        if self.open[kind] > self.peak[kind]:
            self.peak[kind] = self.open[kind]

    def closed(self, kind):
        self.open[kind] -= 1

    def minute_of(self, t_rel):
        return min(max(0, int(t_rel // 60)), self.last_minute)

    def tick(self):
        if os.getppid() != self.ppid:      # the soak is gone: stop, do not attack forever
            self.loop.running = False
            return
        self.minute = self.minute_of(time.time() - self.t0)
        gauge = self.minute_open[self.minute]
        for kind, n in self.open.items():
            if n > gauge.get(kind, -1):
                gauge[kind] = n
        self.loop.later(1.0, self.tick)

    def snapshot(self, final=False):
        ru = resource.getrusage(resource.RUSAGE_SELF)
        data = {
            "role": self.role, "pid": os.getpid(), "uid": os.geteuid(), "final": final,
            "cpu": ru.ru_utime + ru.ru_stime, "maxrss_kb": ru.ru_maxrss,
            "counts": dict(self.counts), "answers": dict(self.answers),
            "errors": dict(self.errors), "open": dict(self.open), "peak": dict(self.peak),
            "minutes": {str(k): dict(v) for k, v in self.minutes.items()},
            "minute_open": {str(k): v for k, v in self.minute_open.items()},
            "extra": self.extra,
            "lists": {k: summarize(v) for k, v in self.lists.items()},
        }
        path = os.path.join(self.out, self.role + ".json")
        with open(path + ".tmp", "w") as f:
            json.dump(data, f)
        os.replace(path + ".tmp", path)

    def periodic_snapshot(self):
        self.snapshot()
        self.loop.later(5.0, self.periodic_snapshot)

    def run(self):
        def stop(signum, frame):
            self.loop.running = False
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.loop.later(0, self.tick)
        self.loop.later(1.0, self.periodic_snapshot)
        self.loop.run()
        self.stopping = True
        for c in self.clients:
            c.finish()
        self.snapshot(final=True)


# ------------------------------------------------------------------------------------------
# Connections
# ------------------------------------------------------------------------------------------

class Conn:
    """A non-blocking Unix stream connection driven by the worker's loop. A client that
    runs in a loop defines `begin` (what it does once connected) and `retry_after`; `start`
    connects and begins, `reconnect_after` closes and starts again."""
    kind = "conn"
    read_on_events = True
    retry_after = (0.2, 0.5)   # seconds (lo, hi, drawn at random) before trying a refused connect again

    def __init__(self, w):
        self.w = w
        self.loop = w.loop
        self.sock = None
        self.fd = -1
        self.closed = True
        self.out = bytearray()
        self.mask = 0
        self.gen = 0
        self.write_dead = False
        self.t_connect = 0.0
        w.clients.append(self)

    # -- lifecycle --
    def start(self):
        """Connects and begins, unless the soak is stopping. A connect that failed (counted
        by `connect`) is tried again `retry_after` seconds later."""
        if self.w.stopping:
            return
        if not self.connect():
            self.loop.later(random.uniform(*self.retry_after), self.start)
            return
        self.begin()

    def begin(self):
        """Just connected: send the first request(s), arm the timers."""

    def reconnect_after(self, delay):
        """Closes, and starts again `delay` seconds later."""
        self.close()
        self.loop.later(delay, self.start)

    def connect(self, kind=None):
        """Connects; True if connected. Failures are counted (refused-eagain etc.)."""
        kind = kind or self.kind
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC)
        except OSError as e:
            self.w.count(kind, "socket-" + errname(e))
            return False
        try:
            s.connect(self.w.path)
        except BlockingIOError:
            s.close()
            self.w.refused(kind, "eagain")
            return False
        except OSError as e:
            s.close()
            if e.errno == errno.ECONNREFUSED:
                self.w.refused(kind, "econnrefused")
            else:
                self.w.count(kind, "connect-" + errname(e))
            return False
        self.sock = s
        self.fd = s.fileno()
        self.closed = False
        self.write_dead = False
        self.out = bytearray()
        self.gen += 1
        self.t_connect = monotonic()
        self.mask = EPOLLIN if self.read_on_events else 0
        self.loop.register(self, self.mask)
        self.w.opened(self.kind)
        self.w.count(self.kind, "connections")
        return True

    def close(self):
        if self.closed:
            return
        self.closed = True
        self.loop.unregister(self)
        try:
            self.sock.close()
        except OSError:
            pass
        self.sock = None
        self.w.closed(self.kind)

    def finish(self):
        """At the end of the soak: close without reconnecting."""
        self.close()

    def set_mask(self, mask):
        if mask != self.mask and not self.closed:
            self.mask = mask
            self.loop.modify(self, mask)

    # -- writing --
    def send(self, data):
        if self.closed or self.write_dead:
            return
        if self.out:
            self.out += data
            return
        try:
            n = self.sock.send(data)
        except BlockingIOError:
            n = 0
        except OSError as e:
            self.on_send_error(e)
            return
        if n < len(data):
            self.out += data[n:]
            self.set_mask(self.mask | EPOLLOUT)

    def flush(self):
        try:
            n = self.sock.send(self.out)
        except BlockingIOError:
            return
        except OSError as e:
            self.on_send_error(e)
            return
        del self.out[:n]
        if not self.out:
            self.set_mask(self.mask & ~EPOLLOUT)
            self.on_drained()

    def on_send_error(self, e):
        # The service closed (too-long, busy, shutdown). What it sent before is still
        # readable; keep reading until EOF.
        if not getattr(self, "busy", False):
            self.w.count(self.kind, "send-" + errname(e))
        self.write_dead = True
        self.out = bytearray()
        self.set_mask(self.mask & ~EPOLLOUT)

    def on_drained(self):
        pass

    # -- reading --
    def on_event(self, ev):
        if ev & EPOLLOUT and not self.closed:
            self.flush()
        if self.closed:
            return
        if self.read_on_events:
            if ev & (EPOLLIN | EPOLLHUP | EPOLLERR):
                self.read_ready()
        elif ev & (EPOLLHUP | EPOLLERR):
            self.on_hangup()

    def on_hangup(self):
        self.close()

    def read_ready(self):
        try:
            data = self.sock.recv(262144)
        except BlockingIOError:
            return
        except OSError as e:
            if not getattr(self, "busy", False):    # after ERR busy a reset is expected
                self.w.count(self.kind, "recv-" + errname(e))
            self.on_eof()
            return
        if data:
            self.on_data(data)
        else:
            self.on_eof()

    def on_data(self, data):
        pass

    def on_eof(self):
        self.close()


class LineClient(Conn):
    """Parses answers: single lines, multi-line answers (ended by an empty line; errors are
    one line) and, while watching, update lines."""

    def __init__(self, w):
        super().__init__(w)
        self.buf = bytearray()
        self.expect = collections.deque()   # (label, multi, t_sent, extra)
        self.watching = False
        self.busy = False                   # the service answered ERR busy (then closes)

    def connect(self, kind=None):
        ok = super().connect(kind)
        if ok:
            self.buf = bytearray()
            self.expect.clear()
            self.watching = False
            self.busy = False
        return ok

    def count_close(self, key):
        """Counts the service's closing this connection as `key`, unless it answered
        ERR busy: then closing is what it said it would do."""
        if not self.busy:
            self.w.count(self.kind, key)

    def request(self, line, label, multi=False, extra=None):
        self.expect.append((label, multi, monotonic(), extra))
        self.send(line + b"\n")

    def on_data(self, data):
        buf = self.buf
        buf += data
        pos = 0
        n = len(buf)
        while pos < n:
            if self.watching or not self.expect:
                i = buf.find(b"\n", pos)
                if i < 0:
                    break
                line = bytes(buf[pos:i])
                pos = i + 1
                if line.startswith(b"ERR busy"):
                    self.busy = True
                if self.watching:
                    self.on_update(line)
                else:
                    self.on_unexpected(line)
                if self.closed:
                    return
                continue
            label, multi, t_sent, extra = self.expect[0]
            i = buf.find(b"\n", pos)
            if i < 0:
                break
            first = bytes(buf[pos:i])
            if first.startswith(b"ERR busy"):
                self.busy = True
            if multi and i > pos and not first.startswith(b"ERR "):
                j = buf.find(b"\n\n", pos)
                if j < 0:
                    break
                end = j + 2
            else:
                end = i + 1
            pos = end
            self.expect.popleft()
            self.on_answer(label, first, t_sent, extra)
            if self.closed:
                return
        del buf[:pos]

    def on_answer(self, label, line, t_sent, extra):
        self.w.answer(self.kind, label, line)

    def on_update(self, line):
        pass

    def on_unexpected(self, line):
        code = self.w.answer(self.kind, "unexpected", line)
        if code is None:
            self.w.count(self.kind, "unexpected-lines")
