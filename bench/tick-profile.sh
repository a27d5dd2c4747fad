#!/usr/bin/env bash
# bench/tick-profile.sh [SECONDS] — what one tick of a one-clock bar costs, zaoan beside the
# C floor (bench/c_tick.c), on the release build (bench/bars.sh builds it):
#   1. system calls per tick: `strace -c -f` attached to `zaoan serve` (zaoan-server), to the
#      `zaoan bar` that handed it its pipe, and to c_tick, for SECONDS (60) side by side;
#   2. instructions per tick in user space: each runs under `valgrind --tool=callgrind`, the
#      counters are zeroed once they are ticking and dumped SECONDS later; the ticks in
#      between are counted from the calls of the function each makes once a tick; then the
#      service's heaviest functions, inclusive and exclusive (callgrind_annotate).
# The bar block is bench/bars.py's: `time yyyy-MM-dd HH:mm:ss`, in UTC.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_RUN=${1:-60}
BIN=.build/release
[ -x "$BIN/zaoan" ] && [ -x "$BIN/zaoan-server" ] || { echo "tick-profile.sh: build first (bench/bars.sh does)" >&2; exit 1; }
source bench/bar-home.sh
gcc -O2 -o "$T/c_tick" bench/c_tick.c

wait_for_socket() { local i; for i in $(seq 600); do [ -S "$1" ] && return 0; sleep 0.1; done; echo "no $1" >&2; exit 1; }

# Starts the service (under $1..., e.g. valgrind), a bar on it and c_tick (under the same);
# sets SERVICE BAR TICK to their pids. The bar and c_tick write into pipes `cat` drains.
start() {
    rm -f "$T/z.sock"
    "$@" "$T/zaoan-server" serve --socket "$T/z.sock" --timezone UTC >"$T/serve.log" 2>&1 &
    SERVICE=$!
    PIDS+=("$SERVICE")
    wait_for_socket "$T/z.sock"
    "$BIN/zaoan" bar --socket "$T/z.sock" > >(cat >/dev/null) 2>"$T/bar.log" &
    BAR=$!
    PIDS+=("$BAR")
    "$@" "$T/c_tick" > >(cat >/dev/null) 2>"$T/tick.log" &
    TICK=$!
    PIDS+=("$TICK")
    sleep 3
}
stop() { kill "$SERVICE" "$BAR" "$TICK" 2>/dev/null || true; wait "$SERVICE" "$BAR" "$TICK" 2>/dev/null || true; PIDS=(); }

echo "== system calls in ${SECONDS_RUN}s (one tick a second)"
start
TRACERS=()
for who in SERVICE BAR TICK; do
    timeout -s INT "$SECONDS_RUN" strace -c -f -o "$T/strace.$who" -p "${!who}" 2>/dev/null &
    TRACERS+=($!)
done
wait "${TRACERS[@]}" || true
sleep 1
stop
for who in SERVICE BAR TICK; do
    echo "-- $(case $who in SERVICE) echo "zaoan serve (zaoan-server)";; BAR) echo "zaoan bar";; TICK) echo "c_tick";; esac)"
    if grep -q total "$T/strace.$who" 2>/dev/null; then
        awk '/^-+/ {n++; next} n == 1 && NF >= 5 {printf "   %-16s %6d calls\n", $NF, $4}' "$T/strace.$who"
    else
        echo "   none (asleep the whole time)"
    fi
done

echo "== instructions per tick in user space (callgrind, ${SECONDS_RUN}s)"
start valgrind --tool=callgrind --callgrind-out-file="$T/cg.%p.out"
sleep 5  # under valgrind the first renderings are slow; count steady ticks only
callgrind_control -z "$SERVICE" >/dev/null 2>&1
callgrind_control -z "$TICK" >/dev/null 2>&1
sleep "$SECONDS_RUN"
callgrind_control -d "$SERVICE" >/dev/null 2>&1
callgrind_control -d "$TICK" >/dev/null 2>&1
sleep 1
stop
SERVICE_OUT=$T/cg.$SERVICE.out.1
TICK_OUT=$T/cg.$TICK.out.1
# Ticks: the calls of the wall-clock timer's handler in the service; c_tick counted the same
# seconds (both were zeroed and dumped together).
service_ticks=$(callgrind_annotate --threshold=100 --tree=caller "$SERVICE_OUT" 2>/dev/null |
    grep -E "< .*WallClockTimerCAA12EventHandler" | sed -n '1s/.*(\([0-9]*\)x).*/\1/p')
tick_ticks=$service_ticks
service_total=$(awk '/^summary:/ {print $2}' "$SERVICE_OUT")
tick_total=$(awk '/^summary:/ {print $2}' "$TICK_OUT")
awk -v s="$service_total" -v st="${service_ticks:-$SECONDS_RUN}" -v c="$tick_total" -v ct="${tick_ticks:-$SECONDS_RUN}" 'BEGIN {
    printf "   zaoan-server: %d instructions over %d ticks = %.0f a tick\n", s, st, s / st
    printf "   c_tick:       %d instructions over %d ticks = %.0f a tick (zaoan / C %.1f)\n", c, ct, c / ct, (s / st) / (c / ct) }'
# callgrind_annotate's lines: "COUNT (PERCENT)  FILE:FUNCTION [OBJECT]"; the frames above the
# loop (main and what calls it) are left out.
per_tick() {
    awk -v t="${service_ticks:-$SECONDS_RUN}" '$1 ~ /^[0-9,]+$/ && /%\)/ {
        n = $1; gsub(",", "", n); line = $0
        sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line); sub(/^[^:]*:/, "", line); sub(/ \[.*$/, "", line)
        if (line ~ /below main|libc_start|__libc_start_main|zaoan_server_main|^0x0|ZaoanServer0B0C5serve|ZaoanServer0B0C3run/) next
        printf "   %8.0f  %s\n", n / t, substr(line, 1, 170) }'
}
echo "-- zaoan-server, inclusive, per tick (top 25)"
callgrind_annotate --threshold=100 --inclusive=yes "$SERVICE_OUT" 2>/dev/null | sed -n '/file:function/,$p' | per_tick | sed -n 1,25p
echo "-- zaoan-server, exclusive, per tick (top 20)"
callgrind_annotate --threshold=100 "$SERVICE_OUT" 2>/dev/null | sed -n '/file:function/,$p' | per_tick | sed -n 1,20p
