#!/usr/bin/env bash
# Checks the systemd user units with `systemd-analyze verify` and fails on ANY output.
#
# verify exits 0 on many mistakes (an unknown key such as `ProtectSytem=` is only a
# warning), so its silence is the test. The units are copied into a temporary directory
# with a temporary HOME holding a stand-in ~/.local/bin/zaoan, because verify checks that
# ExecStart= (%h/.local/bin/zaoan) exists and is executable, and a temporary
# XDG_RUNTIME_DIR, which `--user` needs to resolve %t. --man=no keeps verify from looking
# up man pages.
#
# Usage: packaging/verify-units.sh        (silent and exit 0 when the units are clean)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
units=("$here/systemd/user/zaoan.socket" "$here/systemd/user/zaoan.service")

if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "verify-units: systemd-analyze not found; install the systemd package" >&2
    exit 2
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/zaoan-verify.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home/.local/bin" "$scratch/runtime" "$scratch/units"
chmod 0700 "$scratch/runtime"
printf '#!/bin/sh\nexit 0\n' >"$scratch/home/.local/bin/zaoan"
chmod 0755 "$scratch/home/.local/bin/zaoan"
cp "${units[@]}" "$scratch/units/"

status=0
output=$(cd "$scratch/units" &&
    env HOME="$scratch/home" XDG_RUNTIME_DIR="$scratch/runtime" \
        systemd-analyze verify --user --man=no "$scratch/units/zaoan.socket" "$scratch/units/zaoan.service" 2>&1) || status=$?

if [[ -n "$output" || $status -ne 0 ]]; then
    [[ -n "$output" ]] && printf '%s\n' "$output" >&2
    echo "verify-units: systemd-analyze verify reported problems (exit status $status)" >&2
    exit 1
fi
