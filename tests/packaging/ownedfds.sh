#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every file descriptor outside core/os/ is held by an os::UniqueFd: no close() call is written
# anywhere else in core, cli, ui and app, so that no early return or error path can leak one.
# Names each call and what to use instead.
#   ownedfds.sh SOURCE_DIR
set -uo pipefail
src=$1
calls=$(cd "$src" && grep -rnE '(^|[^A-Za-z0-9_.>])(::)?close\([^)]' core cli ui app \
    --include='*.cpp' --include='*.h' | grep -v '^core/os/')
if [ -n "$calls" ]; then
    printf '%s\n' "$calls"
    echo "close() outside core/os/: hold the descriptor in an os::UniqueFd (core/os/uniquefd.h)"
    exit 1
fi
echo "no close() outside core/os/: every descriptor is an os::UniqueFd"
