#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. The duration model against wrk on the same
# nginx (1 worker, cpu0; clients on cpu1): 4 KiB, -t1 -c64, keep-alive. Prints each client's
# req/s and CPU time per request (user + system of the client process, from /proc), and the
# ratios servelab / wrk. Targets (issue 4): req/s >= 0.95 x wrk's, CPU per request <= wrk's.
# Then the rate model (wrk2 semantics; wrk2 itself is not packaged) at RATE req/s for
# RATE_SECONDS on the same nginx: achieved / offered (target within +-2 %).
#
#   tests/bench/compare_wrk_client.sh [BUILD_DIR] [SECONDS] [RUNS]   (default: build/release, 5, 3)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
seconds=${2:-5}
runs=${3:-3}
rate=${RATE:-20000}
rate_seconds=${RATE_SECONDS:-20}
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_wrk_client nginx wrk curl taskset "$cli"
bench_files 4K
bench_nginx nginx 19380 ""
url=http://127.0.0.1:19380/4K.bin

# Runs a client pinned to cpu1; prints "req/s cpu_seconds requests". CPU time is the client's
# user + system time, from bash's `times` in the subshell that waited for it.
seconds_of() { awk '{ split($0, t, "m"); sub("s", "", t[2]); print t[1] * 60 + t[2] }' <<<"$1"; }
measure() { # tool
    (
        if [ "$1" = wrk ]; then
            taskset -c 1 wrk -t1 -c64 -d"${seconds}s" "$url" >"$work/out" 2>&1
        else
            taskset -c 1 "$cli" load --model duration -d "$seconds" -c 64 --threads 1 --json \
                "$url" >"$work/out" 2>&1
        fi
        times >"$work/times"
    )
    local children user sys cpu
    children=$(sed -n 2p "$work/times")
    user=$(seconds_of "${children% *}")
    sys=$(seconds_of "${children#* }")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    if [ "$1" = wrk ]; then
        echo "$(awk '/^Requests\/sec:/ {print $2}' "$work/out") $cpu $(awk '/requests in/ {print $1}' "$work/out")"
    else
        python3 -c "import json; d=json.load(open('$work/out')); print(d['requests_per_s'], $cpu, d['completed'])"
    fi
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A rps cpu
for tool in wrk servelab; do : >"$work/$tool.rps"; : >"$work/$tool.cpu"; done
# Interleaved, so that the machine's drift during the run hits both clients alike.
for _ in $(seq "$runs"); do
    for tool in wrk servelab; do
        read -r r c n < <(measure $tool)
        echo "$r" >>"$work/$tool.rps"
        echo "$c $n" | awk '{printf "%.3f\n", $1 * 1e6 / $2}' >>"$work/$tool.cpu"
    done
done
for tool in wrk servelab; do
    rps[$tool]=$(median <"$work/$tool.rps")
    cpu[$tool]=$(median <"$work/$tool.cpu")
done

printf '%-10s %12s %18s\n' client 'req/s' 'CPU us/request'
for tool in wrk servelab; do
    printf '%-10s %12.2f %18.3f\n' "$tool" "${rps[$tool]}" "${cpu[$tool]}"
done
awk -v a="${rps[servelab]}" -v b="${rps[wrk]}" -v c="${cpu[servelab]}" -v d="${cpu[wrk]}" 'BEGIN {
    printf "\nratio servelab / wrk: req/s %.3f (target >= 0.95), CPU per request %.3f (target <= 1)\n", a / b, c / d }'

taskset -c 1 "$cli" load --model rate -R "$rate" -d "$rate_seconds" -c 64 --threads 1 --json "$url" \
    >"$work/rate.json"
python3 - "$work/rate.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
achieved, offered = d["requests_per_s"], d["offered_per_s"]
print(f"\nrate: offered {offered:.0f} req/s, achieved {achieved:.2f} req/s, ratio {achieved / offered:.4f} "
      f"(target 0.98 .. 1.02); late {d['late']}, missed {d['missed']}, errors {d['failed']}")
print(f"      p99 corrected {d['latency']['p99'] / 1000:.2f} ms, uncorrected {d['latency_uncorrected']['p99'] / 1000:.2f} ms")
PY
