#!/usr/bin/env bash
# Installs zaoan: the release binaries (`zaoan`, the small client prompts and bars run, and
# `zaoan-server` beside it, which `zaoan serve` runs), the systemd units, the man pages and
# the shell completions, for your user (default) or for the whole machine; and the optional
# user units: the desktop notifier (`zaoan-notify` beside zaoan, its unit naming that zaoan)
# and the vdirsyncer sync timer, installed but not enabled. Or removes them again.
#
# Usage: packaging/install.sh [--user | --system] [--prefix DIR] [--uninstall]
#                             [--destdir DIR] [--binary FILE]
#
#   --user        binaries in ~/.local/bin, units in ~/.config/systemd/user (default)
#   --system      binaries in /usr/local/bin, units in /etc/systemd/system, the optional
#                 user units in /etc/systemd/user for every user (run as root)
#   --prefix DIR  install under DIR instead (DIR/bin, DIR/share/man, ...); the units'
#                 ExecStart= is adjusted to DIR/bin/zaoan-server, ExecReload= to DIR/bin/zaoan
#   --uninstall   remove what an install with the same options put in place (and, without
#                 --destdir, disable and stop the units first)
#   --destdir DIR stage everything under DIR (like make's DESTDIR; also read from $DESTDIR):
#                 paths inside the files are those without DIR, and systemctl is never run
#   --binary FILE install FILE as zaoan, and the zaoan-server beside FILE, instead of
#                 building them
#
# Without --binary it builds both with `swift build -c release --static-swift-stdlib` in the
# tree's .build, the same build scripts/run and scripts/test make (so after either it only
# checks that nothing changed; the C libraries the server links are installed first, with
# sudo when not root), so neither depends on where the Swift toolchain is; zaoan-server
# loads libsystemd, ERFA, libnova and libical (Debian: libsystemd0, liberfa1, libnova-0.16-0,
# libical3), zaoan only the C library. At the end it prints the commands that enable the
# optional units and, last, the one that enables the service.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

mode=user
prefix=
destdir=${DESTDIR:-}
binary=
uninstall=no

