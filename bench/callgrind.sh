#!/usr/bin/env bash
# bench/callgrind.sh — instructions the service spends per request, counted by callgrind.
#
#   bench/callgrind.sh [SERVER_BINARY]      (default: the release zaoan-server)
#   COUNT=20000 REQUESTS='greeting|time yyyy-MM-dd HH:mm:ss' bench/callgrind.sh
#   KEEP=/tmp/cg bench/callgrind.sh         keeps each run's profile for callgrind_annotate
#
# Rates on a shared 2-core machine swing with the neighbours; instruction counts do not.
# For each request the service runs under `valgrind --tool=callgrind` twice: once answering
# `session` and COUNT copies of the request on one connection (one line sent, its answer
# read, then the next), once answering `session` alone. The difference over COUNT is the
# cost of one request in the service's own process (parse, answer, encode, queue, the
# loop's share of a read and a write; the kernel's work is not counted). The wall clock
# stands still under faketime (FREEZE, default 2026-06-15 12:00:00; FREEZE= to let it run):
# answers cached per second or minute are then rendered once per run, not once for each
# second the run happens to take, which moved `status` by 3% from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVER=${1:-$(swift build -c release --show-bin-path)/zaoan-server}
COUNT=${COUNT:-20000}
REQUESTS=${REQUESTS:-'ping|greeting|time yyyy-MM-dd HH:mm:ss|status|countdown'}
FREEZE=${FREEZE-2026-06-15 12:00:00}
FAKE=()
if [ -n "$FREEZE" ]; then
    LIBFAKETIME=${LIBFAKETIME:-/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}
    [ -e "$LIBFAKETIME" ] || { echo "callgrind.sh: no $LIBFAKETIME (apt-get install faketime), or set FREEZE=" >&2; exit 1; }
    # Preloaded rather than through faketime(1), so that $! is valgrind's pid; the loop's
    # deadlines run on the monotonic clock, which keeps going.
    FAKE=(env LD_PRELOAD="$LIBFAKETIME" FAKETIME="$FREEZE" FAKETIME_DONT_FAKE_MONOTONIC=1)
fi
T=$(mktemp -d /tmp/zaoan-cg.XXXXXX)
trap 'rm -rf "$T"' EXIT
# Valgrind 3.19 gives up on the DWARF 5 that clang writes for the C targets ("Possibly
# corrupted debuginfo file"): count a copy without debug information (symbols stay).
objcopy --strip-debug "$SERVER" "$T/zaoan-server"
SERVER=$T/zaoan-server
mkdir -p "$T/home" "$T/config" "$T/run" "$T/state" "$T/cache"
chmod 700 "$T/run"
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_RUNTIME_DIR=$T/run XDG_STATE_HOME=$T/state XDG_CACHE_HOME=$T/cache

# COUNT REQUEST → the total instructions of one run
run() {
    rm -f "$T/z.sock" "$T/cg.out"
    "${FAKE[@]}" valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" "$SERVER" serve --socket "$T/z.sock" \
        --language zh --city 北京 --timezone Asia/Shanghai >"$T/server.log" 2>&1 &
    local pid=$!
    /usr/bin/python3 - "$T/z.sock" "$1" "$2" <<'PY'
import socket, sys, time
path, count, request = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode() + b"\n"
deadline = time.monotonic() + 120
while True:
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        s.close()
        if time.monotonic() > deadline: sys.exit("the service did not listen")
        time.sleep(0.05)
buffer = b""
def line():
    global buffer
    while b"\n" not in buffer:
        chunk = s.recv(65536)
        if not chunk: sys.exit("the service closed the connection")
        buffer += chunk
    first, buffer = buffer.split(b"\n", 1)
    return first
s.sendall(b"session\n"); line()
for _ in range(count):
    s.sendall(request)
    answer = line()
    if answer.startswith(b"ERR"): sys.exit(answer.decode())
s.sendall(b"quit\n"); line()
PY
    kill -TERM "$pid"
    wait "$pid" || true
    if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$T/cg.out" "$KEEP/$(tr -c 'A-Za-z0-9\n' _ <<<"$2").$1.out"; fi
    awk '/^summary:/ { print $2 }' "$T/cg.out"
}

IFS='|' read -r -a list <<<"$REQUESTS"
printf '%-28s %s\n' request instructions/request
for request in "${list[@]}"; do
    base=$(run 0 "$request")
    full=$(run "$COUNT" "$request")
    printf '%-28s %s\n' "$request" $(( (full - base) / COUNT ))
done
