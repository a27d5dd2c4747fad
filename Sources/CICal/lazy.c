// libical, loaded when first used rather than when zaoan-server starts.
//
// Only the calendar reader process (`zaoan-server calendar-reader`) calls libical, and only
// to parse files (recurrences and VTIMEZONEs are zaoan's own engine's since issue 30). Linked the usual way, libical and what it pulls in (ICU's C++
// libraries, libstdc++, Berkeley DB) were mapped and relocated by every start of the
// service: 4,200 of the 5,300 symbol relocations at start and the largest part of the
// dynamic loader's time (LD_DEBUG=statistics), before the first greeting, which never
// reads a calendar. Here every libical function zaoan calls is defined under its own name
// and type (the header's declaration: a mismatch does not compile) and calls the library's
// through a pointer resolved by one dlopen, the first time any of them is called.
//
// If libical cannot be loaded the process says so and exits with 69 (EX_UNAVAILABLE): only
// a reader process gets here, and the service reports the reader's end as it reports any
// reader that fails.
#define _GNU_SOURCE
#include "CICal.h"
#include "zaoan_lazy.h"
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ZAOAN_ICAL_LIBRARY "libical.so.3"

static struct {
    __typeof__(&icalcomponent_as_ical_string) icalcomponent_as_ical_string;
    __typeof__(&icalcomponent_free) icalcomponent_free;
    __typeof__(&icalcomponent_get_description) icalcomponent_get_description;
    __typeof__(&icalcomponent_get_dtstamp) icalcomponent_get_dtstamp;
    __typeof__(&icalcomponent_get_first_component) icalcomponent_get_first_component;
    __typeof__(&icalcomponent_get_first_property) icalcomponent_get_first_property;
    __typeof__(&icalcomponent_get_location) icalcomponent_get_location;
    __typeof__(&icalcomponent_get_next_component) icalcomponent_get_next_component;
    __typeof__(&icalcomponent_get_next_property) icalcomponent_get_next_property;
    __typeof__(&icalcomponent_get_sequence) icalcomponent_get_sequence;
    __typeof__(&icalcomponent_get_status) icalcomponent_get_status;
    __typeof__(&icalcomponent_get_summary) icalcomponent_get_summary;
    __typeof__(&icalcomponent_get_uid) icalcomponent_get_uid;
    __typeof__(&icaldurationtype_is_null_duration) icaldurationtype_is_null_duration;
    __typeof__(&icalerror_clear_errno) icalerror_clear_errno;
    __typeof__(&icalerror_set_errors_are_fatal) icalerror_set_errors_are_fatal;
    __typeof__(&icalparameter_get_range) icalparameter_get_range;
    __typeof__(&icalparameter_get_tzid) icalparameter_get_tzid;
    __typeof__(&icalparser_add_line) icalparser_add_line;
    __typeof__(&icalparser_free) icalparser_free;
    __typeof__(&icalparser_get_state) icalparser_get_state;
    __typeof__(&icalparser_new) icalparser_new;
    __typeof__(&icalproperty_get_dtend) icalproperty_get_dtend;
    __typeof__(&icalproperty_get_dtstart) icalproperty_get_dtstart;
    __typeof__(&icalproperty_get_duration) icalproperty_get_duration;
    __typeof__(&icalproperty_get_exdate) icalproperty_get_exdate;
    __typeof__(&icalproperty_get_first_parameter) icalproperty_get_first_parameter;
    __typeof__(&icalproperty_get_rdate) icalproperty_get_rdate;
    __typeof__(&icalproperty_get_recurrenceid) icalproperty_get_recurrenceid;
    __typeof__(&icalproperty_get_x) icalproperty_get_x;
    __typeof__(&icalproperty_get_x_name) icalproperty_get_x_name;
    __typeof__(&icalproperty_get_tzid) icalproperty_get_tzid;
    __typeof__(&icalproperty_get_tzname) icalproperty_get_tzname;
    __typeof__(&icalproperty_get_tzoffsetfrom) icalproperty_get_tzoffsetfrom;
    __typeof__(&icalproperty_get_tzoffsetto) icalproperty_get_tzoffsetto;
    __typeof__(&icalproperty_get_url) icalproperty_get_url;
    __typeof__(&icalproperty_get_acknowledged) icalproperty_get_acknowledged;
    __typeof__(&icalproperty_get_action) icalproperty_get_action;
    __typeof__(&icalproperty_get_repeat) icalproperty_get_repeat;
    __typeof__(&icalproperty_get_trigger) icalproperty_get_trigger;
    __typeof__(&icalparameter_get_related) icalparameter_get_related;
    __typeof__(&icalproperty_get_xlicerror) icalproperty_get_xlicerror;
    __typeof__(&icalproperty_get_conference) icalproperty_get_conference;
    __typeof__(&icalproperty_get_next_parameter) icalproperty_get_next_parameter;
    __typeof__(&icalparameter_as_ical_string) icalparameter_as_ical_string;
    __typeof__(&icaltime_is_null_time) icaltime_is_null_time;
    __typeof__(&icaltime_is_utc) icaltime_is_utc;
} loaded;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void fail(const char *what) {
    dprintf(2, "zaoan: cannot load libical (%s): calendars and recurring rooms cannot be read; "
               "install it (Debian: apt-get install libical3)\n", what ? what : ZAOAN_ICAL_LIBRARY);
    _exit(69);
}

