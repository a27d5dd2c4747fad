# bash completion for zaoan                                  -*- shell-script -*-
#
# Subcommands, their options and values, and the request words of `zaoan ask` and
# `zaoan watch` (see `zaoan --help` and docs/protocol.md). Room IDs for `countdown`,
# `live rm` and `live show` come from the running service (`zaoan ask live list`), and
# calendar names for `schedule calendar=` from its `schedule 744`, asked with a 1 s limit
# and silently skipped when it does not answer.
#
# Install as /usr/share/bash-completion/completions/zaoan (loaded on demand by the
# bash-completion package), or `source` this file from ~/.bashrc. It needs nothing from
# bash-completion itself.

# Built-in cities (Sources/ZaoanCore/Cities.swift); the config's `cities` may add more.
_zaoan_cities=(北京 上海 广州 深圳 成都 香港 台北 东京 首尔 新加坡 孟买 迪拜 莫斯科 柏林 巴黎 伦敦
    纽约 芝加哥 洛杉矶 悉尼 协调世界时 Beijing Shanghai Guangzhou Shenzhen Chengdu 'Hong Kong' Taipei
    Tokyo Seoul Singapore Mumbai Dubai Moscow Berlin Paris London 'New York' Chicago
    'Los Angeles' Sydney UTC)

