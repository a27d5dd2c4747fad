#!/usr/bin/python3
"""The 24 solar terms of every year FIRST..LAST by PyEphem (Debian: python3-ephem), the
oracle the solar-term tests compare zaoan with.

Usage: /usr/bin/python3 solar_terms.py FIRST-YEAR LAST-YEAR
Prints one line a term: `YEAR INDEX UNIX-SECONDS DELTA-T`, INDEX 0 (小寒, 285°) … 23 (冬至,
270°), the instant in Unix seconds (UT, as PyEphem has it with its own ΔT), to the
millisecond, and that ΔT (TT − UT, seconds), so the tests can tell ΔT from astronomy.

A term is the instant the Sun's apparent geocentric ecliptic longitude of date reaches its
multiple of 15°: PyEphem's apparent geocentric place of the Sun (g_ra, g_dec: epoch of date,
with nutation and aberration) turned into ecliptic coordinates of date, solved by Newton's
method. The oracle checks itself against PyEphem's own next_equinox / next_solstice, which
find when the apparent right ascension of date is 0h, 6h, 12h or 18h: at those instants the
longitude computed here must be exactly 90° or 270° at a solstice, and β·tan ε (β the Sun's
ecliptic latitude, under an arcsecond) off 0° or 180° at an equinox — within 0.01″, about
0.25 s of time.
"""
import math
import sys

try:
    import ephem
except ImportError:
    sys.exit("solar_terms.py: PyEphem is not installed (Debian: apt-get install python3-ephem; "
             "run with /usr/bin/python3)")

UNIX_EPOCH = ephem.Date("1970/1/1")
SUN_RATE = 2 * math.pi / 365.2422  # radians a day


def apparent_ecliptic(date):
    sun = ephem.Sun(date)
    of_date = ephem.Equatorial(sun.g_ra, sun.g_dec, epoch=date)
    return ephem.Ecliptic(of_date, epoch=date)


def apparent_longitude(date):
    return float(apparent_ecliptic(date).lon)


def self_check_arcseconds(target, instant):
    """How far (arcseconds) the longitude here is from what PyEphem's own equinox or
    solstice instant implies."""
    ecliptic = apparent_ecliptic(instant)
    expected = float(ecliptic.lat) * math.tan(math.radians(23.44)) * math.cos(target)
    return abs(signed(float(ecliptic.lon) - target - expected)) * 206264.806


def signed(angle):
    """An angle folded into (-pi, pi]."""
    angle = math.fmod(angle, 2 * math.pi)
    if angle <= -math.pi:
        angle += 2 * math.pi
    elif angle > math.pi:
        angle -= 2 * math.pi
    return angle


def target_longitude(index):
    return math.radians((285 + 15 * index) % 360)


def term_instant(year, index):
    target = target_longitude(index)
    date = float(ephem.Date("%d/1/1" % year)) + 5.5 + 15.2184 * index
    for _ in range(30):
        step = signed(target - apparent_longitude(date)) / SUN_RATE
        date += step
        if abs(step) < 1e-7:
            return date
    sys.exit("solar_terms.py: no convergence for %d term %d" % (year, index))


def main():
    first, last = int(sys.argv[1]), int(sys.argv[2])
    worst = 0.0
    lines = []
    for year in range(first, last + 1):
        for index in range(24):
            date = term_instant(year, index)
            if index % 6 == 5:  # 春分, 夏至, 秋分, 冬至
                find = ephem.next_equinox if index % 12 == 5 else ephem.next_solstice
                own = float(find(ephem.Date(date - 10)))
                worst = max(worst, self_check_arcseconds(target_longitude(index), own))
            lines.append("%d %d %.3f %.3f" % (year, index, (date - UNIX_EPOCH) * 86400, ephem.delta_t(date)))
    if worst > 0.01:
        sys.exit("solar_terms.py: off PyEphem's own equinoxes/solstices by %.4f arcseconds" % worst)
    sys.stderr.write("solar_terms.py: PyEphem's own equinoxes and solstices agree within %.5f arcseconds\n" % worst)
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