#define RESOLVE(library, name) ZAOAN_LAZY_RESOLVE(loaded, library, name, fail)

static void load(void) {
    void *library = zaoan_lazy_open(ZAOAN_ICAL_LIBRARY, fail);
    RESOLVE(library, icalcomponent_as_ical_string);
    RESOLVE(library, icalcomponent_free);
    RESOLVE(library, icalcomponent_get_description);
    RESOLVE(library, icalcomponent_get_dtstamp);
    RESOLVE(library, icalcomponent_get_first_component);
    RESOLVE(library, icalcomponent_get_first_property);
    RESOLVE(library, icalcomponent_get_location);
    RESOLVE(library, icalcomponent_get_next_component);
    RESOLVE(library, icalcomponent_get_next_property);
    RESOLVE(library, icalcomponent_get_sequence);
    RESOLVE(library, icalcomponent_get_status);
    RESOLVE(library, icalcomponent_get_summary);
    RESOLVE(library, icalcomponent_get_uid);
    RESOLVE(library, icaldurationtype_is_null_duration);
    RESOLVE(library, icalerror_clear_errno);
    RESOLVE(library, icalerror_set_errors_are_fatal);
    RESOLVE(library, icalparameter_get_range);
    RESOLVE(library, icalparameter_get_tzid);
    RESOLVE(library, icalparser_add_line);
    RESOLVE(library, icalparser_free);
    RESOLVE(library, icalparser_get_state);
    RESOLVE(library, icalparser_new);
    RESOLVE(library, icalproperty_get_dtend);
    RESOLVE(library, icalproperty_get_dtstart);
    RESOLVE(library, icalproperty_get_duration);
    RESOLVE(library, icalproperty_get_exdate);
    RESOLVE(library, icalproperty_get_first_parameter);
    RESOLVE(library, icalproperty_get_rdate);
    RESOLVE(library, icalproperty_get_recurrenceid);
    RESOLVE(library, icalproperty_get_x);
    RESOLVE(library, icalproperty_get_x_name);
    RESOLVE(library, icalproperty_get_tzid);
    RESOLVE(library, icalproperty_get_tzname);
    RESOLVE(library, icalproperty_get_tzoffsetfrom);
    RESOLVE(library, icalproperty_get_tzoffsetto);
    RESOLVE(library, icalproperty_get_url);
    RESOLVE(library, icalproperty_get_acknowledged);
    RESOLVE(library, icalproperty_get_action);
    RESOLVE(library, icalproperty_get_repeat);
    RESOLVE(library, icalproperty_get_trigger);
    RESOLVE(library, icalparameter_get_related);
    RESOLVE(library, icalproperty_get_xlicerror);
    RESOLVE(library, icalproperty_get_conference);
    RESOLVE(library, icalproperty_get_next_parameter);
    RESOLVE(library, icalparameter_as_ical_string);
    RESOLVE(library, icaltime_is_null_time);
    RESOLVE(library, icaltime_is_utc);
}

int zaoan_ical_is_loaded(void) {
    return loaded.icalcomponent_as_ical_string != NULL;
}

static inline void need(void) { pthread_once(&load_once, load); }