# The words as the user sees them: bash splits `--format=json` into `--format` `=` `json`
# (`=` is in COMP_WORDBREAKS); glue such pieces back unless blanks separate them.
# Sets _zaoan_w (array) and _zaoan_cw (index of the word under the cursor).
_zaoan_join_words() {
    local line=$COMP_LINE i w blank n
    _zaoan_w=()
    _zaoan_cw=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        blank=0
        if [[ $line == [[:blank:]]* ]]; then
            blank=1
            line=${line#"${line%%[![:blank:]]*}"}
        fi
        line=${line#"$w"}
        n=${#_zaoan_w[@]}
        if ((i > 0 && n > 0 && !blank)) && [[ $w == = || ${_zaoan_w[n - 1]} == *= ]]; then
            _zaoan_w[n - 1]+=$w
        else
            _zaoan_w+=("$w")
        fi
        if ((i == COMP_CWORD)); then
            _zaoan_cw=$((${#_zaoan_w[@]} - 1))
        fi
    done
    # The cursor after a blank: bash gives an empty word there.
    if ((COMP_CWORD >= ${#COMP_WORDS[@]})); then
        _zaoan_w+=("")
        _zaoan_cw=$((${#_zaoan_w[@]} - 1))
    fi
}

# COMPREPLY += the candidates that start with $1 (a plain prefix, not a pattern).
_zaoan_add() {
    local prefix=$1 candidate
    shift
    for candidate in "$@"; do
        [[ $candidate == "$prefix"* ]] && COMPREPLY+=("$candidate")
    done
}

# A word as typed with its simplest quoting removed: 'a b', "a b", a\ b.
_zaoan_unquote() {
    local word=$1
    case $word in
        \'*) word=${word#\'}; word=${word%\'} ;;
        \"*) word=${word#\"}; word=${word%\"} ;;
        *) word=${word//\\/} ;;
    esac
    [[ $word == "~/"* ]] && word=$HOME/${word#"~/"}
    printf '%s' "$word"
}

_zaoan_files() {
    local IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -f -- "$1"))
}

_zaoan_city_values() {
    local prefix city
    prefix=$(_zaoan_unquote "$1")
    for city in "${_zaoan_cities[@]}"; do
        [[ $city == "$prefix"* ]] && COMPREPLY+=("${city// /\\ }")
    done
}

_zaoan_zone_values() {
    local zones
    zones=$(cut -f3 /usr/share/zoneinfo/zone1970.tab /usr/share/zoneinfo/zone.tab 2>/dev/null |
        grep -v '^#' | sort -u)
    local IFS=$'\n'
    _zaoan_add "$1" UTC $zones
}

# Room IDs from the running service: the first tab-separated field of each `live list` line.
# $1: the prefix typed; $2: the --socket given on the command line, if any.
_zaoan_room_values() {
    local prefix=$1 socket=$2 program out id
    program=$(_zaoan_unquote "${_zaoan_w[0]}")
    [[ $program == */* ]] || program=$(type -P -- "$program") || return 0
    [[ -x $program ]] || return 0
    type -P timeout >/dev/null || return 0
    # KILL, not TERM: zaoan blocks SIGTERM for its event loop.
    out=$(timeout -s KILL 1 "$program" ask ${socket:+--socket "$socket"} live list 2>/dev/null </dev/null) ||
        return 0
    # The CLI shows the tabs between fields as ␉ (its safe text); accept either.
    while IFS= read -r id; do
        id=${id%%$'\t'*}
        id=${id%%␉*}
        [[ $id =~ ^[A-Za-z0-9_-]+$ && $id == "$prefix"* ]] && COMPREPLY+=("$id")
    done <<<"$out"
    return 0
}

# Calendar names for `schedule calendar=`, from the running service: the third field of each
# `schedule 744` line (the calendars with an event in the window ahead; a room's is `live`,
# a festival's `festival`: no calendar is shown so),
# each once, quoted for the shell. $1: the prefix typed; $2: the --socket given, if any.
_zaoan_calendar_values() {
    local prefix socket=$2 program out line name
    local -A seen=()
    prefix=$(_zaoan_unquote "$1")
    program=$(_zaoan_unquote "${_zaoan_w[0]}")
    [[ $program == */* ]] || program=$(type -P -- "$program") || return 0
    [[ -x $program ]] || return 0
    type -P timeout >/dev/null || return 0
    out=$(timeout -s KILL 1 "$program" ask ${socket:+--socket "$socket"} schedule 744 2>/dev/null </dev/null) ||
        return 0
    while IFS= read -r line; do
        # The CLI shows the tabs between fields as ␉ (its safe text); accept either.
        line=${line//␉/$'\t'}
        IFS=$'\t' read -r _ _ name _ <<<"$line"
        [[ -n $name && $name != live && $name != festival && -z ${seen[$name]} && $name == "$prefix"* ]] || continue
        seen[$name]=1
        COMPREPLY+=("$(printf '%q' "$name")")
    done <<<"$out"
    return 0
}

# Completes a request (`greeting`, `live show ID`, `watch --format=json status`, ...) whose
# first word is _zaoan_w[$1]. $2: ask or watch (what may be watched); $3: --socket, if given.
# The request words (`words`, `live`; ask-only after `[[ $mode == ask ]] &&`) are those of
# the service's request table, Sources/ZaoanProtocol/RequestKind.swift: RequestTableFilesTests
# compares them.
_zaoan_request() {
    local i=$1 mode=$2 socket=$3 cur=${_zaoan_w[_zaoan_cw]} watched=0
    local -a words watch=()
    # `watch events` (a stream of moments): offered after `zaoan ask watch`.
    [[ $mode == ask ]] && watch=(events)
    while ((i < _zaoan_cw)); do
        case ${_zaoan_w[i]} in
            --format=*) ((i++)) ;;
            watch)
                [[ $mode == ask ]] || break
                mode=watch
                watched=1
                ((i++))
                ;;
            *) break ;;
        esac
    done

    if ((i == _zaoan_cw)); then
        case $cur in
            --format=*) _zaoan_add "${cur#--format=}" plain json i3bar tmux polybar ;;
            -*)
                _zaoan_add "$cur" --format=
                compopt -o nospace 2>/dev/null
                ;;
            *)
                words=(greeting time ago duration ping version help stats countdown status ticker live remind schedule month blocks)
                [[ $mode == ask ]] && words+=(watch reload url join privacy event cities)
                ((watched)) && words+=("${watch[@]}")
                _zaoan_add "$cur" "${words[@]}"
                ;;
        esac
        return 0
    fi

    local argument=$((_zaoan_cw - i)) sub=${_zaoan_w[i + 1]}
    case ${_zaoan_w[i]} in
        greeting) ((argument == 1)) && _zaoan_city_values "$cur" ;;
        countdown) ((argument == 1)) && _zaoan_room_values "$cur" "$socket" ;;
        schedule)
            # `schedule [HOURS] [calendar=NAME]`: the name last.
            if [[ $cur == calendar=* ]]; then
                _zaoan_calendar_values "${cur#calendar=}" "$socket"
            elif [[ $cur != [0-9]* ]] && { ((argument == 1)) || [[ $argument == 2 && $sub == [0-9]* ]]; }; then
                _zaoan_add "$cur" calendar=
                compopt -o nospace 2>/dev/null
            fi
            ;;
        privacy) ((argument == 1)) && _zaoan_add "$cur" on off ;;
        ticker) ((argument == 1)) && _zaoan_add "$cur" others ;; # or SKIP
        month) [[ $cur != [-+@0-9]* ]] && _zaoan_add "$cur" days ;; # and YYYY-MM, +N, -N, @ZONE
        event)
            # `event add CALENDAR WHEN TITLE ...`, `event rm UID`: writes, so ask only.
            if ((argument == 1)); then
                local -a event=()
                [[ $mode == ask ]] && event=(add rm)
                _zaoan_add "$cur" "${event[@]}"
            elif ((argument == 2)) && [[ $sub == add ]]; then
                _zaoan_calendar_values "$cur" "$socket"
            fi
            ;;
        remind)
            if ((argument == 1)); then
                local -a remind=(list)
                [[ $mode == ask ]] && remind=(snooze dismiss "${remind[@]}")
                _zaoan_add "$cur" "${remind[@]}"
            fi
            ;;
        live)
            if ((argument == 1)); then
                local -a live=(list show)
                [[ $mode == ask ]] && live=(add rm skip "${live[@]}")
                _zaoan_add "$cur" "${live[@]}"
            elif ((argument == 2)) && [[ $sub == rm || $sub == show || $sub == skip ]]; then
                _zaoan_room_values "$cur" "$socket"
            elif ((argument >= 4)) && [[ $sub == add && -n $cur ]]; then
                _zaoan_add "$cur" end= desc= viewers=
                compopt -o nospace 2>/dev/null
            fi
            ;;
    esac
    return 0
}

