#!/bin/bash
# Regenerate the README screenshots of zaoan in waybar and in i3bar:
#   docs/screenshots/waybar.png   waybar (custom/zaoan module) under a headless sway, taken with grim
#   docs/screenshots/i3bar.png    i3bar (status_command zaoan bar) under i3 on Xvfb, taken with import
#   docs/screenshots/i3bar-narrow.png  the same on a 420-pixel screen: i3bar shows short_text
#
# Both bars are configured from the shipped snippets, unchanged:
#   packaging/integrations/waybar/config.jsonc + style.css   ("exec": "zaoan watch --format json status")
#   packaging/integrations/i3/config                         (bar { status_command zaoan bar ... })
# and show a real `zaoan serve --language zh --city 北京` with two live rooms.
#
# Everything runs headless: no display, no login session, no D-Bus. Run as root on Debian 12:
#
#   sudo packaging/screenshots/make-screenshots.sh
#
# It installs what it needs with apt-get, creates the unprivileged system user `zaoanshot` if it
# is missing (sway refuses to run as root), runs the service and both bars as that user inside a
# temporary directory (its own HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME, XDG_STATE_HOME, so
# `zaoan watch` and `zaoan bar` find the service at $XDG_RUNTIME_DIR/zaoan.sock as they do on a
# desktop), and stops everything it started when it exits. About 15 s after apt and the build.
#
# Environment:
#   ZAOAN_BIN=PATH          use this zaoan binary (and the zaoan-server beside it) instead of
#                           building them (swift build -c release)
#   ZAOAN_SHOTS_NO_APT=1    do not run apt-get (the packages are already there)
#   ZAOAN_SHOTS_OUT=DIR     write the PNGs to DIR instead of docs/screenshots
#   ZAOAN_SHOTS_KEEP=1      keep the temporary directory (configs, logs, full-screen captures)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${ZAOAN_SHOTS_OUT:-$ROOT/docs/screenshots}
WAYBAR_SNIPPET=$ROOT/packaging/integrations/waybar/config.jsonc
WAYBAR_STYLE=$ROOT/packaging/integrations/waybar/style.css
I3_SNIPPET=$ROOT/packaging/integrations/i3/config
SHOT_USER=zaoanshot
WIDTH=960              # both screens are this wide; the bars span them
WAYBAR_HEIGHT=30
FONT="WenQuanYi Zen Hei"
PACKAGES=(sway waybar grim i3-wm xvfb imagemagick x11-utils netcat-openbsd procps fontconfig
    fonts-wqy-zenhei fonts-dejavu-core)

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'make-screenshots: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (it installs packages and runs the bars as user $SHOT_USER)"
for f in "$WAYBAR_SNIPPET" "$WAYBAR_STYLE" "$I3_SNIPPET"; do
    [ -f "$f" ] || die "missing the shipped snippet ${f#"$ROOT"/}"
done
START=$SECONDS

# --- packages ----------------------------------------------------------------------------------
if [ "${ZAOAN_SHOTS_NO_APT:-}" != 1 ]; then
    say "apt-get update; installing what is missing of: ${PACKAGES[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
fi
for tool in sway waybar grim i3 i3bar Xvfb import convert identify xwininfo nc setpriv fc-list; do
    command -v "$tool" >/dev/null || die "$tool not found; install: ${PACKAGES[*]}"
done
fc-list | grep -q "$FONT" || die "font $FONT not found (fonts-wqy-zenhei)"

# --- zaoan -------------------------------------------------------------------------------------
if [ -n "${ZAOAN_BIN:-}" ]; then
    ZAOAN=$ZAOAN_BIN
elif command -v swift >/dev/null; then
    say "building zaoan (swift build -c release)"
    (cd "$ROOT" && swift build -c release --product zaoan >&2 && swift build -c release --product zaoan-server >&2) || die "swift build failed"
    ZAOAN=$ROOT/.build/release/zaoan