char *icalcomponent_as_ical_string(icalcomponent *component) { need(); return loaded.icalcomponent_as_ical_string(component); }
void icalcomponent_free(icalcomponent *component) { need(); loaded.icalcomponent_free(component); }
const char *icalcomponent_get_description(icalcomponent *comp) { need(); return loaded.icalcomponent_get_description(comp); }
struct icaltimetype icalcomponent_get_dtstamp(icalcomponent *comp) { need(); return loaded.icalcomponent_get_dtstamp(comp); }
icalcomponent *icalcomponent_get_first_component(icalcomponent *component, icalcomponent_kind kind) { need(); return loaded.icalcomponent_get_first_component(component, kind); }
icalproperty *icalcomponent_get_first_property(icalcomponent *component, icalproperty_kind kind) { need(); return loaded.icalcomponent_get_first_property(component, kind); }
const char *icalcomponent_get_location(icalcomponent *comp) { need(); return loaded.icalcomponent_get_location(comp); }
icalcomponent *icalcomponent_get_next_component(icalcomponent *component, icalcomponent_kind kind) { need(); return loaded.icalcomponent_get_next_component(component, kind); }
icalproperty *icalcomponent_get_next_property(icalcomponent *component, icalproperty_kind kind) { need(); return loaded.icalcomponent_get_next_property(component, kind); }
int icalcomponent_get_sequence(icalcomponent *comp) { need(); return loaded.icalcomponent_get_sequence(comp); }
enum icalproperty_status icalcomponent_get_status(icalcomponent *comp) { need(); return loaded.icalcomponent_get_status(comp); }
const char *icalcomponent_get_summary(icalcomponent *comp) { need(); return loaded.icalcomponent_get_summary(comp); }
const char *icalcomponent_get_uid(icalcomponent *comp) { need(); return loaded.icalcomponent_get_uid(comp); }
int icaldurationtype_is_null_duration(struct icaldurationtype d) { need(); return loaded.icaldurationtype_is_null_duration(d); }
void icalerror_clear_errno(void) { need(); loaded.icalerror_clear_errno(); }
void icalerror_set_errors_are_fatal(int fatal) { need(); loaded.icalerror_set_errors_are_fatal(fatal); }
icalparameter_range icalparameter_get_range(const icalparameter *value) { need(); return loaded.icalparameter_get_range(value); }
const char *icalparameter_get_tzid(const icalparameter *value) { need(); return loaded.icalparameter_get_tzid(value); }
icalcomponent *icalparser_add_line(icalparser *parser, char *str) { need(); return loaded.icalparser_add_line(parser, str); }
void icalparser_free(icalparser *parser) { need(); loaded.icalparser_free(parser); }
icalparser_state icalparser_get_state(icalparser *parser) { need(); return loaded.icalparser_get_state(parser); }
icalparser *icalparser_new(void) { need(); return loaded.icalparser_new(); }
struct icaltimetype icalproperty_get_dtend(const icalproperty *prop) { need(); return loaded.icalproperty_get_dtend(prop); }
struct icaltimetype icalproperty_get_dtstart(const icalproperty *prop) { need(); return loaded.icalproperty_get_dtstart(prop); }
struct icaldurationtype icalproperty_get_duration(const icalproperty *prop) { need(); return loaded.icalproperty_get_duration(prop); }
struct icaltimetype icalproperty_get_exdate(const icalproperty *prop) { need(); return loaded.icalproperty_get_exdate(prop); }
icalparameter *icalproperty_get_first_parameter(icalproperty *prop, icalparameter_kind kind) { need(); return loaded.icalproperty_get_first_parameter(prop, kind); }
struct icaldatetimeperiodtype icalproperty_get_rdate(const icalproperty *prop) { need(); return loaded.icalproperty_get_rdate(prop); }
struct icaltimetype icalproperty_get_recurrenceid(const icalproperty *prop) { need(); return loaded.icalproperty_get_recurrenceid(prop); }
const char *icalproperty_get_x(const icalproperty *prop) { need(); return loaded.icalproperty_get_x(prop); }
const char *icalproperty_get_x_name(icalproperty *prop) { need(); return loaded.icalproperty_get_x_name(prop); }
const char *icalproperty_get_tzid(const icalproperty *prop) { need(); return loaded.icalproperty_get_tzid(prop); }
const char *icalproperty_get_tzname(const icalproperty *prop) { need(); return loaded.icalproperty_get_tzname(prop); }
int icalproperty_get_tzoffsetfrom(const icalproperty *prop) { need(); return loaded.icalproperty_get_tzoffsetfrom(prop); }
int icalproperty_get_tzoffsetto(const icalproperty *prop) { need(); return loaded.icalproperty_get_tzoffsetto(prop); }
const char *icalproperty_get_url(const icalproperty *prop) { need(); return loaded.icalproperty_get_url(prop); }
struct icaltimetype icalproperty_get_acknowledged(const icalproperty *prop) { need(); return loaded.icalproperty_get_acknowledged(prop); }
enum icalproperty_action icalproperty_get_action(const icalproperty *prop) { need(); return loaded.icalproperty_get_action(prop); }
int icalproperty_get_repeat(const icalproperty *prop) { need(); return loaded.icalproperty_get_repeat(prop); }
struct icaltriggertype icalproperty_get_trigger(const icalproperty *prop) { need(); return loaded.icalproperty_get_trigger(prop); }
icalparameter_related icalparameter_get_related(const icalparameter *value) { need(); return loaded.icalparameter_get_related(value); }
const char *icalproperty_get_xlicerror(const icalproperty *prop) { need(); return loaded.icalproperty_get_xlicerror(prop); }
const char *icalproperty_get_conference(const icalproperty *prop) { need(); return loaded.icalproperty_get_conference(prop); }
icalparameter *icalproperty_get_next_parameter(icalproperty *prop, icalparameter_kind kind) { need(); return loaded.icalproperty_get_next_parameter(prop, kind); }
char *icalparameter_as_ical_string(icalparameter *parameter) { need(); return loaded.icalparameter_as_ical_string(parameter); }
int icaltime_is_null_time(const struct icaltimetype t) { need(); return loaded.icaltime_is_null_time(t); }
int icaltime_is_utc(const struct icaltimetype t) { need(); return loaded.icaltime_is_utc(t); }
