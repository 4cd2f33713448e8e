# SPDX-License-Identifier: Apache-2.0
# Shared by packaging/debian13.sh and packaging/package-test.sh: the Debian mirror to use and
# running a command inside a chroot. Sourced after lib.sh, not run.

debian_mirror() {
    if [ -n "${SERVELAB_DEBIAN_MIRROR:-}" ]; then
        echo "$SERVELAB_DEBIAN_MIRROR"
        return
    fi
    # The mirror this machine's apt already uses (deb822 or one-line format).
    local uri
    uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
    [ -z "$uri" ] && uri=$(awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
    echo "${uri:-http://deb.debian.org/debian}"
}

# in_chroot ROOT SOURCE COMMAND: runs COMMAND (a bash command line) inside ROOT as root, with
# /proc and /dev mounted and, when SOURCE is not empty, SOURCE bind-mounted read-only at /src.
# The mounts live in a private mount namespace (unshare -m): they vanish with the process,
# whatever happens.
in_chroot() {
    as_root unshare --mount --fork bash -c '
        set -e
        mount --make-rprivate /
        mount -t proc proc "$1/proc"
        mount --rbind /dev "$1/dev"
        if [ -n "$2" ]; then
            mkdir -p "$1/src"
            mount --bind "$2" "$1/src"
            mount -o remount,bind,ro "$1/src"
        fi
        exec chroot "$1" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            bash -c "$3"' servelab-chroot "$1" "$2" "$3"
}
