# Sourced by the bench scripts that install what they need:
#   apt_install PACKAGE...
# installs the packages with apt-get (through sudo when not root), or ends
# the script. It uses the sourcing script's note and die.
apt_install() {
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    note "installing $* with apt-get"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null ||
        die "apt-get install $* failed"
}
