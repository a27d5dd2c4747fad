#!/usr/bin/env python3
"""The lunar date of every day FIRST..LAST by lunar-python (PyPI), the oracle the Chinese
calendar tests compare zaoan with.

Usage: lunar_dates.py FIRST-YEAR LAST-YEAR
Prints one line a day: `YYYY-MM-DD CYCLE MONTH LEAP DAY`, where CYCLE is the sexagenary
year of the lunar year (1 = 甲子 … 60 = 癸亥), MONTH 1–12, LEAP 1 for a leap month, else 0.

Asking lunar-python day by day takes minutes for 200 years, so this asks it for its months
(LunarYear.getMonths: first day, length, leap) and lays the days out from them, then checks
that layout against lunar-python's own day-by-day answer on a spread of days.
"""
import datetime
import sys

try:
    from lunar_python import LunarYear, Solar
except ImportError:
    sys.exit("lunar_dates.py: lunar-python is not installed (python3 -m pip install lunar-python)")

GAN = "甲乙丙丁戊己庚辛壬癸"
ZHI = "子丑寅卯辰巳午未申酉戌亥"
CYCLE = [GAN[i % 10] + ZHI[i % 12] for i in range(60)]
JD_OF_ORDINAL_1 = 1721425  # Julian day number of 0001-01-01 (proleptic Gregorian)


def months(first_year, last_year):
    """Every lunar month from a little before FIRST to a little after LAST, by first day."""
    found = {}
    for year in range(first_year - 1, last_year + 2):
        for month in LunarYear.fromYear(year).getMonths():
            found[month.getFirstJulianDay()] = month
    return [found[jd] for jd in sorted(found)]


def main():
    first_year, last_year = int(sys.argv[1]), int(sys.argv[2])
    first = datetime.date(first_year, 1, 1)
    last = datetime.date(last_year, 12, 31)
    lines = []
    days = {}
    table = months(first_year, last_year)
    for before, after in zip(table, table[1:]):
        start = int(before.getFirstJulianDay())
        if after.getFirstJulianDay() - start != before.getDayCount():
            sys.exit(f"lunar_dates.py: months do not join at JD {start}")
        number = before.getMonth()
        cycle = (before.getYear() - 4) % 60 + 1
        for day in range(before.getDayCount()):
            date = datetime.date.fromordinal(start + day - JD_OF_ORDINAL_1)
            if first <= date <= last:
                days[date] = (cycle, abs(number), 1 if number < 0 else 0, day + 1)
    date = first
    while date <= last:
        cycle, month, leap, day = days[date]  # a KeyError means a gap in the table
        lines.append(f"{date.isoformat()} {cycle} {month} {leap} {day}")
        date += datetime.timedelta(days=1)
    # The layout must be lunar-python's own answer: check every 61st day and every first
    # of a month against Solar.getLunar().
    for index, date in enumerate(sorted(days)):
        cycle, month, leap, day = days[date]
        if index % 61 and day != 1:
            continue
        lunar = Solar.fromYmd(date.year, date.month, date.day).getLunar()
        expected = (CYCLE.index(lunar.getYearInGanZhi()) + 1, abs(lunar.getMonth()),
                    1 if lunar.getMonth() < 0 else 0, lunar.getDay())
        if expected != (cycle, month, leap, day):
            sys.exit(f"lunar_dates.py: layout {date} {(cycle, month, leap, day)} != lunar-python {expected}")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
