// ERFA and libnova, loaded when the almanac first computes rather than when zaoan-server
// starts.
//
// Most starts never compute a solar term or a new moon: the almanac is computed when the
// config asks for it ({lunar}, festivals, a month view, `time calendar=chinese`). Linked
// the usual way, the two libraries were mapped and relocated by every start, before the
// first greeting: about 0.4 ms of a socket-activated start on the 2-vCPU VM
// (docs/benchmarks.md). Here each function zaoan calls is defined under its own name and
// type (the header's declaration: a mismatch does not compile) and calls the library's
// through a pointer resolved by one dlopen of each library, the first time any is called.
//
// If a library cannot be loaded the process says which, and what to install, and exits
// with 69 (EX_UNAVAILABLE): the package depends on both (debian/control), so only a broken
// installation gets here, and an almanac computed without them would be wrong.
#define _GNU_SOURCE
#include "CAstronomy.h"
#include "zaoan_lazy.h"
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ZAOAN_ERFA_LIBRARY "liberfa.so.1"
#define ZAOAN_NOVA_LIBRARY "libnova-0.16.so.0"

static struct {
    __typeof__(&eraAb) eraAb;
    __typeof__(&eraBp06) eraBp06;
    __typeof__(&eraEcm06) eraEcm06;
    __typeof__(&eraEpv00) eraEpv00;
    __typeof__(&eraMoon98) eraMoon98;
    __typeof__(&eraNut06a) eraNut06a;
    __typeof__(&eraTrxp) eraTrxp;
    __typeof__(&ln_get_lunar_geo_posn) ln_get_lunar_geo_posn;
} loaded;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void fail(const char *what) {
    dprintf(2, "zaoan: cannot load %s: the solar terms and the Chinese calendar cannot be computed; "
               "install it (Debian: apt-get install liberfa1 libnova-0.16-0)\n", what ? what : "ERFA or libnova");
    _exit(69);
}

#define RESOLVE(library, name) ZAOAN_LAZY_RESOLVE(loaded, library, name, fail)

static void load(void) {
    void *erfa = zaoan_lazy_open(ZAOAN_ERFA_LIBRARY, fail);
    void *nova = zaoan_lazy_open(ZAOAN_NOVA_LIBRARY, fail);
    RESOLVE(erfa, eraAb);
    RESOLVE(erfa, eraBp06);
    RESOLVE(erfa, eraEcm06);
    RESOLVE(erfa, eraEpv00);
    RESOLVE(erfa, eraMoon98);
    RESOLVE(erfa, eraNut06a);
    RESOLVE(erfa, eraTrxp);
    RESOLVE(nova, ln_get_lunar_geo_posn);
}

int zaoan_astronomy_is_loaded(void) {
    return loaded.eraAb != NULL;
}

static inline void need(void) { pthread_once(&load_once, load); }

void eraAb(double pnat[3], double v[3], double s, double bm1, double ppr[3]) { need(); loaded.eraAb(pnat, v, s, bm1, ppr); }
void eraBp06(double date1, double date2, double rb[3][3], double rp[3][3], double rbp[3][3]) { need(); loaded.eraBp06(date1, date2, rb, rp, rbp); }
void eraEcm06(double date1, double date2, double rm[3][3]) { need(); loaded.eraEcm06(date1, date2, rm); }
int eraEpv00(double date1, double date2, double pvh[2][3], double pvb[2][3]) { need(); return loaded.eraEpv00(date1, date2, pvh, pvb); }
void eraMoon98(double date1, double date2, double pv[2][3]) { need(); loaded.eraMoon98(date1, date2, pv); }
void eraNut06a(double date1, double date2, double *dpsi, double *deps) { need(); loaded.eraNut06a(date1, date2, dpsi, deps); }
void eraTrxp(double r[3][3], double p[3], double trp[3]) { need(); loaded.eraTrxp(r, p, trp); }
void ln_get_lunar_geo_posn(double JD, struct ln_rect_posn *moon, double precision) { need(); loaded.ln_get_lunar_geo_posn(JD, moon, precision); }
