#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. Serves the same generated files with nginx and
# `servelab-cli serve` (both pinned to cpu0) and loads each with ab and `servelab-cli load`
# (pinned to cpu1), ab -c 1 as in the seeds. Prints KiB/s, ab's CPU use, and ratios:
#   as ab   = servelab load --http1.0 --ab-reads / ab: the same requests read the same way
#             (8 KiB per recv(), one recv() per wake-up); the target is 0.95 .. 1.05
#   default = servelab load / ab: ServeLab's own reads (256 KiB, drained per wake-up). Where
#             ab's CPU is near 100 %, ab measures itself, and this ratio is how much more the
#             server gives a client that is not the bottleneck
#   server  = servelab serve / nginx, both under ab
#
#   tests/bench/compare_ab.sh [BUILD_DIR] [SIZES...]  (default: build/release, 4K 32K 256K 2M 32M)
# Needs nginx and ab (apache2-utils); both are bound to 127.0.0.1 and stopped on exit.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
shift || true
sizes=("${@:-4K}")
[ $# = 0 ] && sizes=(4K 32K 256K 2M 32M)
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_ab nginx ab curl taskset "$cli"
bench_files "$(IFS=,; echo "${sizes[*]}")"
bench_nginx nginx 18282 ""
taskset -c 0 "$cli" serve --root "$work/root" --port 18181 >/dev/null &
pids+=($!)
sleep 0.5

rate() { awk '/Transfer rate/ { print $3 }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.3f", x / y }'; }
# The median of three runs: one noisy run on this two-core machine says little.
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# ab's KiB/s, and its CPU time (user + sys) over its wall time, in %.
ab_run() {
    local out times
    out=$( { TIMEFORMAT='%3U %3S %3R'; time taskset -c 1 ab -q -n "$2" -c 1 "$1" >"$work/ab.out" 2>&1; } 2>&1 )
    times=($out)
    printf '%s %s\n' "$(rate <"$work/ab.out")" \
        "$(awk -v u="${times[0]}" -v s="${times[1]}" -v r="${times[2]}" 'BEGIN { printf "%.0f", 100 * (u + s) / r }')"
}
echo "median of 3 runs each; ab -c 1 and servelab-cli load -c 1, no keep-alive, KiB/s"
printf '%-5s %-8s %12s %6s %14s %7s %5s %14s %7s\n' size server ab "ab CPU" "servelab as ab" "as ab" ok servelab default
declare -A abRate
for size in "${sizes[@]}"; do
    # Enough requests for a run of about a second or more: shorter runs are mostly noise.
    case $size in
    *M) n=$((2048 / ${size%M})); [ $n -lt 60 ] && n=60 ;;
    *K) n=$((1048576 / ${size%K} / 2)); [ $n -gt 5000 ] && n=5000; [ $n -lt 1000 ] && n=1000 ;;
    *) n=2000 ;;
    esac
    for server in servelab:18181 nginx:18282; do
        url=http://127.0.0.1:${server#*:}/$size.bin
        as=() cpus=() likes=() ss=()
        for _ in 1 2 3; do
            read -r a cpu < <(ab_run "$url" $n)
            as+=("$a") cpus+=("$cpu")
            likes+=("$(taskset -c 1 "$cli" load --http1.0 --ab-reads -n $n -c 1 "$url" | rate)")
            ss+=("$(taskset -c 1 "$cli" load -n $n -c 1 "$url" | rate)")
        done
        a=$(median3 "${as[@]}")
        like=$(median3 "${likes[@]}")
        s=$(median3 "${ss[@]}")
        abRate[$size.${server%:*}]=$a
        r=$(ratio "$like" "$a")
        ok=$(awk -v r="$r" 'BEGIN { print (r >= 0.95 && r <= 1.05) ? "yes" : "NO" }')
        printf '%-5s %-8s %12s %5s%% %14s %7s %5s %14s %7s\n' "$size" "${server%:*}" "$a" \
            "$(median3 "${cpus[@]}")" "$like" "$r" "$ok" "$s" "$(ratio "$s" "$a")"
    done
done
echo
printf '%-6s %s\n' size "server ratio (servelab serve / nginx, both under ab -c 1)"
for size in "${sizes[@]}"; do
    printf '%-6s %s\n' "$size" "$(ratio "${abRate[$size.servelab]}" "${abRate[$size.nginx]}")"
done
