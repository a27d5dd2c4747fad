#!/usr/bin/env bash
# bench/prompt-cost.sh — what one prompt costs: time and processes, per way of getting a
# greeting into a prompt.
#
#   bench/prompt-cost.sh                 200 prompts per way, 3 runs each
#   N=1000 REPEAT=5 bench/prompt-cost.sh
#
# Ways compared (each is what runs before one prompt is drawn):
#   zsocket      packaging/integrations/zsh/zaoan.zsh: precmd writes `greeting` on zsh's
#                one open session connection and reads the answer, with builtins only
#   nc -U        zaoan_greeting=$(echo greeting | nc -U SOCKET)  (OpenBSD netcat)
#   bash         packaging/integrations/bash/zaoan.bash: PROMPT_COMMAND runs nc -U
#   zaoan ask    zaoan_greeting=$(zaoan ask greeting)   (zaoan.bash without netcat)
#   date +%H     x=$(date +%H)  — the cheapest external command, for scale
#
# Method. Every way runs inside one `zsh -f` (bash: `bash --norc`) as a loop of N calls
# after 10 warm-up calls, timed with the shell's $EPOCHREALTIME; the table shows the median of REPEAT runs
# in microseconds per prompt. Processes per prompt come from strace -f (clone, clone3,
# fork, vfork: processes created; execve: programs started) over N calls minus a run of 0
# calls, divided by N. The service is this package's zaoan, started here on a private
# socket. Settings: N (200), REPEAT (3), SKIP_BUILD (0), ZAOAN_BIN (a zaoan to use instead
# of this package's release build).
set -euo pipefail

N=${N:-200}
REPEAT=${REPEAT:-3}
SKIP_BUILD=${SKIP_BUILD:-0}

cd "$(dirname "$0")/.."
ROOT=$PWD
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then
    PATH=/opt/swift/usr/bin:$PATH
fi
for tool in zsh nc date; do
    command -v "$tool" >/dev/null || { echo "prompt-cost.sh: $tool is missing" >&2; exit 1; }
done
STRACE=$(command -v strace || true)
[ -n "$STRACE" ] || echo "prompt-cost.sh: strace is missing (Debian package strace); process counts skipped" >&2

if [ -n "${ZAOAN_BIN:-}" ]; then
    ZAOAN=$ZAOAN_BIN
else
    if [ "$SKIP_BUILD" != 1 ]; then
        echo "== building (swift build -c release --product zaoan, and zaoan-server for zaoan serve)" >&2
        swift build -c release --product zaoan >/dev/null
        swift build -c release --product zaoan-server >/dev/null
    fi
    ZAOAN=$(swift build -c release --show-bin-path)/zaoan
fi
[ -x "$ZAOAN" ] || { echo "prompt-cost.sh: no zaoan at $ZAOAN" >&2; exit 1; }

WORK=$(mktemp -d /tmp/zaoan-prompt.XXXXXX)
SOCKET=$WORK/s
SERVER=
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/bin" "$WORK/config" "$WORK/state"
ln -s "$ZAOAN" "$WORK/bin/zaoan"
# Its own config and state directories: the bench never reads or writes yours.
XDG_CONFIG_HOME=$WORK/config XDG_STATE_HOME=$WORK/state STATE_DIRECTORY=$WORK/state "$ZAOAN" serve --socket "$SOCKET" --timezone Asia/Shanghai --language zh 2>"$WORK/serve.log" &
SERVER=$!
for _ in $(seq 100); do
    [ "$(echo ping | nc -U "$SOCKET" 2>/dev/null)" = pong ] && break
    sleep 0.05
done
[ "$(echo ping | nc -U "$SOCKET" 2>/dev/null)" = pong ] || { echo "prompt-cost.sh: zaoan did not start: $(cat "$WORK/serve.log")" >&2; exit 1; }

