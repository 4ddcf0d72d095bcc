#!/usr/bin/env bash
# The bash completion completes commands, options, their values and files from the
# binary's help. usage: completion.sh ATTNSCOPE_BINARY attnscope.bash-completion
set -uo pipefail
binary=$(realpath "$1")
script=$(realpath "$2")

# shellcheck disable=SC1091 # bash-completion's own helpers (_init_completion, _filedir)
source /usr/share/bash-completion/bash_completion
# shellcheck disable=SC1090
source "$script"
cd "$(mktemp -d)" || exit 1
touch lesson.attnscope other.attnscope notes.txt gpt2.npz
mkdir figures

failures=0
# expect "WORDS …" "COMPLETIONS": the completions of the last word, sorted.
expect() {
    local line=$1 want=$2
    read -r -a COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_WORDS[0]=$binary
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="${COMP_WORDS[*]}"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _attnscope attnscope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    local got
    got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd ' ')
    if [[ $got != "$want" ]]; then
        echo "FAIL '$line': got '$got', expected '$want'" >&2
        failures=$((failures + 1))
    else
        echo "ok   '$line' → $got"
    fi
}

expect "attnscope co" "compare compute"
expect "attnscope s" "steps sweep"
expect "attnscope --v" "--version"
expect "attnscope " "compare compute export figures gpt2.npz help lesson.attnscope other.attnscope presets steps sweep"
expect "attnscope lesson.attnscope " "figures gpt2.npz lesson.attnscope other.attnscope"
expect "attnscope compute --mask-" "--mask-fill --mask-stage"
expect "attnscope compute --mask " "causal none"
expect "attnscope compute --axis q" "queries"
expect "attnscope compute --language " "en zh_CN"
expect "attnscope export --colormap v" "viridis"
expect "attnscope export --preset coref" "coreference coreference-en"
expect "attnscope export --session " "figures lesson.attnscope other.attnscope"
expect "attnscope export --out n" "notes.txt"
expect "attnscope export --annotate --no-a" "--no-annotate"
# compare takes a model (its own options, read from the same help).
expect "attnscope compare --mod" "--model"
expect "attnscope compare --only" "--only-layer"
expect "attnscope compare --lay" "--layer"
# Options a command leaves out ("except --json") are not offered.
expect "attnscope export --js" ""
expect "attnscope sweep --sc" ""
expect "attnscope sweep --fr" "--from"
# steps with a model: its own options, and a folder for --model.
expect "attnscope steps --hea" "--head --head-split --heads"
expect "attnscope steps --only" "--only-layer"
expect "attnscope steps --model " "figures"
expect "attnscope help ex" "export"
expect "attnscope help --language z" "zh_CN"
expect "attnscope --help --l" "--language"

if ((failures > 0)); then
    echo "$failures completions wrong" >&2
    exit 1
fi
