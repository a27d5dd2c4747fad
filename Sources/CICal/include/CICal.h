#ifndef ZAOAN_CICAL_H
#define ZAOAN_CICAL_H
// libical 3.0 (Debian: libical-dev), the iCalendar (RFC 5545) parser: components and
// properties. Recurrence rules and VTIMEZONEs are expanded by zaoan's own engine
// (ZaoanRecurrence), not libical's. Loaded on first use (lazy.c), not linked.
#include <libical/ical.h>

/// Whether libical has been loaded into this process (tests check the service never does).
int zaoan_ical_is_loaded(void);
#endif
