# zaoan.zsh — the zaoan greeting in your zsh prompt, without a fork per prompt.
#
# In ~/.zshrc, after you set PROMPT:
#
#     source /path/to/zaoan.zsh
#
# It puts ${zaoan_greeting} in front of your PROMPT and turns on prompt_subst (set
# zaoan_prompt=0 before sourcing to place it yourself, in single quotes so that the prompt
# names the variable: RPROMPT='${zaoan_greeting}'). Optional, before sourcing:
#
#     zaoan_request='status'         # what to ask instead of greeting (countdown, time %H:%M, ...)
#     zaoan_socket=/path/zaoan.sock  # instead of $XDG_RUNTIME_DIR/zaoan.sock and the fallbacks;
#                                    # the whole machine's service: /run/zaoan/zaoan.sock
#     zaoan_backoff=10               # seconds not to ask after the service missed an answer
#
# How it works: zsh's own socket module opens one connection to the service and turns it
# into a `session`; before each prompt, precmd writes one request line and reads one
# answer line with builtins only (print, read), so a prompt costs a write and a read, not a
# process. If the service restarted, the write or the read fails: the connection is closed
# and opened once more; if that fails too, the prompt simply shows no greeting.
#
# A prompt never waits long: an answer must come within 50 ms. A service that is stopped
# (SIGSTOP) or wedged still accepts connections, so after a miss the prompt stops asking
# for 10 s (zaoan_backoff seconds, until zaoan_backoff_until) and shows no greeting meanwhile.
#
# Safety: a room title is text from other people. The answer is stored in a variable and the
# prompt refers to the variable, with prompt_subst, so zsh expands it exactly once: `$(...)`
# and backquotes in a title are never run. `%` is doubled (and `!` under prompt_bang), so
# `%F{red}` or `%{...%}` in a title show as typed instead of styling the prompt (compare
# CVE-2021-45444). The service already replaces control characters (ESC → ␛).

zmodload zsh/net/socket 2>/dev/null || return 0
zmodload -F zsh/datetime p:EPOCHSECONDS p:EPOCHREALTIME 2>/dev/null || return 0

typeset -g zaoan_greeting=''
typeset -g zaoan_request=${zaoan_request:-greeting}
typeset -g _zaoan_fd=''
typeset -gi zaoan_backoff=${zaoan_backoff:-10}
typeset -gi zaoan_backoff_until=0

# Where the service listens: zaoan_socket, else the same order zaoan itself uses.
_zaoan_socket_path() {
  if [[ -n $zaoan_socket ]]; then REPLY=$zaoan_socket
  elif [[ $XDG_RUNTIME_DIR == /* ]]; then REPLY=${XDG_RUNTIME_DIR%/}/zaoan.sock
  elif [[ -d /run/user/$UID ]]; then REPLY=/run/user/$UID/zaoan.sock
  else REPLY=/tmp/zaoan-$UID/zaoan.sock
  fi
}

_zaoan_close() {
  # The braces keep 2>/dev/null from staying on the shell: `exec` with only redirections
  # applies them to the shell itself.
  [[ -n $_zaoan_fd ]] && { exec {_zaoan_fd}>&- } 2>/dev/null
  _zaoan_fd=''
}

# Sends one request line and reads one answer line into REPLY. Fails on a closed connection,
# and on a silent one after 50 ms (then the prompt stops asking for zaoan_backoff seconds).
_zaoan_exchange() {
  local line
  # Anything left over (a late answer after a timeout) would shift every later answer.
  while read -t 0 -r -u $_zaoan_fd line 2>/dev/null; do :; done
  print -r -u $_zaoan_fd -- "$1" 2>/dev/null || return 1
  local -F started=$EPOCHREALTIME
  if ! read -t 0.05 -r -u $_zaoan_fd line 2>/dev/null; then
    # A closed connection fails at once; only a silent one, which used up the wait, backs off.
    (( EPOCHREALTIME - started >= 0.04 )) && zaoan_backoff_until=$(( EPOCHSECONDS + zaoan_backoff ))
    return 1
  fi
  REPLY=$line
}

_zaoan_connect() {
  local REPLY
  _zaoan_socket_path
  [[ -S $REPLY ]] || return 1
  zsocket $REPLY 2>/dev/null || return 1
  # zsocket hands out the lowest free descriptor (3, 4, ...), which a later `exec 3>file`
  # would silently take over; move it to one zsh allocates (10 and up).
  local low=$REPLY
  { exec {_zaoan_fd}<&$low; exec {low}>&- } 2>/dev/null || { _zaoan_fd=''; return 1 }
  if ! _zaoan_exchange session || [[ $REPLY != ok ]]; then
    _zaoan_close
    return 1
  fi
}

_zaoan_precmd() {
  # The caller's prompt options decide what must be escaped; read them before emulate.
  local percent=0 bang=0
  [[ -o prompt_percent ]] && percent=1
  [[ -o prompt_bang ]] && bang=1
  emulate -L zsh
  setopt local_traps
  trap '' PIPE   # a write to a connection the service closed fails instead of killing zsh

  local REPLY='' answer=''
  if (( EPOCHSECONDS < zaoan_backoff_until )); then
    zaoan_greeting=''   # the service missed an answer lately: do not wait on it again yet
    return
  fi
  if [[ -n $_zaoan_fd ]] && _zaoan_exchange $zaoan_request; then
    answer=$REPLY
  else
    _zaoan_close
    if (( EPOCHSECONDS >= zaoan_backoff_until )) && _zaoan_connect && _zaoan_exchange $zaoan_request; then
      answer=$REPLY
    else
      _zaoan_close
    fi
  fi
  [[ $answer == 'ERR '* ]] && answer=''
  (( percent )) && answer=${answer//\%/%%}
  (( bang )) && answer=${answer//\!/!!}
  zaoan_greeting=$answer
}

autoload -Uz add-zsh-hook
add-zsh-hook precmd _zaoan_precmd

# prompt_subst lets a prompt name the variable; it also makes a literal $ or ` in your own
# PROMPT special, so write those as \$ and \`.
setopt prompt_subst
if [[ ${zaoan_prompt:-1} != 0 && $PROMPT != *zaoan_greeting* ]]; then
  PROMPT='${zaoan_greeting:+${zaoan_greeting} }'$PROMPT
fi
