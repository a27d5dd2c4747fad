#!/usr/bin/env bash
# Checks the systemd units with `systemd-analyze verify` and fails on ANY output.
#
# verify exits 0 on many mistakes (an unknown key such as `ProtectSytem=` is only a
# warning), so its silence is the test.
#
# User units (systemd/user, and the notifier's in integrations/notify): copied into a
# temporary directory, with a temporary HOME holding stand-ins ~/.local/bin/zaoan,
# zaoan-server and zaoan-notify, because verify checks that ExecStart= (%h/.local/bin/...) exists and is
# executable, and a temporary XDG_RUNTIME_DIR, which `--user` needs to resolve %t.
#
# System units (systemd/system): verified with --root= on a temporary root that holds the
# units in /etc/systemd/system, a copy of the host's /usr/lib/systemd/system (verify needs
# sockets.target, sysinit.target, ... to load the units' dependencies), and a stand-in for
# every absolute Exec*= command (/usr/local/bin/zaoan-server, /usr/local/bin/zaoan), so the host needs no
# installed zaoan and the check does not depend on what is installed where.
#
# The vdirsyncer units (integrations/vdirsyncer) are user units too, checked the same way.
#
# --man=no keeps verify from looking up man pages.
#
# Usage: packaging/verify-units.sh        (silent and exit 0 when the units are clean)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
user_units=("$here/systemd/user/zaoan.socket" "$here/systemd/user/zaoan.service" "$here/integrations/notify/zaoan-notify.service")
system_units=("$here/systemd/system/zaoan.socket" "$here/systemd/system/zaoan.service")
vdirsyncer_units=("$here/integrations/vdirsyncer/vdirsyncer-sync.service" "$here/integrations/vdirsyncer/vdirsyncer-sync.timer")

if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "verify-units: systemd-analyze not found; install the systemd package" >&2
    exit 2
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/zaoan-verify.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failed=0

report() {  # report LABEL STATUS OUTPUT
    if [[ -n "$3" || $2 -ne 0 ]]; then
        [[ -n "$3" ]] && printf '%s\n' "$3" >&2
        echo "verify-units: systemd-analyze verify reported problems with the $1 units (exit status $2)" >&2
        failed=1
    fi
}

# --- user units
mkdir -p "$scratch/home/.local/bin" "$scratch/runtime" "$scratch/units"
chmod 0700 "$scratch/runtime"
for stand_in in zaoan zaoan-server zaoan-notify; do
    printf '#!/bin/sh\nexit 0\n' >"$scratch/home/.local/bin/$stand_in"
    chmod 0755 "$scratch/home/.local/bin/$stand_in"
done
cp "${user_units[@]}" "$scratch/units/"
status=0
output=$(cd "$scratch/units" &&
    env HOME="$scratch/home" XDG_RUNTIME_DIR="$scratch/runtime" \
        systemd-analyze verify --user --man=no "$scratch/units/zaoan.socket" "$scratch/units/zaoan.service" \
            "$scratch/units/zaoan-notify.service" 2>&1) || status=$?
report user "$status" "$output"

# --- the vdirsyncer timer users may add (integrations/vdirsyncer): ExecStart= is the bare
# name `vdirsyncer`, which verify looks up in the standard bin directories.
if ! command -v vdirsyncer >/dev/null 2>&1; then
    echo "verify-units: vdirsyncer not found; install the vdirsyncer package" >&2
    failed=1
else
    mkdir -p "$scratch/vdirsyncer"
    cp "${vdirsyncer_units[@]}" "$scratch/vdirsyncer/"
    status=0
    output=$(cd "$scratch/vdirsyncer" &&
        env HOME="$scratch/home" XDG_RUNTIME_DIR="$scratch/runtime" \
            systemd-analyze verify --user --man=no "$scratch/vdirsyncer/vdirsyncer-sync.service" \
            "$scratch/vdirsyncer/vdirsyncer-sync.timer" 2>&1) || status=$?
    report vdirsyncer "$status" "$output"
fi

# --- system units
if [[ -f "${system_units[0]}" && -f "${system_units[1]}" ]]; then
    root="$scratch/root"
    mkdir -p "$root/etc/systemd/system" "$root/usr/lib/systemd" "$root/usr/bin" "$root/usr/sbin"
    # A merged-/usr layout like Debian 12's, so /bin/kill and /usr/bin/kill are one file.
    ln -s usr/bin "$root/bin"
    ln -s usr/sbin "$root/sbin"
    ln -s usr/lib "$root/lib"
    host_units=/usr/lib/systemd/system
    [[ -d $host_units ]] || host_units=/lib/systemd/system
    cp -a "$host_units" "$root/usr/lib/systemd/"
    cp "${system_units[@]}" "$root/etc/systemd/system/"
    # Every absolute command of an Exec*= line (after its prefixes -@:+!) gets a stand-in.
    while IFS= read -r command; do
        [[ $command == /* ]] || continue
        mkdir -p "$root$(dirname "$command")"
        [[ -e "$root$command" ]] || printf '#!/bin/sh\nexit 0\n' >"$root$command"
        chmod 0755 "$root$command"
    done < <(sed -n 's/^[[:space:]]*Exec[A-Za-z]*=[-@:+!]*\([^[:space:]]*\).*/\1/p' "${system_units[1]}")
    status=0
    output=$(cd "$scratch" && systemd-analyze verify --man=no --root="$root" zaoan.socket zaoan.service 2>&1) || status=$?
    report system "$status" "$output"
fi

exit "$failed"
