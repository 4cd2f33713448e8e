#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. What frame pointers (SERVELAB_FRAME_POINTERS,
# on by default) cost the built-in servers: the same modes from two release builds, one with and
# one without, served pinned to cpu0 and loaded by wrk on cpu1 (4 KiB, keep-alive, -t1 -c64),
# runs interleaved so that drift hits both alike; nginx (1 worker) in the same run as the yardstick.
#
#   tests/bench/frame_pointer_cost.sh WITH_BUILD WITHOUT_BUILD [SECONDS] [RUNS]
#   e.g. cmake -B build/release-nofp -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
#          -DSERVELAB_FRAME_POINTERS=OFF && cmake --build build/release-nofp
#        tests/bench/frame_pointer_cost.sh build/release build/release-nofp 3 5
# Each figure is the median of RUNS runs of SECONDS each.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
with=${1:?the build with frame pointers}
without=${2:?the build without}
seconds=${3:-3}
runs=${4:-5}
cli=$with/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start frame_pointer_cost nginx wrk curl taskset "$cli" "$without/bin/servelab-cli"
bench_files 4K
bench_nginx nginx 19480 ""

port=19481
declare -A url
for mode in ${MODES:-epoll+copy epoll+sendfile}; do
    for build in with without; do
        dir=$with; [ $build = without ] && dir=$without
        taskset -c 0 "$dir/bin/servelab-cli" serve --root "$work/root" --port $port --mode "$mode" \
            --max-requests 0 --threads 1 >/dev/null &
        pids+=($!)
        bench_wait_http $port "$mode ($build)" /dev/null
        url["$mode $build"]=http://127.0.0.1:$port
        port=$((port + 1))
    done
done

wrk_rps() { taskset -c 1 wrk -t1 -c64 -d"${seconds}s" "$1/4K.bin" | awk '/Requests\/sec/ { print $2 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A samples
for _ in $(seq "$runs"); do
    samples[nginx]+="$(wrk_rps http://127.0.0.1:19480) "
    for name in "${!url[@]}"; do samples[$name]+="$(wrk_rps "${url[$name]}") "; done
done
nginx=$(tr ' ' '\n' <<<"${samples[nginx]}" | grep . | median)
printf '%-16s %14s %14s %12s %14s\n' mode "with fp req/s" "without req/s" "with/without" "with/nginx"
for mode in ${MODES:-epoll+copy epoll+sendfile}; do
    a=$(tr ' ' '\n' <<<"${samples[$mode with]}" | grep . | median)
    b=$(tr ' ' '\n' <<<"${samples[$mode without]}" | grep . | median)
    awk -v m="$mode" -v a="$a" -v b="$b" -v n="$nginx" \
        'BEGIN { printf "%-16s %14.0f %14.0f %12.3f %14.3f\n", m, a, b, a / b, a / n }'
done
echo "nginx (1 worker, sendfile): $nginx req/s"
