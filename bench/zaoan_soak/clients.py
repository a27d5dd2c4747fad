"""The owner's clients (uid 0, the service's own user): watchers, sessions, one-shot
workers, slow readers and a writer."""

import random
import time

from .common import *  # noqa: F401,F403
from .loop import *  # noqa: F401,F403
from .handover import *  # noqa: F401,F403


# ------------------------------------------------------------------------------------------
# Owner clients
# ------------------------------------------------------------------------------------------

ONESHOT_REQUESTS = [(b"greeting", "greeting"), (b"time HH:mm:ss", "time"),
                    (b"countdown", "countdown"), (b"ping", "ping")]


class OneShot(LineClient):
    kind = "oneshot"
    retry_after = (0.05, 0.3)

    def begin(self):
        req, label = random.choice(ONESHOT_REQUESTS)
        self.answered = False
        self.request(req, label)
        self.loop.later(15.0, self.timeout, self.gen)

    def on_answer(self, label, line, t_sent, extra):
        self.w.answer(self.kind, label, line)
        self.answered = True

    def on_unexpected(self, line):
        self.w.count(self.kind, "extra-lines")

    def timeout(self, gen):
        if gen == self.gen and not self.closed:
            self.w.count(self.kind, "timeout")
            self.reconnect_after(0.1)

    def on_eof(self):
        if not self.answered:
            self.w.count(self.kind, "closed-early")
        self.reconnect_after(random.uniform(0.2, 0.6) if self.busy else random.uniform(0.0, 0.4))


def session_requests(rooms):
    r = random.randint(1, rooms)
    choices = [
        (b"ping", "ping", False),
        (b"greeting", "greeting", False),
        (b"time HH:mm:ss", "time", False),
        (b"countdown r%d" % r, "countdown ID", False),
        (b"duration %d" % random.randint(0, 100000), "duration", False),
        (b"ago -%dm" % random.randint(1, 600), "ago", False),
        (b"status", "status", False),
        (b"ticker %d" % random.randint(0, 5), "ticker", False),
        (b"--format=json countdown", "json countdown", False),
        (b"live show r%d" % r, "live show", True),
    ]
    return random.choice(choices)


class Session(LineClient):
    kind = "session"
    retry_after = (0.1, 0.5)
    STALL_S = 10.0

    def begin(self):
        self.quitting = False
        self.end_at = monotonic() + random.uniform(20, 120)
        self.request(b"session", "session")
        self.loop.later(random.uniform(0.1, 1.0), self.batch, self.gen)

    def on_answer(self, label, line, t_sent, extra):
        code = self.w.answer(self.kind, label, line)
        if code == "busy":
            self.busy = True
            self.expect.clear()
        if label == "live list" and code is None:
            self.w.lists["live list ms"].append((monotonic() - t_sent) * 1000)

    def batch(self, gen):
        if gen != self.gen or self.closed or self.quitting or self.w.stopping or self.busy:
            return
        if self.expect and monotonic() - self.expect[0][2] > self.STALL_S:
            # No answer for STALL_S while the service answers others: stalled. Counted (and
            # when), then replaced, as a client with a timeout would.
            self.w.count(self.kind, "stalled")
            stalls = self.w.extra.setdefault("session_stalls_t", [])
            if len(stalls) < 1000:
                stalls.append(round(time.time() - self.w.t0 - self.STALL_S, 1))
            self.reconnect_after(random.uniform(0.05, 0.5))
            return
        if monotonic() > self.end_at:
            self.quitting = True
            self.request(b"quit", "quit")
            return
        if len(self.expect) > 50:
            self.w.count(self.kind, "backlogged")   # the service is behind; wait
        else:
            lines = []
            for _ in range(random.randint(3, 6)):
                req, label, multi = session_requests(self.w.cfg["rooms"])
                lines.append(req)
                self.expect.append((label, multi, monotonic(), None))
            if random.random() < self.w.cfg["live_list"]:
                lines.append(b"live list")
                self.expect.append(("live list", True, monotonic(), None))
            self.send(b"\n".join(lines) + b"\n")
        self.loop.later(random.uniform(0.5, 1.5), self.batch, self.gen)

    def on_eof(self):
        if self.expect:
            self.count_close("closed-early")
        elif not self.quitting:
            self.count_close("closed-by-service")
        self.reconnect_after(random.uniform(0.5, 1.0) if self.busy else random.uniform(0.05, 0.5))


