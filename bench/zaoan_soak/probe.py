"""The probe: its own process, so the load generators' loops cannot delay it."""

import array
import collections
import time

from .common import *  # noqa: F401,F403
from .loop import *  # noqa: F401,F403


# ------------------------------------------------------------------------------------------
# Probe: its own process, so the load generators' loops cannot delay it.
# ------------------------------------------------------------------------------------------

class ProbeSession(Conn):
    kind = "probe-session"
    retry_after = (0.1, 0.1)

    def __init__(self, w, rec):
        super().__init__(w)
        self.rec = rec
        self.sent = collections.deque()
        self.buf = b""

    STALL_S = 5.0   # no answer to the oldest ping for this long: a stalled connection

    def begin(self):
        self.ready = False
        self.buf = b""
        self.send(b"session\n")
        self.loop.later(1.0, self.check_stall, self.gen)

    def check_stall(self, gen):
        """A session whose oldest ping has gone unanswered for STALL_S seconds while the
        service answers others is stalled: counted (with when), and replaced by a new one."""
        if gen != self.gen or self.closed or self.w.stopping:
            return
        if self.sent and time.perf_counter() - self.sent[0][0] > self.STALL_S:
            self.rec.stall(self.sent[0][1], len(self.sent))
            self.sent.clear()
            self.reconnect_after(0.0)
            return
        self.loop.later(1.0, self.check_stall, self.gen)

    def on_data(self, data):
        buf = self.buf + data
        lines = buf.split(b"\n")
        self.buf = lines.pop()
        now = time.perf_counter()
        for line in lines:
            if line == b"pong" and self.sent:
                t_sent, t_rel = self.sent.popleft()
                self.rec.add(t_rel, (now - t_sent) * 1000)
            elif line == b"ok" and not self.ready:
                self.ready = True
                self.next = monotonic()
                self.loop.later(0, self.ping, self.gen)
            else:
                code = self.w.answer(self.kind, "ping", line)
                if code == "busy":
                    self.rec.refuse(time.time() - self.w.t0)
                else:
                    self.rec.errors += 1
                if self.sent:
                    self.sent.popleft()

    def ping(self, gen):
        if gen != self.gen or self.closed or self.w.stopping:
            return
        self.sent.append((time.perf_counter(), time.time() - self.w.t0))
        self.send(b"ping\n")
        self.next += 0.010
        delay = self.next - monotonic()
        if delay < -1.0:        # more than a second behind: skip ahead instead of bursting
            self.next = monotonic() + 0.010
            delay = 0.010
        self.loop.later(max(0.0, delay), self.ping, self.gen)

    def on_eof(self):
        self.rec.lost += len(self.sent)
        self.sent.clear()
        self.rec.disconnects += 1
        self.reconnect_after(0.1)

    def finish(self):
        self.rec.unanswered_at_end += len(self.sent)
        self.close()


class ProbeOneShot(Conn):
    kind = "probe-oneshot"

    def __init__(self, w, rec):
        super().__init__(w)
        self.rec = rec

    def go(self):
        t_rel = time.time() - self.w.t0
        self.t0 = time.perf_counter()
        self.t_rel = t_rel
        self.done = False
        self.busy = False
        self.buf = b""
        if not self.connect():
            self.rec.refuse(t_rel)
            return
        self.send(b"ping\n")
        self.loop.later(5.0, self.timeout, self.gen)

    def on_data(self, data):
        if self.done:
            return
        self.buf += data
        if b"\n" not in self.buf:
            return
        line = self.buf.split(b"\n", 1)[0]
        self.done = True
        if line == b"pong":
            self.rec.add(self.t_rel, (time.perf_counter() - self.t0) * 1000)
        else:
            code = self.w.answer(self.kind, "ping", line)
            if code == "busy":
                self.busy = True
                self.rec.refuse(self.t_rel)
            else:
                self.rec.errors += 1

    def on_eof(self):
        if not self.done:
            self.rec.errors += 1
            self.w.count(self.kind, "closed-early")
            self.done = True
        self.close()

    def timeout(self, gen):
        if gen == self.gen and not self.closed:
            if not self.done:
                self.rec.timeouts += 1
            self.close()


class Recorder:
    def __init__(self):
        self.t = array.array("d")
        self.ms = array.array("d")
        self.refused_t = array.array("d")
        self.refused = self.errors = self.timeouts = self.lost = 0
        self.disconnects = self.unanswered_at_end = 0
        self.stalls = []    # (t_rel of the oldest unanswered ping, pings unanswered) per stall

    def stall(self, t_rel, unanswered):
        self.stalls.append((round(t_rel, 1), unanswered))
        self.lost += unanswered

    def refuse(self, t_rel):
        self.refused += 1
        self.refused_t.append(t_rel)

    def add(self, t_rel, ms):
        self.t.append(t_rel)
        self.ms.append(ms)

    def counters(self):
        return {"refused": self.refused, "errors": self.errors, "timeouts": self.timeouts,
                "lost": self.lost, "disconnects": self.disconnects,
                "unanswered_at_end": self.unanswered_at_end, "stalls": self.stalls[:50],
                "stall_count": len(self.stalls)}

    def recent(self, t_now, seconds):
        """Summary of the last `seconds`: cheap (walks back from the end), so the probe's
        loop is not held up while it publishes progress."""
        i = len(self.t)
        while i > 0 and self.t[i - 1] >= t_now - seconds:
            i -= 1
        return dict(self.counters(), recent=summarize(self.ms[i:].tolist()))

    def summary(self, t_now, seconds, minute_of, phases=()):
        by_minute = collections.defaultdict(list)
        for t, ms in zip(self.t, self.ms):
            by_minute[minute_of(t)].append(ms)
        out = self.recent(t_now, seconds)
        out["overall"] = summarize(self.ms.tolist())
        refused = collections.Counter(minute_of(t) for t in self.refused_t)
        out["minutes"] = {str(m): dict(summarize(by_minute.get(m, [])), refused=refused.get(m, 0))
                          for m in sorted(set(by_minute) | set(refused))}
        out["phases"] = {}
        for ph in phases:
            ms = [v for t, v in zip(self.t, self.ms) if ph["start"] <= t < ph["end"]]
            out["phases"][ph["name"]] = dict(summarize(ms), refused=sum(
                1 for t in self.refused_t if ph["start"] <= t < ph["end"]), stalls=sum(
                1 for t, _ in self.stalls if ph["start"] <= t < ph["end"]))
        return out


def run_probe(cfg):
    w = Worker(cfg, "probe")
    one, sess = Recorder(), Recorder()
    session = ProbeSession(w, sess)
    w.loop.later(0, session.start)
    pool = []
    state = {"next": monotonic() + 0.05}

    def fire():
        if w.stopping:
            return
        c = next((p for p in pool if p.closed), None)
        if c is None:
            c = ProbeOneShot(w, one)
            pool.append(c)
        c.go()
        state["next"] += 0.1
        delay = state["next"] - monotonic()
        if delay < -1.0:
            state["next"] = monotonic() + 0.1
            delay = 0.1
        w.loop.later(max(0.0, delay), fire)
    w.loop.later(0.05, fire)

    orig_snapshot = w.snapshot

    def snapshot(final=False):
        t_now = time.time() - w.t0
        for name, rec in (("oneshot", one), ("session", sess)):
            w.extra[name] = rec.summary(t_now, 10, w.minute_of, cfg.get("phases", ())) if final else rec.recent(t_now, 10)
        orig_snapshot(final)
    w.snapshot = snapshot
    w.run()
