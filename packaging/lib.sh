# SPDX-License-Identifier: Apache-2.0
# Shared set-up for packaging/run.sh and packaging/test.sh. Sourced, not run.
# Everything here is idempotent: a second run installs nothing and rebuilds only what changed.

SERVELAB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SERVELAB_CACHE=${SERVELAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/servelab}

say() { printf '== %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# packages_for SET... — prints the packages listed in packages.txt for any of the given sets.
packages_for() {
    local sets=" $* "
    awk -v sets="$sets" '
        /^[[:space:]]*#/ || NF < 2 { next }
        { for (i = 2; i <= NF; i++) if (index(sets, " " $i " ")) { print $1; break } }
    ' "$SERVELAB_SRC/packaging/packages.txt"
}

as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        die "need root to run '$*': run as root or install sudo"
    fi
}

# ensure_packages SET... — installs the missing packages of those sets with apt.
ensure_packages() {
    local missing=() pkg
    for pkg in $(packages_for "$@"); do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q '^install ok installed' ||
            missing+=("$pkg")
    done
    [ ${#missing[@]} = 0 ] && return 0
    say "installing Debian packages: ${missing[*]}"
    as_root apt-get update -q || die "apt-get update failed"
    # The lab launches its own nginx and lighttpd on free ports; the packages' system services
    # must not start (and stay running) because of this install.
    local policy=/usr/sbin/policy-rc.d created=0
    if [ ! -e $policy ]; then
        printf '#!/bin/sh\nexit 101\n' | as_root tee $policy >/dev/null && as_root chmod 755 $policy && created=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${missing[@]}"
    local status=$?
    [ $created = 1 ] && as_root rm -f $policy
    [ $status = 0 ] || die "apt-get install ${missing[*]} failed"
}

# build_preset PRESET — configures (once) and builds with Ninja, through ccache when present.
build_preset() {
    local preset=$1 launcher=() log
    if command -v ccache >/dev/null; then
        export CCACHE_DIR=${CCACHE_DIR:-$SERVELAB_CACHE/ccache-$(. /etc/os-release; echo "$ID$VERSION_ID")}
        # Relative paths in the hash: a fresh clone elsewhere (CI) still hits the cache.
        export CCACHE_BASEDIR=$SERVELAB_SRC CCACHE_NOHASHDIR=true
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cd "$SERVELAB_SRC" || die "cannot enter $SERVELAB_SRC"
    # Configured once; again when the presets changed since (a cache variable of the preset).
    if [ ! -f "build/$preset/build.ninja" ] || [ CMakePresets.json -nt "build/$preset/CMakeCache.txt" ]; then
        mkdir -p build
        log=build/configure-$preset.log
        say "configuring preset $preset"
        cmake --preset "$preset" "${launcher[@]}" >"$log" 2>&1 || { cat "$log"; die "cmake --preset $preset failed"; }
        grep -A3 -i 'packages found' "$log" || true
    fi
    say "building preset $preset"
    cmake --build --preset "$preset" || die "build of preset $preset failed"
}
