#!/usr/bin/env bash
# What a bar clock costs, side by side in one run: the C floor (bench/c_tick.c), i3status,
# py3status, and zaoan serve + zaoan bar (1 bar, and 10 bars on one service). Installs
# i3status and py3status from Debian, builds the release binary, runs bench/bars.py.
#
# Usage: bench/bars.sh [SECONDS] [ROUNDS]   (default 25 s, 3 rounds; the median ratio is reported)
#        TURNS=1 bench/bars.sh ...          (each status command alone in turn: see bench/bars.py)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/ensure-packages i3status py3status python3 gcc util-linux
swift build -c release --product zaoan --static-swift-stdlib >&2
swift build -c release --product zaoan-server --static-swift-stdlib >&2  # what `zaoan serve` runs
/usr/bin/python3 bench/bars.py .build/release/zaoan "${1:-25}" "${2:-3}"
