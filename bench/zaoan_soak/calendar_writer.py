"""The calendar writer (uid 0, the calendar folder's owner): hostile files beside an honest one."""

import collections
import json
import os
import random
import resource
import signal
import socket
import threading
import time

from .common import *  # noqa: F401,F403
from .loop import *  # noqa: F401,F403


# ------------------------------------------------------------------------------------------
# Calendar writer (uid 0, the owner of the calendar folder, as a sync tool that fetched a
# hostile calendar would be): costly files, files over the limits, storms of edits and
# links to what is not a calendar, all the time; and one honest file whose edits must
# still show in `schedule` (the seconds from rename to shown are the edit latency).
# ------------------------------------------------------------------------------------------

def ics(events, extra=()):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//zaoan soak//EN"] + list(extra)
    for e in events:
        lines += ["BEGIN:VEVENT"] + e + ["END:VEVENT"]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


def vevent(uid, start, *rest):
    return ["UID:" + uid, "DTSTAMP:20261201T000000Z", "DTSTART" + start] + list(rest)


def utc_stamp(t):
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(t))


LINK_NAMES = ["zero.ics", "random.ics", "fifo.ics", "loop-a.ics", "loop-b.ics", "dir.ics", "self.ics", "theirs.ics",
              "proc.ics", "kmsg.ics"]
HOSTILE_FILES = ["costly.ics", "rules.ics", "huge.ics", "marks.ics", "storm.ics"] + LINK_NAMES


class PhaseFiles(threading.Thread):
    """The calendar side of two phases of issue 29 (a thread of the writer, on its own clock):
    events:  events.ics, EVENTS (3,000) events that all start EVENTS_LEAD (15) s ahead and last
             10 s, rewritten with a new start every EVENTS_EVERY (30) s: two firings of 3,000
             moments each (live, ended) per round for the `watch events` subscribers;
    unread:  many.ics, 10,000 events one a second from 3 minutes on (all inside the 48-hour
             window, after any moment the phase sees), each with a 250-byte title: the first
             2,000 fill the 2,000 lines a `schedule H` answer lists (~650 KB; the honest event,
             30 minutes ahead, is among them). Both files are removed when their phase ends."""

    def __init__(self, writer):
        super().__init__(daemon=True)
        self.wr = writer
        cfg = writer.cfg
        self.phases = {p["name"]: p for p in cfg.get("phases", [])}
        self.t0 = cfg["t0"]
        self.n_events = cfg.get("events", 3000)
        self.every = cfg.get("events_every", 30.0)
        self.lead = cfg.get("events_lead", 15.0)
        self.stats = {"events_rounds": 0, "events_bytes": 0, "many_written": 0, "many_bytes": 0, "removed": 0}

    def run(self):
        ev, un = self.phases.get("events"), self.phases.get("unread")
        next_round = 0.0
        many_done = False
        while self.wr.running:
            t = time.time() - self.t0
            if ev and ev["start"] <= t < ev["end"] - 1 and t >= next_round:
                self.events()
                next_round = t + self.every
            if ev and t >= ev["end"] - 1:
                self.remove("events.ics")
            if un and un["start"] <= t < un["end"] - 1 and not many_done:
                self.many()
                many_done = True
            if un and t >= un["end"] - 1:
                self.remove("many.ics")
            time.sleep(0.2)
        self.remove("events.ics")
        self.remove("many.ics")

    def events(self):
        start = time.time() + self.lead
        data = ics([vevent("fan-%d" % i, ":" + utc_stamp(start), "DURATION:PT10S", "SUMMARY:fan-out %d" % i)
                    for i in range(self.n_events)])
        self.wr.replace("events.ics", data)
        self.stats["events_rounds"] += 1
        self.stats["events_bytes"] = len(data)

    def many(self):
        first = time.time() + 180
        data = ics([vevent("many-%d" % i, ":" + utc_stamp(first + i), "DTEND:" + utc_stamp(first + i + 300),
                           "SUMMARY:Event %d %s" % (i, "x" * 240)) for i in range(10000)])
        self.wr.replace("many.ics", data)
        self.stats["many_written"] += 1
        self.stats["many_bytes"] = len(data)

    def remove(self, name):
        try:
            os.unlink(self.wr.path(name))
            self.stats["removed"] += 1
        except FileNotFoundError:
            pass


