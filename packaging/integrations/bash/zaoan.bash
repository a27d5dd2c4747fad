# zaoan.bash — the zaoan greeting in your bash prompt.
#
# In ~/.bashrc, after you set PS1:
#
#     source /path/to/zaoan.bash
#
# It puts ${zaoan_greeting} in front of your PS1 (set zaoan_prompt=0 before sourcing to
# place it yourself: PS1='\u@\h ${zaoan_greeting} \w\$ '). Optional, before sourcing:
#
#     zaoan_request='status'         # what to ask instead of greeting
#     zaoan_socket=/path/zaoan.sock  # instead of $XDG_RUNTIME_DIR/zaoan.sock and the fallbacks;
#                                    # the whole machine's service: /run/zaoan/zaoan.sock
#     zaoan_backoff=10               # seconds not to ask after the service missed an answer
#
# bash cannot open a Unix socket by itself, so each prompt runs one short client: netcat
# (`nc -U`, Debian's netcat-openbsd) when it is there, about 2 ms, else `zaoan ask`, about
# 10 ms (it loads the Swift runtime). For a prompt with no process at all, use zsh and
# zaoan.zsh.
#
# A prompt never waits long: the answer is read with `read -t 0.05` (0.09 through zaoan ask,
# which takes longer to start than nc). A service that is
# stopped (SIGSTOP) or wedged still accepts connections, so after a miss the prompt stops
# asking for 10 s (zaoan_backoff seconds, until zaoan_backoff_until) and shows no greeting meanwhile; the client left
# behind ends by itself (nc -w 2, zaoan ask --timeout 2s).
#
# Safety: a room title is text from other people. The answer goes into a variable and PS1
# only names the variable. bash decodes PS1's backslash escapes before it expands
# variables, and does not expand an expanded value again, so `\[\e[31m\]`, `$(...)` and
# backquotes in a title are shown, never interpreted. Never paste the answer into PS1
# itself. The service already replaces control characters (ESC → ␛).

zaoan_greeting=
: "${zaoan_request:=greeting}"
: "${zaoan_backoff:=10}"
zaoan_backoff_until=0

# Where the service listens, into __zaoan_path (no subshell): zaoan_socket, else the same
# order zaoan itself uses.
__zaoan_socket_path() {
  if [[ -n ${zaoan_socket-} ]]; then __zaoan_path=$zaoan_socket
  elif [[ ${XDG_RUNTIME_DIR-} == /* ]]; then __zaoan_path=${XDG_RUNTIME_DIR%/}/zaoan.sock
  elif [[ -d /run/user/$UID ]]; then __zaoan_path=/run/user/$UID/zaoan.sock
  else __zaoan_path=/tmp/zaoan-$UID/zaoan.sock
  fi
}

# Which client, decided once: a netcat that knows -U (OpenBSD's, ncat), else zaoan.
if command -v nc >/dev/null 2>&1 && [[ $(nc -h 2>&1) == *[[:space:]]-U[[:space:],]* ]]; then
  __zaoan_client=nc
else
  __zaoan_client=zaoan
fi

__zaoan_prompt_command() {
  local status=$? answer=
  if ((EPOCHSECONDS < zaoan_backoff_until)); then
    zaoan_greeting=   # the service missed an answer lately: do not wait on it again yet
    return "$status"
  fi
  [[ $__zaoan_client == nc ]] && __zaoan_socket_path
  # The client runs in a process substitution that the prompt does not wait for: `read -t`
  # bounds the wait, and the client ends by itself soon after.
  if [[ $__zaoan_client == nc ]]; then
    read -t 0.05 -r answer < <(nc -w 2 -U "$__zaoan_path" <<<"$zaoan_request" 2>/dev/null)
  elif [[ -n ${zaoan_socket-} ]]; then
    read -t 0.09 -r answer < <(zaoan ask --timeout 2s --socket "$zaoan_socket" -- "$zaoan_request" 2>/dev/null)
  else
    read -t 0.09 -r answer < <(zaoan ask --timeout 2s -- "$zaoan_request" 2>/dev/null)
  fi
  (($? > 128)) && zaoan_backoff_until=$((EPOCHSECONDS + zaoan_backoff))   # read timed out
  [[ $answer == 'ERR '* ]] && answer=
  zaoan_greeting=$answer
  return "$status"   # so the rest of PROMPT_COMMAND and PS1 still see the command's $?
}

if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == 'declare -a'* ]]; then
  [[ " ${PROMPT_COMMAND[*]} " == *' __zaoan_prompt_command '* ]] ||
    PROMPT_COMMAND=(__zaoan_prompt_command "${PROMPT_COMMAND[@]}")
elif [[ ${PROMPT_COMMAND-} != *__zaoan_prompt_command* ]]; then
  PROMPT_COMMAND="__zaoan_prompt_command${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
fi

shopt -s promptvars   # (bash's default) lets PS1 name the variable
if [[ ${zaoan_prompt:-1} != 0 && $PS1 != *zaoan_greeting* ]]; then
  PS1='${zaoan_greeting:+${zaoan_greeting} }'$PS1
fi
