#!/usr/bin/env python3
"""The months of the Chinese calendar by lunar-python (PyPI), the oracle of zaoan's rules in
that calendar (RFC 7529's RSCALE=CHINESE).

Usage: lunar_months.py FIRST-YEAR LAST-YEAR
Prints one line a month of the lunar years FIRST..LAST (a lunar year is named by the
Gregorian year its 正月 begins in): `YEAR MONTH LEAP FIRST LENGTH`, where MONTH is 1-12, LEAP
1 for a leap month, FIRST the month's first day as days since 1970-01-01, LENGTH 29 or 30.
The months of a year are in order and join: each starts the day after the one before ends.
"""
import sys

try:
    from lunar_python import LunarYear
except ImportError:
    sys.exit("lunar_months.py: lunar-python is not installed (scripts/ensure-oracles installs it)")

JD_OF_1970 = 2440588  # Julian day number of 1970-01-01 (lunar-python's days are whole JDs)


def main():
    first_year, last_year = int(sys.argv[1]), int(sys.argv[2])
    found = {}
    for year in range(first_year - 1, last_year + 2):
        for month in LunarYear.fromYear(year).getMonths():
            found[int(month.getFirstJulianDay())] = month
    lines = []
    previous_end = None
    for jd in sorted(found):
        month = found[jd]
        if not first_year <= month.getYear() <= last_year:
            continue
        first = jd - JD_OF_1970
        if previous_end is not None and first != previous_end:
            sys.exit(f"lunar_months.py: months do not join at JD {jd}")
        previous_end = first + month.getDayCount()
        number = month.getMonth()
        lines.append(f"{month.getYear()} {abs(number)} {1 if number < 0 else 0} {first} {month.getDayCount()}")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
