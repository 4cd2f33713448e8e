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
#   COMPARE=servers ...   the servers instead, under each client: rounds of nginx, ServeLab,
#                         nginx, and ServeLab over the nginx runs beside nginx against nginx
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
declare -A port=([nginx]=18382 [servelab]=18383)

# The server's voluntary context switches, all its threads.
sleeps() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# One run: "KiB/s sleeps-per-request" of CLIENT (ab, or load: --http1.0 --ab-reads) on SERVER.
one() { # client server size n
    local url=http://127.0.0.1:${port[$2]}/$3.bin before after kib
    before=$(sleeps "${spid[$2]}")
    if [ "$1" = ab ]; then
        kib=$(taskset -c 1 ab -q -n "$4" -c 1 "$url" | awk '/^Transfer rate:/ { print $3 }')
    else
        kib=$(taskset -c 1 "$cli" load --http1.0 --ab-reads -n "$4" -c 1 "$url" |
            awk '/^Transfer rate:/ { print $3 }')
    fi
    after=$(sleeps "${spid[$2]}")
    awk -v k="$kib" -v d=$((after - before)) -v n="$4" 'BEGIN { printf "%s %.2f\n", k, d / n }'
}
# "median lowest..highest" of the values given.
spread() { printf '%s %s..%s\n' "$(median "$@")" "$(printf '%s\n' "$@" | sort -g | head -1)" \
    "$(printf '%s\n' "$@" | sort -g | tail -1)"; }

# What a row compares: A is run before and after B; "row-label A B" with A and B client@server.
rows=()
if [ "${COMPARE:-clients}" = servers ]; then
    rows=("ab ab@nginx ab@servelab" "load load@nginx load@servelab")
    head="client nginx servelab servelab/nginx range nginx/nginx range"
else
    rows=("nginx ab@nginx load@nginx" "servelab ab@servelab load@servelab")
    head="server ab load load/ab range ab/ab range"
fi
read -r h1 h2 h3 h4 h5 h6 h7 <<<"$head"
echo "probe_ab_pairs: $pairs rounds per row (A, B, A again), -c 1, KiB/s; load is" \
    "load --http1.0 --ab-reads; serve flags: ${SERVE_FLAGS:-none}"
printf '%-5s %-9s %5s %11s %11s %14s %13s %13s %13s %6s %6s\n' size "$h1" N "$h2" "$h3" "$h4" \
    "$h5" "$h6" "$h7" "sl A" "sl B"
for size in "${sizes[@]}"; do
    bytes=$(stat -c %s "$work/root/$size.bin")
    # About a second a run: ~8,000 requests a second at 4K, ~1.3 GB/s at 32M, here.
    n=$((1300000000 / bytes))
    [ $n -gt 8000 ] && n=8000
    [ $n -lt 40 ] && n=40
    for row in "${rows[@]}"; do
        read -r label a b <<<"$row"
        as=() bs=() rs=() aa=() sa=() sb=()
        for _ in $(seq "$pairs"); do
            read -r a1 s1 < <(one "${a%@*}" "${a#*@}" "$size" $n)
            read -r b1 s2 < <(one "${b%@*}" "${b#*@}" "$size" $n)
            read -r a2 _ < <(one "${a%@*}" "${a#*@}" "$size" $n)
            as+=("$a1" "$a2") bs+=("$b1") sa+=("$s1") sb+=("$s2")
            rs+=("$(awk -v l="$b1" -v a="$a1" -v b="$a2" 'BEGIN { printf "%.3f", 2 * l / (a + b) }')")
            aa+=("$(awk -v a="$a1" -v b="$a2" 'BEGIN { printf "%.3f", b / a }')")
        done
        read -r rm rr < <(spread "${rs[@]}")
        read -r am ar < <(spread "${aa[@]}")
        printf '%-5s %-9s %5s %11s %11s %14s %13s %13s %13s %6s %6s\n' "$size" "$label" $n \
            "$(median "${as[@]}")" "$(median "${bs[@]}")" "$rm" "$rr" "$am" "$ar" \
            "$(median "${sa[@]}")" "$(median "${sb[@]}")"
    done
done