else
    die "swift not found; build zaoan elsewhere and pass ZAOAN_BIN=/path/to/zaoan"
fi
[ -x "$ZAOAN" ] || die "no zaoan binary at $ZAOAN"
ZAOAN_SERVER=$(dirname "$ZAOAN")/zaoan-server
[ -x "$ZAOAN_SERVER" ] || die "no zaoan-server beside $ZAOAN (zaoan serve runs it)"

# --- the unprivileged user and its temporary world ------------------------------------------------
if ! id "$SHOT_USER" >/dev/null 2>&1; then
    say "creating the system user $SHOT_USER"
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$SHOT_USER"
fi
SHOT_UID=$(id -u "$SHOT_USER")
SHOT_GID=$(id -g "$SHOT_USER")

WORK=$(mktemp -d /tmp/zaoan-shots.XXXXXX)
chmod 0755 "$WORK"
HOMEDIR=$WORK/home
RUNDIR=$WORK/run                 # XDG_RUNTIME_DIR: sway, Xvfb's clients, zaoan.sock
CONF=$WORK/conf                  # root-owned, world-readable configs
CAPTURES=$WORK/captures          # full-screen captures, written by the user
mkdir -p "$WORK/bin" "$HOMEDIR/.config" "$HOMEDIR/.local/state" "$RUNDIR" "$CONF" "$CAPTURES"
install -m 0755 "$ZAOAN" "$WORK/bin/zaoan"       # zaoan on the user's PATH, as the snippets expect
install -m 0755 "$ZAOAN_SERVER" "$WORK/bin/zaoan-server"  # beside it: zaoan serve runs it
chown -R "$SHOT_UID:$SHOT_GID" "$HOMEDIR" "$RUNDIR" "$CAPTURES"
chmod 0700 "$RUNDIR"
SOCK=$RUNDIR/zaoan.sock

SETPRIV=(setpriv --reuid="$SHOT_UID" --regid="$SHOT_GID" --init-groups)
USER_ENV=(HOME="$HOMEDIR" PATH="$WORK/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8
    XDG_RUNTIME_DIR="$RUNDIR" XDG_CONFIG_HOME="$HOMEDIR/.config" XDG_STATE_HOME="$HOMEDIR/.local/state")
# as_user [VAR=value...] COMMAND...: run as the user with a clean environment.
as_user() { "${SETPRIV[@]}" env -i "${USER_ENV[@]}" "$@"; }
# start_user LOG [VAR=value...] COMMAND...: the same in the background, logging to $WORK/LOG.log.
PIDS=()
start_user() {
    local log=$1; shift
    "${SETPRIV[@]}" env -i "${USER_ENV[@]}" "$@" >"$WORK/$log.log" 2>&1 </dev/null &
    PIDS+=($!)
}

