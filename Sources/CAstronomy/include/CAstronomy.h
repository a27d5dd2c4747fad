#ifndef ZAOAN_CASTRONOMY_H
#define ZAOAN_CASTRONOMY_H
// The two astronomy libraries the almanac (ZaoanAlmanac) computes the solar terms and the
// Chinese calendar's new moons with. Loaded on first use (lazy.c), not linked:
//   - ERFA (Debian: liberfa-dev, BSD), the IAU SOFA library's free copy: the Earth's
//     position (eraEpv00), the Moon's (eraMoon98), precession-nutation and aberration;
//   - libnova (Debian: libnova-dev, LGPL-2+): only its full ELP 2000-82B lunar theory,
//     ln_get_lunar_geo_posn, for the new moons that fall near midnight.
#include <erfa.h>
#include <erfam.h>
#include <libnova/lunar.h>

/// Whether ERFA and libnova have been loaded into this process (tests check that a start
/// which needs no almanac does not load them).
int zaoan_astronomy_is_loaded(void);
#endif