class CalendarWriter:
    def __init__(self, cfg):
        self.cfg = cfg
        self.folder = cfg["calendars"]
        self.counts = collections.Counter()
        self.latencies = []
        self.missed = 0
        self.running = True
        self.session = BlockingSession(cfg["socket"], timeout=10)
        self.seq = 0
        self.t0 = cfg["t0"]
        self.next_edit = monotonic() + 2
        self.classic_end = cfg.get("classic_end")   # t_rel: the hostile files stop then, and go
        self.cleaned = False
        self.phase_files = PhaseFiles(self)

    def path(self, name):
        return os.path.join(self.folder, name)

    def replace(self, name, data):
        tmp = self.path("." + name + ".part")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self.path(name))

    def costly(self):
        n = random.choice([10, 50, 100, 300])
        self.replace("costly.ics", ics([vevent("costly-%d-%d" % (self.seq, i), ":18000101T000000Z",
                                               "RRULE:FREQ=HOURLY;COUNT=1000000;BYMONTH=2;BYMONTHDAY=29;BYHOUR=3",
                                               "SUMMARY:Costly %d" % i) for i in range(n)]))
        self.counts["costly"] += 1

    def never(self):
        rules = ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MINUTELY;BYSETPOS=1;BYMONTH=4;BYMONTHDAY=31",
                 "FREQ=SECONDLY;COUNT=999999999", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"]
        self.replace("rules.ics", ics([vevent("rule-%d" % i, ":19000101T000000Z", "RRULE:" + r, "SUMMARY:rule %d" % i)
                                       for i, r in enumerate(rules)]))
        self.counts["rules"] += 1

    def huge(self):
        if random.random() < 0.5:   # 16 MiB of X- lines: refused before libical builds it
            line = b"X-JUNK:" + b"x" * 1000 + b"\r\n"
            data = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + line * ((16 << 20) // len(line) - 10) + b"END:VCALENDAR\r\n"
            self.counts["huge-lines"] += 1
        else:                        # 60,001 components
            data = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + b"BEGIN:X-C\r\nEND:X-C\r\n" * 60_001 + b"END:VCALENDAR\r\n"
            self.counts["many-components"] += 1
        self.replace("huge.ics", data)

    def marks(self):
        self.replace("marks.ics", ics([vevent("marks-%d" % i, ":%s" % time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() + 3600 + i)),
                                              "SUMMARY:A" + "\u0301" * 5000 + "\u202e\x1b[31m") for i in range(20)]))
        self.counts["marks"] += 1

    def storm(self):
        """Rewrites one file every 5-20 ms for 3 s."""
        until = monotonic() + 3
        while monotonic() < until and self.running:
            self.seq += 1
            when = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() + 7200))
            self.replace("storm.ics", ics([vevent("storm", ":" + when, "SUMMARY:storm %d" % self.seq)]))
            self.counts["storm-writes"] += 1
            time.sleep(random.uniform(0.005, 0.02))
        self.counts["storms"] += 1

    def links(self):
        fifo = os.path.join(self.cfg["scratch"], "fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        elsewhere = os.path.join(self.cfg["scratch"], "open", "theirs.ics")   # in a world-writable folder, not ours
        if not os.path.exists(elsewhere):
            with open(elsewhere, "wb") as f:
                f.write(ics([vevent("theirs", ":20261201T000000Z", "SUMMARY:not yours")]))
            os.chown(elsewhere, NOBODY, NOBODY)
        targets = {"zero.ics": "/dev/zero", "random.ics": "/dev/urandom", "fifo.ics": fifo, "loop-a.ics": "loop-b.ics",
                   "loop-b.ics": "loop-a.ics", "dir.ics": "/etc", "self.ics": ".", "theirs.ics": elsewhere,
                   "proc.ics": "/proc/self/mem", "kmsg.ics": "/dev/kmsg"}
        names = list(targets)
        for name in random.sample(names, random.randint(1, len(names))):
            tmp = self.path(".link.part")
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            os.symlink(targets[name], tmp)
            os.replace(tmp, self.path(name))
            self.counts["links"] += 1
        for i in range(random.randint(0, 20)):   # a chain of links
            tmp = self.path(".chain.part")
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            os.symlink("chain-%d.ics" % (i + 1), tmp)
            os.replace(tmp, self.path("chain-%d.ics" % i))
        if random.random() < 0.3:
            for name in random.sample(names, 3):
                try:
                    os.unlink(self.path(name))
                    self.counts["unlinks"] += 1
                except FileNotFoundError:
                    pass

    def cleanup(self):
        """The classic phase is over: the hostile files and links go, the honest file stays."""
        names = HOSTILE_FILES + [n for n in os.listdir(self.folder) if n.startswith("chain-") or n.endswith(".part")]
        for name in names:
            try:
                os.unlink(self.path(name))
                self.counts["cleaned-up"] += 1
            except FileNotFoundError:
                pass
        self.cleaned = True

    # -- the honest file and its edit latency --
    def edit(self):
        self.seq += 1
        title = "honest edit %d" % self.seq
        when = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() + 1800))
        self.replace("honest.ics", ics([vevent("honest", ":" + when, "DURATION:PT30M", "SUMMARY:" + title)]))
        t = monotonic()
        needle = title.encode()
        while monotonic() - t < 30 and self.running:
            try:
                self.session.send(b"schedule 1")
                if any(needle in line for line in self.session.read_answer()):
                    self.latencies.append(monotonic() - t)
                    return
            except (OSError, socket.timeout):
                self.counts["ask-failed"] += 1
                self.session.close()
            time.sleep(0.1)
        if self.running:
            self.missed += 1

    def snapshot(self, final=False):
        data = {"role": "calendar", "final": final, "counts": dict(self.counts), "missed": self.missed,
                "edit_s": summarize(self.latencies), "phase_files": self.phase_files.stats,
                "cpu": sum(resource.getrusage(resource.RUSAGE_SELF)[:2])}
        path = os.path.join(self.cfg["out"], "calendar.json")
        with open(path + ".tmp", "w") as f:
            json.dump(data, f)
        os.replace(path + ".tmp", path)

    def run(self):
        def stop(signum, frame):
            self.running = False
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        attacks = [self.costly, self.never, self.huge, self.marks, self.storm, self.links]
        last_snapshot = monotonic()
        ppid = os.getppid()
        self.phase_files.start()
        while self.running and os.getppid() == ppid:
            classic = self.classic_end is None or time.time() - self.t0 < self.classic_end
            if not classic and not self.cleaned:
                self.cleanup()
            if monotonic() >= self.next_edit:
                self.edit()
                self.next_edit = monotonic() + random.uniform(5, 15)
            elif classic:
                random.choice(attacks)()
                time.sleep(random.uniform(0.2, 2.0))
            else:
                time.sleep(0.2)
            if monotonic() - last_snapshot > 5:
                self.snapshot()
                last_snapshot = monotonic()
        self.running = False
        self.phase_files.join(5)
        self.snapshot(final=True)


def run_calendar(cfg):
    CalendarWriter(cfg).run()
