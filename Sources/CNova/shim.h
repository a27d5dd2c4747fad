#ifndef ZAOAN_CNOVA_SHIM_H
#define ZAOAN_CNOVA_SHIM_H
// libnova (Debian: libnova-dev, LGPL-2+): only its full ELP 2000-82B lunar theory,
// ln_get_lunar_geo_posn, for the new moons that fall near midnight.
#include <libnova/lunar.h>
#endif
