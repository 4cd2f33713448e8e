#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds ServeLab and runs the whole test suite with ctest: on this machine (Debian 12, Qt 6.4),
# then the same suite built with AddressSanitizer and UndefinedBehaviorSanitizer, then the
# engine's tests (servers, clients, runner, sampler) built with ThreadSanitizer, then the suite
# inside a Debian 13 chroot (Qt 6.8, KF6 SyntaxHighlighting found), so all stay green. Installs
# what is missing, reuses everything it built before.
#
#   packaging/test.sh                   every leg (what CI runs)
#   packaging/test.sh --no-debian13     this machine only
#   packaging/test.sh --no-sanitizers   without the asan and tsan legs (a quick local loop)
#   packaging/test.sh --debian13-only   the chroot leg only
#   packaging/test.sh --fuzz [SECONDS]  only the fuzzers (clang, libFuzzer), SECONDS each (60)
#   packaging/test.sh --soak            only the soaks (label soak, ~20 min): fd exhaustion and
#                                       slowloris against every mode, 1,000 points, 20 kill -9s
#   packaging/test.sh --package         only the .deb: built with CPack, installed with apt in a
#                                       clean Debian 12 chroot and run there
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

host=1
debian13=1
sanitizers=1
fuzz=0
fuzz_seconds=60
soak=0
package=0
for arg in "$@"; do
    case $arg in
    --fuzz) fuzz=1 host=0 debian13=0 ;;
    --soak) soak=1 host=0 debian13=0 ;;
    --package) package=1 host=0 debian13=0 ;;
    [0-9]*) fuzz_seconds=$arg ;;
    --no-debian13) debian13=0 ;;
    --no-sanitizers) sanitizers=0 ;;
    --debian13-only) host=0 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'packaging/test.sh: unknown option %s (see --help)\n' "$arg" >&2; exit 2 ;;
    esac
done

failed=0

if [ $host = 1 ]; then
    ensure_packages build host test
    build_preset dev
    say "testing on $(. /etc/os-release; echo "$PRETTY_NAME"), Qt $(qtpaths6 --qt-version 2>/dev/null || echo 6)"
    (cd "$SERVELAB_SRC" && ctest --preset dev) || failed=1
    if [ $sanitizers = 1 ]; then
        build_preset asan
        say "testing with AddressSanitizer and UndefinedBehaviorSanitizer"
        (cd "$SERVELAB_SRC" && ctest --preset asan) || failed=1
        build_preset tsan
        say "testing the engine with ThreadSanitizer (suppressions: tests/tsan.supp)"
        (cd "$SERVELAB_SRC" && ctest --preset tsan) || failed=1
    fi
fi

if [ $soak = 1 ]; then
    ensure_packages build host test
    build_preset dev
    say "soaking (ctest label soak; each prints its figures: ctest --preset soak -V)"
    (cd "$SERVELAB_SRC" && ctest --preset soak) || failed=1
fi

if [ $package = 1 ]; then
    ensure_packages build host test
    "$SERVELAB_SRC/packaging/package-test.sh" || failed=1
fi

if [ $fuzz = 1 ]; then
    ensure_packages build host fuzz
    build_preset fuzz
    say "fuzzing, $fuzz_seconds s per fuzzer (corpora kept in build/fuzz/corpus)"
    "$SERVELAB_SRC/tests/fuzz/run.sh" "$SERVELAB_SRC/build/fuzz" "$fuzz_seconds" || failed=1
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
