#!/usr/bin/env bash
# bench/tick-order.sh [SECONDS] — writes packaging/link/tick-order.txt: the functions one
# tick of a bar clock runs in zaoan-server, which the release link lays out side by side
# (gold's --section-ordering-file; each function has a section of its own, Package.swift's
# `sectioned`). A bar wakes the service once a second and finds its code cold; on a dozen
# pages instead of some sixty, the tick costs about a quarter less CPU (docs/benchmarks.md,
# "A bar clock").
#
# Run it after changing code the tick runs: the linker silently ignores a name the binary no
# longer has, and TickLayoutTests fails until the file is made again.
#
# How: the release build serves one bar (`time yyyy-MM-dd HH:mm:ss`, as bench/bars.sh) under
# callgrind for SECONDS (20) after it has settled; every zaoan-server function that ran is
# listed, the most expensive (inclusive) first, as `.text.NAME` (mangled, as the sections
# are named).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_RUN=${1:-20}
scripts/ensure-packages valgrind binutils
swift build -c release --product zaoan --static-swift-stdlib >&2
swift build -c release --product zaoan-server --static-swift-stdlib >&2
source bench/bar-home.sh
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$T/cg.out" \
    "$T/zaoan-server" serve --socket "$T/z.sock" --timezone UTC >"$T/serve.log" 2>&1 &
SERVICE=$!
PIDS+=("$SERVICE")
for _ in $(seq 600); do [ -S "$T/z.sock" ] && break; sleep 0.1; done
[ -S "$T/z.sock" ] || { echo "tick-order.sh: the service did not start: $(cat "$T/serve.log")" >&2; exit 1; }
"$BIN/zaoan" bar --socket "$T/z.sock" > >(cat >/dev/null) 2>"$T/bar.log" &
PIDS+=($!)
sleep 5  # the first renderings and the bar's hand-over are not the tick
callgrind_control -z "$SERVICE" >/dev/null
sleep "$SECONDS_RUN"
callgrind_control -d "$SERVICE" >/dev/null
for _ in $(seq 100); do [ -s "$T/cg.out.1" ] && break; sleep 0.1; done
# callgrind_annotate's lines: "COUNT (PERCENT)  FILE:FUNCTION [OBJECT]"; the frames around
# the loop (main, libc's start) are not the tick's.
callgrind_annotate --threshold=100 --inclusive=yes "$T/cg.out.1" |
    sed -n '/file:function/,$p' | grep -E '^ *[0-9]' | grep ' \[.*zaoan-server\]$' |
    sed -E 's/^ *[0-9,]+ +\( *[0-9.]+%\) +//; s/ \[[^]]*\]$//; s/^[^:]*://' |
    grep -v -E '^0x|below main|^zaoan_server_main$' | sed 's/^/.text./' >"$T/order.txt"
lines=$(wc -l <"$T/order.txt")
[ "$lines" -ge 30 ] || { echo "tick-order.sh: only $lines functions ran; is the bar ticking? $(cat "$T/bar.log")" >&2; exit 1; }
mv "$T/order.txt" packaging/link/tick-order.txt
# SwiftPM does not know the link reads the file: link again by removing the binary.
rm -f "$BIN/zaoan-server"
swift build -c release --product zaoan-server --static-swift-stdlib >&2
echo "packaging/link/tick-order.txt: $lines functions, laid out in $BIN/zaoan-server"