class Watcher(LineClient):
    kind = "watch"
    retry_after = (0.1, 0.5)

    def begin(self):
        self.req = random.choice([b"time HH:mm:ss", b"countdown"])
        self.label = "watch " + self.req.decode()
        self.in_session = random.random() < 0.2
        self.ending = False
        self.updates = 0
        self.last = monotonic()
        if self.in_session:
            self.request(b"session", "session")
            self.send(b"watch " + self.req + b"\n")
        else:
            self.watching = True
            self.send(b"watch " + self.req + b"\n")
        if random.random() < 0.33:
            self.loop.later(random.uniform(5, 60), self.leave, self.gen)

    def on_answer(self, label, line, t_sent, extra):
        code = self.w.answer(self.kind, label, line)
        if code == "busy":
            self.busy = True
        elif label == "session":
            self.watching = True

    def on_update(self, line):
        now = monotonic()
        if self.ending and self.in_session and line == b"pong":
            # the line that ended the watch, answered as usual in a session
            self.watching = False
            self.w.answer(self.kind, "end watch", line)
            self.request(b"quit", "quit")
            return
        code = self.w.answer(self.kind, self.label, line)
        if code == "busy":
            self.busy = True
            return
        if self.updates:
            gap = now - self.last
            if gap > 1.5:
                self.w.lists["watch gap s"].append(gap)
            self.note_longest_gap(gap)
            self.w.count(self.kind, "gaps-checked")
        self.updates += 1
        self.last = now

    def note_longest_gap(self, gap):
        if gap > self.w.extra.get("watch_max_gap_s", 0):
            self.w.extra["watch_max_gap_s"] = gap

    def leave(self, gen):
        if gen != self.gen or self.closed or self.w.stopping or self.busy:
            return
        how = random.choice(["close", "line"])
        if how == "close":
            self.w.count(self.kind, "left-by-close")
            self.reconnect_after(random.uniform(0.1, 1.0))
        else:
            self.w.count(self.kind, "left-by-line")
            self.ending = True
            self.send(b"ping\n")   # any line ends a watch; one-shot: closed, not answered

    def on_eof(self):
        if not self.ending:
            self.count_close("closed-by-service")
        self.reconnect_after(random.uniform(0.5, 1.0) if self.busy else random.uniform(0.1, 1.0))

    def finish(self):
        if not self.closed and self.updates and not self.busy:
            self.note_longest_gap(monotonic() - self.last)
        self.close()


class SlowReader(Conn):
    """A session pipelining `help` that reads `chunk` bytes every `period` seconds."""
    read_on_events = False
    retry_after = (0.2, 0.5)

    def __init__(self, w, kind, chunk, period):
        super().__init__(w)
        self.kind = kind
        self.chunk = chunk
        self.period = period
        self.batch = b"help\n" * 2000

    def begin(self):
        self.tail = b""
        self.first = True
        self.last = monotonic()
        self.send(b"session\n")
        self.fill()
        self.loop.later(self.period, self.tick, self.gen)

    def fill(self):
        """Keeps the socket's send buffer full of `help` requests: the service reads them
        as fast as its limit on unread answers lets it."""
        for _ in range(16):
            if self.closed or self.write_dead or self.out:
                return
            self.send(self.batch)
        # Still accepting: come back when writable (flush of nothing -> on_drained -> fill).
        self.set_mask(self.mask | EPOLLOUT)

    def on_drained(self):
        self.fill()

    def on_hangup(self):
        # Stop polling (HUP is level-triggered); the timer reads what is left, then EOF.
        self.loop.unregister(self)

    def tick(self, gen):
        if gen != self.gen or self.closed:
            return
        now = monotonic()
        chunks = int((now - self.last) / self.period)
        if chunks > 8:
            self.w.count(self.kind, "late-ticks")
            chunks = 8
            self.last = now
        else:
            self.last += chunks * self.period
        got = 0
        for _ in range(chunks):
            try:
                data = self.sock.recv(self.chunk)
            except BlockingIOError:
                break
            except OSError as e:
                self.w.count(self.kind, "recv-" + errname(e))
                data = b""
            if not data:
                self.w.count(self.kind, "closed-by-service")
                self.reconnect_after(0.5)
                return
            got += len(data)
            if self.first:
                self.first = False
                if data.startswith(b"ERR busy"):
                    self.w.answer(self.kind, "session", data.split(b"\n", 1)[0])
                    self.reconnect_after(0.5)
                    return
            helps = data.count(b"\n\n")
            if self.tail == b"\n" and data[:1] == b"\n":
                helps += 1
            self.tail = data[-1:]
            if helps:
                self.w.answers[self.kind + "|help"] += helps
                self.w.minutes[self.w.minute]["answers"] += helps
        if got:
            self.w.count(self.kind, "bytes-read", got)
        self.loop.later(self.period, self.tick, self.gen)


