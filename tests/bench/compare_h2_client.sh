#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. The HTTP/2 client (load --http2, duration
# model) against h2load on the same nginx over h2c (`listen ... http2`, 1 worker on cpu0;
# clients on cpu1, one thread each): 4K at -c16 -m10 and 1M at -c4 -m4. Prints each client's
# req/s, CPU time per request (user + system of the client process) and nginx's CPU per request
# under it, and the ratios servelab / h2load. Targets (issue 43): req/s within 3 %, client CPU
# per request <= h2load's. nginx is the bottleneck at 4K: its CPU per request says whether a
# req/s gap is the client making it work harder, or the machine's drift.
#
#   tests/bench/compare_h2_client.sh [BUILD_DIR] [SECONDS] [RUNS]   (default: build/release, 5, 3)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
seconds=${2:-5}
runs=${3:-3}
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_h2_client nginx h2load curl taskset "$cli"
bench_files 4K,1M
BENCH_NGINX_LISTEN=http2 bench_nginx nginx 19460 "http2_max_concurrent_streams 128;"
base=http://127.0.0.1:19460

nginx_pid=$(bench_serving_pid nginx)
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
seconds_of() { awk '{ split($0, t, "m"); sub("s", "", t[2]); print t[1] * 60 + t[2] }' <<<"$1"; }
# measure TOOL FILE C M -> "req/s client_cpu_us_per_request requests server_ticks"
measure() {
    local tool=$1 file=$2 c=$3 m=$4 before after
    before=$(cpu_ticks "$nginx_pid")
    (
        if [ "$tool" = h2load ]; then
            taskset -c 1 h2load -D "$seconds" -t 1 -c "$c" -m "$m" "$base/$file" >"$work/out" 2>&1
        else
            taskset -c 1 "$cli" load --http2 --model duration -d "$seconds" -c "$c" -m "$m" \
                --threads 1 --json "$base/$file" >"$work/out" 2>&1
        fi
        times >"$work/times"
    )
    after=$(cpu_ticks "$nginx_pid")
    local children user sys
    children=$(sed -n 2p "$work/times")
    user=$(seconds_of "${children% *}")
    sys=$(seconds_of "${children#* }")
    if [ "$tool" = h2load ]; then
        # "requests: N total, N started, N done, N succeeded, ..."; its req/s counts the
        # succeeded over the duration.
        sed -n 's/^requests: .* \([0-9]*\) succeeded.*/\1/p' "$work/out" |
            awk -v s="$seconds" -v u="$user" -v y="$sys" -v t=$((after - before)) \
                '$1 > 0 { printf "%.1f %.3f %d %d\n", $1 / s, (u + y) * 1e6 / $1, $1, t }'
    else
        python3 -c "import json; d=json.load(open('$work/out')); ok=d['completed']-d['failed']; \
print('%.1f %.3f %d %d' % (d['requests_per_s'], ($user + $sys) * 1e6 / max(ok, 1), ok, $((after - before))))"
    fi
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-6s %-10s %12s %18s %18s\n' file client 'req/s' 'CPU us/request' 'nginx us/request'
for point in "4K.bin 16 10" "1M.bin 4 4"; do
    read -r file c m <<<"$point"
    for tool in h2load servelab; do : >"$work/$tool.rps"; : >"$work/$tool.cpu"; : >"$work/$tool.srv"; done
    : >"$work/pair.rps"
    for _ in $(seq "$runs"); do # interleaved: the machine's drift hits both alike
        for tool in h2load servelab; do
            read -r r u n t < <(measure $tool "$file" "$c" "$m")
            echo "$r" >>"$work/$tool.rps"
            echo "$u" >>"$work/$tool.cpu"
            awk -v n="$n" -v t="$t" -v hz="$ticks" 'BEGIN { printf "%.3f\n", t / hz * 1e6 / n }' >>"$work/$tool.srv"
        done
        # This run's pair: the two measured back to back, so drift slower than a run cancels.
        paste "$work/h2load.rps" "$work/servelab.rps" | tail -1 |
            awk '{ printf "%.3f\n", $2 / $1 }' >>"$work/pair.rps"
    done
    declare -A rps cpu srv
    for tool in h2load servelab; do
        rps[$tool]=$(median <"$work/$tool.rps")
        cpu[$tool]=$(median <"$work/$tool.cpu")
        srv[$tool]=$(median <"$work/$tool.srv")
        printf '%-6s %-10s %12.1f %18.3f %18.3f\n' "$file" "$tool" "${rps[$tool]}" "${cpu[$tool]}" "${srv[$tool]}"
    done
    awk -v a="${rps[servelab]}" -v b="${rps[h2load]}" -v c="${cpu[servelab]}" -v d="${cpu[h2load]}" \
        -v e="${srv[servelab]}" -v g="${srv[h2load]}" -v f="$file" -v cm="-c$c -m$m" 'BEGIN {
        printf "%s %s ratio servelab / h2load: req/s %.3f (target 0.97 .. 1.03), CPU per request %.3f (target <= 1), nginx CPU per request %.3f\n", f, cm, a / b, c / d, e / g }'
    sort -g "$work/pair.rps" | awk '{ a[NR] = $1 } END {
        printf "  req/s ratio of each back-to-back pair: median %.3f, range %.3f .. %.3f over %d pairs\n\n", a[int((NR + 1) / 2)], a[1], a[NR], NR }'
done
