"""The calendar writer (uid 0, the calendar folder's owner): hostile files beside an honest one."""

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
                "edit_s": summarize(self.latencies),
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
        while self.running and os.getppid() == ppid:
            if monotonic() >= self.next_edit:
                self.edit()
                self.next_edit = monotonic() + random.uniform(5, 15)
            else:
                random.choice(attacks)()
                time.sleep(random.uniform(0.2, 2.0))
            if monotonic() - last_snapshot > 5:
                self.snapshot()
                last_snapshot = monotonic()
        self.snapshot(final=True)


def run_calendar(cfg):
    CalendarWriter(cfg).run()
