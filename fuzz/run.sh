#!/usr/bin/env bash
# fuzz/run.sh — runs zaoan's libFuzzer targets, each for a fixed time (not part of CI).
#
#   fuzz/run.sh                      every target, 600 s each (about 55 minutes with builds)
#   DURATION=60 fuzz/run.sh request  one target for a minute
#
# Targets (fuzz/<name>/Fuzz*.swift, products fuzz-<name>):
#   request    a request line through RequestParser and Responder, fixed clock, live changes
#   framer     LineFramer under random chunking and backpressure, against a model
#   statefile  StateFile.decode, then every answer that shows rooms, then a save round trip
#   config     JSONReader in both dialects and its one-line reading, ConfigFile.read, Settings.resolving,
#              BarConfig.read, the answers that read them
#   rule       an RRULE value (RSCALE=CHINESE too) through RuleParts and RuleIterator from a chosen DTSTART:
#              in order, within COUNT, UNTIL and the step budget, its text read back, `from:` agreeing
#   calendar   a calendar file through libical into a CalendarDocument, then 48 hours of it
#              expanded under the reader's budgets (first byte: clock and zone); -timeout=20
#
# Each is built as its own product with coverage and AddressSanitizer:
#   swift build -c release --product fuzz-NAME -Xswiftc -sanitize=fuzzer,address
#               -Xswiftc -parse-as-library -Xswiftc -DFUZZING
# (SwiftPM's --sanitize=fuzzer --sanitize=address keeps only the last one and leaves libFuzzer
# without coverage; the `cov:` column of the output shows coverage growing.) The working
# corpus grows in .build/fuzz-corpus/NAME, seeded from fuzz/seeds/NAME. A crash leaves its
# input in fuzz/crashes/NAME-*: minimise it, add it to fuzz/regressions/NAME/ with a line in
# the commit saying what it found, and fix the code; `scripts/test` replays every file there.
#
# Settings: DURATION (s per target, 600), MAX_LEN (bytes, 4096; the framer gets 20000),
# JOBS (1). Prints, per target: runs, executions, final coverage and corpus size.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then PATH=/opt/swift/usr/bin:$PATH; fi
DURATION=${DURATION:-600}
MAX_LEN=${MAX_LEN:-4096}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(request framer statefile config calendar rule)
export SWIFT_BACKTRACE=enable=no
mkdir -p fuzz/crashes bench/out
summary=()
status=0
for name in "${targets[@]}"; do
    [ -d "fuzz/$name" ] || { echo "fuzz/run.sh: no target '$name'" >&2; exit 64; }
    swift build -c release --build-path .build/fuzz --product "fuzz-$name" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING >&2
    corpus=.build/fuzz-corpus/$name
    mkdir -p "$corpus"
    length=$MAX_LEN
    [ "$name" = framer ] && length=20000
    [ "$name" = calendar ] && length=16384  # room for a few events with long texts
    timeout=1200  # libFuzzer's default
    [ "$name" = calendar ] && timeout=20  # the reader's CPU budgets must bound every input
    log=bench/out/fuzz-$name.log
    echo "fuzz/run.sh: $name for $DURATION s (log: $log)" >&2
    if ! .build/fuzz/release/fuzz-"$name" -max_total_time="$DURATION" -max_len="$length" -print_final_stats=1 -timeout="$timeout" \
            -artifact_prefix="fuzz/crashes/$name-" "$corpus" "fuzz/seeds/$name" >"$log" 2>&1; then
        status=1
        echo "fuzz/run.sh: $name FOUND A CRASH; see $log and fuzz/crashes/" >&2
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -o 'cov: [0-9]*' || echo "cov: ?")
    first=$(grep -E '^#[0-9]+.*INITED' "$log" | grep -o 'cov: [0-9]*' || echo "cov: ?")
    corp=$(ls "$corpus" | wc -l)
    summary+=("$name: $runs executions in $DURATION s; coverage ${first#cov: } at start → ${cov#cov: }; corpus $corp inputs")
done
printf '%s\n' "${summary[@]}"
exit $status
