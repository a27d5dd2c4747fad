"""Python's proleptic Gregorian calendar (datetime.date) as the oracle for zaoan's civil-day
arithmetic: every day of years 1-9999 would be 3.6 million lines, so every day of a few
years around the rules (leap centuries, year 1, 9999) and seeded random days elsewhere.
Prints `YEAR MONTH DAY DAYS_SINCE_1970 WEEKDAY(0=Sunday) DAY_OF_YEAR(0-based)` per line."""
import datetime
import random
import sys

EPOCH = datetime.date(1970, 1, 1).toordinal()


def line(day):
    return "%d %d %d %d %d %d" % (day.year, day.month, day.day, day.toordinal() - EPOCH,
                                  day.isoweekday() % 7, day.timetuple().tm_yday - 1)


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    days = set()
    for year in (1, 2, 3, 4, 99, 100, 101, 399, 400, 401, 1582, 1600, 1700, 1800, 1900, 1969, 1970,
                 2000, 2024, 2100, 2400, 9996, 9999):
        first = datetime.date(year, 1, 1).toordinal()
        last = datetime.date(year, 12, 31).toordinal()
        days.update(range(first, last + 1))
    generator = random.Random(seed)
    lowest, highest = datetime.date.min.toordinal(), datetime.date.max.toordinal()
    days.update(generator.randint(lowest, highest) for _ in range(20_000))
    out = sys.stdout
    for ordinal in sorted(days):
        out.write(line(datetime.date.fromordinal(ordinal)) + "\n")


main()
