#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. Does `servelab-cli load --http1.0 --ab-reads`
# agree with ab? Run to run, a -c 1 figure on this machine moves by ±10 %, more than the ±3 %
# asked of the agreement, so the clients are compared in rounds of three runs on the same server,
# back to back: ab, ServeLab's client, ab again. Per round, `load/ab` is the client's figure over
# the mean of the two ab runs around it, and `ab/ab` the second ab run over the first: how well
# ab agrees with itself, the floor any agreement can be measured to here. Prints, per size and
# server, each client's median KiB/s, the median and range of both ratios, and the server's
# voluntary context switches per request under each client (a server that finds the request
# there when it accepts sleeps once per request; one that accepts first sleeps twice).
#
#   tests/bench/probe_ab_pairs.sh [BUILD_DIR] [PAIRS] [SIZES...]
#       (default: build/release, 7 pairs, 4K 64K 256K 1M 2M 32M)
#   SERVE_FLAGS="--defer-accept on" ...   flags for the built-in server (epoll+sendfile)
# Servers on cpu0 (nginx 1 worker, sendfile and tcp_nopush on; servelab-cli serve), clients on
# cpu1; each run lasts about a second (N from the size), no keep-alive.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
pairs=${2:-7}
shift 2 || shift $# || true
sizes=("$@")
[ ${#sizes[@]} = 0 ] && sizes=(4K 64K 256K 1M 2M 32M)
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start probe_ab_pairs nginx ab taskset "$cli"
bench_files "$(IFS=,; echo "${sizes[*]}")"
bench_nginx nginx 18382 ""
# shellcheck disable=SC2086 # SERVE_FLAGS: several flags, split on purpose
taskset -c 0 "$cli" serve --root "$work/root" --port 18383 --max-requests 0 ${SERVE_FLAGS:-} \
    >"$work/serve.log" 2>&1 &
pids+=($!)
bench_wait_http 18383 "servelab-cli serve" "$work/serve.log"
declare -A spid=([nginx]=$(bench_serving_pid nginx) [servelab]=${pids[-1]})

# The server's voluntary context switches, all its threads.
sleeps() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# One run: "KiB/s sleeps-per-request".
one() { # client url n pid
    local before after kib
    before=$(sleeps "$4")
    if [ "$1" = ab ]; then
        kib=$(taskset -c 1 ab -q -n "$3" -c 1 "$2" | awk '/^Transfer rate:/ { print $3 }')
    else
        kib=$(taskset -c 1 "$cli" load --http1.0 --ab-reads -n "$3" -c 1 "$2" |
            awk '/^Transfer rate:/ { print $3 }')
    fi
    after=$(sleeps "$4")
    awk -v k="$kib" -v d=$((after - before)) -v n="$3" 'BEGIN { printf "%s %.2f\n", k, d / n }'
}

echo "probe_ab_pairs: $pairs rounds per row (ab, load --http1.0 --ab-reads, ab), -c 1, KiB/s;" \
    "serve flags: ${SERVE_FLAGS:-none}"
printf '%-5s %-9s %5s %11s %11s %7s %13s %7s %13s %6s %6s\n' size server N ab load load/ab range \
    ab/ab range "sl ab" "sl ld"
# "median lowest..highest" of the values given.
spread() { printf '%s %s..%s\n' "$(median "$@")" "$(printf '%s\n' "$@" | sort -g | head -1)" \
    "$(printf '%s\n' "$@" | sort -g | tail -1)"; }
for size in "${sizes[@]}"; do
    bytes=$(stat -c %s "$work/root/$size.bin")
    # About a second a run: ~8,000 requests a second at 4K, ~1.3 GB/s at 32M, here.
    n=$((1300000000 / bytes))
    [ $n -gt 8000 ] && n=8000
    [ $n -lt 40 ] && n=40
    for server in nginx servelab; do
        port=18382
        [ $server = servelab ] && port=18383
        url=http://127.0.0.1:$port/$size.bin
        as=() ls=() rs=() aa=() sa=() sl=()
        for _ in $(seq "$pairs"); do
            read -r a1 s1 < <(one ab "$url" $n "${spid[$server]}")
            read -r l s2 < <(one load "$url" $n "${spid[$server]}")
            read -r a2 _ < <(one ab "$url" $n "${spid[$server]}")
            as+=("$a1" "$a2") ls+=("$l") sa+=("$s1") sl+=("$s2")
            rs+=("$(awk -v l="$l" -v a="$a1" -v b="$a2" 'BEGIN { printf "%.3f", 2 * l / (a + b) }')")
            aa+=("$(awk -v a="$a1" -v b="$a2" 'BEGIN { printf "%.3f", b / a }')")
        done
        read -r rm rr < <(spread "${rs[@]}")
        read -r am ar < <(spread "${aa[@]}")
        printf '%-5s %-9s %5s %11s %11s %7s %13s %7s %13s %6s %6s\n' "$size" $server $n \
            "$(median "${as[@]}")" "$(median "${ls[@]}")" "$rm" "$rr" "$am" "$ar" \
            "$(median "${sa[@]}")" "$(median "${sl[@]}")"
    done
done
