#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark diagnosis, not a test: never fails on a number. Why 1 MiB under wrk -t1 -c8 is not a
# ratio of servers (compare_peers.sh section 2). nginx (sendfile on, tcp_nopush on,
# open_file_cache) and `servelab-cli serve --mode epoll+sendfile --open-file-cache 1000` on cpu0,
# wrk on cpu1, ROUNDS interleaved rounds of SECONDS each, every server loaded twice: all eight
# connections on one 1 MiB file (as compare_peers.sh), then spread over 16 copies of it by a wrk
# Lua script. Per run it prints wrk's GB/s, the kernel's TCP receive-queue counters (nstat:
# TCPWantZeroWindowAdv, TCPRcvCoalesce, TcpRetransSegs), the CPU time of each side (wrk's from
# GNU time, the server's from /proc) and with PERF=1 the share of wrk's core in _copy_to_iter
# (perf record -e cpu-clock -C 1), the kernel's copy of the bytes into wrk's buffer.
#
#   tests/bench/probe_1m_wrk.sh [BUILD_DIR] [SECONDS] [ROUNDS]   (default: build/release, 4, 3)
#   SERVE_FLAGS="--nopush on" tests/bench/probe_1m_wrk.sh        extra flags for serve
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
seconds=${2:-4}
rounds=${3:-3}
[[ $seconds =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ ]] || {
    echo "probe_1m_wrk: SECONDS and ROUNDS are whole numbers from 1, not '$seconds' '$rounds'" >&2
    exit 2
}
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
tools=(nginx wrk nstat curl taskset timeout pgrep getconf /usr/bin/time "$cli")
[ "${PERF:-0}" = 1 ] && tools+=(perf)
bench_start probe_1m_wrk "${tools[@]}"
clk_tck=$(getconf CLK_TCK)

bench_files 1M
for i in $(seq 0 15); do cp "$work/root/1M.bin" "$work/root/copy$i.bin"; done
cat >"$work/spread.lua" <<'LUA'
n = 0
request = function()
    n = n + 1
    return wrk.format("GET", "/copy" .. (n % 16) .. ".bin")
end
LUA
bench_nginx nginx 19620 "open_file_cache max=1000 inactive=20s; open_file_cache_valid 1s;" on
# shellcheck disable=SC2086 # SERVE_FLAGS is a list of flags
taskset -c 0 "$cli" serve --root "$work/root" --host 127.0.0.1 --port 19621 --mode epoll+sendfile \
    --max-requests 0 --threads 1 --open-file-cache 1000 ${SERVE_FLAGS:-} >"$work/serve.log" 2>&1 &
pids+=($!)
serve_pid=$!
bench_wait_http 19621 "servelab-cli serve" "$work/serve.log"
declare -A port=([nginx]=19620 [servelab]=19621)
declare -A spid=([nginx]="$(bench_serving_pid nginx)" [servelab]=$serve_pid)

ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
echo "probe_1m_wrk: wrk -t1 -c8 -d${seconds}s /1M.bin, $rounds rounds; kernel $(uname -r)," \
    "congestion control $(sysctl -n net.ipv4.tcp_congestion_control)"
printf '%-9s %5s %-6s %8s %12s %10s %8s %9s %9s %s\n' server round files GB/s WantZeroWin RcvCoalesce Retrans \
    wrk-CPU% srv-CPU% "${PERF:+copy_to_iter%}"
for round in $(seq "$rounds"); do
    for files in one 16; do
        script=()
        [ $files = 16 ] && script=(-s "$work/spread.lua")
        for name in nginx servelab; do
            before=$(ticks "${spid[$name]}")
            nstat -n
            copy=
            # With PERF=1, perf samples cpu1 for exactly wrk's run: it starts wrk and ends with it.
            sampler=()
            [ "${PERF:-0}" = 1 ] && sampler=(perf record -q -e cpu-clock -C 1 -o "$work/perf.data" --)
            timeout -k 5 $((seconds + 30)) "${sampler[@]}" /usr/bin/time -f '%U %S' -o "$work/time.out" \
                taskset -c 1 wrk -t1 -c8 -d"${seconds}s" "${script[@]}" "http://127.0.0.1:${port[$name]}/1M.bin" \
                >"$work/wrk.out" 2>"$work/wrk.err" || true
            nstat >"$work/nstat.out" 2>/dev/null
            after=$(ticks "${spid[$name]}")
            if [ "${PERF:-0}" = 1 ]; then
                copy=$(perf report -i "$work/perf.data" --no-children --sort sym --stdio 2>/dev/null |
                    awk '/_copy_to_iter/ && !f { print $1; f = 1 }')
            fi
            awk -v name="$name" -v round="$round" -v files=$files -v s="$seconds" -v b="$before" -v a="$after" \
                -v hz="$clk_tck" -v copy="${copy:-}" '
                FILENAME ~ /nstat.out/ { c[$1] = $2 }
                FILENAME ~ /wrk.out/ && /Transfer\/sec:/ { v = $2; u = v; sub(/^[0-9.]+/, "", u)
                    g["MB"] = 1 / 1024; g["GB"] = 1; g["KB"] = 1 / 1048576; gb = (v + 0) * g[u] }
                FILENAME ~ /time.out/ { wrk = ($1 + $2) / s * 100 }
                END { printf "%-9s %5d %-6s %8.2f %12d %10d %8d %8.0f%% %8.0f%% %s\n", name, round, files, gb,
                      c["TcpExtTCPWantZeroWindowAdv"], c["TcpExtTCPRcvCoalesce"], c["TcpRetransSegs"],
                      wrk, (a - b) / hz / s * 100, copy }' "$work/wrk.out" "$work/time.out" "$work/nstat.out"
        done
    done
done
