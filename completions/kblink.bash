# bash completion for kblink: commands, subcommands, options and their values, and keyboards.
#
# Commands, subcommands and options are read from kblink's own help ("kblink --help", "kblink COMMAND --help"),
# so completion follows the program it completes. Keyboards (DEVICE) are the addresses and names in
# "kblink list --json", asked on the bus the command line names (--bus, else $KBLINK_BUS, else the system bus),
# for at most 2 seconds. Names come from Bluetooth devices nearby and are never evaluated: candidates are matched
# in bash and quoted with printf %q, not passed through compgen -W (which expands its word list).
#
# Installed as /usr/share/bash-completion/completions/kblink (make install, the kblink Debian package).

# The addresses and names of the keyboards kblinkd knows, one a line. Arguments: the kblink command and its --bus.
_kblink_keyboards() {
    local json
    json=$(timeout 2 "$@" list --json 2>/dev/null) || return 0
    printf '%s\n' "$json" | grep -o '"\(address\|name\)":"\([^"\\]\|\\.\)*"' |
        sed -e 's/^"[a-z]*":"//' -e 's/"$//' -e 's/\\"/"/g' -e 's/\\\//\//g' -e 's/\\\\/\\/g' | sort -u
}

# Adds to COMPREPLY each line of standard input that starts with $1, quoted for the command line. Give it its input
# with < <(...): at the end of a pipe it would run in a subshell and add nothing.
_kblink_match() {
    # The word as typed may be quoted ("Aula\ F", 'Aula F): compare without the quoting, which is not evaluated.
    local prefix=$1 candidate
    prefix=${prefix#[\'\"]}
    prefix=${prefix%[\'\"]}
    prefix=${prefix//\\/}
    while IFS= read -r candidate; do
        [[ -n $candidate && $candidate == "$prefix"* ]] && COMPREPLY+=("$(printf '%q' "$candidate")")
    done
}

# Each usage line of a command's help on one line, continuation lines joined, without "kblink COMMAND".
_kblink_usage_lines() {
    awk -v command="$1" '
        /^Usage: / { in_usage = 1; sub(/^Usage: /, "") }
        /^$/ { in_usage = 0 }
        in_usage {
            line = $0
            if (line ~ "^ *kblink ") { if (current != "") print current; current = ""; sub("^ *kblink +" command, "", line) }
            current = current " " line
        }
        END { if (current != "") print current }
    '
}

# The positional arguments of a usage line from standard input: options and their values dropped, brackets
# removed ("show DEVICE [--zone Z] [--json]" gives "show DEVICE").
_kblink_positionals() {
    sed -e 's/\[no-\]/no-/g' -e 's/\[-[^]]*\]//g' -e 's/--[a-z-]*\( [A-Z][^ ]*\)\{0,1\}//g' -e 's/[][]//g'
}

# The options in text from standard input, "--[no-]x" as --x and --no-x.
_kblink_options() {
    grep -o -- '--\(\[no-\]\)\{0,1\}[a-z][a-z-]*' | sed -e 's/^--\[no-\]\(.*\)/--\1\n--no-\1/'
}

# The value an option takes, as its help names it (FILE, Z, auto|yes|no), or nothing for a flag.
# Arguments: the option, the command's help.
_kblink_option_value() {
    local placeholder
    placeholder=$(printf '%s\n' "$2" | grep -o -- "$1 [^] ]*" | head -n 1)
    placeholder=${placeholder#"$1 "}
    [[ $placeholder == [A-Z]* || $placeholder == *\|* ]] && printf '%s\n' "$placeholder"
    return 0
}

# Fills COMPREPLY from the words _kblink's _init_completion set up (cur, prev, words, cword).
_kblink_complete() {
    local kblink=${words[0]} bus=() command="" command_index=0 i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --bus) bus=(--bus "${words[i + 1]}") && ((i++)) ;;
            --bus=*) bus=("${words[i]}") ;;
            -*) ;;
            *) command=${words[i]} && command_index=$i && break ;;
        esac
    done

    # "--bus=s": readline completes the part after "=" (a word break), so the candidates are the values alone.
    if [[ $prev == --bus || $cur == --bus=* ]]; then
        cur=${cur#--bus=}
        local value
        for value in system session; do
            [[ $value == "$cur"* ]] && COMPREPLY+=("$value")
        done
        return
    fi

    local overview
    overview=$("$kblink" --help 2>/dev/null) || return
    local commands
    commands=$(printf '%s\n' "$overview" | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            _kblink_match "$cur" < <(printf '%s\n' --bus --help --version)
        else
            _kblink_match "$cur" < <(printf '%s\n' $commands help)
        fi
        return
    fi
    if [[ $command == help ]]; then
        ((cword == command_index + 1)) && _kblink_match "$cur" < <(printf '%s\n' $commands)
        return
    fi

    local help
    help=$("$kblink" "$command" --help 2>/dev/null) || return

    # An option's value: FILE names a file, DIR a directory, a list such as system|session gives its words, Z a zone.
    if [[ $prev == --* ]]; then
        local placeholder
        placeholder=$(_kblink_option_value "$prev" "$help")
        if [[ -n $placeholder ]]; then
            case $placeholder in
                FILE) _filedir ;;
                DIR) _filedir -d ;;
                Z) _kblink_match "$cur" < <(printf '%s\n' "$help" | sed -n 's/^Zones: \([^.]*\)\..*/\1/p' |
                    tr ',' '\n' | sed 's/^ *//') ;;
                *\|*) _kblink_match "$cur" < <(tr '|' '\n' <<<"$placeholder" | grep -v '[A-Z]') ;;
            esac
            return
        fi
    fi

    # The words after the command that are not options or options' values: which positional argument this is.
    local typed=() word
    for ((i = command_index + 1; i < cword; i++)); do
        word=${words[i]}
        if [[ $word == --* ]]; then
            [[ -n $(_kblink_option_value "$word" "$help") ]] && ((i++))
            continue
        fi
        typed+=("$word")
    done
    local usage
    usage=$(printf '%s\n' "$help" | _kblink_usage_lines "$command")

    if [[ $cur == -* ]]; then
        # A subcommand's own options (its usage lines) and those of every command; otherwise all the help names.
        local line first own=""
        while IFS= read -r line; do
            read -r first _ < <(_kblink_positionals <<<"$line")
            [[ -n ${typed[0]-} && $first != *[A-Z]* && "|$first|" == *"|${typed[0]}|"* ]] && own+="$line"$'\n'
        done <<<"$usage"
        if [[ -n $own ]]; then
            _kblink_match "$cur" < <({
                _kblink_options <<<"$own"
                printf '%s\n' --bus --json --no-color --help
            } | sort -u)
        else
            _kblink_match "$cur" < <(_kblink_options <<<"$help" | sort -u)
        fi
        return
    fi

    local spec expected position=${#typed[@]}
    while IFS= read -r spec; do
        read -r -a expected <<<"$spec"
        ((position < ${#expected[@]})) || continue
        # The words typed so far must fit this usage line's subcommand words.
        local fits=1 j
        for ((j = 0; j < position; j++)); do
            if [[ ${expected[j]} != *[A-Z]* && "|${expected[j]}|" != *"|${typed[j]}|"* ]]; then
                fits=0
            fi
        done
        ((fits)) || continue
        case ${expected[position]} in
            DEVICE) _kblink_match "$cur" < <(_kblink_keyboards "$kblink" "${bus[@]}") ;;
            FILE) _filedir ;;
            *[A-Z]*) ;;
            *) _kblink_match "$cur" < <(tr '|' '\n' <<<"${expected[position]}") ;;
        esac
    done < <(_kblink_positionals <<<"$usage")

    # Several usage lines offer the same words (a subcommand, or DEVICE): each once.
    if ((${#COMPREPLY[@]} > 1)); then
        local -A seen=()
        local unique=() candidate
        for candidate in "${COMPREPLY[@]}"; do
            [[ -n ${seen[$candidate]-} ]] || unique+=("$candidate")
            seen[$candidate]=1
        done
        COMPREPLY=("${unique[@]}")
    fi
}

_kblink() {
    local cur prev words cword
    # Addresses (F8:70:00:00:00:87, unix:path=...) keep their colons and equals signs: words are not split there.
    _init_completion -n =: || return
    _kblink_complete
    # readline replaces only what follows the last colon of the word: take what precedes it off the candidates.
    __ltrim_colon_completions "$cur"
} && complete -F _kblink kblink
