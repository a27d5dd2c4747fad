"""The hostile clients (uid 65534): every attack at once, each in a loop."""

import os
import random
import socket

from .common import *  # noqa: F401,F403
from .loop import *  # noqa: F401,F403
from .handover import *  # noqa: F401,F403
from .clients import SlowReader


# ------------------------------------------------------------------------------------------
# Hostile clients (run as uid 65534)
# ------------------------------------------------------------------------------------------

class Holder:
    """Opens as many `watch ping` connections as the service takes, and holds them."""

    def __init__(self, w, cap):
        self.w = w
        self.cap = cap
        self.free = []
        self.growing = True
        self.held = 0

    def tick(self):
        if self.w.stopping:
            return
        tries = 32 if self.growing else 1
        for _ in range(tries):
            if self.cap and self.w.open["hold"] >= self.cap:
                break
            c = self.free.pop() if self.free else Held(self.w, self)
            if not c.open():
                self.free.append(c)
                self.growing = False
                break
        self.w.loop.later(0.05 if self.growing else 0.1, self.tick)


class Held(LineClient):
    kind = "hold"

    def __init__(self, w, pool):
        super().__init__(w)
        self.pool = pool
        self.holding = False

    def open(self):
        if not self.connect():
            return False
        self.watching = True
        self.holding = False
        self.send(b"watch ping\n")
        return True

    def on_update(self, line):
        code = self.w.answer(self.kind, "watch ping", line)
        if code == "busy":
            self.pool.growing = False
        elif not self.holding:
            self.holding = True
            self.pool.held += 1
            self.pool.growing = True
            if self.pool.held > self.w.extra.get("held_peak", 0):
                self.w.extra["held_peak"] = self.pool.held

    def release(self):
        """No longer one of the pool's held connections; True if it was."""
        was_holding = self.holding
        if was_holding:
            self.pool.held -= 1
            self.holding = False
        return was_holding

    def on_eof(self):
        if self.release():
            self.w.count(self.kind, "held-closed-by-service")
        self.close()
        self.pool.free.append(self)

    def finish(self):
        self.release()
        self.close()


class Drip(LineClient):
    """Sends one byte every 2-5 s of a line that never ends (session or one-shot)."""
    retry_after = (0.5, 1.5)

    def __init__(self, w, session):
        super().__init__(w)
        self.session = session
        self.kind = "drip-session" if session else "drip-oneshot"

    def begin(self):
        if self.session:
            self.request(b"session", "session")
        self.loop.later(random.uniform(2, 5), self.drip, self.gen)

    def drip(self, gen):
        if gen != self.gen or self.closed or self.w.stopping:
            return
        self.send(b"x")
        self.w.count(self.kind, "bytes-sent")
        self.loop.later(random.uniform(2, 5), self.drip, self.gen)

    def on_answer(self, label, line, t_sent, extra):
        self.busy = self.w.answer(self.kind, label, line) == "busy"

    def on_unexpected(self, line):
        self.busy = self.w.answer(self.kind, "partial", line) == "busy"

    def on_eof(self):
        if not self.busy:
            self.w.count(self.kind, "closed-by-service")
            self.w.lists[self.kind + " lifetime s"].append(monotonic() - self.t_connect)
        self.reconnect_after(random.uniform(0.5, 1.5))


class Flood(LineClient):
    """`live add` pipelined `depth` deep: refused (forbidden), and each refusal is logged."""
    kind = "flood"
    retry_after = (0.2, 0.5)

    def __init__(self, w, depth):
        super().__init__(w)
        self.depth = depth
        self.n = 0

    def begin(self):
        self.request(b"session", "session")
        self.more(self.depth)

    def more(self, k):
        lines = []
        for _ in range(k):
            self.n += 1
            lines.append(b"live add h%d +1h pwned %d" % (self.n % 5000, self.n))
            self.expect.append(("live add", False, 0.0, None))
        self.send(b"\n".join(lines) + b"\n")

    def on_data(self, data):
        before = len(self.expect)
        super().on_data(data)
        if not self.closed and not self.busy and not self.write_dead:
            done = before - len(self.expect)
            if done > 0:
                self.more(done)

    def on_answer(self, label, line, t_sent, extra):
        if self.w.answer(self.kind, label, line) == "busy":
            self.busy = True
            self.expect.clear()

    def on_eof(self):
        self.count_close("closed-by-service")
        self.reconnect_after(random.uniform(0.2, 0.5))


class OverlongLine(LineClient):
    """A line over the service's limit: ERR too-long, then the service closes. Whatever it
    answers after that is counted; a close before the answer is `closed-early`. A subclass
    sets `pause_after_close`, the seconds (lo, hi) before it connects again."""

    def on_unexpected(self, line):
        self.w.answer(self.kind, "after too-long", line)

    def on_eof(self):
        if self.expect:
            self.count_close("closed-early")
        self.reconnect_after(random.uniform(*self.pause_after_close))


class TooLong(OverlongLine):
    """One-shot lines of 4097 and 5000 bytes."""
    kind = "too-long"
    retry_after = (0.05, 0.2)
    pause_after_close = (0.01, 0.03)

    def begin(self):
        n = random.choice([4097, 5000])
        self.expect.append(("%d-byte line" % n, False, 0.0, None))
        self.send(b"A" * n + b"\n")


