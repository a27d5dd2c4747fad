// swift-tools-version:6.0
import PackageDescription

/// The C shims as Debian builds C (dpkg-buildflags): glibc's checked variants of memcpy,
/// pread and the like where a buffer's size is known, at compile time or (level 3, glibc
/// 2.34+) at run time. Release only: it needs the optimizer, which the debug build lacks.
let fortified: [CSetting] = [.define("_FORTIFY_SOURCE", to: "3", .when(configuration: .release))]

/// Each function in a section of its own (release only), so that zaoan-server's link can
/// lay out the functions a bar's tick runs side by side (packaging/link/tick-order.txt, made
/// by bench/tick-order.sh; TickLayoutTests says when it is stale). A bar wakes the service
/// once a second and finds its code cold: on 12 pages instead of 63, a bar clock's CPU fell
/// from 1.61–1.76× to 1.22× the C tick's (docs/benchmarks.md, "A bar clock").
let sectioned: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]

let package = Package(
    name: "zaoan",
    products: [
        // The client (ask, watch, bar): Glibc only, so a prompt or bar pays for a small
        // process. `zaoan serve` and `zaoan check-config` exec the server beside it.
        .executable(name: "zaoan", targets: ["zaoan"]),
        .executable(name: "zaoan-server", targets: ["zaoan-server"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // ERFA (BSD), the IAU SOFA library's free copy, for the Sun's and the Moon's apparent
        // places, and libnova (LGPL), for its full ELP 2000-82B lunar theory (the few new
        // moons within a minute or so of midnight): their headers (liberfa-dev, libnova-dev)
        // and the functions the almanac calls, which load the two libraries the first time
        // one is called (lazy.c): a start that computes no almanac maps neither.
        .target(name: "CAstronomy", dependencies: ["CLinux"], cSettings: fortified),
        // libical (MPL/LGPL), for iCalendar files: its parser (rules and VTIMEZONEs are
        // expanded by ZaoanRecurrence, not libical). Its header (libical-dev) and the
        // functions zaoan calls, which load libical.so.3 the first time one is called
        // (lazy.c): only the calendar reader process ever does, so the service starts
        // without mapping libical and the ICU and C++ libraries it needs.
        .target(name: "CICal", dependencies: ["CLinux"], cSettings: fortified),
        .target(name: "CLinux", cSettings: fortified),
        // Glibc only (no Foundation, no libsystemd): what the service and the clients share
        // of the system — errors, the syscall helper, owned descriptors, sockets, the socket
        // path, signals, the line framer. The service's request path runs through its framer.
        .target(name: "ZaoanSystem", dependencies: ["CLinux"], swiftSettings: sectioned),
        // Pure text, no Foundation: safe text for every target and the bar block encoder,
        // shared by the service's formats and the clients.
        .target(name: "ZaoanText", swiftSettings: sectioned),
        // The clients' side, Glibc only: connections with deadlines and size limits, safe
        // request lines, and what they print.
        .target(name: "ZaoanClient", dependencies: ["ZaoanSystem", "ZaoanText", "CLinux"]),
        // No Foundation: the option conventions both executables share (`--name VALUE`,
        // `--name=VALUE`, durations, usage errors, `zaoan: ` messages on stderr).
        .target(name: "ZaoanCommandLine", dependencies: ["ZaoanText", "ZaoanSystem"], swiftSettings: sectioned),
        // The one time engine, pure Swift, no Foundation: civil-day arithmetic, zone names,
        // the tz database reader (TZif, POSIX TZ rules), wall-clock resolution (DST gaps and
        // repeats), strftime as GNU date does it, the accepted times. Core, the calendar
        // module and the almanac share it.
        .target(name: "ZaoanTime", dependencies: ["ZaoanSystem"], swiftSettings: sectioned),
        // Pure astronomy and calendar arithmetic, no Foundation: solar terms, new moons, the
        // Chinese calendar's months, with the years computed once and kept.
        .target(name: "ZaoanAlmanac", dependencies: ["CAstronomy", "ZaoanTime"], swiftSettings: sectioned),
        // Requests as the protocol has them, their parser and errors, and the rule for the
        // config's bar keys: no Foundation, so the small client checks `bar_blocks` the way
        // the service does.
        .target(name: "ZaoanProtocol", dependencies: ["ZaoanText"], swiftSettings: sectioned),
        // Recurring series expanded to occurrences, DST-correctly, by zaoan's own engine: the
        // one recurrence engine of calendar files, their VTIMEZONEs and recurring rooms, with
        // its zones, windows and limits; no Foundation. Used from one thread at a time (libical
        // keeps global state: LibICalLock).
        .target(name: "ZaoanRecurrence", dependencies: ["CICal", "ZaoanText", "ZaoanSystem", "ZaoanTime", "ZaoanAlmanac"], swiftSettings: sectioned),
        // iCalendar files and vdir folders read through libical (the reader process's side):
        // content lines, components, events, overrides, TZIDs, each file's problems.
        .target(name: "ZaoanCalendar", dependencies: ["CICal", "ZaoanText", "ZaoanSystem", "ZaoanTime", "ZaoanRecurrence"], swiftSettings: sectioned),
        .target(name: "ZaoanCore", dependencies: ["ZaoanText", "ZaoanSystem", "ZaoanProtocol", "ZaoanTime", "ZaoanAlmanac", "ZaoanRecurrence"], swiftSettings: sectioned),
        .target(name: "ZaoanServer", dependencies: ["ZaoanCore", "ZaoanCalendar", "ZaoanRecurrence", "ZaoanText", "ZaoanSystem", "CSystemd", "CLinux"], swiftSettings: sectioned),
        // `zaoan`: the client. Nothing here may depend on ZaoanCore or ZaoanServer (the
        // service's code and data); ClientFootprintTests checks the binary.
        // Linked fully static (glibc too): no dynamic loader, no libstdc++ to map and
        // relocate: `zaoan ask ping` takes 1.1 ms against 2.5 ms (hyperfine, side by side,
        // docs/benchmarks.md). The one NSS call, getpwuid_r when HOME is unset, loads
        // the system's libnss at run time and falls back to `/` if it cannot.
        // Release only: the test bundle links this target's code, and must not be static.
        .executableTarget(name: "zaoan", dependencies: ["ZaoanClient", "ZaoanCommandLine", "ZaoanProtocol", "ZaoanText", "ZaoanSystem", "CLinux"],
                          linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))],
                          plugins: ["GitCommit"]),
        // `zaoan-server`: serve and check-config, run by `zaoan serve` / `zaoan check-config`.
        // Linked with full RELRO (`-z now`, as Debian's hardening=+bindnow): its few hundred
        // library symbols are bound at start, and the table holding them is then read-only.
        // The static Swift runtime asks for `-lstdc++`; packaging/link holds a linker script
        // of that name that takes the static archive instead, so a start neither maps nor
        // relocates libstdc++.so: 1.1 ms off a cold start and 1.2 MB of resident memory
        // (docs/benchmarks.md). The calendar reader process still maps it, with libical.
        // gold's --section-ordering-file puts the tick's functions together (`sectioned`).
        .executableTarget(name: "zaoan-server", dependencies: ["ZaoanCore", "ZaoanServer", "ZaoanCommandLine", "CLinux"],
                          swiftSettings: sectioned,
                          linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now", "-L", Context.packageDirectory + "/packaging/link",
                                                         "-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/packaging/link/tick-order.txt"],
                                                        .when(configuration: .release))],
                          plugins: ["GitCommit"]),
        .plugin(name: "GitCommit", capability: .buildTool()),
        .executableTarget(name: "zaoan-bench", dependencies: ["ZaoanCalendar", "ZaoanClient", "ZaoanSystem"]),
        // libFuzzer targets (fuzz/run.sh builds them with -sanitize=fuzzer,address); a plain
        // build makes each a replayer of input files.
        .target(name: "FuzzDriver", path: "fuzz/driver"),
        .executableTarget(name: "fuzz-request", dependencies: ["ZaoanCore", "ZaoanSystem", "FuzzDriver"], path: "fuzz/request"),
        .executableTarget(name: "fuzz-framer", dependencies: ["ZaoanSystem", "FuzzDriver"], path: "fuzz/framer"),
        .executableTarget(name: "fuzz-statefile", dependencies: ["ZaoanCore", "FuzzDriver"], path: "fuzz/statefile"),
        .executableTarget(name: "fuzz-config", dependencies: ["ZaoanCore", "FuzzDriver"], path: "fuzz/config"),
        .executableTarget(name: "fuzz-calendar", dependencies: ["ZaoanCalendar", "FuzzDriver"], path: "fuzz/calendar"),
        .executableTarget(name: "fuzz-rule", dependencies: ["ZaoanRecurrence", "FuzzDriver"], path: "fuzz/rule"),
        .testTarget(name: "ZaoanTextTests", dependencies: ["ZaoanText"]),
        .testTarget(name: "ZaoanSystemTests", dependencies: ["ZaoanSystem"]),
        // The time engine alone; links Foundation to compare with ICU's DateFormatter.
        .testTarget(name: "ZaoanTimeTests", dependencies: ["ZaoanTime"]),
        .testTarget(name: "ZaoanCoreTests", dependencies: ["ZaoanCore", "ZaoanTime", "ZaoanAlmanac", "ZaoanRecurrence"]),
        .testTarget(name: "ZaoanCalendarTests", dependencies: ["ZaoanCalendar", "ZaoanRecurrence", "ZaoanTime"],
                    exclude: ["Samples", "Oracle"]),  // read by the tests through #filePath
        .testTarget(name: "ZaoanServerTests", dependencies: ["ZaoanServer", "zaoan", "zaoan-server"],
                    exclude: ["Support/neighbour.py", "Support/fake_server.py"]),  // run by the tests
    ]
)
