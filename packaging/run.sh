#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets ServeLab up on this machine (installs the Debian packages it lacks, configures and builds
# the release preset) and runs the default experiment, the `strategies` preset: the strategies
# side by side as the seeds' table set them (thread per connection with copy, the poller with copy
# and with sendfile, the event loop with sendfile, and nginx, installed if missing), ab -c 1
# -n 1000 over 4K..16M, about a minute. With a display it opens the window with the experiment
# loaded and running; without one, or with --headless, it runs it with servelab-cli and prints
# the table.
# Other arguments go to the program (servelab --help, servelab-cli run --help).
#
#   packaging/run.sh                     the window (or the table, without a display)
#   packaging/run.sh --headless          the table
#   packaging/run.sh --headless --smoke  the same in a few seconds
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

headless=0
args=()
for arg in "$@"; do
    case $arg in
    --headless) headless=1 ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$arg") ;;
    esac
done
[ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && headless=1

ensure_packages build host run >&2
build_preset release >&2 || exit 1
bin=$SERVELAB_SRC/build/release/bin
if [ $headless = 1 ]; then
    exec "$bin/servelab-cli" run strategies "${args[@]}"
fi
exec "$bin/servelab" --spec strategies --run "${args[@]}"
