#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: the issue's GUI load for real — 6 targets × 14 sizes (4K..32M) with
# 6 s of load each (about 10 minutes) run in the window on the offscreen platform, a 10 ms
# heartbeat on the GUI thread. Prints the worst gap and RSS every 30 s and at the end.
#
#   tests/bench/gui_long_run.sh [BUILD_DIR] [SPEC] [TAB] [--no-raise]
#                                (default: build/release, long-run-14x6.json, fds)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
spec=${2:-$src/tests/bench/long-run-14x6.json}
tab=${3:-fds}
shift 3 2>/dev/null || shift $#
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
XDG_CACHE_HOME=$HOME/.cache XDG_CONFIG_HOME=$scratch XDG_DATA_HOME=$scratch \
    QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} SERVELAB_CLI=$build/bin/servelab-cli \
    "$build/bin/bench/gui_responsiveness" "$spec" --db "$scratch/results.db" --tab "$tab" "$@"
