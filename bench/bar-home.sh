# Sourced by bench/tick-profile.sh and bench/tick-order.sh: a private home for one bar
# clock served by the release build. Sets T (the directory, removed at exit), PIDS (killed at
# exit; add what you start), the XDG directories and a config whose bar is bench/bars.py's
# one block, `time yyyy-MM-dd HH:mm:ss`, in UTC; and T/zaoan-server, the release server
# without its debug information (valgrind 3.19 gives up on the DWARF 5 of the C targets, as
# in bench/callgrind.sh; the symbols stay).
BIN=.build/release
T=$(mktemp -d /tmp/zaoan-bar.XXXXXX)
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$T/home" "$T/config/zaoan" "$T/run" "$T/state" "$T/cache"
chmod 700 "$T/run"
echo '{"bar_blocks": ["time yyyy-MM-dd HH:mm:ss"]}' >"$T/config/zaoan/config.json"
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_RUNTIME_DIR=$T/run XDG_STATE_HOME=$T/state \
    XDG_CACHE_HOME=$T/cache TZ=UTC LANG=C.UTF-8
objcopy --strip-debug "$BIN/zaoan-server" "$T/zaoan-server"
