#!/usr/bin/env python3
"""The traditional festivals of every Gregorian year FIRST..LAST by cnlunar (PyPI), the second
oracle the festival tests compare zaoan with: a calendar of its own, from tables of the lunar
months (Hong Kong Observatory data) and of the solar terms' days for 1901–2100.

Usage: festivals_cnlunar.py FIRST-YEAR LAST-YEAR
Prints, first, `RANGE FROM TO`: the days, within FIRST..LAST, that cnlunar's tables answer
for (its months cover the lunar years 1901–2099: from 1901-02-19, 春节 1901, to 2100-02-08,
除夕 2099; outside it reads another year's row or fails); then one line a festival of those
days: `YYYY-MM-DD NAME`, as festivals_lunar_python.py prints them.

cnlunar gives each day's lunar date (Lunar.get_lunarDateNum: year, month, day and whether the
month is a leap one) and each year's solar-term days (solar24.getTheYearAllSolarTermsList).
Its own festival lists are not used, because they do not follow the rules zaoan and
lunar-python agree on: they have 除夕 on the 30th of the 12th month only (so no 除夕 at all
in the years whose 12th month has 29 days), and they look a leap month's days up as if the
month were ordinary (a leap 2nd month's 2nd day is 春龙节 again). The script counts both
and says so on stderr. Here a festival is a month-day of an ordinary month, 除夕 the day
before 春节, 清明 and 冬至 the days of those terms.
"""
import datetime
import sys

try:
    from cnlunar import Lunar
    from cnlunar.config import SOLAR_TERMS_NAME_LIST, START_YEAR, lunarMonthData, lunarNewYearList
    from cnlunar.holidays import otherLunarHolidaysList
    from cnlunar.solar24 import getTheYearAllSolarTermsList
except ImportError:
    sys.exit("festivals_cnlunar.py: cnlunar is not installed (scripts/ensure-oracles installs it)")

LUNAR = {(1, 1): "春节", (1, 15): "元宵", (2, 2): "龙抬头", (5, 5): "端午", (7, 7): "七夕",
         (7, 15): "中元", (8, 15): "中秋", (9, 9): "重阳", (12, 8): "腊八"}
TERMS = {"清明": "清明", "冬至": "冬至"}


def new_year(year):
    """春节 of a lunar year, from cnlunar's table (month in bits 5–6, day in bits 0–4)."""
    code = lunarNewYearList[year - START_YEAR]
    return datetime.date(year, (code >> 5) & 0x3, code & 0x1F)


# The days cnlunar's month table answers for: its first lunar year's 春节 to its last's 除夕.
TABLE_FROM = new_year(START_YEAR)
TABLE_TO = new_year(START_YEAR + len(lunarMonthData)) - datetime.timedelta(days=1)


def lunar_date(date):
    """cnlunar's lunar date of a day: (year, month, day, leap). Only its date conversion is
    run (Lunar.__init__ also works out the day's almanac entries, ten times the cost)."""
    lunar = Lunar.__new__(Lunar)
    lunar.date = datetime.datetime(date.year, date.month, date.day)
    lunar.isLunarLeapMonth = False
    year, month, day = lunar.get_lunarDateNum()
    return year, month, day, lunar.isLunarLeapMonth


def main():
    first_year, last_year = int(sys.argv[1]), int(sys.argv[2])
    first = max(datetime.date(first_year, 1, 1), TABLE_FROM)
    last = min(datetime.date(last_year, 12, 31), TABLE_TO)
    festivals = []
    own_eve_missing = own_leap_extra = 0
    date = first
    previous = lunar_date(date - datetime.timedelta(days=1)) if date > TABLE_FROM else None
    while date <= last:
        year, month, day, leap = lunar_date(date)
        if not leap and (month, day) in LUNAR:
            festivals.append((date, LUNAR[(month, day)]))
        if leap and (month, day) in LUNAR and day in otherLunarHolidaysList[month - 1]:
            own_leap_extra += 1  # cnlunar's own list names this leap-month day as the festival
        if (month, day, leap) == (1, 1, False) and previous is not None:
            festivals.append((date - datetime.timedelta(days=1), "除夕"))
            if previous[2] != 30:
                own_eve_missing += 1  # cnlunar's own list has 除夕 on 12/30 only
        previous = (year, month, day, leap)
        date += datetime.timedelta(days=1)
    if last == TABLE_TO and previous is not None and (previous[1], previous[3]) == (12, False):
        festivals.append((last, "除夕"))  # the table's last day ends its last year
    for year in range(first.year, last.year + 1):
        for index, day in enumerate(getTheYearAllSolarTermsList(year)):
            name = TERMS.get(SOLAR_TERMS_NAME_LIST[index])
            if name:
                festivals.append((datetime.date(year, index // 2 + 1, day), name))
    festivals = sorted(entry for entry in festivals if first <= entry[0] <= last)
    sys.stderr.write(f"festivals_cnlunar.py: {len(festivals)} festivals from {first}; cnlunar's own lists would lack "
                     f"除夕 in {own_eve_missing} years (12th month of 29 days) and give {own_leap_extra} festivals on leap-month days too\n")
    sys.stdout.write(f"RANGE {first.isoformat()} {last.isoformat()}\n" + "".join(f"{day.isoformat()} {name}\n" for day, name in festivals))


if __name__ == "__main__":
    main()
