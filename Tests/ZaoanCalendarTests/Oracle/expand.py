"""The independent side of ZaoanCalendarTests: Python's dateutil (RRULE), zoneinfo
(wall clock to instant, fold=0: the first of a repeated time, the offset before a gap, as
RFC 5545 reads them) and recurring_ical_events (whole .ics files).

Usage:
  expand.py rrule ZONE YYYYMMDDTHHMMSS RULE FROM TO   -> one start (Unix seconds) per line
  expand.py ics FILE DEFAULT-ZONE FROM TO              -> "uid start end" per line
  expand.py walls FILE   (lines "ID DTSTART CAP N RULE")  -> "ID WALL WALL ..." per line:
      the first N wall clocks (YYYYMMDDTHHMMSS) of each rule up to CAP, DTSTART first and
      counted in COUNT as RFC 5545 3.8.5.3 has it (dateutil leaves out a DTSTART its rule
      does not give, and does not count it)
"""
import datetime
import signal
import sys
import zoneinfo


def instant(value, zone):
    """Unix seconds of a date, a naive (floating) or an aware datetime."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone, fold=0)
    return int(value.timestamp())


def rrule_mode(zone_name, start, rule, first, last):
    from dateutil import rrule
    zone = zoneinfo.ZoneInfo(zone_name)
    dtstart = datetime.datetime.strptime(start, "%Y%m%dT%H%M%S")
    # dateutil compares UNTIL with naive instances: give it the wall clock of a UTC UNTIL.
    parts = []
    for part in rule.split(";"):
        if part.startswith("UNTIL=") and part.endswith("Z"):
            until = datetime.datetime.strptime(part[6:], "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
            part = "UNTIL=" + until.astimezone(zone).strftime("%Y%m%dT%H%M%S")
        parts.append(part)
    for wall in rrule.rrulestr(";".join(parts), dtstart=dtstart):
        start_instant = instant(wall, zone)
        if start_instant >= last:
            break
        if start_instant >= first:
            print(start_instant)


def ics_mode(path, zone_name, first, last):
    import icalendar
    import recurring_ical_events
    zone = zoneinfo.ZoneInfo(zone_name)
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    start = datetime.datetime.fromtimestamp(first, datetime.timezone.utc)
    end = datetime.datetime.fromtimestamp(last, datetime.timezone.utc)
    for event in recurring_ical_events.of(calendar).between(start, end):
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        begin = event["DTSTART"].dt
        if "DTEND" in event and event["DTEND"].dt != begin:
            finish = event["DTEND"].dt
        elif "DURATION" in event:
            finish = begin + event["DURATION"].dt
        elif not isinstance(begin, datetime.datetime):
            finish = begin + datetime.timedelta(days=1)  # RFC 5545 3.6.1: a DATE lasts the day
        else:
            finish = begin
        print(str(event["UID"]), instant(begin, zone), instant(finish, zone))


def walls_mode(path):
    signal.signal(signal.SIGALRM, out_of_time)
    # The test runner's threads block signals, and a child keeps the mask it was started with.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
    from dateutil import rrule
    form = "%Y%m%dT%H%M%S"
    with open(path) as handle:
        cases = [line.split() for line in handle if line.strip()]
    for ident, start, cap, count, rule in cases:
        dtstart = datetime.datetime.strptime(start, form)
        last = datetime.datetime.strptime(cap, form)
        wanted = int(count)
        # dateutil checks UNTIL only against instances it finds, so a rule that never
        # matches runs to year 9999; its loop ends at datetime.MAXYEAR, which only it reads
        # (the datetime constructor keeps its own bound): end it the year after CAP.
        datetime.MAXYEAR = last.year + 1
        try:
            parsed = rrule.rrulestr(rule, dtstart=dtstart)
        except ValueError as error:
            # dateutil refuses an INTERVAL that never meets BYHOUR/BYMINUTE/BYSECOND
            # ("generates an empty set"): the rule gives nothing but DTSTART.
            if "empty set" not in str(error):
                raise
            print(ident, start)
            continue
        # UNTIL no later than CAP, so a rule that never matches ends where the test looks.
        until = min(parsed._until, last) if parsed._until else last
        begin = dtstart
        if parsed._freq == rrule.WEEKLY and parsed._bysetpos and "BYDAY=" in rule.upper():
            # BYSETPOS picks from the whole week (RFC 5545 3.3.10: "within the interval of
            # the frequency"); dateutil's first week begins at DTSTART. Begin at the week's
            # WKST day, same time of day, and keep what comes after DTSTART.
            begin = dtstart - datetime.timedelta(days=(dtstart.weekday() - parsed._wkst) % 7)
        # DTSTART first and counted in COUNT, the rule's instances after it next (RFC 5545
        # 3.8.5.3); dateutil counts only the instances its rule gives.
        limit = min(wanted, parsed._count) if parsed._count is not None else wanted
        walls = [dtstart]
        complete = True
        # dateutil steps a SECONDLY rule second by second through days that pass: a rule
        # that rarely matches costs it minutes. Each case gets CASE_SECONDS; what it found
        # by then is printed with "~" after it (the test compares that much).
        signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
        try:
            for wall in parsed.replace(dtstart=begin, count=None, until=until):
                if len(walls) >= limit:
                    break
                if wall > dtstart:
                    walls.append(wall)
        except OutOfTime:
            complete = False
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        print(ident, *[wall.strftime(form) for wall in walls], *([] if complete else ["~"]))


CASE_SECONDS = 0.25


class OutOfTime(Exception):
    pass


def out_of_time(signum, frame):
    raise OutOfTime()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "rrule":
        rrule_mode(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    elif mode == "walls":
        walls_mode(sys.argv[2])
    elif mode == "ics":
        ics_mode(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit("unknown mode " + mode)