# Every process this run started, even those a bar double-forked away from its parent (sway
# starts waybar so, i3 starts i3bar so): they all carry this run's XDG_RUNTIME_DIR.
ours() {
    local dir
    for dir in /proc/[0-9]*; do
        grep -qzx "XDG_RUNTIME_DIR=$RUNDIR" "$dir/environ" 2>/dev/null && echo "${dir#/proc/}"
    done
    return 0
}
alive() {                        # which of these pids still run (zombies do not count)
    [ $# -gt 0 ] || return 0
    ps -o pid=,stat= -p "$(IFS=,; echo "$*")" 2>/dev/null | awk '$2 !~ /^Z/ { print $1 }' || true
}
cleanup() {
    local rc=$? all left log
    set +e                       # clean up as much as possible, whatever fails
    trap - EXIT
    trap "" INT TERM             # a second Ctrl-C must not cut the cleanup short
    all=$(printf '%s\n' "${PIDS[@]}" $(ours) | sort -un)
    if [ -n "$all" ]; then
        kill -TERM $all 2>/dev/null || true
        for _ in $(seq 30); do
            left=$(alive $all $(ours))
            [ -n "$left" ] || break
            sleep 0.1
        done
        [ -z "$left" ] || kill -KILL $left 2>/dev/null || true
        wait 2>/dev/null || true
    fi
    if [ "$rc" != 0 ]; then          # show why, before the logs go away
        for log in "$WORK"/*.log; do
            [ -s "$log" ] || continue
            printf -- '--- %s (last lines)\n' "${log##*/}" >&2
            tail -n 15 "$log" >&2
        done
    fi
    if [ "${ZAOAN_SHOTS_KEEP:-}" = 1 ]; then
        say "kept $WORK"
    else
        rm -rf "$WORK"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for() {                     # wait_for SECONDS WHAT COMMAND...
    local limit=$1 what=$2; shift 2
    local deadline=$((SECONDS + limit))
    until "$@"; do
        [ $SECONDS -lt $deadline ] || die "timed out after ${limit}s waiting for $what"
        sleep 0.2
    done
}

# crop IN GEOMETRY OUT: cut the bar out of a full-screen capture into a small PNG.
crop() {
    convert "$1" -crop "$2" +repage -strip -define png:compression-level=9 "$3"
    say "wrote ${3#"$ROOT"/} ($(identify -format '%wx%h' "$3"), $(stat -c %s "$3") bytes)"
}

# --- the service -------------------------------------------------------------------------------
say "starting zaoan serve (zh, 北京) as $SHOT_USER"
start_user zaoan zaoan serve --socket "$SOCK" --language zh --city 北京
wait_for 10 "the zaoan socket" test -S "$SOCK"
ask() { printf '%s\n' "$1" | as_user nc -N -U "$SOCK"; }
[ "$(ask 'live add yedu +25m 夜读 desc="深夜电台"')" = ok ] || die "live add yedu failed"
[ "$(ask 'live add news +3h 早间新闻')" = ok ] || die "live add news failed"
say "status: $(ask status)"

# The snippets' commands must work before a bar runs them; a bar would only show nothing.
line=$(as_user timeout 5 zaoan watch --format json status 2>&1 | head -n 1 || true)
case $line in
    '{"text":'*) say "zaoan watch --format json status: $line" ;;
    *) die "zaoan watch --format json status did not print a JSON line: ${line:-nothing}" ;;
esac
line=$(as_user timeout 3 sh -c 'sleep 10 | zaoan bar' 2>&1 | head -n 3 | tr '\n' ' ' || true)
case $line in
    '{"version":'*'[ [{'*) say "zaoan bar: ${line:0:160}..." ;;
    *) die "zaoan bar did not speak the i3bar protocol: ${line:-nothing}" ;;
esac

mkdir -p "$OUT"

# --- waybar under a headless sway ---------------------------------------------------------------
# sway 1.7 runs swaybar_command as one program name (plus -b bar-0): `waybar -c FILE` would not
# start at all. So waybar reads its files from
# where it always looks, $XDG_CONFIG_HOME/waybar/: a whole bar that includes the shipped module
# config as it is (waybar merges "include"d files under the including one), and a base style
# with the shipped style.css appended, as its comment tells users to do.
WAYBAR_DIR=$HOMEDIR/.config/waybar
install -d -o "$SHOT_UID" -g "$SHOT_GID" "$WAYBAR_DIR"
install -m 0644 "$WAYBAR_SNIPPET" "$WAYBAR_DIR/zaoan.jsonc"
cat >"$WAYBAR_DIR/config" <<EOF
{
    "include": ["$WAYBAR_DIR/zaoan.jsonc"],
    "layer": "top",
    "position": "top",
    "height": $WAYBAR_HEIGHT,
    "modules-left": ["sway/workspaces"],
    "modules-right": ["custom/zaoan"]
}
EOF
{
    cat <<EOF
* { font-family: "$FONT", sans-serif; font-size: 14px; border: none; border-radius: 0; min-height: 0; }
window#waybar { background: #1e1f29; color: #e0def4; }
#workspaces button { padding: 0 8px; color: #e0def4; background: #44475a; }
EOF
    cat "$WAYBAR_STYLE"
} >"$WAYBAR_DIR/style.css"
chmod 0644 "$WAYBAR_DIR/config" "$WAYBAR_DIR/style.css"

