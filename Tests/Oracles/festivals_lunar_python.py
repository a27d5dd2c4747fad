#!/usr/bin/env python3
"""The traditional festivals of every Gregorian year FIRST..LAST by lunar-python (PyPI), the
first oracle the festival tests compare zaoan with.

Usage: festivals_lunar_python.py FIRST-YEAR LAST-YEAR
Prints one line a festival: `YYYY-MM-DD NAME`, NAME one of 春节 元宵 龙抬头 清明 端午 七夕
中元 中秋 重阳 冬至 腊八 除夕, sorted by day.

lunar-python's own rules, read from its tables: its festivals (LunarUtil.FESTIVAL, and 中元节
from LunarUtil.OTHER_FESTIVAL) are keyed by `MONTH-DAY` with a leap month negative, so a leap
month holds none; 除夕 is its Lunar.getFestivals rule (the 12th month, day 29 or later, the
next day in the next lunar year); 清明 and 冬至 are the days of its solar-term table.
Asking lunar-python day by day takes minutes for 200 years (each Lunar computes its year's
terms), so the days are laid out from its months (LunarYear.getMonths) and its tables, and
then every festival of every tenth year is checked against lunar-python's own day-by-day
answer (Lunar.getFestivals, getOtherFestivals, getJieQi).
"""
import datetime
import sys

try:
    from lunar_python import LunarYear, Solar
    from lunar_python.util import LunarUtil
except ImportError:
    sys.exit("festivals_lunar_python.py: lunar-python is not installed (scripts/ensure-oracles installs it)")

JD_OF_ORDINAL_1 = 1721425  # Julian day number of 0001-01-01 (proleptic Gregorian)
# lunar-python's names → the short names zaoan's zh text uses.
SHORT = {"春节": "春节", "元宵节": "元宵", "龙头节": "龙抬头", "端午节": "端午", "七夕节": "七夕",
         "中元节": "中元", "中秋节": "中秋", "重阳节": "重阳", "腊八节": "腊八", "除夕": "除夕"}


def lunar_festivals(month_number, day):
    """lunar-python's festivals of a month-day (a leap month's number is negative)."""
    key = "%d-%d" % (month_number, day)
    names = [LunarUtil.FESTIVAL[key]] if key in LunarUtil.FESTIVAL else []
    names += [name for name in LunarUtil.OTHER_FESTIVAL.get(key, []) if name == "中元节"]
    return names


def main():
    first_year, last_year = int(sys.argv[1]), int(sys.argv[2])
    found = {}  # first day's JD -> month
    for year in range(first_year - 1, last_year + 2):
        for month in LunarYear.fromYear(year).getMonths():
            found[month.getFirstJulianDay()] = month
    months = [found[jd] for jd in sorted(found)]
    festivals = []  # (date, name)
    for month, after in zip(months, months[1:]):
        start = int(month.getFirstJulianDay())
        if after.getFirstJulianDay() - start != month.getDayCount():
            sys.exit(f"festivals_lunar_python.py: months do not join at JD {start}")
        for day in range(1, month.getDayCount() + 1):
            date = datetime.date.fromordinal(start + day - 1 - JD_OF_ORDINAL_1)
            names = lunar_festivals(month.getMonth(), day)
            # Lunar.getFestivals: abs(month) == 12, day >= 29, and the next day is in the next year.
            if abs(month.getMonth()) == 12 and day >= 29 and day == month.getDayCount() and after.getYear() != month.getYear():
                names.append("除夕")
            festivals += [(date, SHORT[name]) for name in names]
    for year in range(first_year, last_year + 1):
        table = Solar.fromYmd(year, 6, 1).getLunar().getJieQiTable()  # lunar year `year`'s terms
        for key, name in (("清明", "清明"), ("DONG_ZHI", "冬至")):
            solar = table[key]
            festivals.append((datetime.date(solar.getYear(), solar.getMonth(), solar.getDay()), name))
    first, last = datetime.date(first_year, 1, 1), datetime.date(last_year, 12, 31)
    festivals = sorted(set(entry for entry in festivals if first <= entry[0] <= last))

    # The layout must be lunar-python's own answer, day by day, on every tenth year.
    checked = 0
    for date, name in festivals:
        if date.year % 10:
            continue
        lunar = Solar.fromYmd(date.year, date.month, date.day).getLunar()
        own = [SHORT.get(f) for f in lunar.getFestivals() + lunar.getOtherFestivals()] + [lunar.getJieQi()]
        if name not in own:
            sys.exit(f"festivals_lunar_python.py: layout says {date} is {name}, lunar-python's day says {own}")
        checked += 1
    sys.stderr.write(f"festivals_lunar_python.py: {len(festivals)} festivals, {checked} checked day by day\n")
    sys.stdout.write("".join(f"{date.isoformat()} {name}\n" for date, name in festivals))


if __name__ == "__main__":
    main()