# One script per way: setup, then the prompt step as a function `step`. All but `bash`
# run in zsh -f; `bash` runs the bash snippet's PROMPT_COMMAND in bash --norc.
shell_for() { if [ "$1" = bash ]; then echo "bash --norc --noprofile"; else echo "zsh -f"; fi; }

setup_for() {
    case $1 in
        zsocket) printf '%s\n' "zmodload zsh/datetime" "zaoan_socket=$SOCKET zaoan_prompt=0" "source $ROOT/packaging/integrations/zsh/zaoan.zsh" \
                               'step() { _zaoan_precmd }' ;;
        bash)    printf '%s\n' "zaoan_socket=$SOCKET zaoan_prompt=0" "source $ROOT/packaging/integrations/bash/zaoan.bash" \
                               'step() { __zaoan_prompt_command; }' ;;
        nc)      printf '%s\n' "zmodload zsh/datetime" "step() { zaoan_greeting=\$(echo greeting | nc -U $SOCKET) }" ;;
        ask)     printf '%s\n' "zmodload zsh/datetime" "step() { zaoan_greeting=\$(zaoan ask --socket $SOCKET greeting) }" ;;
        date)    printf '%s\n' "zmodload zsh/datetime" 'step() { x=$(date +%H) }' ;;
    esac
}

label_for() {
    case $1 in
        zsocket) echo "zsh zsocket (zaoan.zsh)" ;;
        bash)    echo "bash (zaoan.bash, nc -U)" ;;
        nc)      echo "echo greeting | nc -U" ;;
        ask)     echo "zaoan ask greeting" ;;
        date)    echo "date +%H" ;;
    esac
}

# Microseconds per step over N steps, after 10 warm-up steps.
time_once() {
    PATH=$WORK/bin:$PATH $(shell_for "$1") -c "$(setup_for "$1")
for ((i = 0; i < 10; i++)); do step; done
start=\$EPOCHREALTIME
for ((i = 0; i < $N; i++)); do step; done
end=\$EPOCHREALTIME
[[ -n \$zaoan_greeting || $1 == date ]] || { echo 'no greeting' >&2; exit 1; }
echo \$start \$end" | awk -v n="$N" '{ printf "%.1f\n", ($2 - $1) * 1e6 / n }'
}

# Processes created and programs started by COUNT steps: strace -f -c's successful calls
# (calls minus errors) of clone, clone3, fork, vfork, and of execve.
count_calls() {
    local summary=$WORK/summary
    PATH=$WORK/bin:$PATH "$STRACE" -f -c -e trace=clone,clone3,fork,vfork,execve -o "$summary" \
        $(shell_for "$1") -c "$(setup_for "$1")
for ((i = 0; i < $2; i++)); do step; done"
    awk '$NF ~ /^(clone|clone3|fork|vfork|execve)$/ {
             ok = (NF == 6) ? $4 - $5 : $4
             if ($NF == "execve") execs += ok; else forks += ok
         }
         END { print forks + 0, execs + 0 }' "$summary"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "== one prompt, $N prompts per run, median of $REPEAT runs ($(nproc) CPUs, zaoan $("$ZAOAN" --version | awk '{print $2}'))"
printf '%-26s %14s %16s %16s\n' "way" "µs per prompt" "forks per prompt" "execs per prompt"
for way in zsocket bash nc ask date; do
    times=()
    for _ in $(seq "$REPEAT"); do times+=("$(time_once "$way")"); done
    per=$(printf '%s\n' "${times[@]}" | median)
    forks="-"; execs="-"
    if [ -n "$STRACE" ]; then
        read -r f0 e0 <<<"$(count_calls "$way" 0)"
        read -r f1 e1 <<<"$(count_calls "$way" "$N")"
        forks=$(awk -v a="$f1" -v b="$f0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n }')
        execs=$(awk -v a="$e1" -v b="$e0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n }')
    fi
    printf '%-26s %14s %16s %16s\n' "$(label_for "$way")" "$per" "$forks" "$execs"
done