cat >"$CONF/sway.conf" <<EOF
xwayland disable
output HEADLESS-1 mode ${WIDTH}x200 position 0 0
bar {
    swaybar_command waybar
}
EOF
chmod 0644 "$CONF/sway.conf"

say "waybar: starting sway (headless, pixman) with swaybar_command waybar"
start_user sway WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    sway -c "$CONF/sway.conf"
wayland_socket() { compgen -G "$RUNDIR/wayland-[0-9]" >/dev/null; }
wait_for 20 "sway's wayland socket" wayland_socket
WL=$(basename "$(compgen -G "$RUNDIR/wayland-[0-9]" | head -n 1)")
waybar_up() { [ -n "$(ours)" ] && ps -o comm= -p "$(ours | paste -sd,)" | grep -qx waybar; }
wait_for 10 "waybar under sway" waybar_up
sleep 4                          # waybar maps its surface; zaoan watch fills the module
as_user WAYLAND_DISPLAY="$WL" grim "$CAPTURES/waybar-full.png"
crop "$CAPTURES/waybar-full.png" "${WIDTH}x${WAYBAR_HEIGHT}+0+0" "$OUT/waybar.png"

# --- i3bar under i3 on Xvfb ---------------------------------------------------------------------
# i3 reads the shipped bar { } block as it is, through include (i3 >= 4.20).
install -m 0644 "$I3_SNIPPET" "$CONF/zaoan-i3bar.conf"
cat >"$CONF/i3.conf" <<EOF
# i3 config file (v4)
font pango:$FONT 12
include $CONF/zaoan-i3bar.conf
EOF
chmod 0644 "$CONF/i3.conf"

mkdir -p -m 1777 /tmp/.X11-unix
# shoot_i3 WIDTH NAME: Xvfb of that width, i3 with the shipped bar, the bar cropped to
# $OUT/NAME.png. A narrow screen makes i3bar fall back to every block's short_text.
shoot_i3() {
    local width=$1 name=$2 display
    say "i3bar ($name, ${width}px): starting Xvfb and i3 with ${I3_SNIPPET#"$ROOT"/}"
    start_user "xvfb-$name" sh -c 'exec Xvfb -displayfd 3 -screen 0 "$1"x200x24 -nolisten tcp 3>"$2"' \
        _ "$width" "$CAPTURES/display-$name"
    wait_for 10 "Xvfb" test -s "$CAPTURES/display-$name"
    display=":$(tr -dc 0-9 <"$CAPTURES/display-$name")"
    start_user "i3-$name" DISPLAY="$display" i3 -c "$CONF/i3.conf"
    GEOMETRY=""
    i3bar_geometry() {           # 0x600006 "i3bar for output screen": ("bar-0" "i3bar")  960x23+0+0  +0+177
        GEOMETRY=$(as_user DISPLAY="$display" xwininfo -root -tree 2>/dev/null |
            sed -n 's/.*"i3bar for output.* \([0-9]*x[0-9]*\)[-+][0-9]*[-+][0-9]* *\(+[0-9]*+[0-9]*\).*/\1\2/p' |
            head -n 1)
        [ -n "$GEOMETRY" ]
    }
    wait_for 15 "i3bar's window" i3bar_geometry
    sleep 3                      # zaoan bar's first status lines
    as_user DISPLAY="$display" import -window root "$CAPTURES/$name-full.png"
    crop "$CAPTURES/$name-full.png" "$GEOMETRY" "$OUT/$name.png"
}
shoot_i3 "$WIDTH" i3bar
shoot_i3 420 i3bar-narrow

say "done in $((SECONDS - START))s"
