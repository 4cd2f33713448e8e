#!/usr/bin/env bash
# Builds ServeLab and runs the whole test suite with ctest: first on this machine (Debian 12,
# Qt 6.4), then again inside a Debian 13 chroot (Qt 6.8, KF6 SyntaxHighlighting found), so both
# stay green. Installs what is missing, reuses everything it built before.
#
#   packaging/test.sh                 both legs (what CI runs)
#   packaging/test.sh --no-debian13   this machine only (a quick local loop)
#   packaging/test.sh --debian13-only the chroot leg only
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

host=1
debian13=1
for arg in "$@"; do
    case $arg in
    --no-debian13) debian13=0 ;;
    --debian13-only) host=0 ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'packaging/test.sh: unknown option %s (see --help)\n' "$arg" >&2; exit 2 ;;
    esac
done

failed=0

if [ $host = 1 ]; then
    ensure_packages build host test
    build_preset dev
    say "testing on $(. /etc/os-release; echo "$PRETTY_NAME"), Qt $(qtpaths6 --qt-version 2>/dev/null || echo 6)"
    (cd "$SERVELAB_SRC" && ctest --preset dev) || failed=1
fi

if [ $debian13 = 1 ]; then
    ensure_packages test
    "$SERVELAB_SRC/packaging/debian13.sh" || failed=1
fi

if [ $failed = 0 ]; then
    say "all test legs passed"
else
    say "FAILED: see the ctest output above"
fi
exit $failed
