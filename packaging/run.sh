#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets ServeLab up on this machine (installs the Debian packages it lacks, configures and builds
# the release preset) and runs the default experiment: with a display it opens the window with
# the experiment loaded; without one, or with --headless, it runs the sweep with servelab-cli and
# prints the table. Other arguments go to the program (servelab --help, servelab-cli sweep --help).
#
#   packaging/run.sh                     the window (or the table, without a display)
#   packaging/run.sh --headless          the table: 4K..32M, ab -c 1 -n 200
#   packaging/run.sh --headless --sizes 4K,64K,1M -n 500
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

headless=0
args=()
for arg in "$@"; do
    case $arg in
    --headless) headless=1 ;;
    -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$arg") ;;
    esac
done
[ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && headless=1

ensure_packages build host >&2
build_preset release >&2 || exit 1
bin=$SERVELAB_SRC/build/release/bin
if [ $headless = 1 ]; then
    exec "$bin/servelab-cli" sweep "${args[@]}"
fi
exec "$bin/servelab" "${args[@]}"
