#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every fuzzer for SECONDS (default 60) from the seed corpora (the conformance table, a few
# responses, the presets), with the HTTP dictionary. Corpora grow in BUILD/corpus between runs;
# a crash is kept in BUILD/crashes and fails the run (each one becomes a regression test, and
# its input goes to tests/fuzz/regressions/NAME, which every run replays).
#
#   tests/fuzz/run.sh [BUILD_DIR] [SECONDS]   (default: build/fuzz, 60)
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/fuzz}
seconds=${2:-60}
bin=$build/bin/fuzz
"$bin/conformance_corpus" "$src" "$build/seeds" || exit 1
mkdir -p "$build/crashes"
failed=0
for target in requestparser:request connection:request h2connection:h2 responseparser:response \
    experimentspec:spec chunkeddecoder:chunked; do
    name=${target%%:*}
    seeds=${target##*:}
    corpus=$build/corpus/$name
    mkdir -p "$corpus"
    dict=()
    case $seeds in
    request | response | chunked) dict=(-dict="$src/tests/fuzz/http.dict") ;;
    esac
    log=$build/fuzz_$name.log
    if [ ! -x "$bin/fuzz_$name" ]; then
        echo "$name: $bin/fuzz_$name is not built: add it to the list in tests/fuzz/CMakeLists.txt" \
            "and build the fuzz preset (cmake --build --preset fuzz)" >&2
        failed=1
        continue
    fi
    # Inputs that once crashed a fuzzer (tests/fuzz/regressions/NAME) run first, every time.
    regressions=()
    [ -d "$src/tests/fuzz/regressions/$name" ] && regressions=("$src/tests/fuzz/regressions/$name")
    "$bin/fuzz_$name" "$corpus" "$build/seeds/$seeds" "${regressions[@]}" "${dict[@]}" \
        -max_total_time="$seconds" \
        -print_final_stats=1 -artifact_prefix="$build/crashes/$name-" -timeout=10 \
        -rss_limit_mb=2048 >"$log" 2>&1
    status=$?
    runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    printf '%-16s %10s executions in %ss, %s, corpus %s files%s\n' "$name" "${runs:-?}" \
        "$seconds" "${cov:-cov: ?}" "$(ls "$corpus" | wc -l)" "$([ $status = 0 ] || echo ' — FAILED, see '"$log")"
    [ $status = 0 ] || failed=1
done
exit $failed
