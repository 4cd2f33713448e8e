#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds ServeLab and runs the whole test suite with ctest, in four legs, and prints how long
# each took. Installs what is missing, reuses everything it built before (build/<preset>, ccache
# and the chroot under $SERVELAB_CACHE, default ~/.cache/servelab).
#
#   dev       this machine (Debian 12, Qt 6.4): build/dev, every test but the soaks
#   asan      the same tests built with AddressSanitizer and UndefinedBehaviorSanitizer
#   tsan      the engine's tests (label engine: servers, clients, runner, sampler) built with
#             ThreadSanitizer
#   debian13  a Debian 13 chroot (Qt 6.8, KF6 SyntaxHighlighting, GCC 14): builds everything,
#             runs the tests labelled debian13 (tests/CMakeLists.txt says which and why)
#
#   packaging/test.sh                   every leg (what CI runs)
#   packaging/test.sh --leg NAME        that leg alone (repeat for several: --leg dev --leg tsan)
#   packaging/test.sh --no-debian13     this machine only
#   packaging/test.sh --no-sanitizers   without the asan and tsan legs (a quick local loop)
#   packaging/test.sh --debian13-only   the chroot leg only (as --leg debian13)
#   packaging/test.sh --fuzz [SECONDS]  only the fuzzers (clang, libFuzzer), SECONDS each (60)
#   packaging/test.sh --soak            only the soaks (label soak, ~20 min): fd exhaustion and
#                                       slowloris against every mode, 1,000 points, 20 kill -9s
#   packaging/test.sh --package         only the .deb: built with CPack, installed with apt in a
#                                       clean Debian 12 chroot and run there
# Timings and what each leg costs: docs/testing.md.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

legs="dev asan tsan debian13"
chosen=""
fuzz=0
fuzz_seconds=60
soak=0
package=0
drop() { legs=" $legs "; for leg in "$@"; do legs=${legs// $leg / }; done; }
while [ $# -gt 0 ]; do
    case $1 in
    --fuzz) fuzz=1 legs="" ;;
    --soak) soak=1 legs="" ;;
    --package) package=1 legs="" ;;
    [0-9]*) fuzz_seconds=$1 ;;
    --leg)
        case ${2:-} in
        dev | asan | tsan | debian13) chosen="$chosen $2" ;;
        *) printf 'packaging/test.sh: --leg takes dev, asan, tsan or debian13, not "%s"\n' "${2:-}" >&2; exit 2 ;;
        esac
        shift ;;
    --no-debian13) drop debian13 ;;
    --no-sanitizers) drop asan tsan ;;
    --debian13-only) chosen="$chosen debian13" ;;
    -h | --help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) printf 'packaging/test.sh: unknown option %s (see --help)\n' "$1" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$chosen" ] && legs=$chosen

failed=0
timings=()
# leg NAME: whether NAME is one of the legs to run.
leg() { case " $legs " in *" $1 "*) return 0 ;; esac; return 1; }
# timed LABEL COMMAND...: runs it, keeps its wall time for the summary; a failure fails the run.
timed() {
    local label=$1 start=$SECONDS
    shift
    "$@" || failed=1
    timings+=("$(printf '%-26s %4d s' "$label" $((SECONDS - start)))")
}
test_preset() { (cd "$SERVELAB_SRC" && ctest --preset "$1"); }

if leg dev || leg asan || leg tsan; then
    ensure_packages build host test
fi
if leg dev; then
    timed "dev: build" build_preset dev
    say "testing on $(. /etc/os-release; echo "$PRETTY_NAME"), Qt $(qtpaths6 --qt-version 2>/dev/null || echo 6)"
    timed "dev: tests" test_preset dev
fi
if leg asan; then
    timed "asan: build" build_preset asan
    say "testing with AddressSanitizer and UndefinedBehaviorSanitizer"
    timed "asan: tests" test_preset asan
fi
if leg tsan; then
    timed "tsan: build" build_preset tsan
    say "testing the engine with ThreadSanitizer (suppressions: tests/tsan.supp)"
    timed "tsan: tests" test_preset tsan
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

if leg debian13; then
    ensure_packages test
    timed "debian13: build and tests" "$SERVELAB_SRC/packaging/debian13.sh"
fi

if [ ${#timings[@]} -gt 0 ]; then
    say "time per leg"
    printf '   %s\n' "${timings[@]}"
fi

if [ $failed = 0 ]; then
    say "all test legs passed"
else
    say "FAILED: see the ctest output above"
fi
exit $failed