_zaoan() {
    COMPREPLY=()
    local _zaoan_w _zaoan_cw
    _zaoan_join_words
    local cur=${_zaoan_w[_zaoan_cw]} prev=
    ((_zaoan_cw > 0)) && prev=${_zaoan_w[_zaoan_cw - 1]}

    if ((_zaoan_cw == 1)); then
        _zaoan_add "$cur" serve ask watch bar click join cal check-config --help --version
        return 0
    fi

    local command=${_zaoan_w[1]} options
    case $command in
        serve) options="--socket --config --city --timezone --language --exit-idle-time --verbose" ;;
        ask) options="--socket --format --timeout" ;;
        watch) options="--socket --format --timeout --retry-after --config" ;;
        bar) options="--socket --config --retry-after" ;;
        click) options="--config" ;;
        join) options="--socket --config" ;;
        cal) options="--socket --timeout" ;;
        check-config)
            ((_zaoan_cw == 2)) && _zaoan_files "$cur"
            return 0
            ;;
        *) return 0 ;;
    esac

    # An option's value, as `--opt VALUE` or `--opt=VALUE`.
    local option= value=$cur
    case $prev in
        --socket | --config | --city | --timezone | --language | --exit-idle-time | --format | --timeout | --retry-after) option=$prev ;;
    esac
    if [[ -z $option && $cur == --*=* ]]; then
        option=${cur%%=*}
        value=${cur#*=}
    fi
    if [[ -n $option && " $options " == *" $option "* ]]; then
        case $option in
            --socket | --config) _zaoan_files "$value" ;;
            --city) _zaoan_city_values "$value" ;;
            --timezone) _zaoan_zone_values "$value" ;;
            --language) _zaoan_add "$value" zh zh-Hant en ja ko de fr es ;;
            --format) _zaoan_add "$value" plain json i3bar tmux polybar ;;
            --exit-idle-time | --timeout | --retry-after) ;; # a duration: 300, 90s, 5min, 1h, 100ms
        esac
        return 0
    fi

    # Past the options: where does the request start, and which --socket was given?
    local i=2 socket=
    while ((i < _zaoan_cw)); do
        case ${_zaoan_w[i]} in
            --socket)
                socket=$(_zaoan_unquote "${_zaoan_w[i + 1]}")
                ((i += 2))
                ;;
            --socket=*)
                socket=$(_zaoan_unquote "${_zaoan_w[i]#--socket=}")
                ((i++))
                ;;
            --format | --config | --city | --timezone | --language | --exit-idle-time | --timeout | --retry-after) ((i += 2)) ;;
            --)
                ((i++))
                [[ $command == ask || $command == watch ]] && break
                ;;
            -*) ((i++)) ;;
            *) break ;;
        esac
    done

    if [[ $command == ask || $command == watch ]]; then
        if ((i == _zaoan_cw)) && [[ $cur == -* && ${_zaoan_w[i - 1]} != -- ]]; then
            _zaoan_add "$cur" $options
        elif ((i <= _zaoan_cw)); then
            _zaoan_request "$i" "$command" "$socket"
        fi
    elif [[ $command == join && $cur != -* ]]; then
        # What shows the event: countdown [ID], ticker [SKIP] or status; none is the live or next.
        if ((_zaoan_cw == i)); then
            _zaoan_add "$cur" countdown ticker status
        elif ((_zaoan_cw == i + 1)) && [[ ${_zaoan_w[i]} == countdown ]]; then
            _zaoan_room_values "$cur" "$socket"
        fi
    elif [[ $command == click && $cur != -* ]]; then
        # BLOCK (a request word a bar can show; `live list` is two), then BUTTON.
        local before=$((_zaoan_cw - i))
        if ((before == 0)); then
            _zaoan_add "$cur" ticker countdown status time greeting schedule month live remind ago duration ping version help stats
        elif ((before == 1)) && [[ ${_zaoan_w[i]} == live ]]; then
            _zaoan_add "$cur" list show
        elif ((before == 1)) || { ((before == 2)) && [[ ${_zaoan_w[i]} == live ]]; }; then
            _zaoan_add "$cur" left middle right wheel-up wheel-down
        fi
    elif [[ $cur == -* ]]; then
        local option used
        for option in $options; do
            # Each option once (serve and bar keep the last one; offering it again is noise).
            used=0
            for ((i = 2; i < _zaoan_cw; i++)); do
                [[ ${_zaoan_w[i]} == "$option" || ${_zaoan_w[i]} == "$option="* ]] && used=1
            done
            ((used)) || _zaoan_add "$cur" "$option"
        done
    fi
    return 0
} &&
    complete -F _zaoan zaoan

# ex: filetype=sh
