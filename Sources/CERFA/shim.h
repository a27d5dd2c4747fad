#ifndef ZAOAN_CERFA_SHIM_H
#define ZAOAN_CERFA_SHIM_H
// ERFA (Debian: liberfa-dev), the BSD-licensed copy of the IAU SOFA library: the Earth's
// position (eraEpv00), the Moon's (eraMoon98), precession-nutation and aberration.
#include <erfa.h>
#include <erfam.h>
#endif
