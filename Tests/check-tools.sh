#!/usr/bin/env bash
# Checks the programs of Tests/tools.list for the given groups after `make setup-*` installed them:
# each must be in the system's own directories (never /usr/local, pyenv or another PATH entry that a
# fresh machine lacks) and owned by the listed Debian package, or be in the test venv (PyPI), or on
# PATH (the Swift toolchain). Prints one line per problem naming the package to install; exits 1.
#   Tests/check-tools.sh LIST VENV GROUP...
set -uo pipefail
list=$1 venv=$2; shift 2
groups=" $* "
system_dirs=(/usr/bin /usr/sbin /bin /sbin)
problems=0 checked=0

owner() {   # the Debian package that owns $1, else nothing (merged /usr: try /bin for /usr/bin)
    local path=$1 alt
    alt=${path#/usr}
    for p in "$path" "$alt" "$(readlink -f "$path")"; do
        dpkg-query -S "$p" 2>/dev/null | grep -v '^diversion' | head -1 | cut -d: -f1 | tr -d ' ' | grep . && return 0
    done
    return 1
}

while read -r program package installer group _; do
    [[ -z "${program:-}" || "$program" == \#* ]] && continue
    [[ "$groups" == *" $group "* ]] || continue
    checked=$((checked + 1))
    source=${package%%:*} name=${package#*:}
    case "$source" in
    deb)
        path=""
        for d in "${system_dirs[@]}"; do [ -x "$d/$program" ] && [ ! -d "$d/$program" ] && { path="$d/$program"; break; }; done
        if [ -z "$path" ]; then
            echo "check-tools: $program is missing: it comes from Debian's $name (the Makefile installs $installer)"; problems=$((problems + 1)); continue
        fi
        found=$(owner "$path") || found=""
        if [ "$found" != "$name" ]; then
            echo "check-tools: $path belongs to '${found:-no package}', not to Debian's $name as Tests/tools.list says"; problems=$((problems + 1))
        fi ;;
    pypi)
        if [ ! -x "$venv/bin/$program" ]; then
            echo "check-tools: $program is missing from $venv: it comes from PyPI's $name (make setup-test installs it)"; problems=$((problems + 1))
        fi ;;
    toolchain)
        command -v "$program" >/dev/null || { echo "check-tools: $program is missing: it comes with the Swift toolchain"; problems=$((problems + 1)); } ;;
    *)
        echo "check-tools: $list: unknown source '$source' for $program"; problems=$((problems + 1)) ;;
    esac
done < "$list"

if [ "$problems" -gt 0 ]; then echo "check-tools: $problems of $checked programs missing or not from their package"; exit 1; fi
echo "check-tools: all $checked programs of group(s)$groups present, each from its package"
