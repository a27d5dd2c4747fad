#!/usr/bin/env python3
"""China's holidays and make-up workdays by chinesecalendar (PyPI `chinesecalendar`, MIT),
the oracle the workday tests compare zaoan with: its author transcribes the State Council's
notices independently of python-holidays, which zaoan's table is generated from.

Usage: china_workdays.py
Prints one line a day of every year chinesecalendar has: `YYYY-MM-DD KIND`, KIND being
holiday, makeup-workday, weekend or workday, as `month YYYY-MM days` words it.
"""
import datetime
import sys

try:
    from chinese_calendar import constants
except ImportError:
    sys.exit("china_workdays.py: chinesecalendar is not installed (scripts/ensure-oracles installs it)")

years = sorted({day.year for day in constants.holidays})
day = datetime.date(years[0], 1, 1)
while day.year <= years[-1]:
    if day in constants.holidays:
        kind = "holiday"
    elif day in constants.workdays:
        kind = "makeup-workday"
    else:
        kind = "weekend" if day.weekday() >= 5 else "workday"
    print(day.isoformat(), kind)
    day += datetime.timedelta(days=1)
