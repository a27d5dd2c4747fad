#!/usr/bin/env bash
# What a big calendar costs: a generated .ics of 10,000 events, 1,000 of them recurring
# series (an Outlook-style VTIMEZONE, three zones, EXDATEs, moved instances), parsed and
# expanded for 48 hours in-process (zaoan-bench calendar), then given to the real service
# (`calendars`): how long the service takes to read it, its memory with it, and what one
# `countdown` costs side by side with a service without it (zaoan-bench oneshot, 2,000
# requests each, p50/p99).
#
# Usage: bench/calendar.sh [EVENTS] [SERIES]   (default 10000 1000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
events=${1:-10000}
series=${2:-1000}
scripts/ensure-packages libical-dev pkg-config >&2
for product in zaoan zaoan-server zaoan-bench; do
    swift build -c release --product "$product" --static-swift-stdlib >&2
done
bin=.build/release
work=$(mktemp -d /tmp/zaoan-calendar-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

echo "# in-process: parse and expand 48 h (medians of 5)"
"$bin/zaoan-bench" calendar --events "$events" --series "$series"
mkdir -p "$work/cal" "$work/with/zaoan" "$work/without/zaoan" "$work/state-with" "$work/state-without"
"$bin/zaoan-bench" calendar --events "$events" --series "$series" --write "$work/cal/big.ics" >/dev/null
printf '{"calendars": ["%s/cal"]}\n' "$work" >"$work/with/zaoan/config.json"
echo '{}' >"$work/without/zaoan/config.json"

start_service() {  # name
    XDG_CONFIG_HOME="$work/$1" XDG_STATE_HOME="$work/state-$1" \
        "$bin/zaoan" serve --socket "$work/$1.sock" --timezone UTC 2>"$work/$1.log" &
    local pid=$! began
    began=$(date +%s.%N)
    for _ in $(seq 600); do
        "$bin/zaoan" ask --socket "$work/$1.sock" --timeout 2s ping >/dev/null 2>&1 && break
        sleep 0.05
    done
    echo "$pid $(awk -v a="$(date +%s.%N)" -v b="$began" 'BEGIN { printf "%.2f", a - b }')"
}
read -r with_pid with_ready < <(start_service with)
read -r without_pid without_ready < <(start_service without)
echo
echo "# the service: ready to answer after start (includes reading the calendar)"
echo "with the calendar: ${with_ready}s, without: ${without_ready}s"
"$bin/zaoan" ask --socket "$work/with.sock" stats | grep -E '^calendar'
echo "RSS with: $(awk '/VmRSS/ {print $2}' /proc/$with_pid/status) KiB, without: $(awk '/VmRSS/ {print $2}' /proc/$without_pid/status) KiB"
echo
echo "# one countdown, side by side (2,000 each, alternating rounds of 500)"
for round in 1 2 3 4; do
    for name in with without; do
        printf '%-8s round %s: ' "$name" "$round"
        "$bin/zaoan-bench" oneshot --socket "$work/$name.sock" --iterations 500 --warmup 50 --request countdown
    done
done
