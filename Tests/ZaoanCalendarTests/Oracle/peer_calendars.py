"""The peer-calendar oracle: other projects' real-world test calendars, read by the real
service and by recurring_ical_events (3.x on icalendar 7.x, from .build/oracle-python).

For each .ics file in the folders of ROOT (one folder per peer project:
ROOT/python-recurring-ical-events/*.ics, ...) it picks windows of 744 hours around the file's events (its
first DTSTART, first RECURRENCE-ID, first EXDATE or RDATE, a recurring event's start + 400
days, its last DTSTART; anchors one window covers share it), and for each window runs the
real service under faketime at the window's start, with the file as its only calendar
(zone Europe/Berlin, calendar_window_hours 744), asks `schedule 744` and compares start,
end and title of every VEVENT occurrence with the oracle's over the same window, as
instants. Cancelled occurrences count as absent on both sides (zaoan does not show them).

Each file is `matched`, `differs` (the first differing occurrences are shown) or `refused`
(the service read no event of it, saying why), or not comparable (no VEVENT, or the oracle
itself cannot read it). A file that differs or is refused must be on the deviations list
(FOLDER/FILE REASON per line): the run fails for one that is not, and for one that is listed but
now matches, so the list stays honest.

Usage: peer_calendars.py ROOT --zaoan BIN --deviations FILE [--jobs N] [--only FOLDER/FILE]... [--report-only]
"""
import argparse
import collections
import concurrent.futures
import datetime
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zoneinfo

