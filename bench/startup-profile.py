#!/usr/bin/python3
"""Where zaoan's cold starts spend their CPU, from a system-wide `perf record -g` of them.

Usage: bench/startup-profile.sh records and calls this; by hand:
    perf record -a -g -e cpu-clock -F 10000 -o perf.data -- zaoan-bench coldstart ... -- \\
        systemd-socket-activate -l SOCKET zaoan serve ...
    perf script -i perf.data --comm zaoan,zaoan-server -F comm,pid,tid,ip,sym,dso | \\
        bench/startup-profile.py STARTS [HZ]

Each sample of the service's process is put in one phase, by the outermost frame that tells
(the first rule that matches, in the order of PHASES), and in one library, by its innermost
frame (where the CPU was). Prints CPU milliseconds per start: phase × library.
"""
import collections, re, sys

starts = int(sys.argv[1])
hz = float(sys.argv[2]) if len(sys.argv) > 2 else 10000.0
ms_per_sample = 1000.0 / hz / starts


def any_symbol(chain, names):
    return any(symbol.startswith(names) for symbol, _ in chain)


def any_dso(chain, prefix):
    return any(dso.startswith(prefix) for _, dso in chain)


ZAOAN_MODULES = ("$s9ZaoanCore", "$s11ZaoanServer", "$s11ZaoanSystem", "$s9ZaoanText", "$s9ZaoanTime",
                 "$s13ZaoanProtocol", "$s12zaoan_server", "$s16ZaoanCommandLine", "$s12ZaoanAlmanac", "zaoan_server_main")

# (phase, test over the whole chain: leaf first, root last)
PHASES = [
    ("exec (kernel: execve, mapping the binaries)", lambda c, t: any_symbol(c, ("load_elf_binary", "bprm_execve", "__x64_sys_execve"))),
    ("zaoan serve's client (static), until it execs zaoan-server", lambda c, t: any_dso(c, "zaoan") and not any_dso(c, "zaoan-server")),
    ("dynamic loader (ld.so: load, relocate)", lambda c, t: any_dso(c, "ld-linux")),
    ("exit, after the answer", lambda c, t: any_symbol(c, ("do_exit", "do_group_exit", "__run_exit_handlers", "exit_mmap", "_dl_fini"))),
    ("worker threads", lambda c, t: t[0] != t[1]),
    ("before main: constructors, Swift runtime image registration, CF init",
     lambda c, t: any_symbol(c, ("__libc_start_main",)) and not any_symbol(c, ("__libc_start_call_main", "zaoan_server_main"))),
    ("main: arguments and environment", lambda c, t: any_symbol(c, ("$s12zaoan_server13ServerOptions", "$s11ZaoanSystem18ProcessEnvironment"))),
    ("main: answering the first request", lambda c, t: any_symbol(c, ("$s11ZaoanServer10Dispatcher", "$s11ZaoanServer7Session", "$s11ZaoanServer7Channel", "$s9ZaoanCore9Responder"))),
    ("main: settings (config, cities, zones)", lambda c, t: any_symbol(c, ("$s9ZaoanCore8Settings", "$s9ZaoanCore10ConfigFile", "$s11ZaoanServer12ConfigSource", "$s9ZaoanCore13BuiltinCities"))),
    ("main: the rest of the service's setup", lambda c, t: any_symbol(c, ("__libc_start_call_main", "zaoan_server_main"))),
    ("kernel, no user frame (page faults, scheduling)", lambda c, t: all(dso == "[kernel.kallsyms]" for _, dso in c)),
    ("other", lambda c, t: True),
]


def library(symbol, dso):
    if dso == "[kernel.kallsyms]":
        return "kernel"
    if dso.startswith("ld-linux"):
        return "ld.so"
    if dso.startswith("libc.so") or dso.startswith("libm.so"):
        return "libc"
    if dso.endswith(".so") or ".so." in dso:
        return "other shared libraries"
    if re.search(r"_7[0-9]\b|icu_7[0-9]|^u[a-z]+_[a-zA-Z]+_7[0-9]", symbol):
        return "ICU"
    if symbol.startswith(("$s10Foundation", "$s20FoundationEssentials", "$s28FoundationInternationalization", "__CF", "CF", "_CF")):
        return "Foundation"
    if symbol.startswith(ZAOAN_MODULES):
        return "zaoan"
    if symbol.startswith(("swift", "_swift", "__swift", "$ss", "(anonymous namespace)", "_gather", "descriptorFrom", "_find")):
        return "Swift runtime and standard library"
    return "other (C and C++ in the binary, unknown)"


counts = collections.defaultdict(collections.Counter)
chain, ids = [], None


def flush():
    if ids is None or not chain:
        return
    phase = next(name for name, test in PHASES if test(chain, ids))
    counts[phase][library(*chain[0])] += 1


for line in sys.stdin:
    if not line.strip():
        continue
    if not line.startswith((" ", "\t")):
        flush()
        fields = line.split()
        pid, tid = fields[1].split("/") if "/" in fields[1] else (fields[1], fields[1])
        ids, chain = (pid, tid), []
        continue
    match = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line.rstrip())
    if match:
        chain.append((match.group(1), match.group(2).rsplit("/", 1)[-1]))
flush()

libraries = ["kernel", "ld.so", "libc", "other shared libraries", "Swift runtime and standard library",
             "Foundation", "ICU", "zaoan", "other (C and C++ in the binary, unknown)"]
short = ["kernel", "ld.so", "libc", "libs", "Swift", "Found.", "ICU", "zaoan", "other"]
total = sum(sum(c.values()) for c in counts.values())
print(f"CPU ms per cold start, {starts} starts ({total * ms_per_sample:.2f} ms each in all), by phase and by library:")
print(f"| {'phase':<68} | {'ms':>5} | " + " | ".join(f"{s:>6}" for s in short) + " |")
print(f"|{'-' * 70}|------:|" + "|".join("-------:" for _ in short) + "|")
for name, _ in PHASES:
    row = counts.get(name)
    if not row:
        continue
    print(f"| {name:<68} | {sum(row.values()) * ms_per_sample:5.2f} | "
          + " | ".join(f"{row[lib] * ms_per_sample:6.2f}" for lib in libraries) + " |")
