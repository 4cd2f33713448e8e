#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# packaging/test.sh --package: builds the release preset, makes the Debian package with CPack
# (dependencies computed by dpkg-shlibdeps), installs it with `apt install ./servelab_*.deb` in a
# clean Debian 12 chroot — a fresh copy of a debootstrap minbase kept as a tarball under the
# cache, thrown away afterwards — and runs both programs from there: --version, a real sweep
# on loopback, the window offscreen writing a chart, the man page and the desktop files.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/chroot.sh"

build_preset release
say "building the Debian package (cpack)"
package_dir=$SERVELAB_SRC/build/release/package
rm -rf "$package_dir"
(cd "$SERVELAB_SRC/build/release" && cpack -G DEB -B "$package_dir" >"$package_dir.log" 2>&1) ||
    { cat "$package_dir.log"; die "cpack failed (log: $package_dir.log)"; }
deb=$(ls "$package_dir"/servelab_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || die "cpack wrote no servelab_*.deb into $package_dir"
say "built $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"

base=$SERVELAB_CACHE/debian12-minbase.tar
if [ ! -f "$base" ]; then
    say "creating a clean Debian 12 (debootstrap minbase) in $base (once)"
    mkdir -p "$SERVELAB_CACHE"
    fresh=$(mktemp -d "${TMPDIR:-/var/tmp}/servelab-bookworm.XXXXXX")
    as_root debootstrap --variant=minbase bookworm "$fresh" "$(debian_mirror)" >"$SERVELAB_CACHE/debootstrap12.log" 2>&1 ||
        { as_root rm -rf "$fresh"; tail -20 "$SERVELAB_CACHE/debootstrap12.log"; die "debootstrap of Debian 12 failed"; }
    as_root tar -C "$fresh" -cf "$base.partial" . && mv "$base.partial" "$base"
    as_root rm -rf "$fresh"
fi

root=$(mktemp -d "${TMPDIR:-/var/tmp}/servelab-package.XXXXXX")
trap 'as_root rm -rf "$root"' EXIT
as_root tar -C "$root" -xf "$base" || die "cannot unpack $base"
as_root cp "$deb" "$root/tmp/"
as_root cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

say "installing $(basename "$deb") with apt in the clean chroot, and running it there"
in_chroot "$root" "" "
    set -e
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb") >/var/log/servelab-install.log 2>&1 ||
        { tail -30 /var/log/servelab-install.log; exit 1; }
    echo \"installed: \$(dpkg-query -W -f='\${Package} \${Version}, \${Installed-Size} KiB' servelab)\"
    servelab-cli --version
    servelab-cli modes 2>/dev/null | tr '\n' ' '; echo
    cd /tmp
    mkdir -m 700 /tmp/runtime
    servelab-cli sweep --sizes 4K,1M -n 50 --no-db
    QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime servelab --sizes 4K,64K -n 20 --export-png /tmp/throughput.png
    test -s /tmp/throughput.png && echo 'servelab wrote a chart offscreen'
    QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime servelab --version | head -1
    for f in /usr/share/man/man1/servelab-cli.1.gz /usr/share/applications/io.github.servelab.ServeLab.desktop \
             /usr/share/metainfo/io.github.servelab.ServeLab.metainfo.xml \
             /usr/share/icons/hicolor/scalable/apps/io.github.servelab.ServeLab.svg \
             /usr/share/icons/hicolor/48x48/apps/io.github.servelab.ServeLab.png; do
        test -f \$f || { echo \"missing: \$f\"; exit 1; }
    done
    echo 'man page, desktop entry, metainfo and icons in place'
    apt-get remove -y -q servelab >/dev/null
    test ! -e /usr/bin/servelab-cli && test ! -e /usr/share/applications/io.github.servelab.ServeLab.desktop
    echo 'removed cleanly'
" || die "the package did not install or run in a clean Debian 12"
say "the package installs and runs in a clean Debian 12"
