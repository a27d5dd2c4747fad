#ifndef ZAOAN_CICAL_SHIM_H
#define ZAOAN_CICAL_SHIM_H
// libical 3.0 (Debian: libical-dev), the iCalendar (RFC 5545) parser and recurrence engine:
// components and properties, RRULE iteration, and time zones read from /usr/share/zoneinfo.
#include <libical/ical.h>
#endif
