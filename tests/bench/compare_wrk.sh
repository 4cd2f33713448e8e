#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. Server pinned to cpu0, wrk to cpu1, as in
# ../../../shared/docs/field-notes.md. For each built-in mode, with and without the open-file
# cache, and for nginx (1 worker, same files) with and without open_file_cache:
#   4 KiB, keep-alive, wrk -t1 -c64   -> req/s
#   1 MiB, keep-alive, wrk -t1 -c8    -> transfer/s
# then the ratios ServeLab / nginx (like with like, and each against nginx's best).
#
#   tests/bench/compare_wrk.sh [BUILD_DIR] [SECONDS] [RUNS]   (default: build/release, 3, 3)
# Each figure is the median of RUNS runs of SECONDS each. MODES="epoll+copy poller+copy" limits
# the built-in modes measured. The blocking model gets 64 threads (one per wrk connection, as a
# BIO connector's maxThreads 200 would cover): with fewer, kept-alive connections wait their turn.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
seconds=${2:-3}
runs=${3:-3}
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_wrk nginx wrk curl taskset "$cli"
bench_files 4K,1M
bench_nginx nginx 19280 ""
bench_nginx nginx-cache 19281 "open_file_cache max=1000 inactive=20s; open_file_cache_valid 1s;"

port=19300
declare -A url
for mode in ${MODES:-$("$cli" modes)}; do
    threads=1
    [[ $mode == blocking+* ]] && threads=64
    for cache in 0 1000; do
        taskset -c 0 "$cli" serve --root "$work/root" --port $port --mode "$mode" --max-requests 0 \
            --threads $threads --open-file-cache $cache >/dev/null &
        pids+=($!)
        name=$mode; [ $cache != 0 ] && name="$mode cache"
        url[$name]=http://127.0.0.1:$port
        port=$((port + 1))
    done
done
url[nginx]=http://127.0.0.1:19280
url["nginx cache"]=http://127.0.0.1:19281
sleep 0.5

wrk_once() { # url path connections field
    taskset -c 1 wrk -t1 -c"$3" -d"${seconds}s" "$1$2" | awk -v f="$4" '
        f == "req" && /Requests\/sec/ { print $2 }
        f == "bytes" && /Transfer\/sec/ { v = $2; u = substr(v, length(v) - 1); n = v + 0;
            if (u == "GB") n *= 1024; else if (u == "KB") n /= 1024; print n }'
}
wrk_figure() { # the median of $runs runs
    for _ in $(seq "$runs"); do wrk_once "$@"; done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
declare -A rps mbps
printf '%-22s %12s %14s\n' target "4K req/s" "1M MiB/s"
for name in nginx "nginx cache" $(printf '%s\n' "${!url[@]}" | grep '+' | sort | tr ' ' '~'); do
    name=${name//\~/ }
    rps[$name]=$(wrk_figure "${url[$name]}" /4K.bin 64 req)
    mbps[$name]=$(wrk_figure "${url[$name]}" /1M.bin 8 bytes)
    printf '%-22s %12s %14s\n' "$name" "${rps[$name]}" "${mbps[$name]}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
best_rps=$(printf '%s\n' "${rps[nginx]}" "${rps[nginx cache]}" | sort -g | tail -1)
best_mbps=$(printf '%s\n' "${mbps[nginx]}" "${mbps[nginx cache]}" | sort -g | tail -1)
echo
printf '%-22s %14s %14s %14s %14s\n' "ratio to nginx" "4K like-for-like" "4K vs best" "1M like" "1M vs best"
for name in $(printf '%s\n' "${!url[@]}" | grep '+' | sort | tr ' ' '~'); do
    name=${name//\~/ }
    peer=nginx; [[ $name == *cache ]] && peer="nginx cache"
    printf '%-22s %14s %14s %14s %14s\n' "$name" "$(ratio "${rps[$name]}" "${rps[$peer]}")" \
        "$(ratio "${rps[$name]}" "$best_rps")" "$(ratio "${mbps[$name]}" "${mbps[$peer]}")" \
        "$(ratio "${mbps[$name]}" "$best_mbps")"
done