usage() { sed -n '2,29s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "install.sh: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
    case $1 in
        --user) mode=user ;;
        --system) mode=system ;;
        --prefix) [[ $# -ge 2 ]] || die "--prefix needs a directory"; prefix=$2; shift ;;
        --prefix=*) prefix=${1#*=} ;;
        --destdir) [[ $# -ge 2 ]] || die "--destdir needs a directory"; destdir=$2; shift ;;
        --destdir=*) destdir=${1#*=} ;;
        --binary) [[ $# -ge 2 ]] || die "--binary needs a file"; binary=$2; shift ;;
        --binary=*) binary=${1#*=} ;;
        --uninstall) uninstall=yes ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
    shift
done

[[ -z $prefix || $prefix == /* ]] || die "--prefix must be an absolute path, not '$prefix'"
[[ -z $destdir || $destdir == /* ]] || die "--destdir must be an absolute path, not '$destdir'"
destdir=${destdir%/}

if [[ $mode == user ]]; then
    [[ -n ${HOME:-} ]] || die "HOME is not set"
    default_prefix=$HOME/.local
    prefix=${prefix:-$default_prefix}
    unit_dir=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
    user_unit_dir=$unit_dir
    systemctl=(systemctl --user)
else
    default_prefix=/usr/local
    prefix=${prefix:-$default_prefix}
    unit_dir=/etc/systemd/system
    user_unit_dir=/etc/systemd/user
    systemctl=(systemctl)
fi
prefix=${prefix%/}
bin_dir=$prefix/bin
man_dir=$prefix/share/man
bash_dir=$prefix/share/bash-completion/completions
zsh_dir=$prefix/share/zsh/site-functions
# The gazetteer: zaoan-server looks for it in share/zaoan beside its bin folder.
data_dir=$prefix/share/zaoan

# The optional user units: the notifier, and vdirsyncer's sync, as users enable them.
optional_units=(zaoan-notify.service vdirsyncer-sync.service vdirsyncer-sync.timer)
files=(
    "$bin_dir/zaoan"
    "$bin_dir/zaoan-server"
    "$bin_dir/zaoan-notify"
    "$unit_dir/zaoan.socket"
    "$unit_dir/zaoan.service"
    "${optional_units[@]/#/$user_unit_dir/}"
    "$man_dir/man1/zaoan.1"
    "$man_dir/man5/zaoan.conf.5"
    "$bash_dir/zaoan"
    "$zsh_dir/_zaoan"
    "$data_dir/cities15000.tsv"
)

# systemctl only for the real thing: not when staging, and only if a manager answers.
can_systemctl() {
    [[ -z $destdir ]] && command -v systemctl >/dev/null 2>&1 && "${systemctl[@]}" show-environment >/dev/null 2>&1
}

if [[ $uninstall == yes ]]; then
    if can_systemctl; then
        if [[ $mode == user ]]; then
            "${systemctl[@]}" disable --now zaoan-notify.service vdirsyncer-sync.timer >/dev/null 2>&1 || true
        fi
        "${systemctl[@]}" disable --now zaoan.socket zaoan.service >/dev/null 2>&1 || true
    fi
    if [[ $mode == system && -z $destdir ]] && command -v systemctl >/dev/null 2>&1; then
        systemctl --global disable zaoan-notify.service vdirsyncer-sync.timer >/dev/null 2>&1 || true
    fi
    for file in "${files[@]}"; do
        if [[ -e $destdir$file || -L $destdir$file ]]; then
            rm -f "$destdir$file"
            echo "removed $destdir$file"
        fi
    done
    rmdir "$destdir$data_dir" 2>/dev/null || true
    if can_systemctl; then
        "${systemctl[@]}" daemon-reload || true
    fi
    [[ $mode == system ]] && echo "The service's state is kept in /var/lib/private/zaoan and its config in /etc/zaoan; remove them by hand if you want them gone."
    [[ $mode == user ]] && echo "Your config (~/.config/zaoan) and live rooms (~/.local/state/zaoan) are kept; remove them by hand if you want them gone."
    exit 0
fi

if [[ $mode == system && -z $destdir && $(id -u) -ne 0 ]]; then
    die "--system installs into $prefix and $unit_dir: run it as root (sudo $0 --system ...)"
fi
case $mode:$prefix/ in
    system:/home/* | system:/root/* | system:/run/user/* | system:/tmp/* | system:/var/tmp/*)
        echo "install.sh: warning: the system service cannot see $prefix (ProtectHome=, PrivateTmp=); choose another --prefix" >&2 ;;
esac

# 1. The binaries: the client, and the server `zaoan serve` execs from beside it.
if [[ -z $binary ]]; then
    command -v swift >/dev/null 2>&1 || die "swift not found; install the Swift toolchain or pass --binary FILE"
    # The C libraries the build links (libsystemd, ERFA, libnova, libical), as scripts/run installs them.
    "$root/scripts/ensure-packages" libsystemd-dev liberfa-dev libnova-dev libical-dev pkg-config >&2
    # Exactly the commands of scripts/run and scripts/test, in the same .build: one build
    # folder, so a tree they built is not built again.
    echo "building zaoan and zaoan-server (swift build -c release --static-swift-stdlib, in $root/.build) ..."
    for product in zaoan zaoan-server; do
        (cd "$root" && swift build -c release --product "$product" --static-swift-stdlib) >&2
    done
    binary=$root/.build/release/zaoan
fi
[[ -f $binary && -x $binary ]] || die "no executable at $binary"
server=$(dirname "$binary")/zaoan-server
[[ -f $server && -x $server ]] || die "no zaoan-server beside $binary (zaoan serve runs it); build it with swift build -c release --product zaoan-server"
# The shared libraries they need at run time (Debian: libsystemd0, liberfa1, libnova-0.16-0,
# libical3): those the loader maps at start, which ldd lists, and those zaoan-server loads
# with dlopen when it first needs them (Sources/CAstronomy/lazy.c, Sources/CICal/lazy.c),
# which only the linker's cache (ldconfig -p) lists.
missing=
if command -v ldd >/dev/null 2>&1; then
    missing=$(ldd "$binary" "$server" 2>/dev/null | awk '/not found/ {print $1}' | sort -u || true)
fi
if ldconfig=$(PATH=$PATH:/usr/sbin:/sbin command -v ldconfig) && cache=$("$ldconfig" -p 2>/dev/null); then
    for library in liberfa.so.1 libnova-0.16.so.0 libical.so.3; do
        grep -qF "	$library (" <<<"$cache" || missing="$missing $library"
    done
fi
if [[ -n ${missing// /} ]]; then
    message="zaoan needs shared libraries this machine lacks: $(echo $missing); install liberfa1, libnova-0.16-0 and libical3 (Debian)"
    [[ -n $destdir ]] && echo "install.sh: warning: $message" >&2 || die "$message"
fi
install -d -m 0755 "$destdir$bin_dir"
install_binary() {  # install_binary FILE NAME
    install -m 0755 "$1" "$destdir$bin_dir/$2"
    if command -v strip >/dev/null 2>&1; then strip "$destdir$bin_dir/$2" 2>/dev/null || true; fi
    echo "installed $destdir$bin_dir/$2"
}
install_binary "$binary" zaoan
install_binary "$server" zaoan-server
install -m 0755 "$here/integrations/notify/zaoan-notify" "$destdir$bin_dir/zaoan-notify"
echo "installed $destdir$bin_dir/zaoan-notify"
"$here/../scripts/unpack-cities" "$destdir$data_dir"
echo "installed $destdir$data_dir/cities15000.tsv"

# 2. The units, with ExecStart= and ExecReload= pointing at the binary just installed.
install -d -m 0755 "$destdir$unit_dir"
if [[ $mode == user && $prefix == "$HOME/.local" ]]; then
    exec_path='%h/.local/bin/zaoan'  # as shipped: follows the user's home
else
    exec_path=$bin_dir/zaoan
fi
# A path as the replacement of a sed s||| command: \, & and | taken literally.
sed_text() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
# install_unit SOURCE DIRECTORY [SED-ARGUMENTS...]: the unit, edited, in place at once.
install_unit() {
    local source=$1 directory=$2 name
    name=$(basename "$source")
    shift 2
    sed -e "" "$@" "$source" >"$destdir$directory/$name.tmp"
    chmod 0644 "$destdir$directory/$name.tmp"
    mv "$destdir$directory/$name.tmp" "$destdir$directory/$name"
    echo "installed $destdir$directory/$name"
}
for unit in zaoan.socket zaoan.service; do
    install_unit "$here/systemd/$mode/$unit" "$unit_dir" -e "s|^ExecStart=[^ ]*/zaoan-server |ExecStart=$(sed_text "$exec_path")-server |" \
        -e "s|^ExecReload=[^ ]*/zaoan |ExecReload=$(sed_text "$exec_path") |"
done

# 3. The optional user units. The user manager's PATH has no ~/.local/bin, so the notifier
# is told which zaoan to run (ZAOAN=), and for --system which socket (the system one).
install -d -m 0755 "$destdir$user_unit_dir"
notify_lines="ExecStart=$(sed_text "${exec_path%/zaoan}/zaoan-notify")\nEnvironment=ZAOAN=$(sed_text "$exec_path")"
if [[ $mode == system ]]; then
    system_socket=$(sed -n 's/^ListenStream=//p' "$here/systemd/system/zaoan.socket")
    notify_lines+="\nEnvironment=ZAOAN_SOCKET=$(sed_text "$system_socket")"
fi
install_unit "$here/integrations/notify/zaoan-notify.service" "$user_unit_dir" -e "s|^ExecStart=.*|$notify_lines|"
for unit in vdirsyncer-sync.service vdirsyncer-sync.timer; do
    install_unit "$here/integrations/vdirsyncer/$unit" "$user_unit_dir"
done
if ! command -v jq >/dev/null 2>&1 || ! command -v notify-send >/dev/null 2>&1; then
    echo "install.sh: note: zaoan-notify needs jq and notify-send (Debian: jq libnotify-bin)" >&2
fi

# 4. The man pages, from scdoc sources.
if command -v scdoc >/dev/null 2>&1; then
    for page in zaoan.1 zaoan.conf.5; do
        section=${page##*.}
        install -d -m 0755 "$destdir$man_dir/man$section"
        scdoc <"$root/docs/man/$page.scd" >"$destdir$man_dir/man$section/$page"
        chmod 0644 "$destdir$man_dir/man$section/$page"
        echo "installed $destdir$man_dir/man$section/$page"
    done
else
    echo "install.sh: warning: scdoc not found (Debian package scdoc); the man pages are not installed" >&2
fi

# 5. Shell completions, if the source tree has them.
completions=$here/completions
if [[ -f $completions/zaoan.bash ]]; then
    install -D -m 0644 "$completions/zaoan.bash" "$destdir$bash_dir/zaoan"
    echo "installed $destdir$bash_dir/zaoan"
fi
if [[ -f $completions/_zaoan ]]; then
    install -D -m 0644 "$completions/_zaoan" "$destdir$zsh_dir/_zaoan"
    echo "installed $destdir$zsh_dir/_zaoan"
    [[ $mode == user ]] && echo "(zsh: add $zsh_dir to fpath before compinit to get the completions)"
fi
[[ $mode == user && :$PATH: != *:$bin_dir:* ]] && echo "(add $bin_dir to PATH to run zaoan by name)"

# A manager that already runs picks up the new and changed units.
if can_systemctl; then
    "${systemctl[@]}" daemon-reload || echo "install.sh: warning: ${systemctl[*]} daemon-reload failed; run it before enabling" >&2
fi

# 6. What each user may enable, then the one command that enables zaoan.
echo
echo "Optional, per user: desktop notifications (needs jq, libnotify-bin and a notification daemon),"
echo "and CalDAV sync every 15 minutes (configure vdirsyncer first: packaging/integrations/vdirsyncer/config):"
echo "    systemctl --user enable --now zaoan-notify.service"
echo "    systemctl --user enable --now vdirsyncer-sync.timer"
echo
echo "Enable and start it with:"
echo "    ${systemctl[*]} enable --now zaoan.socket"
