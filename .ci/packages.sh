# shellcheck shell=bash
# Sourced by the .ci scripts: install_missing PACKAGE… installs, with apt, the Debian
# packages of the list that are not installed yet (with sudo when not root), and
# nothing when all are there.
install_missing() {
    local package missing=() sudo=()
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if ((${#missing[@]} == 0)); then
        return 0
    fi
    echo "Installing: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}
