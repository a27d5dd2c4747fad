"""The independent side of ZaoanCalendarTests: Python's dateutil (RRULE), zoneinfo
(wall clock to instant, fold=0: the first of a repeated time, the offset before a gap, as
RFC 5545 reads them) and recurring_ical_events (whole .ics files).

Usage:
  expand.py rrule ZONE YYYYMMDDTHHMMSS RULE FROM TO   -> one start (Unix seconds) per line
  expand.py ics FILE DEFAULT-ZONE FROM TO              -> "uid start end" per line
"""
import datetime
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


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "rrule":
        rrule_mode(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
    elif mode == "ics":
        ics_mode(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit("unknown mode " + mode)
