#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian 13 leg of packaging/test.sh: builds and tests ServeLab with Qt 6.8 and KF6
# SyntaxHighlighting inside a debootstrap chroot kept under the cache folder
# ($SERVELAB_CACHE/debian13, about a minute to create the first time).
#
# The source is bind-mounted read-only at /src; the build folder lives inside the chroot
# (/root/build), apart from the host's build/. Mounts are made in a private mount namespace
# (unshare -m), so they vanish with the process whatever happens.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

root=$SERVELAB_CACHE/debian13

. "$(dirname "${BASH_SOURCE[0]}")/chroot.sh"

# Runs a command line in the Debian 13 chroot, the source at /src.
in_debian13() { in_chroot "$root" "$SERVELAB_SRC" "$1"; }

# The chroot is kept between runs, and made again from nothing when the packages it was made
# for (packages.txt, sets build and chroot) are not the ones listed now: a package dropped
# from the list must be missing there too.
packages=$(packages_for build chroot | tr '\n' ' ')
stamp=$root/.servelab-packages
if [ -e "$root" ] && [ "$(cat "$stamp" 2>/dev/null)" != "$packages" ]; then
    say "packages.txt changed since the Debian 13 chroot was made: making it again"
    as_root rm -rf --one-file-system "$root"
fi

if [ ! -x "$root/usr/bin/apt-get" ]; then
    say "creating the Debian 13 chroot in $root (kept for the next runs)"
    mkdir -p "$SERVELAB_CACHE"
    as_root rm -rf "$root.partial"
    as_root debootstrap --variant=minbase trixie "$root.partial" "$(debian_mirror)" >"$SERVELAB_CACHE/debootstrap.log" 2>&1 ||
        { tail -20 "$SERVELAB_CACHE/debootstrap.log"; die "debootstrap of Debian 13 failed (log: $SERVELAB_CACHE/debootstrap.log)"; }
    as_root mv "$root.partial" "$root"
fi

say "Debian 13 leg: checking packages in the chroot"
in_debian13 "
    missing=''
    for p in $packages; do
        dpkg-query -W -f='\${Status}' \$p 2>/dev/null | grep -q '^install ok installed' || missing=\"\$missing \$p\"
    done
    # Packages with services (nginx, lighttpd) must not start them here: the chroot shares the
    # host's network, and nothing may be left running.
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
    if [ -n \"\$missing\" ]; then
        echo \"== installing in the chroot:\$missing\"
        apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \$missing >/var/log/servelab-apt.log 2>&1 ||
            { tail -20 /var/log/servelab-apt.log; exit 1; }
    fi" || die "could not install the Debian 13 packages"
printf '%s' "$packages" | as_root tee "$stamp" >/dev/null

# Everything is built (each source meets GCC 14 and Qt 6.8), as a unity build without debug
# information; the tests labelled debian13 run (tests/CMakeLists.txt says which and why).
# Configured again when these options change.
configure="-G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g0 -DCMAKE_UNITY_BUILD=ON -DSERVELAB_BENCH=OFF -DSERVELAB_SOAK=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
say "Debian 13 leg: building and testing (Qt $(in_debian13 'qtpaths6 --qt-version 2>/dev/null || echo 6.x'))"
in_debian13 "
    set -e
    export CCACHE_DIR=/root/.cache/ccache CCACHE_BASEDIR=/src CCACHE_NOHASHDIR=true
    if [ ! -f /root/build/build.ninja ] || [ \"\$(cat /root/configure.args 2>/dev/null)\" != '$configure' ]; then
        cmake -S /src -B /root/build $configure >/root/configure.log 2>&1 ||
            { cat /root/configure.log; exit 1; }
        echo '$configure' >/root/configure.args
    fi
    grep -A2 'features have been enabled' /root/configure.log || true
    cmake --build /root/build
    cd /root/build && QT_QPA_PLATFORM=offscreen ctest -j4 --output-on-failure --no-tests=error --timeout 300 --label-regex debian13"
