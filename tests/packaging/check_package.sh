#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The installed layout and its validators, run by ctest (tests/packaging/CMakeLists.txt):
#   check_package.sh install|desktop|appstream|manpage BUILD_DIR
# install: `cmake --install` into a scratch DESTDIR puts every file where a desktop expects it.
# desktop, appstream, manpage: desktop-file-validate, appstreamcli validate and groff's warnings
# on what was installed. Exit 77 (ctest: skipped) only when a validator is not on this machine.
set -uo pipefail
what=$1
build=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
id=io.github.servelab.ServeLab
if ! log=$(DESTDIR="$dest" cmake --install "$build" --prefix /usr 2>&1); then
    echo "$log"
    echo "cmake --install failed"
    exit 1
fi
share=$dest/usr/share

need() { command -v "$1" >/dev/null || { echo "$1 is not installed here: skipped"; exit 77; }; }

case $what in
install)
    missing=0
    for file in usr/bin/servelab usr/bin/servelab-cli \
        usr/share/applications/$id.desktop usr/share/metainfo/$id.metainfo.xml \
        usr/share/icons/hicolor/scalable/apps/$id.svg usr/share/man/man1/servelab-cli.1.gz \
        usr/share/doc/servelab/copyright; do
        [ -f "$dest/$file" ] || { echo "not installed: /$file"; missing=1; }
    done
    for size in 16 24 32 48 64 128 256; do
        png=$share/icons/hicolor/${size}x$size/apps/$id.png
        [ -f "$png" ] || { echo "not installed: ${png#$dest}"; missing=1; continue; }
        # The PNG of each folder is that size (PNG header: width and height at bytes 16..23).
        got=$(od -An -tu1 -j16 -N8 "$png" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }')
        [ "$got" = "${size}x$size" ] || { echo "${png#$dest} is $got, not ${size}x$size"; missing=1; }
    done
    # The desktop entry's Icon and the metainfo's launchable name what was installed.
    grep -qx "Icon=$id" "$share/applications/$id.desktop" || { echo "Icon= is not $id"; missing=1; }
    grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$share/metainfo/$id.metainfo.xml" ||
        { echo "the metainfo does not launch $id.desktop"; missing=1; }
    "$dest/usr/bin/servelab-cli" --version | head -1 | grep -q '^servelab-cli ' ||
        { echo "the installed servelab-cli does not run"; missing=1; }
    [ $missing = 0 ] && echo "installed: $(find "$dest" -type f | wc -l) files"
    exit $missing ;;
desktop)
    need desktop-file-validate
    desktop-file-validate "$share/applications/$id.desktop" && echo "desktop entry valid" ;;
appstream)
    need appstreamcli
    appstreamcli validate --no-net "$share/metainfo/$id.metainfo.xml" ;;
manpage)
    need groff
    warnings=$(zcat "$share/man/man1/servelab-cli.1.gz" | groff -man -ww -z 2>&1)
    [ -z "$warnings" ] || { echo "$warnings"; exit 1; }
    # Every command of `servelab-cli --help` has its section, every option of each its entry.
    cli=$dest/usr/bin/servelab-cli
    page=$(zcat "$share/man/man1/servelab-cli.1.gz")
    status=0
    for command in $("$cli" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
        grep -q "^\.SS \"$command\"" <<<"$page" || { echo "no section for $command"; status=1; }
        for option in $("$cli" "$command" --help 2>/dev/null | grep -o '^  \(-[a-zA-Z0-9], \)\?--\?[a-zA-Z0-9.-]*' | awk '{ print $NF }'); do
            case $option in --help | --help-all | -h) continue ;; esac
            grep -qF ".B ${option//-/\\-}" <<<"$page" || { echo "$command $option is not in the man page"; status=1; }
        done
    done
    [ $status = 0 ] && echo "man page: no troff warnings, every command and option"
    exit $status ;;
*) echo "unknown check $what"; exit 2 ;;
esac
