# joulecast.bash - bash completion for joulecast(1).  Installed as
# share/bash-completion/completions/joulecast.  Commands and options are
# read from the program itself (`joulecast --help`, `joulecast help CMD`),
# so new options complete without changing this file; device ids and
# region codes come from `joulecast hw list` / `joulecast region list`.

_joulecast() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local jc=${words[0]}
    if [[ $cword -eq 1 ]]; then
        local cmds
        cmds=$("$jc" --help 2>/dev/null | awk '/^commands:/{on=1; next} on && /^$/{exit} on && /^  [a-z]/{print $1}')
        COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
        return
    fi
    local cmd=${words[1]}
    case $cmd in
        help)
            if [[ $cword -eq 2 ]]; then
                local cmds
                cmds=$("$jc" --help 2>/dev/null | awk '/^commands:/{on=1; next} on && /^$/{exit} on && /^  [a-z]/ && $1 != "help" {print $1}')
                COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
            fi
            return ;;
    esac
    case $prev in
        --device|--gpu|--cpu)
            COMPREPLY=($(compgen -W "$("$jc" hw list 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
            return ;;
        --host)
            COMPREPLY=($(compgen -W "$("$jc" hw list --kind host 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
            return ;;
        --region)
            COMPREPLY=($(compgen -W "$("$jc" region list 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
            return ;;
        --hwdb|--op-rules|--model)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("$jc" help "$cmd" 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    case $cmd in
        inspect|count|estimate)
            COMPREPLY=($(compgen -f -X '!*.@(onnx|yaml|yml)' -- "$cur") $(compgen -d -- "$cur")) ;;
        hw|region)
            [[ $cword -eq 2 ]] && COMPREPLY=($(compgen -W "list show" -- "$cur")) ;;
        hwdb)
            if [[ $cword -eq 2 ]]; then COMPREPLY=($(compgen -W "check snapshot info" -- "$cur"))
            else COMPREPLY=($(compgen -d -- "$cur")); fi ;;
    esac
}
complete -F _joulecast joulecast