class MegaLine(OverlongLine):
    """`session`, then a 1 MiB line: the service closes mid-send."""
    kind = "mega-line"
    retry_after = (0.1, 0.3)
    pause_after_close = (0.15, 0.35)

    def begin(self):
        self.request(b"session", "session")
        self.expect.append(("1 MiB line", False, 0.0, None))
        self.send(b"B" * (1 << 20) + b"\n")


BAD_UTF8 = [
    (b"\xff\xfe ping", "0xff 0xfe"),
    (b"greeting \xc3\x28", "bad continuation"),
    (b"time \xed\xa0\x80", "surrogate"),
    (b"\xc0\xafping", "overlong"),
    (b"countdown \xf8\x88\x80\x80\x80", "5-byte form"),
    (b"live list \xe2\x82", "truncated sequence"),
]


class BadUtf8(LineClient):
    """A session sending invalid UTF-8 lines, with a `ping` to show it stays usable."""
    kind = "bad-utf8"
    retry_after = (0.2, 0.5)

    def begin(self):
        self.batches = 0
        self.request(b"session", "session")
        self.loop.later(0.02, self.batch, self.gen)

    def batch(self, gen):
        if gen != self.gen or self.closed or self.w.stopping or self.busy:
            return
        if self.batches >= 100:
            self.request(b"quit", "quit")
            return
        self.batches += 1
        if len(self.expect) < 100:
            lines = []
            for raw, label in random.sample(BAD_UTF8, 3):
                lines.append(raw)
                self.expect.append((label, False, 0.0, None))
            lines.append(b"ping")
            self.expect.append(("ping", False, 0.0, None))
            self.send(b"\n".join(lines) + b"\n")
        self.loop.later(0.02, self.batch, self.gen)

    def on_answer(self, label, line, t_sent, extra):
        if self.w.answer(self.kind, label, line) == "busy":
            self.busy = True
            self.expect.clear()

    def on_eof(self):
        if self.expect:
            self.count_close("closed-early")
        self.reconnect_after(random.uniform(0.05, 0.2) if not self.busy else 0.5)


class RandomBytes(LineClient):
    """Random bytes 0-255: one-shot (4 KiB, read to EOF) or a session streaming 1 KiB every
    10 ms for 5 s. Every line it makes is counted by its answer's code."""
    kind = "random"
    retry_after = (0.2, 0.5)

    def begin(self):
        self.stream = random.random() < 0.5
        self.end_at = monotonic() + 5
        if self.stream:
            self.send(b"session\n")
            self.loop.later(0.01, self.chunk, self.gen)
        else:
            # one-shot: 4 KiB, then EOF so an unterminated last line is answered too
            self.send(os.urandom(4096))
            if not self.out:
                self.on_drained()

    def on_drained(self):
        if not self.stream and not self.closed:
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def chunk(self, gen):
        if gen != self.gen or self.closed or self.w.stopping:
            return
        if monotonic() > self.end_at:
            self.w.count(self.kind, "sessions-done")
            self.reconnect_after(0.05)
            return
        self.send(os.urandom(1024))
        self.loop.later(0.01, self.chunk, self.gen)

    def on_unexpected(self, line):
        self.w.answer(self.kind, "random line", line)

    def on_eof(self):
        self.reconnect_after(random.uniform(0.02, 0.1))


class Churn:
    """Connect and close at once, 2 every 10 ms."""
    kind = "churn"

    def __init__(self, w):
        self.w = w
        w.clients.append(self)

    def tick(self):
        if self.w.stopping:
            return
        for _ in range(2):
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC)
            except OSError as e:
                self.w.count(self.kind, "socket-" + errname(e))
                break
            try:
                s.connect(self.w.path)
                self.w.count(self.kind, "connect-close")
            except BlockingIOError:
                self.w.refused(self.kind, "eagain")
            except OSError as e:
                self.w.count(self.kind, "connect-" + errname(e))
            s.close()
        self.w.loop.later(0.01, self.tick)

    def finish(self):
        pass


ATTACKS = ["hold", "drip", "slow", "flood", "toolong", "badutf8", "random", "mega", "churn", "handover"]


def run_hostile(cfg):
    w = Worker(cfg, "hostile")
    w.extra["held_peak"] = 0
    on = set(cfg["attacks"])
    # Persistent attacks first, then the holder and the ones that need new connections.
    if "drip" in on:
        for i in range(8):
            w.loop.later(random.uniform(0, 0.5), Drip(w, True).start)
            w.loop.later(random.uniform(0, 0.5), Drip(w, False).start)
    if "slow" in on:
        w.loop.later(0.1, SlowReader(w, "slow-steady", 8192, 0.0005).start)
    if "flood" in on:
        w.loop.later(0.2, Flood(w, 32).start)
    if "badutf8" in on:
        w.loop.later(0.3, BadUtf8(w).start)
    if "random" in on:
        w.loop.later(0.4, RandomBytes(w).start)
        w.loop.later(0.5, RandomBytes(w).start)
    if "toolong" in on:
        w.loop.later(1.0, TooLong(w).start)
    if "mega" in on:
        w.loop.later(1.0, MegaLine(w).start)
    if "churn" in on:
        w.loop.later(1.0, Churn(w).tick)
    if "handover" in on:
        PipeFiller(w).start()
    holder = Holder(w, cfg["hostile_hold"])
    if "hold" in on:
        w.loop.later(1.5, holder.tick)

    def report_held():
        w.extra["held_now"] = holder.held
        w.loop.later(1.0, report_held)
    w.loop.later(1.0, report_held)
    w.run()
    w.extra["held_at_stop"] = holder.held