ZONE_NAME = "Europe/Berlin"
ZONE = zoneinfo.ZoneInfo(ZONE_NAME)
WINDOW_HOURS = 744
WINDOW = WINDOW_HOURS * 3600
DAY = 86_400
# The window starts this long before a whole hour: the service is asked a few seconds after
# its clock starts, and no event boundary on a whole minute falls into those seconds.
LEAD = 30
# Windows the service can take: after faketime's 1970 and within zaoan's years.
EARLIEST = int(datetime.datetime(1971, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
LATEST = int(datetime.datetime(2399, 1, 1, tzinfo=datetime.timezone.utc).timestamp())
SHOWN_DIFFERENCES = 4
# Services started, one entry per file (list.append is atomic under the GIL).
SERVICES = []


def instant(value):
    """Unix seconds of a date (local midnight), a naive (floating, in ZONE) or an aware datetime."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=ZONE, fold=0)
    return int(value.timestamp())


def moments(prop):
    """The dates and times of a DTSTART, RECURRENCE-ID, EXDATE or RDATE property (or a list of them)."""
    props = prop if isinstance(prop, list) else [prop]
    for one in props:
        values = [item.dt for item in one.dts] if hasattr(one, "dts") else [one.dt]
        for value in values:
            if isinstance(value, tuple):  # an RDATE period
                value = value[0]
            if isinstance(value, (datetime.date, datetime.datetime)):
                yield value


def anchors(calendar):
    """The instants windows are placed around, as the issue names them."""
    events = list(calendar.walk("VEVENT"))
    starts = [instant(v) for e in events if "DTSTART" in e for v in moments(e["DTSTART"])]
    ids = [instant(v) for e in events if "RECURRENCE-ID" in e for v in moments(e["RECURRENCE-ID"])]
    extra = [instant(v) for e in events for name in ("EXDATE", "RDATE") if name in e for v in moments(e[name])]
    recurring = [instant(v) + 400 * DAY for e in events if "RRULE" in e and "DTSTART" in e for v in moments(e["DTSTART"])]
    found = []
    if starts:
        found += [min(starts), max(starts)]
    if ids:
        found.append(min(ids))
    if extra:
        found.append(min(extra))
    if recurring:
        found.append(recurring[0])
    return sorted(set(found))


def windows(points):
    """Window starts (LEAD seconds before a whole hour, a day before the anchor), one per
    group of anchors a window holds with a day to spare on each side."""
    starts = []
    for point in points:
        if starts and starts[-1] + DAY <= point < starts[-1] + WINDOW - DAY:
            continue
        start = (point - DAY) // 3600 * 3600 - LEAD
        if EARLIEST <= start <= LATEST:
            starts.append(start)
    return starts


def title_key(text):
    """A title as both sides can agree on: whitespace, controls and their pictures as one
    space; a title zaoan cut (it ends in an ellipsis) compared by what is left."""
    text = re.sub(r"[\s\x00-\x1f\x7f\u2400-\u2426]+", " ", text).strip()
    return text


def oracle_occurrences(calendar, name, start):
    import recurring_ical_events
    # Asked two days wider, then cut by instants: recurring_ical_events compares a floating
    # or all-day event with the window's own wall clock, not with ZONE's.
    begin = datetime.datetime.fromtimestamp(start - 2 * DAY, datetime.timezone.utc)
    end = datetime.datetime.fromtimestamp(start + WINDOW + 2 * DAY, datetime.timezone.utc)
    found = []
    for event in recurring_ical_events.of(calendar).between(begin, end):
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        first = event["DTSTART"].dt
        if "DTEND" in event:
            last = event["DTEND"].dt
        elif "DURATION" in event:
            last = first + event["DURATION"].dt
        elif not isinstance(first, datetime.datetime):
            last = first + datetime.timedelta(days=1)  # RFC 5545 3.6.1: a DATE lasts the day
        else:
            last = first
        summary = str(event.get("SUMMARY", "")).strip()
        a, b = instant(first), instant(last)
        # What shows in [start, start + WINDOW): an overlap, or an instant inside (RFC 5545
        # 3.6.1: an event without an end lasts no time), zaoan's CalendarWindow.shows.
        if a < start + WINDOW and (b > start or (b <= a and a >= start)):
            found.append((a, b if b > a else None, title_key(summary) or name))
    return found


class Service:
    """One `zaoan serve` under faketime in a directory of its own, the file its only calendar."""

    def __init__(self, zaoan, path, start):
        self.directory = tempfile.mkdtemp(prefix="zpc.")
        for sub in ("home", "config/zaoan", "state", "run"):
            os.makedirs(os.path.join(self.directory, sub), mode=0o700)
        self.calendar = os.path.join(self.directory, os.path.basename(path))
        shutil.copyfile(path, self.calendar)
        os.chmod(self.calendar, 0o600)
        with open(os.path.join(self.directory, "config/zaoan/config.json"), "w") as config:
            config.write('{"timezone": "%s", "calendars": ["%s"], "calendar_window_hours": %d}'
                         % (ZONE_NAME, self.calendar, WINDOW_HOURS))
        self.socket = os.path.join(self.directory, "s")
        self.log = os.path.join(self.directory, "log")
        environment = {
            "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "HOME": self.directory + "/home",
            "XDG_CONFIG_HOME": self.directory + "/config", "XDG_STATE_HOME": self.directory + "/state",
            "XDG_RUNTIME_DIR": self.directory + "/run",
        }
        with open(self.log, "wb") as log:
            # Its own process group: faketime runs zaoan as its child, and both go at the end.
            self.process = subprocess.Popen(["faketime", "@%d" % start, zaoan, "serve", "--socket", self.socket,
                                             "--language", "en"],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=environment,
                                            start_new_session=True)

    def ask(self, request, timeout=10):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(timeout)
            connection.connect(self.socket)
            connection.sendall(request.encode() + b"\n")
            chunks = []
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        return b"".join(chunks).decode("utf-8", "replace")

    def wait_until_read(self, timeout=60):
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("zaoan exited with %s: %s" % (self.process.returncode, self.log_text()))
            try:
                last = self.ask("stats", timeout=5)
                if ", 0 reading" in last and "calendars: 1 read" in last:
                    return last
            except OSError as error:
                last = str(error)
            time.sleep(0.02)
        raise RuntimeError("the calendar was not read within %d s: %s" % (timeout, last))

    def log_text(self):
        with open(self.log, encoding="utf-8", errors="replace") as log:
            return log.read()

    def service_pid(self):
        """zaoan itself: the faketime wrapper's child (it runs `date` first, then zaoan)."""
        wrapper = self.process.pid
        try:
            with open("/proc/%d/task/%d/children" % (wrapper, wrapper)) as handle:
                children = [int(p) for p in handle.read().split()]
        except OSError:
            return None
        for child in children:
            try:
                with open("/proc/%d/cmdline" % child, "rb") as handle:
                    if os.path.basename(handle.read().split(b"\0")[0].decode(errors="replace")) == "zaoan":
                        return child
            except OSError:
                pass
        return None

    def stop(self):
        # SIGTERM to zaoan, not to the wrapper: faketime then exits by itself and removes its
        # semaphore and shared memory (/dev/shm/faketime_*), which a killed wrapper leaves,
        # and a later wrapper with the same pid would fail on.
        if self.process.poll() is None:
            child = self.service_pid()
            if child:
                os.kill(child, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
                # A killed wrapper leaves its pair: remove it (named after the wrapper's pid).
                for name in ("faketime_shm_%d", "sem.faketime_sem_%d"):
                    try:
                        os.unlink("/dev/shm/" + name % self.process.pid)
                    except OSError:
                        pass
        shutil.rmtree(self.directory, ignore_errors=True)


class Late(Exception):
    pass


def service_occurrences(zaoan, path, start, tries=3):
    """What `schedule 744` lists at `start` (faked), and the calendar problems the log names.
    A service that answers too late for the window's lead (a busy machine) is tried again."""
    for attempt in range(tries):
        try:
            return one_service(zaoan, path, start)
        except Late as late:
            if attempt == tries - 1:
                raise RuntimeError("%s, %d times" % (late, tries)) from None


def one_service(zaoan, path, start):
    service = Service(zaoan, path, start)
    began = time.monotonic()
    try:
        service.wait_until_read()
        answer = service.ask("schedule %d" % WINDOW_HOURS)
        late = time.monotonic() - began
        if late > LEAD - 5:
            raise Late("the service answered %.0f s after its clock started, past the window's lead of %d s" % (late, LEAD))
        problems = [line.split("calendar: ", 1)[1].rsplit("; the other events still show", 1)[0]
                    .replace(service.calendar + ": ", "", 1)
                    for line in service.log_text().splitlines() if "calendar: " in line]
    finally:
        service.stop()
    found = []
    for line in answer.splitlines():
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise RuntimeError("a schedule line that is not four fields: %r" % line)
        first = int(datetime.datetime.fromisoformat(fields[0]).timestamp())
        last = None if fields[1] == "-" else int(datetime.datetime.fromisoformat(fields[1]).timestamp())
        found.append((first, last, title_key(fields[3])))
    return found, problems


def shown(occurrence):
    first, last, title = occurrence
    at = lambda seconds: datetime.datetime.fromtimestamp(seconds, ZONE).isoformat()
    return "%s – %s %s" % (at(first), "-" if last is None else at(last), title)


def titles_agree(ours, theirs):
    if ours == theirs:
        return True
    return ours.endswith("…") and theirs.startswith(ours[:-1].rstrip())


def difference(expected, seen):
    """(occurrences only the oracle has, occurrences only zaoan has), as multisets."""
    missing = collections.Counter(expected)
    extra = collections.Counter(seen)
    common = missing & extra
    missing -= common
    extra -= common
    # A title zaoan cut to its limit still matches.
    for item in list(extra.elements()):
        for other in list(missing.elements()):
            if item[:2] == other[:2] and titles_agree(item[2], other[2]):
                extra[item] -= 1
                missing[other] -= 1
                break
    return sorted((+missing).elements()), sorted((+extra).elements())


def read_deviations(path):
    listed = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 1)
            if len(parts) != 2:
                sys.exit("%s:%d: FILE REASON expected" % (path, number))
            listed[parts[0]] = parts[1]
    return listed


def check_file(zaoan, root, name, services):
    """What the oracle finds in ROOT/NAME, with the file's services started: a function
    that waits for them and gives (state, lines to print)."""
    import icalendar
    path = os.path.join(root, name)
    title = os.path.basename(name)
    try:
        with open(path, "rb") as handle:
            calendar = icalendar.Calendar.from_ical(handle.read())
        if not list(calendar.walk("VEVENT")):
            return lambda: ("not comparable", ["no VEVENT"])
        starts = windows(anchors(calendar))
        if not starts:
            return lambda: ("not comparable", ["no event in the years 1971-2399"])
        expected = {start: oracle_occurrences(calendar, title, start) for start in starts}
    except Exception as error:  # the oracle's own failure: nothing to compare with
        failure = "recurring_ical_events fails: %s: %s" % (type(error).__name__, error)
        return lambda: ("not comparable", [failure])
    SERVICES.append(len(starts))
    runs = {start: services.submit(service_occurrences, zaoan, path, start) for start in starts}
    return lambda: compare(starts, expected, runs)


def compare(starts, expected, runs):
    lines = []
    seen_any = False
    problems = []
    for start in starts:
        try:
            seen, window_problems = runs[start].result()
        except Exception as error:  # the service itself failed: said, and the run fails
            return "failed", ["the service: %s: %s" % (type(error).__name__, error)]
        seen_any = seen_any or bool(seen)
        problems += [p for p in window_problems if p not in problems]
        missing, extra = difference(expected[start], seen)
        if missing or extra:
            at = datetime.datetime.fromtimestamp(start, ZONE).isoformat()
            lines.append("window from %s: %d occurrences by the oracle, %d by zaoan" % (at, len(expected[start]), len(seen)))
            lines += ["  oracle only: " + shown(o) for o in missing[:SHOWN_DIFFERENCES]]
            lines += ["  zaoan only:  " + shown(o) for o in extra[:SHOWN_DIFFERENCES]]
            if len(missing) > SHOWN_DIFFERENCES or len(extra) > SHOWN_DIFFERENCES:
                lines.append("  ... %d and %d in all" % (len(missing), len(extra)))
    if not lines:
        state = "matched"
    elif not seen_any and problems:
        state = "refused"
    else:
        state = "differs"
    said = ["zaoan says: " + p for p in problems[:SHOWN_DIFFERENCES]]
    if len(problems) > SHOWN_DIFFERENCES:
        said.append("zaoan says %d more" % (len(problems) - SHOWN_DIFFERENCES))
    return state, said + lines


def calendar_names(root):
    """FOLDER/FILE of every .ics file in the folders of ROOT, sorted."""
    names = []
    for folder in sorted(os.listdir(root)):
        if os.path.isdir(os.path.join(root, folder)):
            names += [folder + "/" + n for n in sorted(os.listdir(os.path.join(root, folder))) if n.lower().endswith(".ics")]
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--zaoan", required=True)
    parser.add_argument("--deviations", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--report-only", action="store_true", help="print the figures; do not hold them against the list")
    arguments = parser.parse_args()
    began = time.monotonic()
    listed = read_deviations(arguments.deviations)
    names = calendar_names(arguments.root)
    if arguments.only:
        names = [n for n in names if n in arguments.only or os.path.basename(n) in arguments.only]
    counts = collections.Counter()
    failures = []
    # The oracle reads one file at a time (icalendar is pure Python: one core either way);
    # the services of its windows run `--jobs` at a time, the next file's beside them.
    with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as services, \
            concurrent.futures.ThreadPoolExecutor(max_workers=1) as oracle:
        results = [(n, oracle.submit(check_file, arguments.zaoan, arguments.root, n, services)) for n in names]
        for name, future in results:
            state, lines = future.result()()
            counts[state] += 1
            note = ""
            if state == "failed":
                failures.append("%s: the service could not be asked" % name)
            elif state in ("differs", "refused"):
                if name in listed:
                    note = " (listed: %s)" % listed[name]
                else:
                    failures.append("%s %s and is not on the list of deviations" % (name, "is refused" if state == "refused" else "differs"))
            elif name in listed:
                failures.append("%s is %s but on the list of deviations: take it off" % (name, state))
            print("%s: %s%s" % (name, state, note))
            for line in lines:
                print("    " + line)
            sys.stdout.flush()
    if not arguments.only:
        failures += ["%s is on the list of deviations but not in %s" % (n, arguments.root) for n in listed if n not in names]
    comparable = counts["matched"] + counts["differs"] + counts["refused"]
    print("peer calendars: %d files, %d comparable, %d matched, %d differing, %d refused (%d windows, each a service; %.0f s)"
          % (len(names), comparable, counts["matched"], counts["differs"], counts["refused"], sum(SERVICES),
             time.monotonic() - began))
    if failures and not arguments.report_only:
        for failure in failures:
            print("peer calendars: " + failure, file=sys.stderr)
        print("peer calendars: fix the cause, or list the file with its reason in %s "
              "(only input RFC 5545 calls invalid or leaves undefined)" % arguments.deviations, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
