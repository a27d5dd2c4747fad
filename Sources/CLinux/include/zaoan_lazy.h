#ifndef ZAOAN_LAZY_H
#define ZAOAN_LAZY_H
// A shared library loaded the first time one of its functions is called rather than when the
// program starts (Sources/CICal/lazy.c, Sources/CAstronomy/lazy.c): each function zaoan calls
// is defined under its own name and type and calls the library's through a pointer resolved
// here. A library or symbol that cannot be found is handed to `fail`, which says what is
// missing and what to install, and exits.
#include <dlfcn.h>
#include <stddef.h>

typedef void (*zaoan_lazy_failure)(const char *error);

static inline void *zaoan_lazy_open(const char *name, zaoan_lazy_failure fail) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) fail(dlerror());
    return library;
}

static inline void *zaoan_lazy_symbol(void *library, const char *name, zaoan_lazy_failure fail) {
    void *address = dlsym(library, name);
    if (!address) fail(dlerror());
    return address;
}

/// table.NAME = the library's NAME, typed as the header declares it.
#define ZAOAN_LAZY_RESOLVE(table, library, name, fail) \
    table.name = (__typeof__(table.name))zaoan_lazy_symbol(library, #name, fail)
#endif
