#!/usr/bin/env bash
# The man page says what `attnscope --help` says: every command, every option, the
# version. usage: manpage.sh ATTNSCOPE_BINARY attnscope.1
set -euo pipefail
binary=$1
page=$2

help=$(LC_ALL=C.UTF-8 "$binary" --help)
# The page as text, with roff's escapes undone (\- is a dash, \(aq an apostrophe…).
text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null) ||
    text=$(sed -e 's/\\-/-/g' -e 's/\\&//g' "$page")

failures=0
check() {
    if ! grep -qF -- "$1" <<<"$text"; then
        echo "the man page lacks: $1" >&2
        failures=$((failures + 1))
    fi
}
checked=0
while read -r option; do
    check "$option"
    checked=$((checked + 1))
done < <(grep -oE -- '(^|[ [])--[a-z0-9][a-z0-9-]*' <<<"$help" | tr -d ' [' | sort -u)
for command in compute export sweep compare steps presets; do
    check "attnscope $command"
done
version=$("$binary" --version | head -n 1)
check "${version#attnscope }"
if ((checked < 40)); then
    echo "only $checked options found in attnscope --help: did its format change?" >&2
    exit 1
fi
if ((failures > 0)); then
    echo "$failures missing: rebuild the man page (cmake --build build --target attnscope_man)" >&2
    exit 1
fi
echo "the man page has all $checked options of attnscope --help, every command and the version"
