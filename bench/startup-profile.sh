#!/usr/bin/env bash
# bench/startup-profile.sh [STARTS] — where a socket-activated cold start of `zaoan serve`
# goes, three ways, on the release build (swift build -c release --static-swift-stdlib):
#   1. bench/coldstart-phases.py: wall-clock phases off an strace of each start (exec,
#      libraries, runtime init, setup, first answer) and the loader's LD_DEBUG=statistics;
#   2. `perf record -a -g -e cpu-clock` over STARTS (20) starts by zaoan-bench coldstart, as
#      bench/run.sh makes them, read by bench/startup-profile.py: CPU ms per start by phase
#      and library (kernel, ld.so, Swift runtime, Foundation, ICU, zaoan).
# Needs perf (apt-get install linux-perf), strace and systemd-socket-activate. The machine's
# other load slows every phase alike; compare phases within one run.
set -euo pipefail
cd "$(dirname "$0")/.."
STARTS=${1:-20}
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then PATH=/opt/swift/usr/bin:$PATH; fi
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
T=$(mktemp -d /tmp/zaoan-startup.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home" "$T/config" "$T/run" "$T/state" "$T/cache"
chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_RUNTIME_DIR=$T/run XDG_STATE_HOME=$T/state XDG_CACHE_HOME=$T/cache

/usr/bin/python3 bench/coldstart-phases.py "$BIN/zaoan" 9
echo
perf record -q -a -g -e cpu-clock -F 10000 -o "$T/perf.data" -- "$BIN/zaoan-bench" coldstart --socket "$T/cold.sock" \
    --repeat "$STARTS" --request greeting --log "$T/cold.log" -- systemd-socket-activate -l "$T/cold.sock" \
    -E XDG_CONFIG_HOME -E XDG_RUNTIME_DIR -E XDG_STATE_HOME -E XDG_CACHE_HOME \
    "$BIN/zaoan" serve --language zh --city 北京 --timezone Asia/Shanghai
perf script -i "$T/perf.data" --comm zaoan,zaoan-server -F comm,pid,tid,ip,sym,dso 2>/dev/null |
    /usr/bin/python3 bench/startup-profile.py "$STARTS" 10000
