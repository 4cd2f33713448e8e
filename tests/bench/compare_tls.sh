#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark, not a test: never fails on a number. https, against nginx with the same certificate
# (ServeLab's self-signed ECDSA P-256 pair), the same protocols (TLS 1.2 and 1.3, OpenSSL's
# defaults: TLS 1.3 with AES-256-GCM and X25519 here) and one worker; servers on cpu0, clients
# on cpu1, interleaved runs, medians. Prints, as ratios ServeLab / nginx (targets: >= 1.0):
#   4K keep-alive req/s under wrk -t1 -c64   (epoll+copy and epoll+mmap against nginx)
#   full handshakes per second               (servelab-cli load --handshake new -c 16, both)
#   1M keep-alive transfer under wrk -t1 -c8 (KiB/s)
# then the client: servelab-cli load -d against wrk on nginx https (4K, -c64, keep-alive):
# req/s and client CPU per request (targets: >= 1.0 x wrk's req/s, <= wrk's CPU), and h2load's
# figure (HTTP/1.1 over TLS) where it is installed.
#
#   tests/bench/compare_tls.sh [BUILD_DIR] [SECONDS] [RUNS]   (default: build/release, 5, 3)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build/release}
seconds=${2:-5}
runs=${3:-3}
cli=$build/bin/servelab-cli
. "$src/tests/bench/benchlib.sh"
bench_start compare_tls nginx wrk curl taskset python3 "$cli"
bench_files 4K,1M
export XDG_CACHE_HOME=$work/cache
tls=$XDG_CACHE_HOME/servelab/tls
# The built-in servers make the pair on their first start; nginx then serves the same files.
serve() { bench_servelab "$1" "$2" "$3" --tls self-signed; } # NAME PORT MODE
serve copy 19441 epoll+copy
serve mmap 19442 epoll+mmap
bench_nginx_tls nginx 19443 "$tls/localhost-p256.crt" "$tls/localhost-p256.key"
declare -A port=([copy]=19441 [mmap]=19442 [nginx]=19443)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds_of() { awk '{ split($0, t, "m"); sub("s", "", t[2]); print t[1] * 60 + t[2] }' <<<"$1"; }
wrk_rps() { # PORT FILE CONNECTIONS -> req/s
    taskset -c 1 wrk -t1 -c"$3" -d"${seconds}s" "https://127.0.0.1:$1/$2" | awk '/^Requests\/sec:/ {print $2}'
}
wrk_kib() { # PORT FILE CONNECTIONS -> KiB/s read
    taskset -c 1 wrk -t1 -c"$3" -d"${seconds}s" "https://127.0.0.1:$1/$2" |
        awk '/^Transfer\/sec:/ { v = $2; u = substr(v, length(v) - 1); n = v + 0;
             if (u == "GB") n *= 1048576; else if (u == "MB") n *= 1024; else if (u != "KB") n /= 1024;
             print n }'
}
handshakes() { # PORT -> full handshakes per second (one per request, no keep-alive)
    taskset -c 1 "$cli" load --model duration -d "$seconds" -c 16 --handshake new \
        --cacert "$tls/localhost-p256.crt" --json "https://127.0.0.1:$1/4K.bin" |
        python3 -c "import json,sys; d=json.load(sys.stdin); print(d['tls']['handshakes'] / d['elapsed_s'])"
}

for test in rps4k handshakes kib1m; do
    for server in copy mmap nginx; do : >"$work/$test.$server"; done
done
for _ in $(seq "$runs"); do
    for server in copy mmap nginx; do
        wrk_rps "${port[$server]}" 4K.bin 64 >>"$work/rps4k.$server"
        handshakes "${port[$server]}" >>"$work/handshakes.$server"
        wrk_kib "${port[$server]}" 1M.bin 8 >>"$work/kib1m.$server"
    done
done
printf '%-34s %12s %12s %12s %9s %9s\n' "https, medians of $runs x ${seconds}s" epoll+copy epoll+mmap nginx copy/ng mmap/ng
for test in rps4k handshakes kib1m; do
    c=$(median <"$work/$test.copy"); m=$(median <"$work/$test.mmap"); n=$(median <"$work/$test.nginx")
    case $test in
    rps4k) what="4K keep-alive req/s (wrk -c64)" ;;
    handshakes) what="full handshakes/s (load --handshake new)" ;;
    kib1m) what="1M keep-alive KiB/s (wrk -c8)" ;;
    esac
    awk -v w="$what" -v c="$c" -v m="$m" -v n="$n" \
        'BEGIN { printf "%-34s %12.0f %12.0f %12.0f %9.2f %9.2f\n", w, c, m, n, c / n, m / n }'
done

# The client against wrk, on nginx over https: req/s and client CPU per request.
measure() { # wrk|servelab -> "req/s cpu_us_per_request"
    (
        if [ "$1" = wrk ]; then
            taskset -c 1 wrk -t1 -c64 -d"${seconds}s" "https://127.0.0.1:19443/4K.bin" >"$work/out" 2>&1
        else
            taskset -c 1 "$cli" load --model duration -d "$seconds" -c 64 --threads 1 --insecure \
                --json "https://127.0.0.1:19443/4K.bin" >"$work/out" 2>&1
        fi
        times >"$work/times"
    )
    local children user sys
    children=$(sed -n 2p "$work/times")
    user=$(seconds_of "${children% *}")
    sys=$(seconds_of "${children#* }")
    if [ "$1" = wrk ]; then
        awk -v c="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
            '/^Requests\/sec:/ {r = $2} /requests in/ {n = $1} END {printf "%s %.3f\n", r, c * 1e6 / n}' "$work/out"
    else
        python3 -c "import json; d=json.load(open('$work/out')); print(d['requests_per_s'], '%.3f' % (($user + $sys) * 1e6 / d['completed']))"
    fi
}
for tool in wrk servelab; do : >"$work/$tool.rps"; : >"$work/$tool.cpu"; done
for _ in $(seq "$runs"); do
    for tool in wrk servelab; do
        read -r r c < <(measure $tool)
        echo "$r" >>"$work/$tool.rps"
        echo "$c" >>"$work/$tool.cpu"
    done
done
wr=$(median <"$work/wrk.rps"); sr=$(median <"$work/servelab.rps")
wc=$(median <"$work/wrk.cpu"); sc=$(median <"$work/servelab.cpu")
echo
echo "client on nginx https, 4K, -t1 -c64 keep-alive, medians of $runs x ${seconds}s"
awk -v wr="$wr" -v sr="$sr" -v wc="$wc" -v sc="$sc" 'BEGIN {
    printf "  wrk            %10.0f req/s  %7.2f us CPU/request\n", wr, wc
    printf "  servelab-cli   %10.0f req/s  %7.2f us CPU/request\n", sr, sc
    printf "  ratio          %10.3f        %7.3f (servelab / wrk; req/s >= 1.0, CPU <= 1.0)\n", sr / wr, sc / wc }'
if command -v h2load >/dev/null; then
    h=$(taskset -c 1 h2load --h1 -c64 -t1 -D "$seconds" "https://127.0.0.1:19443/4K.bin" 2>/dev/null |
        awk '/^finished in/ {gsub(",", ""); print $4}')
    echo "  h2load --h1    ${h:-?} req/s"
fi
