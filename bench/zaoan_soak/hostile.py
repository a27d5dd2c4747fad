"""The hostile clients (uid 65534): every attack at once, each in a loop."""

import collections
import json
import os
import random
import resource
import signal
import socket
import time

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


# ------------------------------------------------------------------------------------------
# The attacks of issue 29, each run alone in a phase of its own (a process started at the
# phase's start and stopped at its end; see orchestrate.plan_phases), beside the owner's load
# and the probe.
# ------------------------------------------------------------------------------------------

RENDER_ZONES = ["Asia/Shanghai", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe",
                "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham"]
# Costly to render: month and day names, zone names, the Chinese calendar, strftime; each with
# seconds, so a watch of it is rendered every second.
RENDER_PATTERNS = ["EEEE d MMMM y G HH:mm:ss", "yyyy-MM-dd HH:mm:ss zzzz", "QQQQ w 'week' Y HH:mm:ss",
                   "h:mm:ss a zzzz", "LLLL ccc HH:mm:ss VVVV", "U r MMMd HH:mm:ss calendar=chinese",
                   "%A %d %B %Y %H:%M:%S %Z", "%c %Z"]
WATCH_LIMIT_TEXT = b"different requests already"   # in ERR busy: the account's 32 distinct watches


def costly_time(index, literal):
    """`time PATTERN 'LITERAL' @ZONE`: a distinct request (and formatter) for each literal."""
    pattern = RENDER_PATTERNS[index % len(RENDER_PATTERNS)]
    zone = RENDER_ZONES[(index // len(RENDER_PATTERNS)) % len(RENDER_ZONES)]
    return ("time %s '%s' @%s" % (pattern, literal, zone)).encode()


class RenderWatcher(LineClient):
    """One of 128 watches of distinct costly `time` patterns from one account: past 32 the
    service answers ERR busy (the account's distinct watches); each refusal is counted and
    tried again 1-2 s later."""
    kind = "render-watch"
    retry_after = (1.0, 2.0)

    def __init__(self, w, index, pool):
        super().__init__(w)
        self.req = b"watch " + costly_time(index, "w%d" % index)
        self.pool = pool

    def begin(self):
        self.updates = 0
        self.watching = True
        self.send(self.req + b"\n")

    def on_update(self, line):
        code = self.w.answer(self.kind, "watch time", line)
        if code == "busy":
            self.busy = True
            self.w.count(self.kind, "busy-32-distinct" if WATCH_LIMIT_TEXT in line else "busy-other")
            if WATCH_LIMIT_TEXT in line and "refusal_text" not in self.w.extra:
                self.w.extra["refusal_text"] = line.decode("utf-8", "replace")[:200]
            return
        if code is not None:
            return
        if self.updates == 0:
            self.w.count(self.kind, "accepted")
            self.pool["watching"] += 1
            self.pool["peak"] = max(self.pool["peak"], self.pool["watching"])
        self.updates += 1

    def drop(self):
        if self.updates:
            self.pool["watching"] -= 1
            self.updates = 0

    def on_eof(self):
        if not self.busy:
            self.w.count(self.kind, "closed-by-service")
        self.drop()
        self.reconnect_after(random.uniform(*self.retry_after))

    def finish(self):
        self.drop()
        self.close()


class RenderPipeliner(LineClient):
    """A session pipelining distinct costly `time PATTERN 'N' @ZONE` (a new literal each, so
    nothing is cached), `depth` outstanding, as fast as the answers come; at most `limit`."""
    kind = "render-pipeline"
    retry_after = (0.2, 0.5)

    def __init__(self, w, session_index, depth, limit):
        super().__init__(w)
        self.s = session_index
        self.depth = depth
        self.limit = limit
        self.n = 0

    def begin(self):
        self.request(b"session", "session")
        self.more(self.depth)

    def more(self, k):
        lines = []
        for _ in range(k):
            if self.n >= self.limit:
                break
            self.n += 1
            lines.append(costly_time(self.n + self.s, "p%d-%d" % (self.s, self.n)))
            self.expect.append(("time", False, monotonic(), None))
        if lines:
            self.send(b"\n".join(lines) + b"\n")

    def on_data(self, data):
        before = len(self.expect)
        super().on_data(data)
        if not self.closed and not self.busy and not self.write_dead and not self.w.stopping:
            done = before - len(self.expect)
            if done > 0:
                self.more(done)

    def on_answer(self, label, line, t_sent, extra):
        code = self.w.answer(self.kind, label, line)
        if code == "busy":
            self.busy = True
            self.expect.clear()
        elif label == "time" and code is None:
            self.w.lists["pipelined answer ms"].append((monotonic() - t_sent) * 1000)

    def on_eof(self):
        self.count_close("closed-by-service")
        self.reconnect_after(random.uniform(*self.retry_after))


class EventSubscriber(Conn):
    """`watch events`, never read. When the service closes it (output limits), the first bytes
    left unread tell a refusal (ERR busy) from a close; either way it subscribes again."""
    kind = "events-subscriber"
    read_on_events = False
    retry_after = (0.5, 1.5)

    def begin(self):
        self.send(b"watch events\n")

    def on_hangup(self):
        try:
            head = self.sock.recv(256)
        except OSError:
            head = b""
        if head.startswith(b"ERR busy"):
            self.w.answer(self.kind, "watch events", head.split(b"\n", 1)[0])
        else:
            self.w.count(self.kind, "closed-by-service")
            self.w.lists["events-subscriber lifetime s"].append(monotonic() - self.t_connect)
        self.reconnect_after(random.uniform(*self.retry_after))


class EventReader(LineClient):
    """One `watch events` subscriber that reads: checks each firing's shape (at most 8 moments
    in full, then one `more` line per phase counting the rest). A firing = the lines of one `at`."""
    kind = "events-reader"
    retry_after = (0.5, 1.0)

    def __init__(self, w):
        super().__init__(w)
        self.firings = {}   # at -> {"full": n, "more": n lines, "count": moments counted in more lines}
        w.extra["events_reader"] = {}

    def begin(self):
        self.watching = True
        self.send(b"watch events\n")

    def on_update(self, line):
        if line.startswith(b"ERR "):
            self.w.answer(self.kind, "watch events", line)
            return
        try:
            d = json.loads(line)
        except ValueError:
            self.w.count(self.kind, "not-json")
            return
        f = self.firings.setdefault(str(d.get("at")), {"full": 0, "more": 0, "count": 0})
        if d.get("phase") == "more":
            f["more"] += 1
            f["count"] += int(d.get("count", 0))
        else:
            f["full"] += 1
        self.w.answers[self.kind + "|line"] += 1
        while len(self.firings) > 200:
            self.firings.pop(next(iter(self.firings)))
        fs = list(self.firings.values())
        self.w.extra["events_reader"] = {
            "firings": len(fs), "max_full": max(x["full"] for x in fs),
            "max_more_lines": max(x["more"] for x in fs),
            "moments_max": max(x["full"] + x["count"] for x in fs),
            "big_firings": sum(1 for x in fs if x["full"] + x["count"] >= self.w.cfg.get("events", 3000))}

    def on_eof(self):
        self.count_close("closed-by-service")
        self.reconnect_after(random.uniform(*self.retry_after))


class UnreadSchedule(Conn):
    """`schedule H` over a 10,000-event calendar (one distinct H per connection), never read.
    The service keeps what the kernel does not take, up to its limits (the account's unread
    answers over all its connections); a close is counted, and it asks again."""
    kind = "unread-schedule"
    read_on_events = False
    retry_after = (0.5, 1.5)

    def __init__(self, w, hours):
        super().__init__(w)
        self.hours = hours

    def begin(self):
        self.send(b"schedule %d\n" % self.hours)

    def on_hangup(self):
        try:
            head = self.sock.recv(256)
        except OSError:
            head = b""
        if head.startswith(b"ERR "):
            self.w.answer(self.kind, "schedule", head.split(b"\n", 1)[0])
        else:
            self.w.count(self.kind, "closed-by-service")
            self.w.lists["unread-schedule lifetime s"].append(monotonic() - self.t_connect)
        self.reconnect_after(random.uniform(*self.retry_after))


class ReloadStorm:
    """The owner's `reload` of a 1 MiB config, every `every` seconds, alternately one of 30,000
    cities (a good config: taken) and one of 36,000 unknown keys (refused, bad-config); the good
    config restored and reloaded after each. Blocking, in a process of its own (uid 0: reload is
    the owner's); at most `limit` rounds."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.path = cfg["config_path"]
        with open(self.path, "rb") as f:
            self.good = f.read()
        base = json.loads(self.good)
        self.bad = {"cities": self.sized(base, "cities", cfg.get("reload_cities", 30000)),
                    "unknown-keys": self.sized(base, "unknown", cfg.get("reload_keys", 36000))}
        self.session = BlockingSession(cfg["socket"], timeout=10)
        self.counts = collections.Counter()
        self.ms = collections.defaultdict(list)
        self.running = True

    @staticmethod
    def sized(base, kind, n, target=1_040_000):
        """A config of `base` plus n cities or n unknown keys, padded to just under 1 MiB."""
        def build(pad):
            d = dict(base)
            if kind == "cities":
                d["cities"] = {"c%05d%s" % (i, "x" * pad): RENDER_ZONES[i % len(RENDER_ZONES)] for i in range(n)}
            else:
                for i in range(n):
                    d["k%05d%s" % (i, "x" * pad)] = i
            return json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode()
        data = build(0)
        pad = max(0, (target - len(data)) // n)
        data = build(pad)
        while len(data) > (1 << 20) and pad > 0:
            pad -= 1
            data = build(pad)
        return data

    def write(self, data):
        tmp = self.path + ".soak-part"
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, self.path)

    def reload(self, label):
        t = time.perf_counter()
        try:
            self.session.send(b"reload")
            line = self.session.readline()
        except socket.timeout:
            self.counts[label + "|no-answer-in-10-s"] += 1
            self.session.close()
            return
        except OSError as e:
            self.counts[label + "|failed-" + type(e).__name__] += 1
            self.session.close()
            return
        self.ms[label].append((time.perf_counter() - t) * 1000)
        if line == b"ok":
            code = "ok"
        elif line.startswith(b"ERR "):
            code = line[4:].split(b" ", 1)[0].decode("ascii", "replace")
        else:
            code = "other"
        self.counts[label + "|" + code] += 1
        if code not in ("ok", "bad-config") and not hasattr(self, "first_other"):
            self.first_other = line[:200].decode("utf-8", "replace")

    def run(self, every, limit):
        kinds = list(self.bad)
        rounds = 0
        ppid = os.getppid()
        try:
            while self.running and rounds < limit and os.getppid() == ppid:
                kind = kinds[rounds % len(kinds)]
                rounds += 1
                self.write(self.bad[kind])
                self.reload(kind)
                self.write(self.good)
                self.reload("restore")
                self.snapshot()
                until = monotonic() + every
                while self.running and monotonic() < until:
                    time.sleep(0.1)
        finally:
            self.write(self.good)
            if rounds:
                self.reload("restore")
            self.counts["rounds"] = rounds
            self.snapshot(final=True)

    def snapshot(self, final=False):
        data = {"role": "reload", "final": final, "counts": dict(self.counts),
                "ms": {k: summarize(v) for k, v in self.ms.items()},
                "sizes": {k: len(v) for k, v in self.bad.items()},
                "first_other": getattr(self, "first_other", None),
                "cpu": sum(resource.getrusage(resource.RUSAGE_SELF)[:2])}
        path = os.path.join(self.cfg["out"], "reload.json")
        with open(path + ".tmp", "w") as f:
            json.dump(data, f)
        os.replace(path + ".tmp", path)


CLASSIC_ATTACKS = ["hold", "drip", "slow", "flood", "toolong", "badutf8", "random", "mega", "churn", "handover"]
PHASE_ATTACKS = ["render", "events", "unread", "reload"]   # issue 29: each alone, in this order
ATTACKS = CLASSIC_ATTACKS + PHASE_ATTACKS
PHASE_ROLES = {"render": "hostile-render", "events": "hostile-events", "unread": "hostile-unread", "reload": "reload"}


def run_phase_attack(cfg, attack):
    """The hostile's process for one phase (uid 65534): render, events or unread."""
    w = Worker(cfg, PHASE_ROLES[attack])
    if attack == "render":
        pool = {"watching": 0, "peak": 0}
        for i in range(cfg.get("render_watches", 128)):
            w.loop.later(i * 0.01, RenderWatcher(w, i, pool).start)
        for s in range(cfg.get("render_sessions", 8)):
            w.loop.later(0.5 + s * 0.05, RenderPipeliner(w, s, 32, cfg.get("render_limit", 2_000_000)).start)

        def report_watching():
            w.extra["watching_now"] = pool["watching"]
            w.extra["watching_peak"] = pool["peak"]
            w.loop.later(1.0, report_watching)
        w.loop.later(1.0, report_watching)
    elif attack == "events":
        for i in range(cfg.get("events_subscribers", 120)):
            w.loop.later(i * 0.01, EventSubscriber(w).start)
        w.loop.later(0.1, EventReader(w).start)
    elif attack == "unread":
        for i in range(cfg.get("unread_conns", 125)):
            w.loop.later(i * 0.02, UnreadSchedule(w, 744 - i).start)
    w.run()


def run_reload(cfg):
    storm = ReloadStorm(cfg)

    def stop(signum, frame):
        storm.running = False
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    storm.run(cfg.get("reload_every", 3.0), cfg.get("reload_limit", 10_000))


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