class Writer(LineClient):
    kind = "writer"
    retry_after = (0.5, 0.5)

    def __init__(self, w, ids, batch, pause):
        super().__init__(w)
        self.ids = ids
        self.present = set()
        self.inflight = set()    # sent, never answered (the connection closed): unknown
        self.batch_size = batch
        self.pause = pause

    def begin(self):
        self.request(b"session", "session")
        self.loop.later(0.2, self.batch, self.gen)

    def batch(self, gen):
        if gen != self.gen or self.closed or self.w.stopping or self.busy:
            return
        lines = []
        for _ in range(self.batch_size):
            rid = random.choice(self.ids)
            if rid in self.present:
                lines.append(b"live rm " + rid)
                self.expect.append(("live rm", False, monotonic(), rid))
            else:
                lines.append(b"live add " + rid + b" +2h writer room " + rid + b" end=+30m")
                self.expect.append(("live add", False, monotonic(), rid))
        self.send(b"\n".join(lines) + b"\n")

    def on_answer(self, label, line, t_sent, extra):
        code = self.w.answer(self.kind, label, line)
        if code == "busy":
            self.busy = True
            self.expect.clear()
            return
        if label in ("live add", "live rm"):
            self.w.lists["writer ms"].append((monotonic() - t_sent) * 1000)
            if label == "live add" and code is None:
                self.present.add(extra)
                self.inflight.discard(extra)
            elif label == "live rm" and code in (None, "not-found"):
                self.present.discard(extra)
                self.inflight.discard(extra)
            if not self.expect:
                self.loop.later(self.pause, self.batch, self.gen)

    def on_eof(self):
        self.inflight.update(e[3] for e in self.expect if e[0] in ("live add", "live rm"))
        self.count_close("closed-by-service")
        self.reconnect_after(1.0)

    def finish(self):
        """What the writer knows at the end: the rooms whose `live add` was acknowledged and not
        removed since, and those whose last change was sent but not answered (either way)."""
        self.inflight.update(e[3] for e in self.expect if e[0] in ("live add", "live rm"))
        self.w.extra["writer_present"] = sorted(x.decode() for x in self.present - self.inflight)
        self.w.extra["writer_unknown"] = sorted(x.decode() for x in self.inflight)
        self.w.extra["writer_ids"] = [x.decode() for x in self.ids]
        self.close()


def run_owner(cfg):
    w = Worker(cfg, "owner")
    n = cfg["owner_conns"]
    n_watch = int(n * 0.4)
    n_session = int(n * 0.4)
    n_slow = cfg["slow_readers"]
    n_oneshot = max(1, n - n_watch - n_session - n_slow - 1)
    w.extra["mix"] = {"watch": n_watch, "session": n_session, "oneshot": n_oneshot,
                      "slow": n_slow, "writer": 1}
    starts = []
    starts += [Watcher(w).start for _ in range(n_watch)]
    starts += [Session(w).start for _ in range(n_session)]
    starts += [OneShot(w).start for _ in range(n_oneshot)]
    starts += [SlowReader(w, "slow", 8192, cfg["slow_period_ms"] / 1000.0).start for _ in range(n_slow)]
    if cfg["writer_batch"] > 0:
        ids = [b"w%d" % i for i in range(50)]
        starts.append(Writer(w, ids, cfg["writer_batch"], cfg["writer_pause"]).start)
    for s in starts:
        w.loop.later(random.uniform(0, 3.0), s)
    if "handover" in cfg["attacks"]:
        PipeFiller(w, until=cfg.get("classic_end")).start()
    w.run()
