#ifndef ZAOAN_CSYSTEMD_SHIM_H
#define ZAOAN_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
