#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. HTTP/2 (h2c, prior knowledge) from the built-in
# servers (epoll with sendfile, copy and mmap, --http2 on; mmap with --open-file-cache too)
# against h2o (which keeps files open by default) and nginx (`listen ... http2`, with and
# without open_file_cache) and nghttpd (libnghttp2's own server: the same framing library as
# ServeLab's), each with one worker on cpu0, loaded by h2load on cpu1; interleaved runs, medians.
# For each server: req/s, and the server's CPU (utime+stime of its process, all threads) per
# request at 4K (h2load -c16 -m10) and per MiB at 1M (-c4 -m4). Prints the issue's two ratios:
#   4K server CPU per request, best built-in / best of h2o and nginx   (target <= 0.8)
#   1M server CPU per MiB, epoll+sendfile / epoll+copy                  (target < 1)
#
#   tests/bench/compare_h2.sh [BUILD_DIR] [SECONDS] [RUNS]   (default: build/release, 5, 3)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
seconds=${2:-5}
runs=${3:-3}
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_h2 nginx h2o nghttpd h2load curl taskset getconf "$cli"
bench_files 4K,1M
ticks=$(getconf CLK_TCK)

serve() { # NAME PORT MODE [FLAGS...]
    local name=$1 port=$2 mode=$3
    shift 3
    bench_servelab "$name" "$port" "$mode" --http2 on "$@"
}
serve sendfile 19451 epoll+sendfile
serve copy 19452 epoll+copy
serve mmap 19453 epoll+mmap
# With files kept open: h2o keeps them by default (its filecache), nginx with open_file_cache.
serve mmap-ofc 19456 epoll+mmap --open-file-cache 1000
bench_h2o h2o 19454
BENCH_NGINX_LISTEN=http2 bench_nginx nginx 19455 "http2_max_concurrent_streams 128;"
BENCH_NGINX_LISTEN=http2 bench_nginx nginx-ofc 19457 "http2_max_concurrent_streams 128;
       open_file_cache max=1000 inactive=60s; open_file_cache_valid 60s;"
bench_nghttpd nghttpd 19458
declare -A port=([sendfile]=19451 [copy]=19452 [mmap]=19453 [mmap-ofc]=19456 [h2o]=19454
    [nginx]=19455 [nginx-ofc]=19457 [nghttpd]=19458)
servers=(sendfile copy mmap mmap-ofc h2o nginx nginx-ofc nghttpd)

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure NAME FILE FLAGS... -> "req/s cpu_seconds_per_request"
measure() {
    local name=$1 file=$2 pid before after out done_
    shift 2
    pid=$(bench_serving_pid "$name")
    before=$(cpu_ticks "$pid")
    out=$(taskset -c 1 h2load -D "$seconds" "$@" "http://127.0.0.1:${port[$name]}/$file" 2>&1)
    after=$(cpu_ticks "$pid")
    done_=$(sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' <<<"$out")
    [[ -n $done_ && $done_ -gt 0 ]] || { echo "h2load on $name $file: $(tail -2 <<<"$out")" >&2; echo "0 0"; return; }
    awk -v r="$done_" -v s="$seconds" -v t=$((after - before)) -v hz="$ticks" \
        'BEGIN { printf "%.1f %.9f\n", r / s, t / hz / r }'
}

declare -A rps4 cpu4 rps1 cpu1
for ((run = 1; run <= runs; run++)); do
    for s in "${servers[@]}"; do
        read -r r c < <(measure "$s" 4K.bin -c 16 -m 10)
        rps4[$s]+="$r "
        cpu4[$s]+="$c "
        read -r r c < <(measure "$s" 1M.bin -c 4 -m 4)
        rps1[$s]+="$r "
        cpu1[$s]+="$c "
    done
done

med() { tr ' ' '\n' <<<"$1" | grep . | median; }
echo "h2c, h2load on cpu1, servers on cpu0, ${seconds}s x $runs runs, medians (git $(git -C "$src" rev-parse --short HEAD))"
printf '  %-9s %12s %16s %12s %16s\n' server "4K req/s" "4K CPU us/req" "1M req/s" "1M CPU ms/MiB"
declare -A c4 c1
for s in "${servers[@]}"; do
    c4[$s]=$(med "${cpu4[$s]}")
    c1[$s]=$(med "${cpu1[$s]}")
    printf '  %-9s %12s %16.2f %12s %16.3f\n' "$s" "$(med "${rps4[$s]}")" \
        "$(awk -v c="${c4[$s]}" 'BEGIN { print c * 1e6 }')" "$(med "${rps1[$s]}")" \
        "$(awk -v c="${c1[$s]}" 'BEGIN { print c * 1e3 * 1048576 / 1048576 }')"
done
best_builtin=$(printf '%s\n' "${c4[sendfile]}" "${c4[copy]}" "${c4[mmap]}" "${c4[mmap-ofc]}" | sort -g | head -1)
best_peer=$(printf '%s\n' "${c4[h2o]}" "${c4[nginx]}" "${c4[nginx-ofc]}" "${c4[nghttpd]}" | sort -g | head -1)
awk -v a="$best_builtin" -v b="$best_peer" 'BEGIN { printf "4K CPU per request, best built-in / best peer: %.3f (target <= 0.8)\n", a / b }'
awk -v a="$best_builtin" -v b="${c4[nghttpd]}" 'BEGIN { printf "4K CPU per request, best built-in / nghttpd (the same libnghttp2): %.3f\n", a / b }'
awk -v a="${c1[sendfile]}" -v b="${c1[copy]}" 'BEGIN { printf "1M CPU per MiB, sendfile / copy: %.3f (target < 1)\n", a / b }'
